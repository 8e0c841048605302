//! Warnings (docs/language.md, decisions 14 and 15): shown on standard error with the source line,
//! compile-time ones before the run and run-time ones once per place; they never change the exit
//! status, and `--deny-warnings` makes them errors.

use crate::common::{ds, ds_eval, ds_file, scratch_file, without_scratch_dirs};
use ds::repl::Backend;

/// Standard error without the temporary directory, which differs per run.
fn stderr_of(r: &crate::common::Run) -> String {
    without_scratch_dirs(&r.stderr)
}

fn warnings_in(stderr: &str) -> usize {
    stderr.matches("warning:").count()
}

#[test]
fn an_unused_value_warns_before_the_run_and_the_run_goes_on() {
    let r = ds_file("unused.ds", "out \"first\"\nvar x = 1\nx == 2\nout x\n", &[]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "first\n1\n"));
    insta::assert_snapshot!(stderr_of(&r), @r"
    warning: the result of this comparison is unused
      ┌─ unused.ds:3:1
      │
    3 │ x == 2
      │ ^^^^^^
      │
      = to assign, write `x = ...` with one `=`
    ");
}

#[test]
fn a_parenthesised_edge_statement_reads_the_edge_and_warns() {
    let src = "edges on\nnodes box, cat\n(box on cat)\nout (box on cat)\nbox on cat\nout (box on cat)\n";
    let r = ds_file("paren_edge.ds", src, &[]);
    // The first statement did not set the edge: it is Undef until the bare statement sets it.
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "Undef\nTrue\n"));
    insta::assert_snapshot!(stderr_of(&r), @r"
    warning: an edge in parentheses only reads the edge, and its value is unused
      ┌─ paren_edge.ds:3:1
      │
    3 │ (box on cat)
      │ ^^^^^^^^^^^^
      │
      = to set the edge, write it without the parentheses: `X rel Y`
    ");
}

#[test]
fn the_repl_shows_the_value_of_a_parenthesised_edge_without_setting_it() {
    let mut b = Backend::capturing();
    for entry in ["edges on", "nodes box, cat"] {
        assert!(!b.eval(entry).failed());
    }
    let shown = b.eval("(box on cat)");
    assert_eq!((shown.output.as_str(), shown.warnings.as_str()), ("Undef\n", ""));
    assert_eq!(b.eval("box on cat").output, "", "a bare edge statement sets, and shows nothing");
    assert_eq!(b.eval("(box on cat)").output, "True\n");
    assert_eq!(b.eval("(box !on cat)").output, "False\n");
}

#[test]
fn statements_that_do_something_do_not_warn() {
    let src = "edges on\nnodes a, b\nvar A = []\nA.push(1)\nvar x = 0\nx += 1\nx++\na on b\n\
               def f() { return 1 }\nf()\nexists(X, X on b)\nout X, x, A.size()\n";
    let r = ds_file("quiet.ds", src, &[]);
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (Some(0), "a 2 1\n", ""));
}

#[test]
fn a_variable_declared_twice_in_one_block_warns_with_both_places() {
    let src = "var n = 1\nif n > 0 {\n  var n = 2\n  var n = 3\n  out n\n}\nout n\n";
    let r = ds_file("twice.ds", src, &[]);
    // The inner block's `var n` shadows the outer one: only its second declaration warns.
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "3\n1\n"));
    insta::assert_snapshot!(stderr_of(&r), @r"
    warning: `n` is declared twice in this block
      ┌─ twice.ds:4:7
      │
    3 │   var n = 2
      │       - first declared here
    4 │   var n = 3
      │       ^
      │
      = the second `var` reuses the variable; to give it a value, write `n = ...`
    ");
}

#[test]
fn a_parameter_declared_again_warns() {
    let r = ds_eval("def f(A) {\n  var A = 2\n  return A\n}\nout f(1)\n");
    assert_eq!((r.code, r.stdout.as_str(), warnings_in(&r.stderr)), (Some(0), "2\n", 1));
    assert!(r.stderr.contains("`A` is declared twice"), "{}", r.stderr);
}

#[test]
fn the_repl_may_declare_a_variable_again_in_a_later_entry() {
    let mut b = Backend::capturing();
    assert_eq!(b.eval("var x = 1").warnings, "");
    let again = b.eval("var x = 2");
    assert_eq!((again.warnings.as_str(), again.errors.as_str()), ("", ""));
    assert!(b.eval("var y = 1\nvar y = 2").warnings.contains("declared twice"));
}

#[test]
fn comparing_states_of_two_worlds_warns_once_per_place() {
    let src = "edges on\nvar S = GRAPH(\"Start\")\nnodes a, b\na on b\nvar G = GRAPH(\"Goal\")\nnodes a, b\na on b\n\
               for i in range(3) {\n  out S == G,\n}\nout \"\"\nout S.copy() == S\n";
    let r = ds_file("worlds.ds", src, &[]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "False False False \nTrue\n"));
    insta::assert_snapshot!(stderr_of(&r), @r"
    warning: `Start` == `Goal` compares states of two different worlds: always False
      ┌─ worlds.ds:9:7
      │
    9 │   out S == G,
      │       ^^^^^^
      │
      = each `GRAPH(...)` starts a new world, with nodes of its own even when their names are the same; make the second state a copy of the first (`Goal = Start.copy()`) and change its edges
    ");
}

#[test]
fn deny_warnings_stops_before_the_run_on_a_compile_time_warning() {
    let r = ds(&["--deny-warnings", "-e", "out \"never\"\nvar x = 1\nx + 1\n"]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(1), ""));
    assert!(r.stderr.starts_with("error: this value is unused"), "{}", r.stderr);
    assert!(r.stderr.contains("made an error by `--deny-warnings`"), "{}", r.stderr);
}

#[test]
fn deny_warnings_stops_the_run_at_a_run_time_warning() {
    let src = "edges on\nvar S = GRAPH(\"S\")\nvar G = GRAPH(\"G\")\nout \"before\"\nout S == G\nout \"after\"\n";
    let r = ds(&["--deny-warnings", "-e", src]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(1), "before\n"));
    assert!(r.stderr.starts_with("error: `S` == `G` compares states of two different worlds"), "{}", r.stderr);
    let plain = ds(&["-e", src]);
    assert_eq!((plain.code, plain.stdout.as_str(), warnings_in(&plain.stderr)), (Some(0), "before\nFalse\nafter\n", 1));
}

#[test]
fn check_shows_warnings_and_succeeds() {
    let path = scratch_file("check_warn.ds", "var x = 1\nx\n");
    let p = path.to_string_lossy().into_owned();
    let r = ds(&["--check", &p]);
    assert_eq!((r.code, r.stdout.as_str(), warnings_in(&r.stderr)), (Some(0), "", 1));
    assert_eq!(ds(&["--check", "--deny-warnings", &p]).code, Some(1));
}

#[test]
fn a_warning_comes_with_the_errors_of_the_same_chunk() {
    let r = ds_eval("var x = 1\nx == 2\nout nosuch\n");
    assert_eq!(r.code, Some(1));
    let warning = r.stderr.find("warning: the result of this comparison is unused");
    let error = r.stderr.find("error: unknown name `nosuch`");
    assert!(warning.is_some() && error.is_some() && warning < error, "{}", r.stderr);
}

#[test]
fn a_method_without_parentheses_as_a_statement_says_how_to_call_it() {
    let r = ds_eval("var A = [1]\nA.clear\nout A\n");
    // The warning comes before the run; the run then fails where `A.clear` reads a node.
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.starts_with("warning: this value is unused"), "{}", r.stderr);
    assert!(r.stderr.contains("`clear` is a method: to call it, write `.clear()`"), "{}", r.stderr);
}

//! Rendered diagnostics, as the user sees them on standard error. Each expected text was read
//! line by line: the file:line:col, the quoted source line, the caret under the offending
//! token, and the message and notes.

use crate::common::ds_file;

fn error_of(name: &str, src: &str) -> String {
    let r = ds_file(name, src, &[]);
    assert_eq!(r.code, Some(1), "a script error exits with 1");
    assert_eq!(r.stdout, "", "nothing runs when the script has a compile error");
    // The temporary directory differs per run; keep only the file name.
    r.stderr
        .replace(&format!("{}/", std::env::temp_dir().join(format!("ds-test-{}", std::process::id())).display()), "")
}

#[test]
fn unclosed_parenthesis_points_at_the_next_statement() {
    insta::assert_snapshot!(error_of("paren.ds", "out \"a\"\nvar x = (1 + 2\nout \"b\"\n"), @r#"
    error: expected `)` before `out`: the `(` on line 2 is not closed
      ┌─ paren.ds:3:1
      │
    3 │ out "b"
      │ ^^^
    "#);
}

#[test]
fn unexpected_operator_expects_an_expression() {
    insta::assert_snapshot!(error_of("op.ds", "out 1 +* 2\n"), @r"
    error: unexpected `*`; expected an expression
      ┌─ op.ds:1:8
      │
    1 │ out 1 +* 2
      │        ^
    ");
}

#[test]
fn unknown_name_suggests_a_close_one() {
    insta::assert_snapshot!(error_of("name.ds", "var Start = 1\nout Strat\n"), @r"
    error: unknown name `Strat`: not a variable, edge or node
      ┌─ name.ds:2:5
      │
    2 │ out Strat
      │     ^^^^^
      │
      = did you mean `Start`?
    ");
}

#[test]
fn wrong_argument_count_of_a_demon() {
    insta::assert_snapshot!(error_of("arity.ds", "def f(a, b) { return a }\nout f(1)\n"), @r"
    error: demon `f` takes 2 arguments, but 1 given
      ┌─ arity.ds:2:5
      │
    2 │ out f(1)
      │     ^^^^
    ");
}

#[test]
fn unknown_method_and_module_function() {
    insta::assert_snapshot!(error_of("method.ds", "var a = [1]\na.psh(2)\nout Math.sqr(4)\n"), @r"
    error: unknown method `psh`
      ┌─ method.ds:2:3
      │
    2 │ a.psh(2)
      │   ^^^
      │
      = did you mean `push`?

    error: module `Math` has no function `sqr`
      ┌─ method.ds:3:10
      │
    3 │ out Math.sqr(4)
      │          ^^^
      │
      = did you mean `Math.sqrt`?
    ");
}

#[test]
fn unknown_edge_type() {
    let src = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\na onn b\n";
    insta::assert_snapshot!(error_of("edge.ds", src), @r"
    error: unknown edge type `onn`
      ┌─ edge.ds:5:3
      │
    5 │ a onn b
      │   ^^^
      │
      = did you mean `on`?
    ");
}

#[test]
fn unclosed_block_at_the_end() {
    insta::assert_snapshot!(error_of("block.ds", "if 2 > 1 { out 1"), @r"
    error: unexpected end of input; expected one of `}`, end of line
      ┌─ block.ds:1:17
      │
    1 │ if 2 > 1 { out 1
      │                 ^
      │
      = the `{` on line 1 is not closed
    ");
}

#[test]
fn unterminated_string_and_stray_character() {
    insta::assert_snapshot!(error_of("str.ds", "out \"abc\n"), @r#"
    error: unterminated string literal
      ┌─ str.ds:1:5
      │
    1 │ out "abc
      │     ^^^^
    "#);
    insta::assert_snapshot!(error_of("char.ds", "out 5 @ 3\n"), @r"
    error: unexpected character `@`
      ┌─ char.ds:1:7
      │
    1 │ out 5 @ 3
      │       ^
    ");
}

#[test]
fn runtime_error_with_the_demon_stack() {
    let r = ds_file("rt.ds", "def inner(x) { return x / 0 }\ndef outer(x) { return inner(x) }\nout outer(1)\n", &[]);
    assert_eq!(r.code, Some(1));
    let stderr = r
        .stderr
        .replace(&format!("{}/", std::env::temp_dir().join(format!("ds-test-{}", std::process::id())).display()), "");
    insta::assert_snapshot!(stderr, @r"
    error: division by zero
      ┌─ rt.ds:1:23
      │
    1 │ def inner(x) { return x / 0 }
      │                       ^^^^^
      │
      = in demon `inner`, called from rt.ds:2:23
      = in demon `outer`, called from rt.ds:3:5
    ");
}

#[test]
fn a_top_level_variable_in_a_demon_needs_global() {
    insta::assert_snapshot!(error_of("global.ds", "var count = 0\ndef f() { count = 1 }\n"), @r"
    error: cannot assign to `count`: it is not a declared variable
      ┌─ global.ds:2:11
      │
    2 │ def f() { count = 1 }
      │           ^^^^^
      │
      = `count` is a top-level variable; write `global count` to use it in a demon
    ");
}

#[test]
fn a_mind_argument_that_is_not_an_axiom() {
    // Mind.add's arguments are compiled as axioms, not evaluated: `1+2` is caught before running.
    insta::assert_snapshot!(error_of("mind.ds", "edges part\nout \"never\"\nMind.add(X !part X, 1+2)\n"), @r"
    error: `Mind.add` takes axioms, and this is not one
      ┌─ mind.ds:3:21
      │
    3 │ Mind.add(X !part X, 1+2)
      │                     ^^^
      │
      = an axiom joins edge literals `X rel Y`, `X !rel Y` (and `X == Y`, `X != Y`) with `!`, `&`, `|`, `->`, `<->`; a name that is not declared stands for any node
      = for example: `Mind.add(X part Y & Y part Z -> X part Z)`
    ");
}

//! Rendered diagnostics, as the user sees them on standard error. Each expected text was read
//! line by line: the file:line:col, the quoted source line, the caret under the offending
//! token, and the message and notes.

use crate::common::{ds_file, prints, without_scratch_dirs};

fn error_of(name: &str, src: &str) -> String {
    let r = ds_file(name, src, &[]);
    assert_eq!(r.code, Some(1), "a script error exits with 1");
    assert_eq!(r.stdout, "", "nothing runs when the script has a compile error");
    // The temporary directory differs per run; keep only the file name.
    without_scratch_dirs(&r.stderr)
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
    let stderr = without_scratch_dirs(&r.stderr);
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
      = `count` is a top-level variable, which a demon does not see; write `global count` at the top level to share it
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

#[test]
fn a_size_without_parentheses_names_the_method() {
    // A method written without its parentheses reads as a node of a graph.
    insta::assert_snapshot!(error_of("size.ds", "var A = [1, 2]\nout A.size\n"), @r"
    error: `size` is a method: call it with parentheses, `.size()`
      ┌─ size.ds:2:5
      │
    2 │ out A.size
      │     ^^^^^^
      │
      = without them, `.size` reads a node: `=>` and `.$node` need a graph on the left, not an array
    ");
}

#[test]
fn in_between_two_values_names_is() {
    insta::assert_snapshot!(error_of("in.ds", "var A = [1, 2]\nif 2 in A : out \"yes\"\n"), @r#"
    error: `in` is not an operator: to ask whether an array or map holds a value, write `A.is(X)`
      ┌─ in.ds:2:6
      │
    2 │ if 2 in A : out "yes"
      │      ^^
      │
      = between two values, `in` reads as an edge type (`X in Y`), and none is declared; `edges in` declares one
    "#);
}

#[test]
fn a_doubled_ampersand_names_the_single_one() {
    insta::assert_snapshot!(error_of("andand.ds", "var a = True\nout a && a\n"), @r"
    error: `&&` is written `&` in DemonScript: `A & B`
      ┌─ andand.ds:2:7
      │
    2 │ out a && a
      │       ^^
    ");
}

#[test]
fn a_doubled_bar_names_the_single_one() {
    insta::assert_snapshot!(error_of("oror.ds", "var a = True\nout a || a\n"), @r"
    error: `||` is written `|` in DemonScript: `A | B`
      ┌─ oror.ds:2:7
      │
    2 │ out a || a
      │       ^^
    ");
}

#[test]
fn not_names_the_bang() {
    // The parser stops at the `:`; the message points at the word that caused it.
    insta::assert_snapshot!(error_of("not.ds", "var x = True\nif not x : out 1\n"), @r"
    error: `not X` is written `!X`
      ┌─ not.ds:2:4
      │
    2 │ if not x : out 1
      │    ^^^
      │
      = unexpected `:`; expected an expression
    ");
}

#[test]
fn elif_names_else_if() {
    insta::assert_snapshot!(error_of("elif.ds", "var x = 1\nif x > 2 : out 1\nelif x > 0 : out 2\n"), @r"
    error: `elif` is written `else if`
      ┌─ elif.ds:3:1
      │
    3 │ elif x > 0 : out 2
      │ ^^^^
      │
      = unexpected `>`; expected an expression
    ");
}

#[test]
fn elseif_names_else_if() {
    insta::assert_snapshot!(error_of("elseif.ds", "var x = 1\nif x > 2 : out 1\nelseif x > 0 : out 2\n"), @r"
    error: `elseif` is written `else if`, in two words
      ┌─ elseif.ds:3:1
      │
    3 │ elseif x > 0 : out 2
      │ ^^^^^^
      │
      = unexpected `>`; expected an expression
    ");
}

#[test]
fn a_misspelt_out_is_named_and_the_next_line_left_alone() {
    // `ot cat` reads as the start of an edge `ot cat ...`; the error stays on its line.
    insta::assert_snapshot!(error_of("ot.ds", "nodes cat\not cat\nout 1\n"), @r"
    error: unknown statement `ot`: did you mean `out`?
      ┌─ ot.ds:2:1
      │
    2 │ ot cat
      │ ^^
      │
      = unexpected end of statement; expected an expression
    ");
}

#[test]
fn a_lambda_does_not_see_the_demons_variables() {
    insta::assert_snapshot!(error_of("lambda.ds", "def cheapest(A) {\n  var Cost = 2\n  A.sort((a, b) => a * Cost - b)\n  return A\n}\n"), @r"
    error: `Cost` is not visible in this lambda
      ┌─ lambda.ds:3:24
      │
    3 │   A.sort((a, b) => a * Cost - b)
      │                        ^^^^
      │
      = a lambda sees its parameters, its own variables, `GRAPH` and the top-level names shared with `global`, not the variables of the code around it; pass `Cost` as an argument, or keep it in a top-level variable shared with `global Cost`
    ");
}

#[test]
fn a_top_level_variable_in_a_lambda_needs_global() {
    insta::assert_snapshot!(error_of("lambda_top.ds", "var Cost = 2\nvar F = (a) => a * Cost\n"), @r"
    error: `Cost` is not visible in this lambda
      ┌─ lambda_top.ds:2:20
      │
    2 │ var F = (a) => a * Cost
      │                    ^^^^
      │
      = `Cost` is a top-level variable, which a lambda does not see; write `global Cost` at the top level to share it
    ");
}

#[test]
fn a_name_close_to_a_keyword_gets_no_hint_when_it_is_not_the_mistake() {
    // `vars[0]` is a variable, not a misspelt `var`; the parser's own message stays.
    let e = error_of("vars.ds", "var vars = [1]\nvars[0] = 1 +* 2\n");
    assert!(e.starts_with("error: unexpected `*`; expected an expression"), "{e}");
}

#[test]
fn elif_after_a_block_on_its_line_names_else_if() {
    // Issue 41: `} elif` failed at `elif` itself, with the parser's "expected end of line".
    let out = error_of("elif2.ds", "var x = 1\nif x > 2 { out 1 } elif x > 0 { out 2 }\n");
    assert!(out.starts_with("error: `elif` is written `else if`\n"), "{out}");
    assert!(out.contains("elif2.ds:2:20"), "{out}");
}

#[test]
fn a_dangling_operator_is_reported_at_the_operator() {
    // Issue 55: the `+` carries the statement on to line 3, where the parser fails; the error
    // belongs to the `+` at the end of line 2, not to 3:1.
    let out = error_of("dangling.ds", "var X = 3\nout X +\nout \"after\"\n");
    assert!(out.starts_with("error: the line ends with `+`, which needs an operand after it\n"), "{out}");
    assert!(out.contains("dangling.ds:2:7"), "{out}");
    let at_end = error_of("dangling_end.ds", "var X = 3\nout X *\n");
    assert!(at_end.contains("dangling_end.ds:2:7"), "{at_end}");
    // An operand on the next line continues the expression, as decision 4 has it.
    prints("var X = 3\nout X +\n4\n", "7\n");
}

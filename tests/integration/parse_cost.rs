//! Parsing and compiling cost time and memory linear in the source: nothing a script contains
//! may make them exponential or quadratic, since no limit applies before the script runs.

use crate::common::ds_file_within;

/// A dispatch on `x` over `n` values as an `else if` chain; `braces` picks `{ }` or `:` bodies.
fn dispatch(n: usize, braces: bool, x: usize) -> String {
    let body = |i: usize| if braces { format!("{{ out {i} }}") } else { format!(": out {i}") };
    let mut s = format!("var x = {x}\nif x == 0 {}\n", body(0));
    for i in 1..n {
        s += &format!("else if x == {i} {}\n", body(i));
    }
    s + &format!("else {}\n", body(999_999))
}

#[test]
fn a_long_else_if_chain_parses_in_linear_time() {
    // 30 branches took 9.5 s and each one more doubled it: clause attachment looked inside
    // every level twice. Then attaching walked down the whole chain (quadratic: 20,000
    // branches in 6 s). Now the chain is flat: 100,000 branches take well under a second.
    for braces in [false, true] {
        let r = ds_file_within("chain.ds", &dispatch(100_000, braces, 99_998), &[], 60);
        assert_eq!((r.stdout.as_str(), r.code), ("99998\n", Some(0)), "{}", r.stderr);
        let r = ds_file_within("chain.ds", &dispatch(40, braces, 77), &[], 60);
        assert_eq!(r.stdout, "999999\n");
        let r = ds_file_within("chain.ds", &dispatch(100_000, braces, 5), &["--check"], 60);
        assert_eq!((r.stdout.as_str(), r.code), ("", Some(0)), "{}", r.stderr);
    }
}

#[test]
fn clauses_of_an_else_if_chain_attach_to_its_last_if() {
    // `false` and `undef` after an `else if` belong to that `if` (`Undef == 2` is False, decision
    // 13); `else : if` is the same as
    // `else if`, and an `if` inside braces after `else` is a nested one.
    let src = "def f(X) {\n if X == 1 : return \"one\"\n else if X == 2 : return \"two\"\n \
               false : return \"not two\"\n undef : return \"undef\"\n}\n\
               def g(X) {\n if X == 1 : return 1\n else : if X == 2 : return 2\n else : return 3\n}\n\
               def h(X) {\n if X == 1 : return 1\n else { if X == 2 : return 2 }\n return 3\n}\n\
               out f(1), f(2), f(3), f(Undef), g(1), g(2), g(5), h(1), h(2), h(9)\n";
    let r = ds_file_within("clauses.ds", src, &[], 60);
    assert_eq!(r.stdout, "one two not two not two 1 2 3 1 2 3\n", "{}", r.stderr);
    let r = ds_file_within("clause_err.ds", "if 1 : out 1\nelse if 2 : out 2\nelse : out 3\nelse : out 4\n", &[], 60);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("`else` without an `if` before it that can take it"), "{}", r.stderr);
}

#[test]
fn nesting_without_brackets_is_linear_and_bounded() {
    // 100,000 nested `if x :` on one line took 7 s: every name lookup walked all the scopes.
    let src = format!("var x = 1\n{}out 7\n", "if x : ".repeat(100_000));
    let r = ds_file_within("colons.ds", &src, &[], 60);
    assert_eq!((r.stdout.as_str(), r.code), ("7\n", Some(0)), "{}", r.stderr);
    // A tree deeper than the parser takes is an error, found while it is built (dropping or
    // compiling a million levels would overflow the stack).
    for (name, src) in [
        ("nots.ds", format!("out {}True\n", "!".repeat(1_000_000))),
        ("minus.ds", format!("out {}1\n", "- ".repeat(1_000_000))),
        ("index.ds", format!("var a = [1]\nout a{}\n", "[0]".repeat(1_000_000))),
        ("ifs.ds", format!("{}out 1\n", "if 1 : ".repeat(1_000_000))),
        ("lambdas.ds", format!("var f = {}1\n", "(x) => ".repeat(1_000_000))),
        ("assign.ds", format!("var a\n{}1\n", "a = ".repeat(1_000_000))),
    ] {
        let r = ds_file_within(name, &src, &[], 60);
        assert_eq!(r.code, Some(1), "{name}: {}", r.stderr);
        assert!(r.stderr.contains("is nested more than 200000 levels deep"), "{name}: {}", r.stderr);
    }
}

#[test]
fn nested_lambdas_share_their_source_text() {
    // Each lambda kept a copy of its body's text: 50,000 nested lambdas needed 8.6 GB and 34 s.
    let src = format!("var f = {}1\nout f(0)\n", "(x) => ".repeat(50_000));
    let r = ds_file_within("lambdas.ds", &src, &[], 60);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.starts_with("lambda(x) => (x) => "), "{}", &r.stdout[..r.stdout.len().min(80)]);
}

#[test]
fn an_error_on_a_long_line_shows_part_of_it() {
    // An error on a 10 MB line printed the line and 10 MB of carets.
    let src = format!("var x = 1 + {} + 2\n", "y".repeat(10_000_000));
    let r = ds_file_within("long.ds", &src, &[], 60);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.len() < 5_000, "{} bytes of error", r.stderr.len());
    assert!(r.stderr.contains("long.ds:1:13"), "{}", r.stderr);
    // The true column far into a long line, counted in characters.
    let src = format!("var x = \"{}\" + qq\n", "é".repeat(10_000));
    let r = ds_file_within("long2.ds", &src, &[], 60);
    assert!(r.stderr.contains("long2.ds:1:10014") && r.stderr.contains("\" + qq"), "{}", r.stderr);
    assert!(r.stderr.len() < 5_000);
}

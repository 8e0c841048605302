//! Demon bodies run as closures (`eval/closure`), with shapes of their own for the common
//! cases; top-level code runs as closures too. Each case here is worked out by hand, and
//! where the closure takes a shortcut the same expression is also run at the top level.

use crate::common::{ds_eval, prints};

#[test]
fn a_chain_of_substrings_and_bytes_builds_the_same_string() {
    // The 8-puzzle's swap of positions 2 and 5: "12" + "6" + "45" + "3" + "780".
    let swap =
        "def swap(S, I, J) { return S.substring(0, I) + S[J] + S.substring(I + 1, J) + S[I] + S.substring(J + 1) }\n";
    prints(&format!("{swap}out swap(\"123456780\", 2, 5)\n"), "126453780\n");
    // Longer than an inline string (15 bytes): "ab" + "p" + "defghijklmno" + "c" + "qrst";
    // a two-byte character ahead of the swapped bytes.
    prints(&format!("{swap}out swap(\"abcdefghijklmnopqrst\", 2, 15)\n"), "abpdefghijklmnocqrst\n");
    prints(&format!("{swap}out swap(\"é12\", 2, 3)\n"), "é21\n");
    // Byte 1 of "héllo" is inside the 'é' (bytes 1..3): an empty piece; positions from the end.
    let g = "def g(S, N) { return S[N] + S.substring(N) + S.substring(-2) + S[-1] + S[9] + \"|\" }\n";
    prints(&format!("{g}out g(\"héllo\", 1)\nout g(\"abc\", 1)\n"), "élloloo|\nbbcbcc|\n");
    // A position past the end, a start after the end, a start before the beginning.
    let h = "def h(S, N) { return S.substring(1, N) + S.substring(N, 1) + S.substring(-10) + \".\" }\n";
    prints(&format!("{h}out h(\"abcd\", 10)\n"), "bcdabcd.\n");
}

#[test]
fn a_chain_starting_with_numbers_adds_them_until_a_string() {
    let k = "def k(A, S) { return A + 1 + S.substring(1) + A }\n";
    prints(&format!("{k}out k(2, \"xyz\")\n"), "3yz2\n");
    // A local that holds no string: indexing an array gives its item.
    let m = "def m(S, I) { return \"<\" + S[I] + S[I + 1] + \">\" }\n";
    prints(&format!("{m}out m([7, 8], 0)\n"), "<78>\n");
}

#[test]
fn a_chain_that_fails_fails_as_the_tree_walker_does() {
    // A local that holds no string; a position that is no number.
    for (text, at, expected) in [("[1, 2]", "1", "substring"), ("\"abc\"", "True", "must be a number")] {
        let body = "S.substring(I) + \"a\" + \"b\"";
        let vars = format!("var S = {text}\nvar I = {at}\n");
        let in_demon = ds_eval(&format!("def f(S, I) {{ return {body} }}\n{vars}out f(S, I)\n"));
        let at_top = ds_eval(&format!("{vars}out {body}\n"));
        assert_eq!(in_demon.code, Some(1));
        assert!(in_demon.stderr.contains(expected), "{}", in_demon.stderr);
        let first_line = |s: &str| s.lines().next().unwrap_or("").to_string();
        assert_eq!(first_line(&in_demon.stderr), first_line(&at_top.stderr));
    }
}

#[test]
fn a_recursion_whose_calls_give_no_numbers_gives_their_values() {
    // `s(N - 1) + s(N - 1)` is read as numbers first (`FastBody::num`): strings, a string
    // then a number, and an error all come out as the operator gives them.
    let src = "def fib(N) {\n if N < 2 : return N\n return fib(N - 1) + fib(N - 2)\n}\n\
               def s(N) {\n if N < 1 : return \"x\"\n return s(N - 1) + s(N - 1)\n}\n\
               def one(N) {\n if N < 1 : return 1\n return one(N - 1) * one(N - 1)\n}\n\
               def t(N) {\n if N < 1 : return \"a\"\n return t(N - 1) + one(N)\n}\n\
               out fib(15), s(2), t(2)\n";
    prints(src, "610 xxxx a11\n");
    let r = ds_eval("def e(N) {\n if N < 1 : return [1]\n return e(N - 1) - e(N - 1)\n}\nout e(2)\n");
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("`-` needs two numbers, not an array and an array"), "{}", r.stderr);
    assert_eq!(r.stderr.matches("in demon `e`").count(), 2, "{}", r.stderr);
}

#[test]
fn call_arguments_of_a_local_and_a_number_are_worked_out_as_the_operators_say() {
    // `N - n` is pushed as `N + -n` (`CallArg::LocalAdd`); a local that holds no number is
    // left to the operator: a string and a number join, a string minus a number fails.
    let d = "def d(X) { return X }\n\
             def a(N) { return d(N + 0.5) }\ndef s(N) { return d(N - 2.5) }\ndef m(N) { return d(N * 2) }\n";
    prints(&format!("{d}out a(3), s(3), m(3), s(1), a(\"x\"), m(-4)\n"), "3.5 0.5 6 -1.5 x0.5 -8\n");
    let in_demon = ds_eval(&format!("{d}out s(\"x\")\n"));
    let at_top = ds_eval("out \"x\" - 2.5\n");
    assert_eq!(in_demon.code, Some(1));
    let first_line = |s: &str| s.lines().next().unwrap_or("").to_string();
    assert_eq!(first_line(&in_demon.stderr), first_line(&at_top.stderr));
}

#[test]
fn indexing_a_variable_reads_and_writes_as_the_tree_walker_does() {
    // Items by position (from the end, past the end), map entries by string and number keys
    // (a missing one is None), bytes of a string (past the end: empty).
    let reads = "[A[I], A[-1], A[I + 5], M[\"k\"], M[2], M[\"z\"], S[I], S[I + 9]]";
    let vars = "var A = [7, 8, 9]\nvar M = {\"k\": 1, 2: \"two\"}\nvar S = \"abc\"\nvar I = 1\n";
    let expected = "[8,9,None,1,two,None,b,]\n";
    prints(&format!("def r(A, M, S, I) {{ return {reads} }}\n{vars}out r(A, M, S, I)\n"), expected);
    prints(&format!("{vars}out {reads}\n"), expected);
    // Writes: an array item, map entries (the map keeps the array itself, not a copy), and a
    // string, which stores a changed copy in its variable.
    let writes = "A[1] = 5\nM[\"k\"] = A\nM[3] = \"three\"\nS[1] = \"X\"\nA[0] = 4\n";
    let expected = "[[4,5,3],{3:three,k:[4,5,3]},aXc]\n";
    let w = format!("def w(A, M, S) {{\n{writes}return [A, M, S]\n}}\nout w([1, 2, 3], {{}}, \"abc\")\n");
    prints(&w, expected);
    prints(&format!("var A = [1, 2, 3]\nvar M = {{}}\nvar S = \"abc\"\n{writes}out [A, M, S]\n"), expected);
}

#[test]
fn indexing_a_variable_fails_as_the_tree_walker_does() {
    for (value, body, expected) in [
        ("[1]", "X[7] = 1", "index 7 is out of range for an array of 1"),
        ("5", "X[0] = 1", "cannot assign to an item of"),
        ("5", "return X[0]", "cannot be indexed by"),
        ("\"ab\"", "X[5] = \"c\"", "index 5 is out of range for a string of 2 bytes"),
    ] {
        let in_demon = ds_eval(&format!("def f(X) {{ {body} }}\nf({value})\n"));
        let at_top = ds_eval(&format!("var X = {value}\n{}\n", body.replace("return ", "out ")));
        assert!(in_demon.stderr.contains(expected), "{}", in_demon.stderr);
        let first_line = |s: &str| s.lines().next().unwrap_or("").to_string();
        assert_eq!(first_line(&in_demon.stderr), first_line(&at_top.stderr), "{body}");
        assert_eq!(in_demon.code, at_top.code, "{body}");
    }
}

#[test]
fn a_number_stored_in_place_replaces_a_variable_of_another_kind() {
    // `Interp::set_num` writes only the number into a slot that holds one; a slot holding a
    // string, an array (shared with `b`) or None takes the whole value, and `b` keeps the array.
    let body = "var s = \"x\"\nvar a = [1, 2]\nvar b = a\nvar n\n\
                s = 2 * 3\na = a[0] + 4\nn = 1 - 8\ns += 1\nfor k, v in range(3, 5) : a = k + v\n";
    // s: 6 then 7; a: 1 + 4 = 5, then the last pass (k 1, v 4) gives 5; n: -7; b stays [1,2].
    prints(&format!("{body}out s, a, n, b\n"), "7 5 -7 [1,2]\n");
    prints(&format!("def f() {{\n{body}return [s, a, n, b]\n}}\nout f()\n"), "[7,5,-7,[1,2]]\n");
    // The loop variables that held strings take the numbers of the range.
    prints("var i = \"a\"\nvar x = \"b\"\nfor i, x in range(2) : out i, x\n", "0 0\n1 1\n");
}

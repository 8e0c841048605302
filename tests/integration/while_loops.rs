//! A `while` runs its body's statements itself, and a statement that sets a variable to a
//! number (`X = v`, `X op= v`, `X++`) runs there without a closure of its own
//! (`eval/closure/block.rs`, issue 43). These are the answers, steps, errors and `break` /
//! `continue` / `return` of the general path: worked out by hand, each at the top level and in
//! a demon, with the number path giving up midway (a variable that comes to hold a string).

use crate::common::{ds_file, prints};

/// `body` as the whole script and as the body of a demon `f` whose value is printed.
fn both(vars: &str, body: &str, result: &str) -> (String, String) {
    let top = format!("{vars}{body}out {result}\n");
    let demon = format!("def f() {{\n{vars}{body}return {result}\n}}\nout f()\n");
    (top, demon)
}

#[test]
fn number_statements_in_a_while_give_way_to_the_general_path() {
    // s over i = 0..3: 0, 1, then "x" at i == 1; "x" + 2 = "x2", + 3 = "x23". t: "a" += 0, 1
    // with `++`: "a01". n: 5 - 1 - 1 = 3, + 0.5 = 3.5, * 2 = 7.
    let vars = "var s = 0\nvar i = 0\nvar t = \"a\"\nvar k = 0\nvar n = 5\n";
    let body = "while i < 4 {\n s = s + i\n if i == 1 : s = \"x\"\n i = i + 1\n}\n\
                while k < 2 {\n t += k\n k++\n n--\n}\nn += 0.5\nn *= 2\n";
    let (top, demon) = both(vars, body, "[s, t, n]");
    prints(&top, "[x23,a01,7]\n");
    prints(&demon, "[x23,a01,7]\n");
}

#[test]
fn break_continue_and_return_leave_a_while_of_number_statements() {
    // i = 1 3 5 7 are added (1 + 3 + 5 + 7 = 16), the even ones skipped, 7 breaks: 1607.
    // first(n): the first i with i * i > n: 4 for 10; none up to 10 for 200: -1.
    let vars = "var i = 0\nvar s = 0\n";
    let body = "while True {\n i += 1\n if i % 2 == 0 : continue\n s = s + i\n if i > 6 : break\n s *= 1\n}\n";
    let (top, demon) = both(vars, body, "s * 100 + i");
    prints(&top, "1607\n");
    prints(&demon, "1607\n");
    let first = "def first(n) {\n var i = 0\n while i < 10 {\n  i++\n  if i * i > n : return i\n  i = i + 0\n }\n return -1\n}\n";
    prints(&format!("{first}out first(10), first(200)\n"), "4 -1\n");
}

#[test]
fn number_statements_in_a_while_count_a_step_each_where_they_are() {
    // Steps: `var` 1 and 2, `while` 3, then per pass `s = s + i` (4, 7, 10), `i++` (5, 8, 11)
    // and the `while` again (6, 9, 12); `out` 13 and its printing 14. A limit of L stops the
    // run at the step L + 1, at that statement (compound_closures.rs counts the same way).
    let src = "var i = 0\nvar s = 0\nwhile i < 3 {\n  s = s + i\n  i++\n}\nout s\n";
    for (limit, at) in [(3, "4:3"), (4, "5:3"), (5, "3:1"), (9, "4:3"), (10, "5:3"), (11, "3:1"), (12, "7:1")] {
        let r = ds_file("while_steps.ds", src, &["--max-steps", &limit.to_string()]);
        assert!(r.stderr.contains(&format!("step limit of {limit} reached")), "{limit}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("while_steps.ds:{at}")), "{limit} at {at}: {}", r.stderr);
    }
    assert_eq!(ds_file("while_steps.ds", src, &["--max-steps", "14"]).stdout, "3\n");
    // The same counts when a statement of the pass goes the general way (s holds a string,
    // first or second in the body): "a" + 0 + 1 + 2, or "a" + 1 + 2 + 3 when i grows first.
    let first = "var i = 0\nvar s = \"a\"\nwhile i < 3 {\n  s = s + i\n  i++\n}\nout s\n";
    let second = "var i = 0\nvar s = \"a\"\nwhile i < 3 {\n  i = i + 1\n  s = s + i\n}\nout s\n";
    for (src, printed) in [(first, "a012\n"), (second, "a123\n")] {
        for (limit, at) in [(3, "4:3"), (4, "5:3"), (5, "3:1"), (6, "4:3"), (10, "5:3"), (11, "3:1"), (12, "7:1")] {
            let r = ds_file("while_steps.ds", src, &["--max-steps", &limit.to_string()]);
            assert!(r.stderr.contains(&format!("while_steps.ds:{at}")), "{src} {limit} at {at}: {}", r.stderr);
        }
        assert_eq!(ds_file("while_steps.ds", src, &["--max-steps", "14"]).stdout, printed);
    }
    // An empty loop still stops at the limit, at the `while`.
    let r = ds_file("while_empty.ds", "var n = 0\nwhile True {}\n", &["--max-steps", "1000"]);
    assert!(r.stderr.contains("while_empty.ds:2:1"), "{}", r.stderr);
}

#[test]
fn an_error_in_a_while_of_number_statements_points_at_its_statement() {
    // The third pass finds x a string: `++` fails on line 7 and `-` on line 8 (after `y = 1`);
    // in the demon, one line lower. `x++` is at column 3; `x - 1`, the operation that fails,
    // at column 7.
    let cases = [("x++", "`++`/`--` need a number, not a string", 3), ("x = x - 1", "`-` needs two numbers", 7)];
    for (stmt, message, col) in cases {
        // x a string from the start: the first pass fails, at the same place.
        let src = format!("var i = 0\nvar x = \"s\"\nwhile i < 5 {{\n  i = i + 1\n  {stmt}\n}}\n");
        let r = ds_file("while_first.ds", &src, &[]);
        assert!(r.stderr.contains(message), "{stmt}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("while_first.ds:5:{col}")), "{stmt}: {}", r.stderr);
        let pad = if stmt == "x++" { "" } else { "  y = 1\n" };
        let body = format!("while i < 5 {{\n  i = i + 1\n  if i == 3 : x = \"s\"\n{pad}  {stmt}\n}}\n");
        let line = if stmt == "x++" { 7 } else { 8 };
        let (top, demon) = both("var i = 0\nvar x = 0\nvar y = 0\n", &body, "x");
        for (name, src, at) in [("while_top.ds", top, line), ("while_demon.ds", demon, line + 1)] {
            let r = ds_file(name, &src, &[]);
            assert_eq!(r.code, Some(1), "{src}");
            assert!(r.stderr.contains(message), "{stmt}: {}", r.stderr);
            assert!(r.stderr.contains(&format!("{name}:{at}:{col}")), "{stmt}: {}", r.stderr);
        }
    }
}

#[test]
fn comparisons_of_numbers_decide_as_the_values_do_when_they_give_up() {
    // 3 < 2 * 2; "x" == 2 is False (`==` is exact); 3 + 2 >= 5; Undef < 3 is Undef; Infinity -
    // Infinity is NaN, and NaN < 1 is Undef while NaN != NaN is True. The while counts k to 3
    // (k + 0 < 3), then stops at once when the bound is Undef (not exactly True).
    let vars = "var a = 3\nvar b = \"x\"\nvar c = 2\nvar u = Undef\nvar n = 1e308 * 10 - 1e308 * 10\n\
                var k = 0\nvar lim = 3\nvar r = \"\"\n";
    let body = "if a < c * 2 : r = r + \"lt \"\n\
                if b == c : r = r + \"eq \" else : r = r + \"ne \"\n\
                if a + c >= 5 : r = r + \"ge \"\n\
                if u < 3 : r = r + \"t \" false : r = r + \"f \" undef : r = r + \"u \"\n\
                if n < 1 : r = r + \"t \" false : r = r + \"f \" undef : r = r + \"u \"\n\
                if n != n : r = r + \"ne \"\n\
                while k + 0 < lim { k++ }\nlim = Undef\nwhile k < lim { k++ }\n";
    let (top, demon) = both(vars, body, "r + k");
    prints(&top, "lt ne ge u u ne 3\n");
    prints(&demon, "lt ne ge u u ne 3\n");
}

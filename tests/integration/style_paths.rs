//! The paths that make the styles of bench/style/ cost the same (issue 43): a lambda held in a
//! variable called as a demon is, `exists(Z, X rel Z)` with X a global, and a loop `for Z in
//! X rel Z` that keeps the pass after the one it is at. Each gives what the general path gives:
//! the expected lines are worked out by hand, and where a shortcut is taken the same program
//! runs with its precondition broken (another condition, another place) for comparison.

use crate::common::{ds_file, prints};

#[test]
fn a_lambda_in_a_variable_is_called_as_a_demon_is() {
    // h(x) = x % 3 + 1 over 0..4: 1 2 3 1 2 = 9; twice over 0..3: 0 2 4 6 = 12; a lambda that
    // gives strings: 0 + "a0" + "a1" + "a2". At top level: h over 0..3 (7) plus twice (12);
    // h(h(2)) = h(3) = 1; a lambda of two arguments passed to a demon: 10 - 1.
    let src = "def twice(x) { return x * 2 }\n\
               def run(f, n) {\n var s = 0\n var i = 0\n while i < n {\n  s = s + f(i)\n  i = i + 1\n }\n return s\n}\n\
               var g = twice\nvar h = (x) => x % 3 + 1\n\
               out run(h, 5), run(g, 4), run((x) => \"a\" + x, 3)\n\
               var t = 0\nvar k = 0\nwhile k < 4 { t = t + h(k) + g(k); k = k + 1 }\n\
               out t, h(h(2))\n\
               def apply(f, x) { return f(x, 1) }\nout apply((a, b) => a - b, 10)\n";
    prints(src, "9 12 0a0a1a2\n19 1\n9\n");
}

#[test]
fn calling_what_is_no_lambda_fails_as_before_in_a_demon_and_at_top_level() {
    let cases = [
        ("def r(f) { return f(1) + 1 }\nout r(3)\n", "a number cannot be called", "1:19"),
        ("var f = 3\nout f(1) + 1\n", "a number cannot be called", "2:5"),
        ("def r(f) { return f(1) }\nout r((a, b) => a)\n", "`lambda` takes 2 arguments, but 1 given", "1:19"),
        ("var f = (a, b) => a\nout f(1) * 2\n", "`lambda` takes 2 arguments, but 1 given", "2:5"),
    ];
    for (src, message, at) in cases {
        let r = ds_file("call_value.ds", src, &[]);
        assert_eq!(r.code, Some(1), "{src}");
        assert!(r.stderr.contains(message), "{src}: {}", r.stderr);
        assert!(r.stderr.contains(&format!("call_value.ds:{at}")), "{src}: {}", r.stderr);
    }
}

#[test]
fn exists_of_a_global_reads_its_facts_as_a_demon_does() {
    // a on c and a on d: the first target is c; b has none (Z left on the last node, e); a
    // global that holds no node gives the error the general path gives.
    let setup = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c, d, e\na on d\na on c\n";
    let top = format!("{setup}var X = a\nvar Z\nout exists(Z, X on Z), Z\nX = b\nout exists(Z, X on Z), Z\n");
    prints(&top, "True c\nFalse e\n");
    let demon = format!("{setup}def f(X) {{\n var Z\n return [exists(Z, X on Z), Z]\n}}\nout f(a), f(b)\n");
    prints(&demon, "[True,c] [False,e]\n");
    let at_top = ds_file("exists_global.ds", &format!("{setup}var X = 5\nout exists(Z, X on Z)\n"), &[]);
    let in_demon =
        ds_file("exists_global.ds", &format!("{setup}def f(X) {{ return exists(Z, X on Z) }}\nout f(5)\n"), &[]);
    assert_eq!(at_top.code, Some(1));
    let first = |s: &str| s.lines().next().unwrap_or("").to_string();
    assert_eq!(first(&at_top.stderr), first(&in_demon.stderr));
}

const WALK: &str = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c, d, e\n\
def walk(X, change) {\n a on b\n a on d\n c on e\n for Z in X on Z {\n  out Z\n\
  if Z == b & change == \"drop\" : X !on d\n\
  if Z == b & change == \"add\" : X on c\n\
  if Z == b & change == \"move\" : X = c\n\
  if Z == b & change == \"again\" : X on d\n\
  if Z == b & change == \"undo\" {\n   X !on d\n   X on d\n  }\n }\n out \"|\"\n\
 a !on b\n a !on c\n a !on d\n}\n\
for change in [\"none\", \"drop\", \"add\", \"move\", \"again\", \"undo\"] : walk(a, change)\n\
var X = a\na on b\na on d\nfor Z in X on Z {\n out Z\n if Z == b : X on c\n}\n";

#[test]
fn a_loop_over_targets_sees_what_its_body_changes() {
    // a on b, a on d, c on e. none: b d; drop (a !on d at b): b; add (a on c at b): b c d;
    // move (X = c at b: c's targets from c on): b e; again (a on d, already so): b d; undo
    // (a !on d, then a on d: the same facts): b d. At top level, a on c added at b: b c d.
    let expected = "b\nd\n|\nb\n|\nb\nc\nd\n|\nb\ne\n|\nb\nd\n|\nb\nd\n|\nb\nc\nd\n";
    prints(WALK, expected);
}

#[test]
fn a_loop_over_targets_counts_the_steps_the_evaluator_counts() {
    // `X on Z` keeps the pass after the one it is at; `True & (X on Z)` searches every time;
    // `(X on Z) == True` is no compiled test: the evaluator tries every node. The same steps,
    // so the same outcome, with the limit reached anywhere in the loop or after it.
    let program = |cond: &str| {
        format!(
            "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nG.add_nodes(30)\nvar Ns = G.nodes()\nvar A = Ns[0]\n\
             A on Ns[4]\nA on Ns[9]\nA on Ns[20]\nvar c = 0\nfor Z in {cond} : c = c + 1\nout c\n"
        )
    };
    let mut inside = 0;
    for limit in 50..=80 {
        let limit = limit.to_string();
        let outcome = |cond: &str| {
            let r = ds_file("steps.ds", &program(cond), &["--max-steps", &limit]);
            // The message and its line (the scratch folder differs from run to run, the column
            // with the condition's length).
            let place = r.stderr.lines().nth(1).and_then(|l| l.split("steps.ds:").nth(1));
            let place = place.and_then(|p| p.split(':').next()).map(str::to_string);
            (r.stdout, r.stderr.lines().next().map(str::to_string), place, r.code)
        };
        let evaluator = outcome("(A on Z) == True");
        inside += usize::from(evaluator.2.as_deref() == Some("11"));
        assert_eq!(outcome("A on Z"), evaluator, "limit {limit}");
        assert_eq!(outcome("True & (A on Z)"), evaluator, "limit {limit}");
    }
    assert!(inside > 0, "some limits stop the loop itself");
}

#[test]
fn arithmetic_on_globals_gives_up_as_on_locals() {
    // Every pair of operand kinds (global, local, constant, subexpression) at top level and in a
    // demon: a = 7, b = 3: a - b = 4, b - a = -4, a % b = 1, (a + 1) * b = 24, a / 2 = 3.5,
    // 10 - a = 3. Then `a` holds a string: `a + b` gives up on numbers and joins ("x3"),
    // and `a - b` fails where the general path fails.
    let src = "var a = 7\nvar b = 3\nglobal a, b\n\
               def mix(l) { return [a - b, b - a, a % l, (a + 1) * l, a / 2, 10 - a, l - a] }\n\
               out a - b, b - a, a % b, (a + 1) * b, a / 2, 10 - a\n\
               out mix(3)\n\
               a = \"x\"\nout a + b\nout mix(3)\n";
    let r = ds_file("globals.ds", src, &[]);
    assert_eq!(r.stdout, "4 -4 1 24 3.5 3\n[4,-4,1,24,3.5,3,-4]\nx3\n", "{}", r.stderr);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("globals.ds:4:22"), "{}", r.stderr);
}

#[test]
fn substr_in_a_chain_gives_what_the_method_gives() {
    // S = "abcdef". In a chain: S.substr(1, 2) + S[0] + S.substr(4) = "bc" + "a" + "ef";
    // a count past the end takes the rest, a zero or negative count nothing, a start past the
    // end nothing: "de" + "f" + "" + "" + "" = "def". The same pieces one by one, outside a
    // chain, give the same. The 8-puzzle's swap with substr: "023184765" swapping 0 and 1
    // gives "203184765". A piece of what is no string fails as the method fails.
    let src = "def chain(S) { return S.substr(1, 2) + S[0] + S.substr(4) }\n\
               def ends(S) { return S.substr(3, 2) + S.substr(5, 99) + S.substr(1, 0) + S.substr(2, -1) + S.substr(9, 1) }\n\
               def one(S) { var a = S.substr(3, 2)\n var b = S.substr(5, 99)\n var c = S.substr(1, 0)\n return a + b + c }\n\
               def swap(S, I, J) { return S.substr(0, I) + S[J] + S.substr(I + 1, J - I - 1) + S[I] + S.substr(J + 1) }\n\
               out chain(\"abcdef\"), ends(\"abcdef\"), one(\"abcdef\"), swap(\"023184765\", 0, 1)\n\
               out swap(5, 0, 1)\n";
    let r = ds_file("substr.ds", src, &[]);
    assert_eq!(r.stdout, "bcaef def def 203184765\n", "{}", r.stderr);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("substr.ds:7:28"), "{}", r.stderr);
}

/// A program that calls what the variable `f` holds at one call site, in a loop at top level
/// and in a demon, with `f` reassigned between the calls: `CALL` is `f` (the variable read in
/// place, its code remembered from the last call) or `[f][0]` (an expression: the general way).
const REASSIGNED: &str = "var inc = (x) => x + 1\nglobal inc\ndef tenfold(x) { return x * 10 }\n\
var f = inc\nvar s = \"\"\nvar i = 0\n\
while i < 5 {\n s = s + CALL(i) + \",\"\n if i == 0 : f = tenfold\n if i == 1 : f = (x) => x - 1\n\
 if i == 2 : f = inc\n if i == 3 : f = \"text\"\n i = i + 1\n}\nout s\n";

const REASSIGNED_IN_A_DEMON: &str = "var inc = (x) => x + 1\nglobal inc\ndef tenfold(x) { return x * 10 }\n\
def run(f) {\n var t = 0\n var k = 0\n while k < 4 {\n  t = t + CALL(k)\n  if k == 0 : f = inc\n\
  if k == 1 : f = (a, b) => a\n  k = k + 1\n }\n return t\n}\nout run(tenfold)\n";

#[test]
fn a_variable_called_again_after_it_changed_calls_what_it_holds_now() {
    let place = |r: &crate::common::Run, file: &str| {
        let line = r.stderr.lines().find(|l| l.contains(file)).unwrap_or_default();
        line.split(file).nth(1).map(|p| p.split(':').nth(1).unwrap_or_default().to_string())
    };
    for (src, file, message, at) in [
        // inc(0) = 1, tenfold(1) = 10, (x - 1)(2) = 1, inc(3) = 4, then a string is called
        // (line 8, the `f` at column 10).
        (REASSIGNED, "reassigned.ds", "a string cannot be called", "8:10"),
        // tenfold(0) = 0, inc(1) = 2, then a lambda of two arguments with one given (line 8,
        // the call at column 11): nothing printed.
        (REASSIGNED_IN_A_DEMON, "reassigned_demon.ds", "`lambda` takes 2 arguments, but 1 given", "8:11"),
    ] {
        let direct = ds_file(file, &src.replace("CALL", "f"), &[]);
        let general = ds_file(file, &src.replace("CALL", "[f][0]"), &[]);
        assert_eq!(direct.code, Some(1), "{}", direct.stderr);
        assert!(direct.stderr.contains(message), "{}", direct.stderr);
        assert!(direct.stderr.contains(&format!("{file}:{at}")), "{}", direct.stderr);
        // The general way: the same output, message and line (its columns are further right).
        assert_eq!(direct.stdout, general.stdout);
        assert_eq!(direct.stderr.lines().next(), general.stderr.lines().next());
        assert_eq!(place(&direct, file), place(&general, file));
    }
    // Before the string: every value the loop made.
    let r = ds_file("reassigned.ds", &REASSIGNED.replace("CALL", "f").replace("i < 5", "i < 4"), &[]);
    assert_eq!(r.stdout, "1,10,1,4,\n", "{}", r.stderr);
}

#[test]
fn a_variable_called_recursively_or_rebound_inside_its_call_gives_what_it_holds() {
    // fib through a global that holds it: fib(10) = 55; a lambda through a global: 5! = 120;
    // a lambda that rebinds its own variable while it runs: g(1) = 2, then tenfold(1) = 10,
    // twice at the same call site; a lambda that reads a shared global (k = 3): 3 * 4 + 3 * 5.
    let src = "def tenfold(x) { return x * 10 }\nvar F = 0\nvar f = 0\nvar k = 3\nglobal F, f, k\n\
               def fib(n) { if n < 2 : return n\n return F(n - 1) + F(n - 2) }\nF = fib\nout F(10)\n\
               F = (n) => n < 2 ? 1 : n * F(n - 1)\nout F(5)\n\
               f = (x) => { f = tenfold\n return x + 1 }\nvar r = []\nvar i = 0\n\
               while i < 2 { r.push(f(1))\n i = i + 1 }\nout r\n\
               var times = (x) => k * x\nvar t = 0\ni = 4\nwhile i < 6 { t = t + times(i)\n i = i + 1 }\nout t\n";
    prints(src, "55\n120\n[2,10]\n27\n");
    // Too deep a recursion through a global ends as through an expression, at the same call.
    let deep = |call: &str| {
        let src = format!("var F = 0\nglobal F\nF = (n) => {call}(n + 1)\nout F(1)\n");
        let r = ds_file("deep.ds", &src, &["--max-depth", "50"]);
        (r.code, r.stderr.lines().next().map(str::to_string), r.stderr.contains("deep.ds:3:12"))
    };
    let direct = deep("F");
    assert_eq!(
        direct,
        (Some(1), Some("error: recursion too deep: more than 50 demon calls in progress (--max-depth)".into()), true)
    );
    assert_eq!(deep("[F][0]").1, direct.1);
}

#[test]
fn a_global_argument_is_passed_as_it_is_whatever_it_holds() {
    // h(x) = x + x over a global that holds 2, then "ab", then a node-free array [1]: 4, "abab",
    // [1,1]; and a global that holds a number again: 3 + 3.
    let src = "var h = (x) => x + x\nvar a = 2\nvar r = []\nvar i = 0\n\
               while i < 4 {\n r.push(h(a))\n if i == 0 : a = \"ab\"\n if i == 1 : a = [1]\n if i == 2 : a = 3\n i = i + 1\n}\nout r\n";
    prints(src, "[4,abab,[1,1],6]\n");
}

//! Successors without wrappers (issue 43): a `Next` whose local only receives `push` and is
//! returned hands its successors to the search without the `[Action, State]` arrays. The
//! search must see exactly what it saw through the arrays: the same states, transitions,
//! actions, costs, paths, statistics and errors. Each program runs with a `Next` the compiler
//! proves (`push` and `return` only) and with one whose local escapes (which keeps the array).

use crate::common::{ds_file, fails_with, prints};

/// `next` over numbers, with costs: from n, `inc` to n + 1 (n < 4), `dbl` to 2n at cost 3
/// (n < 3), and a bare state n + 10 from 2. `escape` is a statement that uses R otherwise.
fn numbers(escape: &str) -> String {
    format!(
        "var Keep = 0\nglobal Keep\ndef next(n) {{\n   var R = []\n   if n < 4 : R.push([\"inc\", n + 1])\n   \
         if n < 3 : R.push([\"dbl\", n * 2, 3])\n   if n == 2 : R.push(n + 10)\n   {escape}\n   return R\n}}\n"
    )
}

/// What the searches say about `next`: the space, and the path, actions and cost of three
/// searches with their statistics (all but the time).
const SEARCHES: &str = "var S = Search.explore(1, next, {\"goal\": 4})\n\
    out S.states(), S.transitions(), S.goals(), S.path(3)\n\
    def stats() {\n   var M = Search.stats()\n   M.remove(\"ms\")\n   return M\n}\n\
    out Search.stats()[\"generated\"], Search.stats()[\"duplicates\"]\n\
    out Search.bfs(1, next, 4), stats()\n\
    out Search.ucs(1, next, 4), stats()\n\
    out Search.astar(1, next, 12, (n) => 0), stats()\n";

#[test]
fn the_search_sees_what_the_arrays_gave() {
    // By hand: 1 -> 2 (inc), 2 (dbl, 3); 2 -> 3 (inc), 4 (dbl, 3), 12; 3 -> 4 (inc).
    // States in discovery order 1, 2, 3, 4, 12; bfs reaches 4 as 1 -inc-> 2 -dbl-> 4 (cost 4),
    // ucs by inc, inc, inc (cost 3); 12 only from 2, by a successor with no action.
    let sunk = ds_file("sunk.ds", &format!("{}{SEARCHES}", numbers("")), &[]);
    assert_eq!(sunk.stderr, "");
    let lines: Vec<&str> = sunk.stdout.lines().collect();
    assert_eq!(lines[0], "[1,2,3,4,12] [[0,inc,1],[0,dbl,1],[1,inc,2],[1,dbl,3],[1,None,4],[2,inc,3]] [3] [0,1,3]");
    assert_eq!(lines[1], "6 2");
    assert!(lines[2].starts_with("4 {") && lines[2].contains("path:[1,2,4]") && lines[2].contains("cost:4,"));
    assert!(lines[3].contains("actions:[inc,inc,inc]") && lines[3].contains("cost:3,"));
    assert!(lines[4].starts_with("12 {") && lines[4].contains("actions:[inc,None]"));
    // with R read, stored or passed on, the arrays are built: the same answers
    for escape in ["var N = R.size()", "Keep = R", "var T = R.size() < 0 ? R : 0", "var T = R[0]"] {
        let kept = ds_file("kept.ds", &format!("{}{SEARCHES}", numbers(escape)), &[]);
        assert_eq!((kept.stdout.as_str(), kept.stderr.as_str()), (sunk.stdout.as_str(), ""), "{escape}");
    }
}

#[test]
fn the_eight_puzzle_space_is_the_same() {
    // problems.md: 181,440 states and 483,840 transitions from any solvable start.
    let program = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/programs/puzzle8_search.ds"))
        .expect("the benchmark");
    let r = ds_file("p8.ds", &program, &[]);
    assert_eq!((r.stdout.as_str(), r.stderr.as_str()), ("181440 483840\n", ""));
    // the same with the array kept (a read of Result after each push)
    let kept =
        program.replace("Result.push([J, swap(S, B, J)])", "{ Result.push([J, swap(S, B, J)])\n var K = Result }");
    assert_ne!(kept, program);
    let r = ds_file("p8k.ds", &kept, &[]);
    assert_eq!((r.stdout.as_str(), r.stderr.as_str()), ("181440 483840\n", ""));
}

#[test]
fn malformed_successors_keep_their_messages_and_places() {
    let search = "Search.bfs(1, m, 9)";
    for (push, message) in [
        ("R.push([1])", "successor 1 of `m` is an array of 1 items"),
        ("R.push([1, n + 1, \"x\"])", "successor 1 of `m` has the cost x: a cost must be a finite number"),
        ("R.push([1, n + 1, 1, 1])", "successor 1 of `m` is an array of 4 items"),
        (
            "R.push([\"a\", \"s\"])",
            "successor 1 of `m` has a string as its state, but the states of this search are numbers",
        ),
        ("R.push([1, (x) => x])", "successor 1 of `m` is a lambda, which cannot be a state of a search"),
    ] {
        for escape in ["", "var K = R"] {
            let code = format!("def m(n) {{\n   var R = []\n   {push}\n   {escape}\n   return R\n}}\n{search}");
            let r = fails_with(&code, message);
            assert!(r.stderr.contains("<-e>:7:1") && r.stderr.contains(search), "{code}\n{}", r.stderr);
        }
    }
    // a number where the states are graphs, and a push inside `Next` that fails
    let world = "var A = GRAPH(\"A\")\nA.nodes x\n";
    let code =
        format!("{world}def m(g) {{\n   var R = []\n   R.push([\"a\", 1])\n   return R\n}}\nSearch.bfs(A, m, 5)");
    let r = fails_with(&code, "successor 1 of `m` is a number, but the states of this search are graphs");
    assert!(r.stderr.contains("<-e>:8:1"), "{}", r.stderr);
    let code = "def m(n) {\n   var R = []\n   R.push([1, n / \"a\"])\n   return R\n}\nSearch.bfs(1, m, 9)";
    let r = fails_with(code, "");
    assert!(r.stderr.contains("<-e>:3:"), "{}", r.stderr);
}

#[test]
fn a_next_whose_array_escapes_still_works() {
    // stored in a global: the script sees every successor array Next made
    let code = "var Last = []\nglobal Last\ndef m(n) {\n   var R = []\n   if n < 3 : R.push([\"inc\", n + 1])\n   \
                Last = R\n   return R\n}\nout Search.bfs(0, m, 3), Search.stats()[\"path\"], Last";
    prints(code, "3 [0,1,2,3] [[inc,3]]\n");
    // read after a push: the array holds what was pushed
    let code = "def m(n) {\n   var R = []\n   R.push([\"inc\", n + 1])\n   if R.size() == 1 & n < 2 : R.push([\"dbl\", n * 2 + 2])\n   \
                return R\n}\nout Search.bfs(0, m, 4), Search.stats()[\"actions\"]";
    prints(code, "4 [inc,dbl]\n");
    // the same demon called by the script builds its array as before, and one that
    // returns another array than its local gives that array
    let code = "def m(n) {\n   var R = []\n   R.push([\"inc\", n + 1])\n   if n == 1 : return [[\"jump\", 9]]\n   return R\n}\n\
                out m(5), Search.bfs(0, m, 9), Search.stats()[\"actions\"]";
    prints(code, "[[inc,6]] 9 [inc,jump]\n");
}

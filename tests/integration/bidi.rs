//! `Search.bibfs` (docs/search.md, "Bidirectional search"): every problem of the algorithm
//! oracle checked line by line against the independent model in tests/oracle/search_oracle.py,
//! the 8-puzzle against `bfs`'s path length, a graph worked by hand, the start as the goal, an
//! unreachable goal, limits and errors.

use crate::algorithm_oracle::PROBLEMS;
use crate::common::{ds_file, ds_file_within, fails_with, prints};
use std::path::PathBuf;
use std::process::Command;

/// Each problem's predecessors in ds (search_oracle.py's PREV): the action and cost of the
/// move from each predecessor.
const PREV: [(&str, &str); 4] = [
    ("numbers", "def prev(n) {\n   var P = n > 1 ? [[\"inc\", n - 1, 1]] : []\n   if n % 2 == 0 : P.push([\"dbl\", n / 2, 3])\n   return P\n}\n"),
    ("bounded", "def prev(n) {\n   var P = n > 1 & n <= 20 ? [[\"inc\", n - 1, 1]] : []\n   if n % 2 == 0 & n / 2 < 20 : P.push([\"dbl\", n / 2, 3])\n   return P\n}\n"),
    ("roads", r#"var Back = {"A": [], "B": [["A", 4], ["C", 1]], "C": [["A", 2]], "D": [["B", 5], ["C", 8]],
            "E": [["C", 10], ["D", 2]], "F": [["D", 6], ["E", 2]]}
global Back
def prev(T) {
   var R = []
   for P in Back[T] : R.push([P[0] + "-" + T, P[0], P[1]])
   return R
}
"#),
    ("eight", r#"var Opposite = {"up": "down", "down": "up", "left": "right", "right": "left"}
global Opposite
def prev(S) {
   var R = []
   for M in next(S) : R.push([Opposite[M[0]], M[1]])
   return R
}
"#),
];

/// A problem's ds prelude (Start, Goal, next, h, prev), with Start and Goal set when given.
fn prelude(problem: &str, ends: Option<(&str, &str)>) -> String {
    let find = |list: &[(&'static str, &'static str)]| list.iter().find(|p| p.0 == problem).expect("a problem").1;
    let mut text = format!("{}{}", find(&PROBLEMS), find(&PREV));
    if let Some((start, goal)) = ends {
        text.push_str(&format!("Start = {start}\nGoal = {goal}\n"));
    }
    text
}

fn oracle(problem: &str, ends: &[&str]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/search_oracle.py");
    let mut cmd = Command::new("python3");
    cmd.arg("-S").arg(script).args(["--bibfs", problem]).args(ends);
    let out = cmd.output().expect("python3 runs the search oracle");
    assert!(out.status.success(), "search_oracle.py: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn ds_line(prelude: &str) -> String {
    let code = format!(
        "{prelude}Search.bibfs(Start, next, Goal, {{\"prev\": prev}})\nvar S = Search.stats()\n\
         out S[\"found\"], S[\"reason\"], S[\"path\"], S[\"actions\"], S[\"cost\"], S[\"expanded\"], S[\"generated\"], \
         S[\"duplicates\"], S[\"max_frontier\"], S[\"depth\"], S[\"states\"]"
    );
    let r = ds_file("bibfs_case.ds", &code, &[]);
    assert_eq!(r.stderr, "", "{code}");
    r.stdout
}

#[test]
fn bibfs_agrees_with_the_oracle_on_every_problem() {
    for (problem, _) in PROBLEMS {
        assert_eq!(ds_line(&prelude(problem, None)), oracle(problem, &[]), "{problem}");
    }
    // other ends: the start as the goal, an unreachable goal, longer puzzles
    let ends = [
        ("numbers", "7", "7"),
        ("numbers", "3", "100"),
        ("bounded", "1", "38"),
        ("eight", "\"273104856\"", "\"123804765\""),
        ("eight", "\"123804765\"", "\"283164705\""),
    ];
    for (problem, start, goal) in ends {
        let args = [start.trim_matches('"'), goal.trim_matches('"')];
        let want = oracle(problem, &args);
        assert_eq!(ds_line(&prelude(problem, Some((start, goal)))), want, "{problem} from {start} to {goal}");
    }
}

#[test]
fn bibfs_finds_as_few_actions_as_bfs_on_the_eight_puzzle() {
    // (14 and 20 are these starts' distances: rbfs's test has them from the oracle's bfs)
    for (start, moves) in [("\"283164705\"", 5), ("\"273104856\"", 14), ("\"326784150\"", 20)] {
        let code = format!(
            "{}def find(Moves, A) {{\n   for M in Moves : if M[0] == A : return M[1]\n   return None\n}}\n\
             Search.bibfs(Start, next, Goal, {{\"prev\": prev}})\nvar B = Search.stats()\n\
             Search.bfs(Start, next, Goal)\nvar F = Search.stats()\n\
             out B[\"actions\"].size(), F[\"actions\"].size(), B[\"expanded\"] < F[\"expanded\"]\n\
             var S = Start\nfor A in B[\"actions\"] : S = find(next(S), A)\nout S == Goal",
            prelude("eight", Some((start, "\"123804765\"")))
        );
        let r = ds_file_within("bibfs_eight.ds", &code, &[], 120);
        assert_eq!(r.stdout, format!("{moves} {moves} True\nTrue\n"), "from {start}: {}", r.stderr);
    }
}

#[test]
fn bibfs_on_a_graph_worked_by_hand() {
    // Roads from A to F (docs/search.md's roads). Forward and backward on a tie go forward:
    // A gives B and C; the backward side (1 waiting) is smaller: F gives D and E; a tie:
    // forward B gives D, which the backward side has: A, B, D, F, cost 4 + 5 + 6.
    let code = format!(
        "{}out Search.bibfs(Start, next, Goal, {{\"prev\": prev}})\nvar S = Search.stats()\n\
         out S[\"path\"], S[\"actions\"], S[\"cost\"], S[\"expanded\"], S[\"states\"]",
        prelude("roads", None)
    );
    prints(&code, "F\n[A,B,D,F] [A-B,B-D,D-F] 15 3 6\n");
}

#[test]
fn bibfs_with_the_start_as_goal_and_without_a_way() {
    let next = "def next(n) : return [n + 1]\ndef prev(n) : return [n - 1]\n";
    prints(
        &format!("{next}out Search.bibfs(4, next, 4, {{\"prev\": prev}}), Search.stats()[\"path\"], Search.stats()[\"expanded\"]"),
        "4 [4] 0\n",
    );
    // 0 can only go up to 2 and the goal -1 down: the forward side runs out
    let code = "out Search.bibfs(0, (n) => n < 2 ? [n + 1] : [], -1, {\"prev\": (n) => [n - 1]})\n\
                out Search.stats()[\"found\"], Search.stats()[\"reason\"], Search.stats()[\"path\"]";
    prints(code, "Undef\nFalse exhausted []\n");
}

#[test]
fn bibfs_records_both_sides() {
    // 1 -> 2 -> 3 by +1, goal 3: the start (0) and the goal (1) pushed; forward 0 gives 2
    // (state 2); a tie: forward 2 gives 3, the goal's side: met
    let code = "Search.bibfs(1, (n) => [n + 1], 3, {\"prev\": (n) => [n - 1], \"record\": True})\n\
                var E = []\nfor T in Search.trace() : E.push(T[\"event\"] + \" \" + T[\"state\"])\nout E, Search.stats()[\"path\"]";
    prints(code, "[push 0,push 1,expand 0,push 2,expand 2,goal 1] [1,2,3]\n");
}

#[test]
fn bibfs_honours_the_limits() {
    let next = "def next(n) : return [n + 1, n * 3]\ndef prev(n) : return [n - 1]\n";
    prints(
        &format!("{next}out Search.bibfs(1, next, -5, {{\"prev\": prev, \"max_states\": 50}}), Search.stats()[\"reason\"], Search.stats()[\"states\"]"),
        "Undef max_states 50\n",
    );
    let code = format!("{next}Search.bibfs(1, next, -5, {{\"prev\": prev}})\nout Search.stats()[\"reason\"]");
    let r = ds_file_within("bibfs_steps.ds", &code, &["--max-steps", "200000"], 60);
    assert_eq!(r.stdout, "max_steps\n", "{}", r.stderr);
    // (2 s: the search has begun by then even on a loaded machine, issue 56)
    let r = ds_file_within("bibfs_time.ds", &code, &["--timeout", "2"], 60);
    assert_eq!(r.stdout, "timeout\n", "{}", r.stderr);
}

#[test]
fn bibfs_explains_what_it_needs() {
    let next = "def next(n) : return [n + 1]\n";
    fails_with(&format!("{next}Search.bibfs(1, next, 5)"), "`Search.bibfs` needs the option `prev`");
    fails_with(
        &format!("{next}Search.bibfs(1, next, (n) => n == 5, {{\"prev\": (n) => [n - 1]}})"),
        "`Search.bibfs` needs the goal as a state (argument 3), not a demon or lambda",
    );
    fails_with(
        &format!("{next}Search.bibfs(1, next, 5, {{\"prev\": 3}})"),
        "option `prev` of `Search.bibfs` must be a demon or a lambda, not a number",
    );
    fails_with(&format!("{next}Search.bibfs(1, next, 5, {{\"prev\": (a, b) => a}})"), "`prev` of `Search.bibfs`");
    fails_with(
        &format!("{next}Search.bibfs(1, next, 5, {{\"prev\": (n) => [n - 1], \"threads\": 2}})"),
        "`Search.bibfs` searches on one thread",
    );
    fails_with(
        // (two successors a state: the backward side, smaller, expands second)
        "Search.bibfs(1, (n) => [n + 1, n + 2], 9, {\"prev\": (n) => n - 1})",
        "the Prev lambda must return an array of successors, not a number",
    );
    fails_with(
        &format!("{next}Search.bfs(1, next, 5, {{\"prev\": 3}})"),
        "`prev` is an option of `Search.bibfs`, not of `Search.bfs`",
    );
}

//! The Search module (docs/language.md, decision 17): results, statistics, errors and limits.
//! The answers on the scripts' problems are checked against the oracles by the golden tests.

use crate::common::{ds, ds_file, fails_with, prints};
use ds::repl::Backend;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Numbers from 1: +1 or *2 (inc/dbl), costs 1 and 3.
const NUMBERS: &str = "def next(n) : return [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]]\n";

#[test]
fn a_demon_is_a_value() {
    prints("def f(x) : return x + 1\nvar g = f\nout g(2), g", "3 f(x)\n");
    // a demon defined later in the file
    prints("var g = later\nout g(1)\ndef later(x) : return [x]", "[1]\n");
    // a variable or node of that name still wins, and unknown names stay errors
    prints("def f(x) : return 1\nvar f = 5\nout f", "5\n");
    fails_with("out nosuch", "unknown name `nosuch`: not a variable, edge or node");
}

#[test]
fn every_algorithm_over_numbers() {
    let cases = [
        ("Search.bfs(1, next, 10)", "10 [inc,dbl,inc,dbl] 8"),
        ("Search.iddfs(1, next, 10)", "10 [inc,dbl,inc,dbl] 8"),
        ("Search.ucs(1, next, 10)", "10 [inc,inc,inc,inc,dbl] 7"),
        ("Search.astar(1, next, 10, (n) => 0)", "10 [inc,inc,inc,inc,dbl] 7"),
        ("Search.idastar(1, next, 10, (n) => 0)", "10 [inc,inc,inc,inc,dbl] 7"),
        ("Search.greedy(1, next, 10, (n) => Math.abs(10 - n))", "10 [inc,dbl,dbl,inc,inc] 9"),
        ("Search.dfs(1, next, 10, {\"limit\": 4})", "10 [inc,dbl,inc,dbl] 8"),
    ];
    for (call, want) in cases {
        let code = format!("{NUMBERS}var R = {call}\nvar S = Search.stats()\nout R, S[\"actions\"], S[\"cost\"]");
        prints(&code, &format!("{want}\n"));
    }
}

#[test]
fn every_algorithm_tests_the_start() {
    // Issue 41: bfs did not, and `Search.bfs(0, next, 0)` with `next(n) = [n + 1]` never ended.
    for row in ds::search::TABLE {
        let alg = row.name();
        let h = if row.informed { ", (n) => 0" } else { "" };
        let code = format!(
            "def next(n) : return [n + 1]\nvar r = Search.{alg}(0, next, 0{h})\nvar S = Search.stats()\n\
             out r, S[\"found\"], S[\"path\"], S[\"reason\"]"
        );
        let r = crate::common::ds_file_within("start.ds", &code, &["--max-steps", "1000000"], 60);
        assert_eq!(r.stdout, "0 True [0] goal\n", "{alg}: {}", r.stderr);
    }
}

#[test]
fn a_minus_infinite_or_nan_heuristic_is_refused() {
    // Issue 41: idastar never ended with an infinite h, and NaN was "not a number". Since
    // issue 55, +inf marks a dead end (tests/integration/dead_ends.rs).
    for (h, what) in [("-1e308 * 10", "not an infinite number (-inf)"), ("Math.sqrt(-1)", "not NaN")] {
        for alg in ["idastar", "astar", "greedy"] {
            let code = format!("Search.{alg}(0, (n) => [n + 1], 5, (n) => {h})");
            let r = crate::common::ds_file_within("h.ds", &code, &[], 60);
            let want = format!("the heuristic lambda must return a finite number or inf (a dead end), {what}");
            assert!(r.code == Some(1) && r.stderr.contains(&want), "{alg} {h}: {}", r.stderr);
        }
    }
}

#[test]
fn path_costs_past_the_largest_number_are_found_by_every_cost_search() {
    // Issue 41: idastar said "exhausted" where ucs and astar found the goal at cost inf.
    let next = "def next(n) : return n < 3 ? [[\"a\", n + 1, 1e308]] : []\n";
    for call in ["Search.ucs(0, next, 3)", "Search.astar(0, next, 3, (n) => 0)", "Search.idastar(0, next, 3, (n) => 0)"]
    {
        let code = format!("{next}var r = {call}\nout r, Search.stats()[\"cost\"], Search.stats()[\"reason\"]");
        prints(&code, "3 inf goal\n");
    }
}

#[test]
fn compare_takes_a_name_in_an_array_of_one() {
    // Issue 41: `["dfs"]` was refused as "not an array"; other arrays say what they are.
    let code = "var R = Search.compare(1, (n) => [n + 1], 3, None, [[\"dfs\"], \"bfs\"], {\"time\": False})\n\
                out R.size(), R[0][\"algorithm\"], R[0][\"length\"]";
    let r = crate::common::ds(&["-e", code]);
    assert!(r.stdout.ends_with("\n2 dfs 2\n"), "{}{}", r.stdout, r.stderr);
    fails_with(
        "Search.compare(1, (n) => [n + 1], 3, None, [[\"dfs\", 1, 2]])",
        "an algorithm is a name, [name] or [name, H], not an array of 3 items",
    );
}

#[test]
fn states_of_every_kind() {
    // strings, arrays (successors as [Action, State]), maps, and a goal given as a demon
    prints("out Search.bfs(\"a\", (s) => s.size() < 4 ? [s + \"a\", s + \"b\"] : [], \"abb\")", "abb\n");
    prints("out Search.bfs([0, 0], (s) => [[\"x\", [s[0] + 1, s[1]]], [\"y\", [s[0], s[1] + 1]]], [1, 2])", "[1,2]\n");
    prints(
        "def up(m) : return [{\"n\": m[\"n\"] + 1}]\ndef big(m) : return m[\"n\"] >= 3\nout Search.bfs({\"n\": 0}, up, big)",
        "{n:3}\n",
    );
}

#[test]
fn the_statistics_map() {
    let code = format!(
        "{NUMBERS}Search.bfs(1, next, 10)\nvar S = Search.stats()\n\
         for K in [\"found\", \"reason\", \"path\", \"expanded\", \"generated\", \"duplicates\", \"max_frontier\", \"depth\", \"states\", \"algorithm\"] : out K, S[K]\n\
         out S[\"ms\"] >= 0, S[\"bytes\"] > 0"
    );
    // Levels {1}, {2}, {3, 4}, {6, 5, 8}: expanding 6 stores 7 and 12, then 5 gives 6 (a
    // duplicate) and 10, the goal. Duplicates: 2 by dbl from 1, 4 by inc from 3, 6 from 5.
    // The frontier is largest (4) before 5 is expanded: 5 and 8 wait, and 7 and 12.
    prints(
        &code,
        "found True\nreason goal\npath [1,2,4,5,10]\nexpanded 6\ngenerated 12\nduplicates 3\n\
         max_frontier 4\ndepth 4\nstates 10\nalgorithm bfs\nTrue True\n",
    );
    // nothing found: empty path and actions, cost Undef
    let code = format!("{NUMBERS}out Search.bfs(1, (n) => n < 5 ? [n + 1] : [], 9)\nvar S = Search.stats()\nout S[\"found\"], S[\"reason\"], S[\"path\"], S[\"actions\"], S[\"cost\"]");
    prints(&code, "Undef\nFalse exhausted [] [] Undef\n");
}

/// A world where `x` moves between three places: `moves` gives a named copy for each place
/// `x` is not at, pushed by `push` (one line of ds, or several).
fn x_moves(push: &str) -> String {
    format!(
        r#"
edges on
var Start = GRAPH("Start")
GRAPH = Start
nodes x, $1, $2, $3
x on $1
def moves(G)
{{
   GRAPH = G
   var R = []
   for P in [$1, $2, $3] {{
      if (x on P) == True : continue
      var N = G.copy()
      GRAPH = N
      for Q in [$1, $2, $3] : x on Q = Undef
      x on P
      N.name(N.name() + ";x." + P.string())
      {push}
      GRAPH = G
   }}
   return R
}}
"#
    )
}

#[test]
fn graph_states_keep_their_names() {
    let code = x_moves("R.push(N)")
        + r#"def at3(G) { GRAPH = G; return (x on $3) == True }
var F = Search.ucs(Start, moves, at3)
out F.name(), Search.stats()["actions"], Search.stats()["path"][1].name()
"#;
    prints(&code, "Start;x.$3 [x.$3] Start;x.$3\n");
}

/// A `Next` that gives one copy twice and a goal demon that changes the state it tests:
/// bfs finds successors among the recent states by their facts as they were packed, so the
/// counts are those of the keys (Start, x at $2, x at $3; of the 12 successors, 10 are met
/// again: each state's two copies of each move, all but the first two).
#[test]
fn successors_met_again_are_counted_by_their_packed_facts() {
    let code = x_moves("R.push(N)\n      R.push(N)")
        + r#"def never(G)
{
   GRAPH = G
   for Q in [$1, $2, $3] : x on Q = Undef
   x on $1
   return False
}
out Search.bfs(Start, moves, never)
var S = Search.stats()
out S["states"], S["duplicates"], S["expanded"]
"#;
    prints(&code, "Undef\n3 10 3\n");
}

/// Two objects on a road $1 - $2 - $3, each moved one step at a time: 9 states, among them
/// pairs that differ only in which object stands where ((a $2, b $1) and (a $1, b $2)) and
/// states that differ from the one expanded before only in a fact it had (a back on $1). A
/// state at (pa, pb) has deg(pa) + deg(pb) successors (deg: 1, 2, 1), 24 in all; 8 are new,
/// so 16 are met again, whether bfs finds them among the recent states or by their keys.
#[test]
fn states_differing_in_one_fact_are_told_apart() {
    let code = r#"
edges on, road
var Start = GRAPH("Start")
GRAPH = Start
nodes a, b, $1, $2, $3
$1 road $2; $2 road $1; $2 road $3; $3 road $2
a on $1; b on $1
def steps(G)
{
   GRAPH = G
   var R = []
   for X in [a, b] {
      var At = $1
      for P in [$1, $2, $3] : if (X on P) == True : At = P
      for P in [$1, $2, $3] {
         if (At road P) != True : continue
         var N = G.copy()
         GRAPH = N
         X on At = Undef
         X on P
         N.name(N.name() + ";" + X.string() + P.string())
         R.push(N)
         GRAPH = G
      }
   }
   return R
}
def never(G) : return False
def both_on_3(G) { GRAPH = G; return (a on $3) == True & (b on $3) == True }
out Search.bfs(Start, steps, never)
var S = Search.stats()
out S["states"], S["expanded"], S["generated"], S["duplicates"]
var F = Search.bfs(Start, steps, both_on_3)
out F.name()
var E = Search.explore(Start, steps)
out E.size()
"#;
    prints(code, "Undef\n9 9 24 16\nStart;a$2;a$3;b$2;b$3\n9\n");
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases = [
        ("Search.bfs(1, (n) => n + 1, 5)", "the Next lambda must return an array of successors, not a number"),
        ("Search.bfs(1, (n) => [[1, 2, 3, 4]], 5)", "successor 1 of the Next lambda is an array of 4 items"),
        ("Search.bfs(1, (n) => [[\"a\", n + 1, \"c\"]], 5)", "a cost must be a finite number"),
        ("Search.ucs(1, (n) => [[\"a\", n + 1, -1]], 5)", "has the negative cost -1: `ucs` needs costs >= 0"),
        (
            "Search.astar(1, (n) => [[\"a\", n + 1, -2]], 5, (n) => 0)",
            "has the negative cost -2: `astar` needs costs >= 0",
        ),
        ("Search.astar(1, (n) => [n + 1], 5, (n) => \"x\")", "the heuristic lambda must return a finite number or inf (a dead end), not a string"),
        (
            "Search.bfs(1, (a, b) => [a], 5)",
            "argument 2 of `Search.bfs` (Next): `lambda` must take one argument, not 2",
        ),
        ("Search.bfs(1, 7, 5)", "argument 2 of `Search.bfs` (Next) must be a demon or a lambda, not a number"),
        (
            "Search.bfs(1, (n) => [n + 1], 5, {\"max_state\": 3})",
            "has no option `max_state` (did you mean `max_states`?)",
        ),
        ("Search.bfs(1, (n) => [(x) => x], 5)", "successor 1 of the Next lambda is a lambda, which cannot be a state"),
        ("Search.bfs([1], (s) => [[2]], 5)", "(the states are arrays, so each must be given as [Action, State])"),
        // issue 41: a bare array was read as [Action, State], and `Next` failed on the number
        (
            "Search.bfs([0, 0], (s) => [[s[0] + 1, s[1]]], [1, 0])",
            "successor 1 of the Next lambda has a number as its state, but the states of this search are arrays, \
             as the start is (an array of two or three items is read as [Action, State] or [Action, State, Cost])",
        ),
        (
            "Search.dfs(1, (n) => [\"x\"], 5)",
            "successor 1 of the Next lambda has a string as its state, but the states of this search are numbers, as the start is",
        ),
        ("Search.dfs(1, (n) => [n + 1], 5, {\"threads\": 2})", "`threads` is for `Search.bfs` and `Search.explore`"),
        (
            "Search.bfs(1, (n) => [n + 1], 5, {\"symmetry\": [1]})",
            "`symmetry` of `Search.bfs` as an array of nodes needs graph states",
        ),
    ];
    for (code, message) in cases {
        let r = fails_with(code, message);
        assert!(r.stderr.contains("<-e>:1:1"), "the place of the search call:\n{}", r.stderr);
    }
    // demons are named by their names, at the line of the search that called them
    for (code, message) in [
        ("def m(n) : return n\nSearch.bfs(1, m, 5)", "`m` must return an array of successors, not a number"),
        ("def m(n) : return [[1, n + 1, 1, 1]]\nSearch.bfs(1, m, 5)", "successor 1 of `m` is an array of 4 items"),
        ("def m(n) : return [[1, n + 1, -1]]\nSearch.ucs(1, m, 5)", "successor 1 of `m` has the negative cost -1"),
        (
            "def h(n) : return \"x\"\nSearch.astar(1, (n) => [n + 1], 5, h)",
            "the heuristic `h` must return a finite number",
        ),
    ] {
        let r = fails_with(code, message);
        assert!(r.stderr.contains("<-e>:2:1"), "the place of the search call:\n{}", r.stderr);
    }
    let world = "var A = GRAPH(\"A\")\nA.nodes x\nvar B = GRAPH(\"B\")\nB.nodes y\nglobal B\n";
    let r = fails_with(
        &format!("{world}def n(g) : return [B]\nSearch.bfs(A, n, 5)"),
        "successor 1 of `n` is a state of another world (`B`)",
    );
    assert!(r.stderr.contains("<-e>:7:1"), "{}", r.stderr);
    fails_with(
        &format!("{world}def n(g) : return [1]\nSearch.bfs(A, n, 5)"),
        "is a number, but the states of this search are graphs",
    );
    let r = fails_with(
        &format!("{world}Search.bfs(A, (g) => [g], 5, {{\"symmetry\": [B=>$y]}})"),
        "`symmetry` of `Search.bfs` names `y`, a node of another world than the start's",
    );
    assert!(r.stderr.contains("<-e>:6:"), "{}", r.stderr);
    // an error inside a demon shows the demon and where the search called it
    let r = fails_with("def n(x) : return [x / \"a\"]\nSearch.bfs(1, n, 5)", "");
    assert!(r.stderr.contains(":2:1") && r.stderr.contains("n"), "{}", r.stderr);
}

#[test]
fn overlapping_symmetry_groups_are_refused() {
    // Issue 41: [[a, b], [b, c]] was taken silently, with a count that was neither the groups'
    // nor their union's.
    let world = "var A = GRAPH(\"A\")\nGRAPH = A\nnodes a, b, c\n";
    for groups in ["[[a, b], [b, c]]", "[[a, b], [c], [a]]"] {
        let code = format!("{world}Search.bfs(A, (g) => [g], 5, {{\"symmetry\": {groups}}})");
        let r = fails_with(&code, "`symmetry` of `Search.bfs` puts `");
        assert!(r.stderr.contains("in two groups: groups must not overlap"), "{}", r.stderr);
        assert!(r.stderr.contains("<-e>:4:"), "{}", r.stderr);
    }
    // a node written twice in one group is still that node
    let code = format!("{world}out Search.bfs(A, (g) => [], 5, {{\"symmetry\": [[a, a, b], [c]]}})");
    prints(&code, "Undef\n");
}

#[test]
fn a_next_that_changes_the_start_is_refused() {
    // Issue 41: the states were compared with a start that changed under them, silently.
    let graph = "edges on\nvar Start = GRAPH(\"Start\")\nGRAPH = Start\nnodes a, b, x\nglobal Start\n\
                 def next(S) {\n   GRAPH = Start\n   if a on x : a on x = Undef\n   else : a on x = True\n\
                 \x20  var T = S.copy()\n   GRAPH = T\n   b on x = True\n   return [T]\n}\n";
    let array =
        "var Start = [0, 0]\nglobal Start\ndef next(S) {\n   Start.push(1)\n   return [[\"a\", [S[0] + 1, S[1]]]]\n}\n";
    let said = "`next` changed the start of the search: the states are compared with the start as it was";
    for code in [format!("{graph}Search.explore(Start, next)"), format!("{array}Search.bfs(Start, next, [3, 0])")] {
        let r = fails_with(&code, said);
        assert!(r.stderr.contains("make each successor from a copy"), "{}", r.stderr);
    }
    // The state `Next` is given is always a copy: changing it changes no other state.
    prints(
        "def next(S) {\n   S[0] = S[0] + 1\n   return [[\"a\", [S[0], S[1]]]]\n}\n\
         out Search.bfs([0, 0], next, [3, 0]), Search.stats()[\"states\"]",
        "[3,0] 4\n",
    );
}

#[test]
fn max_states_stops_cleanly() {
    let code = format!(
        "{NUMBERS}var R = Search.bfs(1, next, -1, {{\"max_states\": 50}})\nvar S = Search.stats()\n\
         out R, S[\"found\"], S[\"reason\"], S[\"states\"], S[\"path\"]"
    );
    prints(&code, "Undef Undef max_states 50 []\n");
}

/// An endless search: every number has a successor, the goal is never met.
const ENDLESS: &str = "var R = Search.bfs(1, (n) => [n + 1], -1)\nvar S = Search.stats()\n\
                       out R, S[\"found\"], S[\"reason\"], S[\"expanded\"] > 0\n";

#[test]
fn run_limits_stop_a_search_cleanly_then_the_run() {
    // The script goes on after the search (with a little grace to report), then the limit
    // ends it. (Deadlines of 2 s: the search has begun by then even on a loaded machine,
    // issue 56.)
    let src = format!("{ENDLESS}out \"after\"\nvar i = 0\nwhile True {{ i = i + 1 }}\n");
    for (flag, value, reason, message) in [
        ("--max-steps", "100000", "max_steps", "step limit of 100000 reached (--max-steps)"),
        ("--timeout", "2", "timeout", "time limit reached (--timeout)"),
    ] {
        let r = ds_file("search_limit.ds", &src, &[flag, value]);
        assert_eq!(r.stdout, format!("Undef Undef {reason} True\nafter\n"), "{flag}: {}", r.stderr);
        assert_eq!(r.code, Some(1), "{flag}");
        assert!(r.stderr.contains(message), "{flag}: {}", r.stderr);
    }
}

#[test]
fn a_search_stopped_inside_an_out_line_is_still_reported() {
    // `out` evaluates its items inside the line's text; the text must see the limits as the
    // search left them (with the grace to report), not as they were when the line began.
    let src = "out Search.bfs(1, (n) => [n + 1, n * 3], -1), Search.stats()[\"reason\"]\nout \"after\"\n";
    for (flag, value, reason) in [("--timeout", "2", "timeout"), ("--max-steps", "100000", "max_steps")] {
        let r = ds_file("search_in_out.ds", src, &[flag, value]);
        assert_eq!(r.stdout, format!("Undef {reason}\nafter\n"), "{flag}: {}", r.stderr);
        // issue 41: a run whose --timeout or --max-steps stopped a search exits 1 (it exited 0)
        assert_eq!(r.code, Some(1), "{flag}: {}", r.stderr);
    }
    let r = ds_file("search_in_out.ds", src, &["--timeout", "2"]);
    assert!(r.stderr.contains("error: time limit reached (--timeout) during a search"), "{}", r.stderr);
    let r = ds_file("search_in_out.ds", src, &["--max-steps", "100000"]);
    let said = "error: step limit of 100000 reached (--max-steps) during a search; the script reported it in its grace";
    assert!(r.stderr.contains(said), "{}", r.stderr);
}

#[test]
fn a_large_value_printed_after_a_stopped_search_in_the_same_line_is_not_lost() {
    // The line's text was begun before the search; printing 30,000 numbers after it charges
    // the step limit, already reached, as it goes (some 60,000 steps), and must use the grace
    // the search left (100,000 steps). A step limit, not a deadline: the same on a loaded
    // machine (issue 56: a 0.3 s deadline failed under load).
    let src = "var A = range(30000)\nout Search.bfs(1, (n) => [n + 1, n * 3], -1), A\nout \"after\"\n";
    let r = ds_file("big_after_search.ds", src, &["--max-steps", "200000"]);
    assert_eq!(r.code, Some(1), "a run stopped by its step limit: {}", r.stderr);
    assert!(r.stderr.contains("step limit of 200000 reached (--max-steps) during a search"), "{}", r.stderr);
    assert!(r.stdout.starts_with("Undef [0,1,2,"), "{}", &r.stdout[..r.stdout.len().min(80)]);
    assert!(r.stdout.ends_with(",29999]\nafter\n"), "{}", r.stderr);
}

#[test]
fn ctrl_c_stops_a_search_and_the_session_goes_on() {
    let mut b = Backend::capturing();
    let flag = b.interrupt_flag();
    // One Ctrl-C, well after the entry has started: the search never ends on its own, and a
    // Ctrl-C that came before it (while the entry is compiled) or after it (before the entry
    // ends) would rightly stop the entry itself, which is not what this test is about. Should
    // the entry start late (it clears an earlier Ctrl-C), another comes 2 s later.
    let done = Arc::new(AtomicBool::new(false));
    let pinger = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut wait = 150;
            loop {
                std::thread::sleep(std::time::Duration::from_millis(wait));
                if done.load(Ordering::SeqCst) {
                    break;
                }
                flag.store(true, Ordering::SeqCst);
                wait = 2000;
            }
        })
    };
    let reply = b.eval("var R = Search.bfs(1, (n) => [n + 1], -1)");
    done.store(true, Ordering::SeqCst);
    pinger.join().unwrap();
    assert!(!reply.failed(), "{}", reply.errors);
    let reply = b.eval("out R, Search.stats()[\"found\"], Search.stats()[\"reason\"]");
    assert_eq!(reply.output, "Undef Undef interrupted\n", "{}", reply.errors);
}

#[test]
fn trace_prints_or_calls() {
    prints(
        "Search.astar(1, (n) => [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]], 6, (n) => n < 6 ? 1 : 0, {\"trace\": True})",
        "expand 1: 1 g=0 h=1 f=1\nexpand 2: 2 g=1 h=1 f=2\nexpand 3: 3 g=2 h=1 f=3\nexpand 4: 4 g=3 h=1 f=4\n",
    );
    prints(
        "def show(E) : out E[\"step\"], E[\"id\"], E[\"parent\"], E[\"action\"], E[\"state\"], E[\"g\"]\n\
         Search.bfs(1, (n) => [[\"inc\", n + 1]], 3, {\"trace\": show})",
        "1 0 -1 None 1 0\n2 1 0 inc 2 1\n",
    );
}

#[test]
fn search_usage_errors_name_the_function() {
    let r = ds(&["-e", "Search.bfs(1, 2)"]);
    assert_eq!(r.code, Some(1));
    // Two arguments would be a problem map and options (docs/search.md, "A problem as a map").
    let want =
        "`Search.bfs` takes (Start, Next, Goal [, Opts]), or a problem map (start, next, goal) first: not a number";
    assert!(r.stderr.contains(want), "{}", r.stderr);
    let r = ds(&["-e", "Search.bfs()"]);
    assert!(r.stderr.contains("function `Search.bfs` takes 1 to 4 arguments, but 0 given"), "{}", r.stderr);
}

/// The 8-puzzle's moves, as [direction of the blank, board].
pub const EIGHT: &str = r#"
def swap(S, I, J) : return S.substr(0, I) + S[J] + S.substr(I + 1, J - I - 1) + S[I] + S.substr(J + 1)
def moves(S)
{
   var B = S.indexOf("0")
   var Row = B \ 3, Col = B % 3
   var Result = []
   if Row > 0 : Result.push(["up", swap(S, B - 3, B)])
   if Row < 2 : Result.push(["down", swap(S, B, B + 3)])
   if Col > 0 : Result.push(["left", swap(S, B - 1, B)])
   if Col < 2 : Result.push(["right", swap(S, B, B + 1)])
   return Result
}
"#;

#[test]
fn the_eight_puzzle_space_has_181440_states() {
    // Half of the 9! boards; 20,160 with the blank on each cell, and 2, 3 or 4 moves from a
    // corner, an edge or the centre: 20,160 * (4*2 + 4*3 + 4) = 483,840 transitions.
    let code = format!(
        "{EIGHT}var S = Search.explore(\"867254301\", moves, {{\"goal\": \"123456780\"}})\n\
         out S.size(), S.transitions().size(), S.goals(), Search.stats()[\"actions\"].size(), Search.stats()[\"reason\"]"
    );
    let r = ds_file("explore8.ds", &code, &[]);
    assert_eq!(r.stdout, "181440 483840 [181438] 31 exhausted\n", "{}", r.stderr);
}

#[test]
fn a_space_is_exported_as_json_dot_and_aut() {
    let code = "def next(n) : return n < 3 ? [[\"inc\", n + 1], [\"dbl\", n * 2]] : []\n\
                var S = Search.explore(1, next, {\"goal\": 3})\nout S\nout S.json()\nS.dot()\nS.aut()";
    let r = ds(&["-e", code]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let mut parts = r.stdout.splitn(2, '\n');
    assert_eq!(parts.next(), Some("state space: 4 states, 4 transitions"));
    let rest = parts.next().unwrap_or_default();
    let json_end = rest.find("\ndigraph").expect("the DOT text follows the JSON");
    let json: serde_json::Value = serde_json::from_str(&rest[..json_end]).expect("valid JSON");
    assert_eq!(json["complete"], true);
    assert_eq!(json["goals"], serde_json::json!([2]));
    assert_eq!(
        json["states"][3],
        serde_json::json!({"id": 3, "depth": 2, "parent": 1, "action": "dbl", "goal": false, "value": 4})
    );
    assert_eq!(json["transitions"][1], serde_json::json!({"from": 0, "action": "dbl", "to": 1}));
    assert!(
        rest.contains("s2 [label=\"2\\n3\", peripheries=2];") && rest.contains("s1 -> s3 [label=\"dbl\"];"),
        "{rest}"
    );
    assert!(
        rest.ends_with("des (0, 4, 4)\n(0, \"inc\", 1)\n(0, \"dbl\", 1)\n(1, \"inc\", 2)\n(1, \"dbl\", 3)\n"),
        "{rest}"
    );
}

#[test]
fn an_exploration_stops_at_max_states() {
    let code = "var S = Search.explore(1, (n) => [n + 1, n * 2], {\"max_states\": 10})\n\
                out S.size(), Search.stats()[\"found\"], Search.stats()[\"reason\"], S.json().indexOf(\"\\\"complete\\\": false\") > 0";
    prints(code, "10 Undef max_states True\n");
    fails_with("var S = Search.explore(1, (n) => [])\nout S.goals()", "explored without a goal");
    fails_with("var S = Search.explore(1, (n) => [])\nout S.state(1)", "takes a state number from 0 to 0");
    fails_with("out [1].states()", "`states` works on state spaces");
}

#[test]
fn successor_pairs_the_script_keeps_keep_their_parts() {
    // The search moves the action and state out of an [Action, State] array that `Next` built
    // and holds nowhere else (issue 43); a pair the script also keeps must stay whole.
    let code = "var Kept = []\nglobal Kept\n\
                def next(n)\n{\n   var P = [\"inc\", n + 1]\n   Kept.push(P)\n   return [P, [\"dbl\", n * 2, 3]]\n}\n\
                out Search.bfs(1, next, 4), Search.stats()[\"actions\"]\nout Kept.size(), Kept[0], Kept[1]";
    // 1 -> 2 (inc; dbl meets 2 again) -> 4 (dbl): `next` is called on 1 and on 2
    prints(code, "4 [inc,dbl]\n2 [inc,2] [inc,3]\n");
    // the same pairs, none kept: the same answer
    prints(&format!("{NUMBERS}out Search.bfs(1, next, 4), Search.stats()[\"actions\"]"), "4 [inc,dbl]\n");
}

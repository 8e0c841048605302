//! The problem map of `Problem.pddl` in `Search.compare`, `Search.hill`, `Search.anneal` and
//! `Search.bibfs` (docs/search.md, "A problem as a map"). Known answers: the eight puzzle of
//! docs/problems.md (5 moves), the lights task of docs/planning.md (two lamps, both switched on
//! by reasoning), and the bibfs example of docs/search.md.

use crate::common::ds_file;
use crate::plan::{LIGHTS, LIGHTS_PROBLEM};
use crate::plan_scripts::{run, scripts};

fn lights(body: &str) -> crate::common::Run {
    let src = format!(
        "edges on, in\nvar P = Problem.pddl(\"{}\", \"{}\")\n{body}",
        LIGHTS.replace('\n', " "),
        LIGHTS_PROBLEM.replace('\n', " ")
    );
    ds_file("map.ds", &src, &[])
}

#[test]
fn compare_takes_the_task_and_heuristics_by_name() {
    let s = scripts();
    let (d, p) = (s.join("eight.pddl").display().to_string(), s.join("eight-1.pddl").display().to_string());
    let body = "var P = Problem.pddl(D, F)\n\
                var Rows = Search.compare(P, \"lmcut\", [\"bfs\", \"astar\", [\"astar\", \"blind\"], [\"idastar\", \"hmax\"]], {\"time\": False})\n\
                for R in Rows : out R[\"algorithm\"], R[\"cost\"], R[\"length\"]\n";
    let r = run(&d, &p, body);
    // every one of them is optimal here (bfs: unit costs; the heuristics are admissible)
    let rows: Vec<&str> = r.stdout.lines().skip(5).collect();
    assert_eq!(rows, ["bfs 5 5", "astar 5 5", "astar blind 5 5", "idastar hmax 5 5"], "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with("algorithm"), "{}", r.stdout);
}

#[test]
fn hill_and_anneal_climb_a_negated_heuristic_to_the_goal() {
    // goalcount is 2 at the start, 1 after either switch and 0 when both lamps are on, where
    // no action applies: the climb and the walk both end there (`peak`), whatever the seed.
    let r = lights(
        "var G = Search.hill(P, \"goalcount\")\nvar S = Search.stats()\nout P[\"goal\"](G), S[\"value\"], S[\"reason\"], S[\"actions\"]\n\
         G = Search.anneal(P, \"goalcount\", {\"seed\": 5})\nS = Search.stats()\nout P[\"goal\"](G), S[\"value\"], S[\"reason\"], S[\"moves\"]\n\
         G = Search.hill(P, (S) => 1)\nout P[\"goal\"](G), Search.stats()[\"reason\"]\n",
    );
    let want = "True 0 peak [(switch a hall),(switch b hall)]\nTrue 0 peak 2\nFalse peak\n";
    assert_eq!(r.stdout, want, "{}", r.stderr);
}

#[test]
fn bibfs_takes_a_map_with_a_goal_state_and_refuses_a_pddl_task_saying_why() {
    // docs/search.md's example of bibfs, as a map: the path [1,2,4,5,10]
    let src = "def next(n) : return [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]]\n\
               def prev(n) {\n   var R = n > 1 ? [[\"inc\", n - 1, 1]] : []\n   if n % 2 == 0 : R.push([\"dbl\", n / 2, 3])\n   return R\n}\n\
               out Search.bibfs({\"start\": 1, \"next\": next, \"goal\": 10, \"prev\": prev}), Search.stats()[\"path\"]\n\
               out Search.bibfs({\"start\": 1, \"next\": next, \"goal\": 10}, {\"prev\": prev}), Search.stats()[\"path\"]\n";
    let r = ds_file("bibfs.ds", src, &[]);
    assert_eq!(r.stdout, "10 [1,2,4,5,10]\n10 [1,2,4,5,10]\n", "{}", r.stderr);
    for (code, message) in [
        ("Search.bibfs(P)", "the problem map's `goal` is a test of a state"),
        ("Search.bibfs(P)", "the task gives no predecessors"),
        ("Search.bibfs({\"start\": 1, \"next\": P[\"next\"], \"goal\": 3})", "needs the option `prev`"),
        (
            "Search.bibfs({\"start\": 1, \"next\": P[\"next\"], \"goal\": 3}, 5)",
            "takes a map of options after P, not a number",
        ),
        ("Search.hill(P, \"nope\")", "no PDDL heuristic `nope`"),
        ("Search.compare(P, None, [[\"astar\", \"nope\"]])", "no PDDL heuristic `nope`"),
        ("Search.compare(3, None, [\"bfs\"])", "or a problem map"),
    ] {
        let r = lights(&format!("{code}\n"));
        assert_eq!(r.code, Some(1), "{code}: {}", r.stdout);
        assert!(r.stderr.contains(message), "{code}: expected `{message}`: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
}

//! Predicates of more than two arguments in `Problem.pddl`'s worlds (docs/planning.md, "PDDL
//! in scripts"): `(at t2 c1 r1)` is the edge `t2 at c1#r1` to the tuple node of (c1, r1), which
//! `arg1` and `arg2` join to its objects. The known answers: the eight puzzle of
//! docs/problems.md (problem 2, 5 moves, one optimal plan: see docs/planning.md), the
//! sliding-tile boards of tests/oracle/pddl/gen.py with the oracle's costs and state counts, and
//! counts by reasoning on a predicate of four arguments.

use crate::common::ds_file;
use crate::plan_scripts::{oracle, run, scripts, validated};

fn eight() -> (String, String) {
    let s = scripts();
    (s.join("eight.pddl").display().to_string(), s.join("eight-1.pddl").display().to_string())
}

#[test]
fn the_eight_puzzle_in_pddl_reads_its_tiles_through_tuple_nodes() {
    let (d, p) = eight();
    let body = "edges at, blank, arg1, arg2\nvar P = Problem.pddl(D, F)\nvar S = P[\"start\"]\nGRAPH = S\n\
                out ($t2 at $c1#r1), ($t2 at $c2#r1), ($c1#r1 arg1 $c1), ($c1#r1 arg2 $r1), ($c1#r1 arg1 $r1)\n\
                out ($c2 blank $r3), ($c1 blank $r1), S.size()\n\
                var A = []\nfor N in P[\"next\"](S) : A.push(N[0])\nout A.sort()\n";
    let r = run(&d, &p, body);
    // 14 objects and a tuple node for each of the 3 x 3 (column, row) pairs; the blank at
    // (c2, r3) has t6 above it, t7 on its left and t5 on its right.
    let want = "True False True True Undef\nTrue False 23\n\
                [(down t6 c2 r2 r3),(left t5 c3 r3 c2),(right t7 c1 r3 c2)]\n";
    assert_eq!(r.stdout, want, "{}", r.stderr);
}

#[test]
fn the_eight_puzzle_in_pddl_is_solved_in_five_moves() {
    // docs/problems.md: 5 moves; the oracle finds the same cost and validates the plan.
    let (d, p) = eight();
    assert_eq!(oracle(&["cost", &d, &p]), "5");
    for call in ["Search.bfs(P)", "Search.astar(P, \"lmcut\")", "Search.astar(P, \"blind\")"] {
        let body = format!(
            "edges at, blank\nvar P = Problem.pddl(D, F)\nvar G = {call}\nvar S = Search.stats()\n\
             for A in S[\"actions\"] : out A\nGRAPH = G\nout ($t8 at $c1#r2), ($c2 blank $r2), P[\"goal\"](G)\nout S[\"cost\"]\n"
        );
        let r = run(&d, &p, &body);
        let lines: Vec<String> = r.stdout.lines().map(str::to_string).collect();
        assert_eq!(lines.len(), 7, "{call}: {}{}", r.stdout, r.stderr);
        assert_eq!(lines[5..], ["True True True", "5"], "{call}");
        assert_eq!(validated(&d, &p, &lines[..5], "5"), "5", "{call}");
    }
}

const QUAD: &str = "(define (domain quad) (:requirements :strips :typing :negative-preconditions) \
    (:types van place) (:predicates (done ?v - van ?a - place ?b - place ?c - place)) \
    (:action mark :parameters (?v - van ?a - place ?b - place ?c - place) \
      :precondition (not (done ?v ?a ?b ?c)) :effect (done ?v ?a ?b ?c)))";
const QUAD_1: &str = "(define (problem quad-1) (:domain quad) (:objects v - van x y - place) \
    (:init) (:goal (done v x y x)))";

#[test]
fn a_predicate_of_four_arguments_points_at_a_tuple_of_three() {
    // 2 x 2 x 2 atoms of `done`, each set once and never unset: 2^8 states; nodes: 3 objects
    // and the 8 tuple nodes of (a, b, c).
    let src = format!(
        "edges done, arg1, arg2, arg3\nvar P = Problem.pddl(\"{QUAD}\", \"{QUAD_1}\")\nvar S = P[\"start\"]\n\
         GRAPH = S\nout S.size(), ($v done $x#y#x), ($x#y#x arg1 $x), ($x#y#x arg2 $y), ($x#y#x arg3 $x)\n\
         var G = Search.bfs(P)\nout Search.stats()[\"actions\"]\nGRAPH = G\nout ($v done $x#y#x), ($v done $y#y#x)\n\
         out Search.explore(P).size()\n"
    );
    let r = ds_file("quad.ds", &src, &[]);
    assert_eq!(r.stdout, "11 False True True True\n[(mark v x y x)]\nTrue False\n256\n", "{}", r.stderr);
}

//! An infinite heuristic marks a dead end (issue 55): the informed searches never expand such a
//! state, nor test it as a goal, and count it once in `Search.stats()["dead_ends"]`; NaN and
//! -inf stay errors, and so does an infinite value for hill climbing. The counts below are
//! worked out by hand in the comments.

use crate::common::{fails_with, prints};

/// From n: +1 and *2; numbers past 12 are dead ends for `h`, 12 the goal.
const NUMBERS: &str = "def next(n) : return [[\"inc\", n + 1], [\"dbl\", n * 2]]\n\
                       def h(n) : return n > 12 ? Math.INF : 0\n";

#[test]
fn greedy_and_idastar_prune_the_dead_ends_they_meet() {
    // greedy: every h is 0 short of a dead end, so it goes breadth first (ties by entry) and
    // expands 1 2 3 4 6 5 8 7 before taking 12 out: 8 gives 16 and 7 gives 14, both dead.
    // idastar: the round of bound 3 expands 8 (16 is dead); the round of bound 4 goes
    // 1 2 3 6 7 (14 is dead), then 12.
    prints(
        &format!(
            "{NUMBERS}out Search.greedy(1, next, 12, h), Search.stats()[\"expanded\"], Search.stats()[\"dead_ends\"]\n\
             out Search.idastar(1, next, 12, h), Search.stats()[\"cost\"], Search.stats()[\"dead_ends\"]"
        ),
        "12 8 2\n12 4 2\n",
    );
}

#[test]
fn beam_finds_the_goal_before_it_meets_a_dead_end() {
    // levels {1}, {2}, {3, 4}, {6, 5, 8}: expanding 6 generates 12, a goal when generated,
    // before 8 would generate 16
    prints(
        &format!("{NUMBERS}out Search.beam(1, next, 12, h, {{\"width\": 100}}), Search.stats()[\"dead_ends\"]"),
        "12 0\n",
    );
}

#[test]
fn a_start_that_is_a_dead_end_ends_every_informed_search_at_once() {
    let mut code = NUMBERS.to_string();
    for algorithm in ["astar", "greedy", "idastar", "rbfs", "beam"] {
        code.push_str(&format!(
            "out Search.{algorithm}(13, next, 12, h), Search.stats()[\"reason\"], Search.stats()[\"expanded\"], Search.stats()[\"dead_ends\"]\n"
        ));
    }
    prints(&code, &"Undef exhausted 0 1\n".repeat(5));
}

#[test]
fn a_dead_end_met_again_by_a_cheaper_path_stays_out() {
    // A -> B costs 10, A -> C 1, C -> B 1, B -> D 1: D lies beyond B only, and h(B) is inf.
    // A* meets B first from A (dead), then from C at g = 2; a state met by a cheaper path
    // would go back into the frontier, but a dead end never does: D is not found.
    prints(
        "var Roads = {\"A\": [[\"ab\", \"B\", 10], [\"ac\", \"C\", 1]], \"B\": [[\"bd\", \"D\", 1]], \"C\": [[\"cb\", \"B\", 1]], \"D\": []}\n\
         global Roads\n\
         def roads(T) : return Roads[T]\n\
         out Search.astar(\"A\", roads, \"D\", (T) => T == \"B\" ? Math.INF : 0), Search.stats()[\"expanded\"], Search.stats()[\"dead_ends\"]",
        "Undef 2 1\n",
    );
}

#[test]
fn nan_and_minus_infinity_are_refused_and_so_is_an_infinite_value_to_climb() {
    fails_with(
        "out Search.astar(1, (n) => [n + 1], 3, (n) => 0 - Math.INF)",
        "must return a finite number or inf (a dead end), not an infinite number (-inf)",
    );
    fails_with("out Search.astar(1, (n) => [n + 1], 3, (n) => Math.INF - Math.INF)", "not NaN");
    fails_with(
        "out Search.hill(1, (n) => [n + 1], (n) => Math.INF)",
        "must return a finite number, not an infinite number (inf)",
    );
}

//! `Search.hill` (docs/search.md, "Local search"): answers worked out by hand on a tiny
//! landscape, limits, and errors.

use crate::common::{fails_with, prints};

/// 0..10, one step left or right; values with a local maximum at 3 (5) and the global one at
/// 8 (9).
const LANDSCAPE: &str = "global V\nV = [0, 2, 4, 5, 3, 2, 3, 6, 9, 7, 1]\n\
    def next(n) : return n == 0 ? [1] : (n == 10 ? [9] : [n - 1, n + 1])\n\
    def value(n) : return V[n]\n";

#[test]
fn hill_climbing_stops_at_the_first_peak() {
    // From 0: 1 (2), 2 (4), 3 (5); 3's neighbours 2 (4) and 4 (3) are lower. Expanded 0, 1,
    // 2, 3; generated 1 + 2 + 2 + 2; duplicates: 0 from 1, 1 from 2, 2 from 3; stored 0..4.
    let code = format!(
        "{LANDSCAPE}out Search.hill(0, next, value)\nvar S = Search.stats()\n\
         out S[\"path\"], S[\"value\"], S[\"reason\"], S[\"found\"], S[\"algorithm\"]\n\
         out S[\"expanded\"], S[\"generated\"], S[\"duplicates\"], S[\"states\"], S[\"depth\"]"
    );
    prints(&code, "3\n[0,1,2,3] 5 peak Undef hill\n4 7 3 5 3\n");
}

#[test]
fn hill_climbing_from_the_other_slope_reaches_the_top() {
    // From 6 (3): 7 (6) beats 5 (2); then 8 (9); 8's neighbours 7 (6) and 9 (7) are lower.
    let code =
        format!("{LANDSCAPE}out Search.hill(6, next, value), Search.stats()[\"path\"], Search.stats()[\"value\"]");
    prints(&code, "8 [6,7,8] 9\n");
}

#[test]
fn hill_climbing_takes_the_first_of_equal_best_and_stops_on_a_plateau() {
    // From 5, both neighbours are worth 7: the first generated (4) is taken; its other
    // neighbour 3 is worth 7 too, which is no improvement.
    let code = "def next(n) : return [n - 1, n + 1]\nout Search.hill(5, next, (n) => n == 5 ? 0 : 7), Search.stats()[\"path\"]";
    prints(code, "4 [5,4]\n");
}

#[test]
fn hill_climbing_honours_its_limits() {
    // an endless slope: max_states 5 stores 0..4 and stops when 5 would be the sixth state
    let up = "def next(n) : return [n + 1]\n";
    let code = format!("{up}out Search.hill(0, next, (n) => n, {{\"max_states\": 5}}), Search.stats()[\"reason\"]");
    prints(&code, "4 max_states\n");
    fails_with(
        &format!("{up}Search.hill(0, next, (n) => n, {{\"width\": 2}})"),
        "`width` is an option of `Search.beam`, not of `Search.hill`",
    );
}

#[test]
fn a_value_that_is_not_a_number_is_an_error() {
    fails_with(
        "def next(n) : return [n + 1]\nSearch.hill(0, next, (n) => \"high\")",
        "the value lambda must return a finite number, not a string",
    );
    fails_with(
        "def v(n) : return n\nSearch.hill(0, 5, v)",
        "argument 2 of `Search.hill` (Next) must be a demon or a lambda",
    );
    fails_with(
        "def next(n) : return [n + 1]\nSearch.hill(0, next, 3)",
        "argument 3 of `Search.hill` (Value) must be a demon or a lambda",
    );
}

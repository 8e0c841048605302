//! `Search.anneal` (docs/search.md, "Simulated annealing"): a cold walk worked out by hand,
//! walks checked step by step against the independent model in tests/oracle/search_oracle.py
//! (the same splitmix64 and the same rule), limits and errors.

use crate::common::{ds_file, ds_file_within, fails_with, prints};
use std::path::PathBuf;
use std::process::Command;

/// 0..10, one step left or right; values with a local maximum at 3 (5) and the global one at
/// 8 (9) (the oracle's landscape "line").
const LINE: &str = "global V\nV = [0, 2, 4, 5, 3, 2, 3, 6, 9, 7, 1]\n\
    def next(n) : return n == 0 ? [1] : (n == 10 ? [9] : [n - 1, n + 1])\n\
    def value(n) : return V[n]\n";

/// The cells x*10+y of an 8x8 grid, four neighbours (left, right, down, up in x and y); a
/// local peak of 5 at (2,2) and the global one, 9, at (6,5) (the oracle's "grid").
const GRID: &str = "def next(n) {\n\
       var X = n \\ 10, Y = n % 10, R = []\n\
       if X > 0 : R.push(n - 10)\n\
       if X < 7 : R.push(n + 10)\n\
       if Y > 0 : R.push(n - 1)\n\
       if Y < 7 : R.push(n + 1)\n\
       return R\n\
    }\n\
    def value(n) {\n\
       var X = n \\ 10, Y = n % 10\n\
       var A = 5 - Math.abs(X - 2) - Math.abs(Y - 2), B = 9 - 2 * (Math.abs(X - 6) + Math.abs(Y - 5))\n\
       return Math.max(A, Math.max(B, 0))\n\
    }\n";

#[test]
fn a_cold_walk_is_a_hill_climber_that_stays_on_the_first_peak() {
    // T = 1e-6: a step down of 1 or more is taken with probability e^(-1e6) = 0, a step up
    // always. From 0 every step up leads to 3, whose neighbours are lower, whatever the seed;
    // from 6 the walk can only go up to 7 and 8. The best state is the last.
    for seed in 0..6 {
        let code = format!(
            "{LINE}var O = {{\"seed\": {seed}, \"t0\": 0.000001, \"steps\": 60}}\n\
             out Search.anneal(0, next, value, O)\nvar S = Search.stats()\n\
             out S[\"path\"], S[\"value\"], S[\"reason\"], S[\"found\"], S[\"algorithm\"], S[\"expanded\"], S[\"moves\"]\n\
             out Search.anneal(6, next, value, O), Search.stats()[\"value\"]"
        );
        prints(&code, "3\n[0,1,2,3] 5 cooled Undef anneal 60 3\n8 9\n");
    }
}

/// The oracle's two lines for a walk: the best state, its value, the reason and the counts;
/// the ids of the states expanded, in order.
fn oracle(landscape: &str, seed: u64, t0: &str, decay: &str, steps: u32) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/search_oracle.py");
    let mut cmd = Command::new("python3");
    cmd.arg("-S").arg(script).arg("--anneal").arg(landscape);
    cmd.args([seed.to_string(), t0.to_string(), decay.to_string(), steps.to_string()]);
    let out = cmd.output().expect("python3 runs the search oracle");
    assert!(out.status.success(), "search_oracle.py: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn ds_walk(prelude: &str, seed: u64, t0: &str, decay: &str, steps: u32) -> String {
    let code = format!(
        "{prelude}var O = {{\"seed\": {seed}, \"t0\": {t0}, \"decay\": {decay}, \"steps\": {steps}, \"record\": True}}\n\
         var Best = Search.anneal(0, next, value, O)\nvar S = Search.stats()\n\
         out Best, S[\"value\"], S[\"reason\"], S[\"expanded\"], S[\"generated\"], S[\"duplicates\"], S[\"depth\"], S[\"states\"], S[\"moves\"]\n\
         var W = []\nfor E in Search.trace() : if E[\"event\"] == \"expand\" : W.push(E[\"state\"])\nout W"
    );
    let r = ds_file("anneal_case.ds", &code, &[]);
    assert_eq!(r.stderr, "", "{code}");
    r.stdout
}

#[test]
fn walks_agree_with_the_oracle_step_by_step() {
    for seed in 0..10 {
        let want = oracle("line", seed, "2", "0.98", 300);
        assert_eq!(ds_walk(LINE, seed, "2", "0.98", 300), want, "line, seed {seed}");
    }
    for seed in 0..5 {
        let want = oracle("grid", seed, "5", "0.97", 200);
        assert_eq!(ds_walk(GRID, seed, "5", "0.97", 200), want, "grid, seed {seed}");
    }
    // a temperature that reaches 0: 1e-300 * 1e-10^k is 0 from k = 3 (reason cooled after 3
    // steps, each up: 0 (1) -> 1 (2) -> 2 (3) -> ...)
    let want = oracle("grid", 1, "1e-300", "1e-10", 50);
    assert!(want.starts_with("2 3 cooled 3 "), "{want}");
    assert_eq!(ds_walk(GRID, 1, "1e-300", "1e-10", 50), want);
}

#[test]
fn the_same_seed_gives_the_same_walk_and_another_seed_another() {
    let walk = |seed| ds_walk(GRID, seed, "5", "0.97", 200);
    assert_eq!(walk(4), walk(4));
    assert_ne!(walk(4), walk(5));
}

#[test]
fn a_state_without_successors_ends_the_walk() {
    // 0 -> 1 -> 2, which has none: reason peak, as hill climbing
    let code = "out Search.anneal(0, (n) => n < 2 ? [n + 1] : [], (n) => n), Search.stats()[\"reason\"], Search.stats()[\"expanded\"]";
    prints(code, "2 peak 3\n");
    // no steps at all: the start
    prints("out Search.anneal(7, (n) => [n + 1], (n) => n, {\"steps\": 0}), Search.stats()[\"reason\"]", "7 cooled\n");
}

#[test]
fn annealing_honours_the_limits() {
    let up = "def next(n) : return [n + 1]\n";
    let code = format!("{up}out Search.anneal(0, next, (n) => n, {{\"max_states\": 5}}), Search.stats()[\"reason\"]");
    prints(&code, "4 max_states\n");
    let code = format!(
        "{up}out Search.anneal(0, next, (n) => n, {{\"steps\": 1000000000, \"decay\": 1}}), Search.stats()[\"reason\"]"
    );
    let r = ds_file_within("anneal_steps.ds", &code, &["--max-steps", "100000"], 60);
    assert!(r.stdout.ends_with(" max_steps\n"), "{}{}", r.stdout, r.stderr);
    // the best state so far is still returned, a number of the endless slope (2 s: the search
    // has begun by then even on a loaded machine, issue 56)
    let r = ds_file_within("anneal_time.ds", &code, &["--timeout", "2"], 60);
    assert!(r.stdout.ends_with(" timeout\n") && !r.stdout.starts_with("Undef"), "{}{}", r.stdout, r.stderr);
}

#[test]
fn bad_options_and_values_are_errors() {
    let base = format!("{LINE}Search.anneal(0, next, value, ");
    for (opts, message) in [
        ("{\"seed\": -1}", "option `seed` of `Search.anneal` must be a whole number from 0 to 2^53, not -1"),
        ("{\"seed\": 1.5}", "option `seed` of `Search.anneal` must be a whole number from 0 to 2^53"),
        ("{\"t0\": 0}", "option `t0` of `Search.anneal` must be a finite number > 0, not 0"),
        ("{\"decay\": 1.5}", "option `decay` of `Search.anneal` must be a number > 0 and <= 1, not 1.5"),
        ("{\"steps\": \"many\"}", "option `steps` of `Search.anneal` must be a whole number >= 0"),
        ("{\"trace\": True}", "`Search.anneal` walks on one thread, without `symmetry` or `trace`"),
        ("{\"width\": 2}", "`width` is an option of `Search.beam`, not of `Search.anneal`"),
        ("{\"sead\": 2}", "`Search.anneal` has no option `sead` (did you mean `seed`?)"),
    ] {
        fails_with(&format!("{base}{opts})"), message);
    }
    fails_with(
        "Search.anneal(0, (n) => [n + 1], (n) => \"high\")",
        "the value lambda must return a finite number, not a string",
    );
    fails_with("Search.anneal(0, 5, (n) => n)", "argument 2 of `Search.anneal` (Next) must be a demon or a lambda");
}

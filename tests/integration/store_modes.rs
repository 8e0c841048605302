//! `Opts["store"]` (decision 25): the `"hash"` store keeps a fingerprint per state, the
//! `"bitstate"` store three bits per state in an array; both keep the keys of the frontier only
//! and rebuild a path by expanding its states again. Their answers are checked against known
//! ones (problems.md, or reasoning given with each), not against the exact store's output alone.

use crate::common::{ds_file, fails_with, prints, scratch_file};
use std::process::{Command, Stdio};

/// Numbers from 1 by +1 and *2.
const NUMBERS: &str = "def next(n) : return [[\"inc\", n + 1], [\"dbl\", n * 2]]\n";

#[test]
fn the_hash_store_finds_the_fewest_actions_with_their_path() {
    // 100 is 1100100 in binary: from 1, a doubling per further bit (6) and an increment per
    // further 1 (2), and no shorter way, so 8 actions: 1 2 3 6 12 24 25 50 100 (2 by "inc",
    // which `next` gives first).
    let code = format!(
        "{NUMBERS}var R = Search.bfs(1, next, 100, {{\"store\": \"hash\"}})\nvar S = Search.stats()\n\
         out R, S[\"path\"], S[\"actions\"], S[\"exact\"], S[\"omission\"] > 0, S[\"omission\"] < 1e-12"
    );
    prints(&code, "100 [1,2,3,6,12,24,25,50,100] [inc,inc,dbl,dbl,dbl,inc,dbl,dbl] False True True\n");
}

#[test]
fn a_bit_array_finds_the_fewest_actions_and_says_what_it_covered() {
    // The same 8 actions as above; 3 bits per state among a million: nothing lost.
    let code = format!(
        "{NUMBERS}var R = Search.bfs(1, next, 100, {{\"store\": \"bitstate\", \"bits\": 1000000}})\nvar S = Search.stats()\n\
         out R, S[\"path\"], S[\"exact\"], S[\"coverage\"] > 0.999999"
    );
    prints(&code, "100 [1,2,3,6,12,24,25,50,100] False True\n");
    // 64 bits for the numbers up to 100 (the search stores every state it meets new, and more
    // than 21 states set more than 64 bits): states are taken for others, the goal may be lost,
    // and the estimate says the search did not cover everything.
    let code = format!(
        "{NUMBERS}var R = Search.bfs(1, next, 100, {{\"store\": \"bitstate\", \"bits\": 64}})\nvar S = Search.stats()\n\
         out S[\"coverage\"] < 0.9, S[\"states\"] < 100"
    );
    prints(&code, "True True\n");
}

#[test]
fn the_lossy_stores_solve_the_wolf_puzzle_with_the_seeds_demons() {
    // scripts/wolf_search.ds with the store "hash": problems.md, problem 1, one farmer: 17
    // actions, the goat first. The plan is the goal state's name, rebuilt along the path.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
    let script = std::fs::read_to_string(root.join("wolf_search.ds")).expect("wolf_search.ds");
    let search = "Search.bfs(Start, all_actions, target_state)";
    assert!(script.contains(search));
    let cut =
        script.find("// ------------------------------------------------------------------ the whole").expect("cut");
    for store in ["\"hash\"", "\"bitstate\", \"bits\": 100000"] {
        let hashed = script[..cut]
            .replace(search, &format!("Search.bfs(Start, all_actions, target_state, {{\"store\": {store}}})"))
            + "out S[\"exact\"], S[\"path\"].size()\n";
        wolf_answer(&root, &hashed);
    }
}

/// Runs `script` (scripts/wolf_search.ds changed) beside a copy of scripts/wolf/, and checks
/// its answer.
fn wolf_answer(root: &std::path::Path, script: &str) {
    let path = scratch_file("wolf_hash.ds", script);
    let dir = path.parent().expect("dir");
    std::fs::create_dir_all(dir.join("wolf")).expect("wolf dir");
    for f in std::fs::read_dir(root.join("wolf")).expect("scripts/wolf") {
        let f = f.expect("entry").path();
        std::fs::copy(&f, dir.join("wolf").join(f.file_name().expect("name"))).expect("copy");
    }
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(&path).stdin(Stdio::null()).output().expect("run ds");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let plan = "f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p";
    assert!(
        stdout.contains(&format!("Search.bfs: Start;{plan}\n")),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("the same state as the solver's: True\n"), "{stdout}");
    assert!(stdout.contains(&format!("actions (17): {}\n", plan.replace(';', " "))), "{stdout}");
    assert!(stdout.ends_with("False 18\n"), "not exact; the start and 17 states: {stdout}");
}

#[test]
fn a_next_that_changes_between_runs_cannot_have_its_path_rebuilt() {
    // Once the goal is met, `next` gives other numbers: the path's states, made again from
    // the start, are not those the search stored.
    let code = "var Done = False\nglobal Done\n\
                def next(n) : return Done ? [n + 1000] : [n + 1, n * 2]\n\
                def goal(n) { if n == 40 { Done = True\nreturn True }\nreturn False }\n\
                Search.bfs(1, next, goal, {\"store\": \"hash\"})\n";
    let r = fails_with(code, "the path to the goal could not be rebuilt: state ");
    assert!(r.stderr.contains("was not among its parent's successors"), "{}", r.stderr);
}

#[test]
fn what_the_lossy_stores_do_not_do_is_said() {
    let cases = [
        ("Search.dfs(1, next, 10, {\"store\": \"hash\"})", "the store \"hash\" is built for `Search.bfs` only so far"),
        ("Search.explore(1, next, {\"store\": \"hash\", \"max_states\": 5})", "`Search.explore` keeps every state"),
        (
            "Search.astar(1, next, 10, (n) => 0, {\"store\": \"bitstate\"})",
            "the store \"bitstate\" is built for `Search.bfs` only",
        ),
        ("Search.bfs(1, next, 10, {\"store\": \"hash\", \"threads\": 2})", "other than \"exact\" runs on one thread"),
        ("Search.bfs(1, next, 10, {\"store\": \"bitstate\", \"record\": True})", "cannot trace or record them"),
        ("Search.bfs(1, next, 10, {\"bits\": 1000})", "option `bits` sizes the store \"bitstate\""),
        (
            "Search.bfs(1, next, 10, {\"store\": \"bitstate\", \"bits\": 10})",
            "option `bits` of `Search.bfs` must be a whole number >= 64",
        ),
        ("Search.bfs(1, next, 10, {\"store\": \"bitstate\", \"bits\": 1e30})", "do not fit in the memory limit"),
        ("Search.bfs(1, next, 10, {\"store\": \"disk\"})", "must be \"exact\", \"hash\" or \"bitstate\""),
    ];
    for (call, message) in cases {
        fails_with(&format!("{NUMBERS}{call}"), message);
    }
}

#[test]
fn the_lossy_stores_meet_as_many_states_as_the_exact_one() {
    // The 8-puzzle's 5-move instance of problems.md (problem 2): the same answer, states and
    // counts in the three stores (a fingerprint collision among a few hundred states would
    // take odds of about 1e-14; a false hit among a million bits, about 1e-12 a state).
    let code = "def swap(S, B, I) { var A = S.split(\"\")\nA[B] = A[I]\nA[I] = \"0\"\nreturn A.join(\"\") }\n\
        def moves(S) {\n\
          var B = S.indexOf(\"0\"), R = []\n\
          if B > 2 : R.push(swap(S, B, B - 3))\nif B < 6 : R.push(swap(S, B, B + 3))\n\
          if B % 3 > 0 : R.push(swap(S, B, B - 1))\nif B % 3 < 2 : R.push(swap(S, B, B + 1))\nreturn R }\n\
        for M in [\"exact\", \"hash\", \"bitstate\"] {\n\
          var O = {\"store\": M}\nif M == \"bitstate\" : O[\"bits\"] = 1000000\n\
          var G = Search.bfs(\"283164705\", moves, \"123804765\", O)\nvar S = Search.stats()\n\
          out G, S[\"path\"].size() - 1, S[\"states\"], S[\"expanded\"], S[\"generated\"], S[\"duplicates\"], S[\"exact\"] }\n";
    let r = ds_file("eight_hash.ds", code, &[]);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}{}", r.stdout, r.stderr);
    assert!(lines[0].starts_with("123804765 5 ") && lines[0].ends_with(" True"), "{}", lines[0]);
    for lossy in &lines[1..] {
        assert_eq!(lines[0].replace(" True", " _"), lossy.replace(" False", " _"), "the same counts");
    }
}

//! Golden tests: every `scripts/NAME.ds` runs and its standard output must equal the checked
//! file `tests/expected/NAME.out`; `tests/expected/NAME@CASE.args` (one argument per line) with
//! `NAME@CASE.out` runs the script on another instance. Lines starting with `time:` hold CPU
//! times and are left out of the comparison.
//!
//! Each case is its own test (`cargo test ... golden::eight_at_random1`), listed in `cases!`
//! below; `every_case_is_listed` fails when a script or an expected file has no line there, or a
//! line has no file, so the list cannot drift from the folders.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn without_times(s: &str) -> String {
    s.lines().filter(|l| !l.starts_with("time:")).map(|l| format!("{l}\n")).collect()
}

/// Runs the case `NAME` or `NAME@CASE` and panics with a description of any difference.
fn check_case(case: &str) {
    let script = root().join("scripts").join(format!("{}.ds", case.split('@').next().unwrap_or_default()));
    let expected = root().join("tests/expected").join(format!("{case}.out"));
    let args = case_args(case);
    let want = fs::read_to_string(&expected).unwrap_or_else(|e| panic!("{}: cannot read: {e}", expected.display()));
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(&script).args(&args).output().expect("run ds");
    let got = String::from_utf8_lossy(&out.stdout);
    let (got, want) = (without_times(&got), without_times(&want));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("warning:"), "{}: the scripts draw no warning:\n{stderr}", script.display());
    assert!(
        got == want && out.status.success(),
        "{} {:?} (exit {:?}):\n--- expected\n{want}--- got\n{got}--- stderr\n{}",
        script.display(),
        args,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The arguments of a `NAME@CASE` case: the lines of its `.args` file, without `#` comments.
fn case_args(case: &str) -> Vec<String> {
    if !case.contains('@') {
        return Vec::new();
    }
    let file = root().join("tests/expected").join(format!("{case}.args"));
    let text = fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: cannot read: {e}", file.display()));
    text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
}

/// The cases the folders hold: a script's stem, and each `NAME@CASE` of an `.args` file.
fn cases_on_disk() -> Vec<String> {
    let stems = |dir: &str, ext: &str| -> Vec<String> {
        let entries = fs::read_dir(root().join(dir)).unwrap_or_else(|e| panic!("{dir}: {e}"));
        entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .map(|p| p.file_stem().unwrap_or_default().to_string_lossy().into_owned())
            .collect()
    };
    let mut cases = stems("scripts", "ds");
    cases.extend(stems("tests/expected", "args"));
    cases.sort();
    cases
}

macro_rules! cases {
    ($($name:ident => $case:literal,)*) => {
        $(#[test] fn $name() { check_case($case) })*
        const LISTED: &[&str] = &[$($case),*];
    };
}

cases! {
    blocks => "blocks",
    compare => "compare",
    compare_at_bad_puzzle => "compare@bad_puzzle",
    compare_at_bad_state => "compare@bad_state",
    compare_at_eight_19 => "compare@eight_19",
    compare_at_fifteen_13 => "compare@fifteen_13",
    compare_at_solved => "compare@solved",
    compare_at_unsolvable => "compare@unsolvable",
    eight => "eight",
    eight_at_bad_option => "eight@bad_option",
    eight_at_bad_state => "eight@bad_state",
    eight_at_bad_tree => "eight@bad_tree",
    eight_at_dot => "eight@dot",
    eight_at_hardest_manhattan => "eight@hardest_manhattan",
    eight_at_library => "eight@library",
    eight_at_library_dot => "eight@library_dot",
    eight_at_library_hardest => "eight@library_hardest",
    eight_at_library_random1 => "eight@library_random1",
    eight_at_library_solved => "eight@library_solved",
    eight_at_manhattan => "eight@manhattan",
    eight_at_random1 => "eight@random1",
    eight_at_random2 => "eight@random2",
    eight_at_random3 => "eight@random3",
    eight_at_random4 => "eight@random4",
    eight_at_random_manhattan => "eight@random_manhattan",
    eight_at_solved => "eight@solved",
    eight_at_svg => "eight@svg",
    eight_at_svg_dot => "eight@svg_dot",
    eight_at_unsolvable => "eight@unsolvable",
    eight_at_unsolvable_goal => "eight@unsolvable_goal",
    fifteen => "fifteen",
    fifteen_at_all_small => "fifteen@all_small",
    fifteen_at_astar => "fifteen@astar",
    fifteen_at_astar_24 => "fifteen@astar_24",
    fifteen_at_astar_28 => "fifteen@astar_28",
    fifteen_at_bad_limit => "fifteen@bad_limit",
    fifteen_at_bad_method => "fifteen@bad_method",
    fifteen_at_bad_state => "fifteen@bad_state",
    fifteen_at_bfs_13 => "fifteen@bfs_13",
    fifteen_at_dfs => "fifteen@dfs",
    fifteen_at_dfs_deeper => "fifteen@dfs_deeper",
    fifteen_at_library => "fifteen@library",
    fifteen_at_library_astar_24 => "fifteen@library_astar_24",
    fifteen_at_library_small => "fifteen@library_small",
    fifteen_at_library_solved => "fifteen@library_solved",
    fifteen_at_solved => "fifteen@solved",
    fifteen_at_unsolvable => "fifteen@unsolvable",
    games => "games",
    games_at_10 => "games@10",
    games_at_11 => "games@11",
    games_at_12 => "games@12",
    games_at_13 => "games@13",
    games_at_14 => "games@14",
    games_at_4 => "games@4",
    games_at_5 => "games@5",
    games_at_6 => "games@6",
    games_at_7 => "games@7",
    games_at_8 => "games@8",
    games_at_9 => "games@9",
    games_at_all => "games@all",
    games_at_bad_move => "games@bad_move",
    games_at_chip => "games@chip",
    games_at_heaps_ties => "games@heaps_ties",
    games_at_over => "games@over",
    gripper => "gripper",
    heuristics => "heuristics",
    heuristics_at_bad_state => "heuristics@bad_state",
    heuristics_at_standard_goal => "heuristics@standard_goal",
    heuristics_at_unsolvable => "heuristics@unsolvable",
    heuristics_at_usage => "heuristics@usage",
    hanoi => "hanoi",
    hanoi_at_0 => "hanoi@0",
    hanoi_at_1 => "hanoi@1",
    hanoi_at_5 => "hanoi@5",
    hanoi_at_50 => "hanoi@50",
    hanoi_at_6 => "hanoi@6",
    hanoi_at_7 => "hanoi@7",
    hanoi_at_usage => "hanoi@usage",
    jugs => "jugs",
    jugs_at_already => "jugs@already",
    jugs_at_no_tap => "jugs@no_tap",
    jugs_at_tap => "jugs@tap",
    jugs_at_tap_none => "jugs@tap_none",
    jugs_at_ten => "jugs@ten",
    jugs_at_twelve => "jugs@twelve",
    jugs_at_usage => "jugs@usage",
    knights => "knights",
    knights_at_2_1 => "knights@2_1",
    knights_at_3_3 => "knights@3_3",
    knights_at_4_2 => "knights@4_2",
    knights_at_4_3 => "knights@4_3",
    knights_at_5_3 => "knights@5_3",
    knights_at_6_3 => "knights@6_3",
    krk => "krk",
    krk_at_centre => "krk@centre",
    krk_at_corner => "krk@corner",
    krk_at_edge => "krk@edge",
    krk_at_random => "krk@random",
    krk_at_random_centre => "krk@random_centre",
    krk_at_random_rook_attacked => "krk@random_rook_attacked",
    krk_at_rook_attacked => "krk@rook_attacked",
    krk_at_stalemate_trap => "krk@stalemate_trap",
    mind => "mind",
    missionaries => "missionaries",
    missionaries_at_10_10_4 => "missionaries@10_10_4",
    missionaries_at_4_4_2 => "missionaries@4_4_2",
    missionaries_at_4_4_3 => "missionaries@4_4_3",
    missionaries_at_5_5_3 => "missionaries@5_5_3",
    missionaries_at_6_6_3 => "missionaries@6_6_3",
    missionaries_at_boat1 => "missionaries@boat1",
    missionaries_at_unsafe => "missionaries@unsafe",
    roads => "roads",
    roads_at_neamt_timisoara => "roads@neamt_timisoara",
    roads_at_oradea_eforie => "roads@oradea_eforie",
    roads_at_towns_1_10 => "roads@towns_1_10",
    roads_at_towns_1_6 => "roads@towns_1_6",
    roads_at_towns_1_8 => "roads@towns_1_8",
    roads_at_towns_3_3 => "roads@towns_3_3",
    roads_at_towns_unknown => "roads@towns_unknown",
    roads_at_tunnel => "roads@tunnel",
    search_problems => "search_problems",
    search_problems_at_hanoi_5 => "search_problems@hanoi_5",
    search_problems_at_jugs_12_8_5 => "search_problems@jugs_12_8_5",
    search_problems_at_missionaries_4_4_2 => "search_problems@missionaries_4_4_2",
    search_problems_at_missionaries_5_5_3 => "search_problems@missionaries_5_5_3",
    search_problems_at_usage => "search_problems@usage",
    tour => "tour",
    wolf => "wolf",
    wolf_chain => "wolf_chain",
    wolf_one_way => "wolf_one_way",
    wolf_places => "wolf_places",
    wolf_search => "wolf_search",
    wolf_symmetry => "wolf_symmetry",
    wolf_triangle => "wolf_triangle",
    wolf_two_farmers => "wolf_two_farmers",
    wolf_unsolvable => "wolf_unsolvable",
}

#[test]
fn every_case_is_listed() {
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    let on_disk = cases_on_disk();
    let missing: Vec<_> = on_disk.iter().filter(|c| !listed.contains(c)).collect();
    let stale: Vec<_> = listed.iter().filter(|c| !on_disk.contains(c)).collect();
    assert!(missing.is_empty(), "add these golden cases to `cases!` in tests/integration/golden.rs: {missing:?}");
    assert!(stale.is_empty(), "these golden cases have no script or .args file: {stale:?}");
    assert!(listed.iter().any(|c| c == "wolf"), "scripts/wolf.ds must be among the golden cases");
}

/// The two known answers of problems.md, spelled out here as well as in the expected files.
#[test]
fn wolf_known_answers() {
    let run = |script: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(root().join(script)).output().expect("run ds");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert_eq!(
        run("scripts/wolf.ds"),
        "Close: 27 0\nStart;f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p\n"
    );
    assert_eq!(
        run("scripts/wolf_two_farmers.ds"),
        "Close: 154 8\nStart;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p\n"
    );
}

/// The wolf family includes the seed's demons from `scripts/wolf/`; they must stay those of
/// `scripts/wolf.ds`, the seed program as published, line for line.
#[test]
fn the_wolf_familys_demons_are_the_seeds() {
    let wolf = fs::read_to_string(root().join("scripts/wolf.ds")).expect("wolf.ds");
    for part in ["actions", "solver"] {
        let text = fs::read_to_string(root().join(format!("scripts/wolf/{part}.ds"))).expect("wolf/ part");
        let code: String =
            text.lines().skip_while(|l| l.starts_with("//") || l.is_empty()).map(|l| format!("{l}\n")).collect();
        assert!(code.starts_with("def ") && wolf.contains(&code), "scripts/wolf/{part}.ds is not wolf.ds's");
    }
}

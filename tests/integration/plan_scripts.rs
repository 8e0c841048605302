//! `Problem.pddl` (decision 26; docs/planning.md, "PDDL in scripts"): a PDDL task searched by
//! the `Search` module. Optimal costs are compared with the independent oracle
//! (tests/oracle/pddl/oracle.py, a uniform-cost search over sets of atoms), each plan checked by
//! its validator, and the states `Search.explore` finds with the oracle's count of reachable
//! states (the same facts: every atom that can change is kept, so the counts must agree).

use crate::common::{ds_file, scratch_file};
use crate::plan::{oracle_dir, python, LIGHTS, LIGHTS_PROBLEM};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn scripts() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/pddl")
}

pub(crate) fn oracle(args: &[&str]) -> String {
    let script = oracle_dir().join("oracle.py");
    let mut all = vec![script.to_str().unwrap()];
    all.extend(args);
    python(&all)
}

/// A generated instance: (domain file, problem file).
pub(crate) fn generate(domain: &str, size: u32, seed: u32) -> (String, String) {
    let dir = scratch_file("x", "").with_file_name(format!("script-{domain}-{size}-{seed}"));
    let gen = oracle_dir().join("gen.py");
    python(&[gen.to_str().unwrap(), domain, &size.to_string(), &seed.to_string(), dir.to_str().unwrap()]);
    (dir.join("domain.pddl").display().to_string(), dir.join("problem.pddl").display().to_string())
}

/// Runs a script with `D` and `F` set to the domain and problem files (as ds strings).
pub(crate) fn run(d: &str, p: &str, body: &str) -> crate::common::Run {
    let src = format!("var D = \"{d}\"\nvar F = \"{p}\"\n{body}");
    ds_file("pddl.ds", &src, &[])
}

/// A* with `h` through `Problem.pddl`: the plan (one action a line) and its cost.
fn solve(d: &str, p: &str, h: &str) -> (Vec<String>, String) {
    let body = format!(
        "var P = Problem.pddl(D, F)\nSearch.astar(P, \"{h}\")\nvar S = Search.stats()\n\
         for A in S[\"actions\"] : out A\nout \"cost\", S[\"cost\"]\n"
    );
    let r = run(d, p, &body);
    assert_eq!(r.code, Some(0), "{d} {p} {h}: {}", r.stderr);
    let mut lines: Vec<String> = r.stdout.lines().map(str::to_string).collect();
    let cost = lines.pop().unwrap_or_default().trim_start_matches("cost ").to_string();
    (lines, cost)
}

/// The plan checked by the oracle's validator: its cost.
pub(crate) fn validated(d: &str, p: &str, plan: &[String], cost: &str) -> String {
    let file = scratch_file("plan.txt", &format!("{}\n; cost = {cost} (general cost)\n", plan.join("\n")));
    oracle(&["validate", d, p, file.to_str().unwrap()])
}

#[test]
fn astar_with_lmcut_in_a_script_finds_the_oracles_optimal_cost() {
    for (domain, size, seed) in [
        ("gripper", 4, 1),
        ("blocks", 5, 3),
        ("blocks", 6, 9),
        ("miconic", 4, 4),
        ("logistics", 2, 5),
        ("visit", 5, 6),
        ("roads", 5, 7),
        ("tiles", 3, 1),
    ] {
        let (d, p) = generate(domain, size, seed);
        let want = oracle(&["cost", &d, &p]);
        let (plan, cost) = solve(&d, &p, "lmcut");
        assert_eq!(cost, want, "{domain}-{size}-{seed}");
        assert_eq!(validated(&d, &p, &plan, &cost), want, "{domain}-{size}-{seed}: {plan:?}");
    }
}

#[test]
fn every_heuristic_and_uniform_cost_search_agree_on_the_cost() {
    let (d, p) = generate("blocks", 4, 2);
    let want = oracle(&["cost", &d, &p]);
    for h in ["blind", "hmax", "lmcut"] {
        assert_eq!(solve(&d, &p, h).1, want, "{h}");
    }
    let r = run(&d, &p, "var P = Problem.pddl(D, F)\nSearch.ucs(P)\nout Search.stats()[\"cost\"]\n");
    assert_eq!(r.stdout.trim(), want, "{}", r.stderr);
    // Inadmissible heuristics still give valid plans.
    for h in ["goalcount", "hadd", "hff"] {
        let (plan, cost) = solve(&d, &p, h);
        assert_eq!(validated(&d, &p, &plan, &cost), cost, "{h}");
    }
}

#[test]
fn every_search_algorithm_takes_the_task() {
    // blocks: unit costs, so the fewest actions is the least cost; with LM-cut (admissible)
    // astar, idastar and rbfs are optimal, as ucs, bfs and iddfs are.
    let (d, p) = generate("blocks", 4, 2);
    let want = oracle(&["cost", &d, &p]);
    for (call, optimal) in [
        ("Search.bfs(P)", true),
        ("Search.iddfs(P)", true),
        ("Search.ucs(P)", true),
        ("Search.dfs(P)", false),
        ("Search.astar(P, \"lmcut\")", true),
        ("Search.idastar(P, \"lmcut\")", true),
        ("Search.rbfs(P, \"lmcut\")", true),
        ("Search.greedy(P, \"hff\")", false),
        ("Search.beam(P, \"hff\", {\"width\": 50})", false),
    ] {
        let body = format!("var P = Problem.pddl(D, F)\n{call}\nvar S = Search.stats()\nfor A in S[\"actions\"] : out A\nout S[\"cost\"]\n");
        let r = run(&d, &p, &body);
        assert_eq!(r.code, Some(0), "{call}: {}", r.stderr);
        let mut plan: Vec<String> = r.stdout.lines().map(str::to_string).collect();
        let cost = plan.pop().unwrap_or_default();
        assert_eq!(validated(&d, &p, &plan, &cost), cost, "{call}");
        if optimal {
            assert_eq!(cost, want, "{call}");
        }
    }
}

#[test]
fn explore_finds_the_oracles_reachable_states() {
    let mut cases: Vec<(String, String)> = vec![
        generate("gripper", 3, 1),
        generate("blocks", 4, 2),
        generate("miconic", 3, 4),
        generate("visit", 4, 6),
        generate("tiles", 3, 2),
    ];
    let s = scripts();
    cases.push((s.join("wolf.pddl").display().to_string(), s.join("wolf-1.pddl").display().to_string()));
    for (d, p) in cases {
        let want = oracle(&["states", &d, &p]);
        let r = run(&d, &p, "out Search.explore(Problem.pddl(D, F)).size()\n");
        assert_eq!(r.stdout.trim(), want, "{p}: {}", r.stderr);
    }
}

#[test]
fn the_wolf_in_pddl_has_the_hand_written_worlds_answer() {
    // docs/problems.md (problem 1): one farmer, two places: 17 actions; the ds world's space
    // has 30 states and 60 transitions (tests/expected/wolf_search.out, from the wolf oracle).
    let s = scripts();
    let (d, p) = (s.join("wolf.pddl").display().to_string(), s.join("wolf-1.pddl").display().to_string());
    let body = "var P = Problem.pddl(D, F)\nSearch.bfs(P)\nout Search.stats()[\"actions\"].size()\n\
                var Space = Search.explore(P)\nout Space.size(), Space.transitions().size()\n";
    let r = run(&d, &p, body);
    assert_eq!(r.stdout, "17\n30 60\n", "{}", r.stderr);
}

#[test]
fn the_wolf_domain_in_the_lesson_is_the_file() {
    // docs/planning.md shows scripts/pddl/wolf.pddl whole; it must not drift from the file.
    let doc = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/planning.md")).expect("doc");
    let file = std::fs::read_to_string(scripts().join("wolf.pddl")).expect("wolf.pddl");
    assert!(doc.contains(&format!("```pddl\n{file}```")), "docs/planning.md must show scripts/pddl/wolf.pddl as it is");
}

#[test]
fn a_bad_file_is_a_script_error_at_its_place() {
    let d = scratch_file("lights.pddl", &LIGHTS.replace("(on ?l)))", "(onn ?l)))"));
    let p = scratch_file("lights-1.pddl", LIGHTS_PROBLEM);
    let r = run(d.to_str().unwrap(), p.to_str().unwrap(), "out 1\nvar P = Problem.pddl(D, F)\nout 2\n");
    assert_eq!((r.code, r.stdout.as_str()), (Some(1), "1\n"), "{}", r.stderr);
    // the first `(on ?l)` is in the precondition: line 6, column 41 (the name)
    assert!(r.stderr.contains("lights.pddl:6:41: undefined predicate `onn`"), "{}", r.stderr);
    let r = run("no-such-file.pddl", p.to_str().unwrap(), "var P = Problem.pddl(D, F)\n");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("cannot read the PDDL domain `no-such-file.pddl`"), "{}", r.stderr);
}

#[test]
fn each_bad_input_is_the_error_ds_plan_gives_at_the_same_place() {
    use crate::plan::{line_col, BAD, LIGHTS as DOMAIN, LIGHTS_PROBLEM as PROBLEM};
    for (which, from, to, marker, nth, message) in BAD {
        let (domain, problem) = match which {
            "domain" => (DOMAIN.replace(from, to), PROBLEM.to_string()),
            _ => (DOMAIN.to_string(), PROBLEM.replace(from, to)),
        };
        let d = scratch_file("lights.pddl", &domain);
        let p = scratch_file("p1.pddl", &problem);
        let text = if which == "domain" { &domain } else { &problem };
        let file = if which == "domain" { "lights.pddl" } else { "p1.pddl" };
        let at = format!("{file}:{}: ", line_col(text, marker, nth));
        let r = run(d.to_str().unwrap(), p.to_str().unwrap(), "var P = Problem.pddl(D, F)\nout 1\n");
        assert_eq!((r.code, r.stdout.as_str()), (Some(1), ""), "{to}: {}", r.stderr);
        assert!(r.stderr.contains(&at), "{to}: expected the error at {at}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{to}: expected `{message}`: {}", r.stderr);
    }
}

#[test]
fn pddl_text_works_like_a_file_and_the_world_is_closed() {
    let body = format!(
        "edges on, in\nvar P = Problem.pddl(\"{}\", \"{}\")\nvar S = P[\"start\"]\nGRAPH = S\n\
         out ($a in $hall), ($a on $a), ($hall in $hall), $a.isa(P[\"types\"]=>$lamp), $a.isa(P[\"types\"]=>$object)\n\
         var H = P[\"h\"](\"lmcut\")\nout P[\"goal\"](S), H(S)\nvar G = Search.astar(P, \"lmcut\")\n\
         out Search.stats()[\"actions\"], P[\"goal\"](G)\nout P[\"next\"](S)[0][0]\n",
        LIGHTS.replace('\n', " "),
        LIGHTS_PROBLEM.replace('\n', " ")
    );
    let r = ds_file("text.ds", &body, &[]);
    // Every atom the types allow is True or False; `hall in hall` is no atom of the task (the
    // types rule it out), so it is not a fact: Undef.
    assert_eq!(
        r.stdout, "True False Undef True True\nFalse 2\n[(switch a hall),(switch b hall)] True\n(switch a hall)\n",
        "{}",
        r.stderr
    );
}

#[test]
fn a_state_from_elsewhere_and_a_wrong_heuristic_are_errors() {
    let d = LIGHTS.replace('\n', " ");
    let p = LIGHTS_PROBLEM.replace('\n', " ");
    for (code, message) in [
        ("out P[\"next\"](GRAPH(\"Other\"))", "not a graph of the PDDL task's world"),
        ("var S = P[\"start\"].copy()\nGRAPH = S\n$a in $a\nout P[\"goal\"](S)", "not one of the PDDL task's"),
        ("out P[\"h\"](\"nope\")", "no PDDL heuristic `nope`"),
        ("out P[\"next\"](3)", "takes a state graph, not a number"),
        ("Search.astar(P)", "takes 2 to 5 arguments"),
        ("Search.astar(P, 3)", "(H) must be a demon or a lambda"),
        ("Search.bfs(3)", "or a problem map"),
    ] {
        let src = format!("edges on, in\nvar P = Problem.pddl(\"{d}\", \"{p}\")\n{code}\n");
        let r = ds_file("bad.ds", &src, &[]);
        assert_eq!(r.code, Some(1), "{code}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(message), "{code}: expected `{message}`: {}", r.stderr);
        assert!(!r.stderr.contains("panicked"), "{}", r.stderr);
    }
    // The robot in both rooms: two atoms of one variable (at-robby).
    let s = scripts();
    let src = "edges at_robby\nvar P = Problem.pddl(D, F)\nvar S = P[\"start\"].copy()\nGRAPH = S\n\
               $roomb at_robby $roomb\nout P[\"next\"](S)\n";
    let r = run(&s.join("gripper.pddl").display().to_string(), &s.join("gripper-4.pddl").display().to_string(), src);
    assert_eq!(r.code, Some(1), "{}", r.stdout);
    assert!(r.stderr.contains("two atoms of `at-robby` true"), "{}", r.stderr);
}

#[test]
fn what_a_world_cannot_hold_is_refused_by_name() {
    // `arg1` joins a tuple node to its first object once a predicate has three arguments
    let three = LIGHTS.replace(
        "(in ?l - lamp ?r - room))",
        "(in ?l - lamp ?r - room) (by ?l - lamp ?m - lamp ?r - room) (arg1 ?l - lamp))",
    );
    let isa = LIGHTS.replace("(in ?l - lamp ?r - room))", "(in ?l - lamp ?r - room) (isa ?l - lamp))");
    let twice = LIGHTS
        .replace("(on ?l)", "(light-on ?l)")
        .replace("(on ?l - lamp)", "(light-on ?l - lamp) (light_on ?l - lamp)");
    for (domain, message) in [
        (three, "the PDDL predicate `arg1` has the name of the relation `arg1` that joins a tuple node to its objects"),
        (isa, "the PDDL predicate `isa` has the name of ds's own relation `isa`"),
        (twice, "the PDDL predicates `light-on` and `light_on` both become `light_on` in ds"),
    ] {
        let problem = LIGHTS_PROBLEM.replace("(on a) (on b)", "(in a hall)");
        let src =
            format!("var P = Problem.pddl(\"{}\", \"{}\")\n", domain.replace('\n', " "), problem.replace('\n', " "));
        let r = ds_file("refused.ds", &src, &[]);
        assert_eq!(r.code, Some(1), "{message}: {}", r.stdout);
        assert!(r.stderr.contains(message), "expected `{message}`: {}", r.stderr);
    }
}

#[test]
fn the_sandbox_refuses_a_pddl_file_but_not_pddl_text() {
    let p = scratch_file("lights-1.pddl", LIGHTS_PROBLEM);
    let dir = p.parent().unwrap_or(Path::new("."));
    std::fs::write(dir.join("lights.pddl"), LIGHTS).expect("domain");
    let src = "var P = Problem.pddl(\"lights.pddl\", \"lights-1.pddl\")\nout 1\n";
    let script = dir.join("files.ds");
    std::fs::write(&script, src).expect("script");
    let out = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["--sandbox", script.to_str().unwrap()])
        .current_dir(dir)
        .output()
        .expect("run ds");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("under --sandbox"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = format!(
        "var P = Problem.pddl(\"{}\", \"{}\")\nout Search.bfs(P) != Undef\n",
        LIGHTS.replace('\n', " "),
        LIGHTS_PROBLEM.replace('\n', " ")
    );
    let r = ds_file("text.ds", &text, &["--sandbox"]);
    assert_eq!(r.stdout, "True\n", "{}", r.stderr);
}

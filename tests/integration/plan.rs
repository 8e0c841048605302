//! `ds plan` (decision 26): plans checked by an independent validator, optimal costs compared
//! with an independent oracle (tests/oracle/pddl/oracle.py, a uniform-cost search over sets of
//! atoms that shares nothing with the Rust planner), on instances made by the project's
//! generators (tests/oracle/pddl/gen.py); and each bad input reported at its file:line:col.

use crate::common::{ds, scratch_file};
use std::path::{Path, PathBuf};
use std::process::Command;

pub(crate) fn oracle_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/pddl")
}

pub(crate) fn python(args: &[&str]) -> String {
    let out = Command::new("python3").arg("-S").args(args).output().expect("python3 runs");
    assert!(out.status.success(), "python3 {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// A generated instance: the folder with domain.pddl and problem.pddl.
pub(crate) fn generate(domain: &str, size: u32, seed: u32) -> PathBuf {
    let dir = scratch_file("x", "").with_file_name(format!("{domain}-{size}-{seed}"));
    let gen = oracle_dir().join("gen.py");
    python(&[gen.to_str().unwrap(), domain, &size.to_string(), &seed.to_string(), dir.to_str().unwrap()]);
    dir
}

pub(crate) fn files(dir: &Path) -> (String, String) {
    (dir.join("domain.pddl").display().to_string(), dir.join("problem.pddl").display().to_string())
}

/// The oracle's optimal cost ("unsolvable" when there is no plan).
fn optimal(dir: &Path) -> String {
    let (d, p) = files(dir);
    python(&[oracle_dir().join("oracle.py").to_str().unwrap(), "cost", &d, &p])
}

/// `ds plan` with a search and heuristic: the plan's cost, checked by the validator.
fn solve(dir: &Path, search: &str, h: &str) -> String {
    let (d, p) = files(dir);
    let r = ds(&["plan", &d, &p, "--search", search, "--h", h]);
    assert_eq!(r.code, Some(0), "{search}/{h} on {}: {}{}", dir.display(), r.stdout, r.stderr);
    for stat in ["expanded:", "expanded_until_last_jump:", "generated:", "states:", "ms:"] {
        assert!(r.stderr.contains(stat), "no `{stat}` in the statistics: {}", r.stderr);
    }
    let plan = dir.join(format!("plan-{search}-{h}"));
    std::fs::write(&plan, &r.stdout).expect("write the plan");
    let cost = python(&[oracle_dir().join("oracle.py").to_str().unwrap(), "validate", &d, &p, plan.to_str().unwrap()]);
    let last = r.stdout.lines().last().unwrap_or_default().to_string();
    assert!(last.starts_with(&format!("; cost = {cost} (")), "{last}");
    cost
}

const INSTANCES: [(&str, u32, u32); 8] = [
    ("gripper", 3, 1),
    ("blocks", 4, 2),
    ("blocks", 5, 3),
    ("miconic", 3, 4),
    ("logistics", 2, 5),
    ("visit", 6, 6),
    ("roads", 5, 7),
    ("roads", 6, 8),
];

#[test]
fn optimal_searches_find_the_oracles_cost() {
    for (domain, size, seed) in INSTANCES {
        let dir = generate(domain, size, seed);
        let want = optimal(&dir);
        for (search, h) in
            [("astar", "blind"), ("astar", "lmcut"), ("astar", "hmax"), ("ucs", "blind"), ("idastar", "lmcut")]
        {
            assert_eq!(solve(&dir, search, h), want, "{search}/{h} on {domain}-{size}-{seed}");
        }
    }
}

#[test]
fn every_search_and_heuristic_gives_a_valid_plan() {
    for (domain, size, seed) in INSTANCES {
        let dir = generate(domain, size, seed);
        for search in ["astar", "bfs", "greedy", "wastar"] {
            for h in ["goalcount", "hadd", "hff"] {
                solve(&dir, search, h);
            }
        }
    }
}

#[test]
fn breadth_first_finds_the_shortest_plan_of_a_unit_cost_task() {
    let dir = generate("blocks", 4, 9);
    assert_eq!(solve(&dir, "bfs", "blind"), optimal(&dir));
    let plan = ds(&["plan", &files(&dir).0, &files(&dir).1, "--search", "bfs"]);
    assert!(plan.stdout.ends_with("(unit cost)\n"), "{}", plan.stdout);
}

pub(crate) const LIGHTS: &str = "(define (domain lights)
  (:requirements :strips :typing :negative-preconditions)
  (:types lamp room)
  (:predicates (on ?l - lamp) (in ?l - lamp ?r - room))
  (:action switch :parameters (?l - lamp ?r - room)
    :precondition (and (in ?l ?r) (not (on ?l)))
    :effect (on ?l)))
";

pub(crate) const LIGHTS_PROBLEM: &str = "(define (problem p1) (:domain lights)
  (:objects a b - lamp hall - room)
  (:init (in a hall) (in b hall))
  (:goal (and (on a) (on b))))
";

#[test]
fn a_small_domain_is_solved_and_an_unreachable_goal_is_unsolvable() {
    let d = scratch_file("lights.pddl", LIGHTS);
    let p = scratch_file("p1.pddl", LIGHTS_PROBLEM);
    let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap()]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(0), "(switch a hall)\n(switch b hall)\n; cost = 2 (unit cost)\n"));
    // b is in no room: no action switches it on.
    let p = scratch_file("p2.pddl", &LIGHTS_PROBLEM.replace(" (in b hall)", ""));
    let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap()]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(3), "; unsolvable\n"));
}

#[test]
fn a_state_space_searched_to_the_end_is_unsolvable() {
    // Switching a lamp takes it out of its room, and the goal wants `a` on and still in the
    // hall: both atoms are reachable when deletes are ignored, so only the search proves it.
    let domain = LIGHTS.replace(":effect (on ?l)", ":effect (and (on ?l) (not (in ?l ?r)))");
    let d = scratch_file("lights.pddl", &domain);
    let p = scratch_file(
        "p.pddl",
        &LIGHTS_PROBLEM.replace("(:goal (and (on a) (on b)))", "(:goal (and (on a) (in a hall)))"),
    );
    let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap(), "--h", "lmcut"]);
    assert_eq!((r.code, r.stdout.as_str()), (Some(3), "; unsolvable\n"), "{}", r.stderr);
    assert!(r.stderr.contains("expanded: "), "{}", r.stderr);
}

#[test]
fn limits_stop_the_search_with_exit_4() {
    let dir = generate("miconic", 9, 1);
    let (d, p) = files(&dir);
    let r = ds(&["plan", &d, &p, "--timeout", "0.05"]);
    assert_eq!(r.code, Some(4), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("stopped: timeout"), "{}", r.stderr);
    let r = ds(&["plan", &d, &p, "--max-memory", "24M"]);
    assert_eq!(r.code, Some(4), "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("stopped: max_memory"), "{}", r.stderr);
}

#[test]
fn bad_command_lines_exit_2() {
    let d = scratch_file("lights.pddl", LIGHTS);
    let p = scratch_file("p1.pddl", LIGHTS_PROBLEM);
    for extra in [&["--search", "dfs"][..], &["--h", "pdb"], &[]] {
        let mut args = vec!["plan", d.to_str().unwrap()];
        if !extra.is_empty() {
            args.push(p.to_str().unwrap());
        }
        args.extend_from_slice(extra);
        assert_eq!(ds(&args).code, Some(2), "{args:?}");
    }
    assert_eq!(ds(&["plan", d.to_str().unwrap(), "no-such-file.pddl"]).code, Some(2));
}

/// (which file is changed, what is replaced, by what, the text whose `nth` occurrence the error
/// points at, a part of the message).
pub(crate) const BAD: [(&str, &str, &str, &str, usize, &str); 14] = [
    ("domain", ":negative-preconditions", ":fluents", ":fluents", 0, "unsupported requirement `:fluents`"),
    ("domain", ":parameters", ":params", ":params", 0, "expected `:parameters`"),
    ("domain", ":effect (on ?l)))", ":effect (on ?l))", END, 0, "unexpected end of file; expected"),
    ("domain", ":effect (on ?l)", ":effect (lit ?l)", "lit", 0, "undefined predicate `lit`"),
    ("domain", "(not (on ?l))", "(not (on ?x))", "?x", 0, "undefined variable `?x`"),
    ("domain", "(in ?l ?r) (not", "(in ?l) (not", "(in ?l)", 0, "`in` takes 2 arguments, given 1"),
    ("domain", "(in ?l - lamp ?r - room))", "(on ?r - room))", "on ?r", 0, "duplicate predicate `on`"),
    ("domain", "(:types lamp room)", "(:types lamp room - place place - room)", "room", 0, "cycle of types"),
    (
        "domain",
        "(in ?l ?r) (not",
        "(in ?r ?l) (not",
        "?r ?l",
        0,
        "`?r` is of type `room`, but argument 1 of `in` is of type `lamp`",
    ),
    ("problem", "a b - lamp", "a b - lmp", "lmp", 0, "undefined type `lmp`"),
    ("problem", "(on b)", "(on zz)", "zz", 0, "undefined object or constant `zz`"),
    ("problem", "a b - lamp", "a b a - lamp", "a - lamp", 0, "duplicate object `a`"),
    (
        "problem",
        "(:domain lights)",
        "(:domain lamps)",
        "lamps",
        0,
        "this problem is for domain `lamps`, but the domain file defines `lights`",
    ),
    (
        "problem",
        "(in b hall)",
        "(in hall b)",
        "hall b",
        0,
        "`hall` is of type `room`, but argument 1 of `in` is of type `lamp`",
    ),
];

/// The marker of the end of the text (after its last character).
pub(crate) const END: &str = "<end>";

/// "line:col" (from 1) of the `nth` occurrence of `marker` in `text`.
pub(crate) fn line_col(text: &str, marker: &str, nth: usize) -> String {
    let at = match marker {
        END => text.trim_end().len(),
        _ => text.match_indices(marker).nth(nth).unwrap_or_else(|| panic!("`{marker}` in the text")).0,
    };
    let line = text[..at].matches('\n').count() + 1;
    let col = at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1;
    format!("{line}:{col}")
}

#[test]
fn each_bad_input_is_an_error_at_its_place() {
    for (which, from, to, marker, nth, message) in BAD {
        assert!(LIGHTS.contains(from) || LIGHTS_PROBLEM.contains(from), "{from}");
        let (domain, problem) = match which {
            "domain" => (LIGHTS.replace(from, to), LIGHTS_PROBLEM.to_string()),
            _ => (LIGHTS.to_string(), LIGHTS_PROBLEM.replace(from, to)),
        };
        let d = scratch_file("lights.pddl", &domain);
        let p = scratch_file("p1.pddl", &problem);
        let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap()]);
        let text = if which == "domain" { &domain } else { &problem };
        let at =
            format!("{}:{}", if which == "domain" { "lights.pddl" } else { "p1.pddl" }, line_col(text, marker, nth));
        assert_eq!(r.code, Some(1), "{to}: {}", r.stderr);
        assert!(r.stderr.contains(&at), "{to}: expected the error at {at}: {}", r.stderr);
        assert!(r.stderr.contains(message), "{to}: expected `{message}`: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{}", r.stdout);
    }
}

#[test]
fn parentheses_nested_too_deep_are_an_error_not_a_crash() {
    let deep = format!("{}(on ?l){}", "(and ".repeat(100_000), ")".repeat(100_000));
    let domain = LIGHTS.replace("(and (in ?l ?r) (not (on ?l)))", &deep);
    let d = scratch_file("lights.pddl", &domain);
    let p = scratch_file("p1.pddl", LIGHTS_PROBLEM);
    let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap()]);
    // `(define` and `(:action` hold depth 2: the 255th `(and` of the precondition is at 257.
    let col = domain.lines().nth(5).unwrap().find(":precondition").unwrap() + ":precondition ".len() + 254 * 5 + 1;
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains(&format!("lights.pddl:6:{col}")), "{}", r.stderr);
    assert!(r.stderr.contains("nested more than 256 deep"), "{}", r.stderr);
}

#[test]
fn names_are_case_insensitive() {
    let d = scratch_file("lights.pddl", &LIGHTS.to_uppercase().replace("?L", "?l"));
    let p = scratch_file("p1.pddl", &LIGHTS_PROBLEM.replace("(on a)", "(ON A)"));
    let r = ds(&["plan", d.to_str().unwrap(), p.to_str().unwrap()]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (Some(0), "(switch a hall)\n(switch b hall)\n; cost = 2 (unit cost)\n"),
        "{}",
        r.stderr
    );
}

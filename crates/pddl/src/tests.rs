//! The grounding's finite-domain variables and the heuristics' values on tasks small enough to
//! reason about by hand.

use crate::plan::{load, Source};
use crate::task::Task;
use ds_base::diagnostics::SourceMap;

const GRIPPER: &str = "(define (domain gripper-strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g) (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room) (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
  (:action drop :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper) (at-robby ?room))
    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))";

const TWO_BALLS: &str = "(define (problem g2) (:domain gripper-strips)
  (:objects rooma roomb left right b1 b2)
  (:init (room rooma) (room roomb) (gripper left) (gripper right) (ball b1) (ball b2)
         (at-robby rooma) (free left) (free right) (at b1 rooma) (at b2 rooma))
  (:goal (and (at b1 roomb) (at b2 roomb))))";

fn task(domain: &str, problem: &str) -> Task {
    let mut sources = SourceMap::default();
    let d = Source { name: "d.pddl", text: domain };
    let p = Source { name: "p.pddl", text: problem };
    load(&mut sources, d, p, &|| false).unwrap_or_else(|e| panic!("{:?}", e.map(|d| sources.render(&d, false))))
}

#[test]
fn gripper_grounds_to_room_variables_and_binary_atoms() {
    let t = task(GRIPPER, TWO_BALLS);
    let domains = |name: &str| t.vars.iter().find(|v| v.name == name).map(|v| v.values.clone());
    // The robot is in exactly one room: one variable, no `none`.
    assert_eq!(domains("at-robby"), Some(vec!["(at-robby rooma)".into(), "(at-robby roomb)".into()]));
    // A ball is in a room or in a gripper (pick deletes its `at` and adds a `carry`, drop the
    // reverse): one variable per ball over both predicates, never empty.
    let mut ball: Vec<String> = domains("at b1").expect("a variable for b1");
    ball.sort();
    assert_eq!(ball, ["(at b1 rooma)", "(at b1 roomb)", "(carry b1 left)", "(carry b1 right)"]);
    // free left, free right: binary; room/ball/gripper are static and dropped.
    assert_eq!(t.vars.len(), 1 + 2 + 2);
    assert!(t.vars.iter().all(|v| !v.name.contains("(room ") && !v.name.starts_with("(ball ")));
    // move: 2 (move rooma rooma changes nothing and is dropped), pick and drop: 2 balls x 2
    // rooms x 2 grippers each.
    assert_eq!(t.ops.len(), 2 + 8 + 8);
    assert!(t.unit_cost && !t.goal_unreachable);
    // Each value names its atom by the model's indices: `at` is predicate 4, b1 object 4.
    let b1 = t.vars.iter().find(|v| v.name == "at b1").expect("b1");
    let at = b1.values.iter().position(|v| v == "(at b1 rooma)").expect("a value");
    assert_eq!(b1.atoms[at], Some((4, vec![4, 0])));
}

#[test]
fn heuristics_of_the_initial_state() {
    let t = task(GRIPPER, TWO_BALLS);
    let h = |name: &str| crate::heuristics::by_name(name, &t).expect("a heuristic").h(&t.init);
    // Two goal atoms false; relaxed: pick both (2, in parallel a layer), move (1), drop (1):
    // hmax is the longest chain pick -> drop with move before drop: 2; hadd sums the two goals'
    // chains (pick + move + drop = 3 each); hff's relaxed plan: 2 picks, 1 move, 2 drops.
    assert_eq!(h("blind"), Some(1));
    assert_eq!(h("goalcount"), Some(2));
    assert_eq!(h("hmax"), Some(2));
    assert_eq!(h("hadd"), Some(6));
    assert_eq!(h("hff"), Some(5));
    // LM-cut: each ball needs a pick and a drop, and the robot a move: 5 disjoint landmarks.
    assert_eq!(h("lmcut"), Some(5));
}

/// A generated instance (tests/oracle/pddl/gen.py), grounded.
fn generated(domain: &str, size: u32, seed: u32) -> Task {
    let gen = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/oracle/pddl/gen.py");
    let dir = std::env::temp_dir().join(format!("ds-pddl-{}-{domain}-{size}-{seed}", std::process::id()));
    let out = std::process::Command::new("python3")
        .args(["-S", gen, domain, &size.to_string(), &seed.to_string()])
        .arg(&dir)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "gen.py {domain}: {}", String::from_utf8_lossy(&out.stderr));
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("a generated file");
    let (d, p) = (read("domain.pddl"), read("problem.pddl"));
    task(&d, &p)
}

/// Up to `limit` states reachable from the initial state, in breadth-first order.
fn reachable(t: &Task, limit: usize) -> Vec<Vec<u32>> {
    let mut seen = std::collections::HashSet::from([t.init.clone()]);
    let mut states = vec![t.init.clone()];
    let mut next = 0;
    while next < states.len() && states.len() < limit {
        let state = states[next].clone();
        next += 1;
        for op in t.ops.iter().filter(|op| t.applicable(op, &state)) {
            let mut s = state.clone();
            for &(v, x) in &op.eff {
                s[v as usize] = x;
            }
            if seen.insert(s.clone()) {
                states.push(s);
            }
        }
    }
    states
}

/// The generated instances the LM-cut comparison walks: each competition domain, negative
/// preconditions, and action costs from 1 to 9 (where cuts are cheapest at different costs).
const LMCUT_INSTANCES: [(&str, u32, u32); 9] = [
    ("gripper", 5, 1),
    ("blocks", 6, 2),
    ("blocks", 7, 3),
    ("miconic", 5, 4),
    ("logistics", 3, 5),
    ("visit", 8, 6),
    ("roads", 6, 7),
    ("roads", 8, 8),
    ("roads", 10, 9),
];

#[test]
fn incremental_lmcut_equals_lmcut_computed_from_the_start() {
    use crate::heuristics::Heuristic;
    use crate::lmcut::LmCut;
    for (domain, size, seed) in LMCUT_INSTANCES {
        let t = generated(domain, size, seed);
        let (mut incremental, mut whole) = (LmCut::new(&t), LmCut::from_scratch(&t));
        let states = reachable(&t, 3000);
        assert!(states.len() > 100, "{domain}-{size}: {} states", states.len());
        let mut positive = 0;
        for s in &states {
            let (a, b) = (incremental.h(s), whole.h(s));
            assert_eq!(a, b, "{domain}-{size}-{seed}, state {:?}", t.atoms(s));
            positive += usize::from(a.is_some_and(|h| h > 0));
        }
        // (most states are far from the goal: the comparison is not of zeros)
        assert!(positive * 2 > states.len(), "{domain}-{size}: {positive} of {} states", states.len());
    }
}

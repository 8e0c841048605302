//! The views of the PDDL scripts (scripts/blocks.ds, scripts/gripper.ds) in the explorer, with
//! `Problem.pddl`'s map given to it through the scripts' demons: each picture read back from
//! where its texts stand, against the state worked out by hand from the PDDL files.

use crate::explore::{actions_and_ids, explore};
use crate::explore_views::{svg_of, texts};

#[test]
fn the_blocks_view_draws_each_stack_on_the_table() {
    let ex = explore(&[
        "scripts/blocks.ds",
        "--start",
        "P['start']",
        "--next",
        "next",
        "--goal",
        "goal",
        "--h",
        "h",
        "--view",
        "view",
    ]);
    // scripts/pddl/blocks_view.ds: 36-pixel blocks, 12 apart, a stack's letters at x = 26 +
    // 48 per stack, and (three blocks high at most) y = 155 - 36 per level.
    let stacks = |svg: &str| -> Vec<(String, i64, i64)> {
        let mut v: Vec<(String, i64, i64)> = texts(svg)
            .into_iter()
            .map(|(x, y, t)| (t, ((x - 26.0) / 48.0).round() as i64, ((155.0 - y) / 36.0).round() as i64))
            .collect();
        v.sort();
        v
    };
    let start = ex.json("/api/state/0");
    // scripts/pddl/blocks-5.pddl: c on a, a on the table; e on d on b, b on the table.
    let want = [("a", 0, 0), ("b", 1, 0), ("c", 0, 1), ("d", 1, 1), ("e", 1, 2)];
    assert_eq!(stacks(&svg_of(&start)), want.map(|(t, s, l)| (t.to_string(), s, l)));
    // Two actions can start: unstack c from a, or e from d.
    let mut actions: Vec<String> = actions_and_ids(&start).into_iter().map(|a| a.0).collect();
    actions.sort();
    assert_eq!(actions, ["(unstack c a)", "(unstack e d)"]);
}

#[test]
fn the_gripper_view_draws_the_rooms_and_the_robot() {
    let ex =
        explore(&["scripts/gripper.ds", "--start", "P['start']", "--next", "next", "--goal", "goal", "--view", "view"]);
    // scripts/pddl/gripper_view.ds: rooms 200 pixels wide, 10 apart; the balls numbered.
    let room = |x: f64| if x < 200.0 { "rooma" } else { "roomb" };
    let start = ex.json("/api/state/0");
    let t = texts(&svg_of(&start));
    let mut places: Vec<(String, &str)> = t.iter().map(|(x, _, s)| (s.clone(), room(*x))).collect();
    places.sort();
    let want = [("1", "rooma"), ("2", "rooma"), ("3", "rooma"), ("4", "rooma"), ("left", "rooma"), ("right", "rooma")];
    let mut want: Vec<(String, &str)> = want.iter().map(|(a, b)| (a.to_string(), *b)).collect();
    want.extend([("robot".to_string(), "rooma"), ("rooma".to_string(), "rooma"), ("roomb".to_string(), "roomb")]);
    want.sort();
    assert_eq!(places, want);
    // Moving the robot empty-handed to room B: the robot and its grippers are drawn there.
    let go = actions_and_ids(&start).into_iter().find(|(a, _)| a == "(move rooma roomb)").expect("a move").1;
    let moved = texts(&svg_of(&ex.json(&format!("/api/state/{go}"))));
    let robot = moved.iter().find(|(_, _, s)| s == "robot").expect("the robot");
    assert_eq!(room(robot.0), "roomb");
}

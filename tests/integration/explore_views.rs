//! State views: `ds explore ... --view NAME` (docs/explorer.md), `--start` as an expression, and
//! the views of the problem scripts (docs/problems.md), each checked by what it draws: the
//! texts of the picture at their places, worked out from the script's layout by hand.

use crate::explore::{actions_and_ids, explore, refused, script};
use serde_json::Value;
use std::process::Command;

/// The texts of an SVG picture with their places: (x, y, text) in the order drawn.
pub(crate) fn texts(svg: &str) -> Vec<(f64, f64, String)> {
    let mut out = Vec::new();
    for piece in svg.split("<text ").skip(1) {
        let attr = |name: &str| -> f64 {
            let from = piece.find(&format!("{name}=\"")).expect("an attribute") + name.len() + 2;
            piece[from..].split('"').next().unwrap().parse().expect("a number")
        };
        let text = piece.split_once('>').unwrap().1.split("</text>").next().unwrap();
        out.push((attr("x"), attr("y"), text.to_string()));
    }
    out
}

/// A board drawn in square cells of `cell` pixels, `width` to a row, read back from where its
/// texts stand: each cell's text ("" for a cell without one).
fn board(svg: &str, cell: f64, width: usize, cells: usize) -> Vec<String> {
    let mut b = vec![String::new(); cells];
    for (x, y, t) in texts(svg) {
        b[width * (y / cell) as usize + (x / cell) as usize] = t;
    }
    b
}

/// The SVG of a state's view, as the explorer gives it.
pub(crate) fn svg_of(state: &Value) -> String {
    state["view"]["svg"].as_str().unwrap_or_else(|| panic!("an SVG view: {}", state["view"])).to_string()
}

fn digits(b: &[String]) -> String {
    b.iter().map(|t| if t.is_empty() { "0" } else { t }).collect()
}

#[test]
fn the_eight_puzzle_explored_with_its_view_shows_each_board() {
    let ex =
        explore(&["scripts/eight.ds", "--start", "Start", "--next", "moves", "--goal", "is_goal", "--view", "view"]);
    // scripts/eight/board.ds draws 40-pixel cells: 283164705 is 2 8 3 / 1 6 4 / 7 _ 5
    let start = ex.json("/api/state/0");
    assert_eq!(digits(&board(&svg_of(&start), 40.0, 3, 9)), "283164705");
    assert!(svg_of(&start).starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"120\""));
    // the blank moves up: 2 8 3 / 1 _ 4 / 7 6 5
    assert_eq!(actions_and_ids(&start)[0], ("up".to_string(), 1));
    assert_eq!(digits(&board(&svg_of(&ex.json("/api/state/1")), 40.0, 3, 9)), "283104765");
    assert_eq!(ex.json("/api/stats")["view"], "view");
}

#[test]
fn an_error_in_the_view_is_the_states_view_not_the_end_of_the_server() {
    let file = script(
        "views.ds",
        "var S = 1\ndef next(n) : return n < 3 ? [n + 1] : []\ndef goal(n) : return n == 3\n\
         def view(n)\n{\n   if n == 2 : return 1 / \"x\"\n   return n == 3 ? 7 : \"*\".repeat(n)\n}\n",
    );
    let ex = explore(&[&file, "--start", "S", "--next", "next", "--goal", "goal", "--view", "view"]);
    assert_eq!(ex.json("/api/state/0")["view"], serde_json::json!({"text": "*"}));
    let two = ex.json("/api/state/1");
    let error = two["view"]["error"].as_str().expect("the view's error");
    assert!(error.contains("views.ds:6"), "the error shows where: {error}");
    assert_eq!((&two["error"], &two["successors"][0]["id"]), (&Value::Null, &Value::from(2)));
    let three = ex.json("/api/state/2")["view"]["error"].as_str().expect("an error").to_string();
    assert!(
        three.contains("the view must return a picture (SVG), a string or a graph, not a number (state 2)"),
        "{three}"
    );
}

#[test]
fn a_view_that_is_not_a_demon_of_one_state_stops_before_serving() {
    let file = script("view_names.ds", "var S = 1\ndef next(n) : return []\ndef two(a, b) : return \"\"\n");
    let err = refused(&[&file, "--start", "S", "--next", "next", "--goal", "S", "--view", "S"]);
    assert!(err.contains("--view `S` is a global variable, not a demon"), "{err}");
    let err = refused(&[&file, "--start", "S", "--next", "next", "--goal", "S", "--view", "two"]);
    assert!(err.contains("--view `two` must be a demon of one argument (a state); it takes 2"), "{err}");
    let err = refused(&[&file, "--start", "S", "--next", "next", "--goal", "S", "--view", "veiw"]);
    assert!(err.contains("--view `veiw`: the script has no demon of that name"), "{err}");
}

#[test]
fn start_may_be_an_expression() {
    let file = script("start_expr.ds", "var S = 1\ndef next(n) : return n < 5 ? [n + 1] : []\n");
    let ex = explore(&[&file, "--start", "[S, 2].size() + 1", "--next", "next", "--goal", "S"]);
    let start = ex.json("/api/state/0");
    assert_eq!((&start["value"], &start["successors"][0]["name"]), (&Value::from(3), &Value::from("4")));
    let err = refused(&[&file, "--start", "S +", "--next", "next", "--goal", "S"]);
    assert!(err.contains("--start `S +`: `eval` cannot parse"), "{err}");
    let err = refused(&[&file, "--start", "1 / \"x\"", "--next", "next", "--goal", "S"]);
    assert!(err.contains("--start `1 / \"x\"`:"), "{err}");
}

#[test]
fn fifteen_draws_its_tiles_in_place() {
    let ex = explore(&[
        "scripts/fifteen.ds",
        "astar",
        "--start",
        "Start",
        "--next",
        "moves",
        "--goal",
        "Goal",
        "--view",
        "view",
    ]);
    // the start 0,1,...,15: the blank in the corner, tile N in cell N; 40-pixel cells, 4 a row
    let b = board(&svg_of(&ex.json("/api/state/0")), 40.0, 4, 16);
    let want: Vec<String> = (0..16).map(|n| if n == 0 { String::new() } else { n.to_string() }).collect();
    assert_eq!(b, want);
}

#[test]
fn the_wolf_view_puts_everyone_on_their_bank() {
    let ex = explore(&[
        "scripts/wolf_search.ds",
        "--start",
        "Start",
        "--next",
        "all_actions",
        "--goal",
        "target_state",
        "--view",
        "view",
    ]);
    // scripts/wolf/view.ds: banks 130 pixels wide with 50 of water between; one row each
    let bank = |x: f64| if x < 130.0 { "$1" } else { "$2" };
    let on = |state: &Value| -> Vec<(String, String)> {
        texts(&svg_of(state)).into_iter().skip(2).map(|(x, _, t)| (t, bank(x).to_string())).collect()
    };
    let start = ex.json("/api/state/0");
    let heads: Vec<String> = texts(&svg_of(&start)).into_iter().take(2).map(|t| t.2).collect();
    assert_eq!(heads, vec!["bank $1", "bank $2"]);
    let all_left = [("farmer", "$1"), ("wolf", "$1"), ("goat", "$1"), ("cabbage", "$1")];
    assert_eq!(on(&start), all_left.map(|(a, b)| (a.to_string(), b.to_string())));
    // f.t.g then f.m.$2: the farmer crosses with the goat in hand
    let take = actions_and_ids(&start).into_iter().find(|(a, _)| a == "f.t.g").expect("f.t.g").1;
    let taken = ex.json(&format!("/api/state/{take}"));
    let cross = actions_and_ids(&taken).into_iter().find(|(a, _)| a == "f.m.$2").expect("f.m.$2").1;
    let crossed = ex.json(&format!("/api/state/{cross}"));
    let want = [("farmer", "$2"), ("wolf", "$1"), ("goat (carried)", "$2"), ("cabbage", "$1")];
    assert_eq!(on(&crossed), want.map(|(a, b)| (a.to_string(), b.to_string())));
}

#[test]
fn hanoi_from_a_start_expression_draws_its_pegs() {
    let ex = explore(&[
        "scripts/hanoi.ds",
        "--start",
        "make_world(2)",
        "--next",
        "successors",
        "--goal",
        "goal",
        "--view",
        "view",
    ]);
    // two discs on A: d1 on d2; the small disc can go to B or C, the large one cannot move
    let start = ex.json("/api/state/0");
    let moves: Vec<String> = actions_and_ids(&start).into_iter().map(|(a, _)| a).collect();
    assert_eq!(moves, vec!["disc d1 from A to B", "disc d1 from A to C"]);
    // pegs 40 + 16 * 2 = 72 pixels apart, discs 16 high on a base at 10 + 16 * 3 = 58
    let discs: Vec<(String, usize, f64)> = texts(&svg_of(&start))
        .into_iter()
        .filter(|t| t.2.starts_with('d'))
        .map(|(x, y, t)| (t, (x / 72.0) as usize, ((58.0 - y) / 16.0).ceil()))
        .collect();
    assert_eq!(discs, vec![("d1".to_string(), 0, 2.0), ("d2".to_string(), 0, 1.0)], "d2 at the bottom of A, d1 on it");
}

#[test]
fn jugs_show_amount_and_capacity() {
    let ex = explore(&["scripts/jugs.ds", "--start", "Start", "--next", "moves", "--goal", "Goal", "--view", "view"]);
    let start = ex.json("/api/state/0");
    let labels: Vec<String> = texts(&svg_of(&start)).into_iter().map(|t| t.2).collect();
    assert_eq!(labels, vec!["8/8", "0/5", "0/3"]);
    // the first move pours the 8 into the 5: 3, 5, 0
    let first = ex.json(&format!("/api/state/{}", actions_and_ids(&start)[0].1));
    let labels: Vec<String> = texts(&svg_of(&first)).into_iter().map(|t| t.2).collect();
    assert_eq!(labels, vec!["3/8", "5/5", "0/3"]);
}

#[test]
fn krk_draws_the_pieces_on_their_squares() {
    let file = std::fs::canonicalize("scripts/krk.ds").unwrap().to_string_lossy().into_owned();
    let src = format!("#include \"{file}\"\nout \"<view>\"\nout view(Start)\n");
    let run = Command::new(env!("CARGO_BIN_EXE_ds")).args(["-e", &src]).output().expect("run ds");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let svg = out.split_once("<view>\n").unwrap_or_else(|| panic!("no view: {out}")).1;
    // 30-pixel squares, rank 8 at the top: the default start Ke1 Ra1 / ke8
    let b = board(svg, 30.0, 8, 64);
    let at = |file: usize, rank: usize| b[8 * (8 - rank) + file].clone();
    assert_eq!((at(4, 1), at(0, 1), at(4, 8)), ("K".to_string(), "R".to_string(), "k".to_string()));
    assert_eq!(b.iter().filter(|t| !t.is_empty()).count(), 3);
}

/// The explore command of docs/explorer.md ("King and rook against king") on `squares`.
fn explore_krk(squares: &[&str]) -> crate::explore::Explorer {
    let mut args = vec!["scripts/krk.ds"];
    args.extend_from_slice(squares);
    args.extend(["--start", "position(Start, 0)", "--next", "krk_moves", "--goal", "mate", "--view", "krk_view"]);
    explore(&args)
}

#[test]
fn krk_positions_are_explored_move_by_move_for_the_side_to_move() {
    let ex = explore_krk(&[]);
    let start = ex.json("/api/state/0");
    assert_eq!(start["value"], serde_json::json!([0, 4, 0, 60, 0]), "White to move: Ke1 Ra1 / ke8");
    // Worked by hand: the king on e1 steps to d1, f1, d2, e2, f2 (5; none next to e8); the rook
    // on a1 goes up the a-file to a2 ... a8 (7) and along the first rank to b1, c1, d1 (3: the
    // king on e1 stops it).
    let moves = actions_and_ids(&start);
    assert_eq!(moves.len(), 15, "{moves:?}");
    let ids: std::collections::HashMap<String, u64> = moves.into_iter().collect();
    let replies = |action: &str| -> Vec<String> {
        let state = ex.json(&format!("/api/state/{}", ids[action]));
        assert_eq!(state["value"][0], 1, "Black to move after {action}");
        let mut names: Vec<String> = actions_and_ids(&state).into_iter().map(|m| m.0).collect();
        names.sort();
        names
    };
    // Black's king on e8 has d8, f8, d7, e7, f7. After Ra1-a7 the rook holds the seventh rank:
    // d8 and f8 are left. After Ra1-a8+ it holds the eighth (the king does not shield f8):
    // d7, e7, f7. After Ra1-d1 it holds the d-file: f8, e7, f7. After Ke1-e2 all five.
    assert_eq!(replies("Ra1-a7"), ["ke8-d8", "ke8-f8"]);
    assert_eq!(replies("Ra1-a8+"), ["ke8-d7", "ke8-e7", "ke8-f7"]);
    assert_eq!(replies("Ra1-d1").len(), 3);
    assert_eq!(replies("Ke1-e2").len(), 5);
    // the view draws the position: the start's board with its three pieces, and under the
    // board (240 pixels high) whose move it is
    let (b, caption) = krk_board_and_caption(&svg_of(&start));
    assert_eq!((b[56 + 4].as_str(), b[56].as_str(), b[4].as_str()), ("K", "R", "k"), "rank 1 at the bottom");
    assert_eq!(caption, ["White to move"]);
    let (b, caption) = krk_board_and_caption(&svg_of(&ex.json(&format!("/api/state/{}", ids["Ra1-a7"]))));
    assert_eq!((b[56 + 4].as_str(), b[8].as_str(), b[4].as_str()), ("K", "R", "k"), "the rook on a7");
    assert_eq!(caption, ["Black to move"]);
}

/// A krk view's board (30-pixel squares, rank 8 at the top) and the texts under it.
fn krk_board_and_caption(svg: &str) -> (Vec<String>, Vec<String>) {
    let (mut b, mut under) = (vec![String::new(); 64], Vec::new());
    for (x, y, t) in texts(svg) {
        match y > 240.0 {
            true => under.push(t),
            false => b[8 * (y / 30.0) as usize + (x / 30.0) as usize] = t,
        }
    }
    (b, under)
}

#[test]
fn krk_marks_the_one_mate_in_one() {
    // Kg6 Ra1 / kh8, White to move: the king has f7, f5, h5, f6, h6, g5 (g7 and h7 touch h8), the
    // rook a2 ... a8 and b1 ... h1: 20 moves. Only Ra1-a8 mates (g8 by the rook, g7 and h7 by
    // the king); Ra1-h1 checks, but g8 is free.
    let ex = explore_krk(&["g6", "a1", "h8"]);
    let start = ex.json("/api/state/0");
    let successors = start["successors"].as_array().expect("successors").clone();
    assert_eq!(successors.len(), 20);
    let goals: Vec<&str> =
        successors.iter().filter(|s| s["goal"] == true).map(|s| s["action"].as_str().unwrap()).collect();
    assert_eq!(goals, ["Ra1-a8#"]);
}

/// Who stands on which bank in a view of scripts/river/view.ds: banks 110 pixels wide with 50
/// of water between, the two headings first, then one row each.
fn on_banks(state: &Value) -> Vec<(String, &'static str)> {
    let texts = texts(&svg_of(state));
    let heads: Vec<&str> = texts.iter().take(2).map(|t| t.2.as_str()).collect();
    assert_eq!(heads, vec!["left bank", "right bank"]);
    texts.into_iter().skip(2).map(|(x, _, t)| (t, if x < 110.0 { "left" } else { "right" })).collect()
}

fn named(pairs: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    pairs.iter().map(|(a, b)| (a.to_string(), *b)).collect()
}

#[test]
fn the_missionaries_view_puts_everyone_and_the_boat_on_their_bank() {
    // Issue 55: missionaries.ds had no view.
    let ex = explore(&[
        "scripts/missionaries.ds",
        "--start",
        "make_world(3, 3)",
        "--next",
        "moves",
        "--goal",
        "goal",
        "--view",
        "view",
    ]);
    let start = ex.json("/api/state/0");
    let left = |n: &'static str| (n, "left");
    assert_eq!(
        on_banks(&start),
        named(&[left("boat"), left("m1"), left("m2"), left("m3"), left("c1"), left("c2"), left("c3")])
    );
    // From 3M 3C with a boat for 2: one cannibal, two cannibals, or one of each may cross (one
    // or two missionaries alone would leave them outnumbered on the left).
    let moves: Vec<String> = actions_and_ids(&start).into_iter().map(|(a, _)| a).collect();
    assert_eq!(
        moves,
        vec!["1 cannibal to the right", "2 cannibals to the right", "1 missionary and 1 cannibal to the right"]
    );
    let two = actions_and_ids(&start)[1].1;
    let crossed = ex.json(&format!("/api/state/{two}"));
    let want = [
        ("boat", "right"),
        ("m1", "left"),
        ("m2", "left"),
        ("m3", "left"),
        ("c1", "right"),
        ("c2", "right"),
        ("c3", "left"),
    ];
    let mut got = on_banks(&crossed);
    got.sort_by_key(|(n, _)| ["boat", "m1", "m2", "m3", "c1", "c2", "c3"].iter().position(|w| w == n));
    assert_eq!(got, named(&want));
}

#[test]
fn the_knights_view_puts_everyone_and_the_boat_on_their_bank() {
    // Issue 55: knights.ds had no view.
    let ex = explore(&[
        "scripts/knights.ds",
        "--start",
        "make_world(2)",
        "--next",
        "moves",
        "--goal",
        "goal",
        "--view",
        "view",
    ]);
    let start = ex.json("/api/state/0");
    let left = |n: &'static str| (n, "left");
    assert_eq!(on_banks(&start), named(&[left("boat"), left("k1"), left("k2"), left("s1"), left("s2")]));
    // k1 and s1 cross together: they are each other's company, and k2 stays with s2
    let (_, id) =
        actions_and_ids(&start).into_iter().find(|(a, _)| a == "k1 s1 to the right").expect("k1 s1 to the right");
    let mut got = on_banks(&ex.json(&format!("/api/state/{id}")));
    got.sort_by_key(|(n, _)| ["boat", "k1", "k2", "s1", "s2"].iter().position(|w| w == n));
    assert_eq!(got, named(&[("boat", "right"), ("k1", "right"), ("k2", "left"), ("s1", "right"), ("s2", "left")]));
}

#[test]
fn the_roads_view_draws_the_map_with_the_town_in_red() {
    // Issue 55: roads.ds had no view, nor demons of one state for ds explore.
    let ex = explore(&[
        "scripts/roads.ds",
        "--start",
        "From",
        "--next",
        "roads_from",
        "--goal",
        "at_target",
        "--view",
        "view",
    ]);
    let start = ex.json("/api/state/0");
    // scripts/data/romania.roads: Arad's roads in the file's order, with their lengths
    let moves: Vec<String> = actions_and_ids(&start).into_iter().map(|(a, _)| a).collect();
    assert_eq!(moves, vec!["to Zerind (75)", "to Sibiu (140)", "to Timisoara (118)"]);
    let svg = svg_of(&start);
    let names: Vec<(f64, String)> = texts(&svg).into_iter().map(|(x, _, t)| (x, t)).collect();
    assert_eq!(names.len(), 20, "the 20 towns of the map");
    // Arad is the westmost town (x 91): 20 pixels from the left edge, its name 8 further
    assert_eq!(names.iter().find(|(_, t)| t == "Arad").map(|p| p.0), Some(28.0));
    assert!(svg.contains("fill=\"red\">Arad</text>"), "the town of the state in red: {svg}");
    assert!(svg.contains("fill=\"black\">Sibiu</text>"), "the others in black");
    let sibiu = actions_and_ids(&start)[1].1;
    assert!(svg_of(&ex.json(&format!("/api/state/{sibiu}"))).contains("fill=\"red\">Sibiu</text>"));
}

#[test]
fn the_games_view_draws_the_chip_where_it_stands() {
    // Issue 55: games.ds had no view, nor demons of one state for ds explore.
    let ex =
        explore(&["scripts/games.ds", "--start", "Start", "--next", "moves_of", "--goal", "is_won", "--view", "view"]);
    let start = ex.json("/api/state/0");
    // variant 3: the chip at (5,2), moves (3,0), (0,3), (0,4)
    let moves: Vec<String> = actions_and_ids(&start).into_iter().map(|(a, _)| a).collect();
    assert_eq!(moves, vec!["by (3,0) to (8,2)", "by (0,3) to (5,5)", "by (0,4) to (5,6)"]);
    // 8-pixel units, (0,0) in the middle of a grid 2 * (13 + 4) units wide: (5,2) at 176, 120
    let svg = svg_of(&start);
    assert!(svg.contains("<circle cx=\"176\" cy=\"120\" r=\"5\""), "{svg}");
    assert!(svg.contains("<circle cx=\"136\" cy=\"136\" r=\"104\""), "the winning distance, 13 units: {svg}");
    assert_eq!(texts(&svg).into_iter().map(|t| t.2).collect::<Vec<_>>(), vec!["(5,2)"]);
}

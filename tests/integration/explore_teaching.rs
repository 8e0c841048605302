//! `ds explore` for teaching (issue 40): `--symmetry`, the events of `/api/search` with the
//! open list's order, and `/api/check`. Expectations are worked out by hand from the scripts.

use crate::explore::{explore, refused, script};
use serde_json::{json, Value};

/// Two counters of 0..2, each raised by one: 9 states, "ab" for a and b. `canon` puts the
/// digits in order, so that "10" and "01" are one state: 6 states ("00" "01" "02" "11" "12"
/// "22") and 8 transitions (00: 2, 01: 2, 02: 1, 11: 2, 12: 1, 22: 0).
const COUNTERS: &str = r#"var Start = "00"
global Up, Canon
Up = {"00": ["10", "01"], "01": ["11", "02"], "02": ["12"], "10": ["20", "11"], "11": ["21", "12"], "12": ["22"], "20": ["21"], "21": ["22"], "22": []}
Canon = {"00": "00", "01": "01", "02": "02", "10": "01", "11": "11", "12": "12", "20": "02", "21": "12", "22": "22"}
def next(s) : return Up[s]
def done(s) : return s == "22"
def canon(s) : return Canon[s]
def pair(s, t) : return s
"#;

fn counters(extra: &[&str]) -> crate::explore::Explorer {
    let file = script("counters.ds", COUNTERS);
    let mut args = vec![file.as_str(), "--start", "Start", "--next", "next", "--goal", "done"];
    args.extend_from_slice(extra);
    explore(&args)
}

/// The stats once every state is known (asking for a state beyond them explores it all).
fn whole(ex: &crate::explore::Explorer) -> Value {
    let _ = ex.status("/api/state/1000");
    ex.json("/api/stats")
}

#[test]
fn symmetry_counts_states_with_the_same_representative_once() {
    let plain = whole(&counters(&[]));
    assert_eq!((plain["states"].clone(), plain["transitions"].clone()), (json!(9), json!(12)));
    let ex = counters(&["--symmetry", "canon"]);
    let folded = whole(&ex);
    assert_eq!((folded["states"].clone(), folded["transitions"].clone()), (json!(6), json!(8)));
    assert_eq!(folded["complete"], json!(true));
    assert_eq!(folded["symmetry"], json!("canon"));
    // The start's successors "10" and "01" are one state, "01".
    let start = ex.json("/api/state/0");
    let to: Vec<&Value> = start["successors"].as_array().unwrap().iter().map(|t| &t["name"]).collect();
    assert_eq!(to, [&json!("01"), &json!("01")]);
    // A search replayed under the symmetry meets the same 6 states.
    let bfs = ex.json("/api/search?algorithm=bfs");
    assert_eq!(bfs["states"].as_array().unwrap().len(), 6);
    assert_eq!(bfs["cost"], json!(4.0));
}

#[test]
fn symmetry_names_a_demon_of_one_argument() {
    let file = script("counters-refused.ds", COUNTERS);
    let base = [file.as_str(), "--start", "Start", "--next", "next", "--goal", "done", "--symmetry"];
    let err = refused(&[&base[..], &["pair"]].concat());
    assert!(err.contains("--symmetry `pair` must be a demon of one argument"), "{err}");
    let err = refused(&[&base[..], &["canonn"]].concat());
    assert!(err.contains("--symmetry `canonn`: the script has no demon of that name (did you mean `canon`?)"), "{err}");
}

/// tests/browser/detour.ds: S -a,1-> A, S -b,4-> B, A -c,5-> C, A -b,2-> B, B -c,1-> C,
/// C -g,2-> G; true costs to G: S 6, A 5, B 3, C 2, G 0.
fn detour(h: &str) -> crate::explore::Explorer {
    explore(&["tests/browser/detour.ds", "--start", "Start", "--next", "next", "--goal", "goal", "--h", h])
}

/// Each event of a replay as "kind name g", with the name of its state.
fn events(r: &Value) -> Vec<String> {
    let name = |i: &Value| r["states"][i.as_u64().unwrap() as usize]["name"].as_str().unwrap().to_string();
    r["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{} {} {}", e["kind"].as_str().unwrap(), name(&e["state"]), e["g"]))
        .collect()
}

#[test]
fn an_astar_replay_gives_every_event_and_ranks_the_open_list_by_f_then_h() {
    let r = detour("h_reopen").json("/api/search?algorithm=astar");
    // h_reopen: S 2, A 5, B 0, C 2, G 0. S's successors A (f 6), B (f 4): B first. B's: C
    // (g 5). A's: C again at g 6 (no better), B again at g 3 after it was expanded: reopened.
    // B again: C at g 4. C: G at g 6, taken out as a goal.
    let expected = [
        "push S 0.0",
        "expand S 0.0",
        "push A 1.0",
        "push B 4.0",
        "expand B 4.0",
        "push C 5.0",
        "expand A 1.0",
        "duplicate C 6.0",
        "reopen B 3.0",
        "expand B 3.0",
        "push C 4.0",
        "expand C 4.0",
        "push G 6.0",
        "goal G 6.0",
    ];
    assert_eq!(events(&r), expected);
    assert_eq!(r["goal_test"], json!("expanded"));
    let rank = |n: usize| r["events"][n]["rank"].as_u64().unwrap();
    assert!(rank(3) < rank(2), "B (f 4) is taken before A (f 6)");
    assert!(rank(8) < rank(5), "B reopened (f 3) before C (f 7)");
    assert_eq!(r["events"][7]["rank"], Value::Null, "a duplicate enters nothing");
    let steps: Vec<u64> = r["steps"].as_array().unwrap().iter().map(|s| s["event"].as_u64().unwrap()).collect();
    assert_eq!(steps, [1, 4, 6, 9, 11], "each step points at its expansion");
}

#[test]
fn check_judges_the_heuristic_against_the_true_distances() {
    // Explorer ids, breadth-first from S: S 0, A 1, B 2, C 3, G 4.
    let good = detour("h").json("/api/check");
    assert_eq!(good["exact"], json!([6.0, 5.0, 3.0, 2.0, 0.0]));
    assert_eq!((good["admissible"].clone(), good["consistent"].clone()), (json!(true), json!(true)));
    let reopen = detour("h_reopen").json("/api/check");
    // A -b,2-> B: h(A) 5 > 2 + h(B) 0.
    assert_eq!((reopen["admissible"].clone(), reopen["consistent"].clone()), (json!(true), json!(false)));
    let over = detour("h_over").json("/api/check");
    assert_eq!(
        (over["admissible"].clone(), over["worst"].clone(), over["max_overestimate"].clone()),
        (json!(false), json!(2), json!(2.0))
    );
    assert_eq!(over["complete"], json!(true));
    let ex = explore(&["tests/browser/detour.ds", "--start", "Start", "--next", "next", "--goal", "goal"]);
    let (status, body) = ex.status("/api/check");
    assert_eq!(status, 400);
    assert!(body.contains("--h NAME"), "{body}");
}

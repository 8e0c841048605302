//! The explorer in the playground's engine: an explore request as the page sends it, then the
//! explorer's API paths answered as `ds explore`'s server answers them.

use ds_web::explore::api;
use ds_web::runner::{run_json, Sink};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// The published answer for wolf.ds (the seed's, which README.md shows): 17 actions.
const WOLF: &str = "f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p";

fn quiet() -> Sink {
    Rc::new(RefCell::new(|_, _: &str| {}))
}

/// Sends an explore request for `scripts/NAME.ds` with `args` and the panel's fields.
fn explore(name: &str, args: &[&str], fields: Value) -> Value {
    let files = crate::common::scripts();
    let path = format!("scripts/{name}.ds");
    let request = json!({"source": files[&path], "name": path, "args": args, "files": files, "explore": fields});
    serde_json::from_str(&run_json(&request.to_string(), quiet())).unwrap()
}

fn get(path: &str) -> (u64, Value) {
    let answer = api(path);
    (answer["status"].as_u64().unwrap(), answer["body"].clone())
}

#[test]
fn wolf_explored_step_by_step_reaches_the_goal_along_the_published_answer() {
    let r = explore("wolf", &[], json!({"start": "Start", "next": "all_actions", "goal": "target_state"}));
    assert_eq!(r["status"], "finished");
    assert_eq!(r["explorer"], json!({"ready": true}));
    let (status, stats) = get("stats");
    assert_eq!(status, 200);
    assert_eq!(stats["file"], "scripts/wolf.ds");
    let mut id = 0;
    for action in WOLF.split(';') {
        let (status, state) = get(&format!("state/{id}"));
        assert_eq!(status, 200);
        assert_eq!(state["goal"], false, "state {id} is not yet the goal");
        let successors = state["successors"].as_array().unwrap();
        let to = successors.iter().find(|t| t["action"] == action).unwrap_or_else(|| panic!("no {action} from {id}"));
        id = to["id"].as_u64().unwrap();
    }
    let (_, goal) = get(&format!("state/{id}"));
    assert_eq!(goal["goal"], true);
    assert_eq!(goal["depth"], 17);
    let (_, path) = get(&format!("path/{id}"));
    assert_eq!(path.as_array().unwrap().len(), 18, "the start and 17 actions");
    let (_, bfs) = get("search?algorithm=bfs");
    assert_eq!((bfs["found"].clone(), bfs["cost"].clone()), (json!(true), json!(17.0)));
}

#[test]
fn api_errors_are_the_servers() {
    explore("wolf", &[], json!({"start": "Start", "next": "all_actions", "goal": "target_state"}));
    assert_eq!(get("state/x").0, 400);
    assert_eq!(get("nothing").0, 404);
    assert_eq!(get("state/99999999").0, 404);
    let (status, body) = get("search?algorithm=astar");
    assert_eq!(status, 400, "astar needs --h");
    assert!(body["error"].as_str().unwrap().contains("--h"), "{body}");
}

#[test]
fn a_name_the_script_lacks_is_an_explorer_error() {
    let r = explore("wolf", &[], json!({"start": "Start", "next": "no_such_demon", "goal": "target_state"}));
    assert_eq!(r["status"], "finished");
    let error = r["explorer"]["error"].as_str().unwrap();
    assert!(error.starts_with("error") && error.contains("no_such_demon"), "{error}");
    assert_eq!(get("stats").0, 503, "nothing is explored");
}

#[test]
fn missing_fields_are_a_bad_request() {
    let r = explore("wolf", &[], json!({"start": "Start", "next": "all_actions"}));
    assert_eq!(r["status"], "bad_request");
    assert!(r["diagnostics"][0]["message"].as_str().unwrap().contains("`goal`"), "{r}");
}

#[test]
fn nothing_explored_answers_503() {
    assert_eq!(get("stats").0, 503);
}

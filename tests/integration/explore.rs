//! `ds explore`: the JSON API over HTTP (docs/explorer.md), and the errors that stop the
//! command before it serves. The page itself is tested in a browser by tests/browser/.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `ds explore`, killed when dropped.
pub(crate) struct Explorer {
    child: Child,
    pub(crate) port: u16,
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `ds explore ARGS --port 0` and waits for the address it prints on standard error.
pub(crate) fn explore(args: &[&str]) -> Explorer {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .arg("explore")
        .args(args)
        .args(["--port", "0"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ds explore");
    let port = address(BufReader::new(child.stderr.take().expect("stderr")));
    match port {
        Ok(port) => Explorer { child, port },
        Err(said) => {
            let _ = child.wait();
            panic!("ds explore ended before serving; it said:\n{said}");
        }
    }
}

/// The port in the address `ds explore` prints, or all it printed before it ended.
fn address(mut err: impl BufRead) -> Result<u16, String> {
    let mut seen = String::new();
    loop {
        let mut line = String::new();
        if err.read_line(&mut line).expect("read stderr") == 0 {
            return Err(seen);
        }
        seen.push_str(&line);
        if let Some(at) = line.find("http://127.0.0.1:") {
            return Ok(line[at + 17..].split('/').next().and_then(|p| p.parse().ok()).expect("a port"));
        }
    }
}

/// GET `path` with the Host header given; the status and the body.
pub(crate) fn get_as(port: u16, path: &str, host: &str) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(120))).expect("timeout");
    write!(s, "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").expect("send");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("read reply");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a header and a body");
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("a status");
    (status, body.to_string())
}

impl Explorer {
    /// GET `path`, which must answer 200 with JSON.
    pub(crate) fn json(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "GET {path}: {body}");
        serde_json::from_str(&body).expect("JSON")
    }

    /// GET `path`: the status and the body.
    pub(crate) fn status(&self, path: &str) -> (u16, String) {
        self.get(path)
    }

    fn get(&self, path: &str) -> (u16, String) {
        get_as(self.port, path, &format!("127.0.0.1:{}", self.port))
    }
}

fn wolf() -> Explorer {
    explore(&["scripts/wolf.ds", "--start", "Start", "--next", "all_actions", "--goal", "target_state"])
}

/// The published solution (problems.md; the last line of tests/expected/wolf.out): 17 actions.
fn wolf_solution() -> Vec<String> {
    let expected = std::fs::read_to_string("tests/expected/wolf.out").expect("wolf.out");
    let plan = expected.lines().last().expect("the plan line");
    let actions: Vec<String> = plan.split(';').skip(1).map(str::to_string).collect();
    assert_eq!(actions.len(), 17);
    actions
}

/// The `[source, relation, target]` of the True facts of a state with relation `rel`.
fn true_facts(state: &Value, rel: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = state["facts"]
        .as_array()
        .expect("facts")
        .iter()
        .filter(|f| f[1] == rel && f[3] == "True")
        .map(|f| (f[0].as_str().unwrap().to_string(), f[2].as_str().unwrap().to_string()))
        .collect();
    out.sort();
    out
}

/// A state's successors as (action, id).
pub(crate) fn actions_and_ids(state: &Value) -> Vec<(String, u64)> {
    let succ = state["successors"].as_array().expect("successors");
    succ.iter().map(|s| (s["action"].as_str().unwrap().to_string(), s["id"].as_u64().unwrap())).collect()
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    let mut v: Vec<_> = items.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    v.sort();
    v
}

#[test]
fn wolf_walk_from_the_start_along_the_published_actions_reaches_a_goal() {
    let ex = wolf();
    let start = ex.json("/api/state/0");
    assert_eq!(
        (&start["id"], &start["name"], &start["goal"]),
        (&Value::from(0), &Value::from("Start"), &Value::from(false))
    );
    assert_eq!((&start["parent"], &start["depth"], &start["action"]), (&Value::Null, &Value::from(0), &Value::Null));
    assert_eq!(start["nodes"], serde_json::json!(["f", "w", "g", "c", "$1", "$2"]));
    // Everyone on the first bank; classes by isa into the world Sen
    let all_on_1 = pairs(&[("f", "$1"), ("w", "$1"), ("g", "$1"), ("c", "$1")]);
    assert_eq!(true_facts(&start, "on"), all_on_1);
    assert!(true_facts(&start, "isa").contains(&("f".to_string(), "Sen.$human".to_string())));
    let mut state = start;
    let mut name = "Start".to_string();
    for (step, action) in wolf_solution().iter().enumerate() {
        assert_eq!(state["goal"], false, "no goal before the end (step {step})");
        let succ = state["successors"].as_array().expect("successors");
        let next = succ.iter().find(|s| s["action"] == action.as_str());
        let next = next.unwrap_or_else(|| panic!("step {}: no action {action} among {succ:?}", step + 1));
        let id = next["id"].as_u64().expect("id");
        let parent = state["id"].clone();
        state = ex.json(&format!("/api/state/{id}"));
        name = format!("{name};{action}");
        assert_eq!(state["name"], name.as_str(), "a graph state's name is its parent's and the action");
        assert_eq!(state["depth"], step as u64 + 1, "bfs ids: the first way to a state is a shortest one");
        assert_eq!((&state["parent"], &state["action"]), (&parent, &Value::from(action.as_str())));
    }
    assert_eq!(state["goal"], true);
    let all_on_2 = pairs(&[("f", "$2"), ("w", "$2"), ("g", "$2"), ("c", "$2")]);
    assert_eq!(true_facts(&state, "on"), all_on_2);
    assert_eq!(true_facts(&state, "hold"), vec![]);
    // The path from the start gives the same actions back
    let goal = state["id"].as_u64().unwrap();
    let path = ex.json(&format!("/api/path/{goal}"));
    let actions: Vec<&str> = path.as_array().unwrap().iter().skip(1).map(|p| p["action"].as_str().unwrap()).collect();
    assert_eq!(actions, wolf_solution());
    assert_eq!((&path[0]["id"], &path[0]["action"]), (&Value::from(0), &Value::Null));
    let stats = ex.json("/api/stats");
    assert_eq!(stats["goals"], 1, "one goal state is known: {stats}");
    assert!(stats["expanded"].as_u64().unwrap() <= stats["states"].as_u64().unwrap());
}

#[test]
fn wolf_ids_are_breadth_first_and_a_bfs_replay_finds_the_same_goal() {
    let ex = wolf();
    // The start's successors, in the order all_actions gives them: take w, g, c.
    let start = ex.json("/api/state/0");
    let succ = actions_and_ids(&start);
    assert_eq!(succ, vec![("f.t.w".into(), 1), ("f.t.g".into(), 2), ("f.t.c".into(), 3)]);
    // Asking for a far state before a near one gives the ids a whole exploration gives.
    let bfs = ex.json("/api/search?algorithm=bfs");
    assert_eq!(
        (&bfs["found"], &bfs["reason"], &bfs["cost"]),
        (&Value::from(true), &Value::from("goal"), &Value::from(17.0))
    );
    let path: Vec<u64> = bfs["path"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap()).collect();
    assert_eq!(path.len(), 18);
    let walked = ex.json(&format!("/api/path/{}", path[17]));
    let walked: Vec<u64> = walked.as_array().unwrap().iter().map(|p| p["id"].as_u64().unwrap()).collect();
    assert_eq!(walked, path, "the replay names states by the explorer's ids");
    assert_eq!(ex.json(&format!("/api/state/{}", path[17]))["goal"], true);
    // the seed's solver: 27 states closed when the goal turns up; bfs expands the same 27
    assert_eq!(bfs["expanded"], 27);
    let steps = bfs["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 27);
    assert_eq!(
        (&steps[0]["id"], &steps[0]["met"], &steps[1]["met"]),
        (&Value::from(0), &Value::from(1), &Value::from(4))
    );
    let states = bfs["states"].as_array().unwrap();
    assert_eq!(states[2]["action"], "f.t.g");
    assert_eq!((&states[2]["parent"], &states[2]["g"]), (&Value::from(0), &Value::from(1.0)));
}

#[test]
fn eight_puzzle_successors_of_the_start_and_an_astar_replay() {
    let ex = explore(&["scripts/eight.ds", "--start", "Start", "--next", "moves", "--goal", "is_goal", "--h", "h"]);
    let start = ex.json("/api/state/0");
    // 283164705: the blank is in the bottom row, middle column; it can go up, left and right
    assert_eq!(
        (&start["name"], &start["facts"], &start["h"]),
        (&Value::from("283164705"), &serde_json::json!([]), &Value::from(4.0))
    );
    let succ = actions_and_ids(&start);
    assert_eq!(succ, vec![("up".into(), 1), ("left".into(), 2), ("right".into(), 3)]);
    let names: Vec<String> =
        (1..=3).map(|i| ex.json(&format!("/api/state/{i}"))["name"].as_str().unwrap().to_string()).collect();
    assert_eq!(names, vec!["283104765", "283164075", "283164750"]);
    // A* with misplaced tiles: the seeds' 5 moves, up up left down right
    let astar = ex.json("/api/search?algorithm=astar");
    assert_eq!((&astar["found"], &astar["cost"]), (&Value::from(true), &Value::from(5.0)));
    let first = &astar["steps"][0];
    assert_eq!((&first["g"], &first["h"], &first["f"]), (&Value::from(0.0), &Value::from(4.0), &Value::from(4.0)));
    let goal = astar["goal"].as_u64().unwrap();
    let path = ex.json(&format!("/api/path/{goal}"));
    let actions: Vec<&str> = path.as_array().unwrap().iter().skip(1).map(|p| p["action"].as_str().unwrap()).collect();
    assert_eq!(actions, vec!["up", "up", "left", "down", "right"]);
    let goal_state = ex.json(&format!("/api/state/{goal}"));
    assert_eq!((&goal_state["name"], &goal_state["goal"]), (&Value::from("123804765"), &Value::from(true)));
}

#[test]
fn bad_requests_get_clear_answers() {
    let ex = wolf();
    let (status, body) = ex.get("/api/state/999999");
    assert_eq!(status, 404);
    assert!(body.contains("no state 999999: 30 states are known and every reachable state is known"), "{body}");
    let (status, body) = ex.get("/api/search?algorithm=astar");
    assert_eq!(status, 400);
    assert!(body.contains("needs a heuristic"), "{body}");
    let (status, body) = ex.get("/api/search?algorithm=quick");
    assert_eq!(status, 400);
    assert!(body.contains("the algorithms are bfs, dfs"), "{body}");
    assert_eq!(ex.get("/api/nothing").0, 404);
    assert_eq!(ex.get("/api/state/x").0, 400);
    // a name that points elsewhere at this machine is refused (DNS rebinding)
    assert_eq!(get_as(ex.port, "/api/stats", "evil.example:80").0, 403);
    let (status, page) = ex.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<title>ds explore</title>"), "the page is served");
}

/// Runs `ds explore ARGS` that must stop with status 2 before serving; its standard error.
pub(crate) fn refused(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ds"))
        .arg("explore")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run ds explore");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "ds explore {args:?} said:\n{err}");
    assert!(!err.contains("serving"), "{err}");
    err
}

const WOLF: [&str; 1] = ["scripts/wolf.ds"];

fn wolf_with(opts: &[&str]) -> Vec<String> {
    WOLF.iter().chain(opts).map(|s| s.to_string()).collect()
}

fn refused_wolf(opts: &[&str]) -> String {
    let args = wolf_with(opts);
    refused(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn names_that_cannot_be_explored_stop_before_serving() {
    let err = refused_wolf(&["--start", "Strat", "--next", "all_actions", "--goal", "target_state"]);
    assert!(
        err.contains("--start `Strat`: the script has no global variable of that name (did you mean `Start`?)"),
        "{err}"
    );
    let err = refused_wolf(&["--start", "Start", "--next", "take", "--goal", "target_state"]);
    assert!(err.contains("--next `take` must be a demon of one argument (a state); it takes 3"), "{err}");
    let err = refused_wolf(&["--start", "Start", "--next", "Sen", "--goal", "target_state"]);
    assert!(err.contains("--next `Sen` is a global variable, not a demon"), "{err}");
    let err = refused_wolf(&["--start", "place", "--next", "all_actions", "--goal", "target_state"]);
    assert!(err.contains("--start `place` is a demon"), "{err}");
    let err = refused_wolf(&["--start", "Start", "--next", "all_actions"]);
    assert!(err.contains("needs --start NAME, --next NAME and --goal NAME"), "{err}");
    let err = refused_wolf(&["--start", "Start", "--next", "all_actions", "--goal", "target_state", "--port", "http"]);
    assert!(err.contains("--port takes a port number"), "{err}");
}

#[test]
fn a_port_in_use_stops_before_the_script_runs() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    let port = taken.local_addr().unwrap().port().to_string();
    let err = refused_wolf(&["--start", "Start", "--next", "all_actions", "--goal", "target_state", "--port", &port]);
    assert!(err.contains(&format!("cannot serve on 127.0.0.1:{port}")), "{err}");
}

#[test]
fn a_script_error_ends_the_command_with_the_scripts_status() {
    let dir = std::env::temp_dir().join(format!("ds-explore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("broken.ds");
    std::fs::write(&file, "var S = 1\nvar Four = 4\ndef next(n) : return [n + 1]\nout 1 / \"x\"\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["explore", file.to_str().unwrap(), "--start", "S", "--next", "next", "--goal", "next", "--port", "0"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("serving"));
}

#[test]
fn a_failing_next_is_an_error_answer_not_the_end_of_the_server() {
    let dir = std::env::temp_dir().join(format!("ds-explore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("fails.ds");
    std::fs::write(&file, "var S = 1\ndef next(n)\n{\n   if n == 2 : return 1 / \"x\"\n   return [n + 1, n * 3]\n}\ndef goal(n) : return n == 9\n").unwrap();
    let ex = explore(&[file.to_str().unwrap(), "--start", "S", "--next", "next", "--goal", "goal"]);
    let start = ex.json("/api/state/0");
    assert_eq!(
        start["successors"],
        serde_json::json!([{"action": null, "id": 1, "name": "2", "cost": 1.0, "goal": false}, {"action": null, "id": 2, "name": "3", "cost": 1.0, "goal": false}])
    );
    let failed = ex.json("/api/state/1");
    assert_eq!((&failed["name"], &failed["successors"]), (&Value::from("2"), &Value::Null));
    let error = failed["error"].as_str().expect("an error");
    assert!(error.contains("fails.ds:4"), "the error shows where: {error}");
    // the exploration goes on past it: 3 gives 4 and 9 (ids 3 and 4), a goal
    let three = ex.json("/api/state/2");
    assert_eq!((&three["name"], &three["error"]), (&Value::from("3"), &Value::Null));
    assert_eq!(
        three["successors"][1],
        serde_json::json!({"action": null, "id": 4, "name": "9", "cost": 1.0, "goal": true})
    );
}

/// Writes a script into a fresh folder; its path.
pub(crate) fn script(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("ds-explore-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(name);
    std::fs::write(&file, src).unwrap();
    file.to_string_lossy().into_owned()
}

/// `Search.explore(...).json()` of the problem, after the script's own output.
fn exported(file: &str, call: &str) -> Value {
    let src = format!("#include \"{file}\"\nout \"<json>\"\nout {call}.json()\n");
    let run = Command::new(env!("CARGO_BIN_EXE_ds")).args(["-e", &src]).output().expect("run ds");
    let out = String::from_utf8_lossy(&run.stdout).into_owned();
    let json = out.split_once("<json>\n").unwrap_or_else(|| panic!("no export: {out}")).1;
    serde_json::from_str(json).expect("the export is JSON")
}

/// The explorer and `Search.explore` say the same of every state: its id, depth, parent,
/// action, goal, name and facts (or value), and its transitions in order.
fn agree(ex: &Explorer, space: &Value) {
    let states = space["states"].as_array().unwrap();
    assert!(states.len() > 3);
    for s in states {
        let id = s["id"].as_u64().unwrap();
        let e = ex.json(&format!("/api/state/{id}"));
        for key in ["id", "depth", "parent", "action", "goal", "name", "facts", "value"] {
            if s.get(key).is_some() {
                assert_eq!(e[key], s[key], "state {id}: {key}");
            }
        }
        let from_export: Vec<(Value, Value)> = space["transitions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["from"] == id)
            .map(|t| (t["action"].clone(), t["to"].clone()))
            .collect();
        let from_explorer: Vec<(Value, Value)> =
            e["successors"].as_array().unwrap().iter().map(|t| (t["action"].clone(), t["id"].clone())).collect();
        assert_eq!(from_explorer, from_export, "the transitions of state {id}");
    }
    assert_eq!(ex.json("/api/stats")["goals"], space["goals"].as_array().unwrap().len());
}

#[test]
fn the_explorer_and_search_explore_number_and_describe_states_alike() {
    let wolf_file = std::fs::canonicalize("scripts/wolf.ds").unwrap().to_string_lossy().into_owned();
    let space = exported(&wolf_file, "Search.explore(Start, all_actions, {\"goal\": target_state})");
    assert_eq!(space["complete"], true);
    // Asking for the last state first still gives every state its breadth-first id.
    let ex = wolf();
    let last = space["states"].as_array().unwrap().len() - 1;
    assert_eq!(ex.json(&format!("/api/state/{last}"))["id"], last);
    agree(&ex, &space);
    // States that are numbers: their values, and actions that are numbers too
    let numbers = script(
        "numbers.ds",
        "var S = 1\nvar Four = 4\ndef next(n) : return n < 5 ? [[1, n + 1], [\"dbl\", n * 2]] : []\n",
    );
    let space = exported(&numbers, "Search.explore(S, next, {\"goal\": 4})");
    let ex = explore(&[&numbers, "--start", "S", "--next", "next", "--goal", "Four"]);
    agree(&ex, &space);
}

#[test]
fn ctrl_c_stops_the_explorer() {
    let mut ex = wolf();
    assert_eq!(ex.json("/api/state/0")["id"], 0);
    let pid = ex.child.id().to_string();
    let sent = Command::new("kill").args(["-INT", &pid]).status().expect("kill");
    assert!(sent.success());
    // wait (a generous bound: the machine may be loaded) for the process to end
    for _ in 0..600 {
        if let Some(status) = ex.child.try_wait().expect("try_wait") {
            assert_eq!(status.code(), Some(130));
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    panic!("ds explore went on after SIGINT");
}

#[test]
fn explore_is_a_reserved_word_and_dot_slash_explore_runs_a_file() {
    let dir = std::env::temp_dir().join(format!("ds-explore-word-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("explore"), "out \"a script named explore\"\n").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_ds")).arg("./explore").current_dir(&dir).output().expect("run");
    assert_eq!(String::from_utf8_lossy(&run.stdout), "a script named explore\n");
    let run = Command::new(env!("CARGO_BIN_EXE_ds")).arg("explore").current_dir(&dir).output().expect("run");
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("ds explore needs --start NAME"));
}

#[test]
fn an_argument_that_looks_like_a_misspelt_explorer_option_gets_a_note() {
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (o, rest) = ds::explore::take_options(args(&[
        "scripts/eight.ds",
        "--start",
        "S",
        "--next",
        "moves",
        "--goal",
        "is_goal",
        "--hh",
        "manhattan",
        "--manhattan",
    ]))
    .expect("options");
    assert_eq!(o.misspelt, [("--hh".to_string(), "--h".to_string())]);
    assert_eq!(rest, args(&["scripts/eight.ds", "--hh", "manhattan", "--manhattan"]));
}

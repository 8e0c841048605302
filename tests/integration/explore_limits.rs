//! `ds explore` under load it should refuse: a demon that never returns, ids past 2^32, a
//! replay that would force the whole space explored, headers too large (docs/explorer.md,
//! "Limits").

use super::explore::{explore, get_as, Explorer};
use serde_json::Value;
use std::time::{Duration, Instant};

/// Numbers as states: n gives 10n+1 ... 10n+10, so every number is new and the space has no end;
/// the demon of state `hang` never returns.
fn numbers(hang: i64) -> String {
    format!(
        "var Start = 0\n\
         def next(S)\n{{\n   while S == {hang} {{ S = S }}\n   var Out = []\n   for I in range(1, 11) {{ Out.push(S * 10 + I) }}\n   return Out\n}}\n\
         def goal(S)\n{{\n   return False\n}}\n"
    )
}

fn explorer_of(name: &str, script: &str) -> Explorer {
    let dir = std::env::temp_dir().join(format!("ds-explore-limits-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("numbers.ds");
    std::fs::write(&file, script).unwrap();
    explore(&[file.to_str().unwrap(), "--start", "Start", "--next", "next", "--goal", "goal"])
}

fn get(ex: &Explorer, path: &str) -> (u16, Value) {
    let (status, body) = get_as(ex.port, path, "127.0.0.1");
    (status, serde_json::from_str(&body).unwrap_or_else(|_| panic!("GET {path}: not JSON: {body}")))
}

#[test]
fn a_demon_that_never_returns_gets_500_after_the_default_limit_and_the_server_goes_on() {
    let ex = explorer_of("hang", &numbers(1));
    let began = Instant::now();
    // State 11 is the first successor of 1, whose Next never returns.
    let (status, body) = get(&ex, "/api/state/11");
    let took = began.elapsed();
    assert_eq!(status, 500, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with("the request ran past the explorer's limit of 10 s a request"), "{error}");
    assert!(took >= Duration::from_secs(10) && took < Duration::from_secs(60), "{took:?}");
    // The next requests are answered: a state expanded before, and the statistics.
    let (status, state) = get(&ex, "/api/state/0");
    assert_eq!((status, state["successors"].as_array().map(Vec::len)), (200, Some(10)), "{state}");
    let (status, stats) = get(&ex, "/api/stats");
    assert_eq!((status, &stats["states"], &stats["complete"]), (200, &Value::from(11), &Value::from(false)), "{stats}");
}

#[test]
fn ids_past_2_32_are_refused_as_such() {
    let ex = explorer_of("ids", &numbers(-1));
    let (status, body) = get(&ex, "/api/state/4294967296");
    assert_eq!(status, 404);
    let error = body["error"].as_str().unwrap();
    assert_eq!(error, "no state 4294967296: state ids are below 4294967296");
    let (_, stats) = get(&ex, "/api/stats");
    assert_eq!(stats["states"], 1, "nothing was explored for it: {stats}");
}

#[test]
fn a_small_replay_does_not_explore_the_space_up_to_the_cap() {
    let ex = explorer_of("replay", &numbers(-1));
    // Depth first, 60 states: 6 levels deep, where breadth first knows a state only after
    // 10^6 of them (the cap, --max-states' default).
    let (status, replay) = get(&ex, "/api/search?algorithm=dfs&max_states=60");
    assert_eq!(status, 200, "{replay}");
    let states = replay["states"].as_array().unwrap();
    assert!(states.len() <= 60 && states.len() > 50, "{}", states.len());
    assert!(states.iter().any(|s| s["id"].is_null()), "the deepest states have no id of the explorer");
    assert!(states[..11].iter().all(|s| s["id"].is_u64()), "the first states have ids");
    let (_, stats) = get(&ex, "/api/stats");
    let explored = stats["states"].as_u64().unwrap();
    // The explorer looked for them among at most 10,000 more states (and one expansion's 10).
    assert!(explored <= 10_010, "{explored} states explored for a replay of {}", states.len());
}

//! `ds explore` under load it should refuse: a demon that never returns, ids past 2^32, a
//! replay that would force the whole space explored, headers too large (docs/explorer.md,
//! "Limits").

use super::explore::{explore, get_as, Explorer};
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
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

/// Sends `request` as it is (from a thread of its own, so that a server that answers before
/// reading it all is not blocked by this one's writing); the status, the body and the time the
/// answer took.
fn raw(port: u16, request: Vec<u8>) -> (u16, String, Duration) {
    let began = Instant::now();
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).expect("timeout");
    let mut writer = s.try_clone().expect("clone");
    // The server may close before it all arrives: a failed write is expected then.
    let sending = std::thread::spawn(move || drop(writer.write_all(&request)));
    let mut reply = Vec::new();
    let _ = s.read_to_end(&mut reply);
    let took = began.elapsed();
    drop(s);
    let _ = sending.join();
    let reply = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = reply.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no answer: {reply:?}"));
    let status = head.split(' ').nth(1).and_then(|c| c.parse().ok()).expect("a status");
    (status, body.to_string(), took)
}

#[test]
fn a_huge_header_gets_431_at_once_and_the_server_goes_on() {
    let ex = explorer_of("header", &numbers(-1));
    let mut request = b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ".to_vec();
    request.extend(std::iter::repeat_n(b'a', 1 << 20));
    request.extend(b"\r\n\r\n");
    let (status, body, took) = raw(ex.port, request);
    assert_eq!(status, 431, "{body}");
    assert!(body.contains("header section is over 64 KiB"), "{body}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    // As many headers as would fit, but too many of them.
    let many: String = (0..200).map(|i| format!("X-{i}: 1\r\n")).collect();
    let (status, body, _) = raw(ex.port, format!("GET / HTTP/1.1\r\n{many}\r\n").into_bytes());
    assert_eq!(status, 431, "{body}");
    assert_eq!(get(&ex, "/api/stats").0, 200);
}

#[test]
fn a_body_too_large_and_a_malformed_request_are_refused() {
    let ex = explorer_of("body", &numbers(-1));
    let big = "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000000\r\n\r\n";
    let (status, body, _) = raw(ex.port, big.into());
    assert_eq!(status, 413, "{body}");
    assert!(body.contains("body is over 16 MiB"), "{body}");
    for bad in ["GARBAGE\r\n\r\n", "GET /api/stats HTTP/9.9\r\n\r\n", "GET /a b HTTP/1.1\r\n\r\n"] {
        let (status, body, _) = raw(ex.port, bad.into());
        assert_eq!(status, 400, "{bad:?}: {body}");
        assert!(body.contains("a malformed HTTP request"), "{body}");
    }
    let lying = "GET /api/stats HTTP/1.1\r\nContent-Length: -1\r\n\r\n";
    assert_eq!(raw(ex.port, lying.into()).0, 400);
    // A small body is skipped and the request answered.
    let (status, body, _) = raw(ex.port, "GET /api/stats HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello".into());
    assert_eq!(status, 200, "{body}");
}

#[test]
fn a_client_that_sends_nothing_holds_only_its_own_connection() {
    let ex = explorer_of("slow", &numbers(-1));
    let began = Instant::now();
    let mut idle = TcpStream::connect(("127.0.0.1", ex.port)).expect("connect");
    idle.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    idle.write_all(b"GET /api/stats HTTP/1.1\r\n").unwrap();
    // Others are answered meanwhile.
    assert_eq!(get(&ex, "/api/stats").0, 200);
    assert!(began.elapsed() < Duration::from_secs(5));
    let mut reply = String::new();
    let _ = idle.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 408 "), "{reply}");
    assert!(reply.contains("did not arrive whole within 10 s"), "{reply}");
    let took = began.elapsed();
    assert!(took >= Duration::from_secs(10) && took < Duration::from_secs(60), "{took:?}");
}

#[test]
fn connections_held_half_open_do_not_lock_a_new_request_out() {
    let ex = explorer_of("many", &numbers(-1));
    let mut held: Vec<TcpStream> = Vec::new();
    for _ in 0..300 {
        let mut s = TcpStream::connect(("127.0.0.1", ex.port)).expect("connect");
        let _ = s.write_all(b"GET /api/stats HTTP/1.1\r\n");
        held.push(s);
    }
    let began = Instant::now();
    let (status, body, _) = raw(ex.port, b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec());
    assert_eq!(status, 200, "{body}");
    assert!(began.elapsed() < Duration::from_secs(5), "{:?}", began.elapsed());
    // The oldest half-open connections were closed to make room (the server keeps 64).
    let closed = held
        .iter_mut()
        .map(|s| {
            s.set_read_timeout(Some(Duration::from_millis(10))).unwrap();
            matches!(s.read(&mut [0u8; 1]), Ok(0))
        })
        .filter(|&closed| closed)
        .count();
    assert!(closed >= 200, "{closed} of 300 closed");
}

/// Sends `request` and closes the connection at once.
fn abandon(port: u16, request: &str) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.write_all(request.as_bytes()).expect("send");
}

#[test]
fn requests_whose_clients_went_away_are_stopped() {
    let ex = explorer_of("abandoned", &numbers(1));
    for _ in 0..6 {
        // State 11's `next` never returns: each would run for the whole 10 s.
        abandon(ex.port, "GET /api/state/11 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    }
    std::thread::sleep(Duration::from_millis(300));
    let began = Instant::now();
    let (status, stats) = get(&ex, "/api/stats");
    assert_eq!(status, 200, "{stats}");
    assert!(began.elapsed() < Duration::from_secs(3), "waited {:?} behind abandoned requests", began.elapsed());
}

#[test]
fn while_a_demon_loops_the_other_requests_are_answered_within_a_second() {
    let ex = explorer_of("loops", &numbers(1));
    let mut looping = TcpStream::connect(("127.0.0.1", ex.port)).expect("connect");
    looping.write_all(b"GET /api/state/11 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let began = Instant::now();
    let (status, page) = get_as(ex.port, "/", "127.0.0.1");
    assert!(status == 200 && page.contains("<title>ds explore</title>"), "{status}");
    assert!(began.elapsed() < Duration::from_secs(1), "the page took {:?}", began.elapsed());
    let began = Instant::now();
    let (status, body, _) = raw(ex.port, b"GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".to_vec());
    assert!(began.elapsed() < Duration::from_secs(1), "the API took {:?}", began.elapsed());
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("answering another request"), "{body}");
    drop(looping);
    let answered = (0..40).any(|_| {
        std::thread::sleep(Duration::from_millis(50));
        get_as(ex.port, "/api/stats", "127.0.0.1").0 == 200
    });
    assert!(answered, "the looping request is stopped once its client goes");
}

#[test]
fn two_different_content_lengths_get_400() {
    let ex = explorer_of("lengths", &numbers(-1));
    let twice = "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello";
    let (status, body, _) = raw(ex.port, twice.into());
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("two different Content-Length headers"), "{body}");
    // The same length twice is one length (RFC 9112, section 6.3).
    let same = "GET /api/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello";
    assert_eq!(raw(ex.port, same.into()).0, 200);
}

/// A script whose `next` fills the heap for ever.
const GREEDY: &str = "var Start = 0\n\
     def next(S)\n{\n   var A = [\"0123456789012345678901234567890123456789\"]\n   while True { A = A + A }\n   return []\n}\n\
     def goal(S)\n{\n   return False\n}\n";

#[test]
fn max_memory_bounds_what_a_request_may_take() {
    let dir = std::env::temp_dir().join(format!("ds-explore-limits-{}-memory", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("greedy.ds");
    std::fs::write(&file, GREEDY).unwrap();
    let f = file.to_str().unwrap();
    let ex =
        explore(&["--max-memory", "50M", "--timeout", "20", f, "--start", "Start", "--next", "next", "--goal", "goal"]);
    let began = Instant::now();
    let (status, body) = get(&ex, "/api/state/0");
    assert_eq!(status, 500, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with("the request went past the heap limit of 52428800 bytes (--max-memory"), "{error}");
    assert!(began.elapsed() < Duration::from_secs(15), "stopped by the limit, not the time: {:?}", began.elapsed());
    assert_eq!(get(&ex, "/api/stats").0, 200, "the server goes on");
}

#[test]
fn an_option_of_ds_after_file_is_refused_not_given_to_the_script() {
    let dir = std::env::temp_dir().join(format!("ds-explore-limits-{}-sandbox", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("numbers.ds");
    std::fs::write(&file, numbers(-1)).unwrap();
    let f = file.to_str().unwrap();
    let err = super::explore::refused(&[f, "--start", "Start", "--next", "next", "--goal", "goal", "--sandbox"]);
    assert!(err.contains("`--sandbox` comes after FILE, where it would go to the script"), "{err}");
    assert!(err.contains("(ds explore --sandbox ... FILE)"), "{err}");
    // After `--`, it is the script's, as the message says.
    let ex = explore(&[f, "--start", "Start", "--next", "next", "--goal", "goal", "--", "--sandbox"]);
    assert_eq!(get(&ex, "/api/stats").0, 200);
}

#[test]
fn a_misspelt_explorer_option_before_file_is_not_said_to_go_to_the_script() {
    let err =
        super::explore::refused(&["--hh", "x", "scripts/wolf.ds", "--start", "Start", "--next", "n", "--goal", "g"]);
    assert!(!err.contains("goes to the script"), "{err}");
    assert!(err.contains("`--hh` is not an option of ds explore either (did you mean `--h`?)"), "{err}");
}

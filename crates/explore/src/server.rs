//! The explorer's HTTP server: the page's files built into the binary and the JSON API, served
//! on 127.0.0.1 only. `http` reads each connection on its own thread, with caps; the page's files
//! and refusals are answered there at once, the API here, on the interpreter's thread, one
//! request after another (each cancelled when its client goes away).

use crate::http::{Request, Response};
use ds_core::explore::Explorer;
use serde_json::json;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

pub use crate::http::Server;

/// The server, bound to 127.0.0.1:`port` (0: a free port).
pub fn bind(port: u16) -> Result<Server, String> {
    Server::bind(port).map_err(|e| format!("cannot serve on 127.0.0.1:{port}: {e}"))
}

/// The port the server listens on.
pub fn port(server: &Server) -> u16 {
    server.port()
}

/// How long one request may run the script's demons when `--timeout` does not say: the
/// requests are answered one after another, so a demon that loops for ever must not hold the
/// server.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// Answers requests until the process ends (Ctrl-C ends it). Each request may run the script's
/// demons for `timeout` (`REQUEST_TIME` if not given).
pub fn serve(server: &Server, explorer: &mut Explorer, timeout: Option<Duration>) -> Result<(), String> {
    let port = server.port();
    let limit = timeout.unwrap_or(REQUEST_TIME);
    let interrupt = explorer.interp().interrupt.clone();
    let at_once = move |request: &Request| at_once(request, port);
    let served = server.serve(interrupt, at_once, |request| {
        let deadline = Instant::now().checked_add(limit);
        explorer.interp().limits_mut().deadline = deadline;
        let timed_out = || deadline.is_some_and(|d| Instant::now() >= d);
        let response = catch_unwind(AssertUnwindSafe(|| api(request, explorer, limit, timed_out)));
        let response = response.unwrap_or_else(|_| {
            Response::json(500, &json!({"error": "internal error: the explorer failed on this request"}))
        });
        // What the demons printed while answering shows now, not when the buffer fills.
        let _ = explorer.interp().out.flush();
        response
    });
    served.map_err(|e| format!("the explorer cannot serve: {e}"))
}

/// The answer to a request that needs no interpreter (a refusal, the page's files), given on
/// the connection's own thread; `None` for the API, which the interpreter answers.
fn at_once(request: &Request, port: u16) -> Option<Response> {
    if !local_host(request, port) {
        return Some(Response::json(
            403,
            &json!({"error": "the explorer answers only requests for 127.0.0.1 or localhost"}),
        ));
    }
    if request.method != "GET" {
        return Some(Response::json(405, &json!({"error": "the explorer answers GET requests only"})));
    }
    let (path, _) = request.target.split_once('?').unwrap_or((&request.target, ""));
    if path.starts_with("/api/") {
        return None;
    }
    Some(match crate::web::asset(path) {
        Some((bytes, kind)) => Response::new(200, kind, bytes.to_vec()),
        None => Response::json(404, &json!({"error": format!("no page {path}")})),
    })
}

/// An API request, answered by the interpreter.
fn api(request: &Request, explorer: &mut Explorer, limit: Duration, timed_out: impl Fn() -> bool) -> Response {
    let (path, query) = request.target.split_once('?').unwrap_or((&request.target, ""));
    let api = path.strip_prefix("/api/").unwrap_or_default();
    let (status, mut body) = ds_core::explore::reply(explorer, api, query);
    if status == 500 && timed_out() {
        let m = body["error"].as_str().unwrap_or_default();
        let why = format!(
            "the request ran past the explorer's limit of {} s a request (--timeout SECONDS sets it; \
             the states explored so far are kept): {m}",
            limit.as_secs_f64()
        );
        body = json!({"error": why});
    } else if status == 500 && body["error"].as_str().is_some_and(|m| m.ends_with("stopped: max_memory")) {
        // (The heap is given back by then: the error's reason says which limit it was.)
        let m = body["error"].as_str().unwrap_or_default();
        let limit = ds_base::guard::memory::limit().unwrap_or_default();
        let why = format!(
            "the request went past the heap limit of {limit} bytes (--max-memory BYTES sets it; the states \
             explored so far are kept): {m}"
        );
        body = json!({"error": why});
    }
    Response::json(status, &body)
}

/// Only requests addressed to this machine by name or number: a web page elsewhere cannot
/// reach the explorer through a name that it points at 127.0.0.1 (DNS rebinding).
fn local_host(request: &Request, port: u16) -> bool {
    match &request.host {
        Some(h) => ["127.0.0.1", "localhost"].iter().any(|name| h == name || *h == format!("{name}:{port}")),
        None => true,
    }
}

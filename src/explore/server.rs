//! The explorer's HTTP server: the page's files built into the binary and the JSON API, served
//! on 127.0.0.1 only. `tiny_http` accepts connections on its own threads; every request is
//! answered here, on the interpreter's thread, one after another.

use super::Explorer;
use serde_json::json;
use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server};

/// The server, bound to 127.0.0.1:`port` (0: a free port).
pub fn bind(port: u16) -> Result<Server, String> {
    Server::http(("127.0.0.1", port)).map_err(|e| format!("cannot serve on 127.0.0.1:{port}: {e}"))
}

/// The port the server listens on.
pub fn port(server: &Server) -> u16 {
    server.server_addr().to_ip().map_or(0, |a| a.port())
}

/// How long one request may run the script's demons when `--timeout` does not say: the
/// requests are answered one after another, so a demon that loops for ever must not hold the
/// server.
pub const REQUEST_TIME: Duration = Duration::from_secs(10);

/// Answers requests until the server is closed (Ctrl-C ends the process). Each request may run
/// the script's demons for `timeout` (`REQUEST_TIME` if not given).
pub fn serve(server: &Server, explorer: &mut Explorer, timeout: Option<Duration>) {
    let port = port(server);
    let limit = timeout.unwrap_or(REQUEST_TIME);
    for request in server.incoming_requests() {
        let deadline = Instant::now().checked_add(limit);
        explorer.interp().limits_mut().deadline = deadline;
        let timed_out = || deadline.is_some_and(|d| Instant::now() >= d);
        let response = catch_unwind(AssertUnwindSafe(|| answer(&request, explorer, port, limit, timed_out)));
        let response = response.unwrap_or_else(|_| {
            json_response(500, &json!({"error": "internal error: the explorer failed on this request"}))
        });
        // A browser that went away is no reason to stop.
        let _ = request.respond(response);
        // What the demons printed while answering shows now, not when the buffer fills.
        let _ = explorer.interp().out.flush();
    }
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn answer(
    request: &Request,
    explorer: &mut Explorer,
    port: u16,
    limit: Duration,
    timed_out: impl Fn() -> bool,
) -> Reply {
    if !local_host(request, port) {
        return json_response(403, &json!({"error": "the explorer answers only requests for 127.0.0.1 or localhost"}));
    }
    if *request.method() != Method::Get {
        return json_response(405, &json!({"error": "the explorer answers GET requests only"}));
    }
    let (path, query) = request.url().split_once('?').unwrap_or((request.url(), ""));
    if let Some(api) = path.strip_prefix("/api/") {
        let (status, mut body) = super::api::reply(explorer, api, query);
        if status == 500 && timed_out() {
            let m = body["error"].as_str().unwrap_or_default();
            let why = format!(
                "the request ran past the explorer's limit of {} s a request (--timeout SECONDS sets it; \
                 the states explored so far are kept): {m}",
                limit.as_secs_f64()
            );
            body = json!({"error": why});
        }
        return json_response(status, &body);
    }
    match super::web::asset(path) {
        Some((bytes, kind)) => Response::from_data(bytes.to_vec()).with_header(header("Content-Type", kind)),
        None => json_response(404, &json!({"error": format!("no page {path}")})),
    }
}

/// Only requests addressed to this machine by name or number: a web page elsewhere cannot
/// reach the explorer through a name that it points at 127.0.0.1 (DNS rebinding).
fn local_host(request: &Request, port: u16) -> bool {
    let host = request.headers().iter().find(|h| h.field.equiv("Host")).map(|h| h.value.as_str());
    match host {
        Some(h) => ["127.0.0.1", "localhost"].iter().any(|name| h == *name || h == format!("{name}:{port}")),
        None => true,
    }
}

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn json_response(status: u16, v: &serde_json::Value) -> Reply {
    Response::from_data(v.to_string().into_bytes())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json; charset=utf-8"))
        .with_header(header("Cache-Control", "no-store"))
}

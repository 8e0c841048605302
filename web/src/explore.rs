//! The explorer in the page: an explore request runs the script as a run does, then opens the
//! core's `Explorer` on its session (`ds_core::explore::open`, as `ds explore` does) and keeps it,
//! so that later requests of the explorer's page are answered by the core's own API code
//! (`ds_core::explore::reply`), the same paths and JSON as `ds explore`'s server.

use crate::runner::{self, Request, Response, Sink};
use ds_core::explore::{Explorer, Names};
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::io::Write;
use web_time::{Duration, Instant};

/// What the Explore panel names: `ds explore`'s `--start`, `--next`, `--goal`, `--h`,
/// `--view` and `--max-states`.
#[derive(Debug, Clone)]
pub struct Exploring {
    pub names: Names,
    pub max_states: usize,
}

/// The explorer the last explore request opened, and each request's time limit.
struct Held {
    explorer: Explorer<'static>,
    timeout: Option<Duration>,
}

thread_local! {
    static HELD: RefCell<Option<Held>> = const { RefCell::new(None) };
}

/// Runs the script, then opens its explorer (replacing the one held before).
pub fn explore(request: Request, exploring: Exploring, sink: Sink) -> Response {
    HELD.with(|h| h.borrow_mut().take());
    let timeout = request.limits.timeout_ms.map(Duration::from_millis);
    let name = request.name.clone();
    let (mut response, session) = runner::run_keeping(request, sink);
    if response.status != "finished" {
        return response;
    }
    // The explorer borrows the session for as long as it answers. The page gives each explore
    // a fresh worker, so this session lives as long as the module that holds it, and no
    // longer.
    let session = Box::leak(Box::new(session));
    session.interp.limits_mut().deadline = deadline(timeout);
    match ds_core::explore::open(session, &name, &exploring.names, exploring.max_states) {
        Ok(mut explorer) => {
            let _ = explorer.interp().out.flush();
            HELD.with(|h| *h.borrow_mut() = Some(Held { explorer, timeout }));
            response.explorer = Some(json!({"ready": true}));
        }
        Err(message) => response.explorer = Some(json!({"error": message})),
    }
    response
}

/// The answer to an API request `path` (what follows `/api/`, with its query) as JSON:
/// `{"status": HTTP status, "body": the JSON ds explore's server sends}`.
pub fn api(path: &str) -> Json {
    let (api, query) = path.split_once('?').unwrap_or((path, ""));
    let (status, body) = HELD.with(|h| match h.borrow_mut().as_mut() {
        Some(held) => {
            held.explorer.interp().limits_mut().deadline = deadline(held.timeout);
            let reply = ds_core::explore::reply(&mut held.explorer, api, query);
            // What the demons printed while answering shows now.
            let _ = held.explorer.interp().out.flush();
            reply
        }
        None => (503, json!({"error": "nothing is being explored: press Explore in the playground"})),
    });
    json!({"status": status, "body": body})
}

fn deadline(timeout: Option<Duration>) -> Option<Instant> {
    timeout.and_then(|t| Instant::now().checked_add(t))
}

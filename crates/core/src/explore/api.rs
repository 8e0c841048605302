//! The explorer's JSON API by path (docs/explorer.md, "The API"): what `ds explore`'s server
//! answers over HTTP and the playground's worker answers in the page, from the same code.

use super::{Answer, ApiError, Explorer, REPLAY_STATES};
use serde_json::{json, Value as Json};

/// The answer to `/api/{api}?{query}` with its HTTP status: 200 and the JSON, or the error's
/// status and `{"error": text}`.
pub fn reply(explorer: &mut Explorer, api: &str, query: &str) -> (u16, Json) {
    match answer(explorer, api, query) {
        Ok(v) => (200, v),
        Err(ApiError::NotFound(m)) => (404, json!({"error": m})),
        Err(ApiError::BadRequest(m)) => (400, json!({"error": m})),
        Err(ApiError::Failed(m)) => (500, json!({"error": m})),
    }
}

fn answer(explorer: &mut Explorer, api: &str, query: &str) -> Answer {
    let id = |s: &str| s.parse::<u64>().map_err(|_| ApiError::BadRequest(format!("`{s}` is not a state id")));
    match api.split_once('/') {
        Some(("state", n)) => explorer.state(id(n)?),
        Some(("path", n)) => explorer.path(id(n)?),
        None if api == "stats" => explorer.stats(),
        None if api == "check" => explorer.check(),
        None if api == "search" => {
            let algorithm = param(query, "algorithm").unwrap_or("bfs");
            let max =
                match param(query, "max_states") {
                    Some(m) => m.parse::<usize>().ok().filter(|&m| m > 0).ok_or_else(|| {
                        ApiError::BadRequest(format!("max_states must be a whole number > 0, not `{m}`"))
                    })?,
                    None => REPLAY_STATES,
                };
            explorer.search(algorithm, max)
        }
        _ => Err(ApiError::NotFound(format!(
            "no API /api/{api}: the API is /api/state/ID, /api/path/ID, /api/stats, /api/search?algorithm=NAME, /api/check"
        ))),
    }
}

/// The value of `name=value` in a query (the API's values are plain words and numbers).
fn param<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query.split('&').filter_map(|kv| kv.split_once('=')).find(|(k, _)| *k == name).map(|(_, v)| v)
}

//! The live line of a long search in the notebook (`search::progress`): a `display_data` of
//! its own, replaced in place (`update_display_data`, by its `display_id`) at most twice a
//! second, and emptied when the search ends, as the command line's line on a terminal is
//! cleared.

use super::server::Event;
use ds_core::search::progress::{Paced, StatusLine};
use serde_json::json;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use tokio::sync::mpsc::UnboundedSender;

/// Where the lines go: the kernel's events (one runner per kernel process). A plain function
/// makes the lines (`Interp::status_line`), so it finds them here.
static EVENTS: OnceLock<Mutex<Option<UnboundedSender<Event>>>> = OnceLock::new();

/// Numbers the lines' display ids.
static LINES: AtomicU64 = AtomicU64::new(0);

/// Sends the search lines of this process to `events`.
pub fn install(events: UnboundedSender<Event>) {
    let slot = EVENTS.get_or_init(|| Mutex::new(None));
    *slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(events);
}

/// A line in the running cell's output (`Interp::status_line`).
pub fn in_notebook() -> Option<Box<dyn StatusLine>> {
    let events = EVENTS.get()?.lock().unwrap_or_else(|p| p.into_inner()).clone()?;
    let id = format!("ds-search-{}-{}", std::process::id(), LINES.fetch_add(1, Ordering::Relaxed));
    let mut shown = false;
    Some(Box::new(Paced::new(move |text: &str| {
        let kind = if shown { "update_display_data" } else { "display_data" };
        shown = true;
        let content = json!({
            "data": { "text/plain": text },
            "metadata": {},
            "transient": { "display_id": id },
        });
        let _ = events.send(Event::Iopub(kind, content));
        true
    })))
}

//! The live line of a long search in the notebook (`search::progress`): a `display_data` of
//! its own, replaced in place (`update_display_data`, by its `display_id`) at most twice a
//! second, and emptied when the search ends, as the command line's line on a terminal is
//! cleared. `search_line` makes those messages for `ds kernel` and for the kernel in the
//! browser (web/src/status.rs); `install` and `in_notebook` send them on `ds kernel`'s iopub.

use ds_core::search::progress::{Paced, StatusLine};
use serde_json::{json, Value as Json};

/// A search's line under `display_id`: `post(msg_type, content)` sends one message (the
/// first a `display_data`, the next ones its `update_display_data`) and says whether it went.
pub fn search_line(
    display_id: String,
    mut post: impl FnMut(&'static str, Json) -> bool + 'static,
) -> Box<dyn StatusLine> {
    let mut shown = false;
    Box::new(Paced::new(move |text: &str| {
        let kind = if shown { "update_display_data" } else { "display_data" };
        let content = json!({
            "data": { "text/plain": text },
            "metadata": {},
            "transient": { "display_id": display_id },
        });
        let sent = post(kind, content);
        shown |= sent;
        sent
    }))
}

#[cfg(feature = "server")]
mod iopub {
    use crate::server::Event;
    use ds_core::search::progress::StatusLine;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::{Mutex, OnceLock};
    use tokio::sync::mpsc::UnboundedSender;

    /// Where the lines go: the kernel's events (one runner per kernel process). A plain
    /// function makes the lines (`Interp::status_line`), so it finds them here.
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
        Some(super::search_line(id, move |kind, content| {
            let _ = events.send(Event::Iopub(kind, content));
            true
        }))
    }
}

#[cfg(feature = "server")]
pub(crate) use iopub::{in_notebook, install};

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;
    use std::rc::Rc;

    #[test]
    fn the_line_is_one_display_replaced_in_place_then_emptied() {
        let sent: Rc<RefCell<Vec<(&str, Json)>>> = Rc::default();
        let log = sent.clone();
        let mut line = search_line("ds-search-7".into(), move |kind, content| {
            log.borrow_mut().push((kind, content));
            true
        });
        line.show("10 states".into());
        line.show("20 states".into()); // within half a second of the first: not sent
        line.clear();
        let sent = sent.borrow();
        let kinds: Vec<&str> = sent.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ["display_data", "update_display_data"]);
        assert_eq!(sent[0].1["data"]["text/plain"], "search: 10 states");
        assert_eq!(sent[1].1["data"]["text/plain"], "");
        assert!(sent.iter().all(|(_, c)| c["transient"]["display_id"] == "ds-search-7"));
    }
}

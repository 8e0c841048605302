//! The live line of a long search in the playground (`search::progress`): posted to the page
//! as the stream "status" at most twice a second (`Paced`), and as "" when the search ends; the page
//! shows it beside Run and Stop. In a notebook cell (`in_cell`), the stream "status" carries
//! `ds kernel`'s messages for the line instead. A plain function makes the lines
//! (`Interp::status_line`), so the run's sink waits here while the run lasts (the engine has
//! one thread).

use crate::runner::{Sink, Stream};
use ds_core::search::progress::{Paced, StatusLine};
use std::cell::{Cell, RefCell};

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
    /// Numbers the notebook's lines.
    static LINES: Cell<u64> = const { Cell::new(0) };
    /// When this engine started (ms since 1970): a fresh worker (after an interrupt or a
    /// restart) numbers its lines from 0 again, and the page still holds the old lines' ids.
    static STARTED: u128 = web_time::SystemTime::now()
        .duration_since(web_time::SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
}

/// Posts the search lines of the run under way to `sink`, until the guard goes.
pub fn posting_to(sink: Sink) -> Posting {
    SINK.with(|s| *s.borrow_mut() = Some(sink));
    Posting
}

/// While it lives, search lines go to the run's sink.
pub struct Posting;

impl Drop for Posting {
    fn drop(&mut self) {
        SINK.with(|s| *s.borrow_mut() = None);
    }
}

/// A line on the page (`Interp::status_line`), while a run posts them.
pub fn on_page() -> Option<Box<dyn StatusLine>> {
    let sink = SINK.with(|s| s.borrow().clone())?;
    // (a sink busy with a chunk of output is not called again: the line waits its turn)
    Some(Box::new(Paced::new(move |text: &str| match sink.try_borrow_mut() {
        Ok(mut sink) => {
            sink(Stream::Status, text);
            true
        }
        Err(_) => false,
    })))
}

/// A line in the running notebook cell (`Interp::status_line` of `notebook`): the
/// `display_data`, then `update_display_data`, messages of `ds kernel`'s line
/// (`ds_kernel::progress::search_line`), each posted as the stream "status" in JSON,
/// `{"msg_type", "content"}`.
pub fn in_cell() -> Option<Box<dyn StatusLine>> {
    let sink = SINK.with(|s| s.borrow().clone())?;
    let n = LINES.with(|l| l.replace(l.get() + 1));
    let id = format!("ds-search-{}-{n}", STARTED.with(|s| *s));
    Some(ds_kernel::progress::search_line(id, move |kind, content| match sink.try_borrow_mut() {
        Ok(mut sink) => {
            sink(Stream::Status, &serde_json::json!({ "msg_type": kind, "content": content }).to_string());
            true
        }
        Err(_) => false,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    #[test]
    fn a_line_is_posted_while_a_run_posts_them_and_cleared() {
        let seen: Rc<RefCell<Vec<(Stream, String)>>> = Rc::default();
        let log = seen.clone();
        let sink: Sink = Rc::new(RefCell::new(move |s: Stream, t: &str| log.borrow_mut().push((s, t.to_string()))));
        assert!(on_page().is_none(), "no run: no line");
        let posting = posting_to(sink);
        let mut line = on_page().expect("a line during the run");
        line.show("10 states".into());
        line.show("20 states".into());
        line.clear();
        drop(posting);
        assert!(on_page().is_none(), "the run is over");
        let seen = seen.borrow();
        assert_eq!(
            *seen,
            [(Stream::Status, "search: 10 states".to_string()), (Stream::Status, String::new())],
            "the second line came within half a second of the first"
        );
    }
}

//! A long regular-expression search on a thread of its own, where the host lends threads
//! (`Interp::spawn`; a browser has none): the interpreter waits and watches Ctrl-C and `--timeout`. If those come first, the script stops
//! with the usual error and the worker is told to stop between matches and left to finish on
//! its own (a single search cannot be cut short).

use crate::eval::{fail, Interp, R};
use crate::value::Str;
use ds_syntax::Span;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// Runs `work` with `re` over `text` on a thread of its own, within the interpreter's limits.
pub fn run<T: Send + 'static>(
    it: &mut Interp,
    re: regex::Regex,
    text: Str,
    span: Span,
    work: impl FnOnce(&regex::Regex, &str, &AtomicBool) -> T + Send + 'static,
) -> R<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::channel();
    let flag = cancel.clone();
    let job = Box::new(move || {
        let _ = tx.send(work(&re, &text, &flag));
    });
    let spawned = match &it.spawn {
        Some(spawn) => spawn.spawn("ds-regex".into(), 0, job),
        None => Err(std::io::Error::other("the host has no threads")),
    };
    if let Err(e) = spawned {
        return fail(span, format!("cannot start a thread for a long regular-expression search: {e}"));
    }
    let watch = it.meter();
    loop {
        match rx.recv_timeout(Duration::from_millis(10)) {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Timeout) if watch.exhausted() => {
                cancel.store(true, Ordering::Relaxed);
                watch.check(span)?;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return fail(span, "the regular-expression search failed");
            }
        }
    }
}

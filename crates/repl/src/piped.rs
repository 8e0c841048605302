//! Entries read line by line from a pipe or file: no prompts, no echo of the input, so that a
//! session can be scripted. The exit status is 1 if any entry failed, the status given to
//! `System.exit` if one called it, or 128 + the signal that stopped an entry.

use super::{show, Backend, EntryBuffer, Interrupter, Reply};
use std::io::BufRead;

pub fn run(backend: &mut Backend, mut input: impl BufRead, interrupter: &Interrupter) -> u8 {
    let mut entry = EntryBuffer::default();
    let mut status = 0;
    let mut line = Vec::new();
    let mut number = 0;
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                ds_base::eprintln_safe!("error: cannot read standard input: {e}");
                return 1;
            }
        }
        number += 1;
        let Ok(text) = std::str::from_utf8(&line) else {
            // One bad byte must not end the session: the entry it was part of is dropped.
            ds_base::eprintln_safe!("error: line {number} of the input is not UTF-8 text; the entry is dropped");
            entry.take();
            status = 1;
            continue;
        };
        let text = text.strip_suffix('\n').unwrap_or(text);
        let Some(text) = entry.push_line(text.strip_suffix('\r').unwrap_or(text)) else { continue };
        let reply = interrupter.busy(|| backend.eval(&text));
        if let Some(end) = finish(&reply, &mut status, interrupter) {
            return end;
        }
    }
    // Input ended inside an entry: run it anyway, so its error is reported.
    if !entry.is_empty() {
        let reply = interrupter.busy(|| backend.eval(&entry.take()));
        if let Some(end) = finish(&reply, &mut status, interrupter) {
            return end;
        }
    }
    status
}

/// Shows an entry's reply and folds it into the status; the exit status when the session
/// ends with it (`:quit`, `System.exit`, SIGTERM or SIGHUP).
pub(super) fn finish(reply: &Reply, status: &mut u8, interrupter: &Interrupter) -> Option<u8> {
    show(reply);
    *status |= u8::from(reply.failed());
    if let Some(sig) = interrupter.ending_signal() {
        return Some(128 + sig as u8);
    }
    match reply.exit {
        Some(code) => Some(code.clamp(0, 255) as u8),
        None => reply.quit.then_some(*status),
    }
}

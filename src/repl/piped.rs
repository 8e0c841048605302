//! Entries read line by line from a pipe or file: no prompts, no echo of the input, so that a
//! session can be scripted. The exit status is 1 if any entry failed.

use super::{show, Backend, EntryBuffer, Interrupter};
use std::io::BufRead;

pub fn run(backend: &mut Backend, input: impl BufRead, interrupter: &Interrupter) -> u8 {
    let mut entry = EntryBuffer::default();
    let mut status = 0;
    for line in input.lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                crate::eprintln_safe!("error: cannot read standard input: {e}");
                return 1;
            }
        };
        let Some(text) = entry.push_line(&line) else { continue };
        let reply = interrupter.busy(|| backend.eval(&text));
        show(&reply);
        status |= u8::from(reply.failed());
        if reply.quit {
            return status;
        }
    }
    // Input ended inside an entry: run it anyway, so its error is reported.
    if !entry.is_empty() {
        let reply = interrupter.busy(|| backend.eval(&entry.take()));
        show(&reply);
        status |= u8::from(reply.failed());
    }
    status
}

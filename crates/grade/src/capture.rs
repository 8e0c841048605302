//! What the student's program prints, kept (up to a cap) to show in the report.

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

/// Output kept for the report: more than this is cut, with a note.
const MAX_KEPT: usize = 16 * 1024;

/// A writer that keeps the first `MAX_KEPT` bytes written to it and counts the rest.
#[derive(Clone, Default)]
pub struct Captured(Rc<RefCell<(Vec<u8>, usize)>>);

impl Captured {
    /// What was written since the last call, and how many bytes were cut.
    pub fn take(&self) -> (String, usize) {
        let (kept, cut) = std::mem::take(&mut *self.0.borrow_mut());
        (String::from_utf8_lossy(&kept).into_owned(), cut)
    }
}

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut inner = self.0.borrow_mut();
        let room = MAX_KEPT.saturating_sub(inner.0.len()).min(buf.len());
        inner.0.extend_from_slice(&buf[..room]);
        inner.1 += buf.len() - room;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

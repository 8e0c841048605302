//! The cap on what one cell prints, its text and its drawings together: the same in `ds kernel`
//! and in the kernel in the browser (web/src/notebook.rs).

/// What one cell may print before the rest is dropped.
pub const MAX_CELL_OUTPUT: usize = 1 << 20;

/// The bytes one cell has printed on a stream, shown or not.
#[derive(Default)]
pub struct OutputCap {
    written: usize,
}

impl OutputCap {
    /// Counts `bytes` of output; whether they are all within the cell's cap (a drawing is
    /// shown whole or not at all).
    pub fn admit(&mut self, bytes: usize) -> bool {
        self.shown(bytes) == bytes
    }

    /// Counts `bytes` of text; how many of them, from the start, are within the cap.
    pub fn shown(&mut self, bytes: usize) -> usize {
        let room = MAX_CELL_OUTPUT.saturating_sub(self.written);
        self.written = self.written.saturating_add(bytes);
        bytes.min(room)
    }

    /// Ends a cell: the note to print when output was dropped, and a fresh count.
    pub fn end(&mut self) -> Option<String> {
        let over = std::mem::take(&mut self.written).checked_sub(MAX_CELL_OUTPUT).filter(|&n| n > 0)?;
        Some(format!(
            "\n[ds kernel: output cut after {MAX_CELL_OUTPUT} bytes (text and drawings); {over} more bytes not shown]\n"
        ))
    }
}

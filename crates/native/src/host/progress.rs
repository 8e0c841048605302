//! The live line of a long search on standard error (`search::progress`), drawn by indicatif:
//! only when standard error is a terminal.

use ds_core::search::progress::StatusLine;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

struct Terminal(ProgressBar);

impl StatusLine for Terminal {
    fn show(&mut self, text: String) {
        self.0.set_message(text);
    }
    fn clear(&mut self) {
        self.0.finish_and_clear();
    }
}

/// The line on standard error, if it is a terminal (`Interp::status_line`).
pub fn on_terminal() -> Option<Box<dyn StatusLine>> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
    bar.set_style(ProgressStyle::with_template("search: {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()));
    Some(Box::new(Terminal(bar)))
}

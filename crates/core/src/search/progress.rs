//! How far a long search is, for a host that can show it while the search runs (the command
//! line draws it on a terminal: `ds_native::host::progress`). Shown only once the search has run for a
//! second, and never where the host shows nothing (piped output, tests, the playground).

use super::store::StateStore;
use super::Counts;
pub use crate::hooks::{StatusLine, StatusLineMaker};
use web_time::{Duration, Instant};

/// How long a search runs before the line appears.
const QUIET_FOR: Duration = Duration::from_secs(1);

pub struct Progress {
    started: Instant,
    make: Option<StatusLineMaker>,
    line: Option<Box<dyn StatusLine>>,
    calls: u32,
}

impl Progress {
    pub fn new(make: Option<StatusLineMaker>) -> Progress {
        Progress { started: Instant::now(), make, line: None, calls: 0 }
    }

    /// Called on every expansion; looks at the clock every 256th.
    pub fn update(&mut self, counts: &Counts, store: &StateStore) {
        self.calls = self.calls.wrapping_add(1);
        if !self.calls.is_multiple_of(256) {
            return;
        }
        let Some(make) = self.make else { return };
        let elapsed = self.started.elapsed();
        if elapsed < QUIET_FOR {
            return;
        }
        if self.line.is_none() {
            self.line = make();
            if self.line.is_none() {
                self.make = None;
                return;
            }
        }
        let rate = store.len() as f64 / elapsed.as_secs_f64().max(1e-9);
        let text = format!(
            "{} states, frontier {}, depth {}, {:.0} states/s",
            store.len(),
            counts.frontier,
            counts.depth,
            rate
        );
        if let Some(line) = self.line.as_mut() {
            line.show(text);
        }
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if let Some(mut line) = self.line.take() {
            line.clear();
        }
    }
}

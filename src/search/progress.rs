//! The live line of a long search on standard error: states, frontier, depth, states per second.
//! Only when standard error is a terminal, and only once the search has run for a second: never
//! in piped output or tests.

use super::store::StateStore;
use super::Counts;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long a search runs before the line appears.
const QUIET_FOR: Duration = Duration::from_secs(1);

pub struct Progress {
    started: Instant,
    /// Whether a line may be shown at all (standard error is a terminal).
    enabled: bool,
    bar: Option<ProgressBar>,
    calls: u32,
}

impl Default for Progress {
    fn default() -> Self {
        Progress::new()
    }
}

impl Progress {
    pub fn new() -> Progress {
        Progress { started: Instant::now(), enabled: std::io::stderr().is_terminal(), bar: None, calls: 0 }
    }

    /// Called on every expansion; looks at the clock every 256th.
    pub fn update(&mut self, counts: &Counts, store: &StateStore) {
        self.calls = self.calls.wrapping_add(1);
        if !self.enabled || !self.calls.is_multiple_of(256) {
            return;
        }
        let elapsed = self.started.elapsed();
        if elapsed < QUIET_FOR {
            return;
        }
        let bar = self.bar.get_or_insert_with(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(4));
            bar.set_style(
                ProgressStyle::with_template("search: {msg}").unwrap_or_else(|_| ProgressStyle::default_spinner()),
            );
            bar
        });
        let rate = store.len() as f64 / elapsed.as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "{} states, frontier {}, depth {}, {:.0} states/s",
            store.len(),
            counts.frontier,
            counts.depth,
            rate
        ));
    }

    /// Clears the line.
    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

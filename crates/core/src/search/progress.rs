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
    /// The heap in use when the search started, to tell how fast the search fills it.
    heap_at_start: usize,
    make: Option<StatusLineMaker>,
    line: Option<Box<dyn StatusLine>>,
    calls: u32,
}

impl Progress {
    pub fn new(make: Option<StatusLineMaker>) -> Progress {
        let heap_at_start = ds_base::guard::memory::used();
        Progress { started: Instant::now(), heap_at_start, make, line: None, calls: 0 }
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
        let heap = Heap {
            used: ds_base::guard::memory::used(),
            at_start: self.heap_at_start,
            limit: ds_base::guard::memory::limit(),
        };
        let text = line_text(counts, store.len(), store.memory(), elapsed.as_secs_f64(), heap);
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

/// The least time between two lines that `Paced` sends.
pub const PACE: Duration = Duration::from_millis(500);

/// A status line for a front end that draws each line it is sent (a notebook's cell, the
/// playground's page), where a terminal's is redrawn in place: a line at most every `PACE`
/// (a search asks for one every 256 expansions), and "" once at the end if one was sent.
/// `post` sends a line and says whether it went.
pub struct Paced<F> {
    post: F,
    /// When a line last went (None: none yet).
    shown: Option<Instant>,
}

impl<F: FnMut(&str) -> bool> Paced<F> {
    pub fn new(post: F) -> Paced<F> {
        Paced { post, shown: None }
    }
}

impl<F: FnMut(&str) -> bool> StatusLine for Paced<F> {
    fn show(&mut self, text: String) {
        if self.shown.is_none_or(|at| at.elapsed() >= PACE) && (self.post)(&format!("search: {text}")) {
            self.shown = Some(Instant::now());
        }
    }

    fn clear(&mut self) {
        if self.shown.is_some() {
            (self.post)("");
        }
    }
}

/// The heap's use now and when the search started, and its limit.
#[derive(Clone, Copy)]
struct Heap {
    used: usize,
    at_start: usize,
    limit: Option<usize>,
}

/// The progress line: states, frontier, depth, states per second, the store's bytes per state
/// and, when the heap grows towards a limit, how long until the search reaches it at this pace.
fn line_text(counts: &Counts, states: usize, store_bytes: usize, seconds: f64, heap: Heap) -> String {
    let seconds = seconds.max(1e-9);
    let mut text = format!(
        "{states} states, frontier {}, depth {}, {:.0} states/s, {:.1} bytes/state",
        counts.frontier,
        counts.depth,
        states as f64 / seconds,
        store_bytes as f64 / states.max(1) as f64
    );
    let growth = heap.used.saturating_sub(heap.at_start) as f64 / seconds;
    if let Some(limit) = heap.limit.filter(|_| growth > 0.0) {
        let left = limit.saturating_sub(heap.used) as f64 / growth;
        text.push_str(&format!(", memory limit in {}", duration_text(left)));
    }
    text
}

/// Seconds as `45 s`, `12 min` or `3.5 h`.
fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 90.0 => format!("{s:.0} s"),
        s if s < 90.0 * 60.0 => format!("{:.0} min", s / 60.0),
        s => format!("{:.1} h", s / 3600.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_tells_bytes_per_state_and_the_time_left_before_the_memory_limit() {
        let counts = Counts { frontier: 40, depth: 7, ..Counts::default() };
        // 1,000 states in 2 s in a store of 64,000 bytes; the heap grew 100 MB in those 2 s
        // and has 1,000 MB left: 20 s at 50 MB/s
        let heap = Heap { used: 300 << 20, at_start: 200 << 20, limit: Some(1300 << 20) };
        assert_eq!(
            line_text(&counts, 1000, 64_000, 2.0, heap),
            "1000 states, frontier 40, depth 7, 500 states/s, 64.0 bytes/state, memory limit in 20 s"
        );
        let no_limit = Heap { limit: None, ..heap };
        assert!(line_text(&counts, 1000, 64_000, 2.0, no_limit).ends_with("64.0 bytes/state"));
        let not_growing = Heap { used: 200 << 20, ..heap };
        assert!(line_text(&counts, 1000, 64_000, 2.0, not_growing).ends_with("64.0 bytes/state"));
        assert_eq!([duration_text(45.0), duration_text(720.0), duration_text(12_600.0)], ["45 s", "12 min", "3.5 h"]);
    }
}

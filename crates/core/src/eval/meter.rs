//! Work done outside the evaluator's loop — inference, model search, isomorphism checks,
//! regular expressions — counted against the limits: such a computation can run far longer
//! than any single step of the script, so it asks its `Meter` now and then whether to give up
//! (Ctrl-C, `--timeout`, or the steps left under `--max-steps`), and its work is added to the
//! script's steps when it is done.

use super::{Flow, Interp, R};
use ds_base::diagnostics::{Diagnostic, Limit};
use ds_syntax::Span;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use web_time::Instant;

/// The error a limit raises, marked as such (`Diagnostic::limit`).
pub fn limit_error<T>(span: Span, limit: Limit, max_steps: Option<u64>) -> R<T> {
    let message = match limit {
        Limit::Interrupt => match ds_base::guard::interrupt::received() {
            Some(sig) => format!("interrupted ({})", ds_base::guard::interrupt::name(sig)),
            None => "interrupted".to_string(),
        },
        Limit::Memory => ds_base::guard::memory::limit_message(),
        Limit::Timeout => "time limit reached (--timeout)".to_string(),
        Limit::Steps => format!("step limit of {} reached (--max-steps)", max_steps.unwrap_or(0)),
    };
    let mut d = Diagnostic::error(span, message);
    d.runtime = true;
    d.limit = Some(limit);
    Err(Flow::Error(Box::new(d)))
}

/// A shared counter of work with the limits that apply to it. Cloning shares the counter.
#[derive(Clone)]
pub struct Meter(Rc<Inner>);

struct Inner {
    used: Cell<u64>,
    /// The steps left under `--max-steps` when the meter was made.
    budget: Option<u64>,
    max_steps: Option<u64>,
    deadline: Option<Instant>,
    interrupt: Arc<AtomicBool>,
}

impl Meter {
    /// Counts `n` units of work (a unit is about as costly as a step of the script).
    pub fn add(&self, n: u64) {
        self.0.used.set(self.0.used.get().saturating_add(n));
    }

    pub fn used(&self) -> u64 {
        self.0.used.get()
    }

    /// Whether the computation should give up: Ctrl-C was pressed, the deadline passed, the
    /// steps are used up or the heap is over `--max-memory`. Leaves the interrupt flag for
    /// `check` to report.
    pub fn exhausted(&self) -> bool {
        let m = &self.0;
        m.budget.is_some_and(|b| m.used.get() > b)
            || m.interrupt.load(Ordering::Relaxed)
            || ds_base::guard::memory::exceeded()
            || m.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Counts `n` units of work and says whether to give up, asking the clock only when the
    /// count passes a multiple of 65,536 (so a loop can call it on every item).
    pub fn tick(&self, n: u64) -> bool {
        let before = self.0.used.get();
        self.add(n);
        (before >> 16 != self.0.used.get() >> 16 && self.exhausted())
            || ds_base::guard::memory::exceeded()
            || self.0.budget.is_some_and(|b| self.0.used.get() > b)
    }

    /// The error that ends the script when the computation must give up.
    pub fn check(&self, span: Span) -> R<()> {
        let m = &self.0;
        if m.interrupt.swap(false, Ordering::Relaxed) {
            return limit_error(span, Limit::Interrupt, None);
        }
        if ds_base::guard::memory::exceeded() {
            return limit_error(span, Limit::Memory, None);
        }
        if m.deadline.is_some_and(|d| Instant::now() >= d) {
            return limit_error(span, Limit::Timeout, None);
        }
        if let Some(b) = m.budget {
            if m.used.get() > b {
                return limit_error(span, Limit::Steps, m.max_steps);
            }
        }
        Ok(())
    }
}

impl Interp {
    /// A meter for a long computation starting now, with the steps left.
    pub fn meter(&self) -> Meter {
        Meter(Rc::new(Inner {
            used: Cell::new(0),
            budget: self.limits.step_limit().map(|m| m.saturating_sub(self.steps)),
            max_steps: self.limits.max_steps,
            deadline: self.limits.deadline,
            interrupt: self.interrupt.clone(),
        }))
    }

    /// Adds the work a meter counted to the script's steps and enforces the limits in force
    /// now, not the meter's copy of them: the script may have run between the meter's making
    /// and its charge (`out Search.bfs(...)` evaluates the search inside the line's text), and
    /// a search stopped by a limit extends the deadline (`grant_grace`).
    pub fn charge(&mut self, meter: &Meter, span: Span) -> R<()> {
        self.steps = self.steps.saturating_add(meter.used());
        self.check_limits(span)
    }

    /// The limit the run has reached, if any, without raising it: for computations that stop
    /// cleanly (a search). Takes the Ctrl-C flag when it reports it.
    pub fn limit_reached(&self) -> Option<Limit> {
        if self.interrupt.swap(false, Ordering::Relaxed) {
            return Some(Limit::Interrupt);
        }
        if ds_base::guard::memory::exceeded() {
            return Some(Limit::Memory);
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some(Limit::Timeout);
        }
        if self.limits.step_limit().is_some_and(|max| self.steps > max) {
            return Some(Limit::Steps);
        }
        None
    }

    /// Before a built-in makes `items` values of `item_bytes` each in one go (`range`, `copy`,
    /// `repeat` ...): refused when they would not fit under `--max-memory`, and counted as
    /// work (sixteen items to a step), so that the limits see such a call coming.
    pub fn bulk(&mut self, items: usize, item_bytes: usize, span: Span) -> R<()> {
        if !ds_base::guard::memory::room_for(items.saturating_mul(item_bytes)) {
            return limit_error(span, Limit::Memory, None);
        }
        self.work(items as u64 / 16, span)
    }

    /// When a built-in reads or makes `bytes` of text (a search, a copy, a change of case):
    /// counted as work, sixteen bytes to a step, so that a loop over a 100 MB string is not a
    /// step per call. Texts under 4 KB are not worth the count.
    pub fn text_work(&mut self, bytes: usize, span: Span) -> R<()> {
        if uncounted_text(bytes) {
            return Ok(());
        }
        self.work(bytes as u64 / 16, span)
    }

    /// Counts work done outside the evaluator as steps (a search's own bookkeeping).
    /// The steps counted so far.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub fn add_steps(&mut self, n: u64) {
        self.steps = self.steps.saturating_add(n);
    }

    /// Sets the steps counted (a search on several processes counts each expansion once, at
    /// its commit, whichever process made it).
    pub fn set_steps(&mut self, n: u64) {
        self.steps = n;
        self.next_check = 0;
    }

    /// After a search stopped cleanly on `--timeout` or `--max-steps`, the script gets once a
    /// little more (one second, 100,000 steps) to report what it found; then the limit ends
    /// the run as usual. Ctrl-C needs none: the next Ctrl-C stops the script.
    pub fn grant_grace(&mut self, limit: Limit) {
        if matches!(limit, Limit::Timeout | Limit::Steps) {
            self.limits.search_stopped.get_or_insert(limit);
        }
        if self.limits.grace_used {
            return;
        }
        match limit {
            Limit::Timeout => self.limits.deadline = Some(Instant::now() + std::time::Duration::from_secs(1)),
            Limit::Steps => {
                let max = self.limits.max_steps.unwrap_or(0);
                self.limits.step_grace = self.steps.saturating_sub(max).saturating_add(100_000);
            }
            Limit::Interrupt | Limit::Memory => return,
        }
        self.limits.grace_used = true;
    }
}

/// Whether `bytes` of text are too few to count as work (`Interp::text_work`).
#[inline(always)]
pub(crate) fn uncounted_text(bytes: usize) -> bool {
    bytes < 4096
}

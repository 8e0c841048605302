//! Work done outside the evaluator's loop — inference, model search, isomorphism checks,
//! regular expressions — counted against the limits: such a computation can run far longer
//! than any single step of the script, so it asks its `Meter` now and then whether to give up
//! (Ctrl-C, `--timeout`, or the steps left under `--max-steps`), and its work is added to the
//! script's steps when it is done.

use super::{fail, Interp, R};
use crate::syntax::Span;
use std::cell::Cell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

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

    /// Whether the computation should give up: Ctrl-C was pressed, the deadline passed, or the
    /// steps are used up. Leaves the interrupt flag for `check` to report.
    pub fn exhausted(&self) -> bool {
        let m = &self.0;
        m.budget.is_some_and(|b| m.used.get() > b)
            || m.interrupt.load(Ordering::Relaxed)
            || m.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The error that ends the script when the computation must give up.
    pub fn check(&self, span: Span) -> R<()> {
        let m = &self.0;
        if m.interrupt.swap(false, Ordering::Relaxed) {
            return fail(span, "interrupted");
        }
        if m.deadline.is_some_and(|d| Instant::now() >= d) {
            return fail(span, "time limit reached (--timeout)");
        }
        if let (Some(b), Some(max)) = (m.budget, m.max_steps) {
            if m.used.get() > b {
                return fail(span, format!("step limit of {max} reached (--max-steps)"));
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
            budget: self.limits.max_steps.map(|m| m.saturating_sub(self.steps)),
            max_steps: self.limits.max_steps,
            deadline: self.limits.deadline,
            interrupt: self.interrupt.clone(),
        }))
    }

    /// Adds the work a meter counted to the script's steps (and enforces the limits).
    pub fn charge(&mut self, meter: &Meter, span: Span) -> R<()> {
        self.steps = self.steps.saturating_add(meter.used());
        meter.check(span)?;
        if let Some(max) = self.limits.max_steps {
            if self.steps > max {
                return fail(span, format!("step limit of {max} reached (--max-steps)"));
            }
        }
        Ok(())
    }
}

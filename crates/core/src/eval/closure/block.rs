//! Blocks of statements and `while` loops. A block runs its statements from a slice of `Line`s
//! in one loop, and a `while` runs its body's lines itself: a statement that sets a variable to
//! a number (`X = v`, `X op= v`, `X++` with a number closure for the value) is run in that loop,
//! not through a closure of its own, so a loop body of such statements costs what the same
//! statement costs as the whole body of a `for ... in range(...)` (issue 43, the `count` cliff).
//! Each statement still counts its step first, at its own place, as every statement does.

use super::expr::Test;
use super::num::Update;
use super::{stmt_line, StFn};
use crate::compile::ir::{Ex, Slot, St};
use crate::eval::{Flow, Interp, R};
use crate::value::Value;
use ds_syntax::Span;

/// A statement as a block runs it.
pub(super) enum Line {
    Number(SetNum),
    Any(StFn),
}

/// A variable set to a number that `number` works out without side effects when the variables
/// it reads hold numbers; `other` does the statement the general way when they do not, its
/// step already counted.
pub(super) struct SetNum {
    slot: Slot,
    span: Span,
    number: Update,
    other: StFn,
}

impl SetNum {
    #[inline(always)]
    fn run(&self, it: &mut Interp) -> R<()> {
        it.tick(self.span)?;
        if self.stored(it) {
            return Ok(());
        }
        (self.other)(it)
    }

    /// Stores the number when the variables read hold numbers (false: they do not, and
    /// nothing was done).
    #[inline(always)]
    fn stored(&self, it: &mut Interp) -> bool {
        match &self.number {
            Update::Add(n) => match it.slot_mut(self.slot) {
                Value::Num(x) => *x += n,
                _ => return false,
            },
            Update::Of(f) => match f(it) {
                Some(x) => it.set_num(self.slot, x),
                None => return false,
            },
        }
        true
    }
}

impl Line {
    #[inline(always)]
    fn run(&self, it: &mut Interp) -> R<()> {
        match self {
            Line::Number(s) => s.run(it),
            Line::Any(f) => f(it),
        }
    }

    /// A statement at `span` that sets the variable at `slot`: by `number` when it gives a
    /// number, else by `other`, after the statement's step.
    pub(super) fn counted(slot: Slot, span: Span, number: Option<Update>, other: StFn) -> Line {
        match number {
            Some(number) => Line::Number(SetNum { slot, span, number, other }),
            None => Line::Any(Box::new(move |it| {
                it.tick(span)?;
                other(it)
            })),
        }
    }

    /// The statement as a closure of its own.
    pub(super) fn into_fn(self) -> StFn {
        match self {
            Line::Number(s) => Box::new(move |it| s.run(it)),
            Line::Any(f) => f,
        }
    }
}

/// Runs the lines in order until one does not finish normally.
#[inline(always)]
fn run_lines(lines: &[Line], it: &mut Interp) -> R<()> {
    for line in lines {
        line.run(it)?;
    }
    Ok(())
}

/// A statement list, run in order until one does not finish normally.
pub(super) fn block(stmts: &[St], depth: u32) -> StFn {
    match stmts {
        [] => Box::new(|_| Ok(())),
        [a] => stmt_line(a, depth).into_fn(),
        _ => {
            let lines = lines(stmts, depth);
            Box::new(move |it| run_lines(&lines, it))
        }
    }
}

fn lines(stmts: &[St], depth: u32) -> Box<[Line]> {
    stmts.iter().map(|s| stmt_line(s, depth)).collect()
}

/// `while C { ... }`: a step at the start and one after each pass, the body's lines run here.
pub(super) fn while_loop(cond: &Ex, body: &[St], span: Span, depth: u32) -> StFn {
    let (test, body) = (Test::new(cond, depth), lines(body, depth));
    let numbers = body.iter().all(|l| matches!(l, Line::Number(_)));
    // The steps of a pass: its statements' and the one after it.
    let steps = body.len() as u64 + 1;
    Box::new(move |it| {
        it.tick(span)?;
        while test.holds(it)? {
            let go_on =
                if numbers && it.steps_free(steps) { numbers_pass(&body, span, it)? } else { pass(&body, span, it)? };
            if !go_on {
                break;
            }
        }
        Ok(())
    })
}

/// A pass of the loop's body and the step after it: false on `break`.
#[inline(always)]
fn pass(body: &[Line], span: Span, it: &mut Interp) -> R<bool> {
    let done = run_lines(body, it);
    end_of_pass(done, span, it)
}

/// After a pass that ended with `done`: the step after it, false on `break`.
#[inline(always)]
fn end_of_pass(done: R<()>, span: Span, it: &mut Interp) -> R<bool> {
    match done {
        Ok(()) | Err(Flow::Continue) => it.tick(span).map(|()| true),
        Err(Flow::Break) => Ok(false),
        Err(e) => Err(e),
    }
}

/// `pass` of a body of `SetNum` lines when none of its steps is due a check of the limits
/// (`Interp::steps_free`): the steps are counted together at the end. A line whose variables
/// hold no numbers goes the general way with the steps up to its own counted, and the rest of
/// the pass runs as `pass` does.
#[inline(always)]
fn numbers_pass(body: &[Line], span: Span, it: &mut Interp) -> R<bool> {
    for (i, line) in body.iter().enumerate() {
        let Line::Number(line) = line else { unreachable!("a pass of numbers has SetNum lines only") };
        if !line.stored(it) {
            it.add_free_steps(i as u64 + 1);
            let done = (line.other)(it).and_then(|()| run_lines(&body[i + 1..], it));
            return end_of_pass(done, span, it);
        }
    }
    it.add_free_steps(body.len() as u64 + 1);
    Ok(true)
}

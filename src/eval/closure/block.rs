//! Blocks of statements and `while` loops. A block runs its statements from a slice of `Line`s
//! in one loop, and a `while` runs its body's lines itself: a statement that sets a variable to
//! a number (`X = v`, `X op= v`, `X++` with a number closure for the value) is run in that loop,
//! not through a closure of its own, so a loop body of such statements costs what the same
//! statement costs as the whole body of a `for ... in range(...)` (issue 43, the `count` cliff).
//! Each statement still counts its step first, at its own place, as every statement does.

use super::expr::Test;
use super::num::NumFn;
use super::{stmt_line, StFn};
use crate::compile::ir::{Ex, Slot, St};
use crate::eval::{Flow, Interp, R};
use crate::syntax::Span;

/// A statement as a block runs it.
pub(super) enum Line {
    Number(SetNum),
    Any(StFn),
}

/// A variable set to a number that `number` works out without side effects (None: it cannot,
/// a variable holds no number, say); `other` then does the statement the general way, its
/// step already counted.
pub(super) struct SetNum {
    slot: Slot,
    span: Span,
    number: NumFn,
    other: StFn,
}

impl SetNum {
    #[inline(always)]
    fn run(&self, it: &mut Interp) -> R<()> {
        it.tick(self.span)?;
        match (self.number)(it) {
            Some(x) => {
                it.set_num(self.slot, x);
                Ok(())
            }
            None => (self.other)(it),
        }
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
    pub(super) fn counted(slot: Slot, span: Span, number: Option<NumFn>, other: StFn) -> Line {
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
    Box::new(move |it| {
        it.tick(span)?;
        while test.holds(it)? {
            match run_lines(&body, it) {
                Ok(()) | Err(Flow::Continue) => {}
                Err(Flow::Break) => break,
                Err(e) => return Err(e),
            }
            it.tick(span)?;
        }
        Ok(())
    })
}

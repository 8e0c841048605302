//! Compound assignment (`X += v`, `X -= v`, ...) and `X++` / `X--` of a variable, as
//! statements. The rules live in `eval/compound.rs`: the variable is read before
//! the value is evaluated, a string variable and a value without side effects append in place
//! (`Interp::append_to_var`), anything else is `Interp::compound` on the two values. Numbers
//! go first: `X op v` as arithmetic on numbers (`num::compound`, specialised for the operator
//! and the kinds of the operands; it gives up without side effects when X or v is no number).

use super::num::Update;
use super::{expr, Line, StFn};
use crate::compile::ir::{Ex, ExKind, Slot, Target};
use crate::eval::append::pure;
use crate::eval::compound::stepped;
use ds_syntax::ast::BinOp;
use ds_syntax::Span;

/// The closure of the expression statement `e` when it is `X op= v` or `X++`/`X--` of a
/// variable (None: another statement).
pub(super) fn statement(e: &Ex, span: Span, depth: u32) -> Option<Line> {
    match &e.kind {
        ExKind::Compound { op, target, value } => {
            let Target::Var(slot) = **target else { return None };
            Some(compound(*op, slot, value, e.span, span, depth))
        }
        ExKind::IncDec { target, delta } => {
            let Target::Var(slot) = **target else { return None };
            let (delta, at) = (*delta, e.span);
            // A variable that holds no number: `stepped` says so.
            let other: StFn = Box::new(move |it| {
                let n = stepped(it.get(slot), delta, at)?;
                it.set_num(slot, n);
                Ok(())
            });
            Some(Line::counted(slot, span, Some(Update::Add(delta)), other))
        }
        _ => None,
    }
}

fn compound(op: BinOp, slot: Slot, value: &Ex, at: Span, span: Span, depth: u32) -> Line {
    let number = super::num::compound(op, slot, value);
    let append = (op == BinOp::Add && pure(value)).then(|| expr::pieces(vec![(value, at)], depth));
    let value = expr::value(value, depth);
    let other: StFn = Box::new(move |it| {
        if let Some(done) = append.as_ref().and_then(|ops| it.append_to_var(slot, ops)) {
            return done;
        }
        let old = it.get(slot).clone();
        let rhs = value(it)?;
        let new = it.compound(op, old, rhs, at)?;
        it.set(slot, new);
        Ok(())
    });
    Line::counted(slot, span, number, other)
}

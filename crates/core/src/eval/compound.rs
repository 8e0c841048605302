//! The rules of compound assignment (`X op= v`) and of `++`/`--`, in one place: every closure
//! of them (`closure/assign.rs`, `closure/data.rs`) calls them.

use super::{fail, Interp, R};
use crate::value::Value;
use ds_syntax::ast::BinOp;
use ds_syntax::Span;

impl Interp {
    /// `X op= rhs` stores `old op rhs`, as the operator written out (`X = X op rhs`) gives it;
    /// `old` is X's value before `rhs` was evaluated.
    #[inline(always)]
    pub(super) fn compound(&mut self, op: BinOp, old: Value, rhs: Value, span: Span) -> R<Value> {
        self.binary_values(op, old, rhs, span)
    }
}

/// `X++` / `X--` store the number `delta` away from X's (`old`): X must hold a number.
#[inline(always)]
pub(super) fn stepped(old: &Value, delta: f64, span: Span) -> R<f64> {
    match old {
        Value::Num(n) => Ok(n + delta),
        other => fail(span, format!("`++`/`--` need a number, not {}", other.described())),
    }
}

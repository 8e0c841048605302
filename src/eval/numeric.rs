//! Arithmetic without `Value`s. An operator tree over variables and number constants (`I < N`,
//! `(S + I * 3) % M`, `N - 1`) is evaluated in `f64`s held in registers: the general path moves
//! a `Value` through memory for every operand and every intermediate result.

use super::ops::numbers;
use super::Interp;
use crate::compile::ir::{Ex, ExKind};
use crate::syntax::ast::BinOp;
use crate::syntax::Span;
use crate::value::Value;

impl Interp {
    /// `left op right` when both sides are arithmetic on numbers (see `arith`); None sends the
    /// operator down the general path, which starts over: nothing read here had side effects.
    #[inline(always)]
    pub(super) fn quick_binary(&self, op: BinOp, left: &Ex, right: &Ex) -> Option<Value> {
        let a = self.arith(left)?;
        let b = self.arith(right)?;
        numbers(op, a, b)
    }

    /// The number an expression evaluates to, when it is a number constant, a variable holding
    /// a number, or `+ - * / %` of such; None for anything else (another type, a call, a
    /// division by zero), without side effects. Leaves are read inline.
    #[inline(always)]
    pub(super) fn arith(&self, e: &Ex) -> Option<f64> {
        match &e.kind {
            ExKind::Const(Value::Num(n)) => Some(*n),
            ExKind::Var(slot) => match self.get(*slot) {
                Value::Num(n) => Some(*n),
                _ => None,
            },
            ExKind::Binary { op, left, right } => self.arith_operator(*op, left, right),
            ExKind::Sum(items) => self.arith_sum(items),
            _ => None,
        }
    }

    #[inline(never)]
    fn arith_sum(&self, items: &[(Ex, Span)]) -> Option<f64> {
        let ((first, _), rest) = items.split_first()?;
        rest.iter().try_fold(self.arith(first)?, |acc, (e, _)| Some(acc + self.arith(e)?))
    }

    #[inline(never)]
    fn arith_operator(&self, op: BinOp, left: &Ex, right: &Ex) -> Option<f64> {
        if !matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) {
            return None;
        }
        let a = self.arith(left)?;
        let b = self.arith(right)?;
        match numbers(op, a, b)? {
            Value::Num(n) => Some(n),
            _ => None,
        }
    }
}

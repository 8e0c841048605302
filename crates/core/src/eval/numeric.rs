//! Arithmetic without `Value`s. An operator tree over variables and number constants (`I < N`,
//! `(S + I * 3) % M`, `N - 1`) is evaluated in `f64`s held in registers: the general path moves
//! a `Value` through memory for every operand and every intermediate result.

use super::ops::{number, numbers};
use super::Interp;
use crate::compile::ir::{Ex, ExKind, Leaf, NumCode, NumOp, NUM_STACK};
use crate::value::Value;
use ds_syntax::ast::BinOp;
use ds_syntax::Span;

impl Interp {
    /// `left op right` when both sides are arithmetic on numbers: by its `NumCode` if it has
    /// one, else by `arith`; None sends the operator down the general path, which starts over:
    /// nothing read here had side effects.
    #[inline(always)]
    pub(super) fn quick_binary(&self, op: BinOp, left: &Ex, right: &Ex, num: &Option<NumCode>) -> Option<Value> {
        if let Some(code) = num {
            let x = self.run_num(code)?;
            return Some(if code.test { Value::bool(x != 0.0) } else { Value::Num(x) });
        }
        let a = self.arith(left)?;
        let b = self.arith(right)?;
        numbers(op, a, b)
    }

    /// Runs `NumCode`: its number (1 or 0 for a comparison), or None where the tree must run.
    #[inline(never)]
    pub(super) fn run_num(&self, code: &NumCode) -> Option<f64> {
        let mut stack = [0.0; NUM_STACK];
        let mut sp = 0;
        let mut acc = 0.0;
        for op in code.ops.iter() {
            match *op {
                NumOp::Load(l) => acc = self.leaf(l)?,
                NumOp::With(op, l) => acc = apply(op, acc, self.leaf(l)?)?,
                NumOp::WithRev(op, l) => acc = apply(op, self.leaf(l)?, acc)?,
                NumOp::Push => {
                    *stack.get_mut(sp)? = acc;
                    sp += 1;
                }
                NumOp::Pop(op) => {
                    sp = sp.checked_sub(1)?;
                    acc = apply(op, stack[sp], acc)?;
                }
            }
        }
        Some(acc)
    }

    /// The number of a variable or constant operand.
    #[inline(always)]
    fn leaf_num(&self, e: &Ex) -> Option<f64> {
        match &e.kind {
            ExKind::Const(Value::Num(n)) => Some(*n),
            ExKind::Var(slot) => match self.get(*slot) {
                Value::Num(n) => Some(*n),
                _ => None,
            },
            _ => None,
        }
    }

    #[inline(always)]
    pub(super) fn leaf(&self, l: Leaf) -> Option<f64> {
        match l {
            Leaf::Num(n) => Some(n),
            Leaf::Var(slot) => match self.get(slot) {
                Value::Num(n) => Some(*n),
                _ => None,
            },
        }
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
            ExKind::Binary { num: Some(code), .. } if !code.test => self.run_num(code),
            ExKind::Binary { op, left, right, num: None } => match (self.leaf_num(left), self.leaf_num(right)) {
                // `N - 1`, inline.
                (Some(a), Some(b)) if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) => apply(*op, a, b),
                _ => self.arith_operator(*op, left, right),
            },
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

/// `a op b` as `NumCode` computes it: a comparison gives 1 or 0; None where `eval` would not
/// give a number (division by zero, a comparison with NaN, which is Undef).
#[inline(always)]
pub(super) fn apply(op: BinOp, a: f64, b: f64) -> Option<f64> {
    use BinOp::*;
    match op {
        Eq | Ne | Lt | Le | Gt | Ge => compare(op, a, b).map(|t| if t { 1.0 } else { 0.0 }),
        _ => number(op, a, b),
    }
}

/// The comparison `a op b` of two numbers: None for NaN in an order comparison (Undef) and for
/// an operator that is no comparison.
#[inline(always)]
pub(super) fn compare(op: BinOp, a: f64, b: f64) -> Option<bool> {
    use BinOp::*;
    let ordered = !a.is_nan() && !b.is_nan();
    Some(match op {
        Eq => a == b,
        Ne => a != b,
        Lt if ordered => a < b,
        Le if ordered => a <= b,
        Gt if ordered => a > b,
        Ge if ordered => a >= b,
        _ => return None,
    })
}

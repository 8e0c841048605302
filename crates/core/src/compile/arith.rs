//! Operator trees over variables and number constants compiled to `NumCode`, a flat program the
//! evaluator runs in `f64`s (`eval/numeric.rs`) before it walks the tree.

use super::ir::{Ex, ExKind, Leaf, NumCode, NumOp, NUM_STACK};
use crate::value::Value;
use ds_syntax::ast::BinOp;

/// `left op right` as `NumCode`, when both sides are arithmetic on variables and number constants
/// and `op` is arithmetic or a comparison.
pub(super) fn num_code(op: BinOp, left: &Ex, right: &Ex) -> Option<NumCode> {
    let test = matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge);
    // `I < N`, `N - 1`: the evaluator reads two leaves inline, which is faster than a call.
    if !test && !arithmetic(op) || leaf(left).is_some() && leaf(right).is_some() {
        return None;
    }
    let mut code = Code::default();
    code.binary(op, left, right, 0)?;
    Some(NumCode { ops: code.ops.into_boxed_slice(), test })
}

fn arithmetic(op: BinOp) -> bool {
    matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem)
}

fn leaf(e: &Ex) -> Option<Leaf> {
    match &e.kind {
        ExKind::Const(Value::Num(n)) => Some(Leaf::Num(*n)),
        ExKind::Var(slot) => Some(Leaf::Var(*slot)),
        _ => None,
    }
}

#[derive(Default)]
struct Code {
    ops: Vec<NumOp>,
}

impl Code {
    /// Code that leaves the value of `e` in the accumulator, with `depth` numbers on the stack
    /// below it; None when `e` is not arithmetic or needs more than `NUM_STACK` numbers.
    fn expr(&mut self, e: &Ex, depth: usize) -> Option<()> {
        if let Some(l) = leaf(e) {
            self.ops.push(NumOp::Load(l));
            return Some(());
        }
        match &e.kind {
            ExKind::Binary { op, left, right, .. } if arithmetic(*op) => self.binary(*op, left, right, depth),
            ExKind::Sum(items) => {
                let ((first, _), rest) = items.split_first()?;
                self.expr(first, depth)?;
                rest.iter().try_for_each(|(item, _)| self.operand(BinOp::Add, item, depth))
            }
            _ => None,
        }
    }

    fn binary(&mut self, op: BinOp, left: &Ex, right: &Ex, depth: usize) -> Option<()> {
        match (leaf(left), leaf(right)) {
            (Some(_), None) => {
                // The right side first, so that it needs no stack: `3 * (I + 1)`.
                self.expr(right, depth)?;
                self.ops.push(NumOp::WithRev(op, leaf(left)?));
                Some(())
            }
            _ => {
                self.expr(left, depth)?;
                self.operand(op, right, depth)
            }
        }
    }

    /// acc = acc op e.
    fn operand(&mut self, op: BinOp, e: &Ex, depth: usize) -> Option<()> {
        if let Some(l) = leaf(e) {
            self.ops.push(NumOp::With(op, l));
            return Some(());
        }
        if depth + 1 > NUM_STACK {
            return None;
        }
        self.ops.push(NumOp::Push);
        self.expr(e, depth + 1)?;
        self.ops.push(NumOp::Pop(op));
        Some(())
    }
}

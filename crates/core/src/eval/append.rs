//! `S = S + x` (and `S += x`, `S = S + a + b`) where S holds a string: the text is appended to
//! S's own buffer, which grows by doubling when S holds the only reference, instead of copying
//! the whole string on every append (a loop of such appends was quadratic).

use super::closure::ValueFn;
use super::ops::push_text;
use super::{Interp, R};
use crate::compile::ir::{Ex, ExKind, Slot};
use crate::value::{Str, Value};
use ds_syntax::ast::BinOp;
use ds_syntax::Span;
use smallvec::SmallVec;

/// The operands `slot = value` appends when `value` is `S + ...` with S the variable at
/// `slot` and the rest without side effects (None: it is not that case).
pub(crate) fn appended(slot: Slot, value: &Ex) -> Option<Vec<(&Ex, Span)>> {
    let is_slot = |e: &Ex| matches!(e.kind, ExKind::Var(s) if s == slot);
    match &value.kind {
        ExKind::Binary { op: BinOp::Add, left, right, .. } if is_slot(left) && pure(right) => {
            Some(vec![(&**right, value.span)])
        }
        ExKind::Sum(items) if is_slot(&items[0].0) && items[1..].iter().all(|(e, _)| pure(e)) => {
            Some(items[1..].iter().map(|(e, span)| (e, *span)).collect())
        }
        _ => None,
    }
}

/// An operand of an append (`appended`), compiled, with the span of its `+`.
pub(crate) type Piece = (Operand, Span);

/// An appended operand: a constant or a variable (most of them) is read in place.
pub(crate) enum Operand {
    Const(Value),
    Var(Slot),
    Value(ValueFn),
}

impl Interp {
    /// `slot = slot + a + ...` (or `slot += a`) done as an append of `operands` (`appended`)
    /// when the variable holds a string; None when it does not.
    #[inline]
    pub(super) fn append_to_var(&mut self, slot: Slot, operands: &[Piece]) -> Option<R<()>> {
        match self.get(slot) {
            Value::Str(_) => Some(self.append_in_place(slot, operands)),
            _ => None,
        }
    }

    /// Appends the printed form of each operand to the string at `slot`. The operands are
    /// evaluated first (they have no side effects, so the order does not show) and the length
    /// checked before the string is touched, so that an error leaves it as it was.
    fn append_in_place(&mut self, slot: Slot, operands: &[Piece]) -> R<()> {
        let mut pieces: SmallVec<[Str; 2]> = SmallVec::new();
        let mut len = match self.get(slot) {
            Value::Str(s) => s.len(),
            _ => 0,
        };
        let mut last = Span::default();
        for (operand, span) in operands {
            let span = *span;
            let v = match operand {
                Operand::Const(v) => v.dup(),
                Operand::Var(slot) => self.get(*slot).dup(),
                Operand::Value(f) => f(self)?,
            };
            let piece = match v {
                Value::Str(p) => p,
                other => self.text_for_output(&other, span)?.into(),
            };
            len += piece.len();
            self.check_text_len(len, span)?;
            pieces.push(piece);
            last = span;
        }
        let place = self.slot_mut(slot);
        let Value::Str(mut text) = std::mem::take(place) else { return Ok(()) };
        let copied: usize = pieces.iter().map(|p| push_text(&mut text, p)).sum();
        *self.slot_mut(slot) = Value::Str(text);
        self.copy_work(copied, last)
    }
}

/// An operand whose evaluation has no side effects (no calls, no assignments): variables,
/// constants, operators and indexing over them.
pub(super) fn pure(e: &Ex) -> bool {
    match &e.kind {
        ExKind::Const(_) | ExKind::Var(_) | ExKind::CurrentGraph | ExKind::Node(_) => true,
        ExKind::Binary { left, right, .. } => pure(left) && pure(right),
        ExKind::Sum(items) => items.iter().all(|(e, _)| pure(e)),
        ExKind::Index { object, index } => pure(object) && pure(index),
        ExKind::Unary { operand, .. } => pure(operand),
        _ => false,
    }
}

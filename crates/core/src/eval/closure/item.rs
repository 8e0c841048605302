//! `A[i]` and `M[k]` read as numbers inside arithmetic on numbers (`num.rs`): `M[K] + 1`,
//! `S + Count[Word]`, `if A[I] > 0`. The container is a variable, read in place; the key is a
//! variable of any type (a string too), a number or string constant, or arithmetic. Where the
//! item is not a number (or the read is not a plain one: a missing key, another container) the
//! closure gives up, and the general closure of the expression reads the item again: the read
//! has no side effects, so reading it twice changes nothing.

use super::num::{arith, NumFn};
use crate::compile::ir::{Ex, ExKind};
use crate::eval::append::pure;
use crate::eval::expr::{key_is_no_work, position};
use crate::eval::Interp;
use crate::value::Value;

/// `Var[index]` read as a number (None: not that shape, or an index that may have effects).
pub(super) fn read(object: &Ex, index: &Ex) -> Option<NumFn> {
    let ExKind::Var(slot) = object.kind else { return None };
    if !pure(index) {
        return None;
    }
    Some(match &index.kind {
        ExKind::Var(key) => {
            let key = *key;
            Box::new(move |it| number_at(it.get(slot), it.get(key)))
        }
        ExKind::Const(key @ (Value::Num(_) | Value::Str(_))) => {
            let key = key.clone();
            Box::new(move |it| number_at(it.get(slot), &key))
        }
        _ => {
            let key = arith(index)?;
            Box::new(move |it: &Interp| number_at(it.get(slot), &Value::Num(key(it)?)))
        }
    })
}

/// The number at `key` in an array or a map, as `eval::expr::item` reads it (None: no number
/// there, or another container).
#[inline]
fn number_at(container: &Value, key: &Value) -> Option<f64> {
    match (container, key) {
        (Value::Array(a), Value::Num(n)) => {
            let a = a.borrow();
            position(*n, a.len()).and_then(|p| number(&a[p]))
        }
        // A long string key counts as work where the general read hashes it
        // (`Interp::key_work`): that read takes it.
        (Value::Map(_), key) if !key_is_no_work(key) => None,
        (Value::Map(m), _) => m.borrow().get(key).and_then(number),
        _ => None,
    }
}

#[inline(always)]
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Num(n) => Some(*n),
        _ => None,
    }
}

//! `A[i]` and `A[i] = v` of a variable, as closures: the 8-puzzle's `Queue[Head]`, `Depth[S]`,
//! `Moves[B]` and `Depth[T] = D`. An array item or a map entry is read with the container left
//! in its variable (no copy of the reference); other
//! containers go to `Interp::index` / `Interp::assign`, the rules' functions. Only an index
//! without side effects is taken, so that reading the variable after it, not before, cannot
//! change what is read.

use super::expr::{value, ValueFn};
use super::StFn;
use crate::compile::ir::{Ex, ExKind, Slot, Target};
use crate::eval::append::pure;
use crate::eval::expr::{item, key_is_no_work, store_in_map};
use crate::value::Value;
use ds_syntax::Span;

/// The variable and the index of `Var[index]` with a pure index (None: another expression).
fn parts(object: &Ex, index: &Ex) -> Option<Slot> {
    match object.kind {
        ExKind::Var(slot) if pure(index) => Some(slot),
        _ => None,
    }
}

/// `Var[index]` as a closure (None: the caller compiles it otherwise).
pub(super) fn read(e: &Ex, depth: u32) -> Option<ValueFn> {
    let ExKind::Index { object, index } = &e.kind else { return None };
    let slot = parts(object, index)?;
    let index = value(index, depth);
    let span = e.span;
    Some(Box::new(move |it| {
        let i = index(it)?;
        if let Value::Map(_) = it.get(slot) {
            it.key_work(&i, span)?;
        }
        match item(it.get(slot), &i) {
            Some(v) => Ok(v),
            None => {
                let o = it.get(slot).dup();
                it.index(o, i, span)
            }
        }
    }))
}

/// The statement `Var[index] = v` as a closure (None: the caller compiles it otherwise).
pub(super) fn assignment(e: &Ex, span: Span, depth: u32) -> Option<StFn> {
    let ExKind::Assign { target, value: v } = &e.kind else { return None };
    let Target::Index { object, index } = &**target else { return None };
    let slot = parts(object, index)?;
    let (index, v) = (value(index, depth), value(v, depth));
    Some(Box::new(move |it| {
        it.tick(span)?;
        // As `ExKind::Assign`: the value first, then the index.
        let x = v(it)?;
        let i = index(it)?;
        match it.get(slot) {
            // The map stays in its variable (no copy of the reference) when its key is no work.
            Value::Map(m) if key_is_no_work(&i) => store_in_map(m, i, x, span),
            o @ (Value::Array(_) | Value::Map(_)) => {
                let o = o.dup();
                it.set_index(o, i, x, span)
            }
            // A string, logic value or fuzzy number stores a changed copy in the variable;
            // anything else is an error.
            o => {
                let o = o.dup();
                it.assign_index(o, i, x, Some(slot), span).map(drop)
            }
        }
    }))
}

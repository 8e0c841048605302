//! Successors without wrappers (issue 43). A search calls its `Next` through `call_sinking`
//! when the compiler proved that one of its locals only collects successors
//! (`compile::sink::successor_local`: `var L = []`, then only `L.push(X)` and `return L`).
//! During that call, and in that frame only, `L.push(X)` hands X to the sink instead of the
//! array, and `L.push([A, S])` / `L.push([A, S, C])` hand over the parts without building the
//! pair: no array and no buffer per successor, none to drop. A call of the same demon any
//! other way (by the script, a recursive call) builds the array as before.

use super::{Interp, R};
use crate::compile::ir::FnCode;
use crate::value::array::Array;
use crate::value::Value;
use ds_syntax::Span;
use std::rc::Rc;

/// One successor as `Next` gave it.
pub enum Successor {
    /// A value pushed or returned in an array: a state, or an array read as
    /// `[Action, State(, Cost)]` (or a malformed one, for the search to name).
    Whole(Value),
    /// The items of an `[A, S]` / `[A, S, C]` literal pushed into the sink.
    Parts(Value, Value, Option<Value>),
}

/// The successors of the `Next` call in progress, with the frame and local they stand for.
pub(super) struct Sink {
    base: usize,
    slot: usize,
    /// The local's array, once a push saw it: the call's result is the successors only when
    /// it returns that array.
    array: *const Array,
    items: Vec<Successor>,
}

impl Interp {
    /// Calls `code` on `arg`, the pushes to its local `slot` going into `items` (cleared
    /// first). `Ok(None)`: it returned that local, and `items` holds its successors in order;
    /// `Ok(Some(v))`: it returned `v`, and `items` is empty.
    pub fn call_sinking(
        &mut self,
        code: &Rc<FnCode>,
        arg: Value,
        slot: u32,
        items: &mut Vec<Successor>,
        span: Span,
    ) -> R<Option<Value>> {
        items.clear();
        let mine =
            Sink { base: self.stack.len(), slot: slot as usize, array: std::ptr::null(), items: std::mem::take(items) };
        // a search run by `Next` itself sinks into its own successors, then gives these back
        let outer = self.sink.replace(mine);
        let result = self.call_fn(code, vec![arg], span, None);
        let mine = std::mem::replace(&mut self.sink, outer).expect("the sink of this call");
        *items = mine.items;
        match result? {
            Value::Array(a) if std::ptr::eq(Rc::as_ptr(&a), mine.array) => {
                // nothing else was ever pushed to the local (`successor_local`)
                debug_assert!(a.borrow().is_empty());
                Ok(None)
            }
            other => {
                items.clear();
                Ok(Some(other))
            }
        }
    }

    /// Whether a push to local `slot` of the running frame goes to the sink.
    #[inline(always)]
    pub(super) fn sinks(&self, slot: usize) -> bool {
        self.sink.as_ref().is_some_and(|s| s.base == self.base && s.slot == slot)
    }

    /// Hands successor `s` to the sink (`sinks` said it takes it), within the memory limit
    /// as `push` is.
    pub(super) fn sink_push(&mut self, s: Successor, span: Span) -> R<()> {
        let array = match self.local(self.sink.as_ref().map_or(0, |k| k.slot)) {
            Value::Array(a) => Rc::as_ptr(a),
            _ => std::ptr::null(),
        };
        let Some(sink) = self.sink.as_mut() else { return Ok(()) };
        let items = &mut sink.items;
        let full = items.len() == items.capacity();
        if full && !ds_base::guard::memory::room_to_double(items.capacity().max(1) * std::mem::size_of::<Successor>()) {
            return super::limit_error(span, super::Limit::Memory, None);
        }
        sink.array = array;
        items.push(s);
        Ok(())
    }
}

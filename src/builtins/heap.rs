//! `Heap()` and the heap side of `push`, `pop`, `peek`, `size` and `empty` (decision 16); the
//! array side of the shared method names is in array.rs.

use super::{function, method, object, wrong_object, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::heap::{Heap, HeapRef};
use crate::value::{Logic, Value};
use std::cell::RefCell;
use std::rc::Rc;

pub const BUILTINS: &[Builtin] = &[
    function("Heap", Arity::exactly(0), new_heap)
        .doc("Heap()", "an empty priority queue: `Q.push(item, priority)`, `Q.pop()` the item of least priority"),
    method("peek", Arity::exactly(0), peek)
        .doc("Q.peek()", "the item `Q.pop()` would take, left in the heap (None when empty)"),
];

fn new_heap(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::Heap(Rc::new(RefCell::new(Heap::default()))))
}

/// `Q.push(Item, Priority)`: a priority is a number, a string, or an array of numbers compared
/// item by item (`[F, H]` breaks ties of F by H); all priorities of one heap are of one kind, as
/// numbers would otherwise all come before every array.
pub(super) fn push(heap: &HeapRef, args: &[Value], span: Span) -> R<Value> {
    let [item, priority] = args else {
        return fail(span, format!("`push` on a heap takes an item and its priority, but {} given", args.len()));
    };
    let Some(kind) = priority_kind(priority) else {
        return fail(
            span,
            format!("a priority is a number, a string or an array of numbers, not {}", describe(priority)),
        );
    };
    let mut heap = heap.borrow_mut();
    if let Some(first) = heap.peek_priority().and_then(priority_kind) {
        if first != kind {
            return fail(
                span,
                format!("this heap's priorities are {first}s, and this one is {}", priority.described()),
            );
        }
    }
    heap.push(item.clone(), priority.clone());
    Ok(Value::Logic(Logic::UNDEF))
}

/// "number", "string" or "array" for a valid priority.
fn priority_kind(v: &Value) -> Option<&'static str> {
    match v {
        Value::Num(n) if !n.is_nan() => Some("number"),
        Value::Str(_) => Some("string"),
        Value::Array(a) if a.borrow().iter().all(|x| matches!(x, Value::Num(n) if !n.is_nan())) => Some("array"),
        _ => None,
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::Num(_) => "NaN",
        Value::Array(_) => "an array holding something else",
        other => other.described(),
    }
}

/// The item of least priority, taken out; None when the heap is empty (as `pop` of an array).
pub(super) fn pop(heap: &HeapRef) -> Value {
    heap.borrow_mut().pop().unwrap_or(Value::None)
}

/// `Q.peek()`: the item `pop` would take, left in; None when the heap is empty.
fn peek(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Heap(h) => Ok(h.borrow().peek().cloned().unwrap_or(Value::None)),
        other => wrong_object("peek", &other, "heaps", span),
    }
}

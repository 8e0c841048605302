//! `Heap()` and the heap side of `push`, `pop`, `peek`, `size` and `empty` (docs/language.md,
//! decision 16); the array side of the shared method names is in array.rs.

use super::{function, method, this, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::value::heap::{Heap, HeapRef};
use crate::value::{Logic, Value};
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

pub const BUILTINS: &[Builtin] = &[
    function("Heap", Arity::exactly(0), new_heap)
        .doc("Heap()", "an empty priority queue: `Q.push(item, priority)`, `Q.pop()` the item of least priority"),
    method("peek", Arity::exactly(0), peek)
        .doc("Q.peek()", "the item `Q.pop()` would take, left in the heap (None when empty)"),
    method("push", Arity::at_least(1), push).doc(
        "Q.push(item, priority)",
        "adds an item to heap Q with its priority: a number, a string or an array of numbers",
    ),
    method("pop", Arity::exactly(0), pop)
        .doc("Q.pop()", "removes and returns the item of least priority (None when Q is empty)"),
];

fn new_heap(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::Heap(Rc::new(RefCell::new(Heap::default()))))
}

/// `Q.push(Item, Priority)`: a priority is a number, a string, or an array of numbers compared
/// item by item (`[F, H]` breaks ties of F by H); all priorities of one heap are of one kind, as
/// numbers would otherwise all come before every array.
fn push(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let heap: HeapRef = this("push", obj, span)?;
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
fn pop(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let heap: HeapRef = this("pop", obj, span)?;
    let item = heap.borrow_mut().pop();
    Ok(item.unwrap_or(Value::None))
}

/// `Q.peek()`: the item `pop` would take, left in; None when the heap is empty.
fn peek(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let h: HeapRef = this("peek", obj, span)?;
    let top = h.borrow().peek().cloned();
    Ok(top.unwrap_or(Value::None))
}

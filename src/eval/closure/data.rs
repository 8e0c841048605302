//! Literals, indexing, ternaries, `and`/`or`, unary operators and calls of lambda values as
//! closures built from their parts' closures. Each rule is the tree walker's own function
//! (`Interp::index`, `map_entry`, `unary`, `ternary_branch`, ...), so both give the same values,
//! steps and errors.

use super::expr::{value, CallArg, ValueFn};
use crate::compile::ir::{Ex, NodeRef};
use crate::eval::expr::{and_or_stops, callee_code, ternary_branch};
use crate::eval::Interp;
use crate::syntax::ast::UnOp;
use crate::syntax::Span;
use crate::value::{Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

fn values(items: &[Ex], depth: u32) -> Box<[ValueFn]> {
    items.iter().map(|e| value(e, depth)).collect()
}

/// `[a, b, ...]`.
pub(super) fn array(items: &[Ex], depth: u32) -> ValueFn {
    let items = values(items, depth);
    Box::new(move |it| {
        let mut v = Vec::with_capacity(items.len());
        for item in items.iter() {
            v.push(item(it)?);
        }
        Ok(Value::array(v))
    })
}

/// `{k: v, ...}`.
pub(super) fn map(entries: &[(Ex, Ex)], depth: u32) -> ValueFn {
    let entries: Box<[(ValueFn, ValueFn, Span)]> =
        entries.iter().map(|(k, v)| (value(k, depth), value(v, depth), k.span)).collect();
    Box::new(move |it| {
        let mut m = Map::default();
        for (k, v, span) in entries.iter() {
            let key = k(it)?;
            let val = v(it)?;
            it.map_entry(&mut m, key, val, *span)?;
        }
        Ok(Value::Map(Rc::new(RefCell::new(m))))
    })
}

/// `O[I]`, where `closure/index.rs` has no quicker way.
pub(super) fn index(object: &Ex, index: &Ex, span: Span, depth: u32) -> ValueFn {
    let (o, i) = (value(object, depth), value(index, depth));
    Box::new(move |it| {
        let o = o(it)?;
        let i = i(it)?;
        it.index(o, i, span)
    })
}

/// `C ? A : B` (and the forms with three or four branches).
pub(super) fn ternary(cond: &Ex, branches: &[Ex], depth: u32) -> ValueFn {
    let (cond, branches) = (value(cond, depth), values(branches, depth));
    Box::new(move |it| {
        let c = cond(it)?.condition();
        branches[ternary_branch(c, branches.len())](it)
    })
}

/// `and(...)` (`all`) / `or(...)`.
pub(super) fn and_or(all: bool, args: &[Ex], depth: u32) -> ValueFn {
    let args = values(args, depth);
    Box::new(move |it| {
        for a in args.iter() {
            if and_or_stops(a(it)?, all) {
                return Ok(Value::bool(!all));
            }
        }
        Ok(Value::bool(all))
    })
}

/// `-X`, `!X`, ...
pub(super) fn unary(op: UnOp, operand: &Ex, span: Span, depth: u32) -> ValueFn {
    let operand = value(operand, depth);
    Box::new(move |it| {
        let v = operand(it)?;
        it.unary(op, v, span)
    })
}

/// `F(args)` with F a lambda (or demon) value.
pub(super) fn call_value(callee: &Ex, args: &[Ex], span: Span, depth: u32) -> ValueFn {
    let (callee_span, callee) = (callee.span, value(callee, depth));
    let args: Box<[CallArg]> = args.iter().map(|a| CallArg::new(a, depth)).collect();
    Box::new(move |it| {
        if it.stack_low() {
            return it.stack_used_up(span);
        }
        let code = callee(it)?;
        let code = callee_code(code, callee_span, span)?;
        it.call_compiled(&code, &args, span)
    })
}

/// `G=>$n` / `G.$n`.
pub(super) fn node_of(graph: &Ex, node: &NodeRef, span: Span, depth: u32) -> ValueFn {
    let (graph, node) = (value(graph, depth), super::Node::new(node));
    Box::new(move |it| {
        let g = graph(it)?;
        it.node_of_value(g, node.get(), span)
    })
}

/// `GRAPH`, a lambda, a demon's name as a value.
pub(super) fn current_graph() -> ValueFn {
    Box::new(|it: &mut Interp| Ok(it.graph.clone()))
}

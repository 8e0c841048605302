//! `static` declarations, `nodes` declarations and `return?` as closures; the rules are
//! `Interp::declare_static`, `declare_nodes` and `return_ifdef`.

use super::expr::{value, ValueFn};
use super::StFn;
use crate::compile::ir::{Ex, Slot};
use crate::value::Value;
use ds_syntax::Span;
use std::cell::Cell;
use std::rc::Rc;

/// `static X = v, ...`: `done` is the IR's own flag (set once the statement has run).
pub(super) fn statics(done: &Cell<bool>, items: &[(Slot, Option<Ex>)], span: Span, depth: u32) -> StFn {
    let done = super::Node::new(done);
    let slots: Box<[Slot]> = items.iter().map(|i| i.0).collect();
    let inits: Box<[Option<ValueFn>]> = items.iter().map(|i| i.1.as_ref().map(|e| value(e, depth))).collect();
    Box::new(move |it| {
        it.tick(span)?;
        let init = |it: &mut crate::eval::Interp, i: usize| match &inits[i] {
            Some(f) => f(it),
            None => Ok(Value::None),
        };
        it.declare_static(done.get(), &slots, &init)
    })
}

/// `nodes a, b` / `G.nodes a, b`.
pub(super) fn nodes(graph: Option<&Ex>, names: &[Rc<str>], span: Span, depth: u32) -> StFn {
    let graph = graph.map(|g| (value(g, depth), g.span));
    let names: Box<[Rc<str>]> = names.into();
    Box::new(move |it| {
        it.tick(span)?;
        let g = match &graph {
            Some((g, at)) => Some((g(it)?, *at)),
            None => None,
        };
        it.declare_nodes(g, &names, span)
    })
}

/// `return? E`.
pub(super) fn return_ifdef(e: &Ex, span: Span, depth: u32) -> StFn {
    let e = value(e, depth);
    Box::new(move |it| {
        it.tick(span)?;
        let v = e(it)?;
        it.return_ifdef(v)
    })
}

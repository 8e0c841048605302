//! Loops and the small statements of loop bodies as closures: `for` over nodes, values and
//! ranges, `var`, `break`, `continue`, a bare `return` (edge statements are in `graph.rs`).
//! The loops themselves are the rules of `eval/stmt.rs` (which take their body as a
//! `Body`), so the nodes visited, the steps counted and the errors are the same; the body and
//! a node loop's condition run as closures, with their `if`s, calls and assignments
//! specialised.

use super::expr::{value, Test};
use super::graph::target_of;
use super::{block, Node, StFn, ValueFn};
use crate::compile::ir::{Ex, Slot, St};
use crate::eval::node_test::{NodeTest, TestSite};
use crate::eval::stmt::NodeCond;
use crate::eval::Flow;
use crate::value::{Logic, Value};
use ds_syntax::Span;

/// `for X in V`: the loop of `Interp::for_value` over V's items.
pub(super) fn for_value(vars: &[Slot], source: &Ex, body: &[St], span: Span, depth: u32) -> StFn {
    let (vars, source, body): (Box<[Slot]>, _, _) = (vars.into(), value(source, depth), block(body, depth));
    Box::new(move |it| {
        it.tick(span)?;
        let v = source(it)?;
        it.for_value(&vars, v, &*body, span)
    })
}

/// `for X in range(...)`: the loop of `Interp::for_range`.
pub(super) fn for_range(vars: &[Slot], args: &[Ex], body: &[St], span: Span, depth: u32) -> StFn {
    let args: Box<[(ValueFn, Span)]> = args.iter().map(|a| (value(a, depth), a.span)).collect();
    let (vars, body): (Box<[Slot]>, _) = (vars.into(), block(body, depth));
    Box::new(move |it| {
        it.tick(span)?;
        it.for_range(&vars, &args, &*body, span)
    })
}

/// `break`.
pub(super) fn break_loop(span: Span) -> StFn {
    Box::new(move |it| {
        it.tick(span)?;
        Err(Flow::Break)
    })
}

/// `continue`.
pub(super) fn continue_loop(span: Span) -> StFn {
    Box::new(move |it| {
        it.tick(span)?;
        Err(Flow::Continue)
    })
}

/// A bare `return`: Undef.
pub(super) fn bare_return(span: Span) -> StFn {
    Box::new(move |it| {
        it.tick(span)?;
        Err(it.return_value(Value::Logic(Logic::UNDEF)))
    })
}

/// `for X in Cond`: Cond compiled once to the closure an `if` would get, run at each node the
/// loop tries; `for Z in A rel Z` runs as `Interp::for_targets`.
pub(super) fn for_nodes(vars: &[Slot], cond: Option<&Ex>, body: StFn, span: Span, depth: u32) -> StFn {
    let vars: Box<[Slot]> = vars.into();
    let Some(cond) = cond else {
        return Box::new(move |it| {
            it.tick(span)?;
            it.for_nodes(&vars, None, &*body, span)
        });
    };
    let (ex, test) = (Node::new(cond), Test::new(cond, depth));
    let site = matches!(*vars, [var] if NodeTest::fits(var, cond)).then(TestSite::default);
    if let (&[var], Some(source)) = (&*vars, vars.first().and_then(|&v| target_of(v, cond))) {
        return Box::new(move |it| {
            it.tick(span)?;
            let cond = NodeCond { ex: ex.get(), holds: &|it| test.holds(it), site: site.as_ref() };
            it.for_targets(var, source, cond, &*body, span)
        });
    }
    Box::new(move |it| {
        it.tick(span)?;
        let cond = NodeCond { ex: ex.get(), holds: &|it| test.holds(it), site: site.as_ref() };
        it.for_nodes(&vars, Some(cond), &*body, span)
    })
}

/// `var A = x, B`: each initial value in turn, None where there is none.
pub(super) fn var(items: &[(Slot, Option<Ex>)], span: Span, depth: u32) -> StFn {
    let items: Box<[(Slot, Option<ValueFn>)]> =
        items.iter().map(|(slot, init)| (*slot, init.as_ref().map(|e| value(e, depth)))).collect();
    Box::new(move |it| {
        it.tick(span)?;
        for (slot, init) in items.iter() {
            let v = match init {
                Some(f) => f(it)?,
                None => Value::None,
            };
            it.set(*slot, v);
        }
        Ok(())
    })
}

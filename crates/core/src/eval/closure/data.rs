//! Literals, indexing, ternaries, `and`/`or`, unary operators and calls of lambda values as
//! closures built from their parts' closures. Each rule is one function
//! (`Interp::index`, `map_entry`, `unary`, `ternary_branch`, ...), so every path that takes it
//! gives the same values, steps and errors.

use super::expr::{value, ValueFn};
use super::target::TargetFn;
use super::Node;
use super::StFn;
use crate::compile::ir::{AtomEx, AxiomEx, AxiomUse, EvalScope, Ex, ExKind, NodeRef, Slot, Target, TermEx};
use crate::eval::compound::stepped;
use crate::eval::expr::{and_or_stops, ternary_branch, tuple_item, tuple_value};
use crate::eval::sink::Successor;
use crate::eval::{Interp, R};
use crate::value::{Map, Value};
use ds_syntax::ast::BinOp;
use ds_syntax::Span;
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

/// What a push hands to the search's sink, evaluated.
type SuccessorFn = Box<dyn Fn(&mut Interp) -> R<Successor>>;

/// `L.push(X)` as a statement, L a local: the builtin call, or, in the search's call of a
/// `Next` whose successors L collects (`eval/sink.rs`), X handed to the search, an
/// `[A, S]` / `[A, S, C]` literal as its parts without the array (None: not such a push).
pub(super) fn push(e: &Ex, span: Span, depth: u32) -> Option<StFn> {
    let ExKind::Builtin { name: "push", object: Some(o), args, .. } = &e.kind else { return None };
    let (ExKind::Var(Slot::Local(slot)), [arg]) = (&o.kind, &args[..]) else { return None };
    let (slot, call) = (*slot as usize, super::method::call(e, depth)?);
    let sunk: SuccessorFn = match &arg.kind {
        ExKind::Array(items) if matches!(items.len(), 2 | 3) => {
            let items = values(items, depth);
            Box::new(move |it| {
                let (a, s) = (items[0](it)?, items[1](it)?);
                let cost = match items.get(2) {
                    Some(c) => Some(c(it)?),
                    None => None,
                };
                Ok(Successor::Parts(a, s, cost))
            })
        }
        _ => {
            let whole = value(arg, depth);
            Box::new(move |it| Ok(Successor::Whole(whole(it)?)))
        }
    };
    Some(Box::new(move |it| {
        it.tick(span)?;
        if !it.sinks(slot) {
            return call(it).map(drop);
        }
        let s = sunk(it)?;
        it.sink_push(s, span)
    }))
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

/// `G=>$n` / `G.$n`.
pub(super) fn node_of(graph: &Ex, node: &NodeRef, span: Span, depth: u32) -> ValueFn {
    let (graph, node) = (value(graph, depth), Node::new(node));
    Box::new(move |it| {
        let g = graph(it)?;
        it.node_of_value(g, node.get(), span)
    })
}

/// `GRAPH`, a lambda, a demon's name as a value.
pub(super) fn current_graph() -> ValueFn {
    Box::new(|it: &mut Interp| Ok(it.graph.clone()))
}

/// `(a, b)`, `(a, b, c)`, `(a, b, c, d)`: a logic pair or fuzzy number.
pub(super) fn tuple(items: &[Ex], depth: u32) -> ValueFn {
    let items: Box<[(ValueFn, Span)]> = items.iter().map(|e| (value(e, depth), e.span)).collect();
    Box::new(move |it| {
        let mut nums = [0.0; 4];
        for (i, (item, span)) in items.iter().enumerate() {
            nums[i] = tuple_item(item(it)?, *span)?;
        }
        Ok(tuple_value(nums, items.len()))
    })
}

/// `eval(Str)`.
pub(super) fn eval(arg: &Ex, scope: &Rc<EvalScope>, span: Span, depth: u32) -> ValueFn {
    let (arg_span, arg, scope) = (arg.span, value(arg, depth), scope.clone());
    Box::new(move |it| {
        let v = arg(it)?;
        it.eval_string(v, arg_span, &scope, span)
    })
}

/// `T = v` for a target that is not a variable.
pub(super) fn assign(target: &Target, v: &Ex, span: Span, depth: u32) -> ValueFn {
    let (target, v) = (TargetFn::new(target, span, depth), value(v, depth));
    Box::new(move |it| {
        let x = v(it)?;
        target.assign(it, x, span)
    })
}

/// `T op= v` for a target that is not a variable: read, combined, assigned.
pub(super) fn compound(op: BinOp, target: &Target, v: &Ex, span: Span, depth: u32) -> ValueFn {
    let (target, v) = (TargetFn::new(target, span, depth), value(v, depth));
    Box::new(move |it| {
        let old = target.read(it, span)?;
        let rhs = v(it)?;
        let new = it.compound(op, old, rhs, span)?;
        target.assign(it, new, span)
    })
}

/// `T++` / `T--` for any target; its value is the old one.
pub(super) fn inc_dec(target: &Target, delta: f64, span: Span, depth: u32) -> ValueFn {
    let target = TargetFn::new(target, span, depth);
    Box::new(move |it| {
        let old = target.read(it, span)?;
        let n = stepped(&old, delta, span)?;
        target.assign(it, Value::Num(n), span)?;
        Ok(old)
    })
}

/// `Mind.value(Models, Expr)`: Expr evaluated with each model as the current graph.
pub(super) fn value_in_models(models: &Ex, expr: &Ex, depth: u32) -> ValueFn {
    let (models_span, models) = (models.span, value(models, depth));
    let (expr_span, expr) = (expr.span, value(expr, depth));
    Box::new(move |it| {
        let m = models(it)?;
        crate::eval::mind::value_in_each(it, (m, models_span), &expr, expr_span)
    })
}

/// An axiom with the closures of its fixed terms (`mind::Terms`).
pub(super) struct AxiomFn(Node<AxiomEx>, Box<[ValueFn]>);

impl AxiomFn {
    pub(super) fn new(ax: &AxiomEx, depth: u32) -> AxiomFn {
        let terms = ax.atoms.iter().flat_map(|a| match a {
            AtomEx::Edge { from, to, .. } => [from, to],
            AtomEx::Same(a, b) => [a, b],
        });
        let fixed = terms.filter_map(|t| match t {
            TermEx::Fixed(e) => Some(value(e, depth)),
            TermEx::Var(_) => None,
        });
        AxiomFn(Node::new(ax), fixed.collect())
    }

    pub(super) fn parts(&self) -> (&AxiomEx, &[ValueFn]) {
        (self.0.get(), &self.1)
    }
}

/// `Mind.add(...)`, `Mind.add_usual(...)`, `set(...)`.
pub(super) fn axioms(usage: AxiomUse, axioms: &[AxiomEx], span: Span, depth: u32) -> ValueFn {
    let axioms: Box<[AxiomFn]> = axioms.iter().map(|a| AxiomFn::new(a, depth)).collect();
    Box::new(move |it| crate::eval::mind::axioms(it, usage, axioms.iter().map(AxiomFn::parts), span))
}

//! The `Mind` module: axioms (`Mind.add`, `Mind.add_usual`, `set`, axiom statements), inference
//! (`Mind.set_graph`) and administration. Models are in `mind_models.rs`; the engine in
//! `crate::mind`.

use super::{arg, function, Arity, Builtin};
use crate::eval::mind::{apply, rules_for};
use crate::eval::{fail, Interp, R};
use crate::mind::Clause;
use crate::value::Value;
use crate::world::GraphRef;
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    function("Mind.set_graph", Arity::at_least(1), set_graph).doc(
        "Mind.set_graph(G [, group, ...])",
        "sets what follows from the axioms in G; the number of edges set, or -1",
    ),
    function("Mind.out", Arity::range(0, 1), out)
        .doc("Mind.out([G])", "prints Mind's axioms and G's, one clause a line"),
    function("Mind.clear", Arity::range(0, 1), clear)
        .doc("Mind.clear([G])", "removes Mind's axioms, or with G, G's own"),
    function("Mind.clear_used", Arity::exactly(0), clear_used)
        .doc("Mind.clear_used()", "resets the counts `Mind.out` shows"),
    function("Mind.was_conflict", Arity::exactly(0), was_conflict)
        .doc("Mind.was_conflict()", "True when the last inference met a contradiction"),
    function("Mind.mode", Arity::range(0, 1), mode)
        .doc("Mind.mode([n])", "a setting kept and returned; it changes nothing"),
    function("Mind.verbose", Arity::range(0, 1), verbose)
        .doc("Mind.verbose([n])", "1: a note on standard error for each edge set and each contradiction"),
    function("Mind.group", Arity::range(0, 1), group)
        .doc("Mind.group([n])", "the group of the axioms added from now on (0)"),
    function("Mind.differnt_vals", Arity::range(0, 1), different_vals)
        .doc("Mind.differnt_vals([0|1])", "the original's spelling of `Mind.different_vals`"),
    function("Mind.different_vals", Arity::range(0, 1), different_vals)
        .doc("Mind.different_vals([0|1])", "1: the variables of one axiom stand for different nodes"),
    function("Mind.out_undef", Arity::range(0, 1), out_undef)
        .doc("Mind.out_undef([n])", "a setting kept and returned; it changes nothing"),
    function("Mind.validator", Arity::exactly(1), validator)
        .doc("Mind.validator(F)", "a lambda that must return True for a model to be kept (None removes it)"),
    function("Mind.get_models", Arity::range(2, 3), super::mind_models::get_models).doc(
        "Mind.get_models(G, rel or [rels] [, max])",
        "the first max (10; 0: all) completions of G the axioms allow",
    ),
    function("Mind.count_models", Arity::range(2, 3), super::mind_models::count_models)
        .doc("Mind.count_models(G, rel or [rels] [, max])", "the number of models (all, or up to max)"),
    function("Mind.get_usual_models", Arity::range(2, 3), super::mind_models::get_usual_models).doc(
        "Mind.get_usual_models(G, rel or [rels] [, max])",
        "the models that break the fewest instances of usual axioms first",
    ),
    function("Mind.split_graph", Arity::exactly(2), super::mind_models::split_graph).doc(
        "Mind.split_graph(G, rel or [rels])",
        "G after inference, split on its first open edge: the True and False graphs",
    ),
    function("Mind.split_graph_usual", Arity::exactly(1), super::mind_models::split_graph_usual)
        .doc("Mind.split_graph_usual(G)", "G after inference, split on the first edge a usual axiom would set"),
    function("Mind.merge", Arity::at_least(1), super::mind_models::merge).doc(
        "Mind.merge(G1, G2, ...) or Mind.merge([Gs])",
        "a graph with the edges all of them have with the same value",
    ),
];

// ---------------------------------------------------------------- axioms

// ---------------------------------------------------------------- inference

/// `Mind.set_graph(G [, Group, ...])`: Mind's axioms (of those groups) and G's own, applied
/// until nothing more follows.
fn set_graph(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = arg::<GraphRef>(args, 0, "Mind.set_graph", span)?;
    let groups: Vec<i64> =
        (1..args.len()).map(|i| arg::<f64>(args, i, "Mind.set_graph", span).map(|x| x as i64)).collect::<R<_>>()?;
    let meter = it.meter();
    let rules = rules_for(it, &g, (!groups.is_empty()).then_some(&groups[..]), &meter);
    let result = apply(it, &g, &rules, None, &meter, span)?;
    it.charge(&meter, span)?;
    Ok(result)
}

// ---------------------------------------------------------------- administration

/// `Mind.out([G])`: Mind's axioms, then G's own (G: the current graph by default).
fn out(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = match args.first() {
        Some(_) => arg::<GraphRef>(args, 0, "Mind.out", span)?,
        None => it.current_graph(span)?,
    };
    let mut text = String::new();
    let line = |text: &mut String, kind: &str, c: &Clause| {
        let group = if c.group != 0 { format!(" [group {}]", c.group) } else { String::new() };
        text.push_str(&format!("{kind}{group}: {}  (used {})\n", c.text(&it.world), c.used.get()));
    };
    for c in &it.mind.always {
        line(&mut text, "always", c);
    }
    for c in &it.mind.usual {
        line(&mut text, "usual", c);
    }
    let gname = format!("graph {}", g.borrow().name);
    for c in g.borrow().data.axioms.iter() {
        line(&mut text, &gname, c);
    }
    if text.is_empty() {
        text.push_str("no axioms\n");
    }
    it.write_out(&text, span)?;
    Ok(Value::None)
}

/// `Mind.clear()` removes Mind's axioms; `Mind.clear(G)` G's own.
fn clear(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    if args.is_empty() {
        it.mind.always.clear();
        it.mind.usual.clear();
    } else {
        arg::<GraphRef>(args, 0, "Mind.clear", span)?.borrow_mut().data_mut().axioms.clear();
    }
    Ok(Value::None)
}

fn clear_used(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    for c in it.mind.always.iter().chain(&it.mind.usual) {
        c.used.set(0);
    }
    if let Value::Graph(g) = &it.graph {
        for c in g.borrow().data.axioms.iter() {
            c.used.set(0);
        }
    }
    Ok(Value::None)
}

fn was_conflict(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::bool(it.mind.was_conflict))
}

/// A setting read with no argument, set with one; the (new) value is returned.
fn setting(args: &[Value], fname: &str, span: Span, place: &mut f64) -> R<Value> {
    if !args.is_empty() {
        *place = arg::<f64>(args, 0, fname, span)?;
    }
    Ok(Value::Num(*place))
}

fn mode(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    setting(args, "Mind.mode", span, &mut it.mind.mode)
}

fn out_undef(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    setting(args, "Mind.out_undef", span, &mut it.mind.out_undef)
}

fn verbose(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = it.mind.verbose as f64;
    let r = setting(args, "Mind.verbose", span, &mut v)?;
    it.mind.verbose = v.clamp(0.0, 2.0) as u8;
    Ok(r)
}

fn group(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = it.mind.group as f64;
    let r = setting(args, "Mind.group", span, &mut v)?;
    it.mind.group = v as i64;
    Ok(r)
}

fn different_vals(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = if it.mind.distinct { 1.0 } else { 0.0 };
    setting(args, "Mind.differnt_vals", span, &mut v)?;
    it.mind.distinct = v != 0.0;
    Ok(Value::Num(if it.mind.distinct { 1.0 } else { 0.0 }))
}

/// `Mind.validator(F)`: a lambda that every complete model must make True; None removes it.
fn validator(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    it.mind.validator = match &args[0] {
        Value::None => None,
        f @ Value::Lambda(code) if code.params().len() == 1 => Some(f.clone()),
        other => {
            return fail(
                span,
                format!("`Mind.validator` takes a lambda with one parameter (the model), not {}", other.described()),
            )
        }
    };
    Ok(Value::None)
}

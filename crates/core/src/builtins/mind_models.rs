//! The `Mind` functions about models: the completions of a graph over some relations that the
//! axioms allow (`crate::mind::search`).

use super::arg;
use crate::eval::mind::{node_count, rules_for, ticker, usual_for};
use crate::eval::{fail, Interp, R};
use crate::mind::search;
use crate::value::Value;
use crate::world::{Facts, GraphRef, RelId};
use ds_syntax::Span;

/// The relations of a model search: one edge type or an array of them.
fn rels_arg(args: &[Value], fname: &str, span: Span) -> R<Vec<RelId>> {
    let bad = |v: &Value| -> R<RelId> {
        fail(span, format!("argument 2 of `{fname}` must be an edge type or an array of them, not {}", v.described()))
    };
    match &args[1] {
        Value::Edge(r) => Ok(vec![*r]),
        Value::Array(a) => a.borrow().iter().map(|v| if let Value::Edge(r) = v { Ok(*r) } else { bad(v) }).collect(),
        other => bad(other).map(|r| vec![r]),
    }
}

/// The optional Max of a model search: `default` when absent; 0 (or less) means no limit.
fn max_arg(args: &[Value], fname: &str, default: usize, span: Span) -> R<usize> {
    if args.len() < 3 {
        return Ok(default);
    }
    let m = arg::<f64>(args, 2, fname, span)?;
    Ok(if m < 1.0 { usize::MAX } else { m as usize })
}

/// Whether the validator (if any) accepts a complete model: it runs with the model as GRAPH.
fn accepted(it: &mut Interp, g: &GraphRef, facts: &Facts, span: Span) -> R<bool> {
    let Some(Value::Lambda(code)) = it.mind.validator.clone() else { return Ok(true) };
    let code = crate::eval::runnable(code, span)?;
    let world = (g.borrow().class, node_count(it, g));
    let model = Value::Graph(it.world.graph_with_facts(&g.borrow(), facts.clone()));
    let saved = std::mem::replace(&mut it.graph, model.clone());
    let result = it.call_fn(&code, vec![model], span, None);
    it.graph = saved;
    let ok = result?.is_exactly_true();
    // The search holds facts about the world's nodes as they were: models made from them after
    // `delete_nodes` would have edges between nodes that are gone (or stand for new ones).
    if (g.borrow().class, node_count(it, g)) != world {
        return fail(span, "the `Mind.validator` lambda added or deleted nodes of the world being searched");
    }
    Ok(ok)
}

/// Graphs of g's world for `states`, named `G_1`, `G_2`, ... after g (as the original names
/// models) or, with `numbered` false, named as g.
fn graphs(it: &mut Interp, g: &GraphRef, states: Vec<Facts>, numbered: bool) -> Value {
    let base = g.borrow().name.clone();
    let items = states
        .into_iter()
        .enumerate()
        .map(|(i, facts)| {
            let m = it.world.graph_with_facts(&g.borrow(), facts);
            if numbered {
                m.borrow_mut().name = crate::world::Name::new(format!("{base}_{}", i + 1).into());
            }
            Value::Graph(m)
        })
        .collect();
    Value::array(items)
}

/// Runs the model search, giving each accepted model to `keep` until it returns false.
fn each_model(
    it: &mut Interp,
    args: &[Value],
    fname: &str,
    span: Span,
    keep: &mut dyn FnMut(Facts) -> bool,
) -> R<GraphRef> {
    let g = arg::<GraphRef>(args, 0, fname, span)?;
    let rels = rels_arg(args, fname, span)?;
    let meter = it.meter();
    let rules = rules_for(it, &g, None, &meter);
    let start = g.borrow().facts.clone();
    let mut tick = ticker(&meter, span);
    search::models(&rules, &start, &rels, &mut tick, &mut |facts| {
        if !accepted(it, &g, &facts, span)? {
            return Ok(true);
        }
        Ok(keep(facts))
    })?;
    it.charge(&meter, span)?;
    Ok(g)
}

/// `Mind.get_models(G, Rel or [Rels] [, Max=10])`.
pub fn get_models(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let max = max_arg(args, "Mind.get_models", 10, span)?;
    let mut found = Vec::new();
    let g = each_model(it, args, "Mind.get_models", span, &mut |facts| {
        found.push(facts);
        found.len() < max
    })?;
    Ok(graphs(it, &g, found, true))
}

/// `Mind.count_models(G, Rel or [Rels] [, Max])`: all models unless Max is given.
pub fn count_models(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let max = max_arg(args, "Mind.count_models", usize::MAX, span)?;
    let mut count = 0usize;
    each_model(it, args, "Mind.count_models", span, &mut |_| {
        count += 1;
        count < max
    })?;
    Ok(Value::Num(count as f64))
}

/// `Mind.get_usual_models(G, Rel or [Rels] [, Max=10])`: the models that break the fewest
/// usual axioms, fewest first.
pub fn get_usual_models(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Mind.get_usual_models";
    let g = arg::<GraphRef>(args, 0, fname, span)?;
    let rels = rels_arg(args, fname, span)?;
    let max = max_arg(args, fname, 10, span)?;
    let meter = it.meter();
    let (rules, usual) = (rules_for(it, &g, None, &meter), usual_for(it, &g, &meter));
    let start = g.borrow().facts.clone();
    let mut tick = ticker(&meter, span);
    let best = search::usual_models(&rules, &usual, &start, &rels, max, &mut tick, &mut |facts| {
        accepted(it, &g, facts, span)
    })?;
    it.charge(&meter, span)?;
    Ok(graphs(it, &g, best.into_iter().map(|(_, f)| f).collect(), true))
}

/// `Mind.split_graph(G, Rel or [Rels])`: G (with what follows from the axioms) split on its
/// first undefined edge of those relations: the True and the False graph, those the axioms
/// allow. Empty when there is no such edge or G contradicts the axioms.
pub fn split_graph(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = arg::<GraphRef>(args, 0, "Mind.split_graph", span)?;
    let rels = rels_arg(args, "Mind.split_graph", span)?;
    let n = node_count(it, &g);
    let meter = it.meter();
    let rules = rules_for(it, &g, None, &meter);
    let mut facts = g.borrow().facts.clone();
    let mut tick = ticker(&meter, span);
    let parts = if rules.propagate(&mut facts, None, &mut tick)?.is_err() {
        Vec::new()
    } else {
        match search::first_undef(&facts, &rels, n) {
            Some(key) => search::split(&rules, &facts, key, true, &mut tick)?,
            None => Vec::new(),
        }
    };
    it.charge(&meter, span)?;
    Ok(graphs(it, &g, parts, false))
}

/// `Mind.split_graph_usual(G)`: G split on the first edge a usual axiom would set: the graph
/// where the default holds first, then the exception; those the axioms allow.
pub fn split_graph_usual(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = arg::<GraphRef>(args, 0, "Mind.split_graph_usual", span)?;
    let meter = it.meter();
    let (rules, usual) = (rules_for(it, &g, None, &meter), usual_for(it, &g, &meter));
    let mut facts = g.borrow().facts.clone();
    let mut tick = ticker(&meter, span);
    let parts = if rules.propagate(&mut facts, None, &mut tick)?.is_err() {
        Vec::new()
    } else {
        match usual.first_firing(&facts) {
            Some((key, value)) => search::split(&rules, &facts, key, value, &mut tick)?,
            None => Vec::new(),
        }
    };
    it.charge(&meter, span)?;
    Ok(graphs(it, &g, parts, false))
}

/// `Mind.merge(G1, G2, ...)` or `Mind.merge([G1, G2, ...])`: a new graph with the edges that
/// every one of them has with the same value; the others are Undef.
pub fn merge(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let list: Vec<Value> = match args {
        [Value::Array(a)] => a.borrow().iter().cloned().collect(),
        _ => args.to_vec(),
    };
    let graphs: Vec<GraphRef> =
        (0..list.len()).map(|i| arg::<GraphRef>(&list, i, "Mind.merge", span)).collect::<R<_>>()?;
    let Some(first) = graphs.first() else { return fail(span, "`Mind.merge` needs at least one graph") };
    let class = first.borrow().class;
    if graphs.iter().any(|g| g.borrow().class != class) {
        return fail(span, "`Mind.merge` needs graphs of one world (made from one another by `copy`)");
    }
    let mut common = Facts::default();
    for f in first.borrow().facts.iter() {
        if graphs[1..].iter().all(|g| g.borrow().facts.get(f.key) == f.value) {
            common.set(f.key, f.value);
        }
    }
    let merged = it.world.graph_with_facts(&first.borrow(), common);
    Ok(Value::Graph(merged))
}

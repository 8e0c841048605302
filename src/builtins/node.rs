//! Node methods: `isa` paths, edge reading and setting by method, counting edges.

use super::{method, object, wrong_object, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::{Logic, NodeVal, Value};
use crate::world::{Target, ISA};

pub const BUILTINS: &[Builtin] = &[
    method("isa", Arity::range(1, 2), isa),
    method("edge", Arity::exactly(2), edge),
    method("is_edge", Arity::exactly(2), is_edge),
    method("set_edge", Arity::range(2, 3), set_edge),
    method("count_out", Arity::range(1, 2), count_out),
    method("count_in", Arity::range(1, 2), count_in),
    method("id", Arity::exactly(0), id),
    method("graph", Arity::exactly(0), graph),
    method("path", Arity::range(2, 3), path_method),
    method("get", Arity::range(1, 2), get),
    method("isolated", Arity::exactly(0), isolated),
    method("value", Arity::range(0, 1), value),
];

fn node_arg(v: &Value, what: &str, span: Span) -> R<NodeVal> {
    match v {
        Value::Node(n) => Ok(n.clone()),
        other => fail(span, format!("{what} must be a node, not {}", other.described())),
    }
}

fn rel_arg(v: &Value, span: Span) -> R<u32> {
    match v {
        Value::Edge(r) => Ok(*r),
        other => fail(span, format!("a relation (edge type) is needed, not {}", other.described())),
    }
}

/// `N.isa(C)`, or `G.isa(A, B)` with an explicit graph.
fn isa(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let obj = object(obj, span)?;
    if let (Value::Node(from), [Value::Node(to)]) = (&obj, args) {
        return Ok(Value::Logic(path(it, from, to, span)?)); // the usual case, without copies
    }
    let (from, to) = match obj {
        Value::Node(n) if args.len() == 1 => (n, node_arg(&args[0], "the class", span)?),
        Value::Graph(g) if args.len() == 2 => {
            let mut a = node_arg(&args[0], "the first argument", span)?;
            a.graph.get_or_insert(g);
            (a, node_arg(&args[1], "the second argument", span)?)
        }
        other => return wrong_object("isa", &other, "nodes (`N.isa(C)`) and graphs (`G.isa(A, B)`)", span),
    };
    Ok(Value::Logic(path(it, &from, &to, span)?))
}

fn path(it: &mut Interp, from: &NodeVal, to: &NodeVal, span: Span) -> R<Logic> {
    let holder = it.holder(from, span)?;
    let target_graph = match &to.graph {
        Some(g) => g.clone(),
        None => it.current_graph(span)?,
    };
    if target_graph.borrow().class != to.class {
        return fail(span, "the class node is not a node of the current graph; write `Graph=>$node`");
    }
    let target = Target { graph: target_graph.borrow().uid, node: to.id };
    if !std::rc::Rc::ptr_eq(&target_graph, &holder) {
        it.world.link(&target_graph);
    }
    Ok(it.world.path_value(&holder, from.id, &[ISA], target))
}

fn this_node(name: &str, obj: Option<Value>, span: Span) -> R<NodeVal> {
    match object(obj, span)? {
        Value::Node(n) => Ok(n),
        other => wrong_object(name, &other, "nodes", span),
    }
}

fn edge(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("edge", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let m = node_arg(&args[1], "the target", span)?;
    let holder = it.holder(&n, span)?;
    let key = it.key(&holder, &n, rel, &m, span)?;
    let v = holder.borrow().facts.get(key);
    Ok(Value::Logic(v))
}

fn is_edge(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let v = edge(it, obj, args, span)?;
    Ok(Value::bool(!matches!(v, Value::Logic(l) if l.is_undef())))
}

fn set_edge(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("set_edge", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let m = node_arg(&args[1], "the target", span)?;
    let value = match args.get(2) {
        Some(Value::Logic(l)) => *l,
        Some(other) => {
            return fail(span, format!("an edge can only be set to a logic value, not {}", other.described()))
        }
        None => Logic::TRUE,
    };
    let holder = it.holder(&n, span)?;
    let key = it.key(&holder, &n, rel, &m, span)?;
    holder.borrow_mut().facts.set(key, value);
    Ok(Value::Logic(value))
}

fn value_filter(args: &[Value], span: Span) -> R<Option<Logic>> {
    match args.get(1) {
        Some(Value::Logic(l)) => Ok(Some(*l)),
        Some(other) => fail(span, format!("an edge value must be a logic value, not {}", other.described())),
        None => Ok(None),
    }
}

fn count_out(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("count_out", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let want = value_filter(args, span)?;
    let holder = it.holder(&n, span)?;
    let g = holder.borrow();
    let count = g.facts.outgoing_rel(n.id, rel).iter().filter(|f| want.is_none_or(|w| f.value == w)).count();
    Ok(Value::Num(count as f64))
}

fn count_in(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("count_in", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let want = value_filter(args, span)?;
    let holder = it.holder(&n, span)?;
    let g = holder.borrow();
    let count = g
        .facts
        .iter()
        .filter(|f| f.key.rel() == rel && f.key.tgraph() == 0 && f.key.tgt() == n.id)
        .filter(|f| want.is_none_or(|w| f.value == w))
        .count();
    Ok(Value::Num(count as f64))
}

/// The targets of N's `rel` edges (or only those with the given value), sorted by name.
pub fn targets(it: &mut Interp, node: Value, args: &[Value], span: Span) -> R<Value> {
    let n = node_arg(&node, "the object", span)?;
    let Some(rel) = args.first() else { return fail(span, "`N.nodes(rel)` needs a relation") };
    let rel = rel_arg(rel, span)?;
    let want = value_filter(args, span)?;
    let holder = it.holder(&n, span)?;
    let class = holder.borrow().class;
    let mut out: Vec<(String, Value)> = Vec::new();
    for f in holder.borrow().facts.outgoing_rel(n.id, rel) {
        if want.is_some_and(|w| f.value != w) {
            continue;
        }
        let v = if f.key.tgraph() == 0 {
            Value::Node(NodeVal { class, id: f.key.tgt(), graph: n.graph.clone() })
        } else {
            match it.world.linked_graph(f.key.tgraph()) {
                Some(tg) => {
                    let tclass = tg.borrow().class;
                    Value::Node(NodeVal { class: tclass, id: f.key.tgt(), graph: Some(tg) })
                }
                None => continue,
            }
        };
        out.push((it.text(&v), v));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Value::array(out.into_iter().map(|(_, v)| v).collect()))
}

fn id(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this_node("id", obj, span)?;
    Ok(Value::Node(NodeVal { graph: None, ..n }))
}

fn graph(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this_node("graph", obj, span)?;
    match n.graph {
        Some(g) => Ok(Value::Graph(g)),
        None => Ok(it.graph.clone()),
    }
}

/// `N.path(Rel, M)` / `N.path([Rels], M)`: like `isa`, along any relations; `G.path(Rel, A, B)`
/// names the graph of A explicitly.
fn path_method(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let (from, args) = match (object(obj, span)?, args) {
        (Value::Node(n), [_, _]) => (n, args),
        (Value::Graph(g), [rel, a, b]) => {
            let mut a = node_arg(a, "the start", span)?;
            a.graph.get_or_insert(g);
            return path_method(it, Some(Value::Node(a)), &[rel.clone(), b.clone()], span);
        }
        (other, _) => {
            return wrong_object("path", &other, "nodes (`N.path(rel, M)`) and graphs (`G.path(rel, A, B)`)", span)
        }
    };
    let rels: Vec<u32> = match &args[0] {
        Value::Array(a) => a.borrow().iter().map(|r| rel_arg(r, span)).collect::<R<_>>()?,
        r => vec![rel_arg(r, span)?],
    };
    let to = node_arg(&args[1], "the target", span)?;
    let holder = it.holder(&from, span)?;
    let target_graph = match &to.graph {
        Some(g) => g.clone(),
        None => it.current_graph(span)?,
    };
    let target = Target { graph: target_graph.borrow().uid, node: to.id };
    if !std::rc::Rc::ptr_eq(&target_graph, &holder) {
        it.world.link(&target_graph);
    }
    Ok(Value::Logic(it.world.path_value(&holder, from.id, &rels, target)))
}

/// N itself, then its ancestors along True `isa` edges, nearest first (across graphs).
fn lineage(it: &Interp, start: &NodeVal, span: Span) -> R<Vec<(crate::world::GraphRef, u32)>> {
    let holder = it.holder(start, span)?;
    let mut out = vec![(holder, start.id)];
    let mut i = 0;
    while i < out.len() && out.len() < 10_000 {
        let (g, id) = out[i].clone();
        let parents: Vec<_> = {
            let gb = g.borrow();
            gb.facts
                .outgoing_rel(id, ISA)
                .iter()
                .filter(|f| f.value.is_true())
                .filter_map(|f| match f.key.tgraph() {
                    0 => Some((g.clone(), f.key.tgt())),
                    uid => it.world.linked_graph(uid).map(|tg| (tg, f.key.tgt())),
                })
                .collect()
        };
        for p in parents {
            if !out.iter().any(|(g2, id2)| std::rc::Rc::ptr_eq(g2, &p.0) && *id2 == p.1) {
                out.push(p);
            }
        }
        i += 1;
    }
    Ok(out)
}

/// `N.get(Rel, M)`: the value of Rel to M on N or its nearest `isa` ancestor that has one
/// (True or False; False when none does). `N.get(Rel)`: every M inherited as True.
fn get(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("get", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let lineage = lineage(it, &n, span)?;
    let mut seen: Vec<(u32, u32, Logic)> = Vec::new();
    for (g, id) in &lineage {
        let gb = g.borrow();
        for f in gb.facts.outgoing_rel(*id, rel) {
            let tuid = if f.key.tgraph() == 0 { gb.uid } else { f.key.tgraph() };
            if !seen.iter().any(|(u, t, _)| *u == tuid && *t == f.key.tgt()) && !f.value.is_undef() {
                seen.push((tuid, f.key.tgt(), f.value));
            }
        }
    }
    if let Some(target) = args.get(1) {
        let m = node_arg(target, "the target", span)?;
        let muid = match &m.graph {
            Some(g) => g.borrow().uid,
            None => it.current_graph(span)?.borrow().uid,
        };
        let v = seen.iter().find(|(u, t, _)| *u == muid && *t == m.id).map_or(Logic::FALSE, |s| s.2);
        return Ok(Value::Logic(if v.is_true() { Logic::TRUE } else { Logic::FALSE }));
    }
    let mut found: Vec<(String, Value)> = Vec::new();
    for (uid, tgt, _) in seen.into_iter().filter(|s| s.2.is_true()) {
        let graph = lineage
            .iter()
            .map(|(g, _)| g.clone())
            .find(|g| g.borrow().uid == uid)
            .or_else(|| it.world.linked_graph(uid));
        if let Some(g) = graph {
            let class = g.borrow().class;
            let node = Value::Node(NodeVal { class, id: tgt, graph: Some(g) });
            found.push((it.text(&node), node));
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(Value::array(found.into_iter().map(|(_, v)| v).collect()))
}

/// True when N has no edges at all in its graph, in or out.
fn isolated(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this_node("isolated", obj, span)?;
    let holder = it.holder(&n, span)?;
    let g = holder.borrow();
    let linked =
        !g.facts.outgoing(n.id).is_empty() || g.facts.iter().any(|f| f.key.tgraph() == 0 && f.key.tgt() == n.id);
    Ok(Value::bool(!linked))
}

/// `N.value()` reads the value stored on N in its graph (None if none); `N.value(V)` stores V.
fn value(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this_node("value", obj, span)?;
    let holder = it.holder(&n, span)?;
    match args.first() {
        None => Ok(holder.borrow().values.get(&n.id).cloned().unwrap_or(Value::None)),
        Some(v) => {
            std::rc::Rc::make_mut(&mut holder.borrow_mut().values).insert(n.id, v.clone());
            Ok(v.clone())
        }
    }
}

//! Node methods: `isa` paths, edge reading and setting by method, counting edges.

use super::{method, object, this, wrong_object, Arity, Builtin, Receivers};
use crate::eval::{fail, get_attr, lineage, Interp, R};
use crate::value::{Logic, NodeVal, Value};
use crate::world::{Target, ISA};
use ds_syntax::Span;

/// Methods that also have a graph form naming the node (`G.isa(A, B)`).
const NODE_OR_GRAPH: Receivers = Receivers::NODE.or(Receivers::GRAPH);

pub const BUILTINS: &[Builtin] = &[
    method("isa", Arity::range(1, 2), isa)
        .doc(
            "N.isa(C) or G.isa(A, B)",
            "the truest value of a path of `isa` edges from N to C, Undef when there is none",
        )
        .on(NODE_OR_GRAPH),
    method("edge", Arity::exactly(2), edge).doc("N.edge(rel, M)", "the value of the edge N rel M"),
    method("is_edge", Arity::exactly(2), is_edge).doc("N.is_edge(rel, M)", "True when the edge N rel M is not Undef"),
    method("set_edge", Arity::range(2, 3), set_edge)
        .doc("N.set_edge(rel, M [, V])", "sets the edge N rel M to V (True); N and M may be arrays of nodes"),
    method("count_out", Arity::range(1, 3), count_out)
        .doc("N.count_out(rel [, V]) or G.count_out(N, rel [, V])", "the number of N's outgoing rel edges (of value V)")
        .on(NODE_OR_GRAPH),
    method("count_in", Arity::range(1, 3), count_in)
        .doc("N.count_in(rel [, V]) or G.count_in(N, rel [, V])", "the number of N's incoming rel edges (of value V)")
        .on(NODE_OR_GRAPH),
    method("id", Arity::exactly(0), id)
        .doc("N.id()", "the node without its graph binding (None for anything but a node)"),
    method("graph", Arity::exactly(0), graph).doc("N.graph()", "the graph N is bound to (else the current graph)"),
    method("path", Arity::range(2, 3), path_method)
        .doc("N.path(rel or [rels], M) or G.path(rel, A, B)", "like `isa`, along the given relations")
        .on(NODE_OR_GRAPH),
    method("get", Arity::range(0, 2), get).doc(
        "N.get([rel [, M]])",
        "through `isa`: the nearest True/False rel edge to M; all inherited rel targets; a map of has, obj, sub, unit",
    ),
    method("isolated", Arity::exactly(0), isolated).doc("N.isolated()", "True when N has no edges at all, in or out"),
    method("value", Arity::range(0, 1), value)
        .doc("N.value([V])", "the value stored on N in its graph (None if none); with V, stores V"),
    method("bind", Arity::exactly(0), bind).doc("N.bind()", "N bound to the current graph"),
    method("unbind", Arity::exactly(0), unbind).doc("N.unbind()", "N without its graph binding"),
    method("common", Arity::exactly(2), common)
        .doc("N.common(rel or [rels], M)", "True when the walks from N and from M along True rel edges meet"),
    method("delete_edges", Arity::range(1, 2), delete_edges).doc(
        "N.delete_edges(rel [, recursive])",
        "removes N's rel edges, and (unless recursive is False) their targets' in turn; returns how many",
    ),
    method("nodes", Arity::range(1, 2), targets)
        .doc("N.nodes(rel [, V])", "the targets of node N's rel edges (of value V), sorted by name"),
    method("attr", Arity::range(0, 1), attr)
        .doc("N.attr([A]) or G.attr()", "N[A]; without A, the attributes N has; G.attr(): each node's own attributes")
        .on(NODE_OR_GRAPH),
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
    it.live(to, span)?;
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
    let (value, looked) = it.world.path_value(&holder, from.id, &[ISA], target);
    it.work(looked, span)?; // a step per edge followed
    Ok(value)
}

fn edge(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("edge", obj, span)?;
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

/// `N.set_edge(rel, M [, V=True])`; N and M may be arrays of nodes (reference 6.4): every pair
/// gets the edge.
fn set_edge(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let sources = node_list(object(obj, span)?, "`set_edge` works on nodes and arrays of nodes", span)?;
    let rel = rel_arg(&args[0], span)?;
    let targets = node_list(args[1].clone(), "the target must be a node or an array of nodes", span)?;
    let value = match args.get(2) {
        Some(Value::Logic(l)) => *l,
        Some(other) => {
            return fail(span, format!("an edge can only be set to a logic value, not {}", other.described()))
        }
        None => Logic::TRUE,
    };
    for n in &sources {
        let holder = it.holder(n, span)?;
        for m in &targets {
            let key = it.key(&holder, n, rel, m, span)?;
            holder.borrow_mut().set_edge(key, value);
        }
    }
    Ok(Value::Logic(value))
}

/// A node, or the nodes of an array, as a list.
fn node_list(v: Value, what: &str, span: Span) -> R<Vec<NodeVal>> {
    match v {
        Value::Node(n) => Ok(vec![n]),
        Value::Array(a) => a.borrow().iter().map(|x| node_arg(x, "an item of the array", span)).collect(),
        other => fail(span, format!("{what}, not {}", other.described())),
    }
}

/// The node and arguments of `N.count_out(rel [, V])`, or of the graph form
/// `G.count_out(N, rel [, V])` (reference 6.11), where N is taken in G.
fn count_args<'a>(name: &str, obj: Option<Value>, args: &'a [Value], span: Span) -> R<(NodeVal, &'a [Value])> {
    match object(obj, span)? {
        Value::Node(n) if args.len() <= 2 => Ok((n, args)),
        Value::Graph(g) if args.len() >= 2 => {
            let mut n = node_arg(&args[0], "the node", span)?;
            if n.class != g.borrow().class {
                return fail(span, format!("`{name}`: the node is not a node of this graph's world"));
            }
            n.graph = Some(g);
            Ok((n, &args[1..]))
        }
        other => wrong_object(
            name,
            &other,
            "nodes (`N.count_out(rel [, V])`) and graphs (`G.count_out(N, rel [, V])`)",
            span,
        ),
    }
}

fn value_filter(args: &[Value], span: Span) -> R<Option<Logic>> {
    match args.get(1) {
        Some(Value::Logic(l)) => Ok(Some(*l)),
        Some(other) => fail(span, format!("an edge value must be a logic value, not {}", other.described())),
        None => Ok(None),
    }
}

fn count_out(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let (n, args) = count_args("count_out", obj, args, span)?;
    let rel = rel_arg(&args[0], span)?;
    let want = value_filter(args, span)?;
    let holder = it.holder(&n, span)?;
    let g = holder.borrow();
    let count = g.facts.outgoing_rel(n.id, rel).filter(|f| want.is_none_or(|w| f.value == w)).count();
    Ok(Value::Num(count as f64))
}

fn count_in(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let (n, args) = count_args("count_in", obj, args, span)?;
    let rel = rel_arg(&args[0], span)?;
    let want = value_filter(args, span)?;
    let holder = it.holder(&n, span)?;
    it.work(holder.borrow().facts.len() as u64 / 16, span)?; // it looks at every edge
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
fn targets(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n: NodeVal = this("nodes", obj, span)?;
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

/// `X.id()`: a node without its graph binding; any other value gives None (reference 7.2).
fn id(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match super::object(obj, span)? {
        Value::Node(n) => Ok(Value::Node(NodeVal { graph: None, ..n })),
        _ => Ok(Value::None),
    }
}

fn graph(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("graph", obj, span)?;
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
    it.live(&to, span)?;
    let target_graph = match &to.graph {
        Some(g) => g.clone(),
        None => it.current_graph(span)?,
    };
    let target = Target { graph: target_graph.borrow().uid, node: to.id };
    if !std::rc::Rc::ptr_eq(&target_graph, &holder) {
        it.world.link(&target_graph);
    }
    let (value, looked) = it.world.path_value(&holder, from.id, &rels, target);
    it.work(looked, span)?; // a step per edge followed
    Ok(Value::Logic(value))
}

/// `N.get(Rel, M)`: the value of Rel to M on N or its nearest `isa` ancestor that has one
/// (True or False; False when none does). `N.get(Rel)`: every M inherited as True.
fn get(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("get", obj, span)?;
    let Some(rel) = args.first() else {
        // `N.get()`: a map from each of the built-in relations after `isa`, `attr` (has, obj,
        // sub, unit) to `N.get(rel)`, as the original gives it.
        let mut m = crate::value::Map::default();
        for name in &crate::world::BUILTIN_RELATIONS[2..] {
            let Some(r) = it.world.relation(name) else { continue };
            let targets = get(it, Some(Value::Node(n.clone())), &[Value::Edge(r)], span)?;
            m.insert(Value::Edge(r), targets);
        }
        return Ok(Value::Map(std::rc::Rc::new(std::cell::RefCell::new(m))));
    };
    let rel = rel_arg(rel, span)?;
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
    let n = this::<NodeVal>("isolated", obj, span)?;
    let holder = it.holder(&n, span)?;
    let g = holder.borrow();
    let linked =
        g.facts.outgoing(n.id).next().is_some() || g.facts.iter().any(|f| f.key.tgraph() == 0 && f.key.tgt() == n.id);
    Ok(Value::bool(!linked))
}

/// `N.value()` reads the value stored on N in its graph (None if none); `N.value(V)` stores V.
fn value(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("value", obj, span)?;
    let holder = it.holder(&n, span)?;
    match args.first() {
        None => Ok(holder.borrow().data.values.get(&n.id).cloned().unwrap_or(Value::None)),
        Some(v) => {
            holder.borrow_mut().data_mut().values.insert(n.id, v.clone());
            Ok(v.clone())
        }
    }
}

/// `N.bind()`: N bound to the current graph (as `GRAPH=>N` would give it).
fn bind(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("bind", obj, span)?;
    let g = it.current_graph(span)?;
    if g.borrow().class != n.class {
        return fail(span, "`bind` binds a node to the current graph, and this node is of another world");
    }
    it.live(&n, span)?;
    Ok(Value::Node(NodeVal { graph: Some(g), ..n }))
}

/// `N.unbind()`: N without its binding (the same as `N.id()`).
fn unbind(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("unbind", obj, span)?;
    Ok(Value::Node(NodeVal { graph: None, ..n }))
}

/// The relations of an argument that is one relation or an array of them.
fn rels_arg(v: &Value, span: Span) -> R<Vec<u32>> {
    match v {
        Value::Array(a) => a.borrow().iter().map(|r| rel_arg(r, span)).collect(),
        r => Ok(vec![rel_arg(r, span)?]),
    }
}

/// Every node reachable from `start` (itself included) along True edges of `rels`, across
/// graphs, as (graph uid, node).
fn reach(it: &Interp, start: &NodeVal, rels: &[u32], span: Span) -> R<Vec<(u32, u32)>> {
    let holder = it.holder(start, span)?;
    let mut seen = rustc_hash::FxHashSet::default();
    let uid = holder.borrow().uid;
    seen.insert((uid, start.id));
    let mut work = vec![(holder, start.id)];
    while let Some((g, id)) = work.pop() {
        let gb = g.borrow();
        for &rel in rels {
            for f in gb.facts.outgoing_rel(id, rel).filter(|f| f.value.is_true()) {
                let (tg, tuid) = match f.key.tgraph() {
                    0 => (g.clone(), gb.uid),
                    tuid => match it.world.linked_graph(tuid) {
                        Some(tg) => (tg, tuid),
                        None => continue,
                    },
                };
                if seen.insert((tuid, f.key.tgt())) {
                    work.push((tg, f.key.tgt()));
                }
            }
        }
    }
    Ok(seen.into_iter().collect())
}

/// `N.common(rel or [rels], M)`: True when the walks from N and from M along True edges of the
/// relations (each walk starting at its own node) reach a common node, else False.
fn common(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("common", obj, span)?;
    let rels = rels_arg(&args[0], span)?;
    let m = node_arg(&args[1], "the second node", span)?;
    let a: rustc_hash::FxHashSet<_> = reach(it, &n, &rels, span)?.into_iter().collect();
    let b = reach(it, &m, &rels, span)?;
    Ok(Value::bool(b.iter().any(|x| a.contains(x))))
}

/// `N.delete_edges(rel [, recursive=True])`: removes N's outgoing `rel` edges, and with
/// `recursive` those of their targets in turn (within N's graph). Returns how many went.
fn delete_edges(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = this::<NodeVal>("delete_edges", obj, span)?;
    let rel = rel_arg(&args[0], span)?;
    let recursive = match args.get(1) {
        None => true,
        Some(Value::Logic(l)) => l.is_true(),
        Some(Value::Num(x)) => *x != 0.0,
        Some(other) => {
            return fail(span, format!("argument 2 of `delete_edges` must be True or False, not {}", other.described()))
        }
    };
    let holder = it.holder(&n, span)?;
    let mut g = holder.borrow_mut();
    let mut done = rustc_hash::FxHashSet::default();
    let mut work = vec![n.id];
    let mut count = 0;
    while let Some(id) = work.pop() {
        if !done.insert(id) {
            continue;
        }
        let facts: Vec<_> = g.facts.outgoing_rel(id, rel).collect();
        for f in facts {
            let (old, new) = g.set_edge(f.key, Logic::UNDEF);
            if old != new {
                count += 1;
            }
            if recursive && f.key.tgraph() == 0 {
                work.push(f.key.tgt());
            }
        }
    }
    Ok(Value::Num(count as f64))
}

/// `N.attr()`: the attribute nodes N has, its own and inherited, sorted by name;
/// `N.attr(A)`: the same as `N[A]`. `G.attr()`: a map from each node of G with attributes of
/// its own to the map of them.
fn attr(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Node(n) => {
            if let Some(a) = args.first() {
                return get_attr(it, &n, a, span);
            }
            let mut all = Vec::new();
            for (g, id) in lineage(it, &n, span)? {
                let g = g.borrow();
                all.extend(
                    g.data
                        .attrs
                        .range((id, 0, 0)..=(id, u32::MAX, u32::MAX))
                        .map(|(k, (node, _))| ((k.1, k.2), node.clone())),
                );
            }
            let mut found: Vec<(String, Value)> =
                first_of_each(all).into_iter().map(|node| (it.text(&node), node)).collect();
            found.sort_by(|a, b| a.0.cmp(&b.0));
            Ok(Value::array(found.into_iter().map(|(_, v)| v).collect()))
        }
        Value::Graph(g) => {
            if !args.is_empty() {
                return fail(span, "`G.attr()` takes no arguments");
            }
            let class = g.borrow().class;
            let mut out = crate::value::Map::default();
            let attrs = g.borrow().data.attrs.clone();
            for (&(id, _, _), (key, v)) in attrs.iter() {
                let node = Value::Node(NodeVal { class, id, graph: None });
                let entry = match out.get(&node) {
                    Some(Value::Map(m)) => m.clone(),
                    _ => {
                        let m = std::rc::Rc::new(std::cell::RefCell::new(crate::value::Map::default()));
                        out.insert(node.clone(), Value::Map(m.clone()));
                        m
                    }
                };
                entry.borrow_mut().insert(key.clone(), v.clone());
            }
            Ok(Value::Map(std::rc::Rc::new(std::cell::RefCell::new(out))))
        }
        other => wrong_object("attr", &other, "nodes and graphs", span),
    }
}

/// The items whose key no item before had, in order. A set of the keys seen, not a list: a node
/// may have an attribute for each of 100,000 nodes, and checking a list made `N.attr()`
/// quadratic (7 s).
fn first_of_each<K: Eq + std::hash::Hash, T>(items: impl IntoIterator<Item = (K, T)>) -> Vec<T> {
    let mut seen: rustc_hash::FxHashSet<K> = Default::default();
    items.into_iter().filter_map(|(k, item)| seen.insert(k).then_some(item)).collect()
}

#[cfg(test)]
mod tests {
    use super::first_of_each;
    use crate::counted::{looks, Counted};

    /// Counted work, not a clock: the keys are looked at a bounded number of times each, at
    /// two sizes, where a list of the keys seen compares each key with all before it.
    #[test]
    fn each_key_is_looked_at_a_bounded_number_of_times() {
        for n in [1_000u32, 50_000] {
            // Every key twice (a node's own attribute and an inherited one of the same name).
            let items = (0..2 * n).map(|i| (Counted(i % n), i));
            let (kept, looks) = looks(|| first_of_each(items));
            assert_eq!(kept, (0..n).collect::<Vec<_>>());
            assert!(looks <= 8 * u64::from(n), "{looks} looks at the keys for {n} distinct keys");
        }
    }
}

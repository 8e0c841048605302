//! Graph functions and methods: creating, copying, naming and inspecting world states.

use super::{arg, function, method, object, this, wrong_object, Arity, Builtin, Receivers};
use crate::eval::{fail, Interp, R};
use crate::value::{NodeVal, Value};
use crate::world::print::{DotOptions, DumpOptions};
use crate::world::{GraphRef, BUILTIN_RELATIONS};
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    function("GRAPH", Arity::range(0, 1), new_graph)
        .doc("GRAPH([name])", "a new empty graph with a node list of its own: the first state of a new world"),
    method("name", Arity::range(0, 1), name).doc("G.name([new])", "the graph's name; with new, renames it"),
    method("verbose", Arity::range(0, 1), verbose)
        .doc("G.verbose([n])", "notes on standard error: 1 on changed and deleted edges, 2 also on new ones, 0 none"),
    method("nodes", Arity::exactly(0), nodes).doc("G.nodes()", "the nodes of graph G, in order"),
    method("add_node", Arity::range(0, 1), add_node)
        .doc("G.add_node([name])", "adds a node to G's world and returns it (an unnamed one bound to G)"),
    method("add_nodes", Arity::exactly(1), add_nodes).doc("G.add_nodes(n)", "adds n unnamed nodes to G's world; returns G"),
    method("dot", Arity::range(0, 4), dot).on(Receivers::GRAPH.or(Receivers::SPACE)).doc(
        "G.dot([file [, rels [, loops [, mode]]]])",
        "the graph as Graphviz text, printed or written to file; only the relations rels, without loops when loops is False",
    ),
    method("class_id", Arity::exactly(0), class_id).doc("G.class_id()", "the number of G's world (its node list)"),
    method("edges", Arity::range(0, 1), edges)
        .doc("G.edges([all])", "the relation types as an array; with False only the declared ones"),
    method("clear_edges", Arity::exactly(0), clear_edges).doc("G.clear_edges()", "removes every edge of G; returns G"),
    method("clear", Arity::exactly(0), clear_edges).doc("G.clear()", "the same as `G.clear_edges()`"),
    method("sort", Arity::range(0, 1), sort).doc("G.sort()", "G itself: a graph's edges are always kept sorted"),
    method("facts", Arity::exactly(0), facts).doc("G.facts()", "the number of edges G holds"),
    method("brief", Arity::at_least(0), brief).doc(
        "G.brief([rel, ...])",
        "G's edges on one line, `a on b, c !on d`, without those of the relations given (`G.brief(isa, want)`)",
    ),
    method("hash", Arity::exactly(0), hash).doc("G.hash()", "G's content hash as 16 hex digits (equal graphs, equal hashes)"),
    method("str", Arity::exactly(0), sentences).doc("G.str()", "G's edges as sentences, `a rel b . `"),
    method("json", Arity::range(0, 2), json).on(Receivers::GRAPH.or(Receivers::SPACE)).doc(
        "G.json([values [, inverse]])",
        "the dump of `out G` as a string; without node values when values is 0; with inverse 1, incoming edges too",
    ),
    method("closed_world", Arity::range(0, 1), closed_world)
        .doc("G.closed_world([flag])", "reads or sets the closed-world flag of G's world (it is only kept)"),
    method("close", Arity::range(0, 1), closed_world).doc("G.close([flag])", "the same as `G.closed_world([flag])`"),
    method("edges_blocked", Arity::range(0, 1), edges_blocked)
        .doc("G.edges_blocked([1|0])", "with 1, setting an edge leaves an existing edge as it is"),
    method("edges_changes", Arity::range(0, 1), edges_changes)
        .doc("G.edges_changes([n])", "how many edge changes were made in G (since it was made, or since set to n)"),
    method("changed", Arity::exactly(0), changed)
        .doc("G.changed()", "True when an edge of G changed since the last `changed()` (or since G was made)"),
    method("change", Arity::exactly(3), change)
        .doc("G.change(rel, from, to)", "every rel edge of value from gets value to; returns how many changed"),
    method("sorted", Arity::range(0, 1), sorted)
        .doc("G.sorted([n])", "a number kept for the original's switch (edges are always sorted)"),
    method("edgesNum", Arity::exactly(0), edges_num)
        .doc("G.edgesNum()", "the number of relation types, the built-in ones included"),
    method("delete_nodes", Arity::exactly(0), delete_nodes)
        .doc("G.delete_nodes()", "removes every node of G's world from all its graphs, with their edges"),
    function("delete_nodes", Arity::exactly(0), delete_nodes_current)
        .doc("delete_nodes()", "removes every node of the current graph's world from all its graphs"),
    function("class_id", Arity::exactly(0), class_id_current)
        .doc("class_id()", "the number of the current graph's world"),
    method("isomorphic", Arity::exactly(1), isomorphic)
        .doc("G.isomorphic(H)", "True when renaming G's nodes one-to-one can turn G's edges into H's"),
    function("add", Arity::range(2, 3), add)
        .doc("add(G1, G2 [, rels])", "adds to G1 the edges of G2 between pairs G1 has none for (skipping rels); returns G1"),
    method("senses_graph", Arity::range(0, 1), senses_graph)
        .doc("G.senses_graph([S])", "node constants G's world lacks are looked up in S; without S, gives S (or None)"),
];

/// `G.str()`: the facts as sentences, `a rel b . `, `a  not rel b . `, `a rel(p0,p1) b . `.
fn sentences(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("str", obj, span)?;
    let g = g.borrow();
    let mut text = it.text_start();
    let class = it.world.class(g.class);
    for f in g.facts.iter() {
        let from = class.name(f.key.src());
        let to = if f.key.tgraph() == 0 {
            class.name(f.key.tgt()).to_string()
        } else {
            it.world.external_name(f.key.tgraph(), f.key.tgt())
        };
        let rel = it.world.relation_name(f.key.rel());
        let v = f.value;
        let sentence = if v.is_true() {
            format!("{from} {rel} {to} . ")
        } else if v.is_false() {
            format!("{from}  not {rel} {to} . ")
        } else {
            format!("{from} {rel}{} {to} . ", crate::value::display::logic_pair(v))
        };
        text.push(&sentence, span)?;
    }
    drop(g);
    Ok(Value::Str(it.text_end(text, span)?.into()))
}

/// `G.json()`: the same dump as `out G`, as a string.
fn json(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    if let Some(s) = obj.as_ref().and_then(Value::as_host::<crate::search::space::Space>) {
        return super::search_space::json(it, &s, args, span);
    }
    let g = this::<GraphRef>("json", obj, span)?;
    let flag = |i: usize, default: bool| args.get(i).map_or(Ok(default), |v| flag_arg(v, "json", span));
    let opts = DumpOptions { values: flag(0, true)?, inverse: flag(1, false)? };
    let meter = it.meter();
    let dumped = it.world.graph_dump_within(&g.borrow(), opts, crate::value::MAX_TEXT, &mut |work| meter.tick(work));
    it.charge(&meter, span)?;
    match dumped {
        Ok(text) => Ok(Value::Str(text.into())),
        Err(_) => fail(span, format!("the dump would be longer than {} MB", crate::value::MAX_TEXT / 1_000_000)),
    }
}

fn new_graph(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let name = match args.first() {
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => return fail(span, format!("a graph's name must be a string, not {}", other.described())),
        None => "GRAPH".to_string(),
    };
    Ok(Value::Graph(it.world.new_graph(&name)))
}

/// `G.name()` reads the name; `G.name("X")` sets and returns it.
/// `G.name([new])`; the name of anything that is not a graph is "unknown" (reference 6.8).
fn name(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = match object(obj, span)? {
        Value::Graph(g) => g,
        _ if args.is_empty() => return Ok(Value::str("unknown")),
        other => return wrong_object("name", &other, "graphs", span),
    };
    match args.first() {
        Some(Value::Str(s)) => {
            let mut g = g.borrow_mut();
            g.name = g.name.renamed(s.clone());
            Ok(Value::Str(s.clone()))
        }
        Some(other) => fail(span, format!("a graph's name must be a string, not {}", other.described())),
        None => Ok(Value::Str(g.borrow().name.to_str())),
    }
}

fn verbose(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("verbose", obj, span)?;
    if args.is_empty() {
        return Ok(Value::Num(g.borrow().verbose as f64));
    }
    let n = arg::<f64>(args, 0, "verbose", span)?;
    g.borrow_mut().verbose = n.clamp(0.0, 2.0) as u8;
    Ok(Value::Graph(g))
}

/// `G.nodes()`: the nodes of G (unbound, as the original prints them: use them with
/// `GRAPH = G`); `N.nodes(rel [, value])` is in node.rs.
fn nodes(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g: GraphRef = this("nodes", obj, span)?;
    if !args.is_empty() {
        return fail(span, "`G.nodes()` takes no arguments");
    }
    let class = g.borrow().class;
    it.bulk(it.world.class(class).len(), std::mem::size_of::<Value>(), span)?;
    let ids = it.world.class(class).ids();
    Ok(Value::array(ids.map(|id| Value::Node(NodeVal { class, id, graph: None })).collect()))
}

/// `G.sort()`: a graph's edges are always kept sorted.
fn sort(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g: GraphRef = this("sort", obj, span)?;
    if !args.is_empty() {
        return fail(span, "`G.sort()` of a graph takes no arguments");
    }
    Ok(Value::Graph(g))
}

fn add_node(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("add_node", obj, span)?;
    let class = g.borrow().class;
    match args.first() {
        // As in the original, a named node is returned unbound (it prints as `d`).
        Some(Value::Str(s)) => Ok(Value::Node(NodeVal { class, id: it.world.add_node(class, s), graph: None })),
        Some(other) => fail(span, format!("a node's name must be a string, not {}", other.described())),
        // An unnamed one is bound to G (reference 6): `Evs.add_node().value("S0")` sets its
        // value in Evs, whatever the current graph is.
        None => Ok(Value::Node(NodeVal { class, id: it.world.add_unnamed_node(class), graph: Some(g) })),
    }
}

fn add_nodes(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("add_nodes", obj, span)?;
    let n = arg::<f64>(args, 0, "add_nodes", span)?;
    if !(0.0..=10_000_000.0).contains(&n) {
        return fail(span, "`add_nodes` takes a count from 0 to 10 million");
    }
    let class = g.borrow().class;
    // A node costs its entry in the class and a name of a few bytes.
    it.bulk(n as usize, 64, span)?;
    for _ in 0..n as usize {
        it.world.add_unnamed_node(class);
        it.work(1, span)?;
    }
    Ok(Value::Graph(g))
}

/// `G.dot([file [, rels [, loops [, mode]]]])`: the graph as Graphviz text, printed (no file,
/// or "") or written to the file (relative to the current directory); only the relations
/// `rels` (one or a non-empty array); loops left out when `loops` is False. `mode` is
/// accepted and changes nothing (ds keeps attributes apart from the edges).
fn dot(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    if let Some(s) = obj.as_ref().and_then(Value::as_host::<crate::search::space::Space>) {
        return super::search_space::dot(it, &s, args, span);
    }
    let g = this::<GraphRef>("dot", obj, span)?;
    let mut opts = DotOptions::default();
    if let Some(rels) = args.get(1) {
        // An empty list draws every relation, as the original did.
        opts.relations = Some(relation_list(rels, "dot", span)?).filter(|r| !r.is_empty());
    }
    if let Some(loops) = args.get(2) {
        opts.hide_loops = !flag_arg(loops, "dot", span)?;
    }
    if let Some(mode) = args.get(3) {
        if !matches!(mode, Value::Num(_)) {
            return fail(span, format!("the mode of `dot` is a number, not {}", mode.described()));
        }
    }
    graph_work(it, &g, span)?;
    let text = it.world.graph_dot(&g.borrow(), &opts);
    if text.len() > crate::value::MAX_TEXT {
        return fail(span, "`dot` would make a text longer than 100 MB");
    }
    match args.first() {
        None => it.write_out(&text, span)?,
        Some(Value::Str(path)) if path.is_empty() => it.write_out(&text, span)?,
        Some(Value::Str(path)) => super::file::write_file(it, path, &text, span)?,
        Some(other) => return fail(span, format!("`dot` takes a file name, not {}", other.described())),
    }
    Ok(Value::None)
}

/// A relation or an array of relations.
fn relation_list(v: &Value, fname: &str, span: Span) -> R<Vec<u32>> {
    let one = |v: &Value| match v {
        Value::Edge(r) => Ok(*r),
        other => fail(span, format!("`{fname}` takes relations, not {}", other.described())),
    };
    match v {
        Value::Array(a) => a.borrow().iter().map(one).collect(),
        other => Ok(vec![one(other)?]),
    }
}

fn class_id(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(this::<GraphRef>("class_id", obj, span)?.borrow().class as f64))
}

/// The relation types; `G.edges(False)` only the user-declared ones.
fn edges(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    this::<GraphRef>("edges", obj, span)?;
    let user_only = matches!(args.first(), Some(Value::Logic(l)) if l.is_false());
    let first = if user_only { crate::world::BUILTIN_RELATIONS.len() + 1 } else { 1 };
    let mut rels: Vec<(String, u32)> =
        (first..it.world.relations.len()).map(|i| (it.world.relations[i].to_string(), i as u32)).collect();
    rels.sort();
    Ok(Value::array(rels.into_iter().map(|(_, id)| Value::Edge(id)).collect()))
}

pub(crate) fn clear_edges(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("clear_edges", obj, span)?;
    g.borrow_mut().clear_edges();
    Ok(Value::Graph(g))
}

/// The number of edges (facts) the state holds.
fn facts(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(this::<GraphRef>("facts", obj, span)?.borrow().facts.len() as f64))
}

/// `G.brief(rel, ...)`: the short printed form of a state, leaving out the relations named
/// (each argument a relation, or an array of them): what a search changes, at a glance.
fn brief(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("brief", obj, span)?;
    let mut leave_out = Vec::new();
    for arg in args {
        let items = match arg {
            Value::Array(a) => a.to_vec(),
            other => vec![other.clone()],
        };
        for item in items {
            match item {
                Value::Edge(r) => leave_out.push(r),
                other => return fail(span, format!("`brief` leaves out relations, and this is {}", other.described())),
            }
        }
    }
    graph_work(it, &g, span)?;
    let text = it.world.graph_brief(&g.borrow(), &leave_out);
    if text.len() > crate::value::MAX_TEXT {
        return fail(span, "`brief` would make a string longer than 100 MB");
    }
    Ok(Value::str(&text))
}

/// Before a call that goes through every node and edge of a graph: a step for each.
fn graph_work(it: &mut Interp, g: &GraphRef, span: Span) -> R<()> {
    let size = {
        let g = g.borrow();
        it.world.class(g.class).len() + g.facts.len()
    };
    it.work(size as u64, span)
}

/// The content hash, as a string of 16 hex digits (equal graphs have equal hashes).
fn hash(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::str(&format!("{:016x}", this::<GraphRef>("hash", obj, span)?.borrow().facts.hash())))
}

/// A flag argument: a logic value (True sets it) or a number (non-zero sets it).
fn flag_arg(v: &Value, fname: &str, span: Span) -> R<bool> {
    match v {
        Value::Logic(l) => Ok(l.is_true()),
        Value::Num(n) => Ok(*n != 0.0),
        other => fail(span, format!("`{fname}` takes True/False or 1/0, not {}", other.described())),
    }
}

/// `G.closed_world([flag])` (also `G.close([flag])`): the closed-world flag of G's class,
/// shared by every graph of the class. It is only stored: a failed `exists` is False on every
/// graph (docs/language.md, decision 1). Returns the flag as True/False.
pub(crate) fn closed_world(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("closed_world", obj, span)?;
    let class = g.borrow().class as usize;
    if let Some(v) = args.first() {
        it.world.classes[class].closed = flag_arg(v, "closed_world", span)?;
    }
    Ok(Value::bool(it.world.classes[class].closed))
}

/// `G.edges_blocked([0|1])`: with 1, setting an edge leaves an existing edge as it is (new
/// edges are still added). Returns the flag as a number.
fn edges_blocked(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("edges_blocked", obj, span)?;
    if let Some(v) = args.first() {
        g.borrow_mut().data_mut().blocked = flag_arg(v, "edges_blocked", span)?;
    }
    let blocked = g.borrow().data.blocked;
    Ok(Value::Num(if blocked { 1.0 } else { 0.0 }))
}

/// `G.edges_changes([n])`: how many edge changes the script made in G (since it was made, or
/// since the count was set to n).
fn edges_changes(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("edges_changes", obj, span)?;
    if !args.is_empty() {
        let n = arg::<f64>(args, 0, "edges_changes", span)?;
        if !(0.0..=9e15).contains(&n) {
            return fail(span, "`edges_changes` takes a count >= 0");
        }
        g.borrow_mut().set_changes(n as u64);
    }
    let n = g.borrow().changes();
    Ok(Value::Num(n as f64))
}

/// `G.changed()`: True if an edge of G changed since the previous `changed()` (or since G was
/// made), and starts counting afresh.
fn changed(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("changed", obj, span)?;
    let changed = g.borrow_mut().take_changed();
    Ok(Value::bool(changed))
}

/// `G.change(rel, from, to)`: every `rel` edge whose value is `from` gets `to` (Undef deletes
/// it); returns how many changed.
fn change(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("change", obj, span)?;
    let Value::Edge(rel) = args[0] else {
        return fail(span, format!("argument 1 of `change` must be a relation, not {}", args[0].described()));
    };
    let logic = |i: usize| match &args[i] {
        Value::Logic(l) => Ok(*l),
        other => fail(span, format!("argument {} of `change` must be a logic value, not {}", i + 1, other.described())),
    };
    let (from, to) = (logic(1)?, logic(2)?);
    let mut g = g.borrow_mut();
    let keys: Vec<_> = g.facts.iter().filter(|f| f.key.rel() == rel && f.value == from).map(|f| f.key).collect();
    let mut count = 0;
    for k in keys {
        let (old, new) = g.set_edge(k, to);
        if old != new {
            count += 1;
        }
    }
    Ok(Value::Num(count as f64))
}

/// `G.sorted([n])`: the original's switch for keeping edge lists sorted. ds always keeps them
/// sorted; the number is only stored (copies inherit it).
fn sorted(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("sorted", obj, span)?;
    if !args.is_empty() {
        g.borrow_mut().data_mut().sorted = arg::<f64>(args, 0, "sorted", span)?;
    }
    let n = g.borrow().data.sorted;
    Ok(Value::Num(n))
}

/// `G.edgesNum()`: the number of relation types (the built-in six included).
fn edges_num(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    this::<GraphRef>("edgesNum", obj, span)?;
    Ok(Value::Num((it.world.relations.len() - 1) as f64))
}

/// `G.delete_nodes()`: removes every node of G's class from every graph of the class.
fn delete_nodes(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("delete_nodes", obj, span)?;
    let class = g.borrow().class;
    if !it.world.delete_nodes(class) {
        return fail(span, "`delete_nodes` cannot run while a graph of the program is in use");
    }
    Ok(Value::Graph(g))
}

/// `delete_nodes()`: the same for the current graph's class.
fn delete_nodes_current(it: &mut Interp, _: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = it.current_graph(span)?;
    delete_nodes(it, Some(Value::Graph(g)), &[], span)
}

/// `class_id()`: the class of the current graph.
fn class_id_current(it: &mut Interp, _: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = it.current_graph(span)?;
    class_id(it, Some(Value::Graph(g)), &[], span)
}

/// `G.isomorphic(H)`: True when some one-to-one renaming of G's nodes onto H's turns G's edges
/// of user relations into exactly H's (same relations, same values). The built-in relations
/// (`isa` and the rest) do not count; an edge into another world's graph must go to the same
/// node there. G and H may be of different worlds, but must have as many nodes.
///
/// Nodes without such edges can be renamed onto one another freely: only their numbers must
/// agree, and the search (petgraph's VF2, exponential in the worst case) runs on the others.
/// It counts its work against the limits and gives up at Ctrl-C, `--timeout` or `--max-steps`.
fn isomorphic(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("isomorphic", obj, span)?;
    let Value::Graph(h) = &args[0] else {
        return fail(span, format!("`isomorphic` compares with a graph, not {}", args[0].described()));
    };
    let (a, a_isolated) = shape(it, &g.borrow());
    let (b, b_isolated) = shape(it, &h.borrow());
    if a_isolated != b_isolated || a.node_count() != b.node_count() || a.edge_count() != b.edge_count() {
        return Ok(Value::bool(false));
    }
    if profile(&a) != profile(&b) {
        return Ok(Value::bool(false));
    }
    let n = a.node_count();
    if n > MAX_ISOMORPHIC_NODES {
        return fail(
            span,
            format!("`isomorphic` compares graphs with at most {MAX_ISOMORPHIC_NODES} nodes that have edges, not {n}"),
        );
    }
    // Each call of a matcher stands for a step of the search, which also scans for candidates.
    let meter = it.meter();
    let per_call = 1 + n as u64 / 32;
    let calls = std::cell::Cell::new(0u32);
    let gave_up = std::cell::Cell::new(false);
    let go_on = || {
        if gave_up.get() {
            return false;
        }
        meter.add(per_call);
        calls.set(calls.get().wrapping_add(1));
        if calls.get().is_multiple_of(256) && meter.exhausted() {
            gave_up.set(true); // every later match fails, so the search unwinds at once
        }
        !gave_up.get()
    };
    let same = petgraph::algo::is_isomorphic_matching(&a, &b, |x, y| go_on() && x == y, |x, y| go_on() && x == y);
    it.charge(&meter, span)?;
    Ok(Value::bool(same))
}

/// Above this many nodes with edges, `isomorphic` refuses: its search keeps an adjacency matrix
/// of n * n bits for each graph (20,000 nodes: 50 MB).
const MAX_ISOMORPHIC_NODES: usize = 20_000;

/// A graph's user-relation edges as a petgraph graph: one petgraph edge per ordered pair of
/// nodes, labelled with the sorted (relation, value) list of the facts between them; a node is
/// labelled with its edges into other graphs (which a renaming must keep as they are).
type Shape = petgraph::Graph<NodeLabel, EdgeLabel>;
/// Edges into other graphs: (relation, value bits, graph, target).
type NodeLabel = Vec<(u32, u64, u32, u32)>;
/// The facts from one node to another: (relation, value bits).
type EdgeLabel = Vec<(u32, u64)>;

/// The shape of g's nodes that have edges (or edges into other graphs), and how many nodes have
/// none.
fn shape(it: &Interp, g: &crate::world::Graph) -> (Shape, usize) {
    let class = it.world.class(g.class);
    let first = class.first();
    let user = BUILTIN_RELATIONS.len() as u32;
    let mut labels: std::collections::BTreeMap<u32, NodeLabel> = Default::default();
    let mut pairs: std::collections::BTreeMap<(u32, u32), EdgeLabel> = Default::default();
    for f in g.facts.iter().filter(|f| f.key.rel() > user && class.contains(f.key.src())) {
        if f.key.tgraph() == 0 {
            if class.contains(f.key.tgt()) {
                pairs.entry((f.key.src(), f.key.tgt())).or_default().push((f.key.rel(), f.value.bits()));
            }
        } else {
            labels.entry(f.key.src()).or_default().push((f.key.rel(), f.value.bits(), f.key.tgraph(), f.key.tgt()));
        }
    }
    let mut used: Vec<u32> = labels.keys().copied().chain(pairs.keys().flat_map(|&(a, b)| [a, b])).collect();
    used.sort_unstable();
    used.dedup();
    let mut s = Shape::with_capacity(used.len(), pairs.len());
    let mut index = vec![petgraph::graph::NodeIndex::end(); class.len()];
    for &id in &used {
        index[(id - first) as usize] = s.add_node(labels.remove(&id).unwrap_or_default());
    }
    for ((a, b), label) in pairs {
        s.add_edge(index[(a - first) as usize], index[(b - first) as usize], label);
    }
    (s, class.len() - used.len())
}

/// What a renaming keeps: the sorted list of each node's (label, outgoing labels, incoming
/// labels). Different profiles rule an isomorphism out before the search.
fn profile(s: &Shape) -> Vec<(&NodeLabel, Vec<&EdgeLabel>, Vec<&EdgeLabel>)> {
    use petgraph::Direction::{Incoming, Outgoing};
    let mut p: Vec<_> = s
        .node_indices()
        .map(|v| {
            let mut out: Vec<_> = s.edges_directed(v, Outgoing).map(|e| e.weight()).collect();
            let mut inc: Vec<_> = s.edges_directed(v, Incoming).map(|e| e.weight()).collect();
            out.sort_unstable();
            inc.sort_unstable();
            (&s[v], out, inc)
        })
        .collect();
    p.sort_unstable();
    p
}

/// `add(G1, G2 [, rels])`: adds to G1, in place, every edge of G2 between a pair G1 has no edge
/// of that relation for (skipping the relations listed in `rels`: one relation or an array of
/// them); returns G1. Both must be states of one world.
fn add(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let (Value::Graph(a), Value::Graph(b)) = (&args[0], &args[1]) else {
        return fail(span, "`add` takes two graphs (and optionally relations to skip)");
    };
    let skip: Vec<u32> = match args.get(2) {
        None => Vec::new(),
        Some(Value::Edge(r)) => vec![*r],
        Some(Value::Array(items)) => items
            .borrow()
            .iter()
            .map(|v| match v {
                Value::Edge(r) => Ok(*r),
                other => fail(span, format!("`add` skips relations, not {}", other.described())),
            })
            .collect::<R<_>>()?,
        Some(other) => return fail(span, format!("`add` skips relations, not {}", other.described())),
    };
    if a.borrow().class != b.borrow().class {
        return fail(span, "`add` needs two states of one world (graphs of one class)");
    }
    if std::rc::Rc::ptr_eq(a, b) {
        return Ok(Value::Graph(a.clone()));
    }
    let new: Vec<_> = {
        let (ga, gb) = (a.borrow(), b.borrow());
        gb.facts.iter().filter(|f| !skip.contains(&f.key.rel()) && !ga.facts.contains(f.key)).collect()
    };
    let mut ga = a.borrow_mut();
    for f in new {
        ga.set_edge(f.key, f.value);
    }
    Ok(Value::Graph(a.clone()))
}

/// `G.senses_graph(S)`: node constants that G's class lacks are also looked up in S (and come
/// bound to S); `G.senses_graph()` returns S (None when there is none). Copies inherit it.
fn senses_graph(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = this::<GraphRef>("senses_graph", obj, span)?;
    match args.first() {
        None => Ok(g.borrow().data.senses.clone().map_or(Value::None, Value::Graph)),
        Some(Value::Graph(s)) => {
            g.borrow_mut().data_mut().senses = Some(s.clone());
            Ok(Value::Graph(s.clone()))
        }
        Some(Value::None) => {
            g.borrow_mut().data_mut().senses = None;
            Ok(Value::None)
        }
        Some(other) => fail(span, format!("`senses_graph` takes a graph, not {}", other.described())),
    }
}

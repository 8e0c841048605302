//! Graph functions and methods: creating, copying, naming and inspecting world states.

use super::{function, method, num_arg, object, wrong_object, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::{NodeVal, Value};
use crate::world::GraphRef;

pub const BUILTINS: &[Builtin] = &[
    function("GRAPH", Arity::range(0, 1), new_graph),
    method("name", Arity::range(0, 1), name),
    method("verbose", Arity::range(0, 1), verbose),
    method("nodes", Arity::range(0, 2), nodes),
    method("add_node", Arity::range(0, 1), add_node),
    method("add_nodes", Arity::exactly(1), add_nodes),
    method("dot", Arity::range(0, 1), dot),
    method("class_id", Arity::exactly(0), class_id),
    method("edges", Arity::range(0, 1), edges),
    method("clear_edges", Arity::exactly(0), clear_edges),
    method("facts", Arity::exactly(0), facts),
    method("hash", Arity::exactly(0), hash),
    method("str", Arity::exactly(0), sentences),
    method("json", Arity::range(0, 2), json),
];

/// `G.str()`: the facts as sentences, `a rel b . `, `a  not rel b . `, `a rel(p0,p1) b . `.
fn sentences(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("str", obj, span)?;
    let g = g.borrow();
    let class = it.world.class(g.class);
    let mut s = String::new();
    for f in g.facts.iter() {
        let from = class.name(f.key.src());
        let to = if f.key.tgraph() == 0 {
            class.name(f.key.tgt()).to_string()
        } else {
            it.world.external_name(f.key.tgraph(), f.key.tgt())
        };
        let rel = it.world.relation_name(f.key.rel());
        let v = f.value;
        let text = if v.is_true() {
            format!("{from} {rel} {to} . ")
        } else if v.is_false() {
            format!("{from}  not {rel} {to} . ")
        } else {
            format!("{from} {rel}{} {to} . ", crate::value::display::logic_pair(v))
        };
        s.push_str(&text);
    }
    Ok(Value::str(&s))
}

/// `G.json()`: the same dump as `out G`, as a string.
fn json(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("json", obj, span)?;
    let text = it.world.graph_text(&g.borrow());
    Ok(Value::Str(text.into()))
}

pub(crate) fn graph_obj(name: &str, obj: Option<Value>, span: Span) -> R<GraphRef> {
    match object(obj, span)? {
        Value::Graph(g) => Ok(g),
        other => wrong_object(name, &other, "graphs", span),
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
fn name(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("name", obj, span)?;
    match args.first() {
        Some(Value::Str(s)) => {
            g.borrow_mut().name = s.clone();
            Ok(Value::Str(s.clone()))
        }
        Some(other) => fail(span, format!("a graph's name must be a string, not {}", other.described())),
        None => Ok(Value::Str(g.borrow().name.clone())),
    }
}

fn verbose(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("verbose", obj, span)?;
    if args.is_empty() {
        return Ok(Value::Num(g.borrow().verbose as f64));
    }
    let n = num_arg(args, 0, "verbose", span)?;
    g.borrow_mut().verbose = n.clamp(0.0, 2.0) as u8;
    Ok(Value::Graph(g))
}

/// `G.nodes()`: the nodes of G (unbound, as the original prints them: use them with
/// `GRAPH = G`); `N.nodes(rel [, value])`: targets of N's edges.
fn nodes(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Graph(g) => {
            if !args.is_empty() {
                return fail(span, "`G.nodes()` takes no arguments");
            }
            let class = g.borrow().class;
            let n = it.world.class(class).len() as u32;
            Ok(Value::array((1..=n).map(|id| Value::Node(NodeVal { class, id, graph: None })).collect()))
        }
        node @ Value::Node(_) => super::node::targets(it, node, args, span),
        other => wrong_object("nodes", &other, "graphs and nodes", span),
    }
}

fn add_node(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("add_node", obj, span)?;
    let class = g.borrow().class;
    let id = match args.first() {
        Some(Value::Str(s)) => it.world.add_node(class, s),
        Some(other) => return fail(span, format!("a node's name must be a string, not {}", other.described())),
        None => it.world.add_unnamed_node(class),
    };
    Ok(Value::Node(NodeVal { class, id, graph: None }))
}

fn add_nodes(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("add_nodes", obj, span)?;
    let n = num_arg(args, 0, "add_nodes", span)?;
    if !(0.0..=10_000_000.0).contains(&n) {
        return fail(span, "`add_nodes` takes a count from 0 to 10 million");
    }
    let class = g.borrow().class;
    for _ in 0..n as usize {
        it.world.add_unnamed_node(class);
    }
    Ok(Value::Graph(g))
}

/// `G.dot()` prints the graph as Graphviz text (as the original did); `G.dot("file.dot")`
/// writes it to a file instead, relative to the current directory.
fn dot(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("dot", obj, span)?;
    let text = it.world.graph_dot(&g.borrow());
    match args.first() {
        None => it.write_out(&text, span)?,
        Some(Value::Str(path)) => {
            if let Err(e) = std::fs::write(&**path, &text) {
                return fail(span, format!("cannot write `{path}`: {e}"));
            }
        }
        Some(other) => return fail(span, format!("`dot` takes a file name, not {}", other.described())),
    }
    Ok(Value::None)
}

fn class_id(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(graph_obj("class_id", obj, span)?.borrow().class as f64))
}

/// The relation types; `G.edges(False)` only the user-declared ones.
fn edges(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    graph_obj("edges", obj, span)?;
    let user_only = matches!(args.first(), Some(Value::Logic(l)) if l.is_false());
    let first = if user_only { crate::world::BUILTIN_RELATIONS.len() + 1 } else { 1 };
    let mut rels: Vec<(String, u32)> =
        (first..it.world.relations.len()).map(|i| (it.world.relations[i].to_string(), i as u32)).collect();
    rels.sort();
    Ok(Value::array(rels.into_iter().map(|(_, id)| Value::Edge(id)).collect()))
}

fn clear_edges(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let g = graph_obj("clear_edges", obj, span)?;
    g.borrow_mut().facts.clear();
    Ok(Value::Graph(g))
}

/// The number of edges (facts) the state holds.
fn facts(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(graph_obj("facts", obj, span)?.borrow().facts.len() as f64))
}

/// The content hash, as a string of 16 hex digits (equal graphs have equal hashes).
fn hash(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::str(&format!("{:016x}", graph_obj("hash", obj, span)?.borrow().facts.hash())))
}

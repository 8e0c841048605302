//! Writing a state space: JSON (states with their facts or values, transitions, goals; the
//! schema is in docs/search.md), Graphviz DOT, and Aldebaran (`.aut`, the labelled transition
//! systems of CADP, mCRL2 and LTSmin). `ds explore`'s API describes states and actions with the
//! same functions (`state_fields`, `action_value_json`), so both say the same of a state.

use super::space::Space;
use super::store::{StateId, NONE};
use crate::value::number::format_number;
use crate::value::{Logic, Value};
use crate::world::{Fact, Graph, World};
use serde_json::{json, Value as Json};
use std::fmt::Write;

/// A fact's four parts as the JSON and the explorer show them: source, relation, target
/// (`Graph.node` for a node of another graph) and value (`True`, `False` or a pair).
fn fact_parts(world: &World, g: &Graph, f: &Fact) -> [String; 4] {
    let class = world.class(g.class);
    let target = if f.key.tgraph() == 0 {
        class.name(f.key.tgt()).to_string()
    } else {
        world.external_name(f.key.tgraph(), f.key.tgt())
    };
    [class.name(f.key.src()).to_string(), world.relation_name(f.key.rel()).to_string(), target, logic_text(f.value)]
}

fn logic_text(v: Logic) -> String {
    if v.is_true() {
        "True".into()
    } else if v.is_false() {
        "False".into()
    } else {
        crate::value::display::logic_pair(v)
    }
}

/// A value that is not a graph, as JSON: numbers, strings and arrays as themselves, maps as
/// objects keyed by their keys' text, anything else as its printed text.
pub fn value_json(world: &World, v: &Value) -> Json {
    match v {
        // whole numbers as integers: 3, not 3.0
        Value::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => json!(*n as i64),
        Value::Num(n) if n.is_finite() => json!(n),
        Value::Str(s) => json!(s.as_str()),
        Value::Array(a) => Json::Array(a.borrow().iter().map(|x| value_json(world, x)).collect()),
        Value::Map(m) => {
            let m = m.borrow();
            Json::Object(m.iter().map(|(k, x)| (key_text(world, k), value_json(world, x))).collect())
        }
        other => json!(crate::value::display::to_text(other, world)),
    }
}

pub fn key_text(world: &World, k: &Value) -> String {
    match k {
        Value::Str(s) => s.to_string(),
        other => crate::value::display::to_text(other, world),
    }
}

fn action_json(space: &Space, world: &mut World, action: u32) -> Json {
    let v = space.decoder.action_value(&space.store, world, action);
    action_value_json(world, action, &v)
}

/// An action as JSON, from its number in a store and its value: null when there is none, else
/// the value (`value_json`).
pub fn action_value_json(world: &World, action: u32, v: &Value) -> Json {
    match v {
        Value::None if action == NONE => Json::Null,
        v => value_json(world, v),
    }
}

/// What a state is, as JSON fields: a graph state's `name` and `facts`, any other state's
/// `value`.
pub fn state_fields(world: &World, state: &Value) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    match state {
        Value::Graph(g) => {
            let g = g.borrow();
            m.insert("name".into(), json!(g.name.to_string()));
            let facts: Vec<Json> = g.facts.iter().map(|f| json!(fact_parts(world, &g, &f))).collect();
            m.insert("facts".into(), Json::Array(facts));
        }
        v => {
            m.insert("value".into(), value_json(world, v));
        }
    }
    m
}

fn is_goal(space: &Space, id: StateId) -> bool {
    space.goals.as_ref().is_some_and(|g| g.binary_search(&id).is_ok())
}

/// The space as JSON, one state per line; `views`, when given, is each state's `view`.
pub fn json(space: &Space, world: &mut World, views: Option<&[Json]>) -> String {
    let mut out = String::from("{\"format\": \"ds-state-space\", \"version\": 1");
    let _ = writeln!(out, ", \"complete\": {}, \"states\": [", space.complete());
    for id in 0..space.len() as StateId {
        let o = space.store.origin(id);
        let state = space.decoder.state(&space.store, world, id);
        let mut entry = json!({
            "id": id,
            "depth": o.depth,
            "parent": if o.parent == NONE { Json::Null } else { json!(o.parent) },
            "action": action_json(space, world, o.action),
            "goal": is_goal(space, id),
        });
        if let Json::Object(m) = &mut entry {
            m.extend(state_fields(world, &state));
            if let Some(view) = views.and_then(|v| v.get(id as usize)) {
                m.insert("view".into(), view.clone());
            }
        }
        let sep = if id == 0 { "" } else { ",\n" };
        let _ = write!(out, "{sep}{entry}");
    }
    out.push_str("\n], \"transitions\": [\n");
    let t = &space.transitions;
    for i in 0..t.len() {
        let entry = json!({"from": t.from[i], "action": action_json(space, world, t.action[i]), "to": t.to[i]});
        let sep = if i == 0 { "" } else { ",\n" };
        let _ = write!(out, "{sep}{entry}");
    }
    let goals = space.goals.as_ref().map_or(Json::Null, |g| json!(g));
    let _ = writeln!(out, "\n], \"goals\": {goals}}}");
    out
}

/// Text for DOT: quotes and backslashes escaped, lines joined with `\n`.
fn dot_label(lines: &[String]) -> String {
    lines.iter().map(|l| l.replace('\\', "\\\\").replace('"', "\\\"")).collect::<Vec<_>>().join("\\n")
}

/// What a state's box in the drawing says: its id, then its value, or for a graph state the
/// facts in which it differs from the start (at most 8 lines).
fn state_lines(space: &Space, world: &mut World, id: StateId) -> Vec<String> {
    let mut lines = vec![id.to_string()];
    let state = space.decoder.state(&space.store, world, id);
    match (&state, &space.decoder.start) {
        (Value::Graph(g), Value::Graph(start)) if id > 0 => {
            let (g, start) = (g.borrow(), start.borrow());
            let mut changed = Vec::new();
            for f in g.facts.iter() {
                if start.facts.get(f.key) != f.value {
                    let [s, r, t, v] = fact_parts(world, &g, &f);
                    changed.push(if f.value.is_true() { format!("{s} {r} {t}") } else { format!("{s} {r} {t} = {v}") });
                }
            }
            for f in start.facts.iter() {
                if !g.facts.contains(f.key) {
                    let [s, r, t, _] = fact_parts(world, &start, &f);
                    changed.push(format!("no {s} {r} {t}"));
                }
            }
            if changed.len() > 8 {
                let more = changed.len() - 7;
                changed.truncate(7);
                changed.push(format!("({more} more)"));
            }
            lines.extend(changed);
        }
        (Value::Graph(g), _) => lines.push(g.borrow().name.to_string()),
        (v, _) => lines.push(crate::value::display::to_text(v, world)),
    }
    lines
}

/// A text view as a DOT label: the state's number, then the view's lines, each left-justified
/// (`\l`), so that a board keeps its columns in the fixed-width font.
fn dot_text_label(id: StateId, text: &str) -> String {
    let mut label = format!("{id}\\l");
    for line in text.lines() {
        label.push_str(&line.replace('\\', "\\\\").replace('"', "\\\""));
        label.push_str("\\l");
    }
    label
}

/// The space in Graphviz DOT: the start bold, goal states with a double border, each
/// transition labelled with its action; the transitions between the same two states are one
/// edge with all their actions, and the path to the first goal state is bold. `texts`, when
/// given, holds each state's view as text (None for a picture: Graphviz draws pictures only
/// from image files), which labels it instead of its value.
pub fn dot(space: &Space, world: &mut World, texts: Option<&[Option<String>]>) -> String {
    let mut out = String::from("digraph state_space {\n  node [shape=box, fontname=\"Courier\"];\n");
    for id in 0..space.len() as StateId {
        let label = match texts.and_then(|t| t.get(id as usize)).and_then(|t| t.as_deref()) {
            Some(text) => dot_text_label(id, text),
            None => dot_label(&state_lines(space, world, id)),
        };
        let mut style = String::new();
        if id == 0 {
            style.push_str(", style=bold");
        }
        if is_goal(space, id) {
            style.push_str(", peripheries=2");
        }
        let _ = writeln!(out, "  s{id} [label=\"{label}\"{style}];");
    }
    let on_path = solution_edges(space);
    for ((from, to), actions) in merged_edges(space, world) {
        let style = if on_path.contains(&(from, to)) { ", style=bold" } else { "" };
        let _ = writeln!(out, "  s{from} -> s{to} [label=\"{}\"{style}];", dot_label(&actions));
    }
    out.push_str("}\n");
    out
}

/// The transitions grouped by (from, to), in the order each pair first occurs, with their
/// actions.
fn merged_edges(space: &Space, world: &mut World) -> Vec<((StateId, StateId), Vec<String>)> {
    let t = &space.transitions;
    let mut at: rustc_hash::FxHashMap<(StateId, StateId), usize> = Default::default();
    let mut edges: Vec<((StateId, StateId), Vec<String>)> = Vec::new();
    for i in 0..t.len() {
        let action = action_text(space, world, t.action[i]);
        let pair = (t.from[i], t.to[i]);
        match at.get(&pair) {
            Some(&k) => edges[k].1.push(action),
            None => {
                at.insert(pair, edges.len());
                edges.push((pair, vec![action]));
            }
        }
    }
    edges
}

/// The edges of the path from the start to the first goal state (the nearest: ids are in
/// breadth-first order), along the transitions that first reached each state.
fn solution_edges(space: &Space) -> Vec<(StateId, StateId)> {
    let Some(&goal) = space.goals.as_ref().and_then(|g| g.first()) else { return Vec::new() };
    let path = space.store.path(goal);
    path.windows(2).map(|w| (w[0], w[1])).collect()
}

fn action_text(space: &Space, world: &mut World, action: u32) -> String {
    match space.decoder.action_value(&space.store, world, action) {
        Value::None => String::new(),
        Value::Str(s) => s.to_string(),
        Value::Num(n) => format_number(n),
        v => crate::value::display::to_text(&v, world),
    }
}

/// The space in Aldebaran format: `des (0, transitions, states)`, then `(from, "action", to)`
/// per transition; a transition without an action is the internal action `i`.
pub fn aut(space: &Space, world: &mut World) -> String {
    let t = &space.transitions;
    let mut out = format!("des (0, {}, {})\n", t.len(), space.len());
    for i in 0..t.len() {
        let action = action_text(space, world, t.action[i]);
        if action.is_empty() {
            let _ = writeln!(out, "({}, i, {})", t.from[i], t.to[i]);
        } else {
            let _ = writeln!(out, "({}, \"{}\", {})", t.from[i], action.replace('"', "'"), t.to[i]);
        }
    }
    out
}

//! How states and actions read outside the interpreter, as JSON: one form for the explorer's
//! API (`ds explore`, docs/explorer.md) and the exports of a whole state space, so that both
//! describe a state alike.
//!
//! A state is `{"name", "text", "nodes", "facts"}`: for a graph its name (`Start;f.t.g`), its
//! dump as `out` prints it, its nodes in the order of their world and its facts as
//! `[source, relation, target, value]`; for any other value its printed form as the name and
//! the text, and no nodes or facts. An action is its printed form (`f.t.g`, `up`), or null.

use crate::value::Value;
use crate::world::{Graph, World};
use serde_json::{json, Value as Json};

/// The facts of a graph state, in the graph's order (by source, relation, target): a target in
/// another graph is named `Graph.node` (`Sen.$human`); a value is `True`, `False`, `Undef` or
/// a fuzzy pair `(p0,p1)`.
pub fn facts(world: &World, g: &Graph) -> Vec<[String; 4]> {
    let class = world.class(g.class);
    g.facts
        .iter()
        .map(|f| {
            let target = match f.key.tgraph() {
                0 => class.name(f.key.tgt()).to_string(),
                uid => world.external_name(uid, f.key.tgt()),
            };
            let source = class.name(f.key.src()).to_string();
            [source, world.relation_name(f.key.rel()).to_string(), target, f.value.to_string()]
        })
        .collect()
}

/// The names of a graph's nodes, in the order of its world.
pub fn nodes(world: &World, g: &Graph) -> Vec<String> {
    let class = world.class(g.class);
    class.ids().map(|id| class.name(id).to_string()).collect()
}

/// The printed form of an action; None for none.
pub fn action_text(world: &World, action: &Value) -> Option<String> {
    match action {
        Value::None => None,
        v => Some(crate::value::display::to_text(v, world)),
    }
}

/// The JSON form of an action: its text, or null.
pub fn action_json(world: &World, action: &Value) -> Json {
    action_text(world, action).map_or(Json::Null, Json::String)
}

/// A state's name: a graph's name (`Start;f.t.g`), another value's printed form.
pub fn state_name(world: &World, state: &Value) -> String {
    match state {
        Value::Graph(g) => g.borrow().name.to_string(),
        v => crate::value::display::to_text(v, world),
    }
}

/// The JSON fields of a state: `name`, `text`, `nodes`, `facts`.
pub fn state_json(world: &World, state: &Value) -> serde_json::Map<String, Json> {
    let text = crate::value::display::to_text(state, world);
    let (nodes, facts) = match state {
        Value::Graph(g) => {
            let g = g.borrow();
            (json!(nodes(world, &g)), json!(facts(world, &g)))
        }
        _ => (json!([]), json!([])),
    };
    let name = state_name(world, state);
    let mut m = serde_json::Map::new();
    m.insert("name".into(), Json::String(name));
    m.insert("text".into(), Json::String(text));
    m.insert("nodes".into(), nodes);
    m.insert("facts".into(), facts);
    m
}

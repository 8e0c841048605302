//! The printed form of every value (`out`, `X.string()`, string concatenation).

use super::number::format_number;
use super::Value;
use crate::world::World;
use std::fmt::Write;

/// Appends the printed form of `v` to `out`.
pub fn write_value(out: &mut String, v: &Value, world: &World) {
    write_nested(out, v, world, 0)
}

/// A container nested deeper than `MAX_NESTING` (one that holds itself) prints as `...`.
fn write_nested(out: &mut String, v: &Value, world: &World, depth: usize) {
    if depth > super::MAX_NESTING && matches!(v, Value::Array(_) | Value::Map(_) | Value::Heap(_)) {
        out.push_str("...");
        return;
    }
    let depth = depth + 1;
    match v {
        Value::None => out.push_str("None"),
        Value::Num(n) => out.push_str(&format_number(*n)),
        Value::Logic(l) => {
            let _ = write!(out, "{l}");
        }
        Value::Str(s) => out.push_str(s),
        Value::Array(a) => {
            out.push('[');
            for (i, item) in a.borrow().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_nested(out, item, world, depth);
            }
            out.push(']');
        }
        Value::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.borrow().iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_nested(out, k, world, depth);
                out.push(':');
                write_nested(out, v, world, depth);
            }
            out.push('}');
        }
        Value::Graph(g) => out.push_str(&world.graph_text(&g.borrow())),
        Value::Node(n) => {
            if let Some(g) = &n.graph {
                out.push_str(&g.borrow().name);
                out.push('.');
            }
            out.push_str(node_name(world, n.class, n.id));
        }
        Value::Edge(r) => out.push_str(world.relation_name(*r)),
        // A demon used as a value prints as its name; a lambda as its source.
        Value::Lambda(f) => match f.source() {
            None => {
                let _ = write!(out, "{}({})", f.name(), f.params().join(","));
            }
            Some(body) => {
                let _ = write!(out, "lambda({}) => {body}", f.params().join(","));
            }
        },
        Value::Fuzzy(f) => {
            let parts: Vec<String> = f.iter().map(|x| format_number(*x)).collect();
            let _ = write!(out, "({})", parts.join(","));
        }
        Value::Host(h) => h.write(out),
        // In the order `pop` takes them: `Heap[item:priority,...]`.
        Value::Heap(h) => {
            out.push_str("Heap[");
            for (i, (item, priority)) in h.borrow().in_order().into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_nested(out, item, world, depth);
                out.push(':');
                write_nested(out, priority, world, depth);
            }
            out.push(']');
        }
    }
}

/// The name of a node; a node id the class does not have prints as its number.
pub fn node_name(world: &World, class: u32, id: u32) -> &str {
    match world.classes.get(class as usize) {
        Some(c) if c.contains(id) => c.name(id),
        _ => "?",
    }
}

pub fn to_text(v: &Value, world: &World) -> String {
    let mut s = String::new();
    write_value(&mut s, v, world);
    s
}

/// A logic value as its pair, `(0.2,0.8)`, whatever it is (edge dumps print even crisp values so).
pub fn logic_pair(v: crate::value::Logic) -> String {
    format!("({},{})", format_number(v.p0), format_number(v.p1))
}

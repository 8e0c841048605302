//! Noticing a `Next` that changes the start of its search (issue 41, item 7). The states met are
//! stored against the start as it was; a `Next` that changes the script's start (its facts, or
//! an array or map in place) makes the search compare states with something else than what it
//! began from, and de-duplication breaks silently (768 "distinct" states where 512 contents
//! exist). The change is refused, with an error at the search, instead.

use super::pack::Codec;
use crate::value::Value;
use crate::world::{ClassId, GraphRef};

/// The script's start as the search began.
pub enum StartGuard {
    /// A graph: its class and the hash and size of its facts (a change of either is a change;
    /// node values and attributes are not part of a state, and may change).
    Graph { graph: GraphRef, class: ClassId, hash: u64, len: usize },
    /// An array or a map, which `Next` could change in place: its packed form.
    Packed { value: Value, codec: Codec, key: Vec<u8> },
    /// A value nothing can change (a number, a string, a node ...).
    Fixed,
}

impl StartGuard {
    pub fn new(start: &Value) -> StartGuard {
        match start {
            Value::Graph(g) => {
                let b = g.borrow();
                StartGuard::Graph { graph: g.clone(), class: b.class, hash: b.facts.hash(), len: b.facts.len() }
            }
            Value::Array(_) | Value::Map(_) => {
                let mut codec = Codec::new(&Value::None);
                let mut key = Vec::new();
                match codec.pack(start, &mut key) {
                    Ok(()) => StartGuard::Packed { value: start.clone(), codec, key },
                    // (a start that cannot be packed is refused by the search itself)
                    Err(_) => StartGuard::Fixed,
                }
            }
            _ => StartGuard::Fixed,
        }
    }

    /// Whether the start is no longer what it was.
    pub fn changed(&mut self) -> bool {
        match self {
            StartGuard::Graph { graph, class, hash, len } => {
                let g = graph.borrow();
                g.class != *class || g.facts.hash() != *hash || g.facts.len() != *len
            }
            StartGuard::Packed { value, codec, key } => {
                let mut now = Vec::with_capacity(key.len());
                codec.pack(value, &mut now).is_err() || now != *key
            }
            StartGuard::Fixed => false,
        }
    }
}

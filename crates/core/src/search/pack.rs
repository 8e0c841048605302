//! States as keys: a canonical byte encoding of a value, equal exactly when the values are
//! `==` (content equality: a graph by its class and facts, arrays and maps by their items,
//! strings by their text), and back.
//!
//! A graph of the start's class is packed as its difference from the start: the facts it has
//! that the start has not, has with another value, or lacks; most facts (the `isa` of every
//! node, the map of a world) are the same in every state and cost nothing. A tag byte that
//! also counts the differing facts, then their records (`records.rs`): an object moved from
//! one place to another is 5 bytes in most worlds. Node ids and graph uids are the same in
//! every interpreter that ran the same script, so keys mean the same in every worker.

use super::records::{self, Records};
use crate::value::{Array, Logic, Map, Str, Value};
use crate::world::facts::{Change, Reference};
use crate::world::{ClassId, Fact, FactKey, Facts, GraphRef, World};
use std::cell::RefCell;
use std::rc::Rc;

const NONE: u8 = 0;
const NUM: u8 = 1;
const LOGIC: u8 = 2;
const FUZZY_LOGIC: u8 = 3;
const STR: u8 = 4;
const ARRAY: u8 = 5;
const MAP: u8 = 6;
const GRAPH: u8 = 7;
const NODE: u8 = 8;
const EDGE: u8 = 9;
const FUZZY: u8 = 10;
/// A graph of the start's class as its difference from the start, then the count of records;
/// or in one byte, `DIFF_OF + count` for fewer than `256 - DIFF_OF` records (most states).
const DIFF: u8 = 11;
const DIFF_OF: u8 = 16;

/// How deep arrays and maps inside a state may nest (deeper: a container holding itself).
const MAX_DEPTH: usize = 64;

/// Why a value cannot be a state.
#[derive(Debug, PartialEq)]
pub enum PackError {
    /// Lambdas, files, pictures, state spaces: no content to compare.
    Kind(&'static str),
    TooDeep,
}

pub fn put_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// Reads a number written by `put_varint` at `*at`.
pub fn get_varint(key: &[u8], at: &mut usize) -> u64 {
    let mut n = 0u64;
    let mut shift = 0;
    while let Some(&b) = key.get(*at) {
        *at += 1;
        n |= u64::from(b & 0x7f) << shift;
        if b < 0x80 {
            break;
        }
        shift += 7;
    }
    n
}

pub(super) fn get_f64(key: &[u8], at: &mut usize) -> f64 {
    let mut b = [0u8; 8];
    if let Some(s) = key.get(*at..*at + 8) {
        b.copy_from_slice(s);
    }
    *at += 8;
    f64::from_le_bytes(b)
}

/// -0 and 0 are `==`, so they pack alike.
pub(super) fn put_f64(out: &mut Vec<u8>, x: f64) {
    let x = if x == 0.0 { 0.0 } else { x };
    out.extend_from_slice(&x.to_le_bytes());
}

/// Packs and unpacks the states of one search.
pub struct Codec {
    /// The start's class and facts (in key order), if the start is a graph.
    base: Option<(ClassId, Vec<Fact>)>,
    /// The start's facts as its layers (a snapshot: copy-on-write), which the states of the
    /// search share: a state is packed as its difference from them and unpacked as a copy of
    /// them with the differences made.
    start_facts: Option<Reference>,
    /// A graph of each class met, copied (with its node values, attributes and flags) to
    /// unpack a state of the class.
    templates: Vec<(ClassId, GraphRef)>,
}

impl Codec {
    pub fn new(start: &Value) -> Codec {
        let (base, start_facts) = match start {
            Value::Graph(g) => {
                let g = g.borrow();
                (Some((g.class, g.facts.to_vec())), Some(Reference::new(&g.facts)))
            }
            _ => (None, None),
        };
        Codec { base, start_facts, templates: Vec::new() }
    }

    /// The start's class, if the start is a graph.
    pub fn base_class(&self) -> Option<ClassId> {
        self.base.as_ref().map(|b| b.0)
    }

    pub fn pack(&mut self, v: &Value, out: &mut Vec<u8>) -> Result<(), PackError> {
        self.pack_at(v, out, 0)
    }

    fn pack_at(&mut self, v: &Value, out: &mut Vec<u8>, depth: usize) -> Result<(), PackError> {
        if depth > MAX_DEPTH {
            return Err(PackError::TooDeep);
        }
        match v {
            Value::None => out.push(NONE),
            Value::Num(n) => {
                out.push(NUM);
                put_f64(out, *n);
            }
            Value::Logic(l) => pack_logic(*l, out),
            Value::Str(s) => pack_str(s.as_bytes(), out),
            Value::Array(a) => {
                let items = a.borrow();
                out.push(ARRAY);
                put_varint(out, items.len() as u64);
                for x in items.iter() {
                    self.pack_at(x, out, depth + 1)?;
                }
            }
            Value::Map(m) => {
                let m = m.borrow();
                out.push(MAP);
                put_varint(out, m.len() as u64);
                for (k, x) in m.iter() {
                    self.pack_at(k, out, depth + 1)?;
                    self.pack_at(x, out, depth + 1)?;
                }
            }
            Value::Graph(g) => {
                self.remember(g);
                let g = g.borrow();
                match &self.start_facts {
                    Some(start) if self.base_class() == Some(g.class) => {
                        self.put_diff(g.class, out, |r| start.diff_into(&g.facts, r))
                    }
                    _ => self.pack_graph(g.class, g.facts.iter(), out),
                }
            }
            Value::Node(n) => {
                out.push(NODE);
                put_varint(out, u64::from(n.class));
                put_varint(out, u64::from(n.id));
            }
            Value::Edge(r) => {
                out.push(EDGE);
                put_varint(out, u64::from(*r));
            }
            Value::Fuzzy(f) => {
                out.push(FUZZY);
                for x in f.iter() {
                    put_f64(out, *x);
                }
            }
            Value::Lambda(_) => return Err(PackError::Kind("a lambda")),
            Value::Host(h) => return Err(PackError::Kind(h.described())),
            Value::Heap(_) => return Err(PackError::Kind("a heap")),
        }
        Ok(())
    }

    /// Keeps `g` as the template of its class, if the class has none yet.
    pub fn remember(&mut self, g: &GraphRef) {
        let class = g.borrow().class;
        if !self.templates.iter().any(|(c, _)| *c == class) {
            self.templates.push((class, g.clone()));
        }
    }

    /// Packs a graph state of `class` given its facts (sorted by key, as `Facts` keeps them;
    /// the symmetry module gives them renamed).
    pub fn pack_graph(&self, class: ClassId, facts: impl IntoIterator<Item = Fact>, out: &mut Vec<u8>) {
        let base: &[Fact] = match &self.base {
            Some((c, f)) if *c == class => f,
            _ => &[],
        };
        self.put_diff(class, out, |r| merge_diff(base, facts, |k, v| r.put(k, v)));
    }

    /// Writes a graph of `class` as the records of the differences `diff` gives (from the
    /// start for the start's class, else from nothing).
    fn put_diff(&self, class: ClassId, out: &mut Vec<u8>, diff: impl FnOnce(&mut Records<'_>)) {
        let relative = self.base_class() == Some(class);
        if !relative {
            out.push(GRAPH);
            put_varint(out, u64::from(class));
        }
        put_records(relative, out, diff);
    }

    /// The value a key stands for. A graph gets the name `name` (nested graphs: their
    /// template's); `world` makes the new state.
    pub fn unpack(&self, key: &[u8], world: &mut World, name: Option<&Str>) -> Value {
        let mut at = 0;
        self.unpack_at(key, &mut at, world, name)
    }

    fn unpack_at(&self, key: &[u8], at: &mut usize, world: &mut World, name: Option<&Str>) -> Value {
        let tag = key.get(*at).copied().unwrap_or(NONE);
        *at += 1;
        match tag {
            NUM => Value::Num(get_f64(key, at)),
            LOGIC => {
                let b = key.get(*at).copied().unwrap_or(2);
                *at += 1;
                Value::Logic(match b {
                    0 => Logic::FALSE,
                    1 => Logic::TRUE,
                    _ => Logic::UNDEF,
                })
            }
            FUZZY_LOGIC => {
                let p0 = get_f64(key, at);
                Value::Logic(Logic::new(p0, get_f64(key, at)))
            }
            STR => {
                let n = get_varint(key, at) as usize;
                let end = (*at + n).min(key.len());
                let s = std::str::from_utf8(&key[*at..end]).unwrap_or("");
                *at = end;
                Value::str(s)
            }
            ARRAY => {
                let n = get_varint(key, at) as usize;
                let items: Vec<Value> = (0..n).map(|_| self.unpack_at(key, at, world, None)).collect();
                Value::Array(Rc::new(Array::new(items)))
            }
            MAP => {
                let n = get_varint(key, at) as usize;
                let mut m = Map::default();
                for _ in 0..n {
                    let k = self.unpack_at(key, at, world, None);
                    let v = self.unpack_at(key, at, world, None);
                    m.insert(k, v);
                }
                Value::Map(Rc::new(RefCell::new(m)))
            }
            GRAPH => {
                let class = get_varint(key, at) as ClassId;
                let count = get_varint(key, at);
                self.unpack_graph(class, false, count, key, at, world, name)
            }
            DIFF | DIFF_OF.. => {
                let count = if tag == DIFF { get_varint(key, at) } else { u64::from(tag - DIFF_OF) };
                let class = self.base_class().unwrap_or_default();
                self.unpack_graph(class, true, count, key, at, world, name)
            }
            NODE => {
                let class = get_varint(key, at) as ClassId;
                let id = get_varint(key, at) as u32;
                Value::Node(crate::value::NodeVal { class, id, graph: None })
            }
            EDGE => Value::Edge(get_varint(key, at) as u32),
            FUZZY => {
                let mut f = [0.0; 4];
                for x in &mut f {
                    *x = get_f64(key, at);
                }
                Value::fuzzy(f)
            }
            _ => Value::None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn unpack_graph(
        &self,
        class: ClassId,
        relative: bool,
        count: u64,
        key: &[u8],
        at: &mut usize,
        world: &mut World,
        name: Option<&Str>,
    ) -> Value {
        // (a count cannot exceed the bytes left: each record takes at least one)
        let mut changes = Vec::with_capacity((count as usize).min(key.len()));
        records::read(key, at, count, &mut changes);
        let facts = match &self.start_facts {
            // a copy of the start, sharing what the state did not change
            Some(start) if relative => start.with_changes(&changes),
            _ => Facts::from_sorted(apply_diff(&[], &changes)),
        };
        self.graph_with(class, world, name, facts)
    }

    /// The graph of the start's class that differs from the start by `changes` (sorted by key),
    /// named `name`: what `unpack` gives for the key `put_relative` makes of them, without
    /// the bytes between.
    pub fn relative_graph(&self, changes: &[Change], world: &mut World, name: Option<&Str>) -> Value {
        let class = self.base_class().unwrap_or_default();
        let facts = match &self.start_facts {
            Some(start) => start.with_changes(changes),
            None => Facts::from_sorted(apply_diff(&[], changes)),
        };
        self.graph_with(class, world, name, facts)
    }

    /// A graph state of `class` named `name` with `facts`: a copy of the class's template
    /// (its node values, attributes and flags) with the facts replaced.
    pub fn graph_with(&self, class: ClassId, world: &mut World, name: Option<&Str>, facts: Facts) -> Value {
        let template = self.templates.iter().find(|(c, _)| *c == class).map(|(_, g)| g.clone());
        let g = match template {
            Some(t) => world.copy_graph(&t.borrow(), name.cloned()),
            None => world.new_graph(name.map_or("state", |n| n.as_str())),
        };
        g.borrow_mut().facts = facts;
        Value::Graph(g)
    }
}

/// Writes the tag and count of a graph's records, then the records `diff` gives: a graph of
/// the start's class (`relative`) has a tag that holds the count, another graph a count alone.
fn put_records(relative: bool, out: &mut Vec<u8>, diff: impl FnOnce(&mut Records<'_>)) {
    // One pass: the records are written after a byte for the tag and count, widened in the
    // rare case of many records.
    let count_at = out.len();
    out.push(0);
    let mut records = Records::new(out);
    diff(&mut records);
    let count = records.count();
    let small = if relative { 256 - u64::from(DIFF_OF) } else { 0x80 };
    if count < small {
        out[count_at] = if relative { DIFF_OF + count as u8 } else { count as u8 };
    } else {
        let mut wide = if relative { vec![DIFF] } else { Vec::new() };
        put_varint(&mut wide, count);
        out.splice(count_at..count_at + 1, wide);
    }
}

/// The key of a graph of the start's class that differs from the start by `changes` (sorted
/// by key): the very bytes `Codec::pack` gives that graph.
pub(super) fn put_relative(changes: &[Change], out: &mut Vec<u8>) {
    put_records(true, out, |r| {
        for &(key, value) in changes {
            r.put(key, value);
        }
    });
}

/// Whether a key with this first byte may be a graph of the start's class (`relative_changes`
/// reads no other).
pub(super) fn relative_tag(tag: u8) -> bool {
    tag == DIFF || tag >= DIFF_OF
}

/// The changes a key of a graph of the start's class holds, if `key` is one: its records
/// read back, in key order, and nothing after them.
pub(super) fn relative_changes(key: &[u8], out: &mut smallvec::SmallVec<[Change; 16]>) -> bool {
    out.clear();
    read_relative(key, out).is_some_and(|count| out.len() as u64 == count && out.windows(2).all(|w| w[0].0 < w[1].0))
}

/// Reads the records of `key` into `out` if its tag is a graph of the start's class's, and
/// gives their count as the tag says (`relative_changes`, but into any sink): None if the tag
/// is another's, or the records do not end where the key does. The caller checks that `out`
/// took `count` changes in key order.
pub(super) fn read_relative(key: &[u8], out: &mut impl Extend<Change>) -> Option<u64> {
    let (tag, mut at) = (key.first().copied().unwrap_or(NONE), 1);
    let count = match tag {
        DIFF => get_varint(key, &mut at),
        DIFF_OF.. => u64::from(tag - DIFF_OF),
        _ => return None,
    };
    // (the short tag is the only form of a small count: a long one would not come back alike)
    if tag == DIFF && count < 256 - u64::from(DIFF_OF) {
        return None;
    }
    records::read(key, &mut at, count, out);
    (at == key.len()).then_some(count)
}

/// The key of a string (of its UTF-8 bytes).
pub fn pack_str(s: &[u8], out: &mut Vec<u8>) {
    out.push(STR);
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s);
}

fn pack_logic(l: Logic, out: &mut Vec<u8>) {
    let crisp = [Logic::FALSE, Logic::TRUE, Logic::UNDEF].iter().position(|c| *c == l);
    match crisp {
        Some(i) => out.extend_from_slice(&[LOGIC, i as u8]),
        None => {
            out.push(FUZZY_LOGIC);
            put_f64(out, l.p0);
            put_f64(out, l.p1);
        }
    }
}

/// Calls `emit(key, value)` for each fact in which `facts` differ from `base` (both sorted):
/// `None` for a fact of the base that `facts` lack.
fn merge_diff(base: &[Fact], facts: impl IntoIterator<Item = Fact>, mut emit: impl FnMut(FactKey, Option<Logic>)) {
    let mut i = 0;
    for f in facts {
        while let Some(b) = base.get(i).filter(|b| b.key < f.key) {
            emit(b.key, None);
            i += 1;
        }
        match base.get(i) {
            Some(b) if b.key == f.key => {
                if !b.value.same_bits(f.value) {
                    emit(f.key, Some(f.value));
                }
                i += 1;
            }
            _ => emit(f.key, Some(f.value)),
        }
    }
    for b in &base[i..] {
        emit(b.key, None);
    }
}

/// The facts of `base` changed by `records` (sorted by key, as `merge_diff` made them).
fn apply_diff(base: &[Fact], records: &[(FactKey, Option<Logic>)]) -> Vec<Fact> {
    let mut out = Vec::with_capacity(base.len() + records.len());
    let mut i = 0;
    for &(key, value) in records {
        while i < base.len() && base[i].key < key {
            out.push(base[i]);
            i += 1;
        }
        if i < base.len() && base[i].key == key {
            i += 1;
        }
        if let Some(value) = value {
            out.push(Fact { key, value });
        }
    }
    out.extend_from_slice(&base[i..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fact(src: u32, rel: u32, tgt: u32, value: Logic) -> Fact {
        Fact { key: FactKey::new(src, rel, 0, tgt), value }
    }

    #[test]
    fn a_diff_applied_to_its_base_gives_the_facts_back() {
        let base = vec![fact(1, 7, 2, Logic::TRUE), fact(2, 7, 3, Logic::TRUE), fact(3, 8, 1, Logic::FALSE)];
        let facts = vec![fact(1, 7, 2, Logic::FALSE), fact(2, 7, 4, Logic::TRUE), fact(3, 8, 1, Logic::FALSE)];
        let mut records = Vec::new();
        merge_diff(&base, facts.iter().copied(), |k, v| records.push((k, v)));
        assert_eq!(records.len(), 3, "changed, removed, added: {records:?}");
        assert_eq!(apply_diff(&base, &records), facts);
        assert_eq!(apply_diff(&[], &[]), vec![]);
    }

    #[test]
    fn varints_round_trip() {
        for n in [0u64, 1, 127, 128, 300, u32::MAX as u64, u64::MAX] {
            let mut v = Vec::new();
            put_varint(&mut v, n);
            let mut at = 0;
            assert_eq!(get_varint(&v, &mut at), n);
            assert_eq!(at, v.len());
        }
    }
}

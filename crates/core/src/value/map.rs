//! A dictionary with hashed lookup. Keys iterate and print in the reference's order (by type,
//! then value); `M[k]`, `M.is(k)`, `M[k] = v` and `remove` take O(1) through a hash of the
//! key's content, so a map serves as the visited set of a search over hundreds of thousands of
//! states, strings or graphs alike.
//!
//! The entries are a vector in insertion order (a removal moves the last into the hole), found
//! through a `HashIndex` of their positions. When keys came out of order, iteration sorts the
//! positions once and keeps that order until the keys change. A map filled as an array (the
//! keys b, b + 1, b + 2, ... in that order) finds a number key without the index
//! (`dense_keys`).
//!
//! A graph key is hashed by its content, like any key. A graph can change after it became a key;
//! graph keys are therefore watched (see `facts::epoch`): once one has changed, lookups fall back
//! to comparing every key until the next change of the map files the keys under their new
//! content (where two keys have become equal, the later entry's value wins).

use super::dense_keys::{DenseKeys, Lookup};
use super::hash_index::{Found, HashIndex};
use super::Value;
use crate::world::facts;
use rustc_hash::FxHasher;
use std::cell::{OnceCell, RefCell};
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone, Default)]
pub struct Map {
    /// The entries in insertion order, but for removals.
    entries: Vec<Entry>,
    /// The content hash of each entry's key (`content_hash`), for regrowing the index: apart
    /// from the entries, which a lookup reads, so that an entry is smaller (48 bytes, not 56)
    /// and more of them share the cache.
    hashes: Vec<u64>,
    /// Their positions by the hash of their keys.
    index: HashIndex,
    /// Whether entry p holds the number key b + p, for every p.
    dense: DenseKeys,
    /// Set when a key was inserted below the largest one: iteration must sort.
    unsorted: bool,
    /// The positions in key order, once an iteration of an unsorted map has sorted them.
    order: OnceCell<Box<[u32]>>,
    /// When the map has graph keys: the `facts::epoch()` at which they were hashed.
    graph_epoch: Option<u64>,
}

#[derive(Debug, Clone)]
struct Entry {
    key: Value,
    value: Value,
}

impl Drop for Map {
    fn drop(&mut self) {
        if self.entries.is_empty() {
            return; // the placeholder of `insert_shared`, or an empty map: nothing nested
        }
        super::drop_nested(std::mem::take(&mut self.entries).into_iter().flat_map(|e| [e.key, e.value]));
    }
}

impl PartialEq for Map {
    /// The same keys with equal values (insertion order does not count).
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k).is_some_and(|w| v.equals(w)))
    }
}

impl Map {
    pub fn get(&self, key: &Value) -> Option<&Value> {
        match self.dense.lookup(key, self.entries.len()) {
            Lookup::At(p) => return Some(&self.entries[p].value),
            Lookup::Absent => return None,
            Lookup::Unknown => {}
        }
        if !self.fresh() {
            return self.entries.iter().find(|e| e.key.equals(key)).map(|e| &e.value);
        }
        match self.find(content_hash(key), key) {
            Found::At(p) => Some(&self.entries[p as usize].value),
            Found::Vacant(_) => None,
        }
    }

    pub fn contains(&self, key: &Value) -> bool {
        self.get(key).is_some()
    }

    /// Inserts or replaces; returns true when the key was new.
    pub fn insert(&mut self, key: Value, value: Value) -> bool {
        self.refresh();
        if let Value::Graph(g) = &key {
            g.borrow().facts.watch();
            self.graph_epoch.get_or_insert_with(facts::epoch);
        }
        self.place(content_hash(&key), key, value).is_none()
    }

    pub fn remove(&mut self, key: &Value) -> Option<Value> {
        self.refresh();
        let hash = content_hash(key);
        let Found::At(p) = self.find(hash, key) else {
            return None;
        };
        self.index.remove(hash, p);
        self.dense.end();
        let last = self.entries.len() as u32 - 1;
        if p != last {
            // The last entry moves into the hole: the order is only restored by sorting.
            self.index.moved(self.hashes[last as usize], last, p);
            self.unsorted = true;
        }
        self.order.take();
        self.hashes.swap_remove(p as usize);
        Some(self.entries.swap_remove(p as usize).value)
    }

    /// `M[k] = v` on a shared map. Hashing and comparing the key may read the map itself
    /// (`m[m] = 1`, `m[[m]] = 1`), so the map leaves its cell for the change (reading as empty
    /// meanwhile) instead of being borrowed across it.
    ///
    /// A key that reads nothing else (a number, a string: most keys) is stored with the map
    /// borrowed in place, which saves moving it out and back; the value it replaces is dropped
    /// after the borrow ends, as it may be the last reference to anything.
    pub fn insert_shared(cell: &RefCell<Map>, key: Value, value: Value) -> bool {
        if reads_nothing_else(&key) {
            let mut map = cell.borrow_mut();
            if map.fresh() {
                let old = map.place(content_hash(&key), key, value);
                drop(map);
                return old.map(Value::discard).is_none();
            }
        }
        let mut map = cell.take();
        let new = map.insert(key, value);
        *cell.borrow_mut() = map;
        new
    }

    /// `M.remove(k)` on a shared map (see `insert_shared`).
    pub fn remove_shared(cell: &RefCell<Map>, key: &Value) -> Option<Value> {
        let mut map = cell.take();
        let old = map.remove(key);
        *cell.borrow_mut() = map;
        old
    }

    /// Whether one more entry fits under the memory limit (see `Array::room_for`).
    pub fn room_for_one(&self) -> bool {
        let entry = std::mem::size_of::<Entry>() + std::mem::size_of::<u64>() + HashIndex::BYTES_PER_ENTRY;
        let capacity = self.index.capacity();
        self.entries.len() < capacity || ds_base::guard::memory::room_to_double(capacity * entry)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        *self = Map::default();
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        let order = self.unsorted.then(|| self.order.get_or_init(|| self.sorted_positions()));
        (0..self.entries.len()).map(move |i| {
            let e = &self.entries[order.map_or(i, |o| o[i] as usize)];
            (&e.key, &e.value)
        })
    }

    pub fn keys(&self) -> Vec<Value> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }

    /// The positions in the order of their keys (equal ones as they stand).
    fn sorted_positions(&self) -> Box<[u32]> {
        let mut order: Vec<u32> = (0..self.entries.len() as u32).collect();
        order.sort_by(|&a, &b| self.entries[a as usize].key.total_cmp(&self.entries[b as usize].key));
        order.into_boxed_slice()
    }

    /// Where the key is, or the bucket it would go to. The index asks only about entries
    /// whose hash has the key's top 32 bits, so the keys are compared without their whole
    /// hashes. A number, the most common key, is compared as a number, in a loop of its own
    /// (`HashIndex::find` is inlined into each).
    #[inline]
    fn find(&self, hash: u64, key: &Value) -> Found {
        match key {
            Value::Num(n) => {
                self.index.find(hash, |p| matches!(self.entries[p as usize].key, Value::Num(k) if k == *n))
            }
            _ => self.index.find(hash, |p| self.entries[p as usize].key.equals(key)),
        }
    }

    /// Inserts or replaces (a key already there keeps its place); the value replaced, if the
    /// key was there.
    fn place(&mut self, hash: u64, key: Value, value: Value) -> Option<Value> {
        if let Lookup::At(p) = self.dense.lookup(&key, self.entries.len()) {
            return Some(std::mem::replace(&mut self.entries[p].value, value));
        }
        let vacant = match self.find(hash, &key) {
            Found::At(p) => return Some(std::mem::replace(&mut self.entries[p as usize].value, value)),
            Found::Vacant(v) => v,
        };
        if self.entries.last().is_some_and(|last| last.key.total_cmp(&key).is_ge()) {
            self.unsorted = true;
        }
        self.order.take();
        let len = self.entries.len();
        let hashes = &self.hashes;
        self.index.insert(vacant, hash, len as u32, len, |p| hashes[p as usize]);
        if len == self.entries.capacity() {
            // Room for as many entries as the index takes (not twice as many).
            let room = self.index.capacity().max(len + 1) - len;
            self.entries.reserve_exact(room);
            self.hashes.reserve_exact(room);
        }
        self.dense.pushed(&key, len);
        self.entries.push(Entry { key, value });
        self.hashes.push(hash);
        None
    }

    /// Are the hashes of the graph keys still those of their content?
    fn fresh(&self) -> bool {
        self.graph_epoch.is_none_or(|e| e == facts::epoch())
    }

    /// Files every key again under its current content, if some graph key has changed.
    fn refresh(&mut self) {
        if self.fresh() {
            return;
        }
        let entries = std::mem::take(&mut self.entries);
        self.hashes.clear();
        self.index = HashIndex::default();
        self.dense = DenseKeys::default();
        self.entries.reserve(entries.len());
        for e in entries {
            self.place(content_hash(&e.key), e.key, e.value);
        }
        self.unsorted = true;
        self.order.take();
        self.graph_epoch = Some(facts::epoch());
    }
}

/// Whether hashing `key` and comparing it with the keys of a map (whose hashes equal its own)
/// reads no other value: then no container can be read while the map is borrowed. (A graph's
/// hash reads the graph; an array's, its items, which may hold the map itself.)
fn reads_nothing_else(key: &Value) -> bool {
    matches!(key, Value::Num(_) | Value::Str(_) | Value::Logic(_) | Value::Node(_) | Value::Edge(_) | Value::None)
}

/// A hash that agrees with `Value::equals`: equal values hash alike. A number, the most common
/// key, is mixed by itself (one folded multiply of its bits); any other value goes through
/// FxHash, which leaves weak bits in the middle of the word, and is mixed the same way, as the
/// index reads the top bits. (A number and a value of another type are never equal, so their
/// hashes need not agree.)
#[inline]
fn content_hash(v: &Value) -> u64 {
    match v {
        Value::Num(n) => fold(number_bits(*n) ^ NUMBER_SEED),
        _ => {
            let mut h = FxHasher::default();
            hash_into(v, &mut h, 0);
            fold(h.finish())
        }
    }
}

/// Keeps the number 0 away from the hash 0 (the digits of pi).
const NUMBER_SEED: u64 = 0x243f_6a88_85a3_08d3;

/// A folded multiply: the high and low halves of the 128-bit product xored, so that every bit
/// of `x` reaches the top bits. An integer's bits sit at the top of a float's word (the low
/// ones are zero), and the product carries them down as well as up.
#[inline(always)]
fn fold(x: u64) -> u64 {
    let m = u128::from(x) * 0x9e37_79b9_7f4a_7c15;
    m as u64 ^ (m >> 64) as u64
}

fn hash_into(v: &Value, h: &mut FxHasher, depth: u32) {
    std::mem::discriminant(v).hash(h);
    match v {
        Value::None => {}
        Value::Num(n) => number_bits(*n).hash(h),
        Value::Logic(l) => (number_bits(l.p0), number_bits(l.p1)).hash(h),
        Value::Str(s) => s.hash(h),
        Value::Node(n) => (n.class, n.id).hash(h),
        Value::Edge(r) => r.hash(h),
        Value::Graph(g) => {
            let g = g.borrow();
            (g.class, g.facts.hash()).hash(h);
        }
        Value::Fuzzy(f) => f.iter().for_each(|x| number_bits(*x).hash(h)),
        // Arrays and maps compare by content; a few items are enough to spread them (and a
        // depth limit keeps an array that contains itself finite).
        Value::Array(a) => {
            let a = a.borrow();
            a.len().hash(h);
            if depth < 2 {
                a.iter().take(4).for_each(|x| hash_into(x, h, depth + 1));
            }
        }
        Value::Map(m) => m.borrow().len().hash(h),
        // Compared by identity.
        Value::Lambda(f) => std::rc::Rc::as_ptr(f).cast::<()>().hash(h),
        other => other.type_name().hash(h),
    }
}

/// The bits of a number, with -0 read as 0 (they are equal).
fn number_bits(x: f64) -> u64 {
    if x == 0.0 {
        0
    } else {
        x.to_bits()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn n(x: f64) -> Value {
        Value::Num(x)
    }

    #[test]
    fn iterates_in_key_order_whatever_the_insertion_order() {
        let mut m = Map::default();
        for k in [n(3.0), Value::str("b"), n(1.0), Value::str("a"), n(2.0)] {
            m.insert(k, Value::None);
        }
        let keys: Vec<String> = m.iter().map(|(k, _)| format!("{k:?}")).collect();
        let expected: Vec<String> =
            [n(1.0), n(2.0), n(3.0), Value::str("a"), Value::str("b")].iter().map(|k| format!("{k:?}")).collect();
        assert_eq!(keys, expected);
    }

    #[test]
    fn finds_replaces_and_removes_by_content() {
        let mut m = Map::default();
        assert!(m.insert(Value::str("x"), n(1.0)));
        assert!(!m.insert(Value::str("x"), n(2.0)));
        assert!(m.insert(n(-0.0), n(3.0)));
        assert!(m.get(&n(0.0)).is_some_and(|v| v.equals(&n(3.0))), "0 and -0 are one key");
        assert!(m.get(&Value::str("x")).is_some_and(|v| v.equals(&n(2.0))));
        assert!(m.remove(&Value::str("x")).is_some());
        assert!(!m.contains(&Value::str("x")));
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn a_graph_key_changed_in_place_is_found_by_its_new_content() {
        use crate::value::Logic;
        use crate::world::{FactKey, World};
        let mut world = World::new();
        let g = world.new_graph("G");
        let key = Value::Graph(g.clone());
        let mut m = Map::default();
        m.insert(key.clone(), n(1.0));
        let before = Value::Graph(world.copy_graph(&g.borrow(), None));
        g.borrow_mut().facts.set(FactKey::new(1, 7, 0, 2), Logic::TRUE);
        let after = Value::Graph(world.copy_graph(&g.borrow(), None));
        assert!(m.contains(&after) && !m.contains(&before));
        m.insert(n(5.0), n(2.0)); // files the keys again
        assert!(m.contains(&after) && !m.contains(&before) && m.contains(&key));
    }

    fn keys_of(m: &Map) -> Vec<String> {
        m.iter().map(|(k, v)| format!("{k:?}={v:?}")).collect()
    }

    #[test]
    fn agrees_with_a_sorted_list_under_inserts_replacements_and_removals() {
        // A model: the entries in key order, each key once (numbers and strings only, where
        // `total_cmp` and `equals` agree).
        let mut model: Vec<(Value, Value)> = Vec::new();
        let mut m = Map::default();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for step in 0..20_000 {
            let r = next();
            let k = if r % 2 == 0 { n((r >> 8) as f64 % 300.0) } else { Value::str(&format!("s{}", (r >> 8) % 300)) };
            let at = model.binary_search_by(|(x, _)| x.total_cmp(&k));
            if r % 5 == 0 {
                let removed = m.remove(&k);
                assert_eq!(removed.is_some(), at.is_ok(), "remove {k:?}");
                if let Ok(i) = at {
                    assert!(removed.unwrap().equals(&model.remove(i).1));
                }
            } else {
                let v = n(step as f64);
                assert_eq!(m.insert(k.clone(), v.clone()), at.is_err(), "insert {k:?}");
                match at {
                    Ok(i) => model[i].1 = v,
                    Err(i) => model.insert(i, (k, v)),
                }
            }
            assert_eq!(m.len(), model.len());
            if step % 997 == 0 {
                let expected: Vec<String> = model.iter().map(|(k, v)| format!("{k:?}={v:?}")).collect();
                assert_eq!(keys_of(&m), expected, "at step {step}");
                assert_eq!(keys_of(&m.clone()), expected, "a clone, at step {step}");
            }
        }
    }

    #[test]
    fn equal_ranked_keys_iterate_in_insertion_order() {
        let mut m = Map::default();
        for v in [3.0, 1.0, 2.0] {
            m.insert(n(f64::NAN), n(v));
        }
        m.insert(n(0.5), n(0.0));
        let values: Vec<String> = m.iter().map(|(_, v)| format!("{v:?}")).collect();
        assert_eq!(values, ["Num(0.0)", "Num(3.0)", "Num(1.0)", "Num(2.0)"]);
    }

    #[test]
    fn graph_keys_that_come_to_hold_the_same_facts_become_one_entry() {
        use crate::value::Logic;
        use crate::world::{FactKey, World};
        let mut world = World::new();
        let g = world.new_graph("G");
        let h = world.copy_graph(&g.borrow(), None);
        g.borrow_mut().facts.set(FactKey::new(1, 7, 0, 2), Logic::TRUE);
        let mut m = Map::default();
        m.insert(Value::Graph(g.clone()), n(1.0));
        m.insert(Value::Graph(h.clone()), n(2.0));
        assert_eq!(m.len(), 2);
        h.borrow_mut().facts.set(FactKey::new(1, 7, 0, 2), Logic::TRUE);
        assert_eq!(m.len(), 2, "both entries until the map is changed");
        assert!(m.get(&Value::Graph(h.clone())).is_some_and(|v| v.equals(&n(1.0))), "the earlier entry answers");
        m.insert(n(0.0), n(0.0));
        assert_eq!(m.len(), 2, "the number and one graph");
        assert!(m.get(&Value::Graph(h.clone())).is_some_and(|v| v.equals(&n(2.0))), "the later value wins");
        let (key, _) = m.iter().last().expect("a graph key");
        assert!(matches!(key, Value::Graph(k) if std::rc::Rc::ptr_eq(k, &g)), "the earlier key stays");
    }

    #[test]
    fn a_shared_map_takes_plain_keys_in_place_and_others_out_of_its_cell() {
        let cell = RefCell::new(Map::default());
        assert!(Map::insert_shared(&cell, n(1.0), Value::str("a")));
        assert!(!Map::insert_shared(&cell, n(1.0), Value::str("b")), "replaced");
        let array = Value::array(vec![n(1.0)]);
        assert!(Map::insert_shared(&cell, array.clone(), n(2.0)));
        assert!(!Map::insert_shared(&cell, array, n(3.0)));
        let m = cell.borrow();
        assert_eq!(m.len(), 2);
        assert!(m.get(&n(1.0)).is_some_and(|v| v.equals(&Value::str("b"))));
        assert!(m.get(&Value::array(vec![n(1.0)])).is_some_and(|v| v.equals(&n(3.0))));
    }

    #[test]
    fn numbers_that_share_bits_at_the_top_are_told_apart() {
        // Integers, their multiples of 2^20 and 2^40, and fractions: each is found, and a number
        // never stored is not.
        let keys: Vec<f64> =
            (0..3000).flat_map(|i| [i as f64, (i << 20) as f64, (i as f64) * 2f64.powi(40), i as f64 / 8.0]).collect();
        let mut m = Map::default();
        for (i, k) in keys.iter().enumerate() {
            m.insert(n(*k), n(i as f64));
        }
        for k in &keys {
            assert!(m.contains(&n(*k)), "{k}");
        }
        assert!(!m.contains(&n(0.3)) && !m.contains(&n(-1.0)));
    }

    #[test]
    fn nan_is_never_found() {
        let mut m = Map::default();
        assert!(m.insert(n(f64::NAN), n(1.0)));
        assert!(m.insert(n(f64::NAN), n(2.0)));
        assert!(!m.contains(&n(f64::NAN)));
        assert_eq!(m.len(), 2);
    }
}

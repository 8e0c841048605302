//! An ordered dictionary with hashed lookup. Keys iterate and print in the reference's order (by
//! type, then value); `M[k]`, `M.is(k)`, `M[k] = v` and `remove` take O(1) through a hash of the
//! key's content, so a map serves as the visited set of a search over hundreds of thousands of
//! states, strings or graphs alike.
//!
//! A graph key is hashed by its content, like any key. A graph can change after it became a key;
//! graph keys are therefore watched (see `facts::epoch`): once one has changed, lookups fall back
//! to comparing every key until the next change of the map files the keys under their new
//! content (where two keys have become equal, the later entry's value wins).

use super::Value;
use crate::world::facts;
use indexmap::{Equivalent, IndexMap};
use rustc_hash::{FxBuildHasher, FxHasher};
use std::cell::RefCell;
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone, Default)]
pub struct Map {
    /// The entries in insertion order, found by the content hash of their key.
    table: IndexMap<Key, Value, FxBuildHasher>,
    /// Set when a key was inserted below the largest one: iteration must sort.
    unsorted: bool,
    /// When the map has graph keys: the `facts::epoch()` at which they were hashed.
    graph_epoch: Option<u64>,
}

impl Drop for Map {
    fn drop(&mut self) {
        super::drop_nested(std::mem::take(&mut self.table).into_iter().flat_map(|(k, v)| [k.0, v]));
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
        if self.fresh() {
            self.table.get(&Probe(key))
        } else {
            self.table.iter().find(|(k, _)| k.0.equals(key)).map(|(_, v)| v)
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
        let in_order = self.table.last().is_none_or(|(last, _)| last.0.total_cmp(&key).is_lt());
        let (_, old) = self.table.insert_full(Key(key), value);
        let new = old.is_none();
        if new && !in_order {
            self.unsorted = true;
        }
        new
    }

    pub fn remove(&mut self, key: &Value) -> Option<Value> {
        self.refresh();
        // `swap_remove` moves the last entry into the hole: the order is only restored by sorting.
        let v = self.table.swap_remove(&Probe(key))?;
        self.unsorted = true;
        Some(v)
    }

    /// `M[k] = v` on a shared map. Hashing and comparing the key may read the map itself
    /// (`m[m] = 1`, `m[[m]] = 1`), so the map leaves its cell for the change (reading as empty
    /// meanwhile) instead of being borrowed across it.
    pub fn insert_shared(cell: &RefCell<Map>, key: Value, value: Value) -> bool {
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
        let entry = std::mem::size_of::<(Key, Value)>() + 2 * std::mem::size_of::<usize>();
        self.table.len() < self.table.capacity() || crate::host::memory::room_to_double(self.table.capacity() * entry)
    }

    pub fn len(&self) -> usize {
        self.table.len()
    }

    pub fn is_empty(&self) -> bool {
        self.table.is_empty()
    }

    pub fn clear(&mut self) {
        *self = Map::default();
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&Value, &Value)> {
        let order: Option<Vec<usize>> = self.unsorted.then(|| {
            let mut order: Vec<usize> = (0..self.table.len()).collect();
            order.sort_by(|&a, &b| self.key_at(a).total_cmp(self.key_at(b)));
            order
        });
        let n = self.table.len();
        (0..n).map(move |i| {
            let (k, v) = self.table.get_index(order.as_ref().map_or(i, |o| o[i])).expect("index in range");
            (&k.0, v)
        })
    }

    pub fn keys(&self) -> Vec<Value> {
        self.iter().map(|(k, _)| k.clone()).collect()
    }

    fn key_at(&self, i: usize) -> &Value {
        &self.table.get_index(i).expect("index in range").0 .0
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
        let entries = std::mem::take(&mut self.table);
        self.table.reserve(entries.len());
        for (k, v) in entries {
            self.table.insert(k, v);
        }
        self.unsorted = true;
        self.graph_epoch = Some(facts::epoch());
    }
}

/// A key: hashed and compared by content, as `==` compares values.
#[derive(Debug, Clone)]
struct Key(Value);

/// A borrowed value looked up among the keys.
struct Probe<'a>(&'a Value);

impl PartialEq for Key {
    fn eq(&self, other: &Key) -> bool {
        self.0.equals(&other.0)
    }
}

// `equals` is an equivalence except on NaN, which equals nothing: a NaN key is never found
// again, and each insert of one adds an entry, as in the reference.
impl Eq for Key {}

impl Hash for Key {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(content_hash(&self.0));
    }
}

impl Hash for Probe<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(content_hash(self.0));
    }
}

impl Equivalent<Key> for Probe<'_> {
    fn equivalent(&self, key: &Key) -> bool {
        self.0.equals(&key.0)
    }
}

/// A hash that agrees with `Value::equals`: equal values hash alike.
fn content_hash(v: &Value) -> u64 {
    let mut h = FxHasher::default();
    hash_into(v, &mut h, 0);
    h.finish()
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

    #[test]
    fn nan_is_never_found() {
        let mut m = Map::default();
        assert!(m.insert(n(f64::NAN), n(1.0)));
        assert!(m.insert(n(f64::NAN), n(2.0)));
        assert!(!m.contains(&n(f64::NAN)));
        assert_eq!(m.len(), 2);
    }
}

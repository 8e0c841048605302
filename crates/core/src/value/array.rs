//! Arrays: a double-ended queue of values shared by reference (so `push`, `pop`, `shift` and
//! `unshift` all take constant time: docs/language.md, decision 16), with an index of the
//! graphs in it by content hash. Search scripts keep their visited states in an array and test
//! `Close.is(G)` before every push; with the index that test costs O(1) instead of a comparison
//! with every state.
//!
//! The index must always give the answer a linear scan would. Three things can falsify it: the
//! array changing, a graph in it changing, or a hash collision. `borrow_mut` drops the index
//! (only `push` and `extend` keep it, as they just append); graphs in the index are watched, so
//! that a change to any of them moves `facts::epoch()` and the index is rebuilt; and every
//! candidate is confirmed with `equals`.

use super::Value;
use crate::world::{facts, ClassId};
use hashbrown::HashTable;
use std::cell::{Cell, Ref, RefCell, RefMut};
use std::collections::VecDeque;

/// The items of an array.
pub type Items = VecDeque<Value>;

#[derive(Debug, Default)]
pub struct Array {
    items: RefCell<Items>,
    index: RefCell<GraphIndex>,
    /// Set by `borrow_mut`: the items may have changed in any way.
    dirty: Cell<bool>,
}

/// Positions of the graph items by (class, content hash), for `items[..covered]`. Only the
/// positions are stored (4 bytes each); a position's hash is its graph's.
#[derive(Debug, Default)]
struct GraphIndex {
    by_hash: HashTable<u32>,
    covered: usize,
    /// `facts::epoch()` when the positions were taken.
    epoch: u64,
    /// Graph lookups since the index was last dropped. The index is built on the second, so an
    /// array that changes between every lookup costs a scan per lookup, as without an index.
    lookups: u32,
}

impl GraphIndex {
    fn reset(&mut self) {
        self.by_hash.clear();
        self.covered = 0;
        self.lookups = 0;
        self.epoch = facts::epoch();
    }

    /// Files the items not yet indexed, and watches their graphs.
    fn extend(&mut self, items: &Items) {
        for (i, item) in items.iter().enumerate().skip(self.covered) {
            if let Value::Graph(g) = item {
                let g = g.borrow();
                g.facts.watch();
                let at = |&p: &u32| match &items[p as usize] {
                    Value::Graph(h) => index_hash(h.borrow().class, h.borrow().facts.hash()),
                    _ => 0, // only graphs are filed
                };
                self.by_hash.insert_unique(index_hash(g.class, g.facts.hash()), i as u32, at);
            }
        }
        self.covered = items.len();
    }
}

impl Drop for Array {
    fn drop(&mut self) {
        super::drop_nested(std::mem::take(self.items.get_mut()));
    }
}

impl Array {
    pub fn new(items: impl Into<Items>) -> Array {
        Array { items: RefCell::new(items.into()), index: RefCell::default(), dirty: Cell::new(false) }
    }

    pub fn borrow(&self) -> Ref<'_, Items> {
        self.items.borrow()
    }

    /// The items as one slice (for matching on their shape). The order does not change, so
    /// the graph index stays valid; it costs a move only after `unshift` wrapped the buffer.
    pub fn slice(&self) -> Ref<'_, [Value]> {
        self.items.borrow_mut().make_contiguous();
        Ref::map(self.items.borrow(), |d| d.as_slices().0)
    }

    /// A copy of the items, in order.
    pub fn to_vec(&self) -> Vec<Value> {
        self.items.borrow().iter().cloned().collect()
    }

    /// The items for any change; the graph index is dropped, as it cannot tell what changed.
    pub fn borrow_mut(&self) -> RefMut<'_, Items> {
        self.dirty.set(true);
        self.items.borrow_mut()
    }

    /// Whether `extra` more items fit under the memory limit: when the items must move to a
    /// larger buffer, it doubles, in one allocation that the limit must allow beforehand.
    pub fn room_for(&self, extra: usize) -> bool {
        let items = self.items.borrow();
        items.len() + extra <= items.capacity()
            || ds_base::guard::memory::room_to_double(items.capacity().max(extra) * std::mem::size_of::<Value>())
    }

    /// Appends values (`A.push`); the index stays valid, as the items before do not move.
    pub fn extend(&self, values: impl IntoIterator<Item = Value>) {
        self.items.borrow_mut().extend(values);
    }

    /// The position of the first item equal to `needle` (`is`, `find`).
    pub fn position(&self, needle: &Value) -> Option<usize> {
        let items = self.items.borrow();
        let Value::Graph(g) = needle else {
            return items.iter().position(|x| x.equals(needle));
        };
        let (class, hash) = {
            let g = g.borrow();
            (g.class, g.facts.hash())
        };
        let mut index = self.index.borrow_mut();
        if self.dirty.replace(false) || index.epoch != facts::epoch() {
            index.reset();
        }
        index.lookups += 1;
        if index.lookups < 2 {
            return scan(&items, needle, class, hash);
        }
        index.extend(&items);
        // The first equal item: positions of one hash come in no particular order.
        index.by_hash.iter_hash(index_hash(class, hash)).map(|&i| i as usize).filter(|&i| items[i].equals(needle)).min()
    }
}

/// The hash a graph is filed by: its content hash, told apart by class.
fn index_hash(class: ClassId, hash: u64) -> u64 {
    hash ^ u64::from(class).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A linear search for a graph that compares the cached hashes before the facts.
fn scan(items: &Items, needle: &Value, class: ClassId, hash: u64) -> Option<usize> {
    items.iter().position(|x| match x {
        Value::Graph(h) => {
            let same_hash = {
                let h = h.borrow();
                h.class == class && h.facts.hash() == hash
            };
            same_hash && x.equals(needle)
        }
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Logic;
    use crate::world::{FactKey, GraphRef, World};

    fn state(world: &mut World, base: &GraphRef, edge: u32) -> Value {
        let g = world.copy_graph(&base.borrow(), None);
        g.borrow_mut().facts.set(FactKey::new(1, 7, 0, edge), Logic::TRUE);
        Value::Graph(g)
    }

    /// The answers of the index, after each kind of change, are those of a plain scan.
    #[test]
    fn graph_lookups_agree_with_a_scan() {
        let mut world = World::new();
        let base = world.new_graph("S");
        let states: Vec<Value> = (0..50).map(|i| state(&mut world, &base, i)).collect();
        let a = Array::new(Vec::new());
        a.extend(states.iter().cloned());
        let scan = |a: &Array, v: &Value| a.borrow().iter().position(|x| x.equals(v));
        let probe = |world: &mut World, i| state(world, &base, i);
        for i in [0, 7, 49, 50, 99, 7] {
            let p = probe(&mut world, i);
            assert_eq!(a.position(&p), scan(&a, &p));
        }
        // Appending keeps the index; the new state is found.
        a.extend([probe(&mut world, 60)]);
        assert_eq!(a.position(&probe(&mut world, 60)), Some(50));
        // A state changed in place is found by its new content, not its old.
        if let Value::Graph(g) = &states[3] {
            g.borrow_mut().facts.set(FactKey::new(1, 7, 0, 70), Logic::TRUE);
        }
        let changed = state(&mut world, &base, 3);
        if let Value::Graph(g) = &changed {
            g.borrow_mut().facts.set(FactKey::new(1, 7, 0, 70), Logic::TRUE);
        }
        assert_eq!(a.position(&changed), Some(3));
        assert_eq!(a.position(&probe(&mut world, 3)), None);
        assert_eq!(a.position(&changed), Some(3));
        // Any other change of the array drops the index.
        a.borrow_mut().swap(0, 1);
        assert_eq!(a.position(&probe(&mut world, 0)), Some(1));
        assert_eq!(a.position(&probe(&mut world, 0)), Some(1));
        a.borrow_mut().remove(0);
        assert_eq!(a.position(&probe(&mut world, 0)), Some(0));
        assert_eq!(a.position(&probe(&mut world, 1)), None);
    }
}

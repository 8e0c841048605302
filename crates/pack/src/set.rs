//! An exact set of packed states, numbered in insertion order.

use crate::IdTable;
use std::hash::Hasher;

/// States of a fixed number of words, each kept once: the words in one arena (state `i` at
/// `i * words`), and a hash table of state numbers. Per state it holds the state's words and
/// about five bytes of table (`IdTable`).
pub struct StateSet {
    words: usize,
    arena: Vec<u64>,
    len: usize,
    table: IdTable,
}

fn hash_of(state: &[u64]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    for &w in state {
        h.write_u64(w);
    }
    // FxHash's low bits are weak for words that differ in their high bits only; mix them down.
    let x = h.finish();
    (x ^ (x >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

impl StateSet {
    /// An empty set of states of `words` words each.
    pub fn new(words: usize) -> StateSet {
        StateSet { words, arena: Vec::new(), len: 0, table: IdTable::new() }
    }

    /// Adds `state` if it is not in the set: its number, and whether it is new. Numbers are
    /// `0, 1, 2, ...` in the order states were first inserted.
    ///
    /// # Panics
    /// If `state` is not `words` long (a caller's bug), or past 2^32 states.
    pub fn insert(&mut self, state: &[u64]) -> (u32, bool) {
        assert_eq!(state.len(), self.words, "a state of the set's width");
        let hash = hash_of(state);
        let (arena, words) = (&self.arena, self.words);
        let at = |id: u32| &arena[id as usize * words..(id as usize + 1) * words];
        if let Some(id) = self.table.find(hash, |id| at(id) == state) {
            return (id, false);
        }
        let id = u32::try_from(self.len).expect("fewer than 2^32 states");
        self.arena.extend_from_slice(state);
        self.len += 1;
        let (arena, words) = (&self.arena, self.words);
        self.table.insert_unique(hash, id, |id| hash_of(&arena[id as usize * words..(id as usize + 1) * words]));
        (id, true)
    }

    /// The number of `state`, if it is in the set.
    pub fn find(&self, state: &[u64]) -> Option<u32> {
        if state.len() != self.words {
            return None;
        }
        self.table.find(hash_of(state), |id| self.get(id) == state)
    }

    /// The state numbered `id`.
    pub fn get(&self, id: u32) -> &[u64] {
        let i = id as usize * self.words;
        &self.arena[i..i + self.words]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The words of each state.
    pub fn words(&self) -> usize {
        self.words
    }

    /// Bytes of memory held (allocated capacity of the arena and the table).
    pub fn heap_bytes(&self) -> usize {
        self.arena.capacity() * 8 + self.table.memory()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_numbered_once_in_insertion_order() {
        let mut set = StateSet::new(2);
        assert_eq!(set.insert(&[1, 2]), (0, true));
        assert_eq!(set.insert(&[2, 1]), (1, true));
        assert_eq!(set.insert(&[1, 2]), (0, false));
        for i in 0..50_000u64 {
            set.insert(&[i << 40, i]);
        }
        // [0, 0] was inserted by the loop (i = 0) as number 2
        assert_eq!(set.find(&[0, 0]), Some(2));
        assert_eq!(set.find(&[77 << 40, 77]), Some(79));
        assert_eq!(set.get(79), [77 << 40, 77]);
        assert_eq!(set.find(&[77 << 40, 78]), None);
        assert_eq!(set.find(&[1]), None, "another width is never in the set");
        assert_eq!(set.len(), 50_002);
        assert!(set.heap_bytes() >= 50_002 * 2 * 8);
    }

    #[test]
    fn states_of_no_words_form_a_set_of_one() {
        let mut set = StateSet::new(0);
        assert_eq!(set.insert(&[]), (0, true));
        assert_eq!(set.insert(&[]), (0, false));
        assert_eq!(set.len(), 1);
    }
}

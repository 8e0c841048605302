//! The states of a PDDL task already decoded, by their graph's content hash: a search asks
//! `next`, `goal` and `h` about the states `next` made, and finding one here is a hash lookup
//! where decoding a graph reads each variable's facts (docs/performance.md, "Problem.pddl's
//! states"). Bounded: when full it starts again empty.

use rustc_hash::FxHashMap;

/// The most values kept (4 bytes each), whatever the number of variables.
const MAX_VALUES: usize = 1 << 20;

#[derive(Debug)]
pub struct Known {
    vars: usize,
    /// Slot of each content hash; the slot's values are `values[slot * vars..][..vars]`.
    slots: FxHashMap<u64, u32>,
    values: Vec<u32>,
}

impl Known {
    pub fn new(vars: usize) -> Known {
        Known { vars, slots: FxHashMap::default(), values: Vec::new() }
    }

    /// The state of content hash `hash`, if kept.
    pub fn get(&self, hash: u64) -> Option<&[u32]> {
        let slot = *self.slots.get(&hash)? as usize;
        Some(&self.values[slot * self.vars..][..self.vars])
    }

    /// Keeps `state` as the state of content hash `hash`.
    pub fn insert(&mut self, hash: u64, state: &[u32]) {
        if self.vars == 0 || self.slots.contains_key(&hash) {
            return;
        }
        if self.values.len() + self.vars > MAX_VALUES {
            self.slots.clear();
            self.values.clear();
        }
        self.slots.insert(hash, (self.values.len() / self.vars) as u32);
        self.values.extend_from_slice(state);
    }
}

//! The live facts of the states of the last levels of a breadth-first search, by content
//! hash (the world's Zobrist hash of a state's facts, kept up to date by every change): a
//! successor already stored among them is found by comparing facts, without writing its key.
//! Most successors are such duplicates (about four in five in the wolf worlds), and a state's
//! successors are at most one level shallower than it, so the states from the level before
//! the one being expanded on are kept; older ones are let go (a successor equal to one of them
//! is packed and looked up by its key, as every successor was before).

use super::store::StateId;
use crate::world::facts::same_facts;
use crate::world::Facts;
use hashbrown::HashTable;
use std::collections::VecDeque;

/// States kept at most (about 200 bytes each): enough for the last levels of searches of
/// some 10,000 states; of larger ones the newest (the level being built and part of the one
/// expanded) are kept. (16,384 on the 95,248-state wolf world: one successor in four packed
/// instead of three in five, 6% fewer instructions, but no faster, the facts compared lying
/// further apart, and 4 MiB more at the peak: docs/performance.md, "Search.bfs's own part".)
const KEPT: usize = 4096;

#[derive(Default)]
pub struct Recent {
    /// The states kept, in id order: each id, depth and facts.
    states: VecDeque<(StateId, u32, Facts)>,
    /// The ids of those states, by their facts' hash.
    table: HashTable<StateId>,
}

impl Recent {
    /// The state kept whose facts are `facts`.
    pub fn find(&self, facts: &Facts) -> Option<StateId> {
        let found = self.table.find(facts.hash(), |&id| self.facts(id).is_some_and(|f| same_facts(f, facts)));
        found.copied()
    }

    /// The facts of kept state `id`.
    pub fn facts(&self, id: StateId) -> Option<&Facts> {
        self.index(id).map(|i| &self.states[i].2)
    }

    /// Where state `id` is kept: at its offset from the first when the ids kept have no gaps
    /// (a search that keeps every new state), else found by bisection.
    fn index(&self, id: StateId) -> Option<usize> {
        let first = self.states.front()?.0;
        let i = id.checked_sub(first)? as usize;
        match self.states.get(i) {
            Some(s) if s.0 == id => Some(i),
            _ => self.states.binary_search_by_key(&id, |s| s.0).ok(),
        }
    }

    /// Keeps new state `id` (ids come in increasing order), at `depth`, with `facts`.
    pub fn keep(&mut self, id: StateId, depth: u32, facts: Facts) {
        if self.states.len() >= KEPT {
            self.forget_first();
        }
        let hash = facts.hash();
        self.states.push_back((id, depth, facts));
        let Recent { states, table } = self;
        let states = &*states;
        table.insert_unique(hash, id, |&id| {
            let i = states.binary_search_by_key(&id, |s| s.0).unwrap_or(0);
            states[i].2.hash()
        });
    }

    /// Lets go of the oldest state.
    fn forget_first(&mut self) {
        let Some((id, _, facts)) = self.states.pop_front() else { return };
        if let Ok(entry) = self.table.find_entry(facts.hash(), |&x| x == id) {
            entry.remove();
        }
    }

    /// Lets go of the states shallower than `depth`.
    pub fn forget_above(&mut self, depth: u32) {
        let old = self.states.iter().take_while(|s| s.1 < depth).count();
        if old == 0 {
            return;
        }
        let first_kept = self.states.get(old).map_or(StateId::MAX, |s| s.0);
        self.states.drain(..old);
        self.table.retain(|&mut id| id >= first_kept);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Logic;
    use crate::world::FactKey;

    fn state(start: &Facts, tgt: u32) -> Facts {
        let mut f = start.clone();
        f.set(FactKey::new(1, 7, 0, tgt), Logic::TRUE);
        f
    }

    #[test]
    fn recent_states_are_found_by_their_facts_until_let_go() {
        let mut start = Facts::default();
        start.set(FactKey::new(1, 2, 0, 9), Logic::TRUE);
        let mut recent = Recent::default();
        for (id, depth) in [(1, 1), (2, 1), (3, 2), (4, 3)] {
            recent.keep(id, depth, state(&start, id));
        }
        assert_eq!(recent.find(&state(&start, 3)), Some(3));
        assert_eq!(recent.find(&state(&start, 5)), None);
        assert_eq!(recent.find(&start), None);
        recent.forget_above(2);
        assert_eq!(recent.find(&state(&start, 2)), None, "depth 1 let go");
        assert_eq!(recent.find(&state(&start, 4)), Some(4));
        assert_eq!(recent.find(&state(&start, 3)), Some(3));
        // a gap in the ids kept: found by bisection
        recent.keep(9, 3, state(&start, 9));
        recent.keep(10, 3, state(&start, 10));
        assert_eq!((recent.find(&state(&start, 9)), recent.find(&state(&start, 10))), (Some(9), Some(10)));
    }

    #[test]
    fn past_the_bound_the_oldest_are_let_go() {
        let start = Facts::default();
        let mut recent = Recent::default();
        for id in 1..=KEPT as u32 + 2 {
            recent.keep(id, 1, state(&start, id));
        }
        // ids 1 and 2 let go (found by their keys instead), the others found by their facts
        assert_eq!((recent.find(&state(&start, 1)), recent.find(&state(&start, 2))), (None, None));
        assert_eq!(recent.find(&state(&start, 3)), Some(3));
        assert_eq!(recent.find(&state(&start, KEPT as u32 + 2)), Some(KEPT as u32 + 2));
        assert_eq!(recent.facts(2), None);
    }
}

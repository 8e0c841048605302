//! A hash table of state numbers whose states live elsewhere (in rows, by number), made to
//! take few bytes a state at every size.
//!
//! A general table (hashbrown's) doubles when it is 7/8 full, so it is between 44% and 88%
//! full, and keeps 5 bytes a slot: 5.7 to 11.4 bytes a state, and while it doubles the old
//! and the new table are both held. Here states are never removed, so the table is simpler:
//! - 256 segments, chosen by a state's hash, each grown on its own: growing copies one
//!   segment, not the whole table;
//! - a segment grows by a fifth when it is 85% full (to 71%), and its size is any number
//!   (a slot is found by a multiply, not a mask);
//! - a segment of under 4,096 slots (about 790,000 states in all) doubles at 75% instead, as
//!   a general table does: growing by a fifth places each number about five times over its
//!   life (its hash computed again each time), and a fuller table probes longer, which a
//!   small table's few bytes do not repay (the 8-puzzle's space and the planner's searches
//!   of a few hundred thousand states take no longer than with hashbrown);
//! - a slot is a tag of 8 bits of the hash and the number's low 24 bits, in 4 bytes; a
//!   segment keeps the numbers' top bytes in a column of their own once it holds a number
//!   from 2^24 on. Until 2^24 states that is 4.7 to 5.6 bytes a state.
//!
//! Slots are probed in a row (linear probing): a slot whose tag matches is compared with the
//! state, and an empty one ends the search.

/// Segments, chosen by the hash's top 8 bits.
const SEGMENTS: usize = 256;
/// A large segment grows by a fifth when it would be fuller than this (in hundredths).
const MAX_LOAD: usize = 85;
/// A segment of fewer slots doubles when it would be fuller than `SMALL_MAX_LOAD`.
const DOUBLE_UNTIL: usize = 4096;
const SMALL_MAX_LOAD: usize = 75;
/// The smallest segment, in slots.
const MIN_SLOTS: usize = 8;

#[derive(Default)]
struct Segment {
    /// A slot is `tag | (number & 0xff_ffff) << 8`, 0 when empty.
    slots: Vec<u32>,
    /// The top byte of each slot's number, kept once a number of the segment needs one
    /// (empty until then).
    high: Vec<u8>,
    len: usize,
}

/// The tag of a hash: 8 bits that are not the segment's, never 0 (an empty slot).
#[inline(always)]
fn tag_of(hash: u64) -> u32 {
    ((hash >> 48) as u32 & 0xff).max(1)
}

/// Where a hash's probe starts in `slots` slots: its low 32 bits scaled to the size.
#[inline(always)]
fn home(hash: u64, slots: usize) -> usize {
    (((hash & 0xffff_ffff) * slots as u64) >> 32) as usize
}

/// Numbers from 2^24 need the top byte kept apart.
const LOW_NUMBERS: u32 = 1 << 24;

impl Segment {
    /// The number in slot `i`, whose slot holds `s`.
    #[inline(always)]
    fn number(&self, i: usize, s: u32) -> u32 {
        let low = s >> 8;
        match self.high.get(i) {
            Some(&h) => low | u32::from(h) << 24,
            None => low,
        }
    }

    #[inline]
    fn find(&self, hash: u64, mut eq: impl FnMut(u32) -> bool) -> Option<u32> {
        let n = self.slots.len();
        if n == 0 {
            return None;
        }
        let tag = tag_of(hash);
        let mut i = home(hash, n);
        loop {
            let s = self.slots[i];
            if s == 0 {
                return None;
            }
            if s & 0xff == tag {
                let id = self.number(i, s);
                if eq(id) {
                    return Some(id);
                }
            }
            i = if i + 1 == n { 0 } else { i + 1 };
        }
    }

    /// Puts `id` in the first empty slot of its probe (the caller made room).
    fn place(&mut self, hash: u64, id: u32) {
        let n = self.slots.len();
        let mut i = home(hash, n);
        while self.slots[i] != 0 {
            i = if i + 1 == n { 0 } else { i + 1 };
        }
        self.slots[i] = tag_of(hash) | (id & 0xff_ffff) << 8;
        if let Some(h) = self.high.get_mut(i) {
            *h = (id >> 24) as u8;
        }
        self.len += 1;
    }

    /// Lays the segment out again in `slots` slots, with the top bytes of numbers if `high`.
    fn rebuild(&mut self, slots: usize, high: bool, hash_of: &impl Fn(u32) -> u64) {
        let fresh = Segment { slots: vec![0; slots], high: if high { vec![0; slots] } else { Vec::new() }, len: 0 };
        let old = std::mem::replace(self, fresh);
        for (i, &s) in old.slots.iter().enumerate() {
            if s != 0 {
                let id = old.number(i, s);
                self.place(hash_of(id), id);
            }
        }
    }

    fn insert(&mut self, hash: u64, id: u32, hash_of: &impl Fn(u32) -> u64) {
        let n = self.slots.len();
        let high = !self.high.is_empty() || id >= LOW_NUMBERS;
        let small = n < DOUBLE_UNTIL;
        if (self.len + 1) * 100 > n * if small { SMALL_MAX_LOAD } else { MAX_LOAD } {
            let grown = if small { n * 2 } else { n + n / 5 };
            self.rebuild(grown.max(MIN_SLOTS), high, hash_of);
        } else if high && self.high.is_empty() {
            self.rebuild(n, true, hash_of);
        }
        self.place(hash, id);
    }

    fn memory(&self) -> usize {
        self.slots.capacity() * 4 + self.high.capacity()
    }
}

/// Numbers of states, found by the states' hashes; the states themselves are the caller's.
pub struct IdTable {
    segments: Vec<Segment>,
    len: usize,
}

impl Default for IdTable {
    fn default() -> IdTable {
        IdTable { segments: (0..SEGMENTS).map(|_| Segment::default()).collect(), len: 0 }
    }
}

#[inline(always)]
fn segment_of(hash: u64) -> usize {
    (hash >> 56) as usize
}

impl IdTable {
    pub fn new() -> IdTable {
        IdTable::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The number with hash `hash` for which `eq` holds (`eq` compares the caller's state of
    /// that number with the one sought).
    #[inline]
    pub fn find(&self, hash: u64, eq: impl FnMut(u32) -> bool) -> Option<u32> {
        self.segments[segment_of(hash)].find(hash, eq)
    }

    /// Adds `id`, whose state has hash `hash` and is not in the table. `hash_of` gives the
    /// hash of a number already in it (a segment that grows places its numbers again).
    pub fn insert_unique(&mut self, hash: u64, id: u32, hash_of: impl Fn(u32) -> u64) {
        self.segments[segment_of(hash)].insert(hash, id, &hash_of);
        self.len += 1;
    }

    /// Empties the table, keeping nothing.
    pub fn clear(&mut self) {
        *self = IdTable::default();
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.segments.iter().map(Segment::memory).sum::<usize>()
            + self.segments.capacity() * std::mem::size_of::<Segment>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hash that spreads small numbers over every segment and slot (SplitMix64's finaliser).
    fn mix(x: u64) -> u64 {
        let x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        let x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        x ^ (x >> 31)
    }

    #[test]
    fn numbers_are_found_by_their_states_only() {
        // state i is the number 3i; its hash is mix(3i)
        let state = |id: u32| u64::from(id) * 3;
        let mut table = IdTable::new();
        for id in 0..200_000u32 {
            let s = state(id);
            assert_eq!(table.find(mix(s), |n| state(n) == s), None);
            table.insert_unique(mix(s), id, |n| mix(state(n)));
        }
        assert_eq!(table.len(), 200_000);
        for id in (0..200_000u32).step_by(997) {
            assert_eq!(table.find(mix(state(id)), |n| state(n) == state(id)), Some(id));
        }
        // states never inserted (not multiples of 3) are not found
        for s in (1..600_000u64).step_by(3).take(1000) {
            assert_eq!(table.find(mix(s), |n| state(n) == s), None);
        }
    }

    #[test]
    fn colliding_hashes_are_told_apart_by_the_states() {
        // every state has the same hash: the tag and the home slot are shared
        let mut table = IdTable::new();
        for id in 0..100u32 {
            table.insert_unique(42, id, |_| 42);
        }
        for id in 0..100u32 {
            assert_eq!(table.find(42, |n| n == id), Some(id));
        }
        assert_eq!(table.find(42, |_| false), None);
    }

    #[test]
    fn numbers_of_every_width_share_a_segment() {
        // every hash in segment 0: its numbers' top bytes go to a column of their own from
        // 2^24 on, while all stay found
        let hash = |id: u32| mix(u64::from(id)) & 0x00ff_ffff_ffff_ffff;
        let mut ids: Vec<u32> = (0..300).collect();
        ids.extend((0..300).map(|i| (1 << 24) + i));
        ids.extend((0..300).map(|i| (1 << 30) + i));
        ids.extend((0..300).map(|i| u32::MAX - 1 - i));
        let mut table = IdTable::new();
        for (n, &id) in ids.iter().enumerate() {
            table.insert_unique(hash(id), id, hash);
            for &earlier in &ids[..=n] {
                assert_eq!(table.find(hash(earlier), |k| k == earlier), Some(earlier));
            }
        }
        assert_eq!(table.find(hash(300), |k| k == 300), None);
    }

    #[test]
    fn a_large_table_takes_under_six_bytes_a_number() {
        // 4-byte slots between 71% and 85% full: 4.7 to 5.6 bytes a number; from 2^24 on a
        // byte more a slot, 5.9 to 7.0
        for (first, bytes) in [(0, 4.6..5.7), (1 << 29, 5.8..7.1)] {
            let mut table = IdTable::new();
            let n = 1_000_000u32;
            for id in first..first + n {
                table.insert_unique(mix(u64::from(id)), id, |k| mix(u64::from(k)));
            }
            let per = table.memory() as f64 / f64::from(n);
            assert!(bytes.contains(&per), "{per} bytes a number from {first}");
            for id in (first..first + n).step_by(9973) {
                assert_eq!(table.find(mix(u64::from(id)), |k| k == id), Some(id));
            }
            assert_eq!(table.find(mix(u64::from(first + n)), |k| k == first + n), None);
        }
    }
}

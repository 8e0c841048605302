//! The states of a search, each kept once as its packed key (`key_vars.rs`), numbered in the
//! order they were stored: the packed keys in rows of one width, and a hash table of numbers.
//!
//! The layout of a packed key only grows by fields appended at its end, which stored keys
//! read as zeros; a key's hash leaves its trailing zero bytes out, so that a growing layout
//! never moves a stored key or rehashes the table. While few states are stored, a layout that
//! grew is laid out again without the appended fields (one field a variable, fewer bits).

use super::key_vars::{Changes, KeyVars, Packed};
use ds_pack::{IdTable, Rows};

/// Up to this many states, a layout that grew is compacted (repacking every state stored).
const COMPACT_UNTIL: usize = 1 << 14;

/// Bytes `at..at + 8` of `row` as a little-endian word, zeros past its end.
#[inline(always)]
fn word(row: &[u8], at: usize) -> u64 {
    match row.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        None => {
            // 0 to 7 bytes: two overlapping 4-byte reads, or the bytes one by one
            let rest = &row[at..];
            let n = rest.len();
            if n >= 4 {
                let lo = u32::from_le_bytes(rest[..4].try_into().expect("4 bytes"));
                let hi = u32::from_le_bytes(rest[n - 4..].try_into().expect("4 bytes"));
                u64::from(lo) | u64::from(hi) << (8 * (n - 4))
            } else {
                rest.iter().rev().fold(0, |w, &b| w << 8 | u64::from(b))
            }
        }
    }
}

/// The hash of a packed key, without its trailing zeros (words of zeros at its end are left
/// out, and the last word is padded with zeros).
#[inline]
fn packed_hash(row: &[u8]) -> u64 {
    let mut h = 0x243f_6a88_85a3_08d3u64;
    let mut zeros = 0;
    for at in (0..row.len()).step_by(8) {
        let w = word(row, at);
        if w == 0 {
            zeros += 1;
            continue;
        }
        for _ in 0..zeros {
            h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
        }
        zeros = 0;
        h = (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29);
    }
    let h = h ^ (h >> 32);
    h.wrapping_mul(0xbf58_476d_1ce4_e5b9) ^ (h >> 29)
}

/// Whether two packed keys are equal, compared as words rather than by a call to `memcmp`
/// (the keys are a few bytes, and compared for each state met again).
#[inline(always)]
fn same_row(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && (0..a.len()).step_by(8).all(|at| word(a, at) == word(b, at))
}

/// A key looked up: its number, or (absent) its packed form if every value of it was known,
/// with the layout's generation it was packed in.
pub enum Probe {
    Found(u32),
    Absent(Option<(Packed, u64)>),
}

#[derive(Default)]
pub struct PackedStates {
    vars: KeyVars,
    rows: Rows,
    table: IdTable,
    /// Counts the layout's changes: a key packed before one must be packed again.
    generation: u64,
}

impl PackedStates {
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// The key of state `id`.
    pub fn key(&self, id: u32) -> Vec<u8> {
        self.vars.decode(self.rows.get(id as usize))
    }

    /// The changes from the start of state `id`, when it is a graph of the start's class.
    pub fn changes(&self, id: u32) -> Option<Changes> {
        self.vars.changes(self.rows.get(id as usize))
    }

    /// The number of the state whose key is `key`, if stored.
    pub fn find(&self, key: &[u8]) -> Option<u32> {
        match self.probe(key) {
            Probe::Found(id) => Some(id),
            Probe::Absent(_) => None,
        }
    }

    /// Looks `key` up; if absent, what `insert_probed` needs to store it without packing it
    /// again.
    pub fn probe(&self, key: &[u8]) -> Probe {
        let mut packed = Packed::new();
        if !self.vars.encode_known(key, &mut packed) {
            return Probe::Absent(None);
        }
        match self.find_packed(&packed) {
            Some(id) => Probe::Found(id),
            None => Probe::Absent(Some((packed, self.generation))),
        }
    }

    fn find_packed(&self, packed: &[u8]) -> Option<u32> {
        let rows = &self.rows;
        self.table.find(packed_hash(packed), |id| same_row(rows.get(id as usize), packed))
    }

    /// Stores `key`, which `probe` found absent with `packed`, and gives its number.
    pub fn insert_probed(&mut self, key: &[u8], packed: Option<(Packed, u64)>) -> u32 {
        let packed = match packed {
            Some((p, generation)) if generation == self.generation => p,
            _ => {
                let mut packed = Packed::new();
                if self.vars.encode_known(key, &mut packed) {
                    // (every value met before: nothing to learn)
                } else if self.vars.encode_learning(key, &mut packed) {
                    self.generation += 1;
                    self.grown(key, &mut packed);
                }
                packed
            }
        };
        debug_assert!(self.find_packed(&packed).is_none(), "a key stored twice");
        let id = u32::try_from(self.rows.len()).expect("fewer than 2^32 states");
        self.rows.push(&packed);
        let rows = &self.rows;
        self.table.insert_unique(packed_hash(&packed), id, |id| packed_hash(rows.get(id as usize)));
        id
    }

    /// The layout grew while packing `key` into `packed`: the rows made as wide, or, while
    /// they are few, all of them laid out again (and `key` packed again).
    fn grown(&mut self, key: &[u8], packed: &mut Packed) {
        if self.rows.len() > COMPACT_UNTIL {
            self.rows.widen(self.vars.width());
            return;
        }
        let old = self.vars.compact();
        let new = self.vars.layout();
        let mut rows = Rows::new(new.bytes());
        let mut row = vec![0u8; new.bytes()];
        for id in 0..self.rows.len() {
            row.fill(0);
            for var in 0..new.len() {
                new.set(&mut row, var, old.get(self.rows.get(id), var));
            }
            rows.push(&row);
        }
        self.rows = rows;
        self.table.clear();
        for id in 0..self.rows.len() {
            let rows = &self.rows;
            self.table.insert_unique(packed_hash(rows.get(id)), id as u32, |id| packed_hash(rows.get(id as usize)));
        }
        self.vars.encode_learning(key, packed);
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.rows.memory() + self.table.memory() + self.vars.memory()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_every_shape_come_back_and_are_found() {
        let mut states = PackedStates::default();
        let mut keys: Vec<Vec<u8>> = Vec::new();
        // boards (keys of one length), a few longer keys, and keys too long to split into bytes
        for i in 0..40_000u32 {
            let key = match i % 7 {
                0..=4 => format!("{:09}", (i as u64 * 2_654_435_761) % 1_000_000_000).into_bytes(),
                5 => format!("{i}-{}", i % 13).into_bytes(),
                _ => vec![(i % 251) as u8; 65 + (i as usize % 40)],
            };
            if let Probe::Absent(packed) = states.probe(&key) {
                assert_eq!(states.insert_probed(&key, packed) as usize, keys.len());
                keys.push(key);
            }
        }
        assert!(states.len() > COMPACT_UNTIL, "past the compacting size: {}", states.len());
        for (id, key) in keys.iter().enumerate() {
            assert_eq!(states.find(key), Some(id as u32));
            assert_eq!(&states.key(id as u32), key);
        }
        assert_eq!(states.find(b"not a key"), None);
        assert_eq!(states.find(b"123456789"), keys.iter().position(|k| k == b"123456789").map(|i| i as u32));
    }
}

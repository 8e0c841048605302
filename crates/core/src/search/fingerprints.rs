//! The `"hash"` store of decision 25: a 64-bit fingerprint per state instead of the state
//! (hash compaction, as TLC keeps its seen states). Two states with one fingerprint are taken
//! for one, so a state can be missed; with n states among g look-ups the chance of any miss is
//! about n(g - n) / 2^64 (TLC's estimate), which `omission` gives.
//!
//! States are numbered in the order they were stored, as the exact store numbers them: the
//! origins and paths work alike. A state's key is not kept here: the search keeps the keys of
//! its frontier (`KeptKeys`), and a path is rebuilt by expanding its states again
//! (`replay.rs`).

use ds_pack::{IdTable, Rows};

/// The fingerprint of a key: XXH3's 64 bits (fixed, published output, well mixed in every bit).
pub fn fingerprint(key: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(key)
}

/// The chance that a search which stored `states` states among `lookups` look-ups missed one
/// (two of its states having one fingerprint).
pub fn omission(states: u64, lookups: u64) -> f64 {
    let n = states as f64;
    n * (lookups.saturating_sub(states)) as f64 / 2f64.powi(64)
}

/// The fingerprints of the states stored, numbered in order, and a table of the numbers by
/// fingerprint.
#[derive(Default)]
pub struct Fingerprints {
    /// Per state, its fingerprint as 8 bytes (rows grow a chunk at a time).
    by_id: Rows,
    table: IdTable,
}

impl Fingerprints {
    pub fn new() -> Fingerprints {
        Fingerprints { by_id: Rows::new(8), table: IdTable::new() }
    }

    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_id.is_empty()
    }

    /// The fingerprint of state `id`.
    pub fn get(&self, id: u32) -> u64 {
        u64::from_le_bytes(self.by_id.get(id as usize).try_into().expect("8 bytes"))
    }

    /// The number of the state with fingerprint `fp`, if stored.
    pub fn find(&self, fp: u64) -> Option<u32> {
        self.table.find(fp, |id| self.get(id) == fp)
    }

    /// Stores a fingerprint `find` did not find; its number.
    pub fn insert_absent(&mut self, fp: u64) -> u32 {
        let id = u32::try_from(self.by_id.len()).expect("fewer than 2^32 states");
        self.by_id.push(&fp.to_le_bytes());
        let by_id = &self.by_id;
        let get = |id: u32| u64::from_le_bytes(by_id.get(id as usize).try_into().expect("8 bytes"));
        self.table.insert_unique(fp, id, get);
        id
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.by_id.memory() + self.table.memory()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_are_numbered_by_fingerprint_in_order() {
        let mut fps = Fingerprints::new();
        for i in 0..100_000u32 {
            let fp = fingerprint(&i.to_le_bytes());
            assert_eq!(fps.find(fp), None, "{i}: no two of these keys share a fingerprint");
            assert_eq!(fps.insert_absent(fp), i);
        }
        assert_eq!(fps.find(fingerprint(&777u32.to_le_bytes())), Some(777));
        assert_eq!(fps.get(5), fingerprint(&5u32.to_le_bytes()));
        // 8 bytes a fingerprint, a 4-byte slot of the table at a load of 3/8 at least (a small
        // segment doubles at 3/4), and the spare room of the last chunk of fingerprints (here
        // 30,000 rows)
        assert!(fps.memory() < 100_000 * 8 + 100_000 * 4 * 8 / 3 + 35_000 * 8, "{} bytes", fps.memory());
    }

    #[test]
    fn the_omission_estimate_is_tlcs() {
        assert_eq!(omission(10, 10), 0.0, "no look-up of a state met before");
        // 1e9 states among 1e10 look-ups: 1e9 * 9e9 / 2^64
        let p = omission(1_000_000_000, 10_000_000_000);
        assert!((p - 9e18 / 18_446_744_073_709_551_616.0).abs() < 1e-12, "{p}");
    }
}

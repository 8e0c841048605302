//! The positions of a map's entries by the hash of their keys: an open-addressing table with
//! linear probing, one 8-byte word per bucket holding the top 32 bits of the hash and the
//! position. A lookup in a table larger than the cache reads one line of buckets and then the
//! entry (hashbrown's table reads the control bytes and the slot apart, a third line), and as
//! the entries stay in a vector in insertion order, keys inserted together are read together.
//!
//! The hash's top bits choose the home bucket, so a bucket's home can be told from the bucket
//! alone, which deletion by backward shift needs (no tombstones).

/// An empty bucket; a full one holds `position + 1` in its low half.
const EMPTY: u64 = 0;

#[derive(Debug, Clone, Default)]
pub(super) struct HashIndex {
    buckets: Box<[u64]>,
    /// log2 of the number of buckets (0 while there are none).
    bits: u32,
}

/// Where a key is, or where it would go.
pub(super) enum Found {
    At(u32),
    Vacant(usize),
}

impl HashIndex {
    /// How many entries fit before the table must grow: three quarters of the buckets.
    pub fn capacity(&self) -> usize {
        self.buckets.len() / 4 * 3
    }

    /// Bytes per entry at the largest load, for the memory limit.
    pub const BYTES_PER_ENTRY: usize = 8 * 4 / 3 + 1;

    /// The position of the entry whose hash is `hash` and for which `is_it` says yes, or the
    /// vacant bucket where it would go. Only entries whose top 32 bits of hash agree are asked.
    #[inline]
    pub fn find(&self, hash: u64, mut is_it: impl FnMut(u32) -> bool) -> Found {
        if self.buckets.is_empty() {
            return Found::Vacant(usize::MAX);
        }
        let tag = hash >> 32;
        let mask = self.buckets.len() - 1;
        let mut i = self.home(hash);
        loop {
            let b = self.buckets[i];
            if b == EMPTY {
                return Found::Vacant(i);
            }
            if b >> 32 == tag {
                let position = (b as u32).wrapping_sub(1);
                if is_it(position) {
                    return Found::At(position);
                }
            }
            i = (i + 1) & mask;
        }
    }

    /// Files `position` in the vacant bucket `find` gave (which must still be vacant: nothing
    /// inserted or removed since) or, when the table is full, after growing it; `hash_of` gives
    /// the hash of the entry at each position for the regrowth.
    pub fn insert(&mut self, vacant: usize, hash: u64, position: u32, len: usize, hash_of: impl Fn(u32) -> u64) {
        if len + 1 > self.capacity() {
            self.rebuild(len + 1, len as u32, hash_of);
            self.put(hash, position);
        } else {
            self.buckets[vacant] = bucket(hash, position);
        }
    }

    /// Makes the buckets anew for `positions` entries, room for at least `room`.
    pub fn rebuild(&mut self, room: usize, positions: u32, hash_of: impl Fn(u32) -> u64) {
        let mut n = 8usize;
        while n / 4 * 3 < room {
            n *= 2;
        }
        self.buckets = vec![EMPTY; n].into_boxed_slice();
        self.bits = n.trailing_zeros();
        for p in 0..positions {
            self.put(hash_of(p), p);
        }
    }

    /// Empties the bucket of `position` (found by its hash), shifting back the buckets after
    /// it that would not be found past the hole.
    pub fn remove(&mut self, hash: u64, position: u32) {
        let mut hole = self.bucket_of(hash, position);
        let mask = self.buckets.len() - 1;
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            let b = self.buckets[j];
            if b == EMPTY {
                break;
            }
            let home = self.home(b);
            // The bucket at j may move to the hole unless its home lies cyclically in (hole, j].
            let stays = if hole <= j { hole < home && home <= j } else { hole < home || home <= j };
            if !stays {
                self.buckets[hole] = b;
                hole = j;
            }
        }
        self.buckets[hole] = EMPTY;
    }

    /// The entry at `from` (hash `hash`) has moved to `to`.
    pub fn moved(&mut self, hash: u64, from: u32, to: u32) {
        let i = self.bucket_of(hash, from);
        self.buckets[i] = bucket(hash, to);
    }

    fn put(&mut self, hash: u64, position: u32) {
        let mask = self.buckets.len() - 1;
        let mut i = self.home(hash);
        while self.buckets[i] != EMPTY {
            i = (i + 1) & mask;
        }
        self.buckets[i] = bucket(hash, position);
    }

    fn bucket_of(&self, hash: u64, position: u32) -> usize {
        let want = bucket(hash, position);
        let mask = self.buckets.len() - 1;
        let mut i = self.home(hash);
        while self.buckets[i] != want {
            debug_assert!(self.buckets[i] != EMPTY, "an entry missing from the index");
            i = (i + 1) & mask;
        }
        i
    }

    /// The home bucket of a hash (or of a bucket word: both keep the hash's top bits on top).
    fn home(&self, word: u64) -> usize {
        (word >> (64 - self.bits)) as usize
    }
}

fn bucket(hash: u64, position: u32) -> u64 {
    (hash & !0xffff_ffff) | u64::from(position + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions by hash, with a model: every position is found from its hash, and a removed
    /// one is not, through growth and backward shifts (hashes crowded onto few home buckets).
    #[test]
    fn finds_every_position_through_growth_and_removals() {
        let mut index = HashIndex::default();
        let mut hashes: Vec<u64> = Vec::new();
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for step in 0..5_000u64 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            // Homes crowded into the last three sixteenths of the table, so that runs wrap around its
            // end, and tags (the top 32 bits) that repeat; the low bits make each hash unique.
            let hash = ((15 - seed % 3) << 60) | (((seed >> 8) % 4096) << 48) | step;
            if seed.is_multiple_of(3) && !hashes.is_empty() {
                // Remove position p as a map does: the last entry moves into its place.
                let p = (seed >> 20) as usize % hashes.len();
                index.remove(hashes[p], p as u32);
                let last = hashes.len() - 1;
                if p != last {
                    index.moved(hashes[last], last as u32, p as u32);
                }
                hashes.swap_remove(p);
            } else {
                let Found::Vacant(v) = index.find(hash, |p| hashes[p as usize] == hash) else {
                    panic!("a new hash found at step {step}");
                };
                let len = hashes.len();
                index.insert(v, hash, len as u32, len, |p| hashes[p as usize]);
                hashes.push(hash);
            }
            for (p, &h) in hashes.iter().enumerate() {
                assert!(
                    matches!(index.find(h, |q| hashes[q as usize] == h), Found::At(q) if q as usize == p),
                    "position {p} at step {step}"
                );
            }
        }
        assert!(hashes.len() > 1000);
    }
}

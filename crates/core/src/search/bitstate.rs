//! The `"bitstate"` store of decision 25: a bit array in which a state sets three bits, as
//! SPIN's supertrace keeps the states it has seen. A state whose three bits are all set
//! already is taken for one met before, so states can be missed; `coverage` estimates the
//! share of the states met that were kept.
//!
//! States are numbered in the order they were stored, as the other stores number them, with
//! a 32-bit check of each (for rebuilding paths, `replay.rs`: the successor of the parent whose
//! check it is); the search keeps the keys of its frontier (`KeptKeys`).

use ds_pack::Rows;

/// Bits a state sets (SPIN's default).
const HASHES: u64 = 3;

/// Bits a chunk of the array holds (128 KB): a chunk is made when a state first sets one of its
/// bits, so a search that meets few states holds little of a large array.
const CHUNK_BITS: u64 = 1 << 20;
const CHUNK_WORDS: usize = (CHUNK_BITS / 64) as usize;

pub struct Bitstate {
    chunks: Vec<Option<Box<[u64]>>>,
    /// Chunks made so far.
    made: usize,
    bits: u64,
    /// Bits set so far.
    set: u64,
    /// Per state, the check of its key (4 bytes).
    checks: Rows,
    /// The expected number of new states taken for old ones so far (see `insert`).
    missed: f64,
}

/// The two hashes a key's bits come from, and its check.
#[derive(Clone, Copy)]
pub struct Hashed {
    h1: u64,
    h2: u64,
}

impl Hashed {
    pub fn of(key: &[u8]) -> Hashed {
        let h = xxhash_rust::xxh3::xxh3_128(key);
        // (an odd step: the three positions differ whatever the array's size)
        Hashed { h1: h as u64, h2: (h >> 64) as u64 | 1 }
    }

    /// The check kept per state.
    pub fn check(self) -> u32 {
        (self.h2 >> 32) as u32
    }

    fn positions(self, bits: u64) -> impl Iterator<Item = u64> {
        (0..HASHES).map(move |i| self.h1.wrapping_add(i.wrapping_mul(self.h2)) % bits)
    }
}

impl Bitstate {
    /// A bit array of `bits` bits (at least 64), or why it cannot be made: the whole array
    /// must fit in the memory limit, as a long search fills it.
    pub fn new(bits: u64) -> Result<Bitstate, String> {
        let bits = bits.max(64);
        let bytes = bits.div_ceil(8);
        let fits = usize::try_from(bytes).is_ok_and(ds_base::guard::memory::room_for);
        if !fits {
            return Err(format!("{bits} bits ({} MB) do not fit in the memory limit", bytes / 1_000_000));
        }
        let n = bits.div_ceil(CHUNK_BITS) as usize;
        let mut chunks = Vec::new();
        chunks
            .try_reserve_exact(n)
            .map_err(|_| format!("{bits} bits ({} MB) could not be allocated", bytes / 1_000_000))?;
        chunks.resize_with(n, || None);
        Ok(Bitstate { chunks, made: 0, bits, set: 0, checks: Rows::new(4), missed: 0.0 })
    }

    fn bit(&self, pos: u64) -> bool {
        let (c, at) = ((pos / CHUNK_BITS) as usize, pos % CHUNK_BITS);
        self.chunks[c].as_ref().is_some_and(|chunk| chunk[(at / 64) as usize] & (1 << (at % 64)) != 0)
    }

    /// Sets bit `pos`; whether it was clear.
    fn set_bit(&mut self, pos: u64) -> bool {
        let (c, at) = ((pos / CHUNK_BITS) as usize, pos % CHUNK_BITS);
        if self.chunks[c].is_none() {
            self.made += 1;
        }
        let chunk = self.chunks[c].get_or_insert_with(|| vec![0u64; CHUNK_WORDS].into_boxed_slice());
        let (word, bit) = (&mut chunk[(at / 64) as usize], 1u64 << (at % 64));
        let clear = *word & bit == 0;
        *word |= bit;
        clear
    }

    pub fn len(&self) -> usize {
        self.checks.len()
    }

    pub fn is_empty(&self) -> bool {
        self.checks.is_empty()
    }

    /// Whether a state with these hashes was met (or one that set the same bits).
    pub fn contains(&self, h: Hashed) -> bool {
        h.positions(self.bits).all(|p| self.bit(p))
    }

    /// Stores a state `contains` did not find; its number.
    pub fn insert(&mut self, h: Hashed) -> u32 {
        // A new state met now is taken for an old one when its three bits are set: with a share
        // f of the bits set, f^3. Each state stored stands for 1 / (1 - p) states met new, of
        // which p / (1 - p) were lost.
        let p = (self.set as f64 / self.bits as f64).powi(HASHES as i32);
        self.missed += p / (1.0 - p).max(1e-12);
        for pos in h.positions(self.bits) {
            if self.set_bit(pos) {
                self.set += 1;
            }
        }
        let id = u32::try_from(self.checks.len()).expect("fewer than 2^32 states");
        self.checks.push(&h.check().to_le_bytes());
        id
    }

    /// The check of state `id`.
    pub fn check(&self, id: u32) -> u32 {
        u32::from_le_bytes(self.checks.get(id as usize).try_into().expect("4 bytes"))
    }

    /// The estimated share of the new states met that were kept.
    pub fn coverage(&self) -> f64 {
        let n = self.len() as f64;
        if n == 0.0 {
            1.0
        } else {
            n / (n + self.missed)
        }
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.made * CHUNK_WORDS * 8
            + self.chunks.capacity() * std::mem::size_of::<Option<Box<[u64]>>>()
            + self.checks.memory()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_roomy_array_keeps_every_state() {
        let mut b = Bitstate::new(1 << 24).expect("2 MB");
        for i in 0..10_000u32 {
            let h = Hashed::of(&i.to_le_bytes());
            assert!(!b.contains(h), "{i}: 10,000 states in 16M bits, three each: no false hit expected");
            assert_eq!(b.insert(h), i);
            assert!(b.contains(h));
        }
        assert_eq!(b.check(7), Hashed::of(&7u32.to_le_bytes()).check());
        assert!(b.coverage() > 0.999_999, "{}", b.coverage());
    }

    #[test]
    fn a_small_array_misses_states_and_says_so() {
        // 2,000 bits for 3,000 distinct states: once most bits are set, most new states are
        // taken for old ones; the estimate must show a large loss.
        let mut b = Bitstate::new(2_000).expect("250 bytes");
        let mut kept = 0;
        for i in 0..3_000u32 {
            let h = Hashed::of(&i.to_le_bytes());
            if !b.contains(h) {
                b.insert(h);
                kept += 1;
            }
        }
        assert!(kept < 3_000, "some states were taken for others");
        assert_eq!(b.len(), kept);
        let estimated = b.coverage();
        let actual = kept as f64 / 3_000.0;
        assert!(estimated < 0.9 && (estimated - actual).abs() < 0.25, "estimated {estimated}, actual {actual}");
    }

    #[test]
    fn an_array_past_the_memory_limit_is_refused_not_allocated() {
        assert!(Bitstate::new(u64::MAX).is_err());
    }
}

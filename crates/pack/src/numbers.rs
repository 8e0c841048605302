//! A column of `u32`s, one per state, in blocks of 64 packed as their differences from the
//! block's least value. A search numbers states as it finds them, so the parents of 64
//! states found in a row are a few states expanded in a row: their differences take a few
//! bits, not 32 (about 1.2 bytes a state in a breadth-first search, where a plain column
//! takes 4).

use rustc_hash::FxHashMap;

const BLOCK: usize = 64;

#[derive(Clone, Copy)]
struct Block {
    base: u32,
    bits: u32,
    /// The block's first bit in `bits`.
    at: u64,
}

/// Numbers pushed one by one, read and changed by their index.
#[derive(Default)]
pub struct Numbers {
    blocks: Vec<Block>,
    packed: Vec<u64>,
    packed_bits: u64,
    /// The last, unfinished block.
    tail: Vec<u32>,
    /// Values set after their block was packed that do not fit it.
    changed: FxHashMap<u32, u32>,
}

fn read(words: &[u64], at: u64, bits: u32) -> u32 {
    if bits == 0 {
        return 0;
    }
    let (w, shift) = ((at / 64) as usize, (at % 64) as u32);
    let mut x = words[w] >> shift;
    if shift + bits > 64 {
        x |= words[w + 1] << (64 - shift);
    }
    (x & ((1u64 << bits) - 1)) as u32
}

fn write(words: &mut [u64], at: u64, bits: u32, value: u32) {
    if bits == 0 {
        return;
    }
    let (w, shift) = ((at / 64) as usize, (at % 64) as u32);
    let m = (1u64 << bits) - 1;
    let v = u64::from(value) & m;
    words[w] = (words[w] & !(m << shift)) | (v << shift);
    if shift + bits > 64 {
        let spill = 64 - shift;
        words[w + 1] = (words[w + 1] & !(m >> spill)) | (v >> spill);
    }
}

impl Numbers {
    pub fn len(&self) -> usize {
        self.blocks.len() * BLOCK + self.tail.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: u32) -> u32 {
        if !self.changed.is_empty() {
            if let Some(&v) = self.changed.get(&i) {
                return v;
            }
        }
        let (b, k) = (i as usize / BLOCK, i as usize % BLOCK);
        match self.blocks.get(b) {
            Some(block) => block.base + read(&self.packed, block.at + k as u64 * u64::from(block.bits), block.bits),
            None => self.tail[k],
        }
    }

    pub fn push(&mut self, value: u32) {
        self.tail.push(value);
        if self.tail.len() == BLOCK {
            self.seal();
        }
    }

    /// Packs the full tail as a block.
    fn seal(&mut self) {
        let base = self.tail.iter().copied().min().unwrap_or(0);
        let spread = self.tail.iter().map(|&v| v - base).max().unwrap_or(0);
        let bits = 32 - spread.leading_zeros();
        let block = Block { base, bits, at: self.packed_bits };
        self.packed_bits += BLOCK as u64 * u64::from(bits);
        self.packed.resize(self.packed_bits.div_ceil(64) as usize + 1, 0);
        for (k, &v) in self.tail.iter().enumerate() {
            write(&mut self.packed, block.at + k as u64 * u64::from(bits), bits, v - base);
        }
        self.blocks.push(block);
        self.tail.clear();
    }

    pub fn set(&mut self, i: u32, value: u32) {
        let (b, k) = (i as usize / BLOCK, i as usize % BLOCK);
        let Some(&block) = self.blocks.get(b) else {
            self.tail[k] = value;
            return;
        };
        let fits = value >= block.base && (block.bits == 32 || (value - block.base) >> block.bits == 0);
        if fits {
            write(&mut self.packed, block.at + k as u64 * u64::from(block.bits), block.bits, value - block.base);
            self.changed.remove(&i);
        } else {
            self.changed.insert(i, value);
        }
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.blocks.capacity() * std::mem::size_of::<Block>()
            + self.packed.capacity() * 8
            + self.tail.capacity() * 4
            + self.changed.capacity() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_come_back_as_pushed_and_set() {
        let mut n = Numbers::default();
        let mut plain = Vec::new();
        // parents of a breadth-first search: slowly rising, with the start's "none"
        for i in 0..1000u32 {
            let v = if i == 0 { u32::MAX } else { i / 3 + (i % 5) };
            n.push(v);
            plain.push(v);
        }
        assert!((0..1000).all(|i| n.get(i) == plain[i as usize]));
        for (i, v) in [(5, 0), (70, 1_000_000), (999, 7), (130, 44), (70, 25)] {
            n.set(i, v);
            plain[i as usize] = v;
        }
        assert!((0..1000).all(|i| n.get(i) == plain[i as usize]));
        assert!(n.memory() < 1000 * 2, "about a byte a number: {}", n.memory());
    }
}

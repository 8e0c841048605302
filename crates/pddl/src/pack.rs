//! The packed encoding of states (the API of the shared `ds-pack` crate, which replaces this
//! file once it is on main): each variable a bit field in u64 words, a field never straddling
//! two words (Fast Downward's IntPacker), and an exact set of packed states numbered in
//! insertion order.

#[derive(Debug, Clone, Copy)]
struct Field {
    word: u32,
    shift: u32,
    mask: u64,
}

#[derive(Debug, Clone)]
pub struct Layout {
    fields: Vec<Field>,
    words: usize,
}

impl Layout {
    pub fn new(domain_sizes: &[u32]) -> Layout {
        let bits = |n: u32| if n <= 1 { 0 } else { 32 - (n - 1).leading_zeros() };
        // Widest fields first, each into the first word with room (first fit decreasing).
        let mut order: Vec<usize> = (0..domain_sizes.len()).collect();
        order.sort_by_key(|&v| std::cmp::Reverse(bits(domain_sizes[v])));
        let mut used: Vec<u32> = Vec::new();
        let mut fields = vec![Field { word: 0, shift: 0, mask: 0 }; domain_sizes.len()];
        for v in order {
            let b = bits(domain_sizes[v]);
            if b == 0 {
                continue;
            }
            let word = match used.iter().position(|&u| u + b <= 64) {
                Some(w) => w,
                None => {
                    used.push(0);
                    used.len() - 1
                }
            };
            fields[v] =
                Field { word: word as u32, shift: used[word], mask: if b == 64 { u64::MAX } else { (1 << b) - 1 } };
            used[word] += b;
        }
        Layout { fields, words: used.len().max(1) }
    }

    pub fn words(&self) -> usize {
        self.words
    }

    #[inline]
    pub fn get(&self, state: &[u64], var: usize) -> u32 {
        let f = self.fields[var];
        ((state[f.word as usize] >> f.shift) & f.mask) as u32
    }

    #[inline]
    pub fn set(&self, state: &mut [u64], var: usize, value: u32) {
        let f = self.fields[var];
        let w = &mut state[f.word as usize];
        *w = (*w & !(f.mask << f.shift)) | ((value as u64 & f.mask) << f.shift);
    }
}

/// An exact set of packed states, numbered 0, 1, 2, ... in insertion order: the states in one
/// flat vector, and an open-addressing table of their numbers.
pub struct StateSet {
    words: usize,
    data: Vec<u64>,
    table: Vec<u32>,
    len: usize,
}

const EMPTY: u32 = u32::MAX;

fn hash(state: &[u64]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for &w in state {
        h = (h ^ w).wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 32;
    }
    h
}

impl StateSet {
    pub fn new(words: usize) -> StateSet {
        StateSet { words: words.max(1), data: Vec::new(), table: vec![EMPTY; 1024], len: 0 }
    }

    pub fn insert(&mut self, state: &[u64]) -> (u32, bool) {
        if (self.len + 1) * 4 > self.table.len() * 3 {
            self.grow();
        }
        let mask = self.table.len() - 1;
        let mut i = hash(state) as usize & mask;
        loop {
            let id = self.table[i];
            if id == EMPTY {
                let new = self.len as u32;
                self.table[i] = new;
                self.data.extend_from_slice(state);
                self.len += 1;
                return (new, true);
            }
            if self.get(id) == state {
                return (id, false);
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let size = self.table.len() * 2;
        let mut table = vec![EMPTY; size];
        for id in 0..self.len as u32 {
            let mut i = hash(self.get(id)) as usize & (size - 1);
            while table[i] != EMPTY {
                i = (i + 1) & (size - 1);
            }
            table[i] = id;
        }
        self.table = table;
    }

    #[inline]
    pub fn get(&self, id: u32) -> &[u64] {
        let at = id as usize * self.words;
        &self.data[at..at + self.words]
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn heap_bytes(&self) -> usize {
        self.data.capacity() * 8 + self.table.capacity() * 4
    }
}

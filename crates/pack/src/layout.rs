//! Variables with finite domains packed into bit fields of 64-bit words.

/// Where one variable lives: its word, its first bit there, and the mask of its bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    word: u32,
    shift: u32,
    mask: u64,
}

/// The bit fields of a state's variables (Fast Downward's `IntPacker`: the widest variables
/// are placed first, each into the first word with room for it, so that fields never cross a
/// word boundary and few bits are wasted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    fields: Vec<Field>,
    words: usize,
}

/// The bits that hold the values `0..size` (none for a domain of one value or less).
pub fn bits_for(size: u32) -> u32 {
    if size <= 1 {
        0
    } else {
        32 - (size - 1).leading_zeros()
    }
}

impl Layout {
    /// The layout of variables whose domains have the given sizes.
    pub fn new(domain_sizes: &[u32]) -> Layout {
        let mut order: Vec<usize> = (0..domain_sizes.len()).collect();
        // widest first; equal widths in variable order, so the layout is deterministic
        order.sort_by_key(|&v| (std::cmp::Reverse(bits_for(domain_sizes[v])), v));
        let mut used: Vec<u32> = Vec::new();
        let mut fields = vec![Field { word: 0, shift: 0, mask: 0 }; domain_sizes.len()];
        for v in order {
            let bits = bits_for(domain_sizes[v]);
            if bits == 0 {
                continue;
            }
            let word = match used.iter().position(|&u| u + bits <= 64) {
                Some(w) => w,
                None => {
                    used.push(0);
                    used.len() - 1
                }
            };
            let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
            fields[v] = Field { word: word as u32, shift: used[word], mask };
            used[word] += bits;
        }
        Layout { fields, words: used.len() }
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The 64-bit words a state takes (0 when no variable has more than one value).
    pub fn words(&self) -> usize {
        self.words
    }

    /// The value of variable `var` in `state`.
    #[inline]
    pub fn get(&self, state: &[u64], var: usize) -> u32 {
        let f = self.fields[var];
        if f.mask == 0 {
            return 0;
        }
        ((state[f.word as usize] >> f.shift) & f.mask) as u32
    }

    /// Sets variable `var` of `state` to `value`, which must be in its domain (bits beyond
    /// the field are dropped, never written into a neighbour).
    #[inline]
    pub fn set(&self, state: &mut [u64], var: usize, value: u32) {
        let f = self.fields[var];
        if f.mask == 0 {
            return;
        }
        let w = &mut state[f.word as usize];
        *w = (*w & !(f.mask << f.shift)) | ((u64::from(value) & f.mask) << f.shift);
    }

    /// A state of `values` (one per variable).
    pub fn pack(&self, values: &[u32]) -> Vec<u64> {
        let mut state = vec![0; self.words];
        for (v, &x) in values.iter().enumerate() {
            self.set(&mut state, v, x);
        }
        state
    }

    /// The value of every variable of `state`.
    pub fn unpack(&self, state: &[u64]) -> Vec<u32> {
        (0..self.fields.len()).map(|v| self.get(state, v)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_hold_exactly_the_domain() {
        assert_eq!([0, 1, 2, 3, 4, 5, 8, 9].map(bits_for), [0, 0, 1, 2, 2, 3, 3, 4]);
        assert_eq!(bits_for(u32::MAX), 32);
    }

    #[test]
    fn every_value_round_trips_and_neighbours_are_untouched() {
        let sizes = [2, 3, 9, 1, 5, 2, 70000, 4, 4, 17];
        let layout = Layout::new(&sizes);
        let mut state = vec![0; layout.words()];
        for v in 0..sizes.len() {
            for x in 0..sizes[v].min(300) {
                let before = layout.unpack(&state);
                layout.set(&mut state, v, x);
                let mut want = before.clone();
                want[v] = if sizes[v] == 1 { 0 } else { x };
                assert_eq!(layout.unpack(&state), want, "variable {v} set to {x}");
            }
        }
    }

    #[test]
    fn fields_never_cross_a_word_and_words_are_few() {
        // nine 4-bit cells (an 8-puzzle) fit one word; 21 variables of 3 bits do too (63 bits)
        assert_eq!(Layout::new(&[9; 9]).words(), 1);
        assert_eq!(Layout::new(&[8; 21]).words(), 1);
        assert_eq!(Layout::new(&[8; 22]).words(), 2);
        // fields of 31, 32 and 1 bits fill one word exactly; 32, 32 and 1 bits need two
        let full = Layout::new(&[1 << 31, u32::MAX, 2]);
        assert_eq!(full.words(), 1);
        let state = full.pack(&[(1 << 31) - 1, u32::MAX - 1, 1]);
        assert_eq!(full.unpack(&state), [(1 << 31) - 1, u32::MAX - 1, 1]);
        let over = Layout::new(&[u32::MAX, u32::MAX, 2]);
        assert_eq!(over.words(), 2);
        let state = over.pack(&[u32::MAX - 1, 7, 1]);
        assert_eq!(over.unpack(&state), [u32::MAX - 1, 7, 1]);
        assert_eq!(Layout::new(&[1, 1, 0]).words(), 0, "no variable needs a bit");
    }
}

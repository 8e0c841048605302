//! A layout for variables whose domains are learned while states are stored: a search finds its
//! variables and their values as it goes, not up front as a planner's translator does.
//!
//! A state is a byte string. Each variable owns one or more bit fields, low bits first; when a
//! value outgrows its variable's fields, a new field for the missing high bits is appended at
//! the end of the state. No bit of a stored state moves: its new fields read as 0, which is
//! what its values' high bits are, so stored states stay valid with their bytes padded by
//! zeros. [`GrowingLayout::compact`] lays the same variables out again, one field each, for a
//! caller that can afford to repack what it stored (few states yet).

use crate::layout::bits_for;
use smallvec::SmallVec;

/// Bits `at..at + bits` of a state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Field {
    at: u32,
    bits: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Var {
    /// Low bits first (most variables have one or two: kept inline).
    fields: SmallVec<[Field; 2]>,
    /// The sum of the fields' bits.
    bits: u32,
}

/// The fields of each variable, and the bits a state takes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrowingLayout {
    vars: Vec<Var>,
    bits: u32,
}

/// The bytes `at..` of `state` as a little-endian word (zeros past its end).
#[inline]
fn load(state: &[u8], at: usize) -> u64 {
    match state.get(at..at + 8) {
        Some(b) => u64::from_le_bytes(b.try_into().expect("8 bytes")),
        None => {
            let mut w = [0u8; 8];
            let rest = state.get(at..).unwrap_or(&[]);
            w[..rest.len()].copy_from_slice(rest);
            u64::from_le_bytes(w)
        }
    }
}

#[inline]
fn store(state: &mut [u8], at: usize, word: u64) {
    let bytes = word.to_le_bytes();
    let n = state.len().saturating_sub(at).min(8);
    state[at..at + n].copy_from_slice(&bytes[..n]);
}

#[inline]
fn mask(bits: u32) -> u64 {
    (1u64 << bits) - 1
}

impl GrowingLayout {
    /// Variables with the given domain sizes, each in one field of the fewest bits.
    pub fn compact(domain_sizes: &[u32]) -> GrowingLayout {
        let mut layout = GrowingLayout::default();
        for &size in domain_sizes {
            let var = layout.push_var();
            layout.widen(var, bits_for(size));
        }
        layout
    }

    /// Adds a variable of one value (no bits yet); its number.
    pub fn push_var(&mut self) -> usize {
        self.vars.push(Var::default());
        self.vars.len() - 1
    }

    /// The number of variables.
    pub fn len(&self) -> usize {
        self.vars.len()
    }

    pub fn is_empty(&self) -> bool {
        self.vars.is_empty()
    }

    /// The bytes a state takes.
    pub fn bytes(&self) -> usize {
        self.bits.div_ceil(8) as usize
    }

    /// Whether `value` fits the fields of `var`.
    #[inline]
    pub fn fits(&self, var: usize, value: u32) -> bool {
        bits_for(value.saturating_add(1)) <= self.vars[var].bits
    }

    /// Makes `var` hold `value`, appending a field for the bits it lacks. Returns whether the
    /// layout changed.
    pub fn fit(&mut self, var: usize, value: u32) -> bool {
        let need = bits_for(value.saturating_add(1));
        let have = self.vars[var].bits;
        if need <= have {
            return false;
        }
        self.widen(var, need - have);
        true
    }

    fn widen(&mut self, var: usize, extra: u32) {
        if extra == 0 {
            return;
        }
        let at = self.bits;
        let v = &mut self.vars[var];
        match v.fields.last_mut() {
            // the variable's last field ends where the state does: make it longer
            Some(f) if f.at + f.bits == at && f.bits + extra <= 32 => f.bits += extra,
            _ => v.fields.push(Field { at, bits: extra }),
        }
        v.bits += extra;
        self.bits += extra;
    }

    /// The 64-bit words a state takes.
    pub fn words(&self) -> usize {
        self.bits.div_ceil(64) as usize
    }

    /// Writes `value` (which must fit) into the fields of `var` in `words`, a state as
    /// little-endian words whose bits there are still 0: the fast way to pack a whole state,
    /// a variable at a time, before taking its first `bytes()` bytes.
    #[inline(always)]
    pub fn put(&self, words: &mut [u64], var: usize, value: u32) {
        let fields = &self.vars[var].fields[..];
        if let [f] = fields {
            // (most variables: one field)
            let (w, shift) = ((f.at / 64) as usize, f.at % 64);
            words[w] |= u64::from(value) << shift;
            if shift + f.bits > 64 {
                words[w + 1] |= u64::from(value) >> (64 - shift);
            }
            return;
        }
        let mut rest = u64::from(value);
        for f in fields {
            let (w, shift) = ((f.at / 64) as usize, f.at % 64);
            let v = rest & mask(f.bits);
            words[w] |= v << shift;
            if shift + f.bits > 64 {
                words[w + 1] |= v >> (64 - shift);
            }
            rest >>= f.bits;
        }
    }

    /// The one field of `var` (its first bit and its bits), if it has one; a variable of one
    /// value has none and reads as 0 everywhere (`(0, 0)`).
    pub fn single_field(&self, var: usize) -> Option<(u32, u32)> {
        match self.vars[var].fields[..] {
            [] => Some((0, 0)),
            [f] => Some((f.at, f.bits)),
            _ => None,
        }
    }

    /// The value of `var` in a state given as little-endian words (`put`'s form).
    #[inline(always)]
    pub fn get_words(&self, words: &[u64], var: usize) -> u32 {
        let mut value = 0u64;
        let mut shift = 0;
        for f in &self.vars[var].fields {
            let (w, at) = ((f.at / 64) as usize, f.at % 64);
            let mut x = words[w] >> at;
            if at + f.bits > 64 {
                x |= words[w + 1] << (64 - at);
            }
            value |= (x & mask(f.bits)) << shift;
            shift += f.bits;
        }
        value as u32
    }

    /// The value of `var` in `state` (0 for bits past the state's end).
    #[inline]
    pub fn get(&self, state: &[u8], var: usize) -> u32 {
        let mut value = 0u64;
        let mut shift = 0;
        for f in &self.vars[var].fields {
            let word = load(state, (f.at / 8) as usize) >> (f.at % 8);
            value |= (word & mask(f.bits)) << shift;
            shift += f.bits;
        }
        value as u32
    }

    /// Sets `var` of `state` (at least `bytes()` long) to `value`, which must fit (`fits`).
    #[inline]
    pub fn set(&self, state: &mut [u8], var: usize, value: u32) {
        let mut rest = u64::from(value);
        for f in &self.vars[var].fields {
            let byte = (f.at / 8) as usize;
            let shift = f.at % 8;
            let word = load(state, byte);
            let m = mask(f.bits) << shift;
            store(state, byte, (word & !m) | (((rest & mask(f.bits)) << shift) & m));
            rest >>= f.bits;
        }
        debug_assert_eq!(rest, 0, "a value wider than its variable");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_widening_and_new_variables() {
        let mut layout = GrowingLayout::default();
        let a = layout.push_var();
        let b = layout.push_var();
        assert_eq!(layout.bytes(), 0, "one value each: no bits");
        assert!(layout.fit(a, 5));
        assert!(!layout.fit(a, 7), "3 bits hold 7");
        assert!(layout.fit(b, 1));
        let mut old = vec![0u8; layout.bytes()];
        layout.set(&mut old, a, 6);
        layout.set(&mut old, b, 1);
        // a outgrows its field after b took the next bit: a second field for a's high bits
        assert!(layout.fit(a, 300));
        let c = layout.push_var();
        layout.fit(c, 40_000);
        assert_eq!((layout.get(&old, a), layout.get(&old, b), layout.get(&old, c)), (6, 1, 0));
        let mut new = old.clone();
        new.resize(layout.bytes(), 0);
        layout.set(&mut new, a, 299);
        layout.set(&mut new, c, 39_999);
        layout.set(&mut new, b, 0);
        assert_eq!((layout.get(&new, a), layout.get(&new, b), layout.get(&new, c)), (299, 0, 39_999));
        layout.set(&mut new, a, 6);
        assert_eq!(layout.get(&new, a), 6, "the high field cleared");
    }

    #[test]
    fn a_compact_layout_has_the_fewest_bits() {
        let layout = GrowingLayout::compact(&[9, 9, 1, 2, 3]);
        assert_eq!(layout.bits, 4 + 4 + 1 + 2);
        assert_eq!(layout.bytes(), 2);
        let mut s = vec![0u8; 2];
        for (var, value) in [(0, 8), (1, 3), (3, 1), (4, 2)] {
            layout.set(&mut s, var, value);
        }
        assert_eq!((0..5).map(|v| layout.get(&s, v)).collect::<Vec<_>>(), [8, 3, 0, 1, 2]);
        let mut words = vec![0u64; layout.words()];
        for (var, value) in [(0, 8), (1, 3), (3, 1), (4, 2)] {
            layout.put(&mut words, var, value);
        }
        assert_eq!(words[0].to_le_bytes()[..2], s[..], "put on words packs as set on bytes");
    }

    #[test]
    fn wide_values_cross_bytes() {
        let mut layout = GrowingLayout::default();
        let vars: Vec<usize> = (0..5).map(|_| layout.push_var()).collect();
        for &v in &vars {
            layout.fit(v, u32::MAX - 1);
        }
        layout.fit(vars[0], u32::MAX);
        let mut s = vec![0u8; layout.bytes()];
        for (i, &v) in vars.iter().enumerate() {
            layout.set(&mut s, v, u32::MAX - i as u32);
        }
        for (i, &v) in vars.iter().enumerate() {
            assert_eq!(layout.get(&s, v), u32::MAX - i as u32);
        }
        let mut words = vec![0u64; layout.words()];
        for (i, &v) in vars.iter().enumerate() {
            layout.put(&mut words, v, u32::MAX - i as u32);
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take(layout.bytes()).collect();
        assert_eq!(bytes, s, "fields across words");
    }
}

//! The records of a packed graph: one per fact in which a state differs from the start (or,
//! for a graph of another class, per fact it has), in key order.
//!
//! A record is a header byte (the value code in bits 0-1 and the bits below), then the source
//! and the relation unless they repeat the record before's (records come sorted, so a node's
//! changed facts share them), the target graph if not this one, and the target; a fuzzy
//! value's pair last. Two facts of one source and relation in a row (`x on $1` gone, `x on $2`
//! new: an object moved) share a header: the second's value code goes into bits 6-7 of the
//! first's and only its target follows, so a moved object is 5 bytes.

use super::pack::{get_f64, get_varint, put_f64};
use crate::value::Logic;
use crate::world::facts::{Change, DiffSink};
use crate::world::{FactKey, Word};

/// The values of a fact in a record; `ABSENT`: the start has the fact, this state not.
const ABSENT: u8 = 0;
const TRUE: u8 = 1;
const FALSE: u8 = 2;
const OTHER: u8 = 3;

/// Header bits: the source, the relation are those of the record before; the target is in
/// another graph (its uid follows); a second fact of the same source and relation follows
/// (its value code in bits 6-7, then its target).
const SAME_SRC: u8 = 4;
const SAME_REL: u8 = 8;
const FOREIGN: u8 = 16;
const PAIR: u8 = 32;
const SECOND_AT: u32 = 6;

/// Writes the records of one graph.
pub struct Records<'a> {
    out: &'a mut Vec<u8>,
    last: Last,
}

/// What the next record depends on: the source and relation of the record before (plain
/// numbers, not an `Option` of a whole key: this runs for every fact in which a state differs
/// from the start), how many records came before, and where the header of the last record is
/// when it can take a second fact (else `SHUT`).
#[derive(Clone, Copy)]
struct Last {
    src: u32,
    rel: u32,
    count: u64,
    open: usize,
}

impl Default for Last {
    fn default() -> Last {
        Last { src: 0, rel: 0, count: 0, open: SHUT }
    }
}

const SHUT: usize = usize::MAX;

impl<'a> Records<'a> {
    pub fn new(out: &'a mut Vec<u8>) -> Records<'a> {
        Records { out, last: Last::default() }
    }

    /// How many facts' records were written.
    pub fn count(&self) -> u64 {
        self.last.count
    }

    /// Appends the record of `key` having `value` (None: the state lacks it).
    #[inline]
    pub fn put(&mut self, key: FactKey, value: Option<Logic>) {
        let code = match value {
            None => ABSENT,
            // (`==`, not bits: a -0 must pack as 0 does)
            Some(v) if v.is_true() => TRUE,
            Some(v) if v.is_false() => FALSE,
            Some(_) => OTHER,
        };
        let (src, rel, tgraph) = (key.src(), key.rel(), key.tgraph());
        let last = &mut self.last;
        let same_src = last.count > 0 && src == last.src;
        let same_rel = last.count > 0 && rel == last.rel;
        (last.src, last.rel) = (src, rel);
        last.count += 1;
        let out = &mut *self.out;
        if same_src && same_rel && tgraph == 0 && last.open != SHUT {
            out[last.open] |= PAIR | code << SECOND_AT;
            last.open = SHUT;
        } else {
            last.open = out.len();
            out.push(
                code | if same_src { SAME_SRC } else { 0 }
                    | if same_rel { SAME_REL } else { 0 }
                    | if tgraph != 0 { FOREIGN } else { 0 },
            );
            if !same_src {
                push_varint(out, src);
            }
            if !same_rel {
                push_varint(out, rel);
            }
            if tgraph != 0 {
                push_varint(out, tgraph);
            }
        }
        push_varint(out, key.tgt());
        if let Some(v) = value.filter(|_| code == OTHER) {
            put_f64(out, v.p0);
            put_f64(out, v.p1);
        }
    }
}

/// What a packed fact adds to the records: the bits of a second fact to set in the open
/// header (`pair`), or a new header; then `n` bytes (`bytes`, little-endian: the header if
/// new, the numbers that do not repeat, the target).
struct Added {
    pair: Option<u8>,
    bytes: u64,
    n: usize,
}

/// The bytes `put` writes for a packed fact whose numbers are each below 128 (the common
/// case: one byte each), None for others; `last` is updated as `put` updates it, with `at`
/// where the bytes go.
#[inline(always)]
fn add_word(last: &mut Last, w: Word, present: bool, at: usize) -> Option<Added> {
    let code = match present {
        false => ABSENT,
        true if w.is_true() => TRUE,
        true => FALSE,
    };
    let (src, rel, tgraph, tgt) = (w.src(), w.rel(), w.tgraph(), w.tgt());
    if (src | rel | tgraph | tgt) >= 0x80 {
        return None;
    }
    let same_src = last.count > 0 && src == last.src;
    let same_rel = last.count > 0 && rel == last.rel;
    (last.src, last.rel) = (src, rel);
    last.count += 1;
    let (mut bytes, mut n) = (0u64, 0);
    let mut add = |b: u32| {
        bytes |= u64::from(b) << (8 * n);
        n += 1;
    };
    let mut pair = None;
    if same_src && same_rel && tgraph == 0 && last.open != SHUT {
        pair = Some(PAIR | code << SECOND_AT);
    } else {
        last.open = at;
        add(u32::from(code)
            | if same_src { u32::from(SAME_SRC) } else { 0 }
            | if same_rel { u32::from(SAME_REL) } else { 0 }
            | if tgraph != 0 { u32::from(FOREIGN) } else { 0 });
        if !same_src {
            add(src);
        }
        if !same_rel {
            add(rel);
        }
        if tgraph != 0 {
            add(tgraph);
        }
    }
    add(tgt);
    Some(Added { pair, bytes, n })
}

impl DiffSink for Records<'_> {
    // (inlined into the diff's loop: it runs for every fact in which a state differs)
    #[inline(always)]
    fn word(&mut self, w: Word, present: bool) {
        let out = &mut *self.out;
        let Some(added) = add_word(&mut self.last, w, present, out.len()) else {
            let f = w.fact();
            return self.put(f.key, present.then_some(f.value));
        };
        if let Some(bits) = added.pair {
            out[self.last.open] |= bits;
            self.last.open = SHUT;
        }
        // (one fixed-size copy, then the unused bytes cut off again)
        let len = out.len();
        out.extend_from_slice(&added.bytes.to_le_bytes());
        out.truncate(len + added.n);
    }

    fn fact(&mut self, key: FactKey, value: Option<Logic>) {
        self.put(key, value)
    }
}

/// A varint of a u32, pushed byte by byte (most are one byte: cheaper than a copy).
#[inline]
fn push_varint(out: &mut Vec<u8>, mut x: u32) {
    while x >= 0x80 {
        out.push((x as u8) | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

/// Reads `count` facts' records from `*at` into `out`.
pub fn read(key: &[u8], at: &mut usize, count: u64, out: &mut impl Extend<Change>) {
    let mut prev = FactKey::new(0, 0, 0, 0);
    let mut n = 0;
    // (past the end no record can start: a key cut short ends here)
    while n < count && *at < key.len() {
        let header = key.get(*at).copied().unwrap_or(ABSENT);
        *at += 1;
        let src = if header & SAME_SRC != 0 { prev.src() } else { get_varint(key, at) as u32 };
        let rel = if header & SAME_REL != 0 { prev.rel() } else { get_varint(key, at) as u32 };
        let tgraph = if header & FOREIGN != 0 { get_varint(key, at) as u32 } else { 0 };
        prev = FactKey::new(src, rel, tgraph, get_varint(key, at) as u32);
        out.extend([(prev, value(header & 3, key, at))]);
        n += 1;
        if header & PAIR != 0 && n < count {
            prev = FactKey::new(src, rel, 0, get_varint(key, at) as u32);
            out.extend([(prev, value(header >> SECOND_AT, key, at))]);
            n += 1;
        }
    }
}

fn value(code: u8, key: &[u8], at: &mut usize) -> Option<Logic> {
    match code {
        TRUE => Some(Logic::TRUE),
        FALSE => Some(Logic::FALSE),
        OTHER => {
            let p0 = get_f64(key, at);
            Some(Logic::new(p0, get_f64(key, at)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(records: &[Change]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut w = Records::new(&mut out);
        for &(k, v) in records {
            w.put(k, v);
        }
        let count = w.count();
        let (mut at, mut back) = (0, Vec::new());
        read(&out, &mut at, count, &mut back);
        assert_eq!(back, records);
        assert_eq!(at, out.len());
        out
    }

    #[test]
    fn records_round_trip() {
        let out = round_trip(&[
            (FactKey::new(1, 7, 0, 2), None),
            (FactKey::new(1, 7, 0, 3), Some(Logic::TRUE)),
            (FactKey::new(1, 9, 5, 300), Some(Logic::new(0.25, 0.5))),
            (FactKey::new(1, 9, 0, 301), Some(Logic::new(0.5, 0.25))),
            (FactKey::new(200, 9, 0, 1), Some(Logic::FALSE)),
            (FactKey::new(200, 9, 0, 2), Some(Logic::FALSE)),
            (FactKey::new(200, 9, 0, 3), None),
            (FactKey::new(201, 9, 7, 3), None),
        ]);
        assert_eq!(&out[..5], &[ABSENT | PAIR | TRUE << SECOND_AT, 1, 7, 2, 3], "a moved object is 5 bytes");
    }

    #[test]
    fn packed_words_write_the_records_put_writes() {
        use crate::world::facts::Reference;
        use crate::world::Facts;
        let key = |s, r, g, t| FactKey::new(s, r, g, t);
        let mut start = Facts::default();
        for n in [1, 2, 3, 130, 5000] {
            start.set(key(n, 7, 0, 10), Logic::TRUE);
            start.set(key(n, 2, 0, 1), Logic::TRUE);
        }
        let reference = Reference::new(&start);
        let mut state = start.clone();
        // moves (pairs), a False, a foreign target, large numbers in every field
        for (k, v) in [
            (key(1, 7, 0, 10), Logic::UNDEF),
            (key(1, 7, 0, 11), Logic::TRUE),
            (key(2, 7, 0, 10), Logic::FALSE),
            (key(2, 7, 3, 12), Logic::TRUE),
            (key(3, 7, 0, 10), Logic::UNDEF),
            (key(3, 7, 0, 200), Logic::TRUE),
            (key(3, 9, 0, 4), Logic::TRUE),
            (key(130, 7, 0, 10), Logic::UNDEF),
            (key(130, 7, 0, 11), Logic::TRUE),
            (key(5000, 7, 0, 10), Logic::UNDEF),
            (key(5000, 7, 200, 11), Logic::TRUE),
            (key(5001, 300, 0, 1), Logic::FALSE),
            (key(5001, 301, 0, 1), Logic::TRUE),
        ] {
            state.set(k, v);
        }
        let (mut by_word, mut by_fact) = (Vec::new(), Vec::new());
        let mut w = Records::new(&mut by_word);
        reference.diff_into(&state, &mut w);
        let count = w.count();
        let mut f = Records::new(&mut by_fact);
        reference.diff(&state, |k, v| f.put(k, v));
        let fact_count = f.count();
        assert_eq!((by_word.as_slice(), count), (by_fact.as_slice(), fact_count));
        assert_eq!(count, 13);
    }

    #[test]
    fn odd_inputs_neither_panic_nor_loop() {
        round_trip(&[]);
        round_trip(&[(FactKey::new(u32::MAX, u32::MAX, u32::MAX, u32::MAX), Some(Logic::UNDEF))]);
        let mut back = Vec::new();
        read(&[0xff; 3], &mut 0, u64::MAX, &mut back);
        assert!(back.len() <= 2);
    }
}

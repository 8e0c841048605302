//! A crisp fact packed in one word, and the merge of a state's layers back into one sorted
//! sequence of facts.
//!
//! A word holds the source, relation, target graph and target in 20, 10, 12 and 20 bits, in
//! that order (so words sort as their keys do), and the value in the low two bits. A fact whose
//! numbers do not fit, or whose value is not exactly True or False, is kept wide (`Fact`).

use super::facts::{Fact, FactKey, NodeId, RelId};
use crate::value::Logic;

const TGT_BITS: u32 = 20;
const TGRAPH_BITS: u32 = 12;
const REL_BITS: u32 = 10;
const SRC_BITS: u32 = 20;
/// Where each field starts in a word (the value takes bits 0 and 1).
const TGT_AT: u32 = 2;
const TGRAPH_AT: u32 = TGT_AT + TGT_BITS;
const REL_AT: u32 = TGRAPH_AT + TGRAPH_BITS;
const SRC_AT: u32 = REL_AT + REL_BITS;
const _: () = assert!(SRC_AT + SRC_BITS == 64);

const FALSE_CODE: u64 = 1;
const TRUE_CODE: u64 = 2;

fn fits(n: u32, bits: u32) -> bool {
    n >> bits == 0
}

/// The word of a fact, if its numbers fit and its value is exactly True or False.
pub fn pack(key: FactKey, value: Logic) -> Option<u64> {
    let code = if value.same_bits(Logic::TRUE) {
        TRUE_CODE
    } else if value.same_bits(Logic::FALSE) {
        FALSE_CODE
    } else {
        return None;
    };
    Some(packed_key(key)? | code)
}

/// The word of a key with its value bits zero, if its numbers fit.
pub fn packed_key(key: FactKey) -> Option<u64> {
    let (src, rel, tgraph, tgt) = (key.src(), key.rel(), key.tgraph(), key.tgt());
    let ok = fits(src, SRC_BITS) && fits(rel, REL_BITS) && fits(tgraph, TGRAPH_BITS) && fits(tgt, TGT_BITS);
    ok.then(|| {
        u64::from(src) << SRC_AT | u64::from(rel) << REL_AT | u64::from(tgraph) << TGRAPH_AT | u64::from(tgt) << TGT_AT
    })
}

/// The word's key, value bits cleared (the order of keys).
pub fn key_bits(word: u64) -> u64 {
    word & !3
}

pub fn value(word: u64) -> Logic {
    if word & 3 == TRUE_CODE {
        Logic::TRUE
    } else {
        Logic::FALSE
    }
}

pub fn is_true(word: u64) -> bool {
    word & 3 == TRUE_CODE
}

pub fn tgraph(word: u64) -> u32 {
    (word >> TGRAPH_AT) as u32 & ((1 << TGRAPH_BITS) - 1)
}

pub fn rel(word: u64) -> RelId {
    (word >> REL_AT) as u32 & ((1 << REL_BITS) - 1)
}

/// A packed fact as code outside the world reads it (the search's keys): its fields straight
/// from the word, without building a key.
#[derive(Clone, Copy, Debug)]
pub struct Word(pub(super) u64);

impl Word {
    pub fn src(self) -> NodeId {
        (self.0 >> SRC_AT) as u32
    }
    pub fn rel(self) -> RelId {
        rel(self.0)
    }
    pub fn tgraph(self) -> u32 {
        tgraph(self.0)
    }
    pub fn tgt(self) -> NodeId {
        (self.0 >> TGT_AT) as u32 & ((1 << TGT_BITS) - 1)
    }
    pub fn is_true(self) -> bool {
        is_true(self.0)
    }
    pub fn fact(self) -> Fact {
        fact(self.0)
    }
}

#[inline]
pub fn fact(word: u64) -> Fact {
    let field = |at: u32, bits: u32| (word >> at) as u32 & ((1u32 << bits) - 1);
    let key = FactKey::new(
        field(SRC_AT, SRC_BITS),
        field(REL_AT, REL_BITS),
        field(TGRAPH_AT, TGRAPH_BITS),
        field(TGT_AT, TGT_BITS),
    );
    Fact { key, value: value(word) }
}

/// The words whose source is `src` (and relation `rel`, if given): the range of words that
/// start with that prefix. Empty if the numbers cannot be packed.
pub fn range(words: &[u64], src: NodeId, rel: Option<RelId>) -> &[u64] {
    let (prefix, at) = match rel {
        Some(rel) if fits(src, SRC_BITS) && fits(rel, REL_BITS) => {
            (u64::from(src) << REL_BITS | u64::from(rel), REL_AT)
        }
        None if fits(src, SRC_BITS) => (u64::from(src), SRC_AT),
        _ => return &[],
    };
    let start = words.partition_point(|&w| w >> at < prefix);
    let len = words[start..].iter().take_while(|&&w| w >> at == prefix).count();
    &words[start..start + len]
}

/// The targets, in order, of the True words from `src` along `rel` to this same graph's
/// nodes (target graph 0): one search for the range, no decoding of whole facts. Inlined, as
/// `Facts::true_targets`: the loops over nodes call it once per node.
#[inline]
pub fn true_targets(words: &[u64], src: NodeId, rel: RelId) -> impl Iterator<Item = NodeId> + '_ {
    let (from, prefix) = edges_from(words, src, rel);
    from.iter().take_while(move |&&w| w >> REL_AT == prefix).filter_map(|&w| true_target(w))
}

/// The words from the first with `src` and `rel` on (all of them and the rest of the layer),
/// and the prefix they share.
#[inline(always)]
fn edges_from(words: &[u64], src: NodeId, rel: RelId) -> (&[u64], u64) {
    let prefix = u64::from(src) << REL_BITS | u64::from(rel);
    let start = if fits(src, SRC_BITS) && fits(rel, REL_BITS) {
        words.partition_point(|&w| w >> REL_AT < prefix)
    } else {
        words.len()
    };
    (&words[start..], prefix)
}

/// The target of a True word to this same graph's nodes (target graph 0).
#[inline(always)]
fn true_target(w: u64) -> Option<NodeId> {
    (is_true(w) && tgraph(w) == 0).then_some((w >> TGT_AT) as u32 & ((1 << TGT_BITS) - 1))
}

/// The targets of the True words from `src` along `rel` to this same graph's nodes, from
/// target `from` on, handed to `f` in order while it returns true: one search, straight to the
/// first (target graph 0 sorts first, and targets in order within it).
#[inline]
pub fn each_true_target(words: &[u64], (src, rel): (NodeId, RelId), from: NodeId, mut f: impl FnMut(NodeId) -> bool) {
    let Some(key) = packed_key(FactKey::new(src, rel, 0, from)) else { return };
    let prefix = key >> TGRAPH_AT;
    let start = words.partition_point(|&w| key_bits(w) < key);
    for &w in &words[start..] {
        if w >> TGRAPH_AT != prefix {
            break;
        }
        if is_true(w) && !f((w >> TGT_AT) as u32 & ((1 << TGT_BITS) - 1)) {
            break;
        }
    }
}

/// Finds a key's word in sorted words.
pub fn find(words: &[u64], key: u64) -> Result<usize, usize> {
    words.binary_search_by(|&w| key_bits(w).cmp(&key))
}

/// The bit of a relation in a set of relations (the relations from 15 on share the last bit).
pub fn rel_bit(rel: RelId) -> u16 {
    1 << rel.min(15)
}

/// The facts of a state in key order: one packed layer walked as it is (the common case),
/// or the merge of several.
#[derive(Clone)]
pub enum FactIter<'a> {
    One(std::slice::Iter<'a, u64>),
    Many(Merged<'a>),
}

impl<'a> FactIter<'a> {
    /// The facts of `base` without the relations in `hidden`, `own` and `wide` (all sorted;
    /// no key in two of them).
    pub fn new(base: &'a [u64], hidden: u16, own: &'a [u64], wide: &'a [Fact]) -> FactIter<'a> {
        if own.is_empty() && wide.is_empty() && hidden == 0 {
            FactIter::One(base.iter())
        } else {
            FactIter::Many(Merged::new(base, hidden, own, wide))
        }
    }
}

impl Iterator for FactIter<'_> {
    type Item = Fact;

    #[inline]
    fn next(&mut self) -> Option<Fact> {
        match self {
            FactIter::One(words) => words.next().map(|&w| fact(w)),
            FactIter::Many(m) => m.next(),
        }
    }
}

/// The facts of up to three sorted sources, in key order: `base` without the words whose
/// relation is in `hidden`, `own`, and the wide facts. No key is in two of them.
#[derive(Clone)]
pub struct Merged<'a> {
    base: &'a [u64],
    hidden: u16,
    own: &'a [u64],
    wide: &'a [Fact],
}

impl<'a> Merged<'a> {
    fn new(base: &'a [u64], hidden: u16, own: &'a [u64], wide: &'a [Fact]) -> Merged<'a> {
        let mut m = Merged { base, hidden, own, wide };
        m.skip_hidden();
        m
    }

    #[inline]
    fn skip_hidden(&mut self) {
        if self.hidden != 0 {
            let n = self.base.iter().take_while(|&&w| self.hidden & rel_bit(rel(w)) != 0).count();
            self.base = &self.base[n..];
        }
    }

    /// The next packed word of base or own.
    fn next_word(&mut self) -> Option<u64> {
        match (self.base.first(), self.own.first()) {
            (Some(&b), Some(&o)) if o < b => {
                self.own = &self.own[1..];
                Some(o)
            }
            (Some(&b), _) => {
                self.base = &self.base[1..];
                self.skip_hidden();
                Some(b)
            }
            (None, Some(&o)) => {
                self.own = &self.own[1..];
                Some(o)
            }
            (None, None) => None,
        }
    }

    fn peek_word(&self) -> Option<u64> {
        match (self.base.first(), self.own.first()) {
            (Some(&b), Some(&o)) => Some(b.min(o)),
            (b, o) => b.or(o).copied(),
        }
    }
}

impl Iterator for Merged<'_> {
    type Item = Fact;

    #[inline]
    fn next(&mut self) -> Option<Fact> {
        let Some(w) = self.wide.first() else { return self.next_word().map(fact) };
        match self.peek_word().map(fact) {
            Some(f) if f.key < w.key => {
                self.next_word();
                Some(f)
            }
            _ => {
                let w = *w;
                self.wide = &self.wide[1..];
                Some(w)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_sort_as_their_keys() {
        let keys = [
            FactKey::new(1, 1, 0, 5),
            FactKey::new(1, 1, 3, 2),
            FactKey::new(1, 2, 0, 1),
            FactKey::new(2, 1, 0, 1),
            FactKey::new((1 << 20) - 1, (1 << 10) - 1, (1 << 12) - 1, (1 << 20) - 1),
        ];
        for pair in keys.windows(2) {
            assert!(pair[0] < pair[1]);
            assert!(pack(pair[0], Logic::TRUE) < pack(pair[1], Logic::FALSE));
        }
        for k in keys {
            for v in [Logic::TRUE, Logic::FALSE] {
                assert_eq!(fact(pack(k, v).unwrap()), Fact { key: k, value: v });
            }
        }
    }

    #[test]
    fn what_does_not_fit_stays_wide() {
        let k = FactKey::new(1, 1, 0, 1);
        assert_eq!(pack(k, Logic::new(0.25, 0.5)), None);
        assert_eq!(pack(k, Logic::new(-0.0, 1.0)), None, "not exactly True");
        assert_eq!(pack(k, Logic::UNDEF), None);
        assert_eq!(pack(FactKey::new(1 << 20, 1, 0, 1), Logic::TRUE), None);
        assert_eq!(pack(FactKey::new(1, 1 << 10, 0, 1), Logic::TRUE), None);
        assert_eq!(pack(FactKey::new(1, 1, 1 << 12, 1), Logic::TRUE), None);
        assert_eq!(pack(FactKey::new(1, 1, 0, 1 << 20), Logic::TRUE), None);
    }

    #[test]
    fn merged_skips_hidden_relations_and_interleaves_wide_facts() {
        let w = |s, r, t| pack(FactKey::new(s, r, 0, t), Logic::TRUE).unwrap();
        let base = [w(1, 1, 1), w(1, 2, 1), w(2, 1, 1), w(2, 2, 9)];
        let own = [w(1, 2, 3), w(2, 2, 4)];
        let wide = [Fact { key: FactKey::new(1, 2, 0, 2), value: Logic::new(0.5, 0.5) }];
        let got: Vec<_> =
            FactIter::new(&base, rel_bit(2), &own, &wide).map(|f| (f.key.src(), f.key.rel(), f.key.tgt())).collect();
        assert_eq!(got, [(1, 1, 1), (1, 2, 2), (1, 2, 3), (2, 1, 1), (2, 2, 4)]);
        assert_eq!(range(&base, 2, Some(1)), &[w(2, 1, 1)]);
        assert_eq!(range(&base, 1, None).len(), 2);
        assert!(range(&base, 1 << 20, None).is_empty());
    }
}

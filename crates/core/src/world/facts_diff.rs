//! A state as its difference from another: the facts in which two states differ, and a copy of
//! a state with such differences made. The search stores each state as its difference from the
//! start (`search::pack`) and brings it back as a copy of the start, so that a state shares
//! the start's layers exactly as the states of a hand-written search share them. Both
//! directions work on the packed words of the relations a state changed (its own layer and
//! the start's words of those relations, kept once per set of relations), not on all its facts.

use super::packed;
use super::{same_rc, Fact, FactKey, Facts, OWN_MAX};
use crate::value::Logic;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::rc::Rc;

/// One difference: a fact's key and its value in the changed state (None: it lacks the fact).
pub type Change = (FactKey, Option<Logic>);

/// The packed words of `f` whose relation bit is in `rels` (which holds all of `f`'s own
/// relations), in key order: the base's words of those relations the own layer does not
/// hide, merged with the own layer.
fn visible(f: &Facts, rels: u16) -> SmallVec<[u64; 32]> {
    debug_assert_eq!(f.own_rels & !rels, 0, "the own layer's relations are all asked for");
    let from_base = rels & !f.own_rels;
    let mut words: SmallVec<[u64; 32]> = f.own_words().iter().copied().collect();
    if from_base != 0 {
        words.extend(f.base_words().iter().copied().filter(|&w| packed::rel_bit(packed::rel(w)) & from_base != 0));
        words.sort_unstable();
    }
    words
}

/// The packed words of `f` of the relations `rels`: its own layer alone when that holds them.
fn words_of<'a>(f: &'a Facts, rels: u16, scratch: &'a mut SmallVec<[u64; 32]>) -> &'a [u64] {
    if f.own_rels == rels {
        f.own_words()
    } else {
        *scratch = visible(f, rels);
        scratch
    }
}

/// What the differences of two states are handed to: packed words as they are (most of
/// them: no key or value is built), other facts one by one.
pub trait DiffSink {
    /// A packed word in which the state differs: its own word when `present`, else the
    /// reference's word of a fact the state lacks.
    fn word(&mut self, word: packed::Word, present: bool);
    /// A fact's key and the state's value (None: the state lacks it).
    fn fact(&mut self, key: FactKey, value: Option<Logic>);
}

/// A closure of (key, value) as a sink (the tests' way to read a difference fact by fact).
#[cfg(test)]
struct ByFact<F>(F);

#[cfg(test)]
impl<F: FnMut(FactKey, Option<Logic>)> DiffSink for ByFact<F> {
    #[inline]
    fn word(&mut self, word: packed::Word, present: bool) {
        let f = word.fact();
        (self.0)(f.key, present.then_some(f.value));
    }
    #[inline]
    fn fact(&mut self, key: FactKey, value: Option<Logic>) {
        (self.0)(key, value)
    }
}

/// Gives `sink` each packed word of `a` that `b` lacks or holds with another value, and each
/// word of `b` whose key `a` lacks (as absent): in key order (both sorted).
#[inline]
fn diff_words(a: &[u64], b: &[u64], sink: &mut impl DiffSink) {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        let (kx, ky) = (packed::key_bits(x), packed::key_bits(y));
        if kx == ky {
            if x != y {
                sink.word(packed::Word(x), true);
            }
            i += 1;
            j += 1;
        } else if kx < ky {
            sink.word(packed::Word(x), true);
            i += 1;
        } else {
            sink.word(packed::Word(y), false);
            j += 1;
        }
    }
    for &x in &a[i..] {
        sink.word(packed::Word(x), true);
    }
    for &y in &b[j..] {
        sink.word(packed::Word(y), false);
    }
}

/// The same for any two sorted sequences of facts.
fn diff_facts(a: impl Iterator<Item = Fact>, b: impl Iterator<Item = Fact>, sink: &mut impl DiffSink) {
    let (mut a, mut b) = (a.peekable(), b.peekable());
    loop {
        match (a.peek().copied(), b.peek().copied()) {
            (Some(x), Some(y)) if x.key == y.key => {
                if !x.value.same_bits(y.value) {
                    sink.fact(x.key, Some(x.value));
                }
                a.next();
                b.next();
            }
            (Some(x), y) if y.is_none_or(|y| x.key < y.key) => {
                sink.fact(x.key, Some(x.value));
                a.next();
            }
            (_, Some(y)) => {
                sink.fact(y.key, None);
                b.next();
            }
            _ => return,
        }
    }
}

/// Whether two states have the same facts: as `==`, but for states that share their base and
/// wide facts (copies of one state, changed) only the relations either moved to its own layer
/// are compared, word by word, whichever relations each moved.
pub fn same_facts(a: &Facts, b: &Facts) -> bool {
    if a.hash != b.hash {
        return false;
    }
    if !(same_rc(&a.base, &b.base) && same_rc(&a.wide, &b.wide)) {
        return a == b;
    }
    let rels = a.own_rels | b.own_rels;
    let (mut scratch_a, mut scratch_b) = (SmallVec::new(), SmallVec::new());
    words_of(a, rels, &mut scratch_a) == words_of(b, rels, &mut scratch_b)
}

/// Sets of relations whose words a `Reference` keeps at most.
const KEPT_SETS: usize = 16;

/// A state others are told apart from (a search's start): its facts (a snapshot: the layers
/// are copy-on-write), and its packed words per set of relations, kept as they are asked for
/// (the states of a search change the same few relations).
pub struct Reference {
    facts: Facts,
    words: RefCell<Vec<(u16, Rc<[u64]>)>>,
}

impl Reference {
    pub fn new(facts: &Facts) -> Reference {
        Reference { facts: facts.clone(), words: RefCell::default() }
    }

    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    /// The reference's packed words of the relations `rels` (which hold its own relations).
    fn words(&self, rels: u16) -> Rc<[u64]> {
        if let Some((_, w)) = self.words.borrow().iter().find(|(r, _)| *r == rels) {
            return w.clone();
        }
        let mut scratch = SmallVec::new();
        let w: Rc<[u64]> = Rc::from(words_of(&self.facts, rels, &mut scratch));
        let mut kept = self.words.borrow_mut();
        if kept.len() < KEPT_SETS {
            kept.push((rels, w.clone()));
        }
        w
    }

    /// `diff_into` with `emit(key, value)` called for each fact (the tests' reading of it).
    #[cfg(test)]
    pub fn diff(&self, state: &Facts, emit: impl FnMut(FactKey, Option<Logic>)) {
        self.diff_into(state, &mut ByFact(emit));
    }

    /// Gives `sink` each fact in which `state` differs from the reference, in key order: the
    /// value `state` has, absent for a fact of the reference that `state` lacks. When the two
    /// share their base and wide facts (a copy of the reference, changed), only the relations
    /// either moved to its own layer are compared, word by word, and handed over as words.
    pub fn diff_into(&self, state: &Facts, sink: &mut impl DiffSink) {
        let r = &self.facts;
        if !(same_rc(&state.base, &r.base) && same_rc(&state.wide, &r.wide)) {
            return diff_facts(state.iter(), r.iter(), sink);
        }
        let rels = state.own_rels | r.own_rels;
        if rels != 0 {
            let mut scratch = SmallVec::new();
            diff_words(words_of(state, rels, &mut scratch), &self.words(rels), sink);
        }
    }

    /// A copy of the reference with `changes` made (sorted by key, no key twice, as `diff`
    /// gives them): the relations they touch get an own layer, the others stay shared.
    pub fn with_changes(&self, changes: &[Change]) -> Facts {
        let r = &self.facts;
        let mut f = r.clone();
        let packs = |&(k, v): &Change| match v {
            Some(v) => packed::pack(k, v).is_some(),
            None => packed::packed_key(k).is_some(),
        };
        if !changes.iter().all(packs) || r.wide.is_some() {
            // a fuzzy value, a large number, or wide facts to keep apart: fact by fact
            for &(k, v) in changes {
                f.set(k, v.unwrap_or(Logic::UNDEF));
            }
            return f;
        }
        let rels = changes.iter().fold(r.own_rels, |bits, (k, _)| bits | packed::rel_bit(k.rel()));
        let theirs = self.words(rels);
        let mut words = Vec::with_capacity(theirs.len() + changes.len());
        let mut changed = changes.iter().map(|&(k, v)| (packed::packed_key(k).unwrap_or(0), k, v)).peekable();
        // (a change removing a fact the reference lacks cannot come from `diff`)
        let insert = |f: &mut Facts, words: &mut Vec<u64>, k: FactKey, v: Option<Logic>| {
            if let Some(v) = v {
                words.extend(packed::pack(k, v));
                f.toggle_hash(k, v);
            }
        };
        for &w in theirs.iter() {
            let key = packed::key_bits(w);
            while let Some((_, k, v)) = changed.next_if(|c| c.0 < key) {
                insert(&mut f, &mut words, k, v);
            }
            match changed.next_if(|c| c.0 == key) {
                Some((_, k, v)) => {
                    f.toggle_hash(k, packed::value(w));
                    insert(&mut f, &mut words, k, v);
                }
                None => words.push(w),
            }
        }
        for (_, k, v) in changed {
            insert(&mut f, &mut words, k, v);
        }
        f.own_rels = rels;
        if words.len() > OWN_MAX {
            // more than an own layer holds (its length is a byte): a base of its own at once
            f.fold_words(&words, None);
            return f;
        }
        f.set_own((!words.is_empty()).then(|| Rc::from(words)));
        if f.base_rels & !f.own_rels == 0 || f.own_words().len() > OWN_MAX {
            f.fold(None);
        }
        f
    }
}

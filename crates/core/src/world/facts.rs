//! The edge facts of one world state: (source, relation, target graph, target, value) in key
//! order, stored in layers shared copy-on-write between copies, with a Zobrist-style content
//! hash that is updated in O(1) on every change.

use super::packed::{self, FactIter};
use super::ISA;
use crate::value::Logic;
use smallvec::SmallVec;
use std::cell::Cell;
use std::rc::Rc;

pub type NodeId = u32;
pub type RelId = u32;
/// A graph's unique number; 0 in a fact's target means "this same graph".
pub type GraphUid = u32;

/// The fact's identity, packed so that sorting groups facts by source, then relation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FactKey(u128);

impl FactKey {
    pub fn new(src: NodeId, rel: RelId, tgraph: GraphUid, tgt: NodeId) -> FactKey {
        FactKey((src as u128) << 96 | (rel as u128) << 64 | (tgraph as u128) << 32 | tgt as u128)
    }
    pub fn src(self) -> NodeId {
        (self.0 >> 96) as u32
    }
    pub fn rel(self) -> RelId {
        (self.0 >> 64) as u32
    }
    pub fn tgraph(self) -> GraphUid {
        (self.0 >> 32) as u32
    }
    pub fn tgt(self) -> NodeId {
        self.0 as u32
    }
    /// What a fact of this key and value adds to its state's content hash (`Facts::hash`,
    /// the xor of every fact's): a caller that knows how a state differs from another can
    /// tell the other's hash without building it.
    pub fn content_hash(self, value: Logic) -> u64 {
        self.mix(value)
    }

    fn mix(self, value: Logic) -> u64 {
        let lo = self.0 as u64;
        let hi = (self.0 >> 64) as u64;
        splitmix(lo ^ splitmix(hi) ^ value.bits().rotate_left(29))
    }
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fact {
    pub key: FactKey,
    pub value: Logic,
}

/// A set of facts with its content hash, stored in layers so that copies share what they do
/// not change:
/// - `base`: packed facts (`packed`), shared by a state and its copies;
/// - `own`: the packed facts of the relations in `own_rels`, which replace the base's facts of
///   those relations: a copy that changes a relation moves that relation's facts here first,
///   so the relations no state changes (`isa` in a search) stay shared once per world;
/// - `wide`: the facts that do not pack (fuzzy values, large numbers), in no layer.
///
/// The layout depends on how a state was built; its content, hash and equality do not.
#[derive(Debug, Default)]
pub struct Facts {
    base: Option<Rc<Vec<u64>>>,
    /// The own layer's words are its first `own_len`; a layer edited in place keeps the room
    /// a removed word left, for the insertion that usually follows (a fact moved).
    own: Option<Rc<[u64]>>,
    wide: Option<Rc<Vec<Fact>>>,
    own_rels: u16,
    /// The relations the base may hold facts of (a superset).
    base_rels: u16,
    hash: u64,
    /// The part of `hash` that comes from `isa` facts: states with the same `isa` structure
    /// share answers of `N.isa(C)` (see `world::path`).
    isa_hash: u64,
    /// Set once the state is filed by its hash in an index (an array's `is` index, a map
    /// key); from then on every change bumps the epoch, so that the index knows.
    watched: Cell<bool>,
    /// Edges of other graphs point into this state (`Sen=>$human`): a change of its `isa`
    /// facts moves the isa epoch, as paths through it change.
    linked: Cell<bool>,
    own_len: u8,
}

/// A state's own layer folds into a base of its own when it grows past this many facts, so
/// that changing it stays cheap (the own layer is rebuilt on every insertion).
const OWN_MAX: usize = 48;

/// A change to a packed layer.
#[derive(Clone, Copy)]
enum Edit {
    /// A new value for a stored fact.
    Replace(u64),
    Insert(u64),
    /// Removes the fact of this key.
    Remove(u64),
}

impl Edit {
    fn apply(self, words: &mut Vec<u64>) {
        match self {
            Edit::Replace(w) => {
                let i = packed::find(words, packed::key_bits(w)).expect("a stored fact");
                words[i] = w;
            }
            Edit::Insert(w) => {
                let i = words.partition_point(|&x| x < w);
                words.insert(i, w);
            }
            Edit::Remove(k) => {
                let i = packed::find(words, k).expect("a stored fact");
                words.remove(i);
            }
        }
    }
}

thread_local! {
    static EPOCH: Cell<u64> = const { Cell::new(0) };
    static ISA_EPOCH: Cell<u64> = const { Cell::new(0) };
}

/// A number that changes whenever a watched state changes (or is dropped). An index of states
/// by content hash is valid while the epoch is the one it was built at.
pub fn epoch() -> u64 {
    EPOCH.with(Cell::get)
}

/// A number that changes whenever the `isa` facts of a linked state change, a linked state is
/// dropped, or a state becomes linked: remembered `isa` answers are valid while it stays.
pub fn isa_epoch() -> u64 {
    ISA_EPOCH.with(Cell::get)
}

pub fn bump_isa_epoch() {
    ISA_EPOCH.with(|e| e.set(e.get().wrapping_add(1)));
}

impl Clone for Facts {
    /// A copy is a new state: nobody has filed it or linked to it yet.
    fn clone(&self) -> Facts {
        Facts {
            base: self.base.clone(),
            own: self.own.clone(),
            own_len: self.own_len,
            wide: self.wide.clone(),
            own_rels: self.own_rels,
            base_rels: self.base_rels,
            hash: self.hash,
            isa_hash: self.isa_hash,
            watched: Cell::new(false),
            linked: Cell::new(false),
        }
    }
}

impl Drop for Facts {
    /// Replacing a watched or linked state's facts wholesale is a change too.
    fn drop(&mut self) {
        self.changed(None);
    }
}

fn same_rc<T: ?Sized>(a: &Option<Rc<T>>, b: &Option<Rc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

impl PartialEq for Facts {
    /// The same facts, however each side's layers hold them.
    fn eq(&self, other: &Facts) -> bool {
        if self.hash != other.hash {
            return false;
        }
        let same_layout = same_rc(&self.base, &other.base) && self.own_rels == other.own_rels;
        if same_layout && self.own_words() == other.own_words() && self.wide_facts() == other.wide_facts() {
            return true;
        }
        self.iter().eq(other.iter())
    }
}

impl Facts {
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Marks the state as filed by its hash: its changes will move the epoch.
    pub fn watch(&self) {
        self.watched.set(true);
    }

    pub fn isa_hash(&self) -> u64 {
        self.isa_hash
    }

    /// Marks the state as the target of other graphs' edges.
    pub fn mark_linked(&self) {
        self.linked.set(true);
    }

    pub fn is_linked(&self) -> bool {
        self.linked.get()
    }

    /// Tells the indexes that fact `key` (None: all of them) is about to change.
    fn changed(&self, key: Option<FactKey>) {
        if self.watched.get() {
            EPOCH.with(|e| e.set(e.get().wrapping_add(1)));
        }
        if self.linked.get() && key.is_none_or(|k| k.rel() == ISA) {
            bump_isa_epoch();
        }
    }

    /// Adds (or removes: XOR) a fact's share of the content hashes.
    fn toggle_hash(&mut self, key: FactKey, value: Logic) {
        let mix = key.mix(value);
        self.hash ^= mix;
        if key.rel() == ISA {
            self.isa_hash ^= mix;
        }
    }

    /// How many facts there are (a walk over the base when a copy changed some relations).
    pub fn len(&self) -> usize {
        let base = self.base_words();
        let shown = match self.own_rels {
            0 => base.len(),
            hidden => base.iter().filter(|&&w| packed::rel_bit(packed::rel(w)) & hidden == 0).count(),
        };
        shown + self.own_words().len() + self.wide_facts().len()
    }

    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    fn base_words(&self) -> &[u64] {
        self.base.as_deref().map_or(&[], Vec::as_slice)
    }

    fn own_words(&self) -> &[u64] {
        self.own.as_deref().map_or(&[], |own| &own[..self.own_len as usize])
    }

    /// A new own layer, all of whose words are facts (`OWN_MAX` bounds its length).
    #[inline]
    fn set_own(&mut self, words: Option<Rc<[u64]>>) {
        self.own_len = words.as_ref().map_or(0, |w| u8::try_from(w.len()).expect("an own layer is short"));
        self.own = words;
    }

    fn wide_facts(&self) -> &[Fact] {
        self.wide.as_deref().map_or(&[], Vec::as_slice)
    }

    /// The facts in key order (source, relation, target graph, target).
    pub fn iter(&self) -> FactIter<'_> {
        FactIter::new(self.base_words(), self.own_rels, self.own_words(), self.wide_facts())
    }

    /// The facts, in key order, as a vector (for the merges and renamings that index them).
    pub fn to_vec(&self) -> Vec<Fact> {
        self.iter().collect()
    }

    /// Facts from a vector sorted by key without repeated keys or Undef values (the search's
    /// unpacked states).
    pub fn from_sorted(items: Vec<Fact>) -> Facts {
        debug_assert!(items.windows(2).all(|w| w[0].key < w[1].key));
        let mut facts = Facts::default();
        let (mut words, mut wide) = (Vec::with_capacity(items.len()), Vec::new());
        for f in &items {
            facts.toggle_hash(f.key, f.value);
            match packed::pack(f.key, f.value) {
                Some(w) => {
                    facts.base_rels |= packed::rel_bit(f.key.rel());
                    words.push(w);
                }
                None => wide.push(*f),
            }
        }
        facts.base = (!words.is_empty()).then(|| Rc::new(words));
        facts.wide = (!wide.is_empty()).then(|| Rc::new(wide));
        facts
    }

    /// The packed layer that holds the facts of relation `rel`.
    #[inline]
    fn layer(&self, rel: RelId) -> &[u64] {
        if self.own_rels & packed::rel_bit(rel) != 0 {
            self.own_words()
        } else {
            self.base_words()
        }
    }

    /// The value of a fact; Undef when it is absent.
    pub fn get(&self, key: FactKey) -> Logic {
        if let Some(k) = packed::packed_key(key) {
            let layer = self.layer(key.rel());
            if let Ok(i) = packed::find(layer, k) {
                return packed::value(layer[i]);
            }
        }
        match &self.wide {
            Some(wide) => wide.binary_search_by(|f| f.key.cmp(&key)).map_or(Logic::UNDEF, |i| wide[i].value),
            None => Logic::UNDEF,
        }
    }

    pub fn contains(&self, key: FactKey) -> bool {
        !self.get(key).is_undef()
    }

    /// Sets a fact (Undef removes it); returns the old value.
    pub fn set(&mut self, key: FactKey, value: Logic) -> Logic {
        let old = self.get(key);
        if old == value {
            return old;
        }
        self.changed(Some(key));
        // A fact is stored packed exactly when it packs (every change keeps it so).
        let was_packed = !old.is_undef() && packed::pack(key, old).is_some();
        if !old.is_undef() {
            self.toggle_hash(key, old);
        }
        if !value.is_undef() {
            self.toggle_hash(key, value);
        }
        let word = if value.is_undef() { None } else { packed::pack(key, value) };
        match (was_packed, word) {
            (true, Some(w)) => self.edit_layer(key.rel(), Edit::Replace(w)),
            (false, Some(w)) => {
                self.set_wide(key, Logic::UNDEF);
                self.edit_layer(key.rel(), Edit::Insert(w));
            }
            (true, None) => {
                self.edit_layer(key.rel(), Edit::Remove(packed::packed_key(key).expect("stored packed")));
                self.set_wide(key, value);
            }
            (false, None) => self.set_wide(key, value),
        }
        old
    }

    /// Sets or (Undef) removes a wide fact.
    fn set_wide(&mut self, key: FactKey, value: Logic) {
        if self.wide.is_none() && value.is_undef() {
            return;
        }
        let wide = Rc::make_mut(self.wide.get_or_insert_with(Rc::default));
        match (wide.binary_search_by(|f| f.key.cmp(&key)), value.is_undef()) {
            (Ok(i), true) => {
                wide.remove(i);
            }
            (Ok(i), false) => wide[i].value = value,
            (Err(i), false) => wide.insert(i, Fact { key, value }),
            (Err(_), true) => {}
        }
        if wide.is_empty() {
            self.wide = None;
        }
    }

    /// Changes the packed facts of relation `rel`: in the base while no copy shares it,
    /// else in the own layer (which first takes over the relation's facts from the base).
    fn edit_layer(&mut self, rel: RelId, edit: Edit) {
        let bit = packed::rel_bit(rel);
        if self.own_rels & bit == 0 {
            if self.base.as_mut().is_some_and(|b| Rc::get_mut(b).is_none()) {
                self.take_over(bit);
            }
            if self.own_rels & bit == 0 {
                // No copy shares the base (or it was let go, and what showed is the base now).
                self.base_rels |= bit;
                return edit.apply(Rc::make_mut(self.base.get_or_insert_with(Rc::default)));
            }
        }
        if self.edit_own_in_place(edit) {
            return;
        }
        let own = self.own_words();
        let new: Option<Rc<[u64]>> = match edit {
            Edit::Replace(w) => {
                // Copied whole, then edited (faster than word by word through an iterator).
                let i = packed::find(own, packed::key_bits(w)).expect("a stored fact");
                let mut words = Rc::<[u64]>::from(own);
                Rc::get_mut(&mut words).expect("a new layer")[i] = w;
                Some(words)
            }
            Edit::Insert(w) if own.len() >= OWN_MAX => return self.fold(Some(w)),
            Edit::Insert(w) => {
                let i = own.partition_point(|&x| x < w);
                let mut words: Rc<[u64]> = std::iter::repeat_n(0, own.len() + 1).collect();
                let room = Rc::get_mut(&mut words).expect("a new layer");
                room[..i].copy_from_slice(&own[..i]);
                room[i] = w;
                room[i + 1..].copy_from_slice(&own[i..]);
                Some(words)
            }
            Edit::Remove(k) => {
                // The room of the word removed is kept, for an insertion after it.
                let i = packed::find(own, k).expect("a stored fact");
                let len = own.len() - 1;
                let words = (len > 0).then(|| {
                    let mut words = Rc::<[u64]>::from(own);
                    let room = Rc::get_mut(&mut words).expect("a new layer");
                    room[i..].rotate_left(1);
                    room[len] = 0;
                    words
                });
                self.set_own(words);
                self.own_len = len as u8;
                return;
            }
        };
        self.set_own(new);
    }

    /// Edits the own layer where it lies when no copy shares it and the edit fits in it.
    #[inline]
    fn edit_own_in_place(&mut self, edit: Edit) -> bool {
        let len = self.own_len as usize;
        let Some(own) = self.own.as_mut().and_then(Rc::get_mut) else { return false };
        match edit {
            Edit::Replace(w) => {
                let i = packed::find(&own[..len], packed::key_bits(w)).expect("a stored fact");
                own[i] = w;
            }
            Edit::Insert(w) if len < own.len() && len < OWN_MAX => {
                let i = own[..len].partition_point(|&x| x < w);
                own.copy_within(i..len, i + 1);
                own[i] = w;
                self.own_len += 1;
            }
            Edit::Insert(_) => return false,
            Edit::Remove(k) => {
                let i = packed::find(&own[..len], k).expect("a stored fact");
                own.copy_within(i + 1..len, i);
                self.own_len -= 1;
                if self.own_len == 0 {
                    self.own = None;
                }
            }
        }
        true
    }

    /// Moves the base's facts of the relations in `bit` to the own layer. A base of which
    /// nothing shows any more is let go.
    fn take_over(&mut self, bit: u16) {
        if self.base_rels & !(self.own_rels | bit) == 0 {
            // Nothing of the base would show: the packed facts become a base of the state's own.
            return self.fold(None);
        }
        if self.base_rels & bit != 0 {
            let of_bit = |w: &u64| packed::rel_bit(packed::rel(*w)) & bit != 0;
            let mut words: SmallVec<[u64; 32]> = self.own_words().iter().copied().collect();
            words.extend(self.base_words().iter().copied().filter(of_bit));
            if words.len() > OWN_MAX {
                // Too many to rebuild on every change (and more than the own layer's length can
                // count): the visible facts become a base of this state's own.
                return self.fold(None);
            }
            words.sort_unstable();
            self.set_own((!words.is_empty()).then(|| Rc::from(&words[..])));
        }
        self.own_rels |= bit;
    }

    /// Makes the visible packed facts and `word` a base of this state's own (when the own
    /// layer grows too long to rebuild on every change, or nothing of the base shows).
    fn fold(&mut self, word: Option<u64>) {
        let own = self.own.clone();
        let own = own.as_deref().map_or(&[][..], |o| &o[..self.own_len as usize]);
        self.fold_words(own, word);
    }

    /// `fold` with the own layer's words given (`words`, the facts of `own_rels`), which may be
    /// more than an own layer holds.
    pub(super) fn fold_words(&mut self, own: &[u64], word: Option<u64>) {
        let own_rels = self.own_rels;
        let mut words = Vec::with_capacity(self.base_words().len() + own.len() + 1);
        // both layers are sorted: merged, not sorted again
        let mut own = own.iter().copied().peekable();
        for w in self.base_words().iter().copied().filter(|&w| packed::rel_bit(packed::rel(w)) & own_rels == 0) {
            while let Some(o) = own.next_if(|&o| o < w) {
                words.push(o);
            }
            words.push(w);
        }
        words.extend(own);
        if let Some(x) = word {
            words.insert(words.partition_point(|&y| y < x), x);
        }
        debug_assert!(words.windows(2).all(|p| p[0] < p[1]));
        self.base = Some(Rc::new(words));
        self.base_rels |= own_rels;
        self.set_own(None);
        self.own_rels = 0;
    }

    /// Calls `each(source, target, is_true)` for every True or False fact of `rel` between
    /// this graph's own nodes (target graph 0), in key order. Reads the relation's packed layer
    /// directly: the Mind's grounding indexes these on every pass.
    pub fn for_each_crisp(&self, rel: RelId, mut each: impl FnMut(NodeId, NodeId, bool)) {
        let crisp = |f: &Fact| f.key.rel() == rel && f.key.tgraph() == 0 && (f.value.is_true() || f.value.is_false());
        if self.wide_facts().iter().any(crisp) {
            // A fact too large to pack lies among the packed ones in key order: the merge.
            self.iter().filter(crisp).for_each(|f| each(f.key.src(), f.key.tgt(), f.value.is_true()));
            return;
        }
        for &w in self.layer(rel) {
            if packed::rel(w) == rel && packed::tgraph(w) == 0 {
                let f = packed::fact(w);
                each(f.key.src(), f.key.tgt(), packed::is_true(w));
            }
        }
    }

    /// The facts whose source is `src` (sorted by relation, then target).
    pub fn outgoing(&self, src: NodeId) -> FactIter<'_> {
        let wide = self.wide_facts();
        let wide = &wide[wide.partition_point(|f| f.key.src() < src)..];
        let wide = &wide[..wide.partition_point(|f| f.key.src() == src)];
        let (base, own) = (self.base_words(), self.own_words());
        FactIter::new(packed::range(base, src, None), self.own_rels, packed::range(own, src, None), wide)
    }

    /// The facts from `src` along `rel`.
    pub fn outgoing_rel(&self, src: NodeId, rel: RelId) -> FactIter<'_> {
        let wide = self.wide_facts();
        let lo = FactKey::new(src, rel, 0, 0);
        let wide = &wide[wide.partition_point(|f| f.key < lo)..];
        let wide = &wide[..wide.partition_point(|f| f.key.src() == src && f.key.rel() == rel)];
        FactIter::new(packed::range(self.layer(rel), src, Some(rel)), 0, &[], wide)
    }

    /// The targets, in order, of `src`'s True `rel` facts to this graph's own nodes (target
    /// graph 0): what filtering `outgoing_rel` gives, read straight from the packed words when
    /// no fact is wide (`exists(Z, X rel Z)` and `for B in (A rel B) & ..` ask it constantly).
    /// Inlined: the iterator is large, and a caller in another codegen unit copied it out of
    /// the call with `memmove` and then waited on that copy (issue 43).
    #[inline]
    pub fn true_targets(&self, src: NodeId, rel: RelId) -> impl Iterator<Item = NodeId> + '_ {
        let (packed, wide) = match self.wide {
            None => (Some(packed::true_targets(self.layer(rel), src, rel)), None),
            Some(_) => {
                let facts = self.outgoing_rel(src, rel).filter(|f| f.key.tgraph() == 0 && f.value.is_true());
                (None, Some(facts.map(|f| f.key.tgt())))
            }
        };
        packed.into_iter().flatten().chain(wide.into_iter().flatten())
    }

    /// `true_targets` of `src` from target `from` on, handed to `f` while it returns true:
    /// one search to the first, and a plain walk over the words (the loops over a node's
    /// targets call it once per node, and the chained iterator cost them more than the search).
    #[inline]
    pub fn each_true_target(&self, (src, rel): (NodeId, RelId), from: NodeId, mut f: impl FnMut(NodeId) -> bool) {
        match self.wide {
            None => packed::each_true_target(self.layer(rel), (src, rel), from, f),
            Some(_) => {
                for n in self.true_targets(src, rel).skip_while(|&n| n < from) {
                    if !f(n) {
                        break;
                    }
                }
            }
        }
    }

    /// The first of `true_targets` that `accept` takes: `exists(Z, X rel Z)` asks it at every
    /// call, so it walks the words in a plain loop (`each_true_target`), never an iterator that
    /// is moved aside before its first step and read back with wide loads (a store-forwarding
    /// stall).
    #[inline]
    pub fn first_true_target(&self, src: NodeId, rel: RelId, accept: impl Fn(NodeId) -> bool) -> Option<NodeId> {
        let mut found = None;
        self.each_true_target((src, rel), 0, |n| {
            found = accept(n).then_some(n);
            found.is_none()
        });
        found
    }

    /// Removes the facts for which `pred` holds; returns how many went.
    pub fn remove_where(&mut self, mut pred: impl FnMut(&Fact) -> bool) -> usize {
        let doomed: Vec<Fact> = self.iter().filter(|f| pred(f)).collect();
        if doomed.is_empty() {
            return 0;
        }
        self.changed(None);
        let kept: Vec<Fact> = self.iter().filter(|f| !pred(f)).collect();
        let (watched, linked) = (self.watched.get(), self.linked.get());
        self.watched.set(false);
        self.linked.set(false);
        *self = Facts::from_sorted(kept);
        self.watched.set(watched);
        self.linked.set(linked);
        doomed.len()
    }

    pub fn clear(&mut self) {
        self.changed(None);
        self.base = None;
        self.set_own(None);
        self.wide = None;
        self.own_rels = 0;
        self.base_rels = 0;
        self.isa_hash = 0;
        self.hash = 0;
    }
}

#[path = "facts_diff.rs"]
mod diff;
pub use diff::{same_facts, Change, DiffSink, Reference};

#[cfg(test)]
#[path = "facts_tests.rs"]
mod tests;

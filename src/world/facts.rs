//! The edge facts of one world state: a sorted vector of (source, relation, target graph,
//! target, value), shared copy-on-write between copies, with a Zobrist-style content hash that
//! is updated in O(1) on every change.

use super::ISA;
use crate::value::Logic;
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

/// A set of facts with its content hash. Cloning shares the vector until one side changes.
#[derive(Debug, Default)]
pub struct Facts {
    items: Rc<Vec<Fact>>,
    hash: u64,
    /// Set once the state is filed by its hash in an index (an array's `is` index, a map
    /// key); from then on every change bumps the epoch, so that the index knows.
    watched: Cell<bool>,
    /// The part of `hash` that comes from `isa` facts: states with the same `isa` structure
    /// share answers of `N.isa(C)` (see `world::path`).
    isa_hash: u64,
    /// Edges of other graphs point into this state (`Sen=>$human`): a change of its `isa`
    /// facts moves the isa epoch, as paths through it change.
    linked: Cell<bool>,
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
            items: self.items.clone(),
            hash: self.hash,
            watched: Cell::new(false),
            isa_hash: self.isa_hash,
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

impl PartialEq for Facts {
    fn eq(&self, other: &Facts) -> bool {
        self.hash == other.hash && (Rc::ptr_eq(&self.items, &other.items) || self.items == other.items)
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

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The facts in key order (source, relation, target graph, target).
    pub fn iter(&self) -> impl Iterator<Item = Fact> + '_ {
        self.items.iter().copied()
    }

    /// The facts, in key order, as a vector (for the merges and renamings that index them).
    pub fn to_vec(&self) -> Vec<Fact> {
        self.items.to_vec()
    }

    /// Facts from a vector sorted by key without repeated keys or Undef values (the search's
    /// unpacked states).
    pub fn from_sorted(items: Vec<Fact>) -> Facts {
        debug_assert!(items.windows(2).all(|w| w[0].key < w[1].key));
        let mut facts = Facts::default();
        for f in &items {
            facts.toggle_hash(f.key, f.value);
        }
        facts.items = Rc::new(items);
        facts
    }

    fn position(&self, key: FactKey) -> Result<usize, usize> {
        self.items.binary_search_by(|f| f.key.cmp(&key))
    }

    /// The value of a fact; Undef when it is absent.
    pub fn get(&self, key: FactKey) -> Logic {
        match self.position(key) {
            Ok(i) => self.items[i].value,
            Err(_) => Logic::UNDEF,
        }
    }

    pub fn contains(&self, key: FactKey) -> bool {
        self.position(key).is_ok()
    }

    /// Sets a fact (Undef removes it); returns the old value.
    pub fn set(&mut self, key: FactKey, value: Logic) -> Logic {
        match self.position(key) {
            Ok(i) => {
                let old = self.items[i].value;
                if old == value {
                    return old;
                }
                self.changed(Some(key));
                self.toggle_hash(key, old);
                if value.is_undef() {
                    Rc::make_mut(&mut self.items).remove(i);
                } else {
                    self.toggle_hash(key, value);
                    Rc::make_mut(&mut self.items)[i].value = value;
                }
                old
            }
            Err(i) => {
                if !value.is_undef() {
                    self.changed(Some(key));
                    self.toggle_hash(key, value);
                    self.items_for_insert().insert(i, Fact { key, value });
                }
                Logic::UNDEF
            }
        }
    }

    /// The facts whose source is `src` (sorted by relation, then target).
    pub fn outgoing(&self, src: NodeId) -> impl Iterator<Item = Fact> + '_ {
        self.key_range(FactKey::new(src, 0, 0, 0).0, u128::MAX >> 32).iter().copied()
    }

    /// The facts from `src` along `rel`.
    pub fn outgoing_rel(&self, src: NodeId, rel: RelId) -> impl Iterator<Item = Fact> + '_ {
        self.key_range(FactKey::new(src, rel, 0, 0).0, u128::MAX >> 64).iter().copied()
    }

    /// The facts whose keys run from `lo` to `lo + span`: one binary search, then a short walk
    /// (a node has few facts).
    fn key_range(&self, lo: u128, span: u128) -> &[Fact] {
        let start = self.items.partition_point(|f| f.key.0 < lo);
        let len = self.items[start..].iter().take_while(|f| f.key.0 - lo <= span).count();
        &self.items[start..start + len]
    }

    /// The vector, unshared, with room for one more fact: a copy of a shared state is made
    /// with that room, rather than copied exactly and then grown.
    fn items_for_insert(&mut self) -> &mut Vec<Fact> {
        if Rc::get_mut(&mut self.items).is_none() {
            let mut v = Vec::with_capacity(self.items.len() + 1);
            v.extend_from_slice(&self.items);
            self.items = Rc::new(v);
        }
        Rc::get_mut(&mut self.items).expect("just unshared")
    }

    /// Removes the facts for which `pred` holds; returns how many went.
    pub fn remove_where(&mut self, mut pred: impl FnMut(&Fact) -> bool) -> usize {
        let doomed: Vec<Fact> = self.items.iter().filter(|f| pred(f)).copied().collect();
        if doomed.is_empty() {
            return 0;
        }
        self.changed(None);
        for f in &doomed {
            self.toggle_hash(f.key, f.value);
        }
        Rc::make_mut(&mut self.items).retain(|f| !pred(f));
        doomed.len()
    }

    pub fn clear(&mut self) {
        self.changed(None);
        self.isa_hash = 0;
        self.items = Rc::new(Vec::new());
        self.hash = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_independent_of_order_and_undone_by_removal() {
        let (a, b) = (FactKey::new(1, 7, 0, 2), FactKey::new(2, 8, 0, 1));
        let mut x = Facts::default();
        x.set(a, Logic::TRUE);
        x.set(b, Logic::FALSE);
        let mut y = Facts::default();
        y.set(b, Logic::FALSE);
        y.set(a, Logic::TRUE);
        assert_eq!(x.hash(), y.hash());
        assert_eq!(x, y);
        y.set(a, Logic::UNDEF);
        assert_ne!(x, y);
        y.set(a, Logic::TRUE);
        assert_eq!(x, y);
        let empty = Facts::default();
        x.set(a, Logic::UNDEF);
        x.set(b, Logic::UNDEF);
        assert_eq!(x.hash(), empty.hash());
        assert_eq!(x, empty);
    }

    #[test]
    fn a_false_fact_differs_from_a_missing_one() {
        let k = FactKey::new(1, 7, 0, 2);
        let mut x = Facts::default();
        x.set(k, Logic::FALSE);
        assert_ne!(x, Facts::default());
        assert_eq!(x.get(k), Logic::FALSE);
        assert_eq!(Facts::default().get(k), Logic::UNDEF);
    }

    #[test]
    fn changing_a_watched_state_moves_the_epoch() {
        let k = FactKey::new(1, 7, 0, 2);
        let mut x = Facts::default();
        let before = epoch();
        x.set(k, Logic::TRUE);
        assert_eq!(epoch(), before, "nobody watches x yet");
        x.watch();
        let mut copy = x.clone();
        copy.set(k, Logic::FALSE);
        assert_eq!(epoch(), before, "a copy is not watched");
        x.set(k, Logic::FALSE);
        assert_ne!(epoch(), before);
        let after = epoch();
        drop(x);
        assert_ne!(epoch(), after, "dropping a watched state counts as a change");
    }

    #[test]
    fn copies_share_until_changed() {
        let k = FactKey::new(1, 7, 0, 2);
        let mut x = Facts::default();
        x.set(k, Logic::TRUE);
        let mut y = x.clone();
        assert!(Rc::ptr_eq(&x.items, &y.items));
        y.set(k, Logic::FALSE);
        assert_eq!(x.get(k), Logic::TRUE);
        assert_eq!(y.get(k), Logic::FALSE);
    }
}

//! The state store of the `Search` module: every distinct state once, as a packed key (a key,
//! `pack.rs`, turned into finite-domain variables, `packed_states.rs`), numbered in the order
//! states were discovered (0 is the start), with, per number, how the search reached it: the
//! parent, the action, the name fragment of a graph state, the symmetry variant, the depth and
//! the path cost. The path to a state is rebuilt from the parents at the end.
//!
//! Nothing here refers to the interpreter: keys, actions and labels are bytes, ids are `u32`,
//! so the store can be shared between threads or sent between processes (Fast Downward's
//! `StateRegistry` is the model: packed states for storage, live ones only while a demon
//! computes successors).

use super::bitstate::{Bitstate, Hashed};
use super::columns::{Depths, Narrow};
use super::fingerprints::{fingerprint, Fingerprints};
use super::kept_keys::KeptKeys;
use super::key_vars::{Changes, Packed};
use super::packed_states::{PackedStates, Probe};
use ds_pack::Numbers;
use hashbrown::HashTable;
use std::hash::Hasher;

/// A state's number in the store, in discovery order.
pub type StateId = u32;

/// "No such state / action / label": the start's parent and action.
pub const NONE: u32 = u32::MAX;

/// The hash of a key: deterministic (the same in every thread and process), fast on short keys.
pub fn key_hash(key: &[u8]) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    h.write(key);
    h.write_usize(key.len());
    h.finish()
}

/// Byte strings, each stored once and numbered in the order they were first inserted: one
/// arena of bytes, the end offset of each string, and a table of numbers hashed by content.
/// An offset is kept in 4 bytes, with the numbers of the strings at which the arena passed
/// each further 4 GiB (none in all but huge searches).
#[derive(Default)]
pub struct KeySet {
    bytes: Vec<u8>,
    ends: Vec<u32>,
    wraps: Vec<u32>,
    table: HashTable<u32>,
}

/// Whether two keys are equal: one of 8 to 16 bytes (an 8-puzzle board, a small array) as two
/// overlapping words, without a call to `memcmp` for each state found again.
#[inline(always)]
fn same_key(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if (8..=16).contains(&n) {
        let word = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
        return word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8);
    }
    a == b
}

/// The string numbered `id` in `bytes`, given its parts (a function, so that `insert` can
/// call it while it holds the table mutably).
#[inline]
fn key_of<'a>(bytes: &'a [u8], ends: &[u32], wraps: &[u32], id: u32) -> &'a [u8] {
    let end = |i: usize| {
        let high = if wraps.is_empty() { 0 } else { wraps.partition_point(|&w| w as usize <= i) };
        // In u64: on a 32-bit target (wasm) an arena never passes 4 GiB, and `high` is 0.
        (((high as u64) << 32) | ends[i] as u64) as usize
    };
    let i = id as usize;
    let start = if i == 0 { 0 } else { end(i - 1) };
    &bytes[start..end(i)]
}

impl KeySet {
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The string numbered `id`.
    pub fn get(&self, id: u32) -> &[u8] {
        key_of(&self.bytes, &self.ends, &self.wraps, id)
    }

    pub fn find(&self, key: &[u8]) -> Option<u32> {
        self.find_hashed(key, key_hash(key))
    }

    /// `find`, given the key's hash.
    pub fn find_hashed(&self, key: &[u8], hash: u64) -> Option<u32> {
        self.table.find(hash, |&id| same_key(self.get(id), key)).copied()
    }

    /// The number of `key`, and whether it was new.
    pub fn insert(&mut self, key: &[u8]) -> (u32, bool) {
        self.insert_hashed(key, key_hash(key))
    }

    /// `insert`, given the key's hash.
    pub fn insert_hashed(&mut self, key: &[u8], hash: u64) -> (u32, bool) {
        let (bytes, ends, wraps) = (&self.bytes, &self.ends, &self.wraps);
        if let Some(&id) = self.table.find(hash, |&id| same_key(key_of(bytes, ends, wraps, id), key)) {
            return (id, false);
        }
        (self.insert_absent(key, hash), true)
    }

    /// Adds `key`, which the caller just looked up and did not find (one probe less than
    /// `insert_hashed`), and gives its number.
    pub fn insert_absent(&mut self, key: &[u8], hash: u64) -> u32 {
        let id = self.ends.len() as u32;
        let high = self.bytes.len() as u64 >> 32;
        self.bytes.extend_from_slice(key);
        let end = self.bytes.len();
        for _ in high..end as u64 >> 32 {
            self.wraps.push(id);
        }
        self.ends.push(end as u32);
        let (bytes, ends, wraps) = (&self.bytes, &self.ends, &self.wraps);
        self.table.insert_unique(hash, id, |&id| key_hash(key_of(bytes, ends, wraps, id)));
        id
    }

    /// Bytes of memory held (allocated capacity).
    pub fn memory(&self) -> usize {
        self.bytes.capacity()
            + (self.ends.capacity() + self.wraps.capacity()) * std::mem::size_of::<u32>()
            // a slot of the table: the id and one control byte
            + self.table.capacity() * (std::mem::size_of::<u32>() + 1)
    }
}

/// A state `StateStore::probe` did not find: packed if it could be, or its fingerprint.
pub struct Absent(Unseen);

enum Unseen {
    Packed(Option<(Packed, u64)>),
    Fingerprint(u64),
    Bits(Hashed),
}

/// How the visited states are kept (decision 25; `Opts["store"]`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum StoreMode {
    /// Every state, packed (`packed_states.rs`).
    #[default]
    Exact,
    /// A 64-bit fingerprint per state (`fingerprints.rs`), and the keys of the frontier.
    Hash,
    /// Three bits per state in an array of this many bits (`bitstate.rs`), a 32-bit check per
    /// state, and the keys of the frontier.
    Bitstate(u64),
}

// (one store a search: the variants' sizes do not matter)
#[allow(clippy::large_enum_variant)]
enum Visited {
    Exact(PackedStates),
    Hash { fingerprints: Fingerprints, keys: KeptKeys },
    Bitstate { bits: Bitstate, keys: KeptKeys },
}

impl Default for Visited {
    fn default() -> Visited {
        Visited::Exact(PackedStates::default())
    }
}

/// How the search reached a state.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Origin {
    pub parent: StateId,
    /// The action's number in `StateStore::action_key`, or `NONE`.
    pub action: u32,
    /// The label's number (a graph state's name relative to its parent's), or `NONE`.
    pub label: u32,
    /// The symmetry variant's number (which permutation of the canonical key was met), or `NONE`.
    pub variant: u32,
    /// Actions from the start along the parents.
    pub depth: u32,
    /// The cost of the path along the parents.
    pub g: f64,
}

impl Origin {
    /// The start's origin.
    pub const START: Origin = Origin { parent: NONE, action: NONE, label: NONE, variant: NONE, depth: 0, g: 0.0 };
}

/// Slots of the cache of short actions in front of `StateStore::actions`.
const ACTION_CACHE: usize = 16;

/// A key of at most 16 bytes as two words (zero-padded) and its length: compared without a
/// call to `memcmp`.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Short(u64, u64, usize);

impl Short {
    fn of(key: &[u8]) -> Option<Short> {
        let mut w = [0u8; 16];
        w.get_mut(..key.len())?.copy_from_slice(key);
        let word =
            |i: usize| u64::from_le_bytes([w[i], w[i + 1], w[i + 2], w[i + 3], w[i + 4], w[i + 5], w[i + 6], w[i + 7]]);
        Some(Short(word(0), word(8), key.len()))
    }

    /// Its slot in the cache: the top bits of a multiplicative hash.
    fn slot(self) -> usize {
        let mixed = (self.0 ^ self.1.rotate_left(29) ^ self.2 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - ACTION_CACHE.trailing_zeros())) as usize
    }
}

/// The states of one search, with their origins; also the actions, labels and variants they
/// were met with, each interned once.
#[derive(Default)]
pub struct StateStore {
    states: Visited,
    actions: KeySet,
    /// Short actions interned lately, by a hash of their words (see `intern_action`).
    action_cache: [Option<(Short, u32)>; ACTION_CACHE],
    labels: KeySet,
    variants: KeySet,
    /// Per state (packed in blocks: the parents of states found in a row are close).
    parent: Numbers,
    /// Per state, the number of its (action, label) pair in `steps`: a search meets few
    /// distinct pairs (a graph's action is often its label's text), so one number keeps both.
    step: Narrow,
    steps: Vec<(u32, u32)>,
    step_ids: rustc_hash::FxHashMap<(u32, u32), u32>,
    depth: Depths,
    /// Per state, kept only once a state has one: without symmetry every variant is `NONE`,
    /// and with costs of 1 every g is the depth (the common cases, at 4 and 8 bytes a state).
    variant: Option<Vec<u32>>,
    g: Option<Vec<f64>>,
}

impl StateStore {
    /// A store that keeps states as `mode` says, or why it cannot be made (a bit array too
    /// large for the memory limit).
    pub fn new(mode: StoreMode) -> Result<StateStore, String> {
        let states = match mode {
            StoreMode::Exact => Visited::default(),
            StoreMode::Hash => Visited::Hash { fingerprints: Fingerprints::new(), keys: KeptKeys::default() },
            StoreMode::Bitstate(bits) => Visited::Bitstate { bits: Bitstate::new(bits)?, keys: KeptKeys::default() },
        };
        Ok(StateStore { states, ..StateStore::default() })
    }

    /// The estimated share of the states met that a bit array kept (None for another store).
    pub fn coverage(&self) -> Option<f64> {
        match &self.states {
            Visited::Bitstate { bits, .. } => Some(bits.coverage()),
            _ => None,
        }
    }

    /// Whether the store keeps a fingerprint per state (the `"hash"` store).
    pub fn keeps_fingerprints(&self) -> bool {
        matches!(self.states, Visited::Hash { .. })
    }

    /// Whether every state is kept (no state can be missed).
    pub fn is_exact(&self) -> bool {
        matches!(self.states, Visited::Exact(_))
    }

    /// The number of states stored.
    pub fn len(&self) -> usize {
        match &self.states {
            Visited::Exact(states) => states.len(),
            Visited::Hash { fingerprints, .. } => fingerprints.len(),
            Visited::Bitstate { bits, .. } => bits.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The keys a store that keeps no states keeps (the frontier's, a path's).
    fn kept_keys(&self) -> Option<&KeptKeys> {
        match &self.states {
            Visited::Exact(_) => None,
            Visited::Hash { keys, .. } | Visited::Bitstate { keys, .. } => Some(keys),
        }
    }

    fn kept_keys_mut(&mut self) -> Option<&mut KeptKeys> {
        match &mut self.states {
            Visited::Exact(_) => None,
            Visited::Hash { keys, .. } | Visited::Bitstate { keys, .. } => Some(keys),
        }
    }

    /// The key of state `id` (`pack.rs`). A store that keeps no states has the keys of the
    /// start, the frontier and a path rebuilt (`has_key`); the searches that take one ask no
    /// other.
    pub fn key(&self, id: StateId) -> Vec<u8> {
        match (&self.states, self.kept_keys()) {
            (Visited::Exact(states), _) => states.key(id),
            (_, keys) => keys.and_then(|k| k.get(id)).expect("the key of a state kept (a bug in ds)").to_vec(),
        }
    }

    /// The changes from the start of state `id`, when the store keeps it packed as a graph of
    /// the start's class: `key(id)` without the bytes, for making the state again.
    pub fn changes(&self, id: StateId) -> Option<Changes> {
        match &self.states {
            Visited::Exact(states) => states.changes(id),
            _ => None,
        }
    }

    /// Whether `key(id)` can be asked.
    pub fn has_key(&self, id: StateId) -> bool {
        match self.kept_keys() {
            None => (id as usize) < self.len(),
            Some(keys) => keys.get(id).is_some(),
        }
    }

    /// Whether `key` may be the key of stored state `id`: in a store that keeps no states, by
    /// its fingerprint or check (how `replay.rs` picks a path's state among its siblings).
    pub fn may_be(&self, id: StateId, key: &[u8]) -> bool {
        match &self.states {
            Visited::Exact(states) => states.key(id) == key,
            Visited::Hash { fingerprints, .. } => fingerprints.get(id) == fingerprint(key),
            Visited::Bitstate { bits, .. } => bits.check(id) == Hashed::of(key).check(),
        }
    }

    /// Lets the keys of the states before `id` go, when they are all expanded (a store that
    /// keeps no states keeps only the frontier's; an exact store has every key in its states).
    pub fn forget_keys_below(&mut self, id: StateId) {
        if let Some(keys) = self.kept_keys_mut() {
            keys.forget_below(id);
        }
    }

    /// Keeps the key of state `id` again, found by expanding its parent (`replay.rs`).
    pub fn restore_key(&mut self, id: StateId, key: Vec<u8>) {
        if let Some(keys) = self.kept_keys_mut() {
            keys.restore(id, key);
        }
    }

    /// The number of the state with this key, if stored. A bit array numbers no state it has
    /// seen: it answers `NONE` for one (its bits are set), which only `bfs` asks.
    pub fn find(&self, key: &[u8]) -> Option<StateId> {
        match &self.states {
            Visited::Exact(states) => states.find(key),
            Visited::Hash { fingerprints, .. } => fingerprints.find(fingerprint(key)),
            Visited::Bitstate { bits, .. } => bits.contains(Hashed::of(key)).then_some(NONE),
        }
    }

    /// Stores a state met with `origin`; a state already stored keeps its origin. Returns its
    /// id and whether it is new.
    pub fn insert(&mut self, key: &[u8], origin: Origin) -> (StateId, bool) {
        match self.probe(key) {
            Ok(id) => (id, false),
            Err(absent) => (self.insert_probed(key, absent.0, origin), true),
        }
    }

    /// Looks a state up: `Ok(id)` if stored, else what `insert_probed` takes to store it.
    pub fn probe(&self, key: &[u8]) -> Result<StateId, Absent> {
        match &self.states {
            Visited::Exact(states) => match states.probe(key) {
                Probe::Found(id) => Ok(id),
                Probe::Absent(packed) => Err(Absent(Unseen::Packed(packed))),
            },
            Visited::Hash { fingerprints, .. } => {
                let fp = fingerprint(key);
                fingerprints.find(fp).ok_or(Absent(Unseen::Fingerprint(fp)))
            }
            Visited::Bitstate { bits, .. } => {
                let h = Hashed::of(key);
                if bits.contains(h) {
                    Ok(NONE)
                } else {
                    Err(Absent(Unseen::Bits(h)))
                }
            }
        }
    }

    /// Stores a state that `find` just did not find.
    pub fn insert_absent(&mut self, key: &[u8], origin: Origin) -> StateId {
        let unseen = match self.states {
            Visited::Exact(_) => Unseen::Packed(None),
            Visited::Hash { .. } => Unseen::Fingerprint(fingerprint(key)),
            Visited::Bitstate { .. } => Unseen::Bits(Hashed::of(key)),
        };
        self.insert_probed(key, unseen, origin)
    }

    /// Stores a state that `probe` found absent.
    pub fn insert_absent_probed(&mut self, key: &[u8], absent: Absent, origin: Origin) -> StateId {
        self.insert_probed(key, absent.0, origin)
    }

    fn insert_probed(&mut self, key: &[u8], unseen: Unseen, origin: Origin) -> StateId {
        let id = match (&mut self.states, unseen) {
            (Visited::Exact(states), Unseen::Packed(packed)) => states.insert_probed(key, packed),
            (Visited::Exact(states), _) => states.insert_probed(key, None),
            (Visited::Hash { fingerprints, keys }, unseen) => {
                let fp = match unseen {
                    Unseen::Fingerprint(fp) => fp,
                    _ => fingerprint(key),
                };
                let id = fingerprints.insert_absent(fp);
                keys.push(id, key);
                id
            }
            (Visited::Bitstate { bits, keys }, unseen) => {
                let h = match unseen {
                    Unseen::Bits(h) => h,
                    _ => Hashed::of(key),
                };
                let id = bits.insert(h);
                keys.push(id, key);
                id
            }
        };
        self.push_origin(origin);
        id
    }

    /// Keeps the origin of the state just stored.
    fn push_origin(&mut self, origin: Origin) {
        self.parent.push(origin.parent);
        let step = self.step_of(origin.action, origin.label);
        self.step.push(step);
        self.depth.push(origin.depth);
        if let Some(v) = self.variant_mut(origin.variant) {
            v.push(origin.variant);
        }
        if let Some(g) = self.g_mut(origin.g, origin.depth) {
            g.push(origin.g);
        }
    }

    /// The fingerprint of state `id` and its key if kept, in a store of fingerprints
    /// (`"hash"`); None in another store.
    pub fn fingerprint_of(&self, id: StateId) -> Option<(u64, Option<&[u8]>)> {
        match &self.states {
            Visited::Hash { fingerprints, keys } => Some((fingerprints.get(id), keys.get(id))),
            _ => None,
        }
    }

    /// Stores a state of a store of fingerprints read back from a checkpoint: its fingerprint,
    /// its key when the checkpoint kept it (the start's and the frontier's, in id order), and
    /// its origin. False (nothing stored) for a fingerprint stored already, or another store.
    pub fn restore_fingerprint(&mut self, fp: u64, key: Option<&[u8]>, origin: Origin) -> bool {
        let Visited::Hash { fingerprints, keys } = &mut self.states else { return false };
        if fingerprints.find(fp).is_some() {
            return false;
        }
        let id = fingerprints.insert_absent(fp);
        if let Some(key) = key {
            // (the keys kept are the start's, then those of a range of ids)
            if keys.get(id.saturating_sub(1)).is_none() {
                keys.forget_below(id);
            }
            keys.push(id, key);
        }
        self.push_origin(origin);
        true
    }

    /// The number of the pair (action, label), interned.
    fn step_of(&mut self, action: u32, label: u32) -> u32 {
        let next = self.steps.len() as u32;
        let n = *self.step_ids.entry((action, label)).or_insert(next);
        if n == next {
            self.steps.push((action, label));
        }
        n
    }

    /// The variants, made explicit if `variant` is not `NONE` (None: all are `NONE`).
    fn variant_mut(&mut self, variant: u32) -> Option<&mut Vec<u32>> {
        if self.variant.is_none() && variant != NONE {
            self.variant = Some(vec![NONE; self.parent.len() - 1]);
        }
        self.variant.as_mut()
    }

    /// The path costs, made explicit if `g` is not the depth (None: every g is the depth).
    fn g_mut(&mut self, g: f64, depth: u32) -> Option<&mut Vec<f64>> {
        if self.g.is_none() && g.to_bits() != f64::from(depth).to_bits() {
            let before = 0..self.parent.len() as StateId - 1;
            self.g = Some(before.map(|id| f64::from(self.depth.get(id))).collect());
        }
        self.g.as_mut()
    }

    /// Records a better way to a stored state (a cheaper or shallower path).
    pub fn set_origin(&mut self, id: StateId, origin: Origin) {
        let i = id as usize;
        self.parent.set(id, origin.parent);
        let step = self.step_of(origin.action, origin.label);
        self.step.set(id, step);
        if self.variant.is_none() && origin.variant != NONE {
            self.variant = Some(vec![NONE; self.parent.len()]);
        }
        if let Some(v) = &mut self.variant {
            v[i] = origin.variant;
        }
        if self.g.is_none() && origin.g.to_bits() != f64::from(origin.depth).to_bits() {
            let all = 0..self.parent.len() as StateId;
            self.g = Some(all.map(|id| f64::from(self.depth.get(id))).collect());
        }
        self.depth.set(id, origin.depth);
        if let Some(g) = &mut self.g {
            g[i] = origin.g;
        }
    }

    pub fn origin(&self, id: StateId) -> Origin {
        let i = id as usize;
        let (action, label) = self.steps[self.step.get(id) as usize];
        Origin {
            parent: self.parent.get(id),
            action,
            label,
            variant: self.variant.as_ref().map_or(NONE, |v| v[i]),
            depth: self.depth.get(id),
            g: self.g(id),
        }
    }

    pub fn parent(&self, id: StateId) -> StateId {
        self.parent.get(id)
    }

    pub fn label(&self, id: StateId) -> u32 {
        self.steps[self.step.get(id) as usize].1
    }

    pub fn depth(&self, id: StateId) -> u32 {
        self.depth.get(id)
    }

    pub fn g(&self, id: StateId) -> f64 {
        let i = id as usize;
        self.g.as_ref().map_or_else(|| f64::from(self.depth.get(id)), |g| g[i])
    }

    /// Interns a packed action; its number goes into an `Origin`. A short action is looked up
    /// in a small cache first, compared as two words: an exploration interns one per
    /// transition, and most spaces have a few actions met again and again (the 8-puzzle's
    /// moves), for which hashing the bytes and comparing them with the table's cost more.
    pub fn intern_action(&mut self, key: &[u8]) -> u32 {
        let Some(short) = Short::of(key) else { return self.actions.insert(key).0 };
        let slot = &mut self.action_cache[short.slot()];
        match *slot {
            Some((k, n)) if k == short => n,
            _ => {
                let n = self.actions.insert(key).0;
                self.action_cache[short.slot()] = Some((short, n));
                n
            }
        }
    }

    /// The number of the action state `id` was reached by (`NONE`: none).
    pub fn action(&self, id: StateId) -> u32 {
        self.steps[self.step.get(id) as usize].0
    }

    pub fn intern_label(&mut self, key: &[u8]) -> u32 {
        self.labels.insert(key).0
    }

    pub fn intern_variant(&mut self, key: &[u8]) -> u32 {
        self.variants.insert(key).0
    }

    /// The actions, labels and variants interned, each numbered in order (for a checkpoint).
    pub fn interned(&self) -> [&KeySet; 3] {
        [&self.actions, &self.labels, &self.variants]
    }

    /// Interns an action (0), label (1) or variant (2) read back from a checkpoint: interned
    /// in the order `interned` gives them, they get the same numbers.
    pub fn intern_again(&mut self, which: usize, key: &[u8]) {
        match which {
            0 => self.actions.insert(key),
            1 => self.labels.insert(key),
            _ => self.variants.insert(key),
        };
    }

    /// Whether some state's path cost is not its depth (else no g is kept).
    pub fn has_costs(&self) -> bool {
        self.g.is_some()
    }

    /// Whether the action, label and variant of `origin` are interned here (or `NONE`).
    pub fn names_interned(&self, origin: &Origin) -> bool {
        let within = |n: u32, keys: &KeySet| n == NONE || (n as usize) < keys.len();
        within(origin.action, &self.actions)
            && within(origin.label, &self.labels)
            && within(origin.variant, &self.variants)
    }

    /// The packed action, label or variant of a number (None for `NONE`).
    pub fn action_key(&self, n: u32) -> Option<&[u8]> {
        (n != NONE).then(|| self.actions.get(n))
    }

    pub fn label_key(&self, n: u32) -> Option<&[u8]> {
        (n != NONE).then(|| self.labels.get(n))
    }

    pub fn variant_key(&self, n: u32) -> Option<&[u8]> {
        (n != NONE).then(|| self.variants.get(n))
    }

    /// The states from the start to `id`, along the parents.
    pub fn path(&self, id: StateId) -> Vec<StateId> {
        let mut path = vec![id];
        let mut at = id;
        while self.parent(at) != NONE {
            at = self.parent(at);
            path.push(at);
        }
        path.reverse();
        path
    }

    /// Bytes of memory held by the store.
    pub fn memory(&self) -> usize {
        let states = match &self.states {
            Visited::Exact(states) => states.memory(),
            Visited::Hash { fingerprints, keys } => fingerprints.memory() + keys.memory(),
            Visited::Bitstate { bits, keys } => bits.memory() + keys.memory(),
        };
        states
            + self.actions.memory()
            + self.labels.memory()
            + self.variants.memory()
            + self.parent.memory()
            + self.step.memory()
            + self.depth.memory()
            + self.steps.capacity() * 8
            + self.step_ids.capacity() * 12
            + self.variant.as_ref().map_or(0, |v| v.capacity() * std::mem::size_of::<u32>())
            + self.g.as_ref().map_or(0, |g| g.capacity() * std::mem::size_of::<f64>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_numbered_once_in_order() {
        let mut s = KeySet::default();
        assert_eq!(s.insert(b"abc"), (0, true));
        assert_eq!(s.insert(b""), (1, true));
        assert_eq!(s.insert(b"abc"), (0, false));
        for i in 0..10_000u32 {
            s.insert(&i.to_le_bytes());
        }
        assert_eq!(s.find(b""), Some(1));
        assert_eq!(s.find(&77u32.to_le_bytes()), Some(79));
        assert_eq!(s.get(79), 77u32.to_le_bytes());
        assert_eq!(s.find(b"nope"), None);
    }

    #[test]
    fn variants_and_costs_are_kept_once_a_state_has_its_own() {
        let mut st = StateStore::default();
        st.insert(b"a", Origin::START);
        let o = |parent, depth, g, variant| Origin { parent, depth, g, variant, ..Origin::START };
        st.insert(b"b", o(0, 1, 1.0, NONE));
        assert!(st.g.is_none() && st.variant.is_none(), "g is the depth, no variant");
        st.insert(b"c", o(1, 2, 2.5, 7));
        st.insert(b"d", o(2, 3, 3.0, NONE));
        assert_eq!(
            [st.origin(1), st.origin(2), st.origin(3)],
            [o(0, 1, 1.0, NONE), o(1, 2, 2.5, 7), o(2, 3, 3.0, NONE)]
        );
        assert_eq!(st.g(0), 0.0);
        let mut fresh = StateStore::default();
        fresh.insert(b"a", Origin::START);
        fresh.insert(b"b", o(0, 1, 1.0, NONE));
        fresh.set_origin(1, o(0, 4, 0.5, 3));
        assert_eq!(fresh.origin(1), o(0, 4, 0.5, 3));
        assert_eq!(fresh.origin(0), Origin::START);
    }

    #[test]
    fn depths_and_steps_come_back_as_stored() {
        let mut st = StateStore::default();
        st.insert(b"a", Origin::START);
        let o = |parent, depth, action, label| Origin { parent, depth, action, label, ..Origin::START };
        let origins = [o(0, 1, 3, 4), o(0, 1, 3, 5), o(1, 2, 3, 4), o(2, 1, NONE, 4), o(4, 7, 3, 4)];
        for (i, &origin) in origins.iter().enumerate() {
            st.insert(&[i as u8], origin);
        }
        assert!(matches!(st.depth, Depths::Each(_)), "a shallower state after a deeper one");
        for (i, &origin) in origins.iter().enumerate() {
            assert_eq!(st.origin(i as StateId + 1), origin);
        }
        assert_eq!(st.steps.len(), 4, "pairs are kept once");
        let mut levels = StateStore::default();
        levels.insert(b"a", Origin::START);
        for (i, d) in [1, 1, 2, 2, 2, 4].into_iter().enumerate() {
            levels.insert(&[i as u8], o(0, d, NONE, NONE));
        }
        assert!(matches!(&levels.depth, Depths::Runs(runs, 7) if runs.len() == 4));
        assert_eq!((0..7).map(|id| levels.depth(id)).collect::<Vec<_>>(), [0, 1, 1, 2, 2, 2, 4]);
        levels.set_origin(4, o(0, 1, NONE, NONE));
        assert_eq!((0..7).map(|id| levels.depth(id)).collect::<Vec<_>>(), [0, 1, 1, 2, 1, 2, 4]);
    }

    #[test]
    fn paths_follow_parents() {
        let mut st = StateStore::default();
        st.insert(b"a", Origin::START);
        let o = |parent, depth| Origin { parent, depth, ..Origin::START };
        st.insert(b"b", o(0, 1));
        st.insert(b"c", o(1, 2));
        assert_eq!(st.insert(b"b", o(2, 3)), (1, false));
        assert_eq!(st.origin(1), o(0, 1), "a known state keeps its origin");
        assert_eq!(st.path(2), vec![0, 1, 2]);
        st.set_origin(2, o(0, 1));
        assert_eq!(st.path(2), vec![0, 2]);
    }

    #[test]
    fn keys_differing_in_any_byte_are_different_states() {
        // `same_key` compares keys of 8 to 16 bytes as two words: every byte must count.
        for n in 0..20usize {
            let key: Vec<u8> = (0..n as u8).collect();
            let mut keys = KeySet::default();
            let (id, _) = keys.insert(&key);
            assert_eq!(keys.insert(&key), (id, false), "{n} bytes");
            for at in 0..n {
                let mut other = key.clone();
                other[at] ^= 0x80;
                assert_eq!(keys.find(&other), None, "{n} bytes, byte {at}");
            }
            assert_eq!(keys.find(&key[..n.saturating_sub(1)]), if n == 0 { Some(id) } else { None });
        }
    }
}

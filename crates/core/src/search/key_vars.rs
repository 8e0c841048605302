//! Keys as finite-domain variables, learned as states are stored (decision 25's exact store).
//!
//! A key (`pack.rs`) is turned into a vector of small numbers, each an index into the values
//! a variable has taken so far, packed by a `GrowingLayout`:
//! - a graph of the start's class is its differences from the start, grouped by source,
//!   relation and target graph: one variable per group that ever changed, whose values are
//!   the group's facts (0: as in the start). An object that is on one place at a time is one
//!   variable whose values are its places, as Fast Downward's translator makes a variable of
//!   a predicate; facts that no state changes take no bits at all;
//! - any other key of up to `MAX_BYTES` bytes is its bytes, one variable per length and
//!   position (a string of nine digits, the 8-puzzle's board, takes four bits a digit);
//! - anything else (long keys, or too many lengths) is kept whole in a table of its own, the
//!   variable being its number there.
//!
//! Variable 0 is the key's shape (which of these it is), so keys of different shapes never
//! meet. Nothing here is lossy: `decode` gives back the very bytes that were encoded.

use super::pack::{get_varint, put_relative, read_relative, relative_changes, relative_tag};
use super::store::KeySet;
use crate::value::Logic;
use crate::world::facts::Change;
use crate::world::FactKey;
use ds_pack::GrowingLayout;
use rustc_hash::FxHashMap;
use smallvec::SmallVec;

/// The longest key stored as its bytes, and the most lengths stored so.
const MAX_BYTES: usize = 64;
const MAX_BYTE_SHAPES: usize = 32;

const UNSEEN: u16 = u16::MAX;

/// A byte of the keys of one length at one position.
struct ByteVar {
    var: usize,
    index: [u16; 256],
    values: Vec<u8>,
}

/// A group of facts (one source, relation and target graph) of a graph of the start's class.
struct GroupVar {
    var: usize,
    src: u32,
    rel: u32,
    tgraph: u32,
    index: FxHashMap<Box<[u8]>, u32>,
    /// The group's facts as `put_group` writes them; 0 is none (the start's).
    values: Vec<Box<[u8]>>,
}

enum Shape {
    Relative,
    /// Keys of one length: the variable of each byte (numbers in `KeyVars::bytes`).
    Bytes(Vec<usize>),
    Raw,
}

/// The variables of one search's keys.
pub struct KeyVars {
    layout: GrowingLayout,
    shapes: Vec<Shape>,
    relative: Option<u32>,
    by_len: FxHashMap<usize, u32>,
    raw_shape: Option<u32>,
    bytes: Vec<ByteVar>,
    groups: Vec<GroupVar>,
    group_of: FxHashMap<(u32, u32, u32), usize>,
    /// The groups in key order (source, relation, target graph): their changes come out
    /// sorted, as a key lists them.
    group_order: Vec<usize>,
    raw: KeySet,
    /// Per shape, its `OneWord` table when its keys are bytes and a packed key is one word.
    one_word: Vec<Option<OneWord>>,
    /// Per shape, where each byte's value is when its keys are bytes and every byte variable
    /// has one field within a word (nearly always): `decode` reads them without the layout.
    byte_reads: Vec<Option<Vec<ByteRead>>>,
}

/// A byte variable's field in a packed key as words, and its variable in `KeyVars::bytes`.
#[derive(Clone, Copy)]
struct ByteRead {
    word: usize,
    shift: u32,
    mask: u64,
    byte_var: usize,
}

/// The packed key of a key of bytes as one word, a table lookup a byte: per position and byte
/// value, the bits it sets (`NOT_MET`: a byte never met there), besides the shape's own.
struct OneWord {
    shape_bits: u64,
    positions: Vec<[u64; 256]>,
}

const NOT_MET: u64 = u64::MAX;

const SHAPE_VAR: usize = 0;
const RAW_VAR: usize = 1;

/// (variable, value) pairs of one key.
type Values = SmallVec<[(usize, u32); 24]>;

/// A packed key: `KeyVars::width()` bytes.
pub type Packed = SmallVec<[u8; 32]>;

/// A packed key as it is made: little-endian words.
type Words = SmallVec<[u64; 4]>;

/// The first `bytes` bytes of `words`.
fn to_bytes(words: &[u64], bytes: usize, out: &mut Packed) {
    out.clear();
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.truncate(bytes);
}

/// A group's facts as `put_group` writes them.
type GroupBytes = SmallVec<[u8; 32]>;

/// A relative key's changes.
pub type Changes = SmallVec<[Change; 16]>;

/// A group's facts as bytes: each target, then its value's code (and a fuzzy value's pair).
fn put_group(changes: &[Change], out: &mut GroupBytes) {
    out.clear();
    for &(key, value) in changes {
        put_change(key, value, out);
    }
}

/// One fact of a group as `put_group` writes it.
#[inline]
fn put_change(key: FactKey, value: Option<Logic>, out: &mut GroupBytes) {
    let mut tgt = key.tgt();
    // (a varint, as `put_varint` writes it)
    while tgt >= 0x80 {
        out.push((tgt as u8) | 0x80);
        tgt >>= 7;
    }
    out.push(tgt as u8);
    match value {
        None => out.push(0),
        Some(v) if v.same_bits(Logic::TRUE) => out.push(1),
        Some(v) if v.same_bits(Logic::FALSE) => out.push(2),
        Some(v) => {
            out.push(3);
            out.extend_from_slice(&v.p0.to_le_bytes());
            out.extend_from_slice(&v.p1.to_le_bytes());
        }
    }
}

/// The variables of a relative key as its records are read, a group at a time, without the
/// list of its changes: `visit_known`'s way for graph states, the most common keys.
struct KnownGroups<'a> {
    vars: &'a KeyVars,
    values: Values,
    group: Option<(u32, u32, u32)>,
    buf: GroupBytes,
    last: Option<FactKey>,
    read: u64,
    /// False once a change is out of order (then the key is not a relative one).
    ordered: bool,
    /// False once a group or its value was never met.
    known: bool,
}

impl KnownGroups<'_> {
    fn push(&mut self, key: FactKey, value: Option<Logic>) {
        self.read += 1;
        if self.last.is_some_and(|last| last >= key) {
            self.ordered = false;
        }
        if !self.known || !self.ordered {
            return;
        }
        self.last = Some(key);
        let group = (key.src(), key.rel(), key.tgraph());
        if self.group != Some(group) {
            self.flush();
            self.group = Some(group);
        }
        put_change(key, value, &mut self.buf);
    }

    /// Ends the group read so far: its variable and value.
    fn flush(&mut self) {
        let Some(group) = self.group.take() else { return };
        let vars = self.vars;
        let value = vars.group_of.get(&group).and_then(|&g| Some((g, *vars.groups[g].index.get(&self.buf[..])?)));
        match value {
            Some((g, value)) => self.values.push((vars.groups[g].var, value)),
            None => self.known = false,
        }
        self.buf.clear();
    }
}

impl Extend<Change> for KnownGroups<'_> {
    fn extend<I: IntoIterator<Item = Change>>(&mut self, changes: I) {
        for (key, value) in changes {
            self.push(key, value);
        }
    }
}

fn read_group(g: &GroupVar, bytes: &[u8], out: &mut Changes) {
    let mut at = 0;
    while at < bytes.len() {
        let tgt = get_varint(bytes, &mut at) as u32;
        let code = bytes.get(at).copied().unwrap_or(0);
        at += 1;
        let value = match code {
            1 => Some(Logic::TRUE),
            2 => Some(Logic::FALSE),
            3 => {
                let f = |i: usize| f64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
                at += 16;
                Some(Logic::new(f(at - 16), f(at - 8)))
            }
            _ => None,
        };
        out.push((FactKey::new(g.src, g.rel, g.tgraph, tgt), value));
    }
}

impl Default for KeyVars {
    fn default() -> KeyVars {
        let mut layout = GrowingLayout::default();
        layout.push_var();
        layout.push_var();
        KeyVars {
            layout,
            shapes: Vec::new(),
            relative: None,
            by_len: FxHashMap::default(),
            raw_shape: None,
            bytes: Vec::new(),
            groups: Vec::new(),
            group_of: FxHashMap::default(),
            group_order: Vec::new(),
            raw: KeySet::default(),
            one_word: Vec::new(),
            byte_reads: Vec::new(),
        }
    }
}

impl KeyVars {
    /// The bytes a packed key takes now.
    pub fn width(&self) -> usize {
        self.layout.bytes()
    }

    pub fn layout(&self) -> &GrowingLayout {
        &self.layout
    }

    /// Packs `key` into `out` (`width()` bytes) if every value of it was met before: else no
    /// stored key can equal it, and `out` is left unfinished.
    pub fn encode_known(&self, key: &[u8], out: &mut Packed) -> bool {
        let layout = &self.layout;
        // (a key of bytes, not a graph's, whose shape packs into one word: a lookup a byte)
        let one_word = match key.first() {
            Some(&tag) if !relative_tag(tag) => {
                self.by_len.get(&key.len()).and_then(|&s| self.one_word.get(s as usize))
            }
            _ => None,
        };
        if let Some(Some(table)) = one_word {
            let mut word = table.shape_bits;
            for (bits, &b) in table.positions.iter().zip(key) {
                let c = bits[b as usize];
                if c == NOT_MET {
                    return false;
                }
                word |= c;
            }
            out.clear();
            out.extend_from_slice(&word.to_le_bytes()[..layout.bytes()]);
            return true;
        }
        let mut words: Words = smallvec::smallvec![0; layout.words()];
        let known = self.visit_known(key, |var, value| layout.put(&mut words, var, value));
        if known {
            to_bytes(&words, layout.bytes(), out);
        }
        known
    }

    /// Packs `key` into `out`, learning its variables and values. Returns whether the layout
    /// grew (the keys stored before are then `width()` bytes with zeros added).
    pub fn encode_learning(&mut self, key: &[u8], out: &mut Packed) -> bool {
        let mut values = Values::new();
        self.values_learning(key, &mut values);
        let mut grew = false;
        for &(var, value) in &values {
            grew |= self.layout.fit(var, value);
        }
        let mut words: Words = smallvec::smallvec![0; self.layout.words()];
        for &(var, value) in &values {
            self.layout.put(&mut words, var, value);
        }
        to_bytes(&words, self.layout.bytes(), out);
        let of_bytes = matches!(self.shapes.get(values[0].1 as usize), Some(Shape::Bytes(_)));
        if grew || of_bytes {
            self.byte_tables();
        }
        grew
    }

    /// Makes the `OneWord` tables and the `ByteRead`s again (the layout or the values of a key
    /// of bytes changed).
    fn byte_tables(&mut self) {
        let one_word = self.layout.bytes() <= 8;
        let tables = self.shapes.iter().enumerate().map(|(shape, kind)| match kind {
            Shape::Bytes(vars) if one_word => Some(self.one_word_table(shape as u32, vars)),
            _ => None,
        });
        self.one_word = tables.collect();
        let reads = self.shapes.iter().map(|kind| match kind {
            Shape::Bytes(vars) => vars.iter().map(|&v| self.byte_read(v)).collect(),
            _ => None,
        });
        self.byte_reads = reads.collect();
    }

    fn byte_read(&self, byte_var: usize) -> Option<ByteRead> {
        let (at, bits) = self.layout.single_field(self.bytes[byte_var].var)?;
        let (word, shift) = (at as usize / 64, at % 64);
        let mask = if bits == 0 { 0 } else { u64::MAX >> (64 - bits) };
        (shift + bits <= 64).then_some(ByteRead { word, shift, mask, byte_var })
    }

    fn one_word_table(&self, shape: u32, vars: &[usize]) -> OneWord {
        let bits = |var: usize, value: u32| {
            let mut w = [0u64];
            self.layout.put(&mut w, var, value);
            w[0]
        };
        let positions = vars
            .iter()
            .map(|&v| {
                let var = &self.bytes[v];
                let mut t = [NOT_MET; 256];
                for (b, &i) in var.index.iter().enumerate() {
                    if i != UNSEEN {
                        t[b] = bits(var.var, u32::from(i));
                    }
                }
                t
            })
            .collect();
        OneWord { shape_bits: bits(SHAPE_VAR, shape), positions }
    }

    /// Calls `emit(variable, value)` for each variable of `key` that is not 0, if every value
    /// of it was met before (else returns false).
    fn visit_known(&self, key: &[u8], mut emit: impl FnMut(usize, u32)) -> bool {
        let mut groups = KnownGroups {
            vars: self,
            values: Values::new(),
            group: None,
            buf: GroupBytes::new(),
            last: None,
            read: 0,
            ordered: true,
            known: true,
        };
        // (as `relative_changes` decides: records in key order, as many as the tag says)
        let relative = read_relative(key, &mut groups).is_some_and(|count| count == groups.read && groups.ordered);
        if relative {
            groups.flush();
            let Some(shape) = self.relative.filter(|_| groups.known) else { return false };
            emit(SHAPE_VAR, shape);
            for &(var, value) in &groups.values {
                emit(var, value);
            }
            return true;
        }
        if let Some(&shape) = self.by_len.get(&key.len()) {
            let Shape::Bytes(vars) = &self.shapes[shape as usize] else { return false };
            emit(SHAPE_VAR, shape);
            for (&b, &v) in key.iter().zip(vars) {
                let var = &self.bytes[v];
                let value = var.index[b as usize];
                if value == UNSEEN {
                    return false;
                }
                emit(var.var, u32::from(value));
            }
            return true;
        }
        match (self.raw_shape, self.raw.find(key)) {
            (Some(shape), Some(id)) => {
                emit(SHAPE_VAR, shape);
                emit(RAW_VAR, id);
                true
            }
            _ => false,
        }
    }

    fn values_learning(&mut self, key: &[u8], values: &mut Values) {
        let mut changes = Changes::new();
        if relative_changes(key, &mut changes) {
            let shape = match self.relative {
                Some(s) => s,
                None => self.new_shape(Shape::Relative),
            };
            self.relative = Some(shape);
            values.push((SHAPE_VAR, shape));
            let mut buf = GroupBytes::new();
            for group in changes.chunk_by(|a, b| same_group(a.0, b.0)) {
                let g = self.group(group[0].0);
                put_group(group, &mut buf);
                let var = &mut self.groups[g];
                let next = var.values.len() as u32;
                let value = *var.index.entry(buf.as_slice().into()).or_insert(next);
                if value == next {
                    var.values.push(buf.as_slice().into());
                }
                values.push((var.var, value));
            }
            return;
        }
        let shape = match self.by_len.get(&key.len()) {
            Some(&s) => Some(s),
            None if key.len() <= MAX_BYTES && self.by_len.len() < MAX_BYTE_SHAPES => Some(self.bytes_shape(key.len())),
            None => None,
        };
        if let Some(shape) = shape {
            values.push((SHAPE_VAR, shape));
            let Shape::Bytes(vars) = &self.shapes[shape as usize] else { return };
            for (&b, &v) in key.iter().zip(vars) {
                let var = &mut self.bytes[v];
                if var.index[b as usize] == UNSEEN {
                    var.index[b as usize] = var.values.len() as u16;
                    var.values.push(b);
                }
                values.push((var.var, u32::from(var.index[b as usize])));
            }
            return;
        }
        let shape = match self.raw_shape {
            Some(s) => s,
            None => self.new_shape(Shape::Raw),
        };
        self.raw_shape = Some(shape);
        values.extend([(SHAPE_VAR, shape), (RAW_VAR, self.raw.insert(key).0)]);
    }

    fn new_shape(&mut self, shape: Shape) -> u32 {
        self.shapes.push(shape);
        self.shapes.len() as u32 - 1
    }

    fn bytes_shape(&mut self, len: usize) -> u32 {
        let mut vars = Vec::with_capacity(len);
        for _ in 0..len {
            let var = self.layout.push_var();
            self.bytes.push(ByteVar { var, index: [UNSEEN; 256], values: Vec::new() });
            vars.push(self.bytes.len() - 1);
        }
        let shape = self.new_shape(Shape::Bytes(vars));
        self.by_len.insert(len, shape);
        shape
    }

    /// The group of fact `k`, made if new.
    fn group(&mut self, k: FactKey) -> usize {
        let id = (k.src(), k.rel(), k.tgraph());
        if let Some(&g) = self.group_of.get(&id) {
            return g;
        }
        let var = self.layout.push_var();
        let none: Box<[u8]> = Box::default();
        let index = FxHashMap::from_iter([(none.clone(), 0)]);
        self.groups.push(GroupVar { var, src: id.0, rel: id.1, tgraph: id.2, index, values: vec![none] });
        let g = self.groups.len() - 1;
        self.group_of.insert(id, g);
        let groups = &self.groups;
        let at = self.group_order.partition_point(|&o| (groups[o].src, groups[o].rel, groups[o].tgraph) < id);
        self.group_order.insert(at, g);
        g
    }

    /// A packed key as little-endian words (at least one).
    fn words(&self, packed: &[u8]) -> Words {
        let mut words: Words = smallvec::smallvec![0; self.layout.words().max(packed.len().div_ceil(8)).max(1)];
        for (w, chunk) in words.iter_mut().zip(packed.chunks(8)) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            *w = u64::from_le_bytes(b);
        }
        words
    }

    /// The changes from the start of a packed key of a graph of the start's class (None for
    /// a key of another shape), sorted by key.
    pub fn changes(&self, packed: &[u8]) -> Option<Changes> {
        let words = self.words(packed);
        let shape = self.layout.get_words(&words, SHAPE_VAR) as usize;
        matches!(self.shapes.get(shape), Some(Shape::Relative)).then(|| self.changes_of(&words))
    }

    fn changes_of(&self, words: &[u64]) -> Changes {
        let mut changes = Changes::new();
        for &g in &self.group_order {
            let g = &self.groups[g];
            let value = self.layout.get_words(words, g.var) as usize;
            if value != 0 {
                read_group(g, &g.values[value], &mut changes);
            }
        }
        changes
    }

    /// The key a packed key stands for.
    pub fn decode(&self, packed: &[u8]) -> Vec<u8> {
        let mut key = Vec::new();
        let words = self.words(packed);
        let get = |var: usize| self.layout.get_words(&words, var);
        let shape = get(SHAPE_VAR) as usize;
        match self.shapes.get(shape) {
            Some(Shape::Relative) => put_relative(&self.changes_of(&words), &mut key),
            Some(Shape::Bytes(vars)) => match self.byte_reads.get(shape) {
                Some(Some(reads)) => {
                    key.reserve_exact(reads.len());
                    for r in reads {
                        key.push(self.bytes[r.byte_var].values[((words[r.word] >> r.shift) & r.mask) as usize]);
                    }
                }
                _ => key.extend(vars.iter().map(|&v| self.bytes[v].values[get(self.bytes[v].var) as usize])),
            },
            Some(Shape::Raw) => key.extend_from_slice(self.raw.get(get(RAW_VAR))),
            None => {}
        }
        key
    }

    /// The layout again with one field a variable, of the fewest bits for the values met;
    /// the one it replaces is returned (for repacking the keys stored with it).
    pub fn compact(&mut self) -> GrowingLayout {
        let mut sizes = vec![0u32; self.layout.len()];
        sizes[SHAPE_VAR] = self.shapes.len() as u32;
        sizes[RAW_VAR] = self.raw.len() as u32;
        for b in &self.bytes {
            sizes[b.var] = b.values.len() as u32;
        }
        for g in &self.groups {
            sizes[g.var] = g.values.len() as u32;
        }
        let old = std::mem::replace(&mut self.layout, GrowingLayout::compact(&sizes));
        self.byte_tables();
        old
    }

    /// Bytes of memory held by the dictionary (the variables' values).
    pub fn memory(&self) -> usize {
        let groups: usize = self
            .groups
            .iter()
            .map(|g| g.values.iter().map(|v| 2 * v.len() + 40).sum::<usize>() + std::mem::size_of::<GroupVar>())
            .sum();
        let bytes: usize = self.bytes.iter().map(|b| std::mem::size_of::<ByteVar>() + b.values.capacity()).sum();
        let tables: usize = self.one_word.iter().flatten().map(|t| t.positions.capacity() * 2048).sum();
        bytes + groups + tables + self.raw.memory()
    }
}

fn same_group(a: FactKey, b: FactKey) -> bool {
    (a.src(), a.rel(), a.tgraph()) == (b.src(), b.rel(), b.tgraph())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A graph state's key: the start changed by `changes` (sorted, as `Codec::pack` makes them).
    fn relative_key(changes: &[Change]) -> Vec<u8> {
        let mut key = Vec::new();
        put_relative(changes, &mut key);
        key
    }

    #[test]
    fn graph_states_come_back_byte_for_byte() {
        let f = |src, rel, tgraph, tgt, v| (FactKey::new(src, rel, tgraph, tgt), v);
        let t = Some(Logic::TRUE);
        let states: Vec<Vec<Change>> = vec![
            vec![],
            // an object moved: off one place, on another (a pair of records)
            vec![f(3, 7, 0, 10, None), f(3, 7, 0, 11, t)],
            vec![f(3, 7, 0, 10, None), f(3, 7, 0, 12, t), f(4, 7, 0, 10, None), f(4, 7, 0, 12, t)],
            // a False fact, a fuzzy one, a target in another graph
            vec![f(1, 2, 0, 3, Some(Logic::FALSE)), f(1, 2, 5, 3, t), f(2, 9, 0, 1, Some(Logic::new(0.25, 0.5)))],
            // more records than the short tag counts (the long form of the count)
            (0..300).map(|i| f(i, 1, 0, i + 1, t)).collect(),
        ];
        let mut vars = KeyVars::default();
        let mut packed = Vec::new();
        for changes in &states {
            let key = relative_key(changes);
            let mut p = Packed::new();
            assert!(!vars.encode_known(&key, &mut p), "not learnt yet");
            vars.encode_learning(&key, &mut p);
            packed.push(p);
        }
        for (changes, p) in states.iter().zip(&packed) {
            let key = relative_key(changes);
            let mut padded = p.clone();
            padded.resize(vars.width(), 0);
            assert_eq!(vars.decode(&padded), key, "{changes:?}");
            assert_eq!(vars.changes(&padded).as_deref(), Some(&changes[..]), "the changes, in key order");
            let mut again = Packed::new();
            assert!(vars.encode_known(&key, &mut again));
            assert_eq!(again, padded, "packed alike after the layout grew");
        }
        let unseen = relative_key(&[f(3, 7, 0, 10, None), f(3, 7, 0, 13, t)]);
        assert!(!vars.encode_known(&unseen, &mut Packed::new()), "a place never met");
    }

    /// Keys of bytes, packed as they are learnt and read back: by `ByteRead`s while each byte
    /// has one field, by the layout once a byte's values outgrew it (a second field).
    #[test]
    fn keys_of_bytes_come_back_byte_for_byte() {
        let mut vars = KeyVars::default();
        let mut stored: Vec<(Vec<u8>, Packed)> = Vec::new();
        // (a string's tag first, as `Codec::pack` writes keys) the first letter takes 2
        // values, then the second 2, then the first 200: its third bit on comes after the
        // second letter's bit
        let keys = [*b"\x04aa", *b"\x04ba", *b"\x04ab", *b"\x04bb"].into_iter().map(Vec::from);
        let more = (0..200u8).map(|i| vec![4, i.wrapping_add(b'c'), b'a']);
        for key in keys.chain(more).chain([b"\x04xyz".to_vec(), b"".to_vec()]) {
            let mut p = Packed::new();
            vars.encode_learning(&key, &mut p);
            stored.push((key, p));
        }
        assert!(vars.byte_reads.iter().any(Option::is_none), "a byte with two fields");
        for (key, p) in &stored {
            let mut padded = p.clone();
            padded.resize(vars.width(), 0);
            assert_eq!(&vars.decode(&padded), key);
        }
        vars.compact();
        assert!(vars.byte_reads.iter().flatten().count() == 3, "one field a byte again");
        for (key, _) in &stored {
            let mut p = Packed::new();
            assert!(vars.encode_known(key, &mut p));
            assert_eq!(&vars.decode(&p), key, "after compacting");
        }
    }
}

//! Between stored keys and live values: packing a state (in its canonical form when there is
//! symmetry) and bringing a stored state back as `Next` produced it, with its facts (the
//! symmetry renaming undone) and its name (rebuilt from the labels along its path).

use super::pack::{Codec, PackError};
use super::store::{StateId, StateStore, NONE};
use super::symmetry::Symmetry;
use crate::value::{Str, Value};
use crate::world::{Facts, World};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// A graph state's name relative to its parent's, kept per state as its label.
pub const SAME_NAME: u8 = 0;
pub const SUFFIX: u8 = 1;
pub const WHOLE: u8 = 2;

pub struct Decoder {
    pub codec: Codec,
    pub start: Value,
    pub symmetry: Option<Rc<Symmetry>>,
    /// Names of states brought back, by id, for the states at every `NAMES_EVERY`th depth:
    /// a state's name is the name of its nearest such ancestor and the labels after it, so
    /// bringing a state back walks at most that many parents, and the names kept (whole
    /// strings, a path each) are a small part of the states. Only for searches that never
    /// change a state's origin (`bfs`, `explore`).
    names: Option<RefCell<FxHashMap<StateId, Str>>>,
}

/// Names kept at most; the cache is emptied when it is full.
const NAMES_KEPT: usize = 1024;
const NAMES_EVERY: u32 = 16;

impl Decoder {
    pub fn new(start: Value, symmetry: Option<Rc<Symmetry>>) -> Decoder {
        Decoder { codec: Codec::new(&start), start, symmetry, names: None }
    }

    /// Keeps recent names: right when origins never change once set.
    pub fn cache_names(&mut self) {
        self.names = Some(RefCell::default());
    }

    /// Packs a state; with symmetry, a graph in its canonical form, its renaming back into
    /// `variant` (left empty otherwise).
    pub fn pack(&mut self, v: &Value, key: &mut Vec<u8>, variant: &mut Vec<u8>) -> Result<(), PackError> {
        variant.clear();
        match (&self.symmetry, v) {
            (Some(sym), Value::Graph(g)) => {
                self.codec.remember(g);
                let g = g.borrow();
                let (facts, back) = sym.canonical(&g.facts.to_vec());
                self.codec.pack_graph(g.class, facts, key);
                variant.extend_from_slice(&back);
                Ok(())
            }
            _ => self.codec.pack(v, key),
        }
    }

    /// The live value of stored state `id`, reached by the origins in the store.
    pub fn state(&self, store: &StateStore, world: &mut World, id: StateId) -> Value {
        match &self.start {
            Value::Graph(_) if self.symmetry.is_none() => match self.name_from_parent(store, id) {
                // (breadth-first search: the parent was brought back just before)
                Some(name) => self.codec.unpack(store.key(id), world, Some(&name)),
                None => self.state_along(store, world, &self.path_from_named(store, id), None),
            },
            Value::Graph(_) => self.state_along(store, world, &self.path_from_named(store, id), None),
            // only a graph has a name to rebuild from the path
            _ if id == 0 => self.start.clone(),
            _ => self.codec.unpack(store.key(id), world, None),
        }
    }

    /// The name of state `id` made from its parent's cached name and its label (and cached),
    /// if the parent's is cached.
    fn name_from_parent(&self, store: &StateStore, id: StateId) -> Option<Str> {
        let cache = self.names.as_ref()?;
        let parent = store.parent(id);
        let known = cache.borrow().get(&parent)?.clone();
        let label = store.label_key(store.label(id)).and_then(|l| l.split_first());
        let name = match label {
            // labels are written from names, so they are UTF-8
            Some((&SUFFIX, text)) => {
                let text = std::str::from_utf8(text).unwrap_or("");
                let mut name = Str::with_capacity(known.len() + 1 + text.len());
                name.push_str(&known);
                name.push(';');
                name.push_str(text);
                name
            }
            Some((&WHOLE, text)) => std::str::from_utf8(text).unwrap_or("").into(),
            _ => known,
        };
        keep_name(cache, store, id, &name);
        Some(name)
    }

    /// The states from the nearest ancestor of `id` whose name is cached (or from the start)
    /// to `id`: all that `name_along` needs, without walking the whole path in a deep search.
    fn path_from_named(&self, store: &StateStore, id: StateId) -> Vec<StateId> {
        let cached = |at: StateId| self.names.as_ref().is_some_and(|c| c.borrow().contains_key(&at));
        let mut path = vec![id];
        let mut at = id;
        while store.parent(at) != NONE && (at == id || !cached(at)) {
            at = store.parent(at);
            path.push(at);
        }
        path.reverse();
        path
    }

    /// The live value of the last state of `path`; `last_label` overrides its label (a goal
    /// reached by another way than its stored origin).
    pub fn state_along(
        &self,
        store: &StateStore,
        world: &mut World,
        path: &[StateId],
        last_label: Option<u32>,
    ) -> Value {
        let Some(&id) = path.last() else { return Value::None };
        if id == 0 && path.len() == 1 {
            return self.start.clone();
        }
        let name = self.name_along(store, path, last_label);
        let v = self.codec.unpack(store.key(id), world, name.as_ref());
        if let (Some(sym), Value::Graph(g)) = (&self.symmetry, &v) {
            let variant = store.variant_key(store.origin(id).variant).unwrap_or(&[]);
            let mut g = g.borrow_mut();
            let facts = sym.restore(&g.facts.to_vec(), variant);
            g.facts = Facts::from_sorted(facts);
        }
        v
    }

    /// The name of a graph state at the end of `path`, rebuilt from the labels (from the
    /// nearest ancestor whose name is cached).
    pub fn name_along(&self, store: &StateStore, path: &[StateId], last_label: Option<u32>) -> Option<Str> {
        let Value::Graph(start) = &self.start else { return None };
        let cache = self.names.as_ref().filter(|_| last_label.is_none());
        let mut name = String::with_capacity(64);
        let mut from = 1;
        match cache.and_then(|c| {
            let c = c.borrow();
            path.iter().enumerate().rev().skip(1).find_map(|(k, id)| c.get(id).map(|n| (k, n.clone())))
        }) {
            Some((k, known)) => {
                name.push_str(&known);
                from = k + 1;
            }
            None => name.push_str(&start.borrow().name.to_str()),
        }
        for (i, &id) in path.iter().enumerate().skip(from) {
            let label = match last_label {
                Some(l) if i == path.len() - 1 => l,
                _ => store.label(id),
            };
            let Some((&mode, text)) = store.label_key(label).and_then(|l| l.split_first()) else { continue };
            // labels are written from names, so they are UTF-8
            let text = std::str::from_utf8(text).unwrap_or("");
            match mode {
                SUFFIX => {
                    name.push(';');
                    name.push_str(text);
                }
                WHOLE => {
                    name.clear();
                    name.push_str(text);
                }
                _ => {}
            }
        }
        let name: Str = name.as_str().into();
        if let (Some(c), Some(&id)) = (cache, path.last()) {
            keep_name(c, store, id, &name);
        }
        Some(name)
    }

    /// The value of a packed action (None when there is none).
    pub fn action_value(&self, store: &StateStore, world: &mut World, action: u32) -> Value {
        match store.action_key(action) {
            Some(key) => self.codec.unpack(key, world, None),
            None => Value::None,
        }
    }
}

/// Keeps the name of state `id` if its depth is a multiple of `NAMES_EVERY`.
fn keep_name(cache: &RefCell<FxHashMap<StateId, Str>>, store: &StateStore, id: StateId, name: &Str) {
    if !store.depth(id).is_multiple_of(NAMES_EVERY) {
        return;
    }
    let mut c = cache.borrow_mut();
    if c.len() >= NAMES_KEPT {
        c.clear();
    }
    c.insert(id, name.clone());
}

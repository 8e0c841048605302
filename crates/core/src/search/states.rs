//! Between stored keys and live values: packing a state (in its canonical form when there is
//! symmetry) and bringing a stored state back as `Next` produced it, with its facts (the
//! symmetry renaming undone) and its name (rebuilt from the labels along its path).

use super::pack::{Codec, PackError};
use super::store::{StateId, StateStore, NONE};
use super::symmetry::Symmetry;
use crate::value::{Str, Value};
use crate::world::{Facts, Name, World};
use smallvec::SmallVec;
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
    /// The names along the path of the graph state brought back last: the next state's name
    /// is its nearest ancestor's on that path and the labels after it. States expanded one
    /// after the other share most of their path (siblings, cousins), so bringing one back
    /// applies a label or two, with memory for one path only. Only for searches that never
    /// change a state's origin (`bfs`, `explore`).
    last: Option<RefCell<LastPath>>,
}

/// A path from the start and the name of its last state, each state's name a prefix of it.
#[derive(Default)]
struct LastPath {
    /// The state at each depth, from the start; `NONE` where the name is no longer a prefix
    /// (a label that replaced the whole name came later).
    ids: Vec<StateId>,
    /// Where each state's name ends in `name`.
    ends: Vec<usize>,
    name: String,
}

impl LastPath {
    fn restart(&mut self, start: &str) {
        self.ids.clear();
        self.ends.clear();
        self.name.clear();
        self.name.push_str(start);
        self.ids.push(0);
        self.ends.push(start.len());
    }

    /// Extends the path by `id`, whose label is `label`.
    fn push(&mut self, id: StateId, label: Option<&[u8]>) {
        if let Some((&mode, text)) = label.and_then(|l| l.split_first()) {
            // labels are written from names, so they are UTF-8
            let text = std::str::from_utf8(text).unwrap_or("");
            if mode == SUFFIX {
                self.name.push(';');
                self.name.push_str(text);
            } else if mode == WHOLE {
                self.name.clear();
                self.name.push_str(text);
                self.ids.iter_mut().for_each(|i| *i = NONE);
            }
        }
        self.ids.push(id);
        self.ends.push(self.name.len());
    }
}

impl Decoder {
    pub fn new(start: Value, symmetry: Option<Rc<Symmetry>>) -> Decoder {
        Decoder { codec: Codec::new(&start), start, symmetry, last: None }
    }

    /// Keeps the last path's names: right when origins never change once set.
    pub fn cache_names(&mut self) {
        self.last = Some(RefCell::default());
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
        match (&self.start, &self.last) {
            _ if id == 0 => self.start_state(store, world),
            (Value::Graph(start), Some(last)) => {
                let name = name_by_last(&mut last.borrow_mut(), &start.borrow().name, store, id);
                self.graph_state(store, world, id, Some(&name))
            }
            (Value::Graph(_), None) => self.state_along(store, world, &store.path(id), None),
            // only a graph has a name to rebuild from the path
            _ => self.codec.unpack(&store.key(id), world, None),
        }
    }

    /// `state` for a state of the start's class whose facts are at hand (the live facts a
    /// successor had when it was packed): only its name is rebuilt, not its facts.
    pub fn state_with(&self, store: &StateStore, world: &mut World, id: StateId, facts: Facts) -> Value {
        let (Value::Graph(start), Some(last), None) = (&self.start, &self.last, &self.symmetry) else {
            return self.state(store, world, id);
        };
        if id == 0 {
            return self.start_state(store, world);
        }
        let (class, name) = {
            let start = start.borrow();
            (start.class, name_by_last(&mut last.borrow_mut(), &start.name, store, id))
        };
        self.codec.graph_with(class, world, Some(&name), facts)
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
            return self.start_state(store, world);
        }
        let name = self.name_along(store, path, last_label);
        self.graph_state(store, world, id, name.as_ref())
    }

    /// The start, as a value of its own each time: a `Next` that changes the state it is
    /// given changes a copy, never the start the stored states are packed against (issue 41).
    fn start_state(&self, store: &StateStore, world: &mut World) -> Value {
        match &self.start {
            Value::Graph(g) => Value::Graph(world.copy_graph(&g.borrow(), None)),
            _ => self.codec.unpack(&store.key(0), world, None),
        }
    }

    /// Stored state `id` (a graph, or a value holding graphs) named `name`, with the
    /// symmetry renaming undone.
    fn graph_state(&self, store: &StateStore, world: &mut World, id: StateId, name: Option<&Str>) -> Value {
        let v = match store.changes(id) {
            Some(changes) => self.codec.relative_graph(&changes, world, name),
            None => self.codec.unpack(&store.key(id), world, name),
        };
        if let (Some(sym), Value::Graph(g)) = (&self.symmetry, &v) {
            let variant = store.variant_key(store.origin(id).variant).unwrap_or(&[]);
            let mut g = g.borrow_mut();
            let facts = sym.restore(&g.facts.to_vec(), variant);
            g.facts = Facts::from_sorted(facts);
        }
        v
    }

    /// The name of a graph state at the end of `path` (from the start), rebuilt from the labels.
    pub fn name_along(&self, store: &StateStore, path: &[StateId], last_label: Option<u32>) -> Option<Str> {
        let Value::Graph(start) = &self.start else { return None };
        let mut names = LastPath::default();
        names.restart(&start.borrow().name.to_str());
        for (i, &id) in path.iter().enumerate().skip(1) {
            let label = match last_label {
                Some(l) if i == path.len() - 1 => l,
                _ => store.label(id),
            };
            names.push(id, store.label_key(label));
        }
        Some(crate::value::text::copied(&names.name))
    }

    /// The value of a packed action (None when there is none).
    pub fn action_value(&self, store: &StateStore, world: &mut World, action: u32) -> Value {
        match store.action_key(action) {
            Some(key) => self.codec.unpack(key, world, None),
            None => Value::None,
        }
    }
}

/// The name of stored state `id` (not the start), from the nearest of its ancestors on `last`,
/// which then becomes the path to `id`.
fn name_by_last(last: &mut LastPath, start: &Name, store: &StateStore, id: StateId) -> Str {
    if last.ids.is_empty() {
        last.restart(&start.to_str());
    }
    // the ancestors of `id` that are not on the path, nearest first
    let mut up: SmallVec<[StateId; 8]> = SmallVec::new();
    let (mut at, mut depth) = (id, store.depth(id) as usize);
    loop {
        // (a parent is one shallower: origins never change here)
        if last.ids.get(depth) == Some(&at) {
            last.ids.truncate(depth + 1);
            last.ends.truncate(depth + 1);
            last.name.truncate(last.ends[depth]);
            break;
        }
        if store.parent(at) == NONE {
            last.restart(&start.to_str());
            break;
        }
        up.push(at);
        at = store.parent(at);
        depth = depth.saturating_sub(1);
    }
    for &s in up.iter().rev() {
        last.push(s, store.label_key(store.label(s)));
    }
    crate::value::text::copied(&last.name)
}

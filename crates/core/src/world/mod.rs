//! The world model: node classes shared by the graphs (states) made from one another, relation
//! types, and graph states whose edges are three-valued facts.

pub mod clause;
pub mod facts;
mod name;
mod packed;
mod path;
pub mod print;

pub use facts::{Fact, FactKey, Facts, GraphUid, NodeId, RelId};
pub use name::Name;
pub use packed::Word;
pub use path::IsaColumn;

use crate::value::Logic;
use crate::value::Str;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::{Rc, Weak};

pub type ClassId = u32;
/// An interned name (node names are looked up by symbol, never by string, while running).
pub type Sym = u32;
pub type GraphRef = Rc<RefCell<Graph>>;

/// The relations every script has; user relations are numbered after them.
pub const BUILTIN_RELATIONS: [&str; 6] = ["isa", "attr", "has", "obj", "sub", "unit"];
pub const ISA: RelId = 1;

#[derive(Default, Debug)]
pub struct Interner {
    by_name: FxHashMap<Rc<str>, Sym>,
    names: Vec<Rc<str>>,
}

impl Interner {
    pub fn intern(&mut self, name: &str) -> Sym {
        if let Some(&s) = self.by_name.get(name) {
            return s;
        }
        let s = self.names.len() as Sym;
        let rc: Rc<str> = name.into();
        self.names.push(rc.clone());
        self.by_name.insert(rc, s);
        s
    }
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.by_name.get(name).copied()
    }
    pub fn name(&self, s: Sym) -> &Rc<str> {
        &self.names[s as usize]
    }
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// The names in the order they were interned (by symbol).
    pub fn iter(&self) -> std::slice::Iter<'_, Rc<str>> {
        self.names.iter()
    }
}

impl std::ops::Index<usize> for Interner {
    type Output = Rc<str>;
    fn index(&self, i: usize) -> &Rc<str> {
        &self.names[i]
    }
}

/// The node list shared by all graphs of one class. Node ids start at 1.
#[derive(Default, Debug)]
pub struct NodeClass {
    names: Vec<Rc<str>>,
    by_sym: FxHashMap<Sym, NodeId>,
    /// The closed-world flag of `G.closed_world(...)`, shared by every graph of the class.
    pub closed: bool,
    /// `delete_nodes` emptied the class and moved its graphs to a new one: a node of this
    /// class that a variable still holds is a deleted node.
    pub deleted: bool,
}

impl NodeClass {
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    /// The name of a node; `?` for an id that is not a node of the class.
    pub fn name(&self, id: NodeId) -> &str {
        let i = (id as usize).checked_sub(1);
        i.and_then(|i| self.names.get(i)).map_or("?", |n| n)
    }
    pub fn lookup(&self, sym: Sym) -> Option<NodeId> {
        self.by_sym.get(&sym).copied()
    }
    pub fn ids(&self) -> std::ops::RangeInclusive<NodeId> {
        self.first()..=self.last()
    }
    /// The id of the first node.
    pub fn first(&self) -> NodeId {
        1
    }
    /// The id of the last node (0 when there is none).
    pub fn last(&self) -> NodeId {
        self.names.len() as NodeId
    }
    /// Whether `id` is a node of the class.
    pub fn contains(&self, id: NodeId) -> bool {
        id >= 1 && id <= self.last()
    }
    /// The id of the `i`-th node (1-based), as `G[i]` reads it.
    pub fn nth(&self, i: usize) -> Option<NodeId> {
        (i >= 1 && i <= self.names.len()).then_some(i as NodeId)
    }
}

/// One world state.
#[derive(Debug)]
pub struct Graph {
    pub uid: GraphUid,
    pub class: ClassId,
    pub name: Name,
    /// 0: silent; 1: notes on changed and deleted edges; 2: also on new edges (to stderr).
    pub verbose: u8,
    pub facts: Facts,
    /// Node values, attributes, axioms and flags: shared with copies until one changes them
    /// (`Rc::make_mut`), so that a copy costs one pointer for all of them.
    pub data: Rc<StateData>,
    /// Edge changes made through the script (edge statements and methods) since the state was
    /// made, or since `G.edges_changes(n)` set the count: counted only by the methods below.
    changes: u64,
    /// `changes` when `G.changed()` last asked.
    seen_changes: u64,
    /// The world's list of its graphs, and this graph's place in it (left when it is dropped).
    registry: Rc<RefCell<Registry>>,
    slot: u32,
}

impl Drop for Graph {
    fn drop(&mut self) {
        // Borrowed only while `delete_nodes` lists the graphs, which drops none of them; if it
        // ever were, the dead entry would just stay.
        if let Ok(mut r) = self.registry.try_borrow_mut() {
            r.remove(self.slot);
        }
    }
}

/// Every live graph of a world, weakly, so that `delete_nodes` reaches every state of a class.
/// A graph leaves it when it is dropped, so its memory is freed at once.
#[derive(Debug, Default)]
pub struct Registry {
    graphs: Vec<Weak<RefCell<Graph>>>,
    free: Vec<u32>,
}

impl Registry {
    fn insert(&mut self, g: Weak<RefCell<Graph>>) -> u32 {
        match self.free.pop() {
            Some(i) => {
                self.graphs[i as usize] = g;
                i
            }
            None => {
                self.graphs.push(g);
                (self.graphs.len() - 1) as u32
            }
        }
    }

    fn remove(&mut self, slot: u32) {
        if let Some(w) = self.graphs.get_mut(slot as usize) {
            *w = Weak::new();
            self.free.push(slot);
        }
    }

    fn live(&self) -> Vec<GraphRef> {
        self.graphs.iter().filter_map(Weak::upgrade).collect()
    }
}

/// An attribute's place: (node, class of the attribute node, attribute node).
pub type AttrKey = (NodeId, ClassId, NodeId);

/// What a state carries besides its facts. None of it takes part in equality.
#[derive(Debug, Clone, Default)]
pub struct StateData {
    /// Values stored on nodes with `N.value(V)`.
    pub values: FxHashMap<NodeId, crate::value::Value>,
    /// Attributes `N[A] = V`: (node, attribute class, attribute node) to the attribute node as
    /// it was given (with its binding, for printing) and the value.
    pub attrs: std::collections::BTreeMap<AttrKey, (crate::value::Value, crate::value::Value)>,
    /// Axioms stated for this graph by top-level `A -> B` / `A | B` statements.
    pub axioms: Vec<Rc<clause::Clause>>,
    /// `G.senses_graph(S)`: a node constant not found in this graph's class is looked up in S.
    pub senses: Option<GraphRef>,
    /// `G.edges_blocked(1)`: setting an edge does not change an existing one (new ones are added).
    pub blocked: bool,
    /// `G.sorted(n)`: kept for the original's scripts; facts are always sorted.
    pub sorted: f64,
}

impl Graph {
    /// Sets an edge as the script does: a graph with blocked edges keeps an existing edge as it
    /// is (a new one is still added), and every change is counted. Returns (old, new) values.
    pub fn set_edge(&mut self, key: FactKey, value: Logic) -> (Logic, Logic) {
        if self.data.blocked && self.facts.contains(key) {
            let v = self.facts.get(key);
            return (v, v);
        }
        let old = self.facts.set(key, value);
        if old != value {
            self.changes += 1;
        }
        (old, value)
    }

    /// The node values, attributes, axioms and flags, to change: copied first when a copy of
    /// the state still shares them (copy-on-write, in this one place).
    pub fn data_mut(&mut self) -> &mut StateData {
        Rc::make_mut(&mut self.data)
    }

    /// Removes every edge, each counted as a change.
    pub fn clear_edges(&mut self) {
        self.changes += self.facts.len() as u64;
        self.facts.clear();
    }

    /// Removes the edges `gone` picks, each counted as a change.
    fn remove_edges_where(&mut self, gone: impl FnMut(&Fact) -> bool) {
        let removed = self.facts.remove_where(gone);
        self.changes += removed as u64;
    }

    /// The edge changes counted (`G.edges_changes()`).
    pub fn changes(&self) -> u64 {
        self.changes
    }

    /// Sets the count of edge changes (`G.edges_changes(n)`).
    pub fn set_changes(&mut self, n: u64) {
        self.changes = n;
        self.seen_changes = self.seen_changes.min(n);
    }

    /// Whether an edge changed since the last time this was asked (`G.changed()`).
    pub fn take_changed(&mut self) -> bool {
        let changed = self.changes != self.seen_changes;
        self.seen_changes = self.changes;
        changed
    }
}

impl PartialEq for Graph {
    /// Content equality: the same class and the same facts; names and flags do not count.
    fn eq(&self, other: &Graph) -> bool {
        self.class == other.class && self.facts == other.facts
    }
}

/// Where an edge goes: a node of the graph that holds the edge, or of another graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    pub graph: GraphUid,
    pub node: NodeId,
}

pub struct World {
    pub symbols: Interner,
    /// The relation types by id, in the same kind of interner as node names (id 0 is "", no
    /// relation).
    pub relations: Interner,
    pub classes: Vec<NodeClass>,
    /// Graphs that some edge points into, so that paths can cross into them.
    linked: FxHashMap<GraphUid, Weak<RefCell<Graph>>>,
    next_uid: GraphUid,
    /// Answers of `N.isa(C)` by `isa` structure (see `path.rs`).
    isa_answers: path::IsaAnswers,
    /// Every live graph, for `delete_nodes` (which must reach every state of a class).
    registry: Rc<RefCell<Registry>>,
    /// The data of a state that has none, shared by all such states.
    no_data: Rc<StateData>,
    /// Graphs being printed (`print.rs`): a node value that holds (or contains) a graph prints
    /// that graph only as its name, so no value can make a dump endless.
    printing: std::cell::Cell<u32>,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    /// How many relations, classes and nodes there are: what a search on several threads
    /// needs to stay the same while `Next` runs (node and relation numbers are in its keys).
    pub fn shape(&self) -> [usize; 3] {
        [self.relations.len(), self.classes.len(), self.classes.iter().map(NodeClass::len).sum()]
    }

    pub fn new() -> World {
        let mut w = World {
            symbols: Interner::default(),
            relations: Interner::default(),
            classes: Vec::new(),
            linked: FxHashMap::default(),
            isa_answers: Default::default(),
            next_uid: 1,
            registry: Rc::default(),
            no_data: Rc::default(),
            printing: Default::default(),
        };
        w.relations.intern(""); // id 0: no relation
        for r in BUILTIN_RELATIONS {
            w.declare_relation(r);
        }
        w
    }

    /// Declares a relation type; redeclaring one is harmless and returns the same id.
    pub fn declare_relation(&mut self, name: &str) -> RelId {
        self.relations.intern(name)
    }

    pub fn relation(&self, name: &str) -> Option<RelId> {
        self.relations.get(name).filter(|&id| id != 0)
    }

    pub fn relation_name(&self, id: RelId) -> &Rc<str> {
        self.relations.name(id)
    }

    /// `GRAPH("name")`: an empty graph in a new class.
    pub fn new_graph(&mut self, name: &str) -> GraphRef {
        let class = self.classes.len() as ClassId;
        self.classes.push(NodeClass::default());
        let data = self.no_data.clone();
        self.make_graph(class, Name::new(name.into()), 0, Facts::default(), data)
    }

    /// `G.copy()`: a new state of the same class with the same facts (shared until changed),
    /// node values, attributes and flags; its count of changes starts at 0.
    pub fn copy_graph(&mut self, g: &Graph, name: Option<Str>) -> GraphRef {
        let name = name.map_or_else(|| g.name.clone(), Name::new);
        self.make_graph(g.class, name, g.verbose, g.facts.clone(), g.data.clone())
    }

    /// A new state of `g`'s class with the given facts and g's axioms (graph `+` and `-`,
    /// models).
    pub fn graph_with_facts(&mut self, g: &Graph, facts: Facts) -> GraphRef {
        let data = if g.data.axioms.is_empty() {
            self.no_data.clone()
        } else {
            Rc::new(StateData { axioms: g.data.axioms.clone(), ..StateData::default() })
        };
        self.make_graph(g.class, g.name.clone(), g.verbose, facts, data)
    }

    fn make_graph(&mut self, class: ClassId, name: Name, verbose: u8, facts: Facts, data: Rc<StateData>) -> GraphRef {
        let uid = self.next_uid;
        self.next_uid = self.next_uid.wrapping_add(1).max(1);
        let g = Rc::new(RefCell::new(Graph {
            uid,
            class,
            name,
            verbose,
            facts,
            data,
            changes: 0,
            seen_changes: 0,
            registry: self.registry.clone(),
            slot: u32::MAX,
        }));
        let slot = self.registry.borrow_mut().insert(Rc::downgrade(&g));
        g.borrow_mut().slot = slot;
        g
    }

    /// `delete_nodes`: removes every node of `class` from every graph of it, with their edges,
    /// values and attributes; edges of other graphs into those graphs and attributes named by
    /// its nodes go too. The graphs move to a new, empty class (with the same closed-world
    /// flag): the old class is left empty and marked deleted, so that a node of it that a
    /// variable still holds is recognised, and never taken for a node added later. Returns
    /// false, changing nothing, if a graph is in use (borrowed), which the interpreter never
    /// leaves so while a builtin runs.
    pub fn delete_nodes(&mut self, class: ClassId) -> bool {
        let live = self.registry.borrow().live();
        if live.iter().any(|g| g.try_borrow_mut().is_err()) {
            return false;
        }
        let fresh = self.classes.len() as ClassId;
        let closed = self.classes[class as usize].closed;
        self.classes.push(NodeClass { closed, ..NodeClass::default() });
        let mut uids = rustc_hash::FxHashSet::default();
        for g in &live {
            let mut g = g.borrow_mut();
            if g.class == class {
                uids.insert(g.uid);
                // Also when empty: the state's class changes, and the indexes that filed it
                // by (class, hash) must hear of it.
                g.clear_edges();
                g.class = fresh;
                let data = g.data_mut();
                data.values.clear();
                data.attrs.clear();
            }
        }
        for g in &live {
            let mut g = g.borrow_mut();
            if g.class != class {
                g.remove_edges_where(|f| uids.contains(&f.key.tgraph()));
                if g.data.attrs.keys().any(|k| k.1 == class) {
                    g.data_mut().attrs.retain(|k, _| k.1 != class);
                }
            }
        }
        let old = &mut self.classes[class as usize];
        old.names.clear();
        old.by_sym.clear();
        old.deleted = true;
        facts::bump_isa_epoch();
        self.isa_answers = Default::default();
        true
    }

    pub fn class(&self, id: ClassId) -> &NodeClass {
        &self.classes[id as usize]
    }

    /// Adds a node to a class (and so to every graph of it); an existing name keeps its node.
    pub fn add_node(&mut self, class: ClassId, name: &str) -> NodeId {
        let sym = self.symbols.intern(name);
        let c = &mut self.classes[class as usize];
        if let Some(id) = c.lookup(sym) {
            return id;
        }
        c.names.push(name.into());
        let id = c.last();
        c.by_sym.insert(sym, id);
        id
    }

    /// Adds an unnamed node; it is named by its id.
    pub fn add_unnamed_node(&mut self, class: ClassId) -> NodeId {
        let id = self.classes[class as usize].len() as NodeId + 1;
        self.add_node(class, &id.to_string())
    }

    /// Finds a node by symbol, trying `alt` (the name without `$`) when the first is absent.
    pub fn find_node(&self, class: ClassId, sym: Sym, alt: Option<Sym>) -> Option<NodeId> {
        let c = self.class(class);
        c.lookup(sym).or_else(|| alt.and_then(|a| c.lookup(a)))
    }

    /// Remembers `g` as the target of an edge from another graph.
    pub fn link(&mut self, g: &GraphRef) {
        let graph = g.borrow();
        if graph.facts.is_linked() {
            return; // already in `linked` (the flag is set only here)
        }
        // New paths open through this graph: remembered `isa` answers may change.
        graph.facts.mark_linked();
        facts::bump_isa_epoch();
        self.linked.entry(graph.uid).or_insert_with(|| Rc::downgrade(g));
    }

    pub fn linked_graph(&self, uid: GraphUid) -> Option<GraphRef> {
        self.linked.get(&uid).and_then(Weak::upgrade)
    }

    /// The name of a node of graph `uid` as an edge target prints it (`Sen.$human`).
    pub fn external_name(&self, uid: GraphUid, node: NodeId) -> String {
        match self.linked_graph(uid) {
            Some(g) => {
                let g = g.borrow();
                let class = self.class(g.class);
                let n = if class.contains(node) { class.name(node).to_string() } else { "?".to_string() };
                format!("{}.{}", g.name, n)
            }
            None => format!("?.{node}"),
        }
    }
}

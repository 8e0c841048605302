//! The world model: node classes shared by the graphs (states) made from one another, relation
//! types, and graph states whose edges are three-valued facts.

pub mod facts;
mod path;
pub mod print;

pub use facts::{Fact, FactKey, Facts, GraphUid, NodeId, RelId};

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
}

/// The node list shared by all graphs of one class. Node ids start at 1.
#[derive(Default, Debug)]
pub struct NodeClass {
    names: Vec<Rc<str>>,
    by_sym: FxHashMap<Sym, NodeId>,
}

impl NodeClass {
    pub fn len(&self) -> usize {
        self.names.len()
    }
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
    pub fn name(&self, id: NodeId) -> &Rc<str> {
        &self.names[id as usize - 1]
    }
    pub fn lookup(&self, sym: Sym) -> Option<NodeId> {
        self.by_sym.get(&sym).copied()
    }
    pub fn ids(&self) -> impl Iterator<Item = NodeId> {
        1..=self.names.len() as NodeId
    }
}

/// One world state.
#[derive(Debug, Clone)]
pub struct Graph {
    pub uid: GraphUid,
    pub class: ClassId,
    pub name: Rc<str>,
    /// 0: silent; 1: notes on changed and deleted edges; 2: also on new edges (to stderr).
    pub verbose: u8,
    pub facts: Facts,
    /// Values stored on nodes with `N.value(V)`; shared with copies until one changes them.
    /// They do not take part in equality.
    pub values: Rc<FxHashMap<NodeId, crate::value::Value>>,
    /// Axioms stated for this graph by top-level `A -> B` / `A | B` statements; copies share
    /// them. They do not take part in equality.
    pub axioms: Rc<Vec<Rc<crate::mind::Clause>>>,
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
    pub relations: Vec<Rc<str>>,
    relation_ids: FxHashMap<Rc<str>, RelId>,
    pub classes: Vec<NodeClass>,
    /// Graphs that some edge points into, so that paths can cross into them.
    linked: FxHashMap<GraphUid, Weak<RefCell<Graph>>>,
    next_uid: GraphUid,
    /// Answers of `N.isa(C)` by `isa` structure (see `path.rs`).
    isa_answers: path::IsaAnswers,
}

impl Default for World {
    fn default() -> Self {
        World::new()
    }
}

impl World {
    pub fn new() -> World {
        let mut w = World {
            symbols: Interner::default(),
            relations: vec!["".into()],
            relation_ids: FxHashMap::default(),
            classes: Vec::new(),
            linked: FxHashMap::default(),
            isa_answers: Default::default(),
            next_uid: 1,
        };
        for r in BUILTIN_RELATIONS {
            w.declare_relation(r);
        }
        w
    }

    /// Declares a relation type; redeclaring one is harmless and returns the same id.
    pub fn declare_relation(&mut self, name: &str) -> RelId {
        if let Some(&id) = self.relation_ids.get(name) {
            return id;
        }
        let id = self.relations.len() as RelId;
        let rc: Rc<str> = name.into();
        self.relations.push(rc.clone());
        self.relation_ids.insert(rc, id);
        id
    }

    pub fn relation(&self, name: &str) -> Option<RelId> {
        self.relation_ids.get(name).copied()
    }

    pub fn relation_name(&self, id: RelId) -> &Rc<str> {
        &self.relations[id as usize]
    }

    /// `GRAPH("name")`: an empty graph in a new class.
    pub fn new_graph(&mut self, name: &str) -> GraphRef {
        let class = self.classes.len() as ClassId;
        self.classes.push(NodeClass::default());
        self.make_graph(class, name.into(), 0, Facts::default())
    }

    /// `G.copy()`: a new state of the same class with the same facts (shared until changed).
    pub fn copy_graph(&mut self, g: &Graph, name: Option<Rc<str>>) -> GraphRef {
        let name = name.unwrap_or_else(|| g.name.clone());
        let copy = self.make_graph(g.class, name, g.verbose, g.facts.clone());
        copy.borrow_mut().values = g.values.clone();
        copy.borrow_mut().axioms = g.axioms.clone();
        copy
    }

    /// A new state of `g`'s class with the given facts and g's axioms (graph `+` and `-`,
    /// models).
    pub fn graph_with_facts(&mut self, g: &Graph, facts: Facts) -> GraphRef {
        let new = self.make_graph(g.class, g.name.clone(), g.verbose, facts);
        new.borrow_mut().axioms = g.axioms.clone();
        new
    }

    fn make_graph(&mut self, class: ClassId, name: Rc<str>, verbose: u8, facts: Facts) -> GraphRef {
        let uid = self.next_uid;
        self.next_uid = self.next_uid.wrapping_add(1).max(1);
        Rc::new(RefCell::new(Graph { uid, class, name, verbose, facts, values: Rc::default(), axioms: Rc::default() }))
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
        let id = c.names.len() as NodeId;
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
                let n = if (node as usize) <= class.len() { class.name(node).to_string() } else { node.to_string() };
                format!("{}.{}", g.name, n)
            }
            None => format!("?.{node}"),
        }
    }
}

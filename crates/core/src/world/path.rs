//! `isa` paths: the truest value of a chain of edges from one node to another, across graphs.

use super::{facts, GraphRef, GraphUid, NodeId, RelId, Target, World, ISA};
use crate::value::Logic;
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};
use std::rc::Rc;

type Place = (GraphUid, NodeId);

/// Answers of `N.isa(C)` remembered by the `isa` structure of the state asked. Search scripts
/// ask `X.isa(Sen=>$human)` of every node of every state, and all their states share one `isa`
/// structure: the path search then runs once per question instead of once per state.
///
/// An answer depends on the `isa` facts of the state (its `isa_hash` is in the key) and of the
/// linked graphs the path crosses (a change of those moves `facts::isa_epoch`, which empties
/// the table).
#[derive(Default)]
pub(super) struct IsaAnswers {
    answers: FxHashMap<IsaQuestion, Logic>,
    /// Whole columns, for the node loops (`for X in X.isa(C) & ...`).
    columns: FxHashMap<ColumnQuestion, Rc<IsaColumn>>,
    epoch: u64,
}

/// (class, isa_hash of the state, from, target graph, target node, target graph is the state)
type IsaQuestion = (u32, u64, NodeId, GraphUid, NodeId, bool);
/// An `IsaQuestion` without `from`: the question asked of every node.
type ColumnQuestion = (u32, u64, GraphUid, NodeId, bool);

/// `N.isa(C)` for every node N of a state's class: the loops over nodes whose condition starts
/// with `X.isa(C)` (the seed's `for H in H.isa(Sen=>$human)`) read it instead of asking each
/// node, and visit only the nodes in `trues`.
#[derive(Debug)]
pub struct IsaColumn {
    /// The value for node id `i + 1`.
    pub values: Box<[Logic]>,
    /// The nodes whose value is True, in creation order.
    pub trues: Box<[NodeId]>,
}

impl IsaAnswers {
    const MAX: usize = 1 << 16;
    /// Columns are kept for classes of at most this many nodes (a column costs 16 bytes a node).
    pub const MAX_COLUMN: usize = 1 << 16;

    /// Forgets every answer when the linked graphs' `isa` facts changed (or the table is full).
    fn refresh(&mut self) {
        if self.epoch != facts::isa_epoch() || self.answers.len() >= Self::MAX || self.columns.len() >= 256 {
            self.answers.clear();
            self.columns.clear();
            self.epoch = facts::isa_epoch();
        }
    }
}

impl World {
    /// `N.isa(C)` (`rels` is `[ISA]`) or `N.path(rels, C)`: the truest value of a path of edges
    /// along `rels` from `from` to `to`, where a path's value is the `&` of its edges; Undef when
    /// there is no path at all. With it, the number of edges looked at (work for the limits: a
    /// path may run through every edge of a large graph).
    pub fn path_value(&mut self, start: &GraphRef, from: NodeId, rels: &[RelId], to: Target) -> (Logic, u64) {
        if rels != [ISA] {
            return self.search_path(start, from, rels, to);
        }
        let question = {
            let g = start.borrow();
            (g.class, g.facts.isa_hash(), from, to.graph, to.node, to.graph == g.uid)
        };
        if let Some(v) = direct_isa(start, from, to) {
            return (v, 0);
        }
        self.isa_answers.refresh();
        if let Some(&v) = self.isa_answers.answers.get(&question) {
            return (v, 0);
        }
        let (v, work) = self.search_path(start, from, rels, to);
        self.isa_answers.answers.insert(question, v);
        (v, work)
    }

    /// `N.isa(to)` for every node N of `holder`'s class (at most `IsaAnswers::MAX_COLUMN` nodes,
    /// else None), remembered like single answers.
    pub fn isa_column(&mut self, holder: &GraphRef, to: Target) -> Option<Rc<IsaColumn>> {
        let (class, question) = {
            let g = holder.borrow();
            (g.class, (g.class, g.facts.isa_hash(), to.graph, to.node, to.graph == g.uid))
        };
        let len = self.class(class).len();
        if len > IsaAnswers::MAX_COLUMN {
            return None;
        }
        self.isa_answers.refresh();
        if let Some(c) = self.isa_answers.columns.get(&question) {
            if c.values.len() == len {
                return Some(c.clone());
            }
        }
        let values: Box<[Logic]> = (1..=len as NodeId).map(|id| self.path_value(holder, id, &[ISA], to).0).collect();
        let trues = (1..=len as NodeId).filter(|&id| values[id as usize - 1].is_true()).collect();
        let column = Rc::new(IsaColumn { values, trues });
        self.isa_answers.refresh();
        self.isa_answers.columns.insert(question, column.clone());
        Some(column)
    }

    fn search_path(&self, start: &GraphRef, from: NodeId, rels: &[RelId], to: Target) -> (Logic, u64) {
        let start_uid = start.borrow().uid;
        let mut best = Best::default();
        let mut work: SmallVec<[(GraphUid, NodeId, Logic); 8]> = smallvec![(start_uid, from, Logic::TRUE)];
        let mut result: Option<Logic> = None;
        let mut looked = 0u64;
        while let Some((uid, node, value)) = work.pop() {
            let linked;
            let graph = if uid == start_uid {
                start
            } else {
                match self.linked_graph(uid) {
                    Some(g) => {
                        linked = g;
                        &linked
                    }
                    None => continue,
                }
            };
            let g = graph.borrow();
            for &rel in rels {
                for fact in g.facts.outgoing_rel(node, rel) {
                    looked += 1;
                    let tuid = if fact.key.tgraph() == 0 { uid } else { fact.key.tgraph() };
                    let v = value.and(fact.value);
                    let key = (tuid, fact.key.tgt());
                    if tuid == to.graph && fact.key.tgt() == to.node {
                        if v.is_true() {
                            return (v, looked); // nothing is truer: the search is over
                        }
                        result = Some(match result {
                            Some(r) if r.cmp_truth(v).is_ge() => r,
                            _ => v,
                        });
                    }
                    if best.improve(key, v) {
                        work.push((tuid, fact.key.tgt(), v));
                    }
                }
            }
        }
        (result.unwrap_or(Logic::UNDEF), looked)
    }
}

/// A True `isa` fact from `from` straight to `to`: nothing is truer, so no path need be searched.
fn direct_isa(start: &GraphRef, from: NodeId, to: Target) -> Option<Logic> {
    let g = start.borrow();
    let tgraph = if to.graph == g.uid { 0 } else { to.graph };
    let found = g
        .facts
        .outgoing_rel(from, ISA)
        .any(|f| f.key.tgraph() == tgraph && f.key.tgt() == to.node && f.value.is_true());
    found.then_some(Logic::TRUE)
}

/// The truest value found so far for each node reached. Class hierarchies are shallow, so a
/// short list serves (a hash map would cost an allocation per `isa`); a long one spills over.
#[derive(Default)]
struct Best {
    few: SmallVec<[(Place, Logic); 8]>,
    many: FxHashMap<Place, Logic>,
}

impl Best {
    const FEW: usize = 16;

    /// Records `v` for `key` when it is truer than what is known; true if it was.
    fn improve(&mut self, key: Place, v: Logic) -> bool {
        let old = match self.few.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => Some(old),
            None => self.many.get_mut(&key),
        };
        if let Some(old) = old {
            let truer = v.cmp_truth(*old).is_gt();
            if truer {
                *old = v;
            }
            return truer;
        }
        if self.few.len() < Self::FEW {
            self.few.push((key, v));
        } else {
            self.many.insert(key, v);
        }
        true
    }
}

//! `isa` paths: the truest value of a chain of edges from one node to another, across graphs.

use super::{FactKey, GraphRef, GraphUid, NodeId, RelId, Target, World};
use crate::value::Logic;
use rustc_hash::FxHashMap;
use smallvec::{smallvec, SmallVec};

type Place = (GraphUid, NodeId);

impl World {
    /// `N.isa(C)`: the truest value of a path of `isa` edges from `from` to `to`, where a path's
    /// value is the `&` of its edges; Undef when there is no path at all.
    pub fn path_value(&self, start: &GraphRef, from: NodeId, rels: &[RelId], to: Target) -> Logic {
        let start_uid = start.borrow().uid;
        if direct_edge_is_true(start, from, rels, to) {
            return Logic::TRUE; // nothing is truer: no need to search
        }
        let mut best = Best::default();
        let mut work: SmallVec<[(GraphUid, NodeId, Logic); 8]> = smallvec![(start_uid, from, Logic::TRUE)];
        let mut result: Option<Logic> = None;
        while let Some((uid, node, value)) = work.pop() {
            let graph = if uid == start_uid { Some(start.clone()) } else { self.linked_graph(uid) };
            let Some(graph) = graph else { continue };
            let g = graph.borrow();
            for &rel in rels {
                for fact in g.facts.outgoing_rel(node, rel) {
                    let tuid = if fact.key.tgraph() == 0 { uid } else { fact.key.tgraph() };
                    let v = value.and(fact.value);
                    let key = (tuid, fact.key.tgt());
                    if tuid == to.graph && fact.key.tgt() == to.node {
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
            if result.is_some_and(Logic::is_true) {
                break;
            }
        }
        result.unwrap_or(Logic::UNDEF)
    }
}

/// Is there a True edge straight from `from` to `to` along one of `rels`? (The common case of
/// `N.isa(C)` with N declared as a C.)
fn direct_edge_is_true(start: &GraphRef, from: NodeId, rels: &[RelId], to: Target) -> bool {
    let g = start.borrow();
    let tgraph = if to.graph == g.uid { 0 } else { to.graph };
    rels.iter().any(|&rel| g.facts.get(FactKey::new(from, rel, tgraph, to.node)).is_true())
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

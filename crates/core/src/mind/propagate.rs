//! Unit propagation: for every ground instance of a clause whose literals are all False but
//! one, and that one Undef, set its edge so that the clause holds; when all are False, the
//! axioms contradict the graph. Passes repeat until nothing more follows.

use super::clause::{Atom, Clause};
use super::ground::{edge_key, value, Binding, Grounder, Index};
use crate::value::Logic;
use crate::world::{FactKey, Facts, NodeId};
use rustc_hash::FxHashMap;
use std::ops::ControlFlow;
use std::rc::Rc;

/// The axioms to apply to one graph, with the grounding options.
pub struct Rules {
    pub clauses: Vec<Rc<Clause>>,
    /// Nodes are 1..=n.
    pub n: NodeId,
    pub distinct: bool,
    /// Whether to give up a long pass; the `tick` of `propagate` then reports why.
    pub stop: Option<Rc<dyn Fn() -> bool>>,
}

/// An edge set by inference, and the clause (index in `Rules::clauses`) that set it.
#[derive(Debug, Clone, Copy)]
pub struct Derived {
    pub key: FactKey,
    pub value: bool,
    pub clause: usize,
}

/// The axioms contradict the graph: every literal of a ground instance of this clause is False
/// (or two instances demand opposite values of one edge).
#[derive(Debug, Clone, Copy)]
pub struct Conflict {
    pub clause: usize,
}

/// The edges a pass asks for: for each edge and value, the first clause that asked. Many
/// ground instances can ask for one edge (a clause joining long chains of facts has very many),
/// so asks are merged as they come instead of listed.
#[derive(Default)]
struct Asks(FxHashMap<FactKey, [Option<usize>; 2]>);

impl Asks {
    fn push(&mut self, d: Derived) {
        let slot = &mut self.0.entry(d.key).or_default()[d.value as usize];
        slot.get_or_insert(d.clause);
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The edges to set, in key order; when two instances ask for opposite values of one edge,
    /// a contradiction (of the first clause that asked for True, at the first such edge).
    fn settle(self) -> Result<Vec<Derived>, Conflict> {
        let mut asks: Vec<_> = self.0.into_iter().collect();
        asks.sort_unstable_by_key(|a| a.0);
        let mut out = Vec::with_capacity(asks.len());
        for (key, [no, yes]) in asks {
            match (no, yes) {
                (Some(_), Some(clause)) => return Err(Conflict { clause }),
                (Some(clause), None) => out.push(Derived { key, value: false, clause }),
                (None, Some(clause)) => out.push(Derived { key, value: true, clause }),
                (None, None) => {}
            }
        }
        Ok(out)
    }
}

/// What a pass found.
enum Pass {
    Asks(Asks),
    Conflict(Conflict),
    Stopped,
}

/// What one look at a ground instance found.
enum Found {
    Nothing,
    Set(Derived),
    Conflict,
}

impl Rules {
    /// Sets edges of `facts` until no clause fires (at most `max_passes` passes: `set(...)`
    /// makes one). The edges set, in the order they were set; on a contradiction, `facts`
    /// holds what was set before it. `tick` is called once a pass (Ctrl-C, time limits).
    pub fn propagate<E>(
        &self,
        facts: &mut Facts,
        max_passes: Option<usize>,
        tick: &mut dyn FnMut() -> Result<(), E>,
    ) -> Result<Result<Vec<Derived>, Conflict>, E> {
        let mut derived = Vec::new();
        let mut passes = 0;
        while max_passes.is_none_or(|m| passes < m) {
            tick()?;
            passes += 1;
            let pending = match self.pass(facts) {
                Pass::Asks(p) => p,
                Pass::Conflict(c) => return Ok(Err(c)),
                // `stop` said so: `tick` reports the interrupt or the time limit.
                Pass::Stopped => {
                    passes -= 1;
                    continue;
                }
            };
            if pending.is_empty() {
                break;
            }
            let pending = match pending.settle() {
                Ok(p) => p,
                Err(c) => return Ok(Err(c)),
            };
            for d in pending {
                facts.set(d.key, Logic::from_bool(d.value));
                derived.push(d);
            }
        }
        Ok(Ok(derived))
    }

    fn grounder<'a>(&'a self, facts: &'a Facts, index: &'a Index) -> Grounder<'a> {
        Grounder::new(facts, index, self.n, self.distinct, self.stop.as_deref())
    }

    /// One pass over the state as it is: the edges the clauses ask for.
    fn pass(&self, facts: &Facts) -> Pass {
        let index = Index::build(facts, self.n, &self.clauses);
        let g = self.grounder(facts, &index);
        let mut pending = Asks::default();
        for (ci, c) in self.clauses.iter().enumerate() {
            if c.lits.is_empty() {
                return Pass::Conflict(Conflict { clause: ci });
            }
            let mut conflict = false;
            for j in 0..c.lits.len() {
                let flow = g.falsifying(c, Some(j), &mut |b| match look(facts, c, j, b, ci) {
                    Found::Nothing => ControlFlow::Continue(()),
                    Found::Set(d) => {
                        pending.push(d);
                        ControlFlow::Continue(())
                    }
                    Found::Conflict => {
                        conflict = true;
                        ControlFlow::Break(())
                    }
                });
                if g.stopped() {
                    return Pass::Stopped;
                }
                if flow.is_break() || conflict {
                    return Pass::Conflict(Conflict { clause: ci });
                }
            }
        }
        Pass::Asks(pending)
    }

    /// How many ground instances of the clauses are wholly False in `facts` (for usual axioms:
    /// how many defaults a state breaks).
    pub fn broken(&self, facts: &Facts) -> usize {
        let index = Index::build(facts, self.n, &self.clauses);
        let g = self.grounder(facts, &index);
        let mut count = 0;
        for c in &self.clauses {
            let _ = g.falsifying(c, None, &mut |_| {
                count += 1;
                ControlFlow::Continue(())
            });
        }
        count
    }

    /// The first ground instance that would set an edge, as (edge, value): `split_graph_usual`
    /// splits on it. Clauses are tried in order, and in each the literals from the last: the
    /// conclusion of `A -> B` comes last, and a default is used forwards (a bird flies) before
    /// backwards (what cannot fly is no bird).
    pub fn first_firing(&self, facts: &Facts) -> Option<(FactKey, bool)> {
        let index = Index::build(facts, self.n, &self.clauses);
        let g = self.grounder(facts, &index);
        let mut found = None;
        for (ci, c) in self.clauses.iter().enumerate() {
            for j in (0..c.lits.len()).rev() {
                let _ = g.falsifying(c, Some(j), &mut |b| match look(facts, c, j, b, ci) {
                    Found::Set(d) => {
                        found = Some((d.key, d.value));
                        ControlFlow::Break(())
                    }
                    _ => ControlFlow::Continue(()),
                });
                if found.is_some() {
                    return found;
                }
            }
        }
        None
    }
}

/// Literal `j` of clause `c` under `b`, when the other literals are False: satisfied (or a
/// fuzzy edge, which inference leaves alone), to be set, or False too.
fn look(facts: &Facts, c: &Clause, j: usize, b: &Binding, clause: usize) -> Found {
    let lit = c.lits[j];
    let holds = match lit.atom {
        Atom::Same(x, y) => match (value(x, b), value(y, b)) {
            (Some(p), Some(q)) => (p == q) == lit.positive,
            _ => return Found::Nothing, // cannot happen: the grounding binds every variable
        },
        Atom::Edge { rel, from, to } => {
            let (Some(x), Some(y)) = (value(from, b), value(to, b)) else { return Found::Nothing };
            let key = edge_key(x, rel, y);
            let v = facts.get(key);
            if v.is_undef() {
                return Found::Set(Derived { key, value: lit.positive, clause });
            }
            if !v.is_true() && !v.is_false() {
                return Found::Nothing;
            }
            v.is_true() == lit.positive
        }
    };
    if holds {
        Found::Nothing
    } else {
        Found::Conflict
    }
}

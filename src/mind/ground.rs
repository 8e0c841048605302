//! Ground instances of a clause that matter for inference: those where every literal but (at
//! most) one is False. They are found by joining the clause's literals with the graph's stored
//! facts, not by trying every assignment of nodes to variables: a positive literal `X rel Y` is
//! False only where a False fact `X rel Y` is stored, a negative one only where a True fact is,
//! and a graph holds far fewer facts than node tuples.

use super::clause::{Atom, Clause, Term, MAX_VARS};
use crate::value::Logic;
use crate::world::{FactKey, Facts, NodeId, RelId};
use rustc_hash::FxHashMap;
use std::cell::Cell;
use std::ops::ControlFlow;

/// A node for each variable; 0 while unbound.
pub type Binding = [NodeId; MAX_VARS];

/// The crisp facts of one relation and value, as (source, target) pairs, sorted both ways.
#[derive(Default)]
struct Pairs {
    by_src: Vec<(NodeId, NodeId)>,
    /// (target, source).
    by_tgt: Vec<(NodeId, NodeId)>,
}

/// The crisp facts of a graph between its own nodes, by (relation, value).
pub struct Index {
    lists: FxHashMap<(RelId, bool), Pairs>,
}

impl Index {
    /// Indexes the True and False facts of `facts` (fuzzy ones and edges into other graphs are
    /// left out: no literal can be False on them).
    pub fn build(facts: &Facts, n: NodeId) -> Index {
        let mut lists: FxHashMap<(RelId, bool), Pairs> = FxHashMap::default();
        for f in facts.iter() {
            let k = f.key;
            let crisp = f.value.is_true() || f.value.is_false();
            if k.tgraph() != 0 || !crisp || k.src() > n || k.tgt() > n {
                continue;
            }
            let p = lists.entry((k.rel(), f.value.is_true())).or_default();
            p.by_src.push((k.src(), k.tgt()));
            p.by_tgt.push((k.tgt(), k.src()));
        }
        // Facts come sorted by source, then relation, then target: `by_src` is sorted already.
        for p in lists.values_mut() {
            p.by_tgt.sort_unstable();
        }
        Index { lists }
    }

    fn pairs(&self, rel: RelId, value: bool) -> &[(NodeId, NodeId)] {
        self.lists.get(&(rel, value)).map_or(&[], |p| &p.by_src)
    }

    /// Targets of `src`'s facts along `rel` with `value`.
    fn targets(&self, rel: RelId, value: bool, src: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        range(self.lists.get(&(rel, value)).map_or(&[], |p| &p.by_src), src)
    }

    /// Sources of the facts along `rel` with `value` into `tgt`.
    fn sources(&self, rel: RelId, value: bool, tgt: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        range(self.lists.get(&(rel, value)).map_or(&[], |p| &p.by_tgt), tgt)
    }
}

/// The second items of the pairs whose first item is `first` (the slice is sorted).
fn range(v: &[(NodeId, NodeId)], first: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let start = v.partition_point(|p| p.0 < first);
    v[start..].iter().take_while(move |p| p.0 == first).map(|p| p.1)
}

/// The fact key of a ground edge literal.
pub fn edge_key(from: NodeId, rel: RelId, to: NodeId) -> FactKey {
    FactKey::new(from, rel, 0, to)
}

/// The node a term stands for under `b`, if it is bound.
pub fn value(t: Term, b: &Binding) -> Option<NodeId> {
    match t {
        Term::Node(id) => Some(id),
        Term::Var(v) => Some(b[v as usize]).filter(|&id| id != 0),
    }
}

/// Finds the ground instances of clauses in one graph state.
pub struct Grounder<'a> {
    facts: &'a Facts,
    index: &'a Index,
    /// Nodes are 1..=n.
    n: NodeId,
    /// `Mind.differnt_vals(1)`: distinct variables of a clause take distinct nodes.
    distinct: bool,
    /// Asked now and then whether to give up (Ctrl-C, `--timeout`): a clause that joins
    /// unrelated literals can have very many instances.
    stop: Option<&'a dyn Fn() -> bool>,
    steps: Cell<u32>,
    stopped: Cell<bool>,
}

/// How many bindings are tried between two questions to `stop`.
pub const STOP_EVERY: u32 = 1 << 10;

type Visit<'f> = dyn FnMut(&Binding) -> ControlFlow<()> + 'f;

impl<'a> Grounder<'a> {
    pub fn new(
        facts: &'a Facts,
        index: &'a Index,
        n: NodeId,
        distinct: bool,
        stop: Option<&'a dyn Fn() -> bool>,
    ) -> Self {
        Grounder { facts, index, n, distinct, stop, steps: Cell::new(0), stopped: Cell::new(false) }
    }

    /// Whether a walk was cut short because `stop` said so (its results are incomplete).
    pub fn stopped(&self) -> bool {
        self.stopped.get()
    }

    /// Calls `visit` with every binding of the clause's variables under which each literal
    /// except the one at `skip` is False (with `skip` None: every literal is False). Variables
    /// that only the skipped literal mentions range over all nodes.
    pub fn falsifying(&self, c: &Clause, skip: Option<usize>, visit: &mut Visit<'_>) -> ControlFlow<()> {
        let mut b: Binding = [0; MAX_VARS];
        self.walk(c, skip, 0, &mut b, visit)
    }

    fn walk(
        &self,
        c: &Clause,
        skip: Option<usize>,
        k: usize,
        b: &mut Binding,
        visit: &mut Visit<'_>,
    ) -> ControlFlow<()> {
        let Some(&i) = c.order.get(k) else { return self.bind_rest(c, 0, b, visit) };
        if Some(i) == skip {
            return self.walk(c, skip, k + 1, b, visit);
        }
        let lit = c.lits[i];
        match lit.atom {
            Atom::Edge { rel, from, to } => self.walk_edge(c, skip, k, (rel, from, to, lit.positive), b, visit),
            // `a == b` is False where the nodes differ, `a != b` where they are the same.
            Atom::Same(x, y) => match (value(x, b), value(y, b)) {
                (Some(p), Some(q)) if (p == q) != lit.positive => self.walk(c, skip, k + 1, b, visit),
                (Some(_), Some(_)) => ControlFlow::Continue(()),
                (None, _) => self.each_node(x, b, |b| self.walk(c, skip, k, b, visit)),
                (_, None) => self.each_node(y, b, |b| self.walk(c, skip, k, b, visit)),
            },
        }
    }

    /// The edge literal at position `k` of the walk: a positive one is False on a stored False
    /// fact, a negative one on a True fact; unbound ends are bound from the index.
    fn walk_edge(
        &self,
        c: &Clause,
        skip: Option<usize>,
        k: usize,
        (rel, from, to, positive): (RelId, Term, Term, bool),
        b: &mut Binding,
        visit: &mut Visit<'_>,
    ) -> ControlFlow<()> {
        let want = !positive;
        let mut next = |b: &mut Binding| self.walk(c, skip, k + 1, b, visit);
        match (value(from, b), value(to, b)) {
            (Some(x), Some(y)) => {
                if self.facts.get(edge_key(x, rel, y)) == Logic::from_bool(want) {
                    return next(b);
                }
            }
            (Some(x), None) => {
                for y in self.index.targets(rel, want, x) {
                    self.try_bind(to, y, b, &mut next)?;
                }
            }
            (None, Some(y)) => {
                for x in self.index.sources(rel, want, y) {
                    self.try_bind(from, x, b, &mut next)?;
                }
            }
            (None, None) => {
                for &(x, y) in self.index.pairs(rel, want) {
                    if from == to && x != y {
                        continue;
                    }
                    self.try_bind(
                        from,
                        x,
                        b,
                        |b| if from == to { next(b) } else { self.try_bind(to, y, b, &mut next) },
                    )?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Binds the variables still unbound (those only the skipped literal has) to every node.
    fn bind_rest(&self, c: &Clause, from: usize, b: &mut Binding, visit: &mut Visit<'_>) -> ControlFlow<()> {
        match (from..c.vars.len()).find(|&v| b[v] == 0) {
            None => visit(b),
            Some(v) => self.each_node(Term::Var(v as u8), b, |b| self.bind_rest(c, v + 1, b, visit)),
        }
    }

    fn each_node(
        &self,
        t: Term,
        b: &mut Binding,
        mut then: impl FnMut(&mut Binding) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        for id in 1..=self.n {
            self.try_bind(t, id, b, &mut then)?;
        }
        ControlFlow::Continue(())
    }

    /// Runs `then` with variable term `t` bound to `id` (then unbinds it); a fixed node term
    /// must already be `id`.
    fn try_bind(
        &self,
        t: Term,
        id: NodeId,
        b: &mut Binding,
        mut then: impl FnMut(&mut Binding) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let steps = self.steps.get().wrapping_add(1);
        self.steps.set(steps);
        if steps.is_multiple_of(STOP_EVERY) && self.stop.is_some_and(|stop| stop()) {
            self.stopped.set(true);
            return ControlFlow::Break(());
        }
        match t {
            Term::Node(n) if n == id => then(b),
            Term::Node(_) => ControlFlow::Continue(()),
            Term::Var(v) => {
                let v = v as usize;
                if self.distinct && b.iter().enumerate().any(|(u, &x)| u != v && x == id) {
                    return ControlFlow::Continue(());
                }
                b[v] = id;
                let r = then(b);
                b[v] = 0;
                r
            }
        }
    }
}

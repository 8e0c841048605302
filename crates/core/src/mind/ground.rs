//! Ground instances of a clause that matter for inference: those where every literal but (at
//! most) one is False. They are found by joining the clause's literals with the graph's stored
//! facts, not by trying every assignment of nodes to variables: a positive literal `X rel Y` is
//! False only where a False fact `X rel Y` is stored, a negative one only where a True fact is,
//! and a graph holds far fewer facts than node tuples.

use super::clause::{Atom, Clause, Term, MAX_VARS};
use crate::value::Logic;
use crate::world::{FactKey, Facts, NodeId, RelId};
use std::cell::{Cell, OnceCell};
use std::ops::ControlFlow;
use std::rc::Rc;

/// A node for each variable; 0 while unbound.
pub type Binding = [NodeId; MAX_VARS];

/// The crisp facts of a graph between its own nodes, for the relations of some clauses: per
/// (relation, value), the (source, target) pairs sorted by source, and, once a literal asks for
/// the sources of a target, sorted by target too.
pub struct Index {
    /// The pairs of every group, one group after another.
    by_src: Vec<(NodeId, NodeId)>,
    groups: Vec<Group>,
}

struct Group {
    rel: RelId,
    value: bool,
    /// Its pairs in `by_src`.
    start: usize,
    end: usize,
    /// The same pairs as `target << 32 | source`, sorted, made on first use.
    by_tgt: OnceCell<Box<[u64]>>,
}

impl Index {
    /// Indexes the True and False facts of the relations that `clauses` mention (fuzzy facts and
    /// edges into other graphs are left out: no literal can be False on them), read from the
    /// packed words of each relation's layer.
    pub fn build(facts: &Facts, n: NodeId, clauses: &[Rc<Clause>]) -> Index {
        let mut rels: Vec<RelId> = clauses
            .iter()
            .flat_map(|c| c.lits.iter())
            .filter_map(|l| match l.atom {
                Atom::Edge { rel, .. } => Some(rel),
                Atom::Same(..) => None,
            })
            .collect();
        rels.sort_unstable();
        rels.dedup();
        let mut index = Index { by_src: Vec::new(), groups: Vec::with_capacity(2 * rels.len()) };
        let mut falses = Vec::new();
        for rel in rels {
            let start = index.by_src.len();
            falses.clear();
            // Facts come in key order (source, then target): each group is sorted by source.
            facts.for_each_crisp(rel, |src, tgt, is_true| {
                if src <= n && tgt <= n {
                    if is_true {
                        index.by_src.push((src, tgt))
                    } else {
                        falses.push((src, tgt))
                    }
                }
            });
            let mid = index.by_src.len();
            index.by_src.extend_from_slice(&falses);
            index.group(rel, true, start, mid);
            index.group(rel, false, mid, index.by_src.len());
        }
        index
    }

    fn group(&mut self, rel: RelId, value: bool, start: usize, end: usize) {
        if start < end {
            self.groups.push(Group { rel, value, start, end, by_tgt: OnceCell::new() });
        }
    }

    fn find(&self, rel: RelId, value: bool) -> Option<&Group> {
        self.groups.iter().find(|g| g.rel == rel && g.value == value)
    }

    fn pairs(&self, rel: RelId, value: bool) -> &[(NodeId, NodeId)] {
        self.find(rel, value).map_or(&[], |g| &self.by_src[g.start..g.end])
    }

    /// Targets of `src`'s facts along `rel` with `value`.
    fn targets(&self, rel: RelId, value: bool, src: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        range(self.pairs(rel, value), src)
    }

    /// Sources of the facts along `rel` with `value` into `tgt`.
    fn sources(&self, rel: RelId, value: bool, tgt: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let by_tgt: &[u64] = self.find(rel, value).map_or(&[], |g| {
            g.by_tgt.get_or_init(|| {
                let mut v: Vec<u64> =
                    self.by_src[g.start..g.end].iter().map(|&(s, t)| u64::from(t) << 32 | u64::from(s)).collect();
                v.sort_unstable();
                v.into_boxed_slice()
            })
        });
        let start = by_tgt.partition_point(|&w| (w >> 32) < u64::from(tgt));
        by_tgt[start..].iter().take_while(move |&&w| (w >> 32) == u64::from(tgt)).map(|&w| w as NodeId)
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

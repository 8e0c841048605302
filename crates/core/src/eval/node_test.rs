//! The conditions of `for X in Cond`, `exists(X, Cond)` and `forall(X, Cond)` tested without the
//! evaluator. Search scripts loop over the nodes of a state all the time (`for H in
//! H.isa(Sen=>$human)`, `exists(F, F.isa(Sen=>$human) & (F on P1) & F != H)`, `for B in (A want
//! B) & (B on P1)`), and evaluating Cond for every node costs a builtin call or an edge lookup
//! through the general path per node and per conjunct.
//!
//! When Cond is made only of `X.isa(C)`, edge reads between X and fixed nodes, `X == v`,
//! `X != v`, logic constants and the logic operators, and every fixed part (C, the other
//! nodes, the relation) is read without error, Cond is compiled into a `NodeTest` when the loop
//! starts: its value for a node is then a few lookups, with the same result as the evaluator
//! (nothing in such a Cond has side effects, and nothing in it can fail once the fixed parts
//! are known). The first conjunct also says which nodes can pass at all: the True nodes of an
//! `isa` column (`World::isa_column`, computed once per `isa` structure), or the targets of A's
//! True `rel` facts for `A rel X`; only those are visited, in creation order, as before.
//! Anything else, and any fixed part that fails, leaves the loop to the evaluator, which
//! reports the error where it always did.

use super::{Interp, R};
use crate::compile::ir::{EdgeEx, Ex, ExKind, Operand, Rel, Slot};
use crate::value::{Logic, Value};
use crate::world::facts::isa_epoch;
use crate::world::{ClassId, FactKey, Facts, Graph, GraphRef, GraphUid, IsaColumn, NodeId, RelId, Target};
use ds_syntax::ast::{BinOp, EdgeMode, UnOp};
use ds_syntax::Span;
use smallvec::SmallVec;
use std::cell::Cell;
use std::rc::Rc;

/// A compiled loop condition over the nodes of one state (the current graph when it was made).
pub(super) struct NodeTest {
    pub class: ClassId,
    /// The conjuncts of Cond, left to right: a node passes when every one is exactly True.
    conjuncts: SmallVec<[Pred; 3]>,
    /// What the test was made from, besides the facts it reads as it goes: the variables its
    /// fixed parts read, the class's size, the state's `isa` structure and the isa epoch.
    /// While they are the same the test is still right (`NodeTest::still_valid`).
    inputs: SmallVec<[(Slot, Value); 2]>,
    /// The variables that name nodes in the condition (`F != H`, `A want B`), read again at
    /// every use (`Interp::bind`): a loop whose condition names the node of an outer loop keeps
    /// its test while that node changes. The flag: it must be a node of the state (an edge's
    /// end), else any value will do (`==`, `!=`).
    fixed: SmallVec<[(Slot, bool); MAX_FIXED]>,
    /// The condition and variable it was made for (`Interp::node_tests` is keyed by address).
    cond: Span,
    var: Slot,
    /// The state it was made in, and the graphs named as `isa` targets (`X.isa(G=>$n)`):
    /// whether such a target is the state itself changes the answers.
    made_in: GraphUid,
    targets: SmallVec<[GraphUid; 1]>,
    len: usize,
    isa_hash: u64,
    isa_epoch: u64,
}

/// The most variables a test reads at each use.
const MAX_FIXED: usize = 4;

/// The values of a test's `fixed` variables at one use: the node each names (0, which is no
/// node's id: it names no node of the state's class). Plain ids, written one by one where they
/// are read (`Interp::bind`): an array of options returned by value was copied with loads
/// wider than the stores that made it, and every tested loop waited on them (issue 43).
pub(super) type Bound = [NodeId; MAX_FIXED];

/// One side of an edge read: the loop's node, a fixed node of the state, or the node a
/// variable names (its index in `NodeTest::fixed`).
#[derive(Clone, Copy)]
enum End {
    Var,
    Node(NodeId),
    Fixed(u8),
}

impl End {
    #[inline]
    fn node(self, id: NodeId, bound: &Bound) -> NodeId {
        match self {
            End::Var => id,
            End::Node(n) => n,
            // `Interp::bind` gave every edge end a node.
            End::Fixed(k) => bound[k as usize],
        }
    }
}

/// The other side of `X == v`: a node known when the test was made (None: not a node of
/// the class), or a variable read at each use.
#[derive(Clone, Copy)]
enum Other {
    Known(Option<NodeId>),
    Fixed(u8),
}

enum Pred {
    Const(Logic),
    /// `X.isa(C)`.
    Isa(Rc<IsaColumn>),
    Edge {
        from: End,
        rel: RelId,
        to: End,
        mode: EdgeMode,
    },
    /// `X == v` (`eq`) or `X != v`.
    Same {
        other: Other,
        eq: bool,
    },
    Not(Box<Pred>),
    Op(BinOp, Box<Pred>, Box<Pred>),
}

impl Pred {
    fn value(&self, id: NodeId, facts: &Facts, bound: &Bound) -> Logic {
        match self {
            Pred::Const(l) => *l,
            Pred::Isa(column) => column.values[id as usize - 1],
            Pred::Edge { from, rel, to, mode } => {
                let v = facts.get(FactKey::new(from.node(id, bound), *rel, 0, to.node(id, bound)));
                match mode {
                    EdgeMode::Is => v,
                    EdgeMode::Not => v.negate(),
                    EdgeMode::Undef => Logic::from_bool(v.is_undef()),
                }
            }
            Pred::Same { other, eq } => {
                // Node ids start at 1: 0 is no node.
                let node = match other {
                    Other::Known(n) => n.unwrap_or(0),
                    Other::Fixed(k) => bound[*k as usize],
                };
                Logic::from_bool((node == id) == *eq)
            }
            Pred::Not(p) => p.value(id, facts, bound).negate(),
            Pred::Op(op, a, b) => {
                let (a, b) = (a.value(id, facts, bound), b.value(id, facts, bound));
                match op {
                    BinOp::And => a.and(b),
                    BinOp::Or => a.or(b),
                    BinOp::Implies => a.implies(b),
                    BinOp::Equiv => a.equiv(b),
                    BinOp::Eq => Logic::from_bool(a == b),
                    _ => Logic::from_bool(a != b),
                }
            }
        }
    }
}

impl NodeTest {
    /// The first node from `id` on (up to `last`) for which the condition is exactly True in
    /// a state with `facts`, its variables naming the nodes `bound`.
    pub fn next_pass(&self, facts: &Facts, id: NodeId, last: NodeId, bound: &Bound) -> Option<NodeId> {
        let [n] = self.passes_from(facts, id, last, bound);
        (n != 0).then_some(n)
    }

    /// Whether the pass after the next one comes at almost no cost with it (`next_two`): when
    /// the first conjunct is `A rel X`, the candidates are A's few adjacent facts.
    pub fn peeks(&self) -> bool {
        matches!(
            self.conjuncts[0],
            Pred::Edge { from: End::Node(_) | End::Fixed(_), to: End::Var, mode: EdgeMode::Is, .. }
        )
    }

    /// `next_pass` and the pass after it, found by one search (0: none).
    pub fn next_two(&self, facts: &Facts, id: NodeId, last: NodeId, bound: &Bound) -> [NodeId; 2] {
        self.passes_from(facts, id, last, bound)
    }

    /// The first `N` nodes from `id` on (up to `last`) that pass, in order (0: no more).
    fn passes_from<const N: usize>(&self, facts: &Facts, id: NodeId, last: NodeId, bound: &Bound) -> [NodeId; N] {
        let (first, rest) = self.conjuncts.split_first().expect("a condition has a conjunct");
        let passes = |n: NodeId| rest.iter().all(|p| p.value(n, facts, bound).is_true());
        match first {
            // Only the nodes the first conjunct holds of can pass.
            Pred::Isa(column) => {
                let from = column.trues.partition_point(|&n| n < id);
                first_n(&mut column.trues[from..].iter().copied().take_while(|&n| n <= last).filter(|&n| passes(n)))
            }
            Pred::Edge { from: from @ (End::Node(_) | End::Fixed(_)), rel, to: End::Var, mode: EdgeMode::Is } => {
                targets_from(facts, (from.node(id, bound), *rel), (id, last), passes)
            }
            _ => first_n(&mut (id..=last).filter(|&n| first.value(n, facts, bound).is_true() && passes(n))),
        }
    }

    /// The index of variable `s` in `fixed` (None: too many); `strict` when it must name a
    /// node of the state.
    fn fixed_slot(&mut self, s: Slot, strict: bool) -> Option<u8> {
        if let Some(k) = self.fixed.iter().position(|&(f, _)| f == s) {
            self.fixed[k].1 |= strict;
            return Some(k as u8);
        }
        if self.fixed.len() == MAX_FIXED {
            return None;
        }
        self.fixed.push((s, strict));
        Some(self.fixed.len() as u8 - 1)
    }

    /// Whether `cond` over `var` has a form that `Interp::node_test` compiles, when the parts it
    /// reads hold what they must as the loop starts: a loop whose condition has none tries
    /// every node without asking again after each pass.
    pub fn fits(var: Slot, cond: &Ex) -> bool {
        let is_var = |e: &Ex| matches!(e.kind, ExKind::Var(s) if s == var);
        // What `fixed_value` reads (a variable, a constant, a node constant).
        let fixed = |e: &Ex| match &e.kind {
            ExKind::Var(s) => *s != var,
            ExKind::Const(_) | ExKind::Node(_) => true,
            ExKind::NodeOf { graph, .. } => matches!(graph.kind, ExKind::Var(s) if s != var),
            _ => false,
        };
        match &cond.kind {
            ExKind::Const(Value::Logic(_)) => true,
            ExKind::Unary { op: UnOp::Not, operand } => NodeTest::fits(var, operand),
            ExKind::Binary { op: BinOp::Eq | BinOp::Ne, left, right, .. } if is_var(left) || is_var(right) => {
                is_var(left) && is_var(right) || fixed(left) || fixed(right)
            }
            ExKind::Binary {
                op: BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv | BinOp::Eq | BinOp::Ne,
                left,
                right,
                ..
            } => NodeTest::fits(var, left) && NodeTest::fits(var, right),
            ExKind::Edge(edge) => {
                let rel = match edge.rel {
                    Rel::Fixed(_) => true,
                    Rel::Var(s) => s != var,
                    _ => false,
                };
                let end = |o: &Operand| matches!(o, Operand::Single(e) if is_var(e) || fixed(e));
                rel && end(&edge.left) && end(&edge.right)
            }
            ExKind::Builtin { name: "isa", object: Some(o), args, .. } => {
                is_var(o) && args.len() == 1 && fixed(&args[0])
            }
            _ => false,
        }
    }

    /// Whether node `id` passes.
    pub fn passes(&self, facts: &Facts, id: NodeId, bound: &Bound) -> bool {
        self.conjuncts.iter().all(|p| p.value(id, facts, bound).is_true())
    }
}

/// The pass after the one a tested loop is at (`NodeTest::next_two`; 0: none), taken as the
/// next without searching again when the loop comes to it with the state unchanged: the same
/// graph with the same facts (by their content hash, as `still_valid` trusts the `isa` hash),
/// the same nodes bound, and the same test (the loop forgets the peek when it makes a new one).
pub(super) struct Peek {
    from: NodeId,
    next: NodeId,
    graph: GraphUid,
    hash: u64,
    bound: Bound,
}

impl Peek {
    pub fn new(at: NodeId, next: NodeId, graph: &Graph, bound: &Bound) -> Peek {
        Peek { from: at + 1, next, graph: graph.uid, hash: graph.facts.hash(), bound: *bound }
    }

    /// The next pass from `id` on when this peek still holds for `graph` (Some(None): none).
    pub fn next(&self, id: NodeId, graph: &Graph, bound: &Bound) -> Option<Option<NodeId>> {
        let same =
            self.from == id && self.graph == graph.uid && self.hash == graph.facts.hash() && self.bound == *bound;
        same.then_some((self.next != 0).then_some(self.next))
    }
}

/// The test a `for` loop or an `exists` of a compiled demon body made last, kept by the
/// closure of that loop or `exists`: checked with `still_valid` as the entries of
/// `Interp::node_tests` are, without that map's lookup by the condition's address.
#[derive(Default)]
pub(super) struct TestSite(Cell<Option<Rc<NodeTest>>>);

impl Interp {
    /// The test of `cond` over `var` for the current graph: the one made last time for this
    /// condition (at `site`, or else by the condition's address) when it is still valid, else
    /// a new one (see `node_test`).
    pub(super) fn cached_test(&mut self, var: Slot, cond: &Ex, site: Option<&TestSite>) -> Option<Rc<NodeTest>> {
        if let Some(site) = site {
            return self.site_test(var, cond, site);
        }
        let key = cond as *const Ex as usize;
        if let Some(t) = self.node_tests.get(&key) {
            if t.cond == cond.span && t.var == var && self.still_valid(t) {
                return Some(t.clone());
            }
        }
        let test = Rc::new(self.node_test(var, cond)?);
        if self.node_tests.len() >= 4096 {
            self.node_tests.clear();
        }
        self.node_tests.insert(key, test.clone());
        Some(test)
    }

    fn site_test(&mut self, var: Slot, cond: &Ex, site: &TestSite) -> Option<Rc<NodeTest>> {
        if let Some(t) = site.0.take().filter(|t| self.still_valid(t)) {
            site.0.set(Some(t.clone()));
            return Some(t);
        }
        let test = Rc::new(self.node_test(var, cond)?);
        site.0.set(Some(test.clone()));
        Some(test)
    }

    /// `cached_test` with the nodes its variables name now.
    pub(super) fn bound_test(
        &mut self,
        var: Slot,
        cond: &Ex,
        site: Option<&TestSite>,
    ) -> Option<(Rc<NodeTest>, Bound)> {
        let test = self.cached_test(var, cond, site)?;
        let mut bound = [0; MAX_FIXED];
        self.bind(&test, &mut bound).then_some((test, bound))
    }

    /// `cond` over loop variable `var` compiled for the current graph, when it has the form
    /// above, its fixed parts read without error, and the class has nodes; else None (the
    /// evaluator then tests every node).
    fn node_test(&mut self, var: Slot, cond: &Ex) -> Option<NodeTest> {
        let Value::Graph(g) = &self.graph else { return None };
        let graph = g.clone();
        let class = graph.borrow().class;
        if self.world.class(class).is_empty() {
            return None;
        }
        let mut conjuncts = SmallVec::new();
        let mut parts: SmallVec<[&Ex; 4]> = SmallVec::new();
        flatten_and(cond, &mut parts);
        let len = self.world.class(class).len();
        let isa_hash = graph.borrow().facts.isa_hash();
        let mut test = NodeTest {
            class,
            cond: cond.span,
            var,
            made_in: graph.borrow().uid,
            targets: SmallVec::new(),
            conjuncts: SmallVec::new(),
            inputs: SmallVec::new(),
            fixed: SmallVec::new(),
            len,
            isa_hash,
            isa_epoch: 0,
        };
        for e in parts {
            let p = self.pred(var, e, &mut test, &graph)?;
            conjuncts.push(p);
        }
        test.conjuncts = conjuncts;
        test.isa_epoch = isa_epoch();
        Some(test)
    }

    /// Whether a test made earlier for the same condition would be made the same now: a
    /// current graph of the same class and size, with the same `isa` structure, and every
    /// variable it read holding the same value (a loop body may change any of them). The
    /// facts it reads as it goes are the current graph's, whichever it is.
    pub(super) fn still_valid(&self, test: &NodeTest) -> bool {
        let Value::Graph(g) = &self.graph else { return false };
        if test.isa_epoch != isa_epoch() {
            return false;
        }
        let gb = g.borrow();
        let here = |uid: GraphUid| uid == gb.uid;
        gb.class == test.class
            && test.targets.iter().all(|&uid| here(uid) == (uid == test.made_in))
            && gb.facts.isa_hash() == test.isa_hash
            && self.world.class(test.class).len() == test.len
            && self.same_inputs(test)
    }

    /// The nodes the test's variables name now, written into `bound`; false when one that must
    /// name a node of the state does not (the evaluator then tests the nodes, and reports what
    /// it finds).
    #[inline]
    pub(super) fn bind(&self, test: &NodeTest, bound: &mut Bound) -> bool {
        for (b, &(slot, strict)) in bound.iter_mut().zip(&test.fixed) {
            *b = match self.get(slot) {
                Value::Node(n) if n.class == test.class && !strict => n.id,
                _ if !strict => 0,
                _ => match self.state_node(slot, test.class) {
                    Some(id) => id,
                    None => return false,
                },
            };
        }
        true
    }

    /// The node variable `slot` holds when it is a node of the state's class (unbound, not
    /// deleted), as an edge's end must be.
    #[inline(always)]
    fn state_node(&self, slot: Slot, class: ClassId) -> Option<NodeId> {
        match self.get(slot) {
            Value::Node(n) if n.class == class && n.graph.is_none() && self.world.class(class).contains(n.id) => {
                Some(n.id)
            }
            _ => None,
        }
    }

    /// For `for Z in A rel Z` (`Interp::for_targets`): the node A (variable `a`) holds when a
    /// `NodeTest` of the condition would be made and bound now: GRAPH a graph of the loop's
    /// class and A one of its nodes.
    #[inline]
    pub(super) fn target_source(&self, a: Slot, class: ClassId) -> Option<NodeId> {
        let Value::Graph(g) = &self.graph else { return None };
        if g.borrow().class != class {
            return None;
        }
        self.state_node(a, class)
    }

    /// The first node from `id` on (up to `last`) that passes `t` in the current graph: the
    /// one `peek` holds when it still holds, else searched (peeking at the one after when
    /// that is cheap).
    pub(super) fn next_tested(
        &self,
        t: &NodeTest,
        (id, last): (NodeId, NodeId),
        bound: &Bound,
        peek: &mut Option<Peek>,
    ) -> Option<NodeId> {
        if !t.peeks() {
            let Value::Graph(g) = &self.graph else { return None };
            return t.next_pass(&g.borrow().facts, id, last, bound);
        }
        self.next_peeked((id, bound), peek, |facts| t.next_two(facts, id, last, bound))
    }

    /// The first True `rel` target of node `x` from `id` on (up to `last`) in the current
    /// graph, as `next_tested` finds it for the test of `A rel X` with A naming `x`.
    #[inline]
    pub(super) fn next_target(
        &self,
        (x, rel): (NodeId, RelId),
        (id, last): (NodeId, NodeId),
        peek: &mut Option<Peek>,
    ) -> Option<NodeId> {
        let bound = [x, 0, 0, 0];
        self.next_peeked((id, &bound), peek, |facts| targets_from(facts, (x, rel), (id, last), |_| true))
    }

    /// The next pass from `id` on: the one `peek` holds when it still holds, else the first of
    /// the two that `search` finds in the current graph's facts (the second kept as the peek).
    #[inline(always)]
    fn next_peeked(
        &self,
        (id, bound): (NodeId, &Bound),
        peek: &mut Option<Peek>,
        search: impl FnOnce(&Facts) -> [NodeId; 2],
    ) -> Option<NodeId> {
        let Value::Graph(g) = &self.graph else { return None };
        let g = g.borrow();
        if let Some(next) = peek.take().and_then(|p| p.next(id, &g, bound)) {
            return next;
        }
        let [next, after] = search(&g.facts);
        if next == 0 {
            return None;
        }
        *peek = Some(Peek::new(next, after, &g, bound));
        Some(next)
    }

    /// Whether every variable the test read holds the same value. A plain loop over the one
    /// or two inputs: this runs after every pass of a tested loop's body.
    #[inline]
    fn same_inputs(&self, test: &NodeTest) -> bool {
        for (slot, then) in &test.inputs {
            if !same(self.get(*slot), then) {
                return false;
            }
        }
        true
    }

    fn pred(&mut self, var: Slot, e: &Ex, t: &mut NodeTest, graph: &GraphRef) -> Option<Pred> {
        let is_var = |e: &Ex| matches!(e.kind, ExKind::Var(s) if s == var);
        Some(match &e.kind {
            ExKind::Const(Value::Logic(l)) => Pred::Const(*l),
            ExKind::Unary { op: UnOp::Not, operand } => Pred::Not(Box::new(self.pred(var, operand, t, graph)?)),
            ExKind::Binary { op: op @ (BinOp::Eq | BinOp::Ne), left, right, .. } if is_var(left) || is_var(right) => {
                let eq = *op == BinOp::Eq;
                if is_var(left) && is_var(right) {
                    return Some(Pred::Const(Logic::from_bool(eq)));
                }
                let other = if is_var(left) { right } else { left };
                if let ExKind::Var(s) = other.kind {
                    return Some(Pred::Same { other: Other::Fixed(t.fixed_slot(s, false)?), eq });
                }
                let node = match self.fixed_value(var, other, t)? {
                    Value::Node(n) if n.class == t.class => Some(n.id),
                    _ => None,
                };
                Pred::Same { other: Other::Known(node), eq }
            }
            ExKind::Binary {
                op: op @ (BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv | BinOp::Eq | BinOp::Ne),
                left,
                right,
                ..
            } => Pred::Op(*op, Box::new(self.pred(var, left, t, graph)?), Box::new(self.pred(var, right, t, graph)?)),
            ExKind::Edge(edge) => self.edge_pred(var, edge, t)?,
            ExKind::Builtin { name: "isa", object: Some(o), args, .. } if is_var(o) && args.len() == 1 => {
                let Value::Node(to) = self.fixed_value(var, &args[0], t)? else { return None };
                let class = self.world.class(to.class);
                if !class.contains(to.id) {
                    return None;
                }
                // As `N.isa(C)` does: C in its own graph, or else in the current one.
                let target_graph = to.graph.unwrap_or_else(|| graph.clone());
                if target_graph.borrow().class != to.class {
                    return None;
                }
                if !Rc::ptr_eq(&target_graph, graph) {
                    self.world.link(&target_graph);
                }
                let target = Target { graph: target_graph.borrow().uid, node: to.id };
                t.targets.push(target.graph);
                Pred::Isa(self.world.isa_column(graph, target)?)
            }
            _ => return None,
        })
    }

    /// `L rel R` with single sides, each the loop's node or a node of the state.
    fn edge_pred(&mut self, var: Slot, edge: &EdgeEx, t: &mut NodeTest) -> Option<Pred> {
        let (Operand::Single(l), Operand::Single(r)) = (&edge.left, &edge.right) else { return None };
        let rel = match edge.rel {
            Rel::Fixed(r) => r,
            Rel::Var(s) if s != var => match self.get(s) {
                Value::Edge(r) => {
                    let r = *r;
                    t.inputs.push((s, Value::Edge(r)));
                    r
                }
                _ => return None,
            },
            _ => return None,
        };
        let from = self.end(var, l, t)?;
        let to = self.end(var, r, t)?;
        Some(Pred::Edge { from, rel, to, mode: edge.mode })
    }

    /// The loop's node, or a fixed node of the state's class (unbound, not deleted).
    fn end(&mut self, var: Slot, e: &Ex, t: &mut NodeTest) -> Option<End> {
        match e.kind {
            ExKind::Var(s) if s == var => return Some(End::Var),
            ExKind::Var(s) => return Some(End::Fixed(t.fixed_slot(s, true)?)),
            _ => {}
        }
        match self.fixed_value(var, e, t)? {
            Value::Node(n) if n.graph.is_none() && n.class == t.class && self.world.class(t.class).contains(n.id) => {
                Some(End::Node(n.id))
            }
            _ => None,
        }
    }

    /// The value of a part of the condition that does not depend on the loop's node and reads
    /// without side effects: a variable, a constant, a node constant (`$2`, `Sen=>$human`).
    /// None when it is something else or fails (the evaluator will report it).
    /// The variables read are recorded in `t.inputs`.
    fn fixed_value(&mut self, var: Slot, e: &Ex, t: &mut NodeTest) -> Option<Value> {
        match &e.kind {
            ExKind::Var(s) if *s != var => {
                let v = self.get(*s).clone();
                t.inputs.push((*s, v.clone()));
                Some(v)
            }
            ExKind::Const(v) => Some(v.clone()),
            ExKind::Node(n) => self.node_const(n, e.span).ok().map(Value::Node),
            ExKind::NodeOf { graph, node } => match graph.kind {
                ExKind::Var(s) if s != var => {
                    t.inputs.push((s, self.get(s).clone()));
                    self.node_of_value(self.get(s).clone(), node, e.span).ok()
                }
                _ => None,
            },
            _ => None,
        }
    }
}

impl Interp {
    /// `exists` with a compiled condition, leaving `var` where the evaluator's loop would: on
    /// the first node that passes (or, with bounds, the first of an accepted count), else on
    /// the last node. Each node the evaluator would have tried counts as a step.
    pub(super) fn exists_by_test(
        &mut self,
        var: Slot,
        (test, bound): (&NodeTest, Bound),
        bounds: Option<(f64, f64)>,
        span: Span,
    ) -> R<bool> {
        let last = self.world.class(test.class).last();
        let g = self.current_graph(span)?;
        let facts = &g.borrow().facts;
        let first = test.next_pass(facts, 1, last, &bound);
        let ok = match bounds {
            None => first.is_some(),
            Some((lo, hi)) => {
                let mut count = 0.0;
                let mut at = first;
                while let Some(id) = at {
                    count += 1.0;
                    at = test.next_pass(facts, id + 1, last, &bound);
                }
                count >= lo && count <= hi
            }
        };
        let tried = if bounds.is_none() { first.unwrap_or(last) } else { last };
        self.work(u64::from(tried), span)?;
        let bound = if ok { first.unwrap_or(last) } else { last };
        self.set(var, node(test.class, bound));
        Ok(ok)
    }

    /// `forall` with a compiled condition: False on the first node that fails (left in `var`).
    pub(super) fn forall_by_test(&mut self, var: Slot, (test, bound): (&NodeTest, Bound), span: Span) -> R<bool> {
        let last = self.world.class(test.class).last();
        let g = self.current_graph(span)?;
        let failed = (1..=last).find(|&id| !test.passes(&g.borrow().facts, id, &bound));
        self.work(u64::from(failed.unwrap_or(last)), span)?;
        self.set(var, node(test.class, failed.unwrap_or(last)));
        Ok(failed.is_none())
    }
}

/// The first `N` True `rel` targets of node `a` from `id` to `last` for which `keep` holds, in
/// order (0: no more): A's facts along `rel` are adjacent and sorted by target.
#[inline(always)]
fn targets_from<const N: usize>(
    facts: &Facts,
    (a, rel): (NodeId, RelId),
    (id, last): (NodeId, NodeId),
    keep: impl Fn(NodeId) -> bool,
) -> [NodeId; N] {
    let (mut out, mut k) = ([0; N], 0);
    facts.each_true_target((a, rel), id, |n| {
        if n > last {
            return false;
        }
        if keep(n) {
            out[k] = n;
            k += 1;
        }
        k < N
    });
    out
}

/// The first `N` items of `items` (0 where there are fewer), taking no more than `N`. By
/// reference: moving the iterator over facts in is a call to `memmove`.
fn first_n<const N: usize>(items: &mut impl Iterator<Item = NodeId>) -> [NodeId; N] {
    let mut out = [0; N];
    for (o, n) in out.iter_mut().zip(items) {
        *o = n;
    }
    out
}

/// Whether a variable still holds the value a test read: the same node, graph, relation,
/// number or logic value (anything else is taken as changed).
#[inline]
fn same(now: &Value, then: &Value) -> bool {
    match (now, then) {
        (Value::Node(a), Value::Node(b)) => {
            a.class == b.class
                && a.id == b.id
                && match (&a.graph, &b.graph) {
                    (None, None) => true,
                    (Some(x), Some(y)) => Rc::ptr_eq(x, y),
                    _ => false,
                }
        }
        (Value::Graph(a), Value::Graph(b)) => Rc::ptr_eq(a, b),
        (Value::Edge(a), Value::Edge(b)) => a == b,
        (Value::Num(a), Value::Num(b)) => a.to_bits() == b.to_bits(),
        (Value::Logic(a), Value::Logic(b)) => a == b,
        (Value::None, Value::None) => true,
        _ => false,
    }
}

fn node(class: ClassId, id: NodeId) -> Value {
    Value::Node(crate::value::NodeVal { class, id, graph: None })
}

/// The operands of a chain of `&`, left to right (the order they are evaluated in).
fn flatten_and<'a>(e: &'a Ex, out: &mut SmallVec<[&'a Ex; 4]>) {
    match &e.kind {
        ExKind::Binary { op: BinOp::And, left, right, .. } => {
            flatten_and(left, out);
            flatten_and(right, out);
        }
        _ => out.push(e),
    }
}

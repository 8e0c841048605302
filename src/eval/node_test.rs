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

use super::Interp;
use crate::compile::ir::{EdgeEx, Ex, ExKind, Operand, Rel, Slot};
use crate::syntax::ast::{BinOp, EdgeMode, UnOp};
use crate::value::{Logic, Value};
use crate::world::{ClassId, FactKey, Facts, GraphRef, IsaColumn, NodeId, RelId, Target};
use smallvec::SmallVec;
use std::rc::Rc;

/// A compiled loop condition over the nodes of one state (the current graph when it was made).
pub(super) struct NodeTest {
    graph: GraphRef,
    pub class: ClassId,
    /// The conjuncts of Cond, left to right: a node passes when every one is exactly True.
    conjuncts: SmallVec<[Pred; 3]>,
}

/// One side of an edge read: the loop's node, or a fixed node of the state.
#[derive(Clone, Copy)]
enum End {
    Var,
    Node(NodeId),
}

enum Pred {
    Const(Logic),
    /// `X.isa(C)`.
    Isa(Rc<IsaColumn>),
    Edge { from: End, rel: RelId, to: End, mode: EdgeMode },
    /// `X == v` (`eq`) or `X != v`; `node` is v when it is a node of the state's class.
    Same { node: Option<NodeId>, eq: bool },
    Not(Box<Pred>),
    Op(BinOp, Box<Pred>, Box<Pred>),
}

impl Pred {
    fn value(&self, id: NodeId, facts: &Facts) -> Logic {
        match self {
            Pred::Const(l) => *l,
            Pred::Isa(column) => column.values[id as usize - 1],
            Pred::Edge { from, rel, to, mode } => {
                let end = |e: &End| match e {
                    End::Var => id,
                    End::Node(n) => *n,
                };
                let v = facts.get(FactKey::new(end(from), *rel, 0, end(to)));
                match mode {
                    EdgeMode::Is => v,
                    EdgeMode::Not => v.negate(),
                    EdgeMode::Undef => Logic::from_bool(v.is_undef()),
                }
            }
            Pred::Same { node, eq } => Logic::from_bool((*node == Some(id)) == *eq),
            Pred::Not(p) => p.value(id, facts).negate(),
            Pred::Op(op, a, b) => {
                let (a, b) = (a.value(id, facts), b.value(id, facts));
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
    /// The first node from `id` on (up to `last`) for which the condition is exactly True.
    pub fn next_pass(&self, id: NodeId, last: NodeId) -> Option<NodeId> {
        let g = self.graph.borrow();
        let facts = &g.facts;
        let (first, rest) = self.conjuncts.split_first().expect("a condition has a conjunct");
        let passes = |n: NodeId| rest.iter().all(|p| p.value(n, facts).is_true());
        match first {
            // Only the nodes the first conjunct holds of can pass.
            Pred::Isa(column) => {
                let from = column.trues.partition_point(|&n| n < id);
                column.trues[from..].iter().copied().take_while(|&n| n <= last).find(|&n| passes(n))
            }
            Pred::Edge { from: End::Node(a), rel, to: End::Var, mode: EdgeMode::Is } => facts
                .outgoing_rel(*a, *rel)
                .iter()
                .filter(|f| f.key.tgraph() == 0 && f.value.is_true())
                .map(|f| f.key.tgt())
                .skip_while(|&n| n < id)
                .take_while(|&n| n <= last)
                .find(|&n| passes(n)),
            _ => (id..=last).find(|&n| first.value(n, facts).is_true() && passes(n)),
        }
    }

    /// Whether node `id` passes.
    pub fn passes(&self, id: NodeId) -> bool {
        let g = self.graph.borrow();
        self.conjuncts.iter().all(|p| p.value(id, &g.facts).is_true())
    }
}

impl Interp {
    /// `cond` over loop variable `var` compiled for the current graph, when it has the form
    /// above, its fixed parts read without error, and the class has nodes; else None (the
    /// evaluator then tests every node).
    pub(super) fn node_test(&mut self, var: Slot, cond: &Ex) -> Option<NodeTest> {
        let Value::Graph(g) = &self.graph else { return None };
        let graph = g.clone();
        let class = graph.borrow().class;
        if self.world.class(class).is_empty() {
            return None;
        }
        let mut conjuncts = SmallVec::new();
        let mut parts: SmallVec<[&Ex; 4]> = SmallVec::new();
        flatten_and(cond, &mut parts);
        let mut test = NodeTest { graph, class, conjuncts: SmallVec::new() };
        for e in parts {
            conjuncts.push(self.pred(var, e, &test)?);
        }
        test.conjuncts = conjuncts;
        Some(test)
    }

    fn pred(&mut self, var: Slot, e: &Ex, t: &NodeTest) -> Option<Pred> {
        let is_var = |e: &Ex| matches!(e.kind, ExKind::Var(s) if s == var);
        Some(match &e.kind {
            ExKind::Const(Value::Logic(l)) => Pred::Const(*l),
            ExKind::Unary { op: UnOp::Not, operand } => Pred::Not(Box::new(self.pred(var, operand, t)?)),
            ExKind::Binary { op: op @ (BinOp::Eq | BinOp::Ne), left, right } if is_var(left) || is_var(right) => {
                let eq = *op == BinOp::Eq;
                if is_var(left) && is_var(right) {
                    return Some(Pred::Const(Logic::from_bool(eq)));
                }
                let other = if is_var(left) { right } else { left };
                let node = match self.fixed_value(var, other)? {
                    Value::Node(n) if n.class == t.class => Some(n.id),
                    _ => None,
                };
                Pred::Same { node, eq }
            }
            ExKind::Binary {
                op: op @ (BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv | BinOp::Eq | BinOp::Ne),
                left,
                right,
            } => Pred::Op(*op, Box::new(self.pred(var, left, t)?), Box::new(self.pred(var, right, t)?)),
            ExKind::Edge(edge) => self.edge_pred(var, edge, t)?,
            ExKind::Builtin { name: "isa", object: Some(o), args, .. } if is_var(o) && args.len() == 1 => {
                let Value::Node(to) = self.fixed_value(var, &args[0])? else { return None };
                let class = self.world.class(to.class);
                if !class.contains(to.id) {
                    return None;
                }
                // As `N.isa(C)` does: C in its own graph, or else in the current one.
                let target_graph = to.graph.unwrap_or_else(|| t.graph.clone());
                if target_graph.borrow().class != to.class {
                    return None;
                }
                if !Rc::ptr_eq(&target_graph, &t.graph) {
                    self.world.link(&target_graph);
                }
                let target = Target { graph: target_graph.borrow().uid, node: to.id };
                Pred::Isa(self.world.isa_column(&t.graph, target)?)
            }
            _ => return None,
        })
    }

    /// `L rel R` with single sides, each the loop's node or a node of the state.
    fn edge_pred(&mut self, var: Slot, edge: &EdgeEx, t: &NodeTest) -> Option<Pred> {
        let (Operand::Single(l), Operand::Single(r)) = (&edge.left, &edge.right) else { return None };
        let rel = match edge.rel {
            Rel::Fixed(r) => r,
            Rel::Var(s) if s != var => match self.get(s) {
                Value::Edge(r) => *r,
                _ => return None,
            },
            _ => return None,
        };
        let from = self.end(var, l, t)?;
        let to = self.end(var, r, t)?;
        Some(Pred::Edge { from, rel, to, mode: edge.mode })
    }

    /// The loop's node, or a fixed node of the state's class (unbound, not deleted).
    fn end(&mut self, var: Slot, e: &Ex, t: &NodeTest) -> Option<End> {
        if matches!(e.kind, ExKind::Var(s) if s == var) {
            return Some(End::Var);
        }
        match self.fixed_value(var, e)? {
            Value::Node(n) if n.graph.is_none() && n.class == t.class && self.world.class(t.class).contains(n.id) => {
                Some(End::Node(n.id))
            }
            _ => None,
        }
    }

    /// The value of a part of the condition that does not depend on the loop's node and reads
    /// without side effects: a variable, a constant, a node constant (`$2`, `Sen=>$human`).
    /// None when it is something else or fails (the evaluator will report it).
    fn fixed_value(&mut self, var: Slot, e: &Ex) -> Option<Value> {
        match &e.kind {
            ExKind::Var(s) if *s != var => Some(self.get(*s).clone()),
            ExKind::Const(v) => Some(v.clone()),
            ExKind::Node(n) => self.node_const(n, e.span).ok().map(Value::Node),
            ExKind::NodeOf { graph, node } if matches!(graph.kind, ExKind::Var(s) if s != var) => {
                self.node_of(graph, node, e.span).ok()
            }
            _ => None,
        }
    }
}

impl Interp {
    /// `exists` with a compiled condition, leaving `var` where the evaluator's loop would: on
    /// the first node that passes (or, with bounds, the first of an accepted count), else on
    /// the last node.
    pub(super) fn exists_by_test(&mut self, var: Slot, test: &NodeTest, bounds: Option<(f64, f64)>) -> bool {
        let last = self.world.class(test.class).last();
        let first = test.next_pass(1, last);
        let ok = match bounds {
            None => first.is_some(),
            Some((lo, hi)) => {
                let mut count = 0.0;
                let mut at = first;
                while let Some(id) = at {
                    count += 1.0;
                    at = test.next_pass(id + 1, last);
                }
                count >= lo && count <= hi
            }
        };
        let bound = if ok { first.unwrap_or(last) } else { last };
        self.set(var, node(test.class, bound));
        ok
    }

    /// `forall` with a compiled condition: False on the first node that fails (left in `var`).
    pub(super) fn forall_by_test(&mut self, var: Slot, test: &NodeTest) -> bool {
        let last = self.world.class(test.class).last();
        let failed = (1..=last).find(|&id| !test.passes(id));
        self.set(var, node(test.class, failed.unwrap_or(last)));
        failed.is_none()
    }
}

fn node(class: ClassId, id: NodeId) -> Value {
    Value::Node(crate::value::NodeVal { class, id, graph: None })
}

/// The operands of a chain of `&`, left to right (the order they are evaluated in).
fn flatten_and<'a>(e: &'a Ex, out: &mut SmallVec<[&'a Ex; 4]>) {
    match &e.kind {
        ExKind::Binary { op: BinOp::And, left, right } => {
            flatten_and(left, out);
            flatten_and(right, out);
        }
        _ => out.push(e),
    }
}

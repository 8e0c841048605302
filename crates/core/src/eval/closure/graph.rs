//! The graph's side of a demon body as closures: `GRAPH = G`, `A on P = Undef`, `H hold A;`,
//! reading an edge `(A on P)` and comparing it (`!= True`), `exists(Z, H hold Z)`, `!x`, a node
//! constant. Each calls its rule's function (`Interp::assign`, `store_edge`,
//! `get_edge`, `exists`, `unary`), called directly, with the operands as closures; an edge
//! between local variables or node constants that are nodes of the current graph (the search
//! demons' usual edges, `H hold A`, `X on $2`) is read and set in place, and any other case
//! takes the general path from the start.

use super::edge::EdgeOperands;
use super::expr::value;
use super::target::TargetFn;
use super::{Node, StFn, ValueFn};
use crate::compile::ir::{EdgeEx, Ex, ExKind, NodeRef, Operand, Rel, Slot, Target};
use crate::eval::edges::{apply, set_value};
use crate::eval::node_test::TestSite;
use crate::eval::ops::logic;
use crate::eval::{Interp, R};
use crate::value::{Logic, NodeVal, Value};
use crate::world::{ClassId, NodeId, RelId};
use ds_syntax::ast::EdgeMode;
use ds_syntax::Span;

/// `GRAPH = x` or `edge = x` as a statement (None: another statement).
pub(super) fn statement(e: &Ex, span: Span, depth: u32) -> Option<StFn> {
    let ExKind::Assign { target, value: v } = &e.kind else { return None };
    let at = e.span;
    match &**target {
        Target::CurrentGraph => {
            // `GRAPH = G`, G a local (every search demon begins so): the graph read from the
            // slot and written in place (`Interp::set_current_graph`).
            if let ExKind::Var(Slot::Local(i)) = v.kind {
                let i = i as usize;
                return Some(Box::new(move |it| {
                    it.tick(span)?;
                    match it.local(i) {
                        Value::Graph(g) => {
                            let g = g.clone();
                            it.set_current_graph(g);
                        }
                        other => it.graph = other.clone(),
                    }
                    Ok(())
                }));
            }
            let v = value(v, depth);
            Some(Box::new(move |it| {
                it.tick(span)?;
                let g = v(it)?;
                it.graph = g;
                Ok(())
            }))
        }
        Target::Edge(edge) => {
            let (local, target) = (LocalEdge::new(edge), TargetFn::new(target, at, depth));
            // `A on P = Undef`: a constant stored as it is, not made as a value and read back
            // (a wide load that waits for the narrow stores that made it).
            let constant = match &v.kind {
                ExKind::Const(Value::Logic(l)) => Some(*l),
                _ => None,
            };
            let v = value(v, depth);
            Some(Box::new(move |it| {
                it.tick(span)?;
                if let (Some(local), Some(l)) = (&local, constant) {
                    if local.store(it, set_value(local.mode, l)) {
                        return Ok(());
                    }
                }
                let x = v(it)?;
                if let (Some(local), Value::Logic(l)) = (&local, &x) {
                    if local.store(it, set_value(local.mode, *l)) {
                        return Ok(());
                    }
                }
                target.assign(it, x, at).map(drop)
            }))
        }
        _ => None,
    }
}

/// `X rel Y;`: True, `X !rel Y;` False, `X ?rel Y;` Undef.
pub(super) fn set_edge(edge: &EdgeEx, span: Span, depth: u32) -> StFn {
    let (local, ends, edge) = (LocalEdge::new(edge), EdgeOperands::new(edge, depth), Node::new(edge));
    Box::new(move |it| {
        it.tick(span)?;
        if let Some(local) = &local {
            if local.store(it, set_value(local.mode, Logic::TRUE)) {
                return Ok(());
            }
        }
        it.set_edge_stmt(edge.get(), &ends.eval(), span)
    })
}

/// The expressions above as closures (None: another kind).
pub(super) fn expression(e: &Ex, depth: u32) -> Option<ValueFn> {
    let span = e.span;
    Some(match &e.kind {
        ExKind::Edge(edge) => {
            let read = edge_value(edge, span, depth);
            Box::new(move |it| read(it).map(Value::Logic))
        }
        // `(A on P) != True`: the edge's value compared without making values of both sides.
        ExKind::Binary { op, left, right, .. } => {
            let (ExKind::Edge(edge), ExKind::Const(Value::Logic(c))) = (&left.kind, &right.kind) else { return None };
            let (op, c, read) = (*op, *c, edge_value(edge, left.span, depth));
            Box::new(move |it| {
                let a = read(it)?;
                match logic(op, a, c) {
                    Some(v) => Ok(v),
                    None => it.binary_values(op, Value::Logic(a), Value::Logic(c), span),
                }
            })
        }
        ExKind::Exists { var, cond, min: None, max: None } => {
            let shape = TargetOf::new(*var, cond);
            let (var, test, site) = (*var, value(cond, depth + 1), TestSite::default());
            let cond = Node::new(&**cond);
            match shape {
                Some(t) => Box::new(move |it| match t.find(it, var) {
                    Some(found) => Ok(Value::bool(found)),
                    None => it.exists_within(var, (cond.get(), &test), None, span, Some(&site)),
                }),
                None => Box::new(move |it| it.exists_within(var, (cond.get(), &test), None, span, Some(&site))),
            }
        }
        ExKind::Unary { op, operand } => {
            let (op, operand) = (*op, value(operand, depth + 1));
            Box::new(move |it| {
                let v = operand(it)?;
                it.unary(op, v, span)
            })
        }
        ExKind::Node(n) => {
            let n = Node::new(&**n);
            Box::new(move |it| it.node_const(n.get(), span).map(Value::Node))
        }
        _ => return None,
    })
}

type LogicFn = Box<dyn Fn(&mut Interp) -> R<Logic>>;

/// Reading `X rel Y` (`Interp::get_edge`), in place when it is a `LocalEdge`.
fn edge_value(edge: &EdgeEx, span: Span, depth: u32) -> LogicFn {
    let (node, ends) = (Node::new(edge), EdgeOperands::new(edge, depth));
    match LocalEdge::new(edge) {
        Some(local) => Box::new(move |it| match local.read(it) {
            Some(v) => Ok(v),
            None => it.get_edge(node.get(), &ends.eval(), span),
        }),
        None => Box::new(move |it| it.get_edge(node.get(), &ends.eval(), span)),
    }
}

/// `A rel B` with A and B local variables or node constants (`X on $2`) and a fixed relation.
/// Reading them has no side effects, so when they are not two nodes of the current graph
/// nothing is lost by handing the edge to the general path.
struct LocalEdge {
    a: End,
    rel: RelId,
    b: End,
    mode: EdgeMode,
}

/// An end of a `LocalEdge`: a local variable, or a node constant once the general path has
/// found it (`NodeRef::cache`, the class and id `Interp::node_const` gives while the current
/// graph is of that class).
enum End {
    Local(usize),
    Const(Node<NodeRef>),
}

impl End {
    fn new(e: &Ex) -> Option<End> {
        match &e.kind {
            ExKind::Var(Slot::Local(i)) => Some(End::Local(*i as usize)),
            ExKind::Node(n) => Some(End::Const(Node::new(&**n))),
            _ => None,
        }
    }

    /// The node, when it is one bound to no graph (None: the general path decides).
    #[inline(always)]
    fn node(&self, it: &Interp) -> Option<NodeVal> {
        match self {
            End::Local(i) => match it.local(*i) {
                &Value::Node(NodeVal { class, id, graph: None }) => Some(NodeVal { class, id, graph: None }),
                _ => None,
            },
            End::Const(n) => n.get().cache.get().map(|(class, id)| NodeVal { class, id, graph: None }),
        }
    }
}

impl LocalEdge {
    fn new(edge: &EdgeEx) -> Option<LocalEdge> {
        let (Operand::Single(l), Operand::Single(r)) = (&edge.left, &edge.right) else { return None };
        let Rel::Fixed(rel) = edge.rel else { return None };
        Some(LocalEdge { a: End::new(l)?, rel, b: End::new(r)?, mode: edge.mode })
    }

    #[inline(always)]
    fn read(&self, it: &Interp) -> Option<Logic> {
        let (x, y) = (self.a.node(it)?, self.b.node(it)?);
        it.local_edge(&x, self.rel, &y).map(|v| apply(self.mode, v))
    }

    /// The two nodes, when both are unbound nodes of one class.
    #[inline(always)]
    fn nodes(&self, it: &Interp) -> Option<(ClassId, NodeId, NodeId)> {
        let (x, y) = (self.a.node(it)?, self.b.node(it)?);
        (x.class == y.class).then_some((x.class, x.id, y.id))
    }

    /// Sets the edge to `v` (its mode already applied); false when it is not this case.
    #[inline(always)]
    fn store(&self, it: &mut Interp, v: Logic) -> bool {
        match self.nodes(it) {
            Some((class, a, b)) => it.store_local_edge(class, a, self.rel, b, v),
            None => false,
        }
    }
}

/// `exists(Z, X rel Z)`, X a variable (a local, or a global at top level) and rel fixed: X's
/// first True `rel` target among the state's nodes (`Interp::exists_target`), the shape
/// matched once, when the closure is made.
struct TargetOf {
    x: Slot,
    rel: RelId,
}

/// `X rel Z` with Z the variable `var` of a loop or `exists`, X another variable and rel fixed:
/// X's slot and the relation.
pub(super) fn target_of(var: Slot, cond: &Ex) -> Option<(Slot, RelId)> {
    let ExKind::Edge(edge) = &cond.kind else { return None };
    let (Operand::Single(left), Operand::Single(right)) = (&edge.left, &edge.right) else { return None };
    let (ExKind::Var(x), ExKind::Var(z), Rel::Fixed(rel)) = (&left.kind, &right.kind, &edge.rel) else {
        return None;
    };
    (edge.mode == EdgeMode::Is && *x != var && *z == var).then_some((*x, *rel))
}

impl TargetOf {
    fn new(var: Slot, cond: &Ex) -> Option<TargetOf> {
        target_of(var, cond).map(|(x, rel)| TargetOf { x, rel })
    }

    /// Whether X has such a target (see `Interp::exists_target`); None: X is no node of the
    /// current graph, `exists` decides.
    #[inline(always)]
    fn find(&self, it: &mut Interp, var: Slot) -> Option<bool> {
        let &Value::Node(NodeVal { class, id, graph: None }) = it.get(self.x) else { return None };
        it.exists_target(var, class, id, self.rel)
    }
}

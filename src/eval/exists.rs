//! `exists(Z, X rel Z)` answered from X's facts. The seed's demons ask it all the time (`place`:
//! where is X; `take` and `put`: what does H hold); trying every node of the world costs a
//! lookup per node, while X's facts along `rel` are a few adjacent entries, sorted by target,
//! that is in creation order, the order `exists` tries nodes in.

use super::{Interp, R};
use crate::compile::ir::{Ex, ExKind, Operand, Rel, Slot};
use crate::syntax::ast::EdgeMode;
use crate::value::{NodeVal, Value};
use crate::world::{ClassId, NodeId, RelId};

impl Interp {
    /// The answer of `exists(var, cond)` (no counts) when `cond` is `X rel var`, with X a node
    /// of the current graph; None when it is not that case, and every node must be tried.
    /// As the full loop would, a success binds `var` to the first node, a failure to the last.
    pub(super) fn exists_edge(&mut self, var: Slot, cond: &Ex) -> R<Option<bool>> {
        let ExKind::Edge(edge) = &cond.kind else { return Ok(None) };
        let (Operand::Single(left), Operand::Single(right)) = (&edge.left, &edge.right) else {
            return Ok(None);
        };
        let plain_left = match left.kind {
            ExKind::Var(s) => s != var,
            ExKind::Node(_) => true,
            _ => false,
        };
        if edge.mode != EdgeMode::Is || !plain_left || !matches!(right.kind, ExKind::Var(s) if s == var) {
            return Ok(None);
        }
        let rel = match edge.rel {
            Rel::Fixed(r) => r,
            Rel::Var(s) if s != var => match self.get(s) {
                Value::Edge(r) => *r,
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        if !matches!(self.graph, Value::Graph(_)) {
            return Ok(None); // the general loop reports it
        }
        // Reading a variable or a node constant has no side effects: the general loop, if it
        // runs instead, reads it again.
        let x = match &left.kind {
            ExKind::Var(s) => self.get(*s).dup(),
            ExKind::Node(n) => Value::Node(self.node_const(n, left.span)?),
            _ => return Ok(None),
        };
        match x {
            Value::Node(NodeVal { class, id, graph: None }) => Ok(self.exists_target(var, class, id, rel)),
            _ => Ok(None),
        }
    }

    /// Whether node `x` of `class` has a True `rel` target among the current graph's nodes,
    /// `var` then bound to the first (else to the class's last node, as the full loop leaves
    /// it); None when there is no current graph or `x` is of another class.
    pub(super) fn exists_target(&mut self, var: Slot, class: ClassId, x: NodeId, rel: RelId) -> Option<bool> {
        let Value::Graph(g) = &self.graph else { return None };
        let g = g.borrow();
        if class != g.class {
            return None;
        }
        let c = self.world.class(class);
        let found = g.facts.first_true_target(x, rel, |n| c.contains(n));
        let bound = found.or((!c.is_empty()).then_some(c.last()));
        drop(g);
        if let Some(id) = bound {
            self.set_node(var, class, id);
        }
        Some(found.is_some())
    }
}

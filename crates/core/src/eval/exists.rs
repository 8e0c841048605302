//! `exists(Z, X rel Z)` answered from X's facts (the closure of such an `exists`,
//! `closure/graph.rs`). The seed's demons ask it all the time (`place`: where is X; `take` and
//! `put`: what does H hold); trying every node of the world costs a lookup per node, while X's
//! facts along `rel` are a few adjacent entries, sorted by target, that is in creation order,
//! the order `exists` tries nodes in.

use super::Interp;
use crate::compile::ir::Slot;
use crate::value::Value;
use crate::world::{ClassId, NodeId, RelId};

impl Interp {
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

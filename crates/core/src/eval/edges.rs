//! Edge expressions: reading `X rel Y`, setting it, and the group forms with arrays.

use super::{fail, Interp, R};
use crate::compile::ir::{EdgeEx, Operand, Rel};
use crate::value::{Logic, NodeVal, Value};
use crate::world::{ClassId, FactKey, GraphRef, NodeId, RelId};
use ds_syntax::ast::EdgeMode;
use ds_syntax::Span;
use smallvec::SmallVec;
use std::rc::Rc;

type Ends = SmallVec<[(EdgeMode, NodeVal); 4]>;

/// The value of an edge's operand: the left (false) or right (true) side's i-th item (a single
/// operand is item 0). The rules below ask for each in the order the language evaluates them.
pub(crate) type EvalEnds<'a> = &'a dyn Fn(&mut Interp, bool, usize) -> R<Value>;

pub(super) fn apply(mode: EdgeMode, v: Logic) -> Logic {
    match mode {
        EdgeMode::Is => v,
        EdgeMode::Not => v.negate(),
        EdgeMode::Undef => Logic::from_bool(v.is_undef()),
    }
}

/// The value a `!item` / `?item` of a group (or `X !rel Y` / `X ?rel Y`) receives when the
/// edge is set to `v`.
pub(super) fn set_value(mode: EdgeMode, v: Logic) -> Logic {
    match mode {
        EdgeMode::Is => v,
        EdgeMode::Not => v.negate(),
        EdgeMode::Undef => Logic::UNDEF,
    }
}

impl Interp {
    /// The relation id of a relation operand (a fixed one, or a variable holding an edge type).
    pub(crate) fn relation_of(&mut self, rel: &Rel, span: Span) -> R<RelId> {
        match rel {
            Rel::Fixed(id) => Ok(*id),
            Rel::Var(slot) => match self.get(*slot) {
                Value::Edge(id) => Ok(*id),
                other => fail(span, format!("this variable is used as a relation but holds {}", other.described())),
            },
            Rel::Demon(_) => fail(span, "a relation demon cannot be used here"),
        }
    }

    /// One side's nodes (`right`: which side), each item's value given by `eval` in turn.
    fn ends(&mut self, op: &Operand, right: bool, eval: EvalEnds) -> R<Ends> {
        let mut out = Ends::new();
        match op {
            Operand::Single(e) => {
                let v = eval(self, right, 0)?;
                self.push_ends(&mut out, EdgeMode::Is, v, e.span)?;
            }
            Operand::Group(items) => {
                for (i, (mode, e)) in items.iter().enumerate() {
                    let v = eval(self, right, i)?;
                    self.push_ends(&mut out, *mode, v, e.span)?;
                }
            }
        }
        Ok(out)
    }

    fn push_ends(&mut self, out: &mut Ends, mode: EdgeMode, v: Value, span: Span) -> R<()> {
        match v {
            Value::Node(n) => out.push((mode, n)),
            Value::Array(a) => {
                for item in a.borrow().iter() {
                    match item {
                        Value::Node(n) => out.push((mode, n.clone())),
                        other => {
                            return fail(
                                span,
                                format!("an edge needs nodes, but this array holds {}", other.described()),
                            )
                        }
                    }
                }
            }
            other => {
                return fail(span, format!("an edge needs a node or an array of nodes, not {}", other.described()))
            }
        }
        Ok(())
    }

    /// The graph that holds the edges of node `n`: its own binding, or the current graph.
    pub(crate) fn holder(&self, n: &NodeVal, span: Span) -> R<GraphRef> {
        self.live(n, span)?;
        if let Some(g) = &n.graph {
            return Ok(g.clone());
        }
        let g = self.current_graph(span)?;
        if g.borrow().class != n.class {
            let gname = g.borrow().name.clone();
            return fail(
                span,
                format!("node `{}` is not a node of the current graph `{gname}`", self.text(&Value::Node(n.clone()))),
            );
        }
        Ok(g)
    }

    /// An error for a node that `delete_nodes` removed.
    pub(crate) fn live(&self, n: &NodeVal, span: Span) -> R<()> {
        let class = self.world.class(n.class);
        if class.contains(n.id) {
            return Ok(());
        }
        if class.deleted {
            return fail(span, "this node was deleted (by `delete_nodes`); a variable still holds it");
        }
        fail(span, format!("node number {} does not exist", n.id))
    }

    /// The fact key of `from rel to` in `holder`; a target in another graph is an external edge.
    pub(crate) fn key(
        &mut self,
        holder: &GraphRef,
        from: &NodeVal,
        rel: RelId,
        to: &NodeVal,
        span: Span,
    ) -> R<FactKey> {
        self.live(to, span)?;
        // A node bound to another state of the same world is the same object here: only a
        // node of another class (`Sen=>$human`) makes an edge into another graph.
        let tgraph = match &to.graph {
            Some(tg) if !Rc::ptr_eq(tg, holder) && tg.borrow().class != holder.borrow().class => {
                self.world.link(tg);
                tg.borrow().uid
            }
            _ => {
                if to.class != holder.borrow().class {
                    return fail(
                        span,
                        format!(
                            "node `{}` belongs to another graph; write `Graph=>{}` to link to it",
                            self.text(&Value::Node(to.clone())),
                            self.text(&Value::Node(to.clone()))
                        ),
                    );
                }
                0
            }
        };
        Ok(FactKey::new(from.id, rel, tgraph, to.id))
    }

    pub fn get_edge(&mut self, edge: &EdgeEx, eval: EvalEnds, span: Span) -> R<Logic> {
        if let Rel::Demon(id) = edge.rel {
            let (l, r) = (self.single(&edge.left, false, eval)?, self.single(&edge.right, true, eval)?);
            let code = self.demon(id, span)?;
            let v = self.call_fn(&code, vec![l, r], span, None)?;
            return Ok(apply(edge.mode, v.condition()));
        }
        let rel = self.relation_of(&edge.rel, edge.rel_span)?;
        if let (Operand::Single(_), Operand::Single(_)) = (&edge.left, &edge.right) {
            let (l, r) = (eval(self, false, 0)?, eval(self, true, 0)?);
            if let (Value::Node(a), Value::Node(b)) = (&l, &r) {
                if let Some(v) = self.local_edge(a, rel, b) {
                    l.discard();
                    r.discard();
                    return Ok(apply(edge.mode, v));
                }
            }
            if let (Value::Node(l), Value::Node(r)) = (&l, &r) {
                let holder = self.holder(l, span)?;
                let key = self.key(&holder, l, rel, r, span)?;
                let v = holder.borrow().facts.get(key);
                return Ok(apply(edge.mode, v));
            }
            let (mut lefts, mut rights) = (Ends::new(), Ends::new());
            self.push_ends(&mut lefts, EdgeMode::Is, l, span)?;
            self.push_ends(&mut rights, EdgeMode::Is, r, span)?;
            return self.group_query(edge, rel, &lefts, &rights, span);
        }
        let lefts = self.ends(&edge.left, false, eval)?;
        let rights = self.ends(&edge.right, true, eval)?;
        self.group_query(edge, rel, &lefts, &rights, span)
    }

    /// `a rel b` between two nodes of the current graph, the usual case, read without
    /// resolving holders (None: some other case, for the general path).
    #[inline]
    pub(super) fn local_edge(&self, a: &NodeVal, rel: RelId, b: &NodeVal) -> Option<Logic> {
        if a.graph.is_some() || b.graph.is_some() {
            return None;
        }
        let Value::Graph(g) = &self.graph else { return None };
        let g = g.borrow();
        if g.class != a.class || g.class != b.class {
            return None;
        }
        let v = g.facts.get(FactKey::new(a.id, rel, 0, b.id));
        // A missing edge may be one of a deleted node: the general path tells.
        let class = self.world.class(g.class);
        (!v.is_undef() || (class.contains(a.id) && class.contains(b.id))).then_some(v)
    }

    /// A group query (arrays, `!item`, `?item`) is two-valued: True when every pair's
    /// contribution is exactly True, else False (as the original's group reads behave).
    fn group_query(&mut self, edge: &EdgeEx, rel: RelId, lefts: &Ends, rights: &Ends, span: Span) -> R<Logic> {
        for (lm, l) in lefts {
            let holder = self.holder(l, span)?;
            for (rm, r) in rights {
                let key = self.key(&holder, l, rel, r, span)?;
                let v = holder.borrow().facts.get(key);
                if !apply(edge.mode, apply(*rm, apply(*lm, v))).is_true() {
                    return Ok(Logic::FALSE);
                }
            }
        }
        Ok(Logic::TRUE)
    }

    fn single(&mut self, op: &Operand, right: bool, eval: EvalEnds) -> R<Value> {
        match op {
            Operand::Single(_) => eval(self, right, 0),
            Operand::Group(items) => match &items[..] {
                [(EdgeMode::Is, _)] => eval(self, right, 0),
                _ => fail(
                    items.first().map_or(Span::default(), |i| i.1.span),
                    "a relation demon takes single values, not `!`/`?` groups",
                ),
            },
        }
    }

    /// `X rel Y` as a statement: True, `X !rel Y` False, `X ?rel Y` Undef.
    pub fn set_edge_stmt(&mut self, edge: &EdgeEx, eval: EvalEnds, span: Span) -> R<()> {
        self.set_edge(edge, eval, Logic::TRUE, span)
    }

    /// `X rel Y = V`; `X !rel Y = V` stores `!V`.
    pub fn set_edge(&mut self, edge: &EdgeEx, eval: EvalEnds, v: Logic, span: Span) -> R<()> {
        self.store_edge(edge, eval, set_value(edge.mode, v), span)
    }

    fn store_edge(&mut self, edge: &EdgeEx, eval: EvalEnds, v: Logic, span: Span) -> R<()> {
        if let Rel::Demon(id) = edge.rel {
            let (l, r) = (self.single(&edge.left, false, eval)?, self.single(&edge.right, true, eval)?);
            let code = self.demon(id, span)?;
            if code.set.is_none() {
                return fail(
                    edge.rel_span,
                    format!("demon `{}` has no `set:` section, so it cannot set an edge", code.name),
                );
            }
            self.call_fn(&code, vec![l, r], span, Some(Value::Logic(v)))?;
            return Ok(());
        }
        let rel = self.relation_of(&edge.rel, edge.rel_span)?;
        let lefts = self.ends(&edge.left, false, eval)?;
        let rights = self.ends(&edge.right, true, eval)?;
        for (lm, l) in &lefts {
            let holder = self.holder(l, span)?;
            for (rm, r) in &rights {
                let key = self.key(&holder, l, rel, r, span)?;
                let value = set_value(*rm, set_value(*lm, v));
                let (old, new) = holder.borrow_mut().set_edge(key, value);
                self.note_change(&holder, l, rel, r, old, new);
            }
        }
        Ok(())
    }

    /// `a rel b = v` between two nodes of the current graph's class, the usual edge statement
    /// (`H hold A;`), as `store_edge` sets it without resolving holders or ends. False (and
    /// nothing done) when it is another case, for the general path.
    pub(super) fn store_local_edge(&mut self, class: ClassId, a: NodeId, rel: RelId, b: NodeId, v: Logic) -> bool {
        let Value::Graph(g) = &self.graph else { return false };
        let c = self.world.class(class);
        if g.borrow().class != class || !c.contains(a) || !c.contains(b) {
            return false;
        }
        let g = g.clone();
        let (old, new) = g.borrow_mut().set_edge(FactKey::new(a, rel, 0, b), v);
        let node = |id| NodeVal { class, id, graph: None };
        self.note_change(&g, &node(a), rel, &node(b), old, new);
        true
    }

    /// The edge-change notes of `G.verbose(1)` (and `2` for new edges), on standard error.
    fn note_change(&mut self, holder: &GraphRef, l: &NodeVal, rel: RelId, r: &NodeVal, old: Logic, new: Logic) {
        // The name is read only for a note: most graphs say nothing.
        let verbose = holder.borrow().verbose;
        if verbose == 0 || old == new || (old.is_undef() && verbose < 2) {
            return;
        }
        let gname = holder.borrow().name.clone();
        let (from, to) = (self.text(&Value::Node(l.clone())), self.text(&Value::Node(r.clone())));
        let relname = self.world.relation_name(rel).to_string();
        if new.is_undef() {
            self.note(format_args!("deleted edge {from} {relname} {to} (was {old}) in graph {gname}"));
        } else if old.is_undef() {
            self.note(format_args!("new edge {from} {relname} {to} = {new} in graph {gname}"));
        } else {
            self.note(format_args!("edge {from} {relname} {to} changed from {old} to {new} in graph {gname}"));
        }
    }
}

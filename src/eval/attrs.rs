//! Attributes, `N[A]` and `N[A] = V` (reference 7.2): a node's own, else inherited along its
//! True `isa` edges.

use super::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::{NodeVal, Value};
use crate::world::ISA;

/// The attribute node of `N[A]`: A must be a node.
fn attr_key(a: &Value, span: Span) -> R<NodeVal> {
    match a {
        Value::Node(a) => Ok(a.clone()),
        other => fail(span, format!("an attribute is named by a node, not {}", other.described())),
    }
}

/// `N[A]`: N's attribute A in N's graph, or else that of its nearest `isa` ancestor (True
/// edges, across graphs); None when none has it.
pub(crate) fn get_attr(it: &mut Interp, n: &NodeVal, a: &Value, span: Span) -> R<Value> {
    let a = attr_key(a, span)?;
    it.live(&a, span)?;
    for (g, id) in lineage(it, n, span)? {
        if let Some((_, v)) = g.borrow().data.attrs.get(&(id, a.class, a.id)) {
            return Ok(v.clone());
        }
    }
    Ok(Value::None)
}

/// `N[A] = V`: sets N's attribute A in N's graph; None removes it.
pub(crate) fn set_attr(it: &mut Interp, n: &NodeVal, a: &Value, v: Value, span: Span) -> R<()> {
    let a = attr_key(a, span)?;
    it.live(&a, span)?;
    let holder = it.holder(n, span)?;
    let mut g = holder.borrow_mut();
    let attrs = &mut g.data_mut().attrs;
    if matches!(v, Value::None) {
        attrs.remove(&(n.id, a.class, a.id));
    } else {
        let key = (n.id, a.class, a.id);
        attrs.insert(key, (Value::Node(a), v));
    }
    Ok(())
}

/// N itself, then its ancestors along True `isa` edges, nearest first (across graphs).
pub(crate) fn lineage(it: &Interp, start: &NodeVal, span: Span) -> R<Vec<(crate::world::GraphRef, u32)>> {
    let holder = it.holder(start, span)?;
    let mut out = vec![(holder, start.id)];
    let mut i = 0;
    while i < out.len() && out.len() < 10_000 {
        let (g, id) = out[i].clone();
        let parents: Vec<_> = {
            let gb = g.borrow();
            gb.facts
                .outgoing_rel(id, ISA)
                .filter(|f| f.value.is_true())
                .filter_map(|f| match f.key.tgraph() {
                    0 => Some((g.clone(), f.key.tgt())),
                    uid => it.world.linked_graph(uid).map(|tg| (tg, f.key.tgt())),
                })
                .collect()
        };
        for p in parents {
            if !out.iter().any(|(g2, id2)| std::rc::Rc::ptr_eq(g2, &p.0) && *id2 == p.1) {
                out.push(p);
            }
        }
        i += 1;
    }
    Ok(out)
}

//! Attributes, `N[A]` and `N[A] = V` (reference 7.2): a node's own, else inherited along its
//! True `isa` edges.

use super::{fail, Interp, R};
use crate::value::{NodeVal, Value};
use crate::world::{GraphRef, ISA};
use ds_syntax::Span;

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

/// How many nodes a lineage holds at most (a cycle of `isa` edges across graphs, or a very wide
/// ancestry, stops there).
const MAX_LINEAGE: usize = 10_000;

/// N itself, then its ancestors along True `isa` edges, nearest first (across graphs).
pub(crate) fn lineage(it: &Interp, start: &NodeVal, span: Span) -> R<Vec<(GraphRef, u32)>> {
    let holder = it.holder(start, span)?;
    let parents = |(g, id): &(GraphRef, u32)| -> Vec<(GraphRef, u32)> {
        let gb = g.borrow();
        gb.facts
            .outgoing_rel(*id, ISA)
            .filter(|f| f.value.is_true())
            .filter_map(|f| match f.key.tgraph() {
                0 => Some((g.clone(), f.key.tgt())),
                uid => it.world.linked_graph(uid).map(|tg| (tg, f.key.tgt())),
            })
            .collect()
    };
    let key = |(g, id): &(GraphRef, u32)| (std::rc::Rc::as_ptr(g) as usize, *id);
    Ok(breadth_first((holder, start.id), key, parents, MAX_LINEAGE))
}

/// `start`, then what `parents` reaches from it, breadth first, each item once (the first time
/// its key is met); no item's parents are asked for once `cap` items are found. A set of the
/// keys seen, not a scan of the list: a node with thousands of parents made the scan quadratic.
fn breadth_first<T, K: Eq + std::hash::Hash>(
    start: T,
    key: impl Fn(&T) -> K,
    mut parents: impl FnMut(&T) -> Vec<T>,
    cap: usize,
) -> Vec<T> {
    let mut seen: rustc_hash::FxHashSet<K> = Default::default();
    seen.insert(key(&start));
    let mut out = vec![start];
    let mut i = 0;
    while i < out.len() && out.len() < cap {
        for p in parents(&out[i]) {
            if seen.insert(key(&p)) {
                out.push(p);
            }
        }
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::breadth_first;
    use crate::counted::{looks, Counted};

    /// Node 0 has parents 1..=n, and each of them has 0 and its neighbours as parents: 3n
    /// edges, most to nodes already found.
    fn parents(n: u32) -> impl FnMut(&u32) -> Vec<u32> {
        move |&i| if i == 0 { (1..=n).collect() } else { vec![0, i - 1, (i % n) + 1] }
    }

    #[test]
    fn the_order_is_breadth_first_and_each_node_comes_once() {
        let got = breadth_first(0, |&i| i, parents(4), 100);
        assert_eq!(got, vec![0, 1, 2, 3, 4]);
        // A diamond: 0 isa 1 and 2, both isa 3; then a cycle back to 0.
        let diamond = |&i: &u32| match i {
            0 => vec![1, 2],
            1 | 2 => vec![3],
            _ => vec![0],
        };
        assert_eq!(breadth_first(0, |&i| i, diamond, 100), vec![0, 1, 2, 3]);
    }

    #[test]
    fn the_cap_stops_the_walk() {
        // Once 2 are found no more parents are asked for; all those of the node read are kept.
        let chain = |&i: &u32| vec![i + 1, i + 100];
        assert_eq!(breadth_first(0, |&i| i, chain, 2), vec![0, 1, 100]);
        assert_eq!(breadth_first(0, |&i| i, chain, 4), vec![0, 1, 100, 2, 101]);
    }

    /// Counted work, not a clock: the keys are looked at a bounded number of times per edge,
    /// at two sizes, where a scan of the nodes found compares each new one with all before it.
    #[test]
    fn each_edge_looks_at_a_bounded_number_of_keys() {
        for n in [1_000u32, 9_000] {
            let (got, looks) = looks(|| breadth_first(0, |&i| Counted(i), parents(n), super::MAX_LINEAGE));
            assert_eq!(got, (0..=n).collect::<Vec<_>>());
            assert!(looks <= 8 * 3 * u64::from(n), "{looks} looks at the keys for {} edges", 3 * n);
        }
    }
}

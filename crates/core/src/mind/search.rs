//! Models: the completions of a graph over some relations (every Undef edge between its nodes
//! made True or False) that the axioms allow. A depth-first search splits on one undefined edge
//! at a time, True first, and propagates after every split, so that a branch the axioms rule
//! out is cut as soon as it is made and forced edges are never split on.

use super::propagate::Rules;
use crate::value::Logic;
use crate::world::{FactKey, Facts, NodeId, RelId};
use std::collections::BTreeMap;

/// The first Undef edge between the graph's own nodes along `rels`: relations in the given
/// order, then sources, then targets, in creation order.
pub fn first_undef(facts: &Facts, rels: &[RelId], n: NodeId) -> Option<FactKey> {
    for &rel in rels {
        for src in 1..=n {
            // The stored targets are sorted, edges into this graph (target graph 0) first.
            let mut stored = facts.outgoing_rel(src, rel).filter(|f| f.key.tgraph() == 0).map(|f| f.key.tgt());
            let mut next = stored.next();
            for tgt in 1..=n {
                if next == Some(tgt) {
                    next = stored.next();
                } else {
                    return Some(FactKey::new(src, rel, 0, tgt));
                }
            }
        }
    }
    None
}

/// Propagates; None when the axioms contradict the state.
fn settle<E>(rules: &Rules, mut facts: Facts, tick: &mut dyn FnMut() -> Result<(), E>) -> Result<Option<Facts>, E> {
    Ok(rules.propagate(&mut facts, None, tick)?.ok().map(|_| facts))
}

/// Calls `found` with each model of `start` over `rels`, in search order, until it returns
/// false.
pub fn models<E>(
    rules: &Rules,
    start: &Facts,
    rels: &[RelId],
    tick: &mut dyn FnMut() -> Result<(), E>,
    found: &mut dyn FnMut(Facts) -> Result<bool, E>,
) -> Result<(), E> {
    let mut stack = vec![start.clone()];
    while let Some(facts) = stack.pop() {
        let Some(facts) = settle(rules, facts, tick)? else { continue };
        match first_undef(&facts, rels, rules.n) {
            None => {
                if !found(facts)? {
                    return Ok(());
                }
            }
            Some(key) => {
                // Pushed False first, so that the True branch is searched first.
                for v in [false, true] {
                    let mut child = facts.clone();
                    child.set(key, Logic::from_bool(v));
                    stack.push(child);
                }
            }
        }
    }
    Ok(())
}

/// `start` split on `key`: the state with the edge True and the one with it False (`first`
/// decides which comes first), each propagated; the ones the axioms allow.
pub fn split<E>(
    rules: &Rules,
    start: &Facts,
    key: FactKey,
    first: bool,
    tick: &mut dyn FnMut() -> Result<(), E>,
) -> Result<Vec<Facts>, E> {
    let mut out = Vec::new();
    for v in [first, !first] {
        let mut child = start.clone();
        child.set(key, Logic::from_bool(v));
        if let Some(f) = settle(rules, child, tick)? {
            out.push(f);
        }
    }
    Ok(out)
}

/// The models of `start` over `rels` that break the fewest ground instances of the usual
/// axioms, at most `max` of them, fewest broken first (ties in search order). The search tries
/// the value a usual axiom asks for first, and cuts a branch as soon as it breaks as many
/// defaults as the worst model kept (breaking only grows as edges are set).
pub fn usual_models<E>(
    rules: &Rules,
    usual: &Rules,
    start: &Facts,
    rels: &[RelId],
    max: usize,
    tick: &mut dyn FnMut() -> Result<(), E>,
    valid: &mut dyn FnMut(&Facts) -> Result<bool, E>,
) -> Result<Vec<(usize, Facts)>, E> {
    let mut best = Kept { by_broken: BTreeMap::new(), len: 0, max };
    let mut stack = vec![start.clone()];
    while let Some(facts) = stack.pop() {
        let Some(facts) = settle(rules, facts, tick)? else { continue };
        let broken = usual.broken(&facts);
        if best.len >= max && best.worst().is_some_and(|w| broken >= w) {
            continue;
        }
        let default = usual.first_firing(&facts).filter(|(k, _)| rels.contains(&k.rel()));
        let (key, first) = match default.or_else(|| first_undef(&facts, rels, rules.n).map(|k| (k, true))) {
            Some(split) => split,
            None => {
                if valid(&facts)? {
                    best.keep(broken, facts);
                }
                continue;
            }
        };
        for v in [!first, first] {
            let mut child = facts.clone();
            child.set(key, Logic::from_bool(v));
            stack.push(child);
        }
    }
    Ok(best.by_broken.into_iter().flat_map(|(broken, models)| models.into_iter().map(move |f| (broken, f))).collect())
}

/// The best models so far, at most `max`: by the number of defaults they break, each number's
/// in search order. (A sorted vector made keeping all of them quadratic.)
struct Kept {
    by_broken: BTreeMap<usize, Vec<Facts>>,
    len: usize,
    max: usize,
}

impl Kept {
    /// How many defaults the worst model kept breaks.
    fn worst(&self) -> Option<usize> {
        self.by_broken.last_key_value().map(|(&broken, _)| broken)
    }

    /// Keeps a model after those that break as few defaults or fewer, dropping the last of the
    /// worst when there are more than `max`.
    fn keep(&mut self, broken: usize, facts: Facts) {
        self.by_broken.entry(broken).or_default().push(facts);
        self.len += 1;
        if self.len > self.max {
            let mut worst = self.by_broken.last_entry().expect("a model was just kept");
            worst.get_mut().pop();
            if worst.get().is_empty() {
                worst.remove();
            }
            self.len -= 1;
        }
    }
}

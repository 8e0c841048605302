//! Breadth-first search, level by level. Ids are given in discovery order, so each level is a
//! range of ids: the frontier is `level..next`, and no queue is kept. States of a level are
//! expanded in id order and their successors committed in the order `Next` gives them, which
//! is the order of a FIFO queue (and of the seed's `solver`): a parallel engine that expands a
//! level on several workers and commits in this order gets the same ids and the same answer.
//!
//! As decision 17 says (and the seed's `solver` does), the goal is tested when a state is
//! generated, not when it is expanded, and the start is not tested as such: a successor that
//! is the start again is tested once, so a start that is a goal is found along a way back to it.

use super::*;

pub(super) fn bfs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    let mut start_checked = false;
    let found = by_levels(p, store, counts, |p, store, counts, id, depth, succ| {
        let g = store.g(id);
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (sid, new) = insert(store, config, &s, id, depth + 1, g + s.cost)?;
            if new {
                counts.reached(depth + 1);
                if p.is_goal(Which::Successor(i))? {
                    return Ok(Some(Found { id: sid, origin: store.origin(sid) }));
                }
                continue;
            }
            counts.duplicates += 1;
            if sid == 0 && !start_checked {
                start_checked = true;
                if p.is_goal(Which::Successor(i))? {
                    let origin = origin_of(store, &s, id, depth + 1, g + s.cost);
                    return Ok(Some(Found { id: 0, origin }));
                }
            }
        }
        Ok(None)
    })?;
    Ok(found.ok_or(Reason::Exhausted))
}

/// What breadth-first search and exploration share: the start stored, then the states of each
/// level expanded in id order (with the frontier counted, the limits checked, the expansion
/// traced), and `commit` given each state's successors; it stops when `commit` returns
/// something, or when a level adds no state.
pub(super) fn by_levels<P: Problem, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    mut commit: impl FnMut(&mut P, &mut StateStore, &mut Counts, StateId, u32, &Successors) -> Step<Option<T>, P::Error>,
) -> Step<Option<T>, P::Error> {
    let mut succ = Successors::default();
    insert_start(p, store, &mut succ)?;
    let (mut level, mut next) = (0usize, 1usize);
    let mut depth = 0u32;
    while level < next {
        for id in level..next {
            let id = id as StateId;
            counts.frontier(next - id as usize + (store.len() - next));
            p.check(counts, store)?;
            p.load(store, id)?;
            if p.tracing() {
                let g = store.g(id);
                let e = Expansion { step: counts.expanded + 1, id, parent: store.parent(id), depth, g, h: None, f: g };
                p.trace(&e, store)?;
            }
            p.expand(&mut succ)?;
            counts.expanded += 1;
            counts.generated += succ.len() as u64;
            if let Some(t) = commit(p, store, counts, id, depth, &succ)? {
                return Ok(Some(t));
            }
        }
        level = next;
        next = store.len();
        depth += 1;
    }
    Ok(None)
}

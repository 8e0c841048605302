//! Depth-first search with an optional depth limit, and iterative deepening on top of it.
//!
//! Both test the start first and then every new state when it is generated (as the 15-puzzle
//! seed describes). A state is met again by a shorter way than before is searched again from
//! there (the seed: "successors never met, or met only deeper, go to the front of OPEN"),
//! so a depth limit never hides a goal within it; a state met again no shorter is a duplicate.
//! Iterative deepening repeats the limited search with limits 1, 2, 3, ...: the first goal it
//! finds is a nearest one, and it stops when a round was not cut by its limit.

use super::*;

pub(super) fn dfs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    if let Some(found) = start_is_goal(p, store)? {
        return Ok(Ok(found));
    }
    let mut best = Vec::new();
    Ok(match limited(p, store, config, counts, config.limit, &mut best)? {
        Ok(found) => Ok(found),
        Err(true) => Err(Reason::DepthLimit),
        Err(false) => Err(Reason::Exhausted),
    })
}

pub(super) fn iddfs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    if let Some(found) = start_is_goal(p, store)? {
        return Ok(Ok(found));
    }
    let mut best = Vec::new();
    for limit in 1.. {
        if config.limit.is_some_and(|max| limit > max) {
            return Ok(Err(Reason::DepthLimit));
        }
        match limited(p, store, config, counts, Some(limit), &mut best)? {
            Ok(found) => return Ok(Ok(found)),
            Err(true) => continue,
            Err(false) => return Ok(Err(Reason::Exhausted)),
        }
    }
    unreachable!("the loop over limits returns")
}

/// Tells a watching problem an event of a depth-first search (which knows no h: f is g).
#[allow(clippy::too_many_arguments)]
fn note<P: Problem>(
    p: &mut P,
    store: &StateStore,
    kind: EventKind,
    id: StateId,
    parent: StateId,
    depth: u32,
    g: f64,
    frontier: usize,
) -> Step<(), P::Error> {
    tell(p, store, || Event { kind, id, parent, depth, g, h: None, f: g, frontier })
}

/// One depth-first search from the start (stored, not a goal) down to `limit`. `Err(cut)`
/// when it found no goal; `cut` tells whether the limit kept it from a state's successors.
/// `best` is the least depth each state was met at (in this search).
fn limited<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
    limit: Option<u32>,
    best: &mut Vec<u32>,
) -> Step<Result<Found, bool>, P::Error> {
    best.clear();
    best.resize(store.len(), u32::MAX);
    best[0] = 0;
    let mut stack: Vec<(StateId, u32)> = vec![(0, 0)];
    let mut succ = Successors::default();
    let mut children = Vec::new();
    let mut cut = false;
    while let Some((id, depth)) = stack.pop() {
        if best[id as usize] < depth {
            continue; // met by a shorter way since it was pushed: searched from there
        }
        if limit.is_some_and(|l| depth >= l) {
            cut = true;
            note(p, store, EventKind::Prune, id, store.parent(id), depth, store.g(id), stack.len())?;
            continue;
        }
        counts.frontier(stack.len() + 1);
        p.check(counts, store)?;
        p.load(store, id)?;
        let g = store.g(id);
        note(p, store, EventKind::Expand, id, store.parent(id), depth, g, stack.len())?;
        p.expand(&mut succ)?;
        counts.expanded += 1;
        counts.generated += succ.len() as u64;
        children.clear();
        for i in 0..succ.len() {
            let s = succ.get(i);
            let d = depth + 1;
            let (sid, new) = insert(store, config, &s, id, d, g + s.cost)?;
            let at = sid as usize;
            if at >= best.len() {
                best.resize(at + 1, u32::MAX);
            }
            let frontier = stack.len() + children.len();
            if !new {
                if best[at] <= d {
                    counts.duplicates += 1;
                    note(p, store, EventKind::Duplicate, sid, id, d, g + s.cost, frontier)?;
                    continue;
                }
                // Known (from an earlier round, or deeper in this one): searched again from
                // here. It was tested when it was new.
                let origin = origin_of(store, &s, id, d, g + s.cost);
                store.set_origin(sid, origin);
            }
            best[at] = d;
            counts.reached(d);
            let kind = if new { EventKind::Push } else { EventKind::Reopen };
            note(p, store, kind, sid, id, d, g + s.cost, frontier + 1)?;
            if new && p.is_goal(Which::Successor(i))? {
                note(p, store, EventKind::Goal, sid, id, d, g + s.cost, frontier + 1)?;
                return Ok(Ok(Found { id: sid, origin: store.origin(sid) }));
            }
            children.push((sid, d));
        }
        // The first successor on top: searched first.
        stack.extend(children.iter().rev());
    }
    Ok(Err(cut))
}

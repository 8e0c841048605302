//! Beam search: breadth first, level by level, keeping of each level's new states only the
//! `width` of least h (ties: the first generated). The start is tested first, then each new
//! state when it is generated, as in `bfs`. States dropped from the beam stay stored, so a
//! way back to them later is a duplicate: each state is expanded at most once and the search
//! ends. It is incomplete: when it ends without a goal after dropping states, it cannot say
//! there is none (reason `incomplete`, `found` Undef); when it dropped none, it searched
//! every reachable state (reason `exhausted`, `found` False).

use super::*;

/// The beam's width when `Opts["width"]` is not given.
pub const DEFAULT_WIDTH: usize = 3;

/// The search's state between levels.
#[derive(Default)]
struct Beam {
    /// Per state: its h.
    h: Vec<f64>,
    /// The next level so far, in the order its states were generated.
    next: Vec<StateId>,
    succ: Successors,
}

impl Beam {
    fn event(&self, kind: EventKind, id: StateId, o: Origin, frontier: usize) -> Event {
        let h = self.h[id as usize];
        Event { kind, id, parent: o.parent, depth: o.depth, g: o.g, h: Some(h), f: h, frontier }
    }
}

pub(super) fn beam<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Ended<P::Error> {
    let width = config.width.unwrap_or(DEFAULT_WIDTH);
    let mut b = Beam::default();
    insert_start(p, store, &mut b.succ)?;
    p.load(store, 0)?;
    b.h.push(p.h(Which::Current)?);
    tell(p, store, || Event::start(Some(b.h[0])))?;
    if b.h[0] == f64::INFINITY {
        counts.dead_ends += 1;
        tell(p, store, || b.event(EventKind::Prune, 0, Origin::START, 0))?;
        return Ok(Err(Reason::Exhausted));
    }
    if p.is_goal(Which::Current)? {
        tell(p, store, || b.event(EventKind::Goal, 0, Origin::START, 0))?;
        return Ok(Ok(Found { id: 0, origin: Origin::START }));
    }
    let mut level: Vec<StateId> = vec![0];
    let mut dropped = false;
    while !level.is_empty() {
        for (k, &id) in level.iter().enumerate() {
            // waiting: the rest of this level, this one included, and the next level so far
            let waiting = level.len() - k + b.next.len();
            counts.frontier(waiting);
            if let Some(found) = b.expand(p, store, config, counts, id, waiting)? {
                return Ok(Ok(found));
            }
        }
        // a stable sort: of states with equal h, the first generated stays
        let mut next = std::mem::take(&mut b.next);
        next.sort_by(|x, y| b.h[*x as usize].total_cmp(&b.h[*y as usize]));
        for &id in next.iter().skip(width) {
            dropped = true;
            tell(p, store, || b.event(EventKind::Prune, id, store.origin(id), width))?;
        }
        next.truncate(width);
        level = next;
    }
    Ok(Err(if dropped { Reason::Incomplete } else { Reason::Exhausted }))
}

impl Beam {
    /// Expands state `id`, with `waiting` states waiting (it included): its new successors
    /// join the next level; a goal among them ends the search.
    fn expand<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        config: &Config,
        counts: &mut Counts,
        id: StateId,
        waiting: usize,
    ) -> Step<Option<Found>, P::Error> {
        p.check(counts, store)?;
        p.load(store, id)?;
        let o = store.origin(id);
        tell(p, store, || self.event(EventKind::Expand, id, o, waiting - 1))?;
        let mut succ = std::mem::take(&mut self.succ);
        p.expand(&mut succ)?;
        counts.expanded += 1;
        counts.generated += succ.len() as u64;
        let mut found = None;
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (sid, new) = insert(store, config, &s, id, o.depth + 1, o.g + s.cost)?;
            let here = Origin { parent: id, depth: o.depth + 1, g: o.g + s.cost, ..store.origin(sid) };
            let frontier = waiting - 1 + self.next.len();
            if !new {
                counts.duplicates += 1;
                tell(p, store, || self.event(EventKind::Duplicate, sid, here, frontier))?;
                continue;
            }
            counts.reached(here.depth);
            self.h.push(p.h(Which::Successor(i))?);
            if self.h[sid as usize] == f64::INFINITY {
                // a dead end: never in a level, never tested as a goal
                counts.dead_ends += 1;
                tell(p, store, || self.event(EventKind::Prune, sid, here, frontier))?;
                continue;
            }
            tell(p, store, || self.event(EventKind::Push, sid, here, frontier + 1))?;
            if p.is_goal(Which::Successor(i))? {
                tell(p, store, || self.event(EventKind::Goal, sid, here, frontier + 1))?;
                found = Some(Found { id: sid, origin: store.origin(sid) });
                break;
            }
            self.next.push(sid);
        }
        self.succ = succ;
        Ok(found)
    }
}

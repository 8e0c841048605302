//! Bidirectional breadth-first search (AIMA 3.4.6): one breadth-first search forward from the
//! start by the successors, one backward from the goal state by the predecessors, each a
//! whole level at a time, the side with the smaller frontier first (the forward one on a tie).
//! They meet when one reaches a state the other stored; the first meeting is a path of fewest
//! actions (each side's depths are exact, and no meeting in the levels before means the path
//! is longer than both depths together, so it passes through the level being expanded).
//!
//! Both sides keep their states in one store, each state on the side that met it first, its
//! origin pointing back toward that side's root. At the meeting the backward half's origins
//! are turned around, so that the goal's origin chain is the whole path from the start, as
//! every other search leaves it.

use super::*;

/// A problem that can also go backward: the goal as a state, and predecessors.
pub trait TwoWay: Problem {
    /// Packs the goal state into `out` (one successor, as `start` packs the start).
    fn goal(&mut self, out: &mut Successors) -> Step<(), Self::Error>;

    /// Makes `expand` give the predecessors of the current state (each with the action and
    /// cost of the move from it to the current state), or, called again, the successors.
    fn turn(&mut self);
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Forward,
    Backward,
}

/// The two searches.
#[derive(Default)]
struct Both {
    config: Config,
    /// Per state: the side that stored it.
    side: Vec<Option<Side>>,
    /// Per state: the cost of the move along its origin (from its parent forward, to its
    /// parent backward).
    cost: Vec<f64>,
    forward: Vec<StateId>,
    backward: Vec<StateId>,
    succ: Successors,
}

/// Where the sides met: the forward state `from`, the backward state `to`, and the action and
/// cost of the move from one to the other.
struct Meeting {
    from: StateId,
    to: StateId,
    action: u32,
    cost: f64,
}

pub fn bibfs<P: TwoWay>(p: &mut P, store: &mut StateStore, config: &Config, counts: &mut Counts) -> Ended<P::Error> {
    let mut b = Both { config: *config, ..Both::default() };
    insert_start(p, store, &mut b.succ)?;
    b.succ.clear();
    p.goal(&mut b.succ)?;
    let goal = b.succ.get(0);
    tell(p, store, || Event::start(None))?;
    let (gid, new) = insert(store, config, &goal, NONE, 0, 0.0)?;
    if !new {
        // the goal is the start
        tell(p, store, || Event { kind: EventKind::Goal, frontier: 0, ..Event::start(None) })?;
        return Ok(Ok(Found { id: 0, origin: Origin::START }));
    }
    tell(p, store, || Event { id: gid, ..Event::start(None) })?;
    b.side = vec![Some(Side::Forward), Some(Side::Backward)];
    b.cost = vec![0.0, 0.0];
    (b.forward, b.backward) = (vec![0], vec![gid]);
    while !b.forward.is_empty() && !b.backward.is_empty() {
        let side = if b.backward.len() < b.forward.len() { Side::Backward } else { Side::Forward };
        if side == Side::Backward {
            p.turn();
        }
        let met = b.level(p, store, counts, side);
        if side == Side::Backward {
            p.turn();
        }
        if let Some(m) = met? {
            let found = b.join(store, m);
            tell(p, store, || Event { kind: EventKind::Goal, ..event(found.id, found.origin, 0) })?;
            return Ok(Ok(found));
        }
    }
    Ok(Err(Reason::Exhausted))
}

impl Both {
    /// Expands the whole level of `side`; the meeting, if the level meets the other side.
    fn level<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        counts: &mut Counts,
        side: Side,
    ) -> Step<Option<Meeting>, P::Error> {
        let level = std::mem::take(self.frontier(side));
        for (k, &id) in level.iter().enumerate() {
            // waiting: the rest of this level (this one included), its next level so far and
            // the other side's level
            let waiting = level.len() - k + self.forward.len() + self.backward.len();
            counts.frontier(waiting);
            p.check(counts, store)?;
            p.load(store, id)?;
            let o = store.origin(id);
            tell(p, store, || Event { kind: EventKind::Expand, ..event(id, o, waiting - 1) })?;
            p.expand(&mut self.succ)?;
            counts.expanded += 1;
            counts.generated += self.succ.len() as u64;
            let succ = std::mem::take(&mut self.succ);
            let met = self.meet(p, store, counts, (side, id), &succ);
            self.succ = succ;
            if let Some(m) = met? {
                return Ok(Some(m));
            }
        }
        Ok(None)
    }

    /// Stores the new ones of `succ`, the successors (or predecessors) of `id` on `side`;
    /// the meeting, if one of them is on the other side.
    fn meet<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        counts: &mut Counts,
        (side, id): (Side, StateId),
        succ: &Successors,
    ) -> Step<Option<Meeting>, P::Error> {
        let o = store.origin(id);
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (sid, new) = insert(store, &self.config, &s, id, o.depth + 1, o.g + s.cost)?;
            let here = Origin { parent: id, depth: o.depth + 1, g: o.g + s.cost, ..store.origin(sid) };
            if new {
                counts.reached(here.depth);
                self.side.push(Some(side));
                self.cost.push(s.cost);
                self.frontier(side).push(sid);
                let waiting = self.forward.len() + self.backward.len();
                tell(p, store, || Event { kind: EventKind::Push, ..event(sid, here, waiting) })?;
            } else if self.side[sid as usize] != Some(side) {
                let action = s.action.map_or(NONE, |a| store.intern_action(a));
                let (from, to) = if side == Side::Forward { (id, sid) } else { (sid, id) };
                return Ok(Some(Meeting { from, to, action, cost: s.cost }));
            } else {
                counts.duplicates += 1;
                tell(p, store, || Event { kind: EventKind::Duplicate, ..event(sid, here, 0) })?;
            }
        }
        Ok(None)
    }

    fn frontier(&mut self, side: Side) -> &mut Vec<StateId> {
        match side {
            Side::Forward => &mut self.forward,
            Side::Backward => &mut self.backward,
        }
    }

    /// Turns the backward half around from the meeting to the goal, so that each of its
    /// states has its origin on the path from the start; the goal, found.
    fn join(&mut self, store: &mut StateStore, m: Meeting) -> Found {
        let (mut at, mut next) = (m.from, m.to);
        let (mut action, mut cost) = (m.action, m.cost);
        loop {
            let old = store.origin(next);
            let here = store.origin(at);
            let origin = Origin { parent: at, action, depth: here.depth + 1, g: here.g + cost, ..old };
            store.set_origin(next, origin);
            if old.parent == NONE {
                return Found { id: next, origin };
            }
            (action, cost) = (old.action, self.cost[next as usize]);
            (at, next) = (next, old.parent);
        }
    }
}

fn event(id: StateId, o: Origin, frontier: usize) -> Event {
    Event { kind: EventKind::Push, id, parent: o.parent, depth: o.depth, g: o.g, h: None, f: o.g, frontier }
}

//! Recursive best-first search (AIMA, figure 3.26): best first in linear memory. Each state on
//! the current path keeps its children with their f, backed up from below: a child's f starts
//! at max(g + h, its parent's f), and when the search leaves a child because its best f passed
//! the limit (the f of the best alternative above), the child's f becomes that best f. With an
//! admissible h the first goal expanded is on a cheapest path. The goal is tested when a
//! state is expanded, as in A*. The recursion is a loop over an explicit stack of frames.
//!
//! AIMA's RBFS is a tree search; this one drops a successor that is on the current path (a
//! duplicate), so it ends on every finite space, and a child with infinite f (no way on) is
//! never entered. States are stored once, so each one's h is asked once and its goal test done
//! once; a state met by another path gets that path when the search enters it.

use super::*;

/// A child of a state on the path: its id, the origin it has by this path, and its f.
#[derive(Clone, Copy)]
struct Child {
    id: StateId,
    origin: Origin,
    f: f64,
}

/// A state on the current path, with its children and the limit it was entered with.
struct Frame {
    id: StateId,
    limit: f64,
    children: Vec<Child>,
    /// The child being searched below (its f is backed up when the search returns).
    active: usize,
}

/// Per state: its h, whether it was tested and is not a goal, and whether it is on the path.
#[derive(Default)]
struct Marks {
    h: Vec<f64>,
    not_goal: Vec<bool>,
    on_path: Vec<bool>,
}

impl Marks {
    fn fit(&mut self, id: StateId) {
        let n = id as usize + 1;
        if self.h.len() < n {
            self.h.resize(n, 0.0);
            self.not_goal.resize(n, false);
            self.on_path.resize(n, false);
        }
    }
}

/// The search: its marks and stack, and `held`, the states it keeps (the start and the
/// children of every state on the path), which `max_frontier` counts.
struct Rbfs {
    marks: Marks,
    stack: Vec<Frame>,
    held: usize,
    succ: Successors,
}

impl Rbfs {
    fn event(&self, kind: EventKind, id: StateId, o: Origin, f: f64) -> Event {
        let h = Some(self.marks.h[id as usize]);
        Event { kind, id, parent: o.parent, depth: o.depth, g: o.g, h, f, frontier: self.held }
    }
}

pub(super) fn rbfs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Ended<P::Error> {
    let mut r = Rbfs { marks: Marks::default(), stack: Vec::new(), held: 1, succ: Successors::default() };
    insert_start(p, store, &mut r.succ)?;
    p.load(store, 0)?;
    r.marks.fit(0);
    r.marks.h[0] = p.h(Which::Current)?;
    tell(p, store, || Event::start(Some(r.marks.h[0])))?;
    if r.marks.h[0] == f64::INFINITY {
        counts.dead_ends += 1;
        return Ok(Err(Reason::Exhausted));
    }
    let mut visit = Some(Child { id: 0, origin: Origin::START, f: r.marks.h[0] });
    let mut limit = f64::INFINITY;
    loop {
        if let Some(child) = visit.take() {
            if let Some(found) = r.enter(p, store, config, counts, child, limit)? {
                return Ok(Ok(found));
            }
        }
        let top = r.stack.last_mut().expect("the start's frame is popped only at the end");
        let (best, alternative) = two_least(&top.children);
        match best {
            Some(b) if top.children[b].f <= top.limit && top.children[b].f.is_finite() => {
                top.active = b;
                visit = Some(top.children[b]);
                limit = top.limit.min(alternative);
            }
            _ => {
                // back up: the frame's state is worth the least f of its children (none: inf)
                let backed = best.map_or(f64::INFINITY, |b| top.children[b].f);
                let frame = r.stack.pop().expect("a frame");
                r.held -= frame.children.len();
                r.marks.on_path[frame.id as usize] = false;
                tell(p, store, || r.event(EventKind::Prune, frame.id, store.origin(frame.id), backed))?;
                match r.stack.last_mut() {
                    Some(parent) => parent.children[parent.active].f = backed,
                    None => return Ok(Err(Reason::Exhausted)),
                }
            }
        }
    }
}

/// The index of the child of least f (the first among equals) and the least f of the others
/// (inf when there are none).
fn two_least(children: &[Child]) -> (Option<usize>, f64) {
    let mut best: Option<usize> = None;
    for (k, c) in children.iter().enumerate() {
        if best.is_none_or(|b| c.f < children[b].f) {
            best = Some(k);
        }
    }
    let alternative = children.iter().enumerate().filter(|(k, _)| Some(*k) != best).map(|(_, c)| c.f);
    (best, alternative.fold(f64::INFINITY, f64::min))
}

impl Rbfs {
    /// Enters `child` with `limit`: tests it, and expands it into a new frame.
    fn enter<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        config: &Config,
        counts: &mut Counts,
        child: Child,
        limit: f64,
    ) -> Step<Option<Found>, P::Error> {
        let Child { id, origin, f } = child;
        if id != 0 {
            store.set_origin(id, origin);
        }
        counts.frontier(self.held);
        p.check(counts, store)?;
        p.load(store, id)?;
        if !self.marks.not_goal[id as usize] {
            if p.is_goal(Which::Current)? {
                tell(p, store, || self.event(EventKind::Goal, id, origin, f))?;
                return Ok(Some(Found { id, origin }));
            }
            self.marks.not_goal[id as usize] = true;
        }
        tell(p, store, || self.event(EventKind::Expand, id, origin, f))?;
        let mut succ = std::mem::take(&mut self.succ);
        p.expand(&mut succ)?;
        counts.expanded += 1;
        counts.generated += succ.len() as u64;
        self.marks.on_path[id as usize] = true;
        let mut children = Vec::with_capacity(succ.len());
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (depth, g) = (origin.depth + 1, origin.g + s.cost);
            let (sid, new) = insert(store, config, &s, id, depth, g)?;
            self.marks.fit(sid);
            if new {
                self.marks.h[sid as usize] = p.h(Which::Successor(i))?;
                if self.marks.h[sid as usize] == f64::INFINITY {
                    counts.dead_ends += 1;
                }
            }
            if self.marks.h[sid as usize] == f64::INFINITY {
                continue; // a dead end: never a child
            }
            let here = origin_of(store, &s, id, depth, g);
            let cf = (g + self.marks.h[sid as usize]).max(f);
            if self.marks.on_path[sid as usize] {
                counts.duplicates += 1;
                tell(p, store, || self.event(EventKind::Duplicate, sid, here, cf))?;
                continue;
            }
            counts.reached(depth);
            children.push(Child { id: sid, origin: here, f: cf });
            self.held += 1;
            tell(p, store, || self.event(EventKind::Push, sid, here, cf))?;
        }
        self.succ = succ;
        self.stack.push(Frame { id, limit, children, active: 0 });
        Ok(None)
    }
}

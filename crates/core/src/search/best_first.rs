//! Best-first search: uniform-cost (by g), A* (by f = g + h, then h) and greedy (by h). Ties go
//! to the state that entered the frontier first. The goal is tested when a state is expanded.
//! A state met again by a cheaper path is given that path and put back into the frontier,
//! even when it was expanded already (so A* stays optimal with an admissible heuristic that
//! is not consistent); greedy search keeps the first path to each state.

use super::*;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// A frontier entry; the heap pops the least `(k1, k2, seq)`.
struct Entry {
    k1: f64,
    k2: f64,
    seq: u64,
    id: StateId,
    g: f64,
}

impl Entry {
    fn order(&self, o: &Entry) -> Ordering {
        self.k1.total_cmp(&o.k1).then(self.k2.total_cmp(&o.k2)).then(self.seq.cmp(&o.seq))
    }
}

impl PartialEq for Entry {
    fn eq(&self, o: &Entry) -> bool {
        self.order(o) == Ordering::Equal
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Entry) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    /// Reversed, so that `BinaryHeap` (a max-heap) pops the least entry.
    fn cmp(&self, o: &Entry) -> Ordering {
        o.order(self)
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mark {
    Open,
    Closed,
}

struct Frontier {
    algorithm: Algorithm,
    heap: BinaryHeap<Entry>,
    /// Per state: whether it waits in the frontier or was expanded.
    marks: Vec<Option<Mark>>,
    /// Per state: its heuristic value (informed searches).
    h: Vec<f64>,
    open: usize,
    seq: u64,
}

impl Frontier {
    fn push(&mut self, id: StateId, g: f64) {
        let at = id as usize;
        if at >= self.marks.len() {
            self.marks.resize(at + 1, None);
        }
        if self.marks[at] != Some(Mark::Open) {
            self.open += 1;
            self.marks[at] = Some(Mark::Open);
        }
        let h = self.h.get(at).copied().unwrap_or(0.0);
        // A* breaks ties of f by the smaller h (nearer the goal)
        let f = self.algorithm.row().f;
        let (k1, k2) = (f.of(g, h), if f.ties_by_h() { h } else { 0.0 });
        self.seq += 1;
        self.heap.push(Entry { k1, k2, seq: self.seq, id, g });
    }

    /// The next state to expand, skipping entries left behind by a cheaper path.
    fn pop(&mut self, store: &StateStore) -> Option<StateId> {
        while let Some(e) = self.heap.pop() {
            if self.marks[e.id as usize] == Some(Mark::Open) && e.g <= store.g(e.id) {
                self.marks[e.id as usize] = Some(Mark::Closed);
                self.open -= 1;
                return Some(e.id);
            }
        }
        None
    }

    /// The state's h (0 for uninformed searches) and its place in the order, for a record.
    fn keys(&self, id: StateId, g: f64) -> (f64, f64) {
        let h = self.h.get(id as usize).copied().unwrap_or(0.0);
        (h, self.algorithm.row().f.of(g, h))
    }

    /// Tells a watching problem what happened to `id` (reached with `g` at `depth` from
    /// `parent`).
    #[allow(clippy::too_many_arguments)]
    fn note<P: Problem>(
        &self,
        p: &mut P,
        store: &StateStore,
        kind: EventKind,
        id: StateId,
        parent: StateId,
        depth: u32,
        g: f64,
    ) -> Step<(), P::Error> {
        tell(p, store, || {
            let (h, f) = self.keys(id, g);
            let h = self.algorithm.informed().then_some(h);
            Event { kind, id, parent, depth, g, h, f, frontier: self.open }
        })
    }

    /// Whether `id`'s heuristic said it is a dead end (an infinite h): it never enters the
    /// frontier, by whatever path it is met.
    fn dead(&self, id: StateId) -> bool {
        self.h.get(id as usize) == Some(&f64::INFINITY)
    }

    fn set_h(&mut self, id: StateId, h: f64) {
        let at = id as usize;
        if at >= self.h.len() {
            self.h.resize(at + 1, 0.0);
        }
        self.h[at] = h;
    }
}

pub(super) fn ucs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Ended<P::Error> {
    best_first(Algorithm::Ucs, p, store, config, counts)
}

pub(super) fn astar<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Ended<P::Error> {
    best_first(Algorithm::Astar, p, store, config, counts)
}

pub(super) fn greedy<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Ended<P::Error> {
    best_first(Algorithm::Greedy, p, store, config, counts)
}

fn best_first<P: Problem>(
    algorithm: Algorithm,
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    let informed = algorithm.informed();
    let keeps_first_path = algorithm.row().keeps_first_path;
    let mut f = Frontier { algorithm, heap: BinaryHeap::new(), marks: Vec::new(), h: Vec::new(), open: 0, seq: 0 };
    let mut succ = Successors::default();
    insert_start(p, store, &mut succ)?;
    if informed {
        p.load(store, 0)?;
        let h = p.h(Which::Current)?;
        f.set_h(0, h);
        if f.dead(0) {
            counts.dead_ends += 1;
            f.note(p, store, EventKind::Prune, 0, NONE, 0, 0.0)?;
            return Ok(Err(Reason::Exhausted));
        }
    }
    f.push(0, 0.0);
    f.note(p, store, EventKind::Push, 0, NONE, 0, 0.0)?;
    counts.frontier(f.open);
    while let Some(id) = f.pop(store) {
        p.check(counts, store)?;
        p.load(store, id)?;
        let (g, depth) = (store.g(id), store.depth(id));
        if p.is_goal(Which::Current)? {
            f.note(p, store, EventKind::Goal, id, store.parent(id), depth, g)?;
            return Ok(Ok(Found { id, origin: store.origin(id) }));
        }
        f.note(p, store, EventKind::Expand, id, store.parent(id), depth, g)?;
        p.expand(&mut succ)?;
        counts.expanded += 1;
        counts.generated += succ.len() as u64;
        for i in 0..succ.len() {
            let s = succ.get(i);
            let g2 = g + s.cost;
            let (sid, new) = insert(store, config, &s, id, depth + 1, g2)?;
            let mut kind = EventKind::Push;
            if new {
                if informed {
                    let h = p.h(Which::Successor(i))?;
                    f.set_h(sid, h);
                    if f.dead(sid) {
                        counts.dead_ends += 1;
                        f.note(p, store, EventKind::Prune, sid, id, depth + 1, g2)?;
                        continue;
                    }
                }
            } else if keeps_first_path || g2 >= store.g(sid) || f.dead(sid) {
                counts.duplicates += 1;
                f.note(p, store, EventKind::Duplicate, sid, id, depth + 1, g2)?;
                continue;
            } else {
                let origin = origin_of(store, &s, id, depth + 1, g2);
                store.set_origin(sid, origin);
                if f.marks[sid as usize] == Some(Mark::Closed) {
                    kind = EventKind::Reopen;
                }
            }
            counts.reached(depth + 1);
            f.push(sid, g2);
            f.note(p, store, kind, sid, id, depth + 1, g2)?;
        }
        counts.frontier(f.open);
    }
    Ok(Err(Reason::Exhausted))
}

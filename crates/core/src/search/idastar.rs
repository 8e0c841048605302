//! IDA*: depth-first searches bounded by f = g + h, the bound raised each round to the least f
//! that exceeded it. Each round remembers the least g it reached every state with (a
//! transposition table, as in Reinefeld and Marsland's enhanced IDA*): a successor reached
//! again no cheaper in the same round is a duplicate, which also cuts cycles. Without it a
//! world with many ways to one state (the Tower of Hanoi) makes the rounds exponential.
//! States are stored once, so each one's h is asked once and its goal test done once. The
//! goal is tested when a state is expanded, as in A*.

use super::*;

struct Frame {
    children: Vec<(StateId, Origin)>,
    next: usize,
}

/// The least g of a state not reached in this round. Not infinity, which is the g of a path
/// whose costs overflowed: such a state is reached, and searched, as in astar and ucs.
const UNREACHED: f64 = f64::NAN;

/// Per state: its h and whether it was tested and is not a goal (kept over the rounds), and
/// the least g this round reached it with (`UNREACHED`, which no comparison finds less or
/// equal, when none).
#[derive(Default)]
struct Marks {
    h: Vec<f64>,
    not_goal: Vec<bool>,
    best: Vec<f64>,
}

impl Marks {
    fn fit(&mut self, id: StateId) {
        let n = id as usize + 1;
        if self.h.len() < n {
            self.h.resize(n, 0.0);
            self.not_goal.resize(n, false);
            self.best.resize(n, UNREACHED);
        }
    }
}

pub(super) fn idastar<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    let mut buf = Successors::default();
    insert_start(p, store, &mut buf)?;
    p.load(store, 0)?;
    let mut marks = Marks::default();
    marks.fit(0);
    marks.h[0] = p.h(Which::Current)?;
    let mut bound = marks.h[0];
    tell(p, store, || Event::start(Some(bound)))?;
    if bound == f64::INFINITY {
        counts.dead_ends += 1;
        return Ok(Err(Reason::Exhausted));
    }
    loop {
        match round(p, store, config, counts, bound, &mut marks)? {
            Ok(found) => return Ok(Ok(found)),
            // An f that overflowed to infinity is a bound too (the last round, as nothing
            // exceeds it), so that idastar finds what astar and ucs find (issue 41).
            Err(Some(next)) => bound = next,
            Err(None) => return Ok(Err(Reason::Exhausted)),
        }
    }
}

/// One depth-first search within `bound`: the goal, or the least f beyond the bound (None
/// when nothing was cut).
fn round<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
    bound: f64,
    marks: &mut Marks,
) -> Step<Result<Found, Option<f64>>, P::Error> {
    let mut next_bound: Option<f64> = None;
    let mut stack: Vec<Frame> = Vec::new();
    let mut waiting = 0usize;
    let mut succ = Successors::default();
    marks.best.iter_mut().for_each(|g| *g = UNREACHED);
    marks.best[0] = 0.0;
    let mut visit = Some((0, store.origin(0)));
    loop {
        if let Some((id, origin)) = visit.take() {
            let f = origin.g + marks.h[id as usize];
            let note = |p: &mut P, store: &StateStore, kind, frontier| {
                let h = Some(marks.h[id as usize]);
                let (parent, depth, g) = (origin.parent, origin.depth, origin.g);
                tell(p, store, || Event { kind, id, parent, depth, g, h, f, frontier })
            };
            if marks.best[id as usize] < origin.g {
                // reached cheaper by another way since it was generated: searched from there
            } else if f > bound {
                next_bound = Some(next_bound.map_or(f, |b| b.min(f)));
                note(p, store, EventKind::Prune, waiting)?;
            } else {
                if id != 0 {
                    store.set_origin(id, origin);
                }
                p.check(counts, store)?;
                p.load(store, id)?;
                if !marks.not_goal[id as usize] {
                    if p.is_goal(Which::Current)? {
                        note(p, store, EventKind::Goal, waiting)?;
                        return Ok(Ok(Found { id, origin }));
                    }
                    marks.not_goal[id as usize] = true;
                }
                note(p, store, EventKind::Expand, waiting)?;
                p.expand(&mut succ)?;
                counts.expanded += 1;
                counts.generated += succ.len() as u64;
                let mut children = Vec::with_capacity(succ.len());
                for i in 0..succ.len() {
                    let s = succ.get(i);
                    let (depth, g) = (origin.depth + 1, origin.g + s.cost);
                    let (sid, new) = insert(store, config, &s, id, depth, g)?;
                    marks.fit(sid);
                    if new {
                        marks.h[sid as usize] = p.h(Which::Successor(i))?;
                        if marks.h[sid as usize] == f64::INFINITY {
                            counts.dead_ends += 1;
                        }
                    }
                    if marks.h[sid as usize] == f64::INFINITY {
                        // a dead end: never searched, and no bound of a later round
                        continue;
                    }
                    let met = |p: &mut P, store: &StateStore, kind, frontier| {
                        let (h, f) = (marks.h[sid as usize], g + marks.h[sid as usize]);
                        tell(p, store, || Event { kind, id: sid, parent: id, depth, g, h: Some(h), f, frontier })
                    };
                    if marks.best[sid as usize] <= g {
                        counts.duplicates += 1;
                        met(p, store, EventKind::Duplicate, waiting + children.len())?;
                        continue;
                    }
                    marks.best[sid as usize] = g;
                    counts.reached(depth);
                    met(p, store, EventKind::Push, waiting + children.len() + 1)?;
                    children.push((sid, origin_of(store, &s, id, depth, g)));
                }
                waiting += children.len();
                counts.frontier(waiting);
                stack.push(Frame { children, next: 0 });
            }
        }
        let Some(top) = stack.last_mut() else { break };
        if top.next < top.children.len() {
            visit = Some(top.children[top.next]);
            top.next += 1;
            waiting -= 1;
        } else {
            stack.pop();
        }
    }
    Ok(Err(next_bound))
}

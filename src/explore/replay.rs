//! `GET /api/search`: a search by one of the `Search` module's algorithms, run on its own store
//! and recorded event by event (decision 23), then given to the page with the explorer's ids:
//! the states it met, every event, each expansion as a step, and what it found. The page
//! replays the events to show the tree and the open and closed lists after any step; the
//! `rank` of each event that puts a state into the frontier says where it waits there.

use super::explorer::{flow_message, flow_text, halt_text, state_name, Answer, ApiError, Explorer};
use super::REPLAY_STATES;
use crate::search::export::action_value_json;
use crate::search::problem::{Event, EventKind, Problem, Step, Successors, Which};
use crate::search::script::ScriptProblem;
use crate::search::{self, Algorithm, Config, Counts, StateId, StateStore, NONE};
use serde_json::{json, Value as Json};

impl Explorer<'_> {
    /// `GET /api/search?algorithm=A`: runs the search and returns the states it met, its
    /// events, the order of its expansions with g, h and f, and what it found; states carry
    /// the explorer's ids.
    pub fn search(&mut self, algorithm: &str, max_states: usize) -> Answer {
        let Some(algorithm) = Algorithm::parse(algorithm) else {
            let names = Algorithm::names();
            return Err(ApiError::BadRequest(format!(
                "no algorithm `{algorithm}`; the algorithms are {}",
                names.join(", ")
            )));
        };
        if algorithm.informed() && self.parts.h.is_none() {
            return Err(ApiError::BadRequest(format!(
                "`{}` needs a heuristic: start ds explore with --h NAME",
                algorithm.name()
            )));
        }
        let replay = self.run_search(algorithm, max_states)?;
        self.replay_json(algorithm, replay)
    }

    /// Runs the search on its own store; what it met, with the keys to find in the explorer's.
    fn run_search(&mut self, algorithm: Algorithm, max_states: usize) -> Result<Replay, ApiError> {
        let spec = self.parts.spec(algorithm);
        let it = &mut *self.problem.it;
        let mut problem = ScriptProblem::new(it, spec, self.span).map_err(|f| ApiError::Failed(flow_message(&f)))?;
        let mut store = StateStore::default();
        let config = Config { max_states: Some(max_states), ..Config::default() };
        let mut recorder = Recorder { inner: &mut problem, events: Vec::new() };
        let outcome = search::run(algorithm, &mut recorder, &mut store, &config);
        let events = std::mem::take(&mut recorder.events);
        let outcome = match outcome {
            Ok(o) => o,
            Err(flow) => return Err(ApiError::Failed(flow_text(problem.it, &flow))),
        };
        let mut states = Vec::with_capacity(store.len());
        for sid in 0..store.len() as StateId {
            let origin = store.origin(sid);
            let action = problem.action_value(&store, origin.action);
            let h = match algorithm.informed() {
                true => {
                    let asked = problem.load(&store, sid).and_then(|()| problem.h(Which::Current));
                    Some(asked.map_err(|halt| ApiError::Failed(halt_text(problem.it, halt)))?)
                }
                false => None,
            };
            let action = action_value_json(&problem.it.world, origin.action, &action);
            let value = problem.state(&store, sid);
            let name = state_name(&problem.it.world, &value);
            states.push(Met { key: store.key(sid).to_vec(), parent: origin.parent, action, name, g: origin.g, h });
        }
        let goal = outcome.goal.map(|f| {
            let mut path = if f.origin.parent == NONE { Vec::new() } else { store.path(f.origin.parent) };
            path.push(f.id);
            (path, f.origin.g)
        });
        Ok(Replay { states, events, reason: outcome.reason, counts: outcome.counts, goal })
    }

    fn replay_json(&mut self, algorithm: Algorithm, r: Replay) -> Answer {
        // The explorer's id of each state the search met, exploring further if need be, but
        // not without bound: a depth-first search of ten states may reach a depth whose states
        // a breadth-first exploration only knows after millions (issue 41).
        let within = self.space.len().saturating_add(REPLAY_STATES.max(r.states.len().saturating_mul(100)));
        let mut ids = Vec::with_capacity(r.states.len());
        for m in &r.states {
            ids.push(self.advance(|space, p| space.find_or_explore(p, &m.key, within))?);
        }
        let id_of = |sid: StateId| if sid == NONE { Json::Null } else { json!(ids[sid as usize]) };
        let index = |sid: StateId| if sid == NONE { Json::Null } else { json!(sid) };
        let states: Vec<Json> = r
            .states
            .iter()
            .enumerate()
            .map(|(i, m)| {
                json!({"id": ids[i], "parent": id_of(m.parent), "parent_state": index(m.parent), "action": m.action, "name": m.name, "g": m.g, "h": m.h})
            })
            .collect();
        let recorded: Vec<Event> = r.events.iter().map(|(e, _)| *e).collect();
        let ranks = ranks(algorithm, &recorded);
        let events: Vec<Json> = recorded
            .iter()
            .zip(&ranks)
            .map(|(e, rank)| {
                json!({"kind": e.kind.word(), "state": e.id, "id": id_of(e.id), "parent": index(e.parent), "g": e.g, "h": e.h, "f": e.f, "rank": rank})
            })
            .collect();
        let steps: Vec<Json> = r
            .events
            .iter()
            .enumerate()
            .filter(|(_, (e, _))| e.kind == EventKind::Expand)
            .map(|(n, (e, met))| json!({"state": e.id, "id": id_of(e.id), "g": e.g, "h": e.h, "f": e.f, "met": met, "event": n}))
            .collect();
        let (path, cost) = match &r.goal {
            Some((path, cost)) => (json!(path.iter().map(|&s| id_of(s)).collect::<Vec<_>>()), json!(cost)),
            None => (json!([]), Json::Null),
        };
        let c = r.counts;
        Ok(json!({
            "algorithm": algorithm.name(),
            "found": r.reason.found(),
            "reason": r.reason.word(),
            "goal": r.goal.as_ref().and_then(|(p, _)| p.last()).map_or(Json::Null, |&s| id_of(s)),
            "goal_test": if tests_when_generated(algorithm) { "generated" } else { "expanded" },
            "path": path,
            "cost": cost,
            "expanded": c.expanded,
            "generated": c.generated,
            "duplicates": c.duplicates,
            "max_frontier": c.max_frontier,
            "depth": c.depth,
            "states": states,
            "events": events,
            "steps": steps,
        }))
    }
}

/// Whether `algorithm` tests a state when it is generated (so the goal it finds never leaves
/// the frontier), rather than when it is taken from the frontier.
fn tests_when_generated(algorithm: Algorithm) -> bool {
    matches!(algorithm, Algorithm::Bfs | Algorithm::Dfs | Algorithm::Iddfs)
}

/// How an algorithm orders its frontier.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Order {
    /// First in, first out (`bfs`).
    Fifo,
    /// By f, then (A*) by h, then first in first (`best_first.rs`'s heap).
    Keys { by_h: bool },
    /// Any other: by when each entry was taken, as the record shows (entries never taken last,
    /// in the order they came in).
    Taken,
}

fn order(algorithm: Algorithm) -> Order {
    match algorithm {
        Algorithm::Bfs => Order::Fifo,
        Algorithm::Ucs | Algorithm::Greedy => Order::Keys { by_h: false },
        Algorithm::Astar => Order::Keys { by_h: true },
        _ => Order::Taken,
    }
}

/// Whether the event puts its state into the frontier.
fn enters(e: &Event) -> bool {
    matches!(e.kind, EventKind::Push | EventKind::Reopen)
}

/// For each event that puts a state into the frontier, its place in the order the algorithm
/// takes states out (a smaller rank is taken first); None for the other events. The open list
/// after any event is then its states' latest entries, sorted by rank.
fn ranks(algorithm: Algorithm, events: &[Event]) -> Vec<Option<u64>> {
    let entries: Vec<usize> = (0..events.len()).filter(|&i| enters(&events[i])).collect();
    let mut ranks = vec![None; events.len()];
    match order(algorithm) {
        Order::Fifo => entries.iter().for_each(|&i| ranks[i] = Some(i as u64)),
        Order::Keys { by_h } => {
            let key = |i: usize| (events[i].f, if by_h { events[i].h.unwrap_or(0.0) } else { 0.0 });
            let mut sorted = entries;
            sorted.sort_by(|&a, &b| {
                let ((f1, h1), (f2, h2)) = (key(a), key(b));
                f1.total_cmp(&f2).then(h1.total_cmp(&h2)).then(a.cmp(&b))
            });
            sorted.iter().enumerate().for_each(|(r, &i)| ranks[i] = Some(r as u64));
        }
        Order::Taken => {
            // Walking backwards: the next time each state is taken after each entry.
            let mut taken: rustc_hash::FxHashMap<StateId, usize> = Default::default();
            for i in (0..events.len()).rev() {
                let e = &events[i];
                if matches!(e.kind, EventKind::Expand | EventKind::Goal) {
                    taken.insert(e.id, i);
                } else if enters(e) {
                    let at = taken.get(&e.id).copied().unwrap_or(events.len() + i);
                    ranks[i] = Some(at as u64);
                }
            }
        }
    }
    ranks
}

/// A state a replayed search met: its key, its parent in the search's store, how it was
/// reached, g and (informed searches) h.
struct Met {
    key: Vec<u8>,
    parent: StateId,
    action: Json,
    name: String,
    g: f64,
    h: Option<f64>,
}

struct Replay {
    states: Vec<Met>,
    /// Every event, with the number of states met when it happened.
    events: Vec<(Event, usize)>,
    reason: search::Reason,
    counts: Counts,
    /// The path (ids of the search's store) and its cost.
    goal: Option<(Vec<StateId>, f64)>,
}

/// A problem that records every event of the search of the one it wraps.
struct Recorder<'p, P> {
    inner: &'p mut P,
    events: Vec<(Event, usize)>,
}

impl<P: Problem> Problem for Recorder<'_, P> {
    type Error = P::Error;

    fn start(&mut self, out: &mut Successors) -> Step<(), P::Error> {
        self.inner.start(out)
    }
    fn load(&mut self, store: &StateStore, id: StateId) -> Step<(), P::Error> {
        self.inner.load(store, id)
    }
    fn expand(&mut self, out: &mut Successors) -> Step<(), P::Error> {
        self.inner.expand(out)
    }
    fn is_goal(&mut self, which: Which) -> Step<bool, P::Error> {
        self.inner.is_goal(which)
    }
    fn h(&mut self, which: Which) -> Step<f64, P::Error> {
        self.inner.h(which)
    }
    fn check(&mut self, counts: &Counts, store: &StateStore) -> Step<(), P::Error> {
        self.inner.check(counts, store)
    }
    fn event(&mut self, e: &Event, store: &StateStore) -> Step<(), P::Error> {
        self.events.push((*e, store.len()));
        Ok(())
    }
    fn watching(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(kind: EventKind, id: StateId, g: u8, h: u8) -> Event {
        let (g, h) = (f64::from(g), f64::from(h));
        Event { kind, id, parent: NONE, depth: 0, g, h: Some(h), f: g + h, frontier: 0 }
    }

    /// The open list after all of `events`: each state's latest entry, by rank.
    fn open(algorithm: Algorithm, events: &[Event]) -> Vec<StateId> {
        open_after(algorithm, events, events.len())
    }

    /// The open list after the first `n` of `events` (ranked knowing them all).
    fn open_after(algorithm: Algorithm, events: &[Event], n: usize) -> Vec<StateId> {
        let ranks = ranks(algorithm, events);
        let mut latest: rustc_hash::FxHashMap<StateId, Option<u64>> = Default::default();
        for (e, r) in events[..n].iter().zip(&ranks) {
            match e.kind {
                EventKind::Push | EventKind::Reopen => latest.insert(e.id, *r),
                EventKind::Expand | EventKind::Goal => latest.remove(&e.id),
                _ => None,
            };
        }
        let mut open: Vec<(u64, StateId)> = latest.into_iter().map(|(id, r)| (r.unwrap(), id)).collect();
        open.sort();
        open.into_iter().map(|(_, id)| id).collect()
    }

    #[test]
    fn astar_takes_the_least_f_then_the_least_h_then_the_first_in() {
        use EventKind::*;
        // 1 (f 8), 2 (f 5, h 3), 3 (f 5, h 1), 4 (f 5, h 1, later than 3).
        let events = [event(Push, 1, 6, 2), event(Push, 2, 2, 3), event(Push, 3, 4, 1), event(Push, 4, 4, 1)];
        assert_eq!(open(Algorithm::Astar, &events), [3, 4, 2, 1]);
        // Uniform-cost search orders by g alone: 2 (g 2), 3 and 4 (g 4, in order), 1 (g 6).
        let ucs: Vec<Event> = events.iter().map(|e| Event { h: None, f: e.g, ..*e }).collect();
        assert_eq!(open(Algorithm::Ucs, &ucs), [2, 3, 4, 1]);
    }

    #[test]
    fn a_cheaper_entry_replaces_the_old_one_and_a_fifo_keeps_the_order_of_arrival() {
        use EventKind::*;
        // 1 is pushed at f 9, then again at f 3: it waits once, first.
        let events = [event(Push, 1, 7, 2), event(Push, 2, 2, 3), event(Push, 1, 1, 2)];
        assert_eq!(open(Algorithm::Astar, &events), [1, 2]);
        let bfs = [event(Push, 5, 1, 0), event(Push, 3, 1, 0), event(Expand, 5, 1, 0), event(Push, 4, 2, 0)];
        assert_eq!(open(Algorithm::Bfs, &bfs), [3, 4]);
    }

    #[test]
    fn other_algorithms_are_ordered_by_when_each_entry_was_taken() {
        use EventKind::*;
        // A depth-first search takes 3 (pushed last) first, then 2; 4 is never taken.
        let events = [
            event(Push, 2, 1, 0),
            event(Push, 3, 1, 0),
            event(Push, 4, 1, 0),
            event(Expand, 3, 1, 0),
            event(Expand, 2, 1, 0),
        ];
        assert_eq!(open_after(Algorithm::Dfs, &events, 3), [3, 2, 4]);
    }
}

//! `GET /api/search`: a search by one of the `Search` module's algorithms, run on its own store
//! and recorded event by event (decision 23), then given to the page with the explorer's ids:
//! the states it met, every event, each expansion as a step, and what it found. The page
//! replays the events to show the tree and the open and closed lists after any step; the
//! `rank` of each event that puts a state into the frontier says where it waits there.

use super::explorer::{flow_message, flow_text, halt_text, state_name, Answer, ApiError, Explorer};
use super::REPLAY_STATES;
use crate::search::export::action_value_json;
use crate::search::open_order::{ranks, tests_when_generated};
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
            states.push(Met { key: store.key(sid), parent: origin.parent, action, name, g: origin.g, h });
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
        let ranks = ranks(Some(algorithm), &recorded);
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
            "goal_test": if tests_when_generated(Some(algorithm)) { "generated" } else { "expanded" },
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

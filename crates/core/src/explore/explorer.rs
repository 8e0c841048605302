//! The answers of the explorer's JSON API (docs/explorer.md): states of the space explored
//! breadth-first as far as the page asks (`search::on_demand`), paths, statistics, and the replay of
//! a search by one of the `Search` module's algorithms.

use super::problem::{Names, Parts};
use crate::compile::ir::FnCode;
use crate::eval::{Flow, Interp};
use crate::search::export::{action_value_json, state_fields};
use crate::search::on_demand::OnDemand;
use crate::search::problem::{Halt, Problem, Step, Which};
use crate::search::script::ScriptProblem;
use crate::search::{Algorithm, StateId, NONE};
use crate::value::Value;
use crate::world::World;
use ds_syntax::Span;
use serde_json::{json, Value as Json};
use std::rc::Rc;

/// A request the API cannot answer, and why.
#[derive(Debug)]
pub enum ApiError {
    NotFound(String),
    BadRequest(String),
    /// The script failed (or a limit stopped it) while answering.
    Failed(String),
}

pub type Answer = Result<Json, ApiError>;

/// The replay of a search stores at most this many states unless asked for more.
pub const REPLAY_STATES: usize = 10_000;

pub struct Explorer<'a> {
    pub(super) problem: ScriptProblem<'a>,
    pub(super) space: OnDemand,
    pub(super) parts: Parts,
    names: Names,
    file: String,
    pub(super) span: Span,
    /// H of each state, once asked (with `--h`).
    h: Vec<Option<f64>>,
    /// States whose expansion failed in the script, with the error.
    failed: rustc_hash::FxHashMap<StateId, String>,
}

impl<'a> Explorer<'a> {
    /// Stores the start; `span` is where errors of the explorer's own calls point.
    pub fn new(
        it: &'a mut Interp,
        parts: Parts,
        names: Names,
        file: &str,
        max_states: usize,
        span: Span,
    ) -> Result<Explorer<'a>, String> {
        let mut problem = ScriptProblem::new(it, parts.spec(Algorithm::Bfs), span).map_err(|f| flow_message(&f))?;
        let space = match OnDemand::new(&mut problem, Some(max_states), true) {
            Ok(s) => s,
            Err(halt) => return Err(halt_text(problem.it, halt)),
        };
        Ok(Explorer {
            problem,
            space,
            parts,
            names,
            file: file.to_string(),
            span,
            h: Vec::new(),
            failed: Default::default(),
        })
    }

    pub fn interp(&mut self) -> &mut Interp {
        self.problem.it
    }

    /// `id` as a state id, exploring until that state is known.
    fn known(&mut self, id: u64) -> Result<StateId, ApiError> {
        let Ok(sid) = StateId::try_from(id) else {
            return Err(ApiError::NotFound(format!("no state {id}: state ids are below {}", 1u64 << 32)));
        };
        let found = self.advance(|space, p| space.discover(p, sid))?.then_some(sid);
        found.ok_or_else(|| {
            let why = match self.space.stopped {
                Some(_) => "the exploration stopped at --max-states",
                None => "every reachable state is known",
            };
            ApiError::NotFound(format!("no state {id}: {} states are known and {why}", self.space.len()))
        })
    }

    fn failed(&mut self, halt: Halt<Flow>) -> ApiError {
        ApiError::Failed(halt_text(self.problem.it, halt))
    }

    /// Explores further by `step` (which is resumed until it succeeds), passing over states
    /// whose expansion fails in the script: each keeps its error, shown with it, and has no
    /// successors. A limit (`--timeout`) ends the request instead.
    pub(super) fn advance<T>(
        &mut self,
        mut step: impl FnMut(&mut OnDemand, &mut ScriptProblem<'a>) -> Step<T, Flow>,
    ) -> Result<T, ApiError> {
        loop {
            match step(&mut self.space, &mut self.problem) {
                Ok(done) => return Ok(done),
                Err(Halt::Error(flow)) => {
                    let at = self.space.expanded() as StateId;
                    self.failed.insert(at, flow_text(self.problem.it, &flow));
                    self.space.skip_next();
                }
                Err(halt) => return Err(self.failed(halt)),
            }
        }
    }

    /// `GET /api/state/ID`: the state, with its successors (expanding it, and every state of
    /// a smaller id, first).
    pub fn state(&mut self, id: u64) -> Answer {
        let id = self.known(id)?;
        let expanded = self.advance(|space, p| space.expand_through(p, id))?;
        let error = self.failed.get(&id).cloned();
        let h = self.h_of(id)?;
        let value = self.problem.state(&self.space.store, id);
        let mut m = state_json(&self.problem.it.world, &value);
        if let Some(view) = self.parts.view.clone() {
            m.insert("view".into(), self.view(&view, value, id));
        }
        let origin = self.space.store.origin(id);
        let action = self.action(origin.action);
        let successors = match self.space.successors(id).filter(|_| expanded && error.is_none()) {
            Some(ts) => {
                let ts = ts.to_vec();
                let list: Vec<Json> = ts
                    .iter()
                    .map(|t| {
                        let name = self.name(t.to);
                        json!({"action": self.action(t.action), "id": t.to, "name": name, "cost": t.cost, "goal": self.space.is_goal(t.to)})
                    })
                    .collect();
                Json::Array(list)
            }
            None => Json::Null,
        };
        for (k, v) in [
            ("id", json!(id)),
            ("goal", json!(self.space.is_goal(id))),
            ("depth", json!(origin.depth)),
            ("parent", parent_json(origin.parent)),
            ("action", action),
            ("g", json!(origin.g)),
            ("h", h.map_or(Json::Null, |h| json!(h))),
            ("successors", successors),
            ("error", error.map_or(Json::Null, Json::String)),
        ] {
            m.insert(k.to_string(), v);
        }
        Ok(Json::Object(m))
    }

    /// The state drawn by `--view`, as `Search.explore`'s JSON has it; an error in the view
    /// is `{"error": text}`, so that the state is still shown with its successors.
    fn view(&mut self, view: &Rc<FnCode>, state: Value, id: StateId) -> Json {
        let it = &mut *self.problem.it;
        match crate::builtins::draw_view(it, view, state, id, self.span) {
            Ok(drawn) => crate::builtins::view_json(it, &drawn),
            Err(flow) => json!({ "error": flow_text(it, &flow) }),
        }
    }

    /// The text of action number `n` of the explorer's store.
    fn action(&mut self, n: u32) -> Json {
        let v = self.problem.action_value(&self.space.store, n);
        action_value_json(&self.problem.it.world, n, &v)
    }

    /// The name of a stored state (a graph's name; another value's printed form).
    fn name(&mut self, id: StateId) -> String {
        let value = self.problem.state(&self.space.store, id);
        state_name(&self.problem.it.world, &value)
    }

    /// H of a state (None without `--h`), asked once per state.
    pub(super) fn h_of(&mut self, id: StateId) -> Result<Option<f64>, ApiError> {
        if self.parts.h.is_none() {
            return Ok(None);
        }
        let i = id as usize;
        if let Some(Some(h)) = self.h.get(i) {
            return Ok(Some(*h));
        }
        let asked = self.problem.load(&self.space.store, id).and_then(|()| self.problem.h(Which::Current));
        let h = asked.map_err(|halt| self.failed(halt))?;
        if self.h.len() <= i {
            self.h.resize(i + 1, None);
        }
        self.h[i] = Some(h);
        Ok(Some(h))
    }

    /// `GET /api/path/ID`: the states from the start to ID along the first way found to each.
    pub fn path(&mut self, id: u64) -> Answer {
        let id = self.known(id)?;
        let ids = self.space.store.path(id);
        let steps: Vec<Json> = ids
            .iter()
            .map(|&s| {
                let action = self.action(self.space.store.origin(s).action);
                json!({"id": s, "action": action})
            })
            .collect();
        Ok(Json::Array(steps))
    }

    /// `GET /api/stats`.
    pub fn stats(&self) -> Answer {
        let s = &self.space;
        let c = &s.counts;
        Ok(json!({
            "states": s.len(),
            "expanded": s.expanded(),
            "transitions": s.transitions(),
            "goals": s.goals(),
            "complete": s.is_complete(),
            "stopped": s.stopped.map(|r| r.word()),
            "generated": c.generated,
            "duplicates": c.duplicates,
            "depth": c.depth,
            "file": self.file,
            "start": self.names.start,
            "next": self.names.next,
            "goal_test": self.names.goal,
            "h": self.names.h,
            "view": self.names.view,
            "symmetry": self.names.symmetry,
            "algorithms": Algorithm::all().filter(|a| self.parts.h.is_some() || !a.informed()).map(|a| a.name()).collect::<Vec<_>>(),
        }))
    }
}

fn parent_json(parent: StateId) -> Json {
    if parent == NONE {
        Json::Null
    } else {
        json!(parent)
    }
}

/// What a script error or a limit says, as text for the page.
pub(super) fn halt_text(it: &Interp, halt: Halt<Flow>) -> String {
    match halt {
        Halt::Limit(reason) => format!("stopped: {}", reason.word()),
        Halt::Error(flow) => flow_text(it, &flow),
    }
}

/// The message alone (setting a search up fails only on what it was given, not in the script).
pub(super) fn flow_message(flow: &Flow) -> String {
    match flow {
        Flow::Error(d) => d.message.clone(),
        _ => "the search could not be set up".to_string(),
    }
}

pub(super) fn flow_text(it: &Interp, flow: &Flow) -> String {
    match flow {
        Flow::Error(d) => it.sources.render(d, false),
        Flow::Exit(code) => format!("the script called System.exit({code}) while the explorer asked it for states"),
        _ => "the script's demon ended with break, continue or return outside a demon".to_string(),
    }
}

/// A state as the API gives it: what `Search.explore`'s JSON says of it (`state_fields`: a
/// graph's `name` and `facts`, another value's `value`), with a `name` for every state, its
/// `nodes` and its `text` as `out` prints it.
fn state_json(world: &World, state: &Value) -> serde_json::Map<String, Json> {
    let mut m = state_fields(world, state);
    let nodes: Vec<String> = match state {
        Value::Graph(g) => {
            let class = world.class(g.borrow().class);
            class.ids().map(|id| class.name(id).to_string()).collect()
        }
        _ => Vec::new(),
    };
    m.insert("name".into(), json!(state_name(world, state)));
    m.entry("facts").or_insert_with(|| json!([]));
    m.insert("nodes".into(), json!(nodes));
    m.insert("text".into(), json!(crate::value::display::to_text(state, world)));
    m
}

/// A graph state's name (`Start;f.t.g`); another value's printed form.
pub(super) fn state_name(world: &World, state: &Value) -> String {
    match state {
        Value::Graph(g) => g.borrow().name.to_string(),
        v => crate::value::display::to_text(v, world),
    }
}

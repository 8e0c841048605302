//! The interpreter's side of a search: a `Problem` whose states are script values and whose
//! successors, goal tests and heuristic values come from the script's demons (or lambdas).
//! States live as packed keys in the store; a state is unpacked into a live value only to be
//! given to `Next`, and the successors `Next` returns are packed at once.

use super::content::Recent;
use super::pack::{pack_str, PackError};
use super::parallel::Threaded;
use super::problem::{Event, EventKind, Halt, Problem, Step, Succ, Successors, Which};
use super::progress::Progress;
use super::start_guard::StartGuard;
use super::states::{Decoder, SAME_NAME, SUFFIX, WHOLE};
use super::store::{StateId, StateStore, NONE};
use super::symmetry::Symmetry;
use super::{Algorithm, Counts, Reason};
use crate::compile::ir::FnCode;
use crate::eval::sink::Successor;
use crate::eval::Quiet;
use crate::eval::{fail, Flow, Interp, Limit, R};
use crate::value::array::Items;
use crate::value::{ArrayRef, Map, Value};
use crate::world::{Facts, Name};
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

/// How a state is recognised as a goal.
pub enum GoalTest {
    /// A demon or lambda: a goal when it returns True.
    Demon(Rc<FnCode>),
    /// A value to compare with (`==`; with symmetry, up to the permutations).
    Value(Value),
    /// `Search.explore` without a goal.
    Nothing,
}

/// What `trace` does with each expansion.
pub enum Trace {
    Off,
    /// Print a line to the script's output.
    Print,
    /// Call the demon or lambda with a map describing the expansion.
    Call(Rc<FnCode>),
}

/// Everything a search is given.
pub struct Spec {
    pub algorithm: Algorithm,
    pub start: Value,
    pub next: Rc<FnCode>,
    pub goal: GoalTest,
    pub h: Option<Rc<FnCode>>,
    pub symmetry: Option<Rc<Symmetry>>,
    /// A user's canonicaliser (`Opts["symmetry"]` given a demon or lambda): each state is
    /// replaced by what it returns, the representative of its class, before it is stored.
    pub canonical: Option<Rc<FnCode>>,
    pub trace: Trace,
    /// No stored state's path changes once set (the table's searches that keep the first path
    /// found to a state), so that the names of the last path decoded may be kept; false for
    /// the local and bidirectional searches, whose paths change.
    pub first_paths_kept: bool,
}

pub struct ScriptProblem<'a> {
    pub it: &'a mut Interp,
    span: Span,
    spec: Spec,
    pub decoder: Decoder,
    goal_key: Option<Vec<u8>>,
    /// The state loaded last (`load`), as a live value.
    current: Value,
    /// The successors of the last expansion, as `Next` returned them.
    live: Vec<Value>,
    /// `Next`'s successors as it gave them (a buffer kept from one expansion to the next).
    successors: Vec<Successor>,
    /// The `Next` last called, and its local that only collects successors, if it has one
    /// (`compile::sink`): found once per demon, not per call.
    sink_of: Option<(*const FnCode, Option<u32>)>,
    key: Vec<u8>,
    action: Vec<u8>,
    label: Vec<u8>,
    variant: Vec<u8>,
    /// The last state that tested as a goal: the search's result.
    pub found: Option<Value>,
    progress: Progress,
    /// The step limit of the run, while a budget of steps stands in for it (`work_budget`).
    max_steps: Option<Option<u64>>,
    /// What output did before `serving` refused it.
    quiet: Quiet,
    /// The graph states of the last levels, once `expand_seeing` looks successors up there.
    recent: Option<Recent>,
    /// The facts of each successor of the last expansion as they were packed (copy-on-write
    /// snapshots: a goal test may change a successor before its commit), kept if it is new.
    packed_facts: Vec<Option<Facts>>,
    /// Whether the successors found among the recent states get their actions and labels
    /// (see `Problem::expand_seeing`).
    describe_known: bool,
    /// The search's events, when `Opts["record"]` asked for them (`Search.trace()`).
    record: Option<Record>,
    /// The expansions traced so far (`Opts["trace"]` numbers them from 1).
    traced: u64,
    /// The script's start as the search began: a `Next` that changes it is an error.
    start_guard: StartGuard,
    /// What `h` is called in messages: "heuristic", or "value" for hill climbing.
    pub h_role: &'static str,
    /// Bidirectional search's backward half: `Prev` (in `Next`'s place while it expands,
    /// `TwoWay::turn`) and the goal state.
    pub reverse: Option<(Rc<FnCode>, Value)>,
    /// What `Next` is called in messages: "Next", or "Prev" while it stands in for it.
    next_role: &'static str,
}

/// The events of a recorded search: the first `MAX_EVENTS`, and how many more there were.
#[derive(Debug, Default)]
pub struct Record {
    pub events: Vec<Event>,
    pub dropped: u64,
}

/// Most events a record keeps (about 56 MB): past them it counts only.
pub const MAX_EVENTS: usize = 1_000_000;

impl<'a> ScriptProblem<'a> {
    pub fn new(it: &'a mut Interp, mut spec: Spec, span: Span) -> R<ScriptProblem<'a>> {
        // A `Next` that changes the script's start is refused (`start_guard`); the search
        // keeps a copy of a graph start all the same, so that the state `Next` is given for
        // the start is a copy too, whatever `Next` does to it, as every other state is.
        let start_guard = StartGuard::new(&spec.start);
        if let Some(canonical) = &spec.canonical {
            spec.start = it.call_fn(canonical, vec![spec.start.clone()], span, None)?;
        }
        if let Value::Graph(g) = &spec.start {
            let own = it.world.copy_graph(&g.borrow(), None);
            spec.start = Value::Graph(own);
        }
        let mut decoder = Decoder::new(spec.start.clone(), spec.symmetry.clone());
        if spec.first_paths_kept {
            decoder.cache_names();
        }
        let goal_key = match (&spec.goal, &spec.symmetry) {
            (GoalTest::Value(v), Some(_)) => {
                let (mut key, mut variant) = (Vec::new(), Vec::new());
                decoder.pack(v, &mut key, &mut variant).map_err(|e| pack_failure(e, "the goal", span))?;
                Some(key)
            }
            _ => None,
        };
        let current = spec.start.clone();
        let progress = Progress::new(it.status_line);
        Ok(ScriptProblem {
            it,
            span,
            spec,
            decoder,
            goal_key,
            current,
            live: Vec::new(),
            successors: Vec::new(),
            sink_of: None,
            key: Vec::new(),
            action: Vec::new(),
            label: Vec::new(),
            variant: Vec::new(),
            found: None,
            progress,
            max_steps: None,
            quiet: Quiet::Off,
            recent: None,
            packed_facts: Vec::new(),
            describe_known: true,
            record: None,
            traced: 0,
            start_guard,
            h_role: "heuristic",
            reverse: None,
            next_role: "Next",
        })
    }

    /// Keeps the search's events from now on (`Opts["record"]`).
    pub fn start_recording(&mut self) {
        self.record = Some(Record::default());
    }

    /// The events recorded, taken out (None when the search was not recorded).
    pub fn take_record(&mut self) -> Option<Record> {
        self.record.take()
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The decoder, taken out (a state space keeps it to bring its states back).
    pub fn take_decoder(&mut self) -> Decoder {
        std::mem::replace(&mut self.decoder, Decoder::new(Value::None, None))
    }

    /// The live value of stored state `id`.
    pub fn state(&mut self, store: &StateStore, id: StateId) -> Value {
        self.decoder.state(store, &mut self.it.world, id)
    }

    /// The live value of the last state of `path` (see `Decoder::state_along`).
    pub fn state_along(&mut self, store: &StateStore, path: &[StateId], last_label: Option<u32>) -> Value {
        self.decoder.state_along(store, &mut self.it.world, path, last_label)
    }

    /// The value of a packed action (None when there is none).
    pub fn action_value(&mut self, store: &StateStore, action: u32) -> Value {
        self.decoder.action_value(store, &mut self.it.world, action)
    }

    fn call(&mut self, code: &Rc<FnCode>, arg: Value) -> Step<Value, Flow> {
        let code = code.clone();
        self.it.call_fn(&code, vec![arg], self.span, None).map_err(halt)
    }

    /// `Next` called on the current state: its array of successors, or None when they were
    /// sunk into `successors` (`eval/sink.rs`) because `Next` only pushes to a local and
    /// returns it.
    fn call_next(&mut self, next: &Rc<FnCode>) -> Step<Option<Value>, Flow> {
        let ptr = Rc::as_ptr(next);
        let slot = match self.sink_of {
            Some((of, slot)) if of == ptr => slot,
            _ => {
                let slot = crate::compile::sink::successor_local(next);
                self.sink_of = Some((ptr, slot));
                slot
            }
        };
        let Some(slot) = slot else { return self.call(next, self.current.clone()).map(Some) };
        let arg = self.current.clone();
        let called = self.it.call_sinking(next, arg, slot, &mut self.successors, self.span);
        called.map_err(halt)
    }

    fn error<T>(&self, message: String) -> Step<T, Flow> {
        match fail::<T>(self.span, message) {
            Err(flow) => Err(Halt::Error(flow)),
            Ok(_) => unreachable!("fail always fails"),
        }
    }

    fn which(&self, which: Which) -> &Value {
        match which {
            Which::Current => &self.current,
            Which::Successor(i) => &self.live[i],
        }
    }

    /// Splits successor `i` into (action, state, cost), or says what is wrong with it. The
    /// parts of an `[Action, State]` array held nowhere else are moved out, not copied.
    fn split(&self, item: Successor, i: usize) -> Result<(Option<Value>, Value, f64), String> {
        // written out only in an error message (this runs for every successor)
        let next = Called(&self.spec.next, self.next_role);
        let array_states = matches!(self.spec.start, Value::Array(_));
        let given = match &item {
            Successor::Whole(Value::Array(a)) => Some(a.borrow().len()),
            Successor::Whole(_) => None,
            Successor::Parts(_, _, cost) => Some(2 + usize::from(cost.is_some())),
        };
        let parts = matches!(given, Some(2 | 3));
        let (action, state, cost) = match (given, item) {
            (Some(2 | 3), item) => {
                let (a, s, cost) = match item {
                    Successor::Parts(a, s, cost) => (a, s, cost),
                    Successor::Whole(Value::Array(pair)) => take_parts(pair),
                    Successor::Whole(_) => unreachable!("an array of two or three"),
                };
                let cost = match cost {
                    None => 1.0,
                    Some(Value::Num(c)) if c.is_finite() => c,
                    Some(other) => {
                        return Err(format!(
                            "successor {} of {next} has the cost {}: a cost must be a finite number",
                            i + 1,
                            self.it.text(&other)
                        ))
                    }
                };
                (Some(a), s, cost)
            }
            (Some(n), _) => {
                return Err(format!(
                    "successor {} of {next} is an array of {} items: a successor is a state, [Action, State] or [Action, State, Cost]{}",
                    i + 1,
                    n,
                    if array_states { " (the states are arrays, so each must be given as [Action, State])" } else { "" }
                ))
            }
            (None, Successor::Whole(item)) => (None, item, 1.0),
            (None, Successor::Parts(..)) => unreachable!("parts are two or three"),
        };
        if cost < 0.0 && self.spec.algorithm.needs_costs() {
            return Err(format!(
                "successor {} of {next} has the negative cost {}: `{}` needs costs >= 0",
                i + 1,
                self.it.text(&Value::Num(cost)),
                self.spec.algorithm.name()
            ));
        }
        if let Some(message) = self.other_kind(&state, parts, i) {
            return Err(message);
        }
        if let Some(class) = self.decoder.codec.base_class() {
            match &state {
                Value::Graph(g) if g.borrow().class == class => {}
                Value::Graph(g) => {
                    return Err(format!(
                        "successor {} of {next} is a state of another world (`{}`), not a copy of the start",
                        i + 1,
                        g.borrow().name
                    ))
                }
                other => {
                    return Err(format!(
                        "successor {} of {next} is {}, but the states of this search are graphs",
                        i + 1,
                        other.described()
                    ))
                }
            }
        }
        Ok((action, state, cost))
    }

    /// When the start is a number, a string or an array, a successor state of another kind
    /// (issue 41: `[[S[0] + 1, S[1]]]`, read as [Action, State], gave a number as the state,
    /// and `Next` failed on it later with an error of its own). `parts`: the successor was
    /// given as [Action, State] (or with a cost).
    fn other_kind(&self, state: &Value, parts: bool, i: usize) -> Option<String> {
        let kind = |v: &Value| match v {
            Value::Num(_) => Some("numbers"),
            Value::Str(_) => Some("strings"),
            Value::Array(_) => Some("arrays"),
            Value::Map(_) => Some("maps"),
            Value::Graph(_) => Some("graphs"),
            _ => None,
        };
        let states = kind(&self.spec.start).filter(|k| matches!(*k, "numbers" | "strings" | "arrays"))?;
        // (a value that cannot be a state at all, a lambda, is named as such when packed)
        if kind(state)? == states {
            return None;
        }
        let next = Called(&self.spec.next, self.next_role);
        let read = match parts {
            true => " (an array of two or three items is read as [Action, State] or [Action, State, Cost])",
            false => "",
        };
        Some(format!(
            "successor {} of {next} has {} as its state, but the states of this search are {states}, as the start is{read}",
            i + 1,
            state.described()
        ))
    }

    fn expand_in(&mut self, out: &mut Successors) -> Step<(), Flow> {
        out.clear();
        self.live.clear();
        self.packed_facts.clear();
        let next = self.spec.next.clone();
        let shape = self.it.world.shape();
        let result = self.call_next(&next)?;
        if self.start_guard.changed() {
            return self.error(format!(
                "{} changed the start of the search: the states are compared with the start as it was, so it must stay unchanged (make each successor from a copy: `var T = S.copy()`)",
                called(&next, self.next_role)
            ));
        }
        if self.it.quiet == Quiet::Refuse && self.it.world.shape() != shape {
            return self.error(format!(
                "{} declares nodes or relations: a search on several threads needs a `Next` that only computes (use {{\"threads\": 1}})",
                called(&next, self.next_role)
            ));
        }
        let mut items = std::mem::take(&mut self.successors);
        if let Some(result) = result {
            let Value::Array(mut array) = result else {
                return self.error(format!(
                    "{} must return an array of successors, not {}",
                    called(&next, self.next_role),
                    result.described()
                ));
            };
            // the array is usually the demon's own, held nowhere else: its items are taken, not copied
            let taken = match Rc::get_mut(&mut array) {
                Some(only) => std::mem::take(&mut *only.borrow_mut()),
                None => array.borrow().clone(),
            };
            items.extend(taken.into_iter().map(Successor::Whole));
        }
        self.it.add_steps(items.len() as u64);
        for (i, item) in items.drain(..).enumerate() {
            let (action, state, cost) = match self.split(item, i) {
                Ok(parts) => parts,
                Err(message) => return self.error(message),
            };
            let state = match self.spec.canonical.clone() {
                Some(canonical) => self.call(&canonical, state)?,
                None => state,
            };
            let stored = self.pack_successor(action.as_ref(), &state, i)?;
            self.push(out, cost, stored);
            if self.recent.is_some() {
                let base = self.decoder.codec.base_class();
                let facts = match (&state, stored) {
                    (Value::Graph(g), None) if Some(g.borrow().class) == base => Some(g.borrow().facts.clone()),
                    _ => None,
                };
                self.packed_facts.push(facts);
            }
            self.live.push(state);
        }
        self.successors = items;
        Ok(())
    }

    /// Packs successor `state` (with its action) into the scratch buffers; its key only when
    /// it is not one of the recent states (else its id, the key left empty).
    fn pack_successor(&mut self, action: Option<&Value>, state: &Value, i: usize) -> Step<Option<StateId>, Flow> {
        self.key.clear();
        self.label.clear();
        self.action.clear();
        let stored = self.recent_state(state);
        if stored.is_some() && !self.describe_known {
            return Ok(stored);
        }
        if stored.is_none() {
            if let Err(e) = self.decoder.pack(state, &mut self.key, &mut self.variant) {
                let what = format!("successor {} of {}", i + 1, called(&self.spec.next, self.next_role));
                return Err(Halt::Error(pack_failure(e, &what, self.span)));
            }
        }
        if let (Value::Graph(g), Value::Graph(parent)) = (state, &self.current) {
            label_successor(&mut self.label, &g.borrow().name, &parent.borrow().name);
            if action.is_none() && self.label.first() != Some(&SAME_NAME) {
                // the action is the label's text (packed as a string)
                pack_str(&self.label[1..], &mut self.action);
            }
        }
        if let Some(a) = action {
            if let Err(e) = self.decoder.codec.pack(a, &mut self.action) {
                let what = format!("the action of successor {} of {}", i + 1, called(&self.spec.next, self.next_role));
                return Err(Halt::Error(pack_failure(e, &what, self.span)));
            }
        }
        Ok(stored)
    }

    /// The id of the recent state (see `content.rs`) with the facts of graph `state`.
    fn recent_state(&self, state: &Value) -> Option<StateId> {
        let (Some(recent), Value::Graph(g)) = (&self.recent, state) else { return None };
        let g = g.borrow();
        // (a graph of another class is another key, whatever its facts)
        (Some(g.class) == self.decoder.codec.base_class()).then(|| recent.find(&g.facts)).flatten()
    }

    /// Packs every successor's key from now on, rather than give the id of one among the
    /// recent states (a path rebuilt from fingerprints needs the keys: `replay.rs`).
    pub fn forget_recent(&mut self) {
        self.recent = None;
    }

    /// Whether graph states are looked up among the recent ones: for states of the start's
    /// class without symmetry (their keys are their facts' difference from the start, so
    /// equal facts are equal keys).
    fn looks_up_recent(&self) -> bool {
        self.decoder.symmetry.is_none() && self.decoder.codec.base_class().is_some()
    }

    fn push(&self, out: &mut Successors, cost: f64, stored: Option<StateId>) {
        fn some(b: &[u8]) -> Option<&[u8]> {
            (!b.is_empty()).then_some(b)
        }
        let s = Succ {
            key: &self.key,
            action: some(&self.action),
            label: some(&self.label),
            variant: self.spec.symmetry.as_ref().map(|_| self.variant.as_slice()),
            cost,
        };
        out.push_stored(s, stored);
    }

    /// The map given to a `trace` demon, or the line printed.
    fn trace_map(&mut self, e: &Event, store: &StateStore) -> Value {
        let action = self.action_value(store, store.origin(e.id).action);
        let mut m = Map::default();
        let num = |x: f64| Value::Num(x);
        let parent = if e.parent == NONE { -1.0 } else { f64::from(e.parent) };
        let h = e.h.map_or(Value::None, num);
        for (k, v) in [
            ("step", num(self.traced as f64)),
            ("id", num(f64::from(e.id))),
            ("parent", num(parent)),
            ("action", action),
            ("state", self.current.clone()),
            ("depth", num(f64::from(e.depth))),
            ("g", num(e.g)),
            ("h", h),
            ("f", num(e.f)),
        ] {
            m.insert(Value::str(k), v);
        }
        Value::Map(Rc::new(RefCell::new(m)))
    }
}

impl ScriptProblem<'_> {
    /// Packs `root`, the start or the goal, into `out` as one successor without an action.
    fn pack_root(&mut self, root: &Value, what: &str, out: &mut Successors) -> Step<(), Flow> {
        self.key.clear();
        if let Err(e) = self.decoder.pack(root, &mut self.key, &mut self.variant) {
            return Err(Halt::Error(pack_failure(e, what, self.span)));
        }
        self.action.clear();
        self.label.clear();
        self.push(out, 0.0, None);
        Ok(())
    }
}

impl super::bidi::TwoWay for ScriptProblem<'_> {
    fn goal(&mut self, out: &mut Successors) -> Step<(), Flow> {
        let Some((_, goal)) = &self.reverse else {
            return self.error("a bidirectional search needs a goal state".to_string());
        };
        let goal = goal.clone();
        self.pack_root(&goal, "the goal", out)
    }

    fn turn(&mut self) {
        if let Some((prev, _)) = &mut self.reverse {
            std::mem::swap(&mut self.spec.next, prev);
            self.next_role = if self.next_role == "Next" { "Prev" } else { "Next" };
        }
    }
}

impl Problem for ScriptProblem<'_> {
    type Error = Flow;

    fn start(&mut self, out: &mut Successors) -> Step<(), Flow> {
        let start = self.spec.start.clone();
        self.pack_root(&start, "the start", out)
    }

    fn load(&mut self, store: &StateStore, id: StateId) -> Step<(), Flow> {
        // a state kept among the recent ones comes back from its live facts, not its key
        let kept = self.recent.as_ref().and_then(|r| r.facts(id)).cloned();
        self.current = match kept {
            Some(facts) => self.decoder.state_with(store, &mut self.it.world, id, facts),
            None => self.state(store, id),
        };
        if let Some(recent) = &mut self.recent {
            // a successor is at most one level shallower than the state it comes from
            recent.forget_above(store.depth(id).saturating_sub(1));
        }
        Ok(())
    }

    fn expand(&mut self, out: &mut Successors) -> Step<(), Flow> {
        self.describe_known = true;
        self.expand_in(out)
    }

    fn expand_seeing(&mut self, out: &mut Successors, describe_known: bool) -> Step<(), Flow> {
        self.describe_known = describe_known;
        if self.recent.is_none() && self.looks_up_recent() {
            self.recent = Some(Recent::default());
        }
        self.expand_in(out)
    }

    fn stored_new(&mut self, i: usize, id: StateId, depth: u32) {
        let facts = self.packed_facts.get_mut(i).and_then(Option::take);
        if let (Some(recent), Some(facts)) = (&mut self.recent, facts) {
            recent.keep(id, depth, facts);
        }
    }

    fn is_goal(&mut self, which: Which) -> Step<bool, Flow> {
        let state = self.which(which).clone();
        let yes = match &self.spec.goal {
            GoalTest::Demon(code) => {
                let code = code.clone();
                self.call(&code, state.clone())?.condition().is_true()
            }
            GoalTest::Value(goal) => match &self.goal_key {
                Some(goal_key) => {
                    let (mut key, mut variant) = (Vec::new(), Vec::new());
                    let packed = self.decoder.pack(&state, &mut key, &mut variant);
                    packed.is_ok() && key == *goal_key
                }
                None => state.equals(goal),
            },
            GoalTest::Nothing => false,
        };
        if yes {
            self.found = Some(state);
        }
        Ok(yes)
    }

    fn h(&mut self, which: Which) -> Step<f64, Flow> {
        let Some(h) = self.spec.h.clone() else { return Ok(0.0) };
        let state = self.which(which).clone();
        // An infinite estimate marks a dead end, which the informed searches prune (issue 55);
        // a value to maximise (hill climbing, annealing) must be finite, and NaN and -inf
        // are never an estimate.
        let dead_end = self.h_role == "heuristic";
        let what = match self.call(&h, state)? {
            Value::Num(x) if x.is_finite() => return Ok(x),
            Value::Num(x) if x == f64::INFINITY && dead_end => return Ok(x),
            Value::Num(x) if x.is_nan() => "NaN".to_string(),
            Value::Num(x) => format!("an infinite number ({})", self.it.text(&Value::Num(x))),
            other => other.described().to_string(),
        };
        let heuristic = match h.source {
            Some(_) => format!("the {} lambda", self.h_role),
            None => format!("the {} `{}`", self.h_role, h.name),
        };
        let allowed = if dead_end { "a finite number or inf (a dead end)" } else { "a finite number" };
        self.error(format!("{heuristic} must return {allowed}, not {what}"))
    }

    fn check(&mut self, counts: &Counts, store: &StateStore) -> Step<(), Flow> {
        self.progress.update(counts, store);
        match self.it.limit_reached() {
            Some(limit) => Err(Halt::Limit(reason_of(limit))),
            None => Ok(()),
        }
    }

    fn watching(&self) -> bool {
        self.record.is_some() || !matches!(self.spec.trace, Trace::Off)
    }

    /// Keeps the event (`Opts["record"]`) and traces an expansion (`Opts["trace"]`).
    fn event(&mut self, e: &Event, store: &StateStore) -> Step<(), Flow> {
        if let Some(r) = &mut self.record {
            match r.events.len() < MAX_EVENTS {
                true => r.events.push(*e),
                false => r.dropped += 1,
            }
        }
        if e.kind != EventKind::Expand || matches!(self.spec.trace, Trace::Off) {
            return Ok(());
        }
        self.traced += 1;
        match &self.spec.trace {
            Trace::Off => Ok(()),
            Trace::Print => {
                let mut line = format!("expand {}: {}", self.traced, self.it.text(&self.current));
                let n = |x: f64| crate::value::number::format_number(x);
                line.push_str(&format!(" g={}", n(e.g)));
                if let Some(h) = e.h {
                    line.push_str(&format!(" h={} f={}", n(h), n(e.f)));
                }
                line.push('\n');
                self.it.write_out(&line, self.span).map_err(Halt::Error)
            }
            Trace::Call(code) => {
                let code = code.clone();
                let m = self.trace_map(e, store);
                self.call(&code, m).map(|_| ())
            }
        }
    }
}

impl Threaded for ScriptProblem<'_> {
    fn work(&self) -> u64 {
        self.it.steps()
    }

    fn add_work(&mut self, n: u64) {
        self.it.add_steps(n);
    }

    fn work_budget(&mut self, left: Option<u64>) {
        let steps = self.it.steps();
        let limits = self.it.limits_mut();
        match left {
            Some(n) => {
                let own = *self.max_steps.get_or_insert(limits.max_steps);
                let budget = steps.saturating_add(n).saturating_sub(limits.step_grace);
                limits.max_steps = Some(own.map_or(budget, |m| m.min(budget)));
            }
            None => {
                if let Some(own) = self.max_steps.take() {
                    limits.max_steps = own;
                }
            }
        }
    }

    fn work_left(&self) -> Option<u64> {
        self.it.limits().step_limit().map(|max| max.saturating_sub(self.it.steps()))
    }

    fn serving(&mut self, on: bool) {
        if on {
            self.quiet = std::mem::replace(&mut self.it.quiet, Quiet::Refuse);
        } else {
            self.it.quiet = self.quiet;
        }
    }

    fn parallel_error(&mut self, message: String) -> Flow {
        let d = ds_base::diagnostics::Diagnostic::error(self.span, message);
        let mut d = Box::new(d);
        d.runtime = true;
        Flow::Error(d)
    }

    fn set_work(&mut self, n: u64) {
        self.it.set_steps(n);
    }

    fn work_limit(&mut self) -> Step<(), Flow> {
        match self.it.limits().step_limit() {
            Some(max) if self.it.steps() > max => Err(Halt::Limit(Reason::MaxSteps)),
            _ => Ok(()),
        }
    }

    fn progress(&mut self, counts: &Counts, store: &StateStore) {
        self.progress.update(counts, store);
    }

    fn limit(&mut self) -> Step<(), Flow> {
        match self.it.limit_reached() {
            Some(limit) => Err(Halt::Limit(reason_of(limit))),
            None => Ok(()),
        }
    }
}

impl Drop for ScriptProblem<'_> {
    fn drop(&mut self) {
        self.progress.finish();
    }
}

/// The action, state and cost (if given) of a successor given as an array of two or three:
/// moved out when the array is held nowhere else (as the one `Next` just built is), so that
/// nothing is copied and dropping the array drops no items.
fn take_parts(mut pair: ArrayRef) -> (Value, Value, Option<Value>) {
    let take = |items: &mut Items| {
        let mut items = std::mem::take(items).into_iter();
        (items.next().unwrap_or_default(), items.next().unwrap_or_default(), items.next())
    };
    match Rc::get_mut(&mut pair) {
        Some(only) => take(&mut only.borrow_mut()),
        None => take(&mut pair.borrow().clone()),
    }
}

/// A demon by its name, a lambda by its role: "`moves`", "the Next lambda".
fn called(code: &FnCode, role: &'static str) -> String {
    Called(code, role).to_string()
}

/// `called`, formatted only when written.
struct Called<'a>(&'a FnCode, &'static str);

impl std::fmt::Display for Called<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.source {
            Some(_) => write!(f, "the {} lambda", self.1),
            None => write!(f, "`{}`", self.0.name),
        }
    }
}

/// How a search stops on an error of a call it made: a limit ends it with its reason.
fn halt(flow: Flow) -> Halt<Flow> {
    match flow {
        Flow::Error(d) if d.limit.is_some() => Halt::Limit(reason_of(d.limit.unwrap_or(Limit::Interrupt))),
        flow => Halt::Error(flow),
    }
}

pub fn reason_of(limit: Limit) -> Reason {
    match limit {
        Limit::Interrupt => Reason::Interrupted,
        Limit::Timeout => Reason::Timeout,
        Limit::Steps => Reason::MaxSteps,
        Limit::Memory => Reason::MaxMemory,
    }
}

fn pack_failure(e: PackError, what: &str, span: Span) -> Flow {
    let message = match e {
        PackError::Kind(kind) => format!("{what} is {kind}, which cannot be a state of a search"),
        PackError::TooDeep => format!("{what} nests arrays or maps too deeply (does one hold itself?)"),
    };
    match fail::<()>(span, message) {
        Err(flow) => flow,
        Ok(()) => unreachable!("fail always fails"),
    }
}

/// Writes into `label` a graph successor's name relative to its parent's: the same, what
/// it adds after a `;`, or the whole name. A name made from the parent's by appending
/// (as `Next.name(Next.name() + ";f.m.$2")` makes it) gives its addition without a look
/// at the text.
fn label_successor(label: &mut Vec<u8>, name: &Name, parent: &Name) {
    match name.added_to(parent) {
        Some("") => return label.push(SAME_NAME),
        Some(added) if added.starts_with(';') => {
            label.push(SUFFIX);
            return label.extend_from_slice(&added.as_bytes()[1..]);
        }
        _ => {}
    }
    let (name, parent) = (name.to_str(), parent.to_str());
    match name.strip_prefix(parent.as_str()).and_then(|s| s.strip_prefix(';')) {
        _ if name == parent => label.push(SAME_NAME),
        Some(s) => {
            label.push(SUFFIX);
            label.extend_from_slice(s.as_bytes());
        }
        None => {
            label.push(WHOLE);
            label.extend_from_slice(name.as_bytes());
        }
    }
}

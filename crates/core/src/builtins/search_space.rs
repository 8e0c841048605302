//! `Search.explore(Start, Next [, Opts])` and the methods of the state space it returns:
//! `S.size()`, `S.states()`, `S.state(I)`, `S.transitions()`, `S.goals([Goal])`, and
//! `S.json([File])`, `S.dot([File])`, `S.aut([File])` (docs/search.md).

use super::search::{callable, one_argument, stats_map, symmetry, Opts, EXPLORE_OPTIONS};
use super::search_checkpoint::{self, Checkpointed};
use super::{function, method, this, Arity, Builtin};
use crate::compile::ir::FnCode;
use crate::eval::{fail, Interp, R};
use crate::search::checkpoint::Kind;
use crate::search::explore::explore_saving;
use crate::search::script::{GoalTest, ScriptProblem, Spec, Trace};
use crate::search::space::{Space, SpaceRef};
use crate::search::workers;
use crate::search::Counts;
use crate::search::{export, Algorithm, Found, Outcome, Reason, StateId, StateStore};
use crate::value::{Logic, Value};
use ds_syntax::Span;
use std::rc::Rc;
use web_time::Instant;

pub const BUILTINS: &[Builtin] = &[
    function("Search.explore", Arity::range(1, 3), explore).doc(
        "Search.explore(Start, Next [, Opts])",
        "the state space reachable from Start (bounded by max_states): states, transitions, goals",
    ),
    method("states", Arity::exactly(0), states)
        .doc("S.states()", "the states of a state space, by number (0: the start)"),
    method("state", Arity::exactly(1), state).doc("S.state(I)", "state number I of a state space"),
    method("transitions", Arity::exactly(0), transitions)
        .doc("S.transitions()", "the transitions of a state space as [from, action, to]"),
    method("goals", Arity::range(0, 1), goals)
        .doc("S.goals([Goal])", "the numbers of the goal states of a state space (of Opts[\"goal\"], or of Goal)"),
    method("path", Arity::exactly(1), path)
        .doc("S.path(I)", "the state numbers from the start to state I, along the transitions that first reached each"),
    method("depth", Arity::exactly(1), depth)
        .doc("S.depth(I)", "the number of transitions from the start to state I along `S.path(I)`"),
    method("view", Arity::exactly(1), view).doc(
        "S.view(I)",
        "state number I drawn by the view given to `Search.explore` (Opts[\"view\"]): a picture, a text or a graph",
    ),
    method("aut", Arity::range(0, 1), aut)
        .doc("S.aut([File])", "a state space in Aldebaran format: the text, or written to File"),
];

fn explore(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.explore";
    let args = &super::search_problem::explore_positional(args, span)?;
    let next = callable(&args[1], fname, 2, "Next", span)?;
    let opts = Opts::read(it, args.get(2), fname, EXPLORE_OPTIONS, span)?;
    let view = match &opts.view {
        Some(v) => Some(callable(v, fname, 3, "view", span)?),
        None => None,
    };
    let goal = match &opts.goal {
        Some(Value::Lambda(code)) => GoalTest::Demon(one_argument(code, fname, 0, "goal", span)?),
        Some(v) => GoalTest::Value(v.clone()),
        None => GoalTest::Nothing,
    };
    let marks = !matches!(goal, GoalTest::Nothing);
    let (symmetry, canonical) = symmetry(it, opts.symmetry.as_ref(), &args[0], fname, span)?;
    let spec = Spec {
        algorithm: Algorithm::Bfs,
        start: args[0].clone(),
        next,
        goal,
        h: None,
        symmetry,
        canonical,
        trace: Trace::Off,
        first_paths_kept: Algorithm::Bfs.row().keeps_first_path,
    };
    let on = workers::threads(it, opts.threads, Algorithm::Bfs, false, fname, span)?;
    let started = Instant::now();
    let mut store = StateStore::default();
    let mut saving = match &opts.checkpoint {
        Some(plan) => {
            let identity = search_checkpoint::identity(it, &spec, Kind::Explore, opts.config.limit, opts.config.store);
            Some(Checkpointed::prepare(it, plan, identity, &on, span)?)
        }
        None => None,
    };
    let mut walked = saving.as_mut().map(Checkpointed::take_walked).unwrap_or_default();
    if let Some(saved) = saving.as_mut().and_then(|s| s.saved.take()) {
        store = saved.store;
    }
    crate::search::workers::search_call(it);
    let mut problem = ScriptProblem::new(it, spec, span)?;
    workers::serve_here(&mut problem)?;
    if let Some(saving) = &saving {
        saving.check_resumed(&mut problem, &store, span)?;
    }
    let counts = saving.as_ref().map_or_else(Counts::default, |s| s.counts);
    let explored = workers::spread(&mut problem, on, &opts.config, |problem, on| {
        let mut engine = saving.as_mut().map(Checkpointed::engine);
        explore_saving(problem, &mut store, &opts.config, marks, &mut walked, counts, on, engine.as_mut())
    })?;
    let transitions = walked.transitions;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    // The statistics: found tells whether a goal state is in the space (Undef when no goal was
    // given, or the space is incomplete and has none); path and actions lead to the first.
    let found = match (marks, explored.goals.is_empty(), explored.reason) {
        (true, false, _) => Logic::TRUE,
        (true, true, Reason::Exhausted) => Logic::FALSE,
        _ => Logic::UNDEF,
    };
    let goal = explored.goals.first().map(|&id| Found { id, origin: store.origin(id) });
    let outcome = Outcome { goal, reason: explored.reason, counts: explored.counts };
    let map = stats_map(&problem.decoder, &mut problem.it.world, &store, &outcome, ms, "explore", found);
    let decoder = problem.take_decoder();
    drop(problem);
    super::search::keep_stats(it, &map);
    super::search::grace(it, explored.reason, span)?;
    if explored.reason == Reason::MaxMemory {
        // The states did not fit: they are freed here, as a search frees its own, so that the
        // script can go on to report the statistics (issue 41).
        return Ok(Value::Logic(Logic::UNDEF));
    }
    let goals = marks.then_some(explored.goals);
    Ok(Value::host(Space { store, transitions, goals, reason: explored.reason, decoder, view }))
}

fn states(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("states", obj, span)?;
    let all = (0..s.len() as StateId).map(|id| s.decoder.state(&s.store, &mut it.world, id)).collect();
    Ok(Value::array(all))
}

fn state_id(s: &Space, v: &Value, fname: &str, span: Span) -> R<StateId> {
    match v {
        Value::Num(n) if n.fract() == 0.0 && *n >= 0.0 && (*n as usize) < s.len() => Ok(*n as StateId),
        other => {
            fail(span, format!("`{fname}` takes a state number from 0 to {}, not {}", s.len() - 1, other.described()))
        }
    }
}

fn state(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("state", obj, span)?;
    let id = state_id(&s, &args[0], "state", span)?;
    Ok(s.decoder.state(&s.store, &mut it.world, id))
}

/// `S.path(I)`: the ids from the start to I along the parents (the transitions that first
/// reached each state).
fn path(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("path", obj, span)?;
    let id = state_id(&s, &args[0], "path", span)?;
    Ok(Value::array(s.store.path(id).into_iter().map(|id| Value::Num(f64::from(id))).collect()))
}

fn depth(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("depth", obj, span)?;
    let id = state_id(&s, &args[0], "depth", span)?;
    Ok(Value::Num(f64::from(s.store.origin(id).depth)))
}

fn view(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("view", obj, span)?;
    let id = state_id(&s, &args[0], "view", span)?;
    view_of(it, &s, id, span)
}

/// State `id` drawn by the space's view: a picture, a string or a graph.
pub fn view_of(it: &mut Interp, s: &Space, id: StateId, span: Span) -> R<Value> {
    let Some(view) = &s.view else {
        return fail(span, "this space has no view: give `Search.explore` one, {\"view\": V}");
    };
    let state = s.decoder.state(&s.store, &mut it.world, id);
    draw(it, view, state, id, span)
}

/// `state` (number `id`) drawn by `view`, which must return a picture, a string or a graph.
/// Also the explorer's `--view` (docs/explorer.md).
pub fn draw(it: &mut Interp, view: &Rc<FnCode>, state: Value, id: StateId, span: Span) -> R<Value> {
    let drawn = it.call_fn(view, vec![state], span, None)?;
    match &drawn {
        Value::Str(_) | Value::Graph(_) => Ok(drawn),
        v if super::svg::as_picture(v).is_some() => Ok(drawn),
        other => fail(
            span,
            format!(
                "the view must return a picture (SVG), a string or a graph, not {} (state {id})",
                other.described()
            ),
        ),
    }
}

/// A view as JSON: `{"svg": text}`, `{"text": text}` or `{"graph": {name, facts}}`.
pub fn view_json(it: &Interp, drawn: &Value) -> serde_json::Value {
    match drawn {
        Value::Str(s) => serde_json::json!({ "text": s.as_str() }),
        Value::Graph(_) => serde_json::json!({ "graph": export::state_fields(&it.world, drawn) }),
        v => serde_json::json!({ "svg": super::svg::as_picture(v).map(|p| p.borrow().text()) }),
    }
}

/// A view as text for DOT: a string as itself, a graph as its name and then one line per fact
/// (`f on $1`, `g on $2 = False`); None for a picture.
pub fn view_text(it: &Interp, drawn: &Value) -> Option<String> {
    match drawn {
        Value::Str(s) => Some(s.to_string()),
        Value::Graph(_) => {
            let fields = export::state_fields(&it.world, drawn);
            let mut lines = vec![fields["name"].as_str().unwrap_or_default().to_string()];
            for fact in fields["facts"].as_array().into_iter().flatten() {
                let part = |i: usize| fact[i].as_str().unwrap_or_default();
                let value = if part(3) == "True" { String::new() } else { format!(" = {}", part(3)) };
                lines.push(format!("{} {} {}{value}", part(0), part(1), part(2)));
            }
            Some(lines.join("\n"))
        }
        _ => None,
    }
}

fn transitions(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("transitions", obj, span)?;
    let t = &s.transitions;
    let all = (0..t.len())
        .map(|i| {
            let action = s.decoder.action_value(&s.store, &mut it.world, t.action[i]);
            Value::array(vec![Value::Num(f64::from(t.from[i])), action, Value::Num(f64::from(t.to[i]))])
        })
        .collect();
    Ok(Value::array(all))
}

/// `S.goals()`: the goal states marked by `explore`'s goal; `S.goals(Goal)`: those of Goal.
fn goals(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("goals", obj, span)?;
    let ids = goal_ids(it, &s, args.first(), ("goals", 1), span)?;
    Ok(Value::array(ids.into_iter().map(|id| Value::Num(f64::from(id))).collect()))
}

/// The goal states of a space: those marked by `explore`'s goal (`goal` None), or those of
/// `goal`, a state or a test. `at`: the builtin and the argument's place, for errors.
pub(super) fn goal_ids(
    it: &mut Interp,
    s: &Space,
    goal: Option<&Value>,
    at: (&str, usize),
    span: Span,
) -> R<Vec<StateId>> {
    Ok(match goal {
        None => match &s.goals {
            Some(g) => g.clone(),
            None => return fail(span, "this space was explored without a goal: give one, `S.goals(Goal)`"),
        },
        Some(goal) => {
            let test = match goal {
                Value::Lambda(code) => Some(one_argument(code, at.0, at.1, "Goal", span)?),
                _ => None,
            };
            let mut ids = Vec::new();
            for id in 0..s.len() as StateId {
                let v = s.decoder.state(&s.store, &mut it.world, id);
                let yes = match &test {
                    Some(code) => it.call_fn(code, vec![v], span, None)?.condition().is_true(),
                    None => v.equals(goal),
                };
                if yes {
                    ids.push(id);
                }
            }
            ids
        }
    })
}

/// What an export does with its text: without a file name, `json` returns it and `dot` and
/// `aut` print it (as `G.json()` and `G.dot()` do); with one, it is written to that file.
fn text_or_file(it: &mut Interp, text: String, args: &[Value], what: &str, span: Span) -> R<Value> {
    match args.first() {
        None if what == "json" => Ok(Value::str(&text)),
        None => {
            it.write_out(&text, span)?;
            Ok(Value::None)
        }
        Some(Value::Str(name)) => {
            super::file::write_file(it, name, &text, span)?;
            Ok(Value::None)
        }
        Some(other) => fail(span, format!("`{what}` takes a file name, not {}", other.described())),
    }
}

fn aut(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SpaceRef>("aut", obj, span)?;
    let text = export::aut(&s, &mut it.world);
    text_or_file(it, text, args, "aut", span)
}

/// `S.json([File])`, reached through the graph method `json`.
pub fn json(it: &mut Interp, s: &SpaceRef, args: &[Value], span: Span) -> R<Value> {
    check_arity(args, "json", span)?;
    let views = each_view(it, s, span, view_json)?;
    let text = export::json(s, &mut it.world, views.as_deref());
    text_or_file(it, text, args, "json", span)
}

/// `S.dot([File])`, reached through the graph method `dot`.
pub fn dot(it: &mut Interp, s: &SpaceRef, args: &[Value], span: Span) -> R<Value> {
    check_arity(args, "dot", span)?;
    let texts = each_view(it, s, span, view_text)?;
    let text = export::dot(s, &mut it.world, texts.as_deref());
    text_or_file(it, text, args, "dot", span)
}

/// Every state's view, as `form` gives it; None when the space has no view.
fn each_view<T>(it: &mut Interp, s: &Space, span: Span, form: fn(&Interp, &Value) -> T) -> R<Option<Vec<T>>> {
    if s.view.is_none() {
        return Ok(None);
    }
    let mut out = Vec::with_capacity(s.len());
    for id in 0..s.len() as StateId {
        let drawn = view_of(it, s, id, span)?;
        out.push(form(it, &drawn));
    }
    Ok(Some(out))
}

/// `json` and `dot` of a graph take more arguments than those of a state space.
fn check_arity(args: &[Value], what: &str, span: Span) -> R<()> {
    if args.len() > 1 {
        return fail(span, format!("`S.{what}([File])` of a state space takes at most one argument"));
    }
    Ok(())
}

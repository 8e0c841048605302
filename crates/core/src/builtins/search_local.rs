//! The searches that are not rows of the algorithm table (docs/search.md): `Search.hill`
//! (steepest-ascent hill climbing, `search::hill`) and `Search.anneal` (simulated annealing,
//! `search::anneal`) have a value where the table's algorithms have a goal; `Search.bibfs`
//! (`search::bidi`) needs predecessors, which `Search.compare` and the explorer do not have.

use super::search::{callable, grace, keep_stats, one_argument, stats_map, Opts};
use super::search_record::Kept;
use crate::compile::ir::FnCode;
use crate::eval::{fail, Interp, R};
use crate::search::anneal::{anneal as walk, Schedule, Walk};
use crate::search::hill::{hill as climb, Climb};
use crate::search::script::{GoalTest, ScriptProblem, Spec, Trace};
use crate::search::{Algorithm, Counts, Found, Outcome, Reason, StateStore};
use crate::value::{Logic, Value};
use ds_syntax::Span;
use std::rc::Rc;
use web_time::Instant;

/// The options of `Search.anneal` beside `max_states` and `record`.
pub(super) const ANNEAL_OPTIONS: &[&str] = &["seed", "t0", "decay", "steps"];
/// The option of `Search.bibfs` beside `max_states` and `record`.
pub(super) const BIBFS_OPTIONS: &[&str] = &["prev"];

/// `Search.hill(Start, Next, Value [, Opts])`: the state where the climb stopped.
pub(super) fn hill(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.hill";
    let args = &super::search_problem::local_positional(it, args, fname, span)?;
    let opts = Opts::read(it, args.get(3), fname, &[], span)?;
    let mut problem = local_problem(it, args, &opts, fname, span)?;
    let started = Instant::now();
    let mut store = StateStore::default();
    let Climb { last, value, reason, counts } = climb(&mut problem, &mut store, &opts.config)?;
    let ended = Ended { best: last, reason, counts, started, name: "hill" };
    let (map, record) = finish(problem, store, ended, &[("value", value)]);
    end(it, map, record, reason, span)
}

/// `Search.anneal(Start, Next, Value [, Opts])`: the best state the walk visited.
pub(super) fn anneal(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.anneal";
    let args = &super::search_problem::local_positional(it, args, fname, span)?;
    let opts = Opts::read(it, args.get(3), fname, ANNEAL_OPTIONS, span)?;
    let schedule = schedule(it, args.get(3), fname, span)?;
    let mut problem = local_problem(it, args, &opts, fname, span)?;
    let started = Instant::now();
    let mut store = StateStore::default();
    let Walk { best, value, moves, reason, counts } = walk(&mut problem, &mut store, &opts.config, &schedule)?;
    let more = [("value", value), ("moves", moves as f64)];
    let (map, record) = finish(problem, store, Ended { best, reason, counts, started, name: "anneal" }, &more);
    end(it, map, record, reason, span)
}

/// `Search.bibfs(Start, Next, Goal, {"prev": Prev, ...})`: the goal, reached by a path of
/// fewest actions, or Undef.
pub(super) fn bibfs(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.bibfs";
    let args = &super::search_problem::bibfs_positional(args, span)?;
    let opts = Opts::read(it, args.get(3), fname, BIBFS_OPTIONS, span)?;
    refuse_extras(&opts, fname, "searches", span)?;
    let next = callable(&args[1], fname, 2, "Next", span)?;
    if let Value::Lambda(_) = &args[2] {
        let msg = format!(
            "`{fname}` needs the goal as a state (argument 3), not a demon or lambda: its backward search starts from that state"
        );
        return fail(span, msg);
    }
    let prev = match option(args.get(3), "prev") {
        Some(Value::Lambda(code)) => one_argument(&code, fname, 0, "prev", span)?,
        Some(v) => {
            return fail(span, format!("option `prev` of `{fname}` must be a demon or a lambda, not {}", v.described()))
        }
        None => {
            let msg = format!("`{fname}` needs the option `prev`: a demon or lambda giving the states that have a state among their successors, as in {{\"prev\": prev}}");
            return fail(span, msg);
        }
    };
    let goal = args[2].clone();
    let spec = plain_spec(args[0].clone(), next, GoalTest::Value(goal.clone()), None);
    let started = Instant::now();
    let mut store = StateStore::default();
    crate::search::workers::search_call(it);
    let mut problem = ScriptProblem::new(it, spec, span)?;
    problem.reverse = Some((prev, goal));
    if opts.record {
        problem.start_recording();
    }
    let mut counts = Counts::default();
    let result = crate::search::bidi::bibfs(&mut problem, &mut store, &opts.config, &mut counts);
    let outcome = crate::search::outcome(result, counts)?;
    let map = stats_map(
        &problem.decoder,
        &mut problem.it.world,
        &store,
        &outcome,
        ms(started),
        "bibfs",
        found(outcome.reason),
    );
    let record = super::search_record::take(&mut problem, store).map(|k| k.by("bibfs"));
    drop(problem);
    end(it, map, record, outcome.reason, span)
}

/// How a local search ended, for its statistics.
struct Ended {
    best: Found,
    reason: Reason,
    counts: Counts,
    started: Instant,
    name: &'static str,
}

/// The problem of a local search, `Start, Next, Value` with `opts` (one thread, no symmetry
/// and no trace).
fn local_problem<'a>(it: &'a mut Interp, args: &[Value], opts: &Opts, fname: &str, span: Span) -> R<ScriptProblem<'a>> {
    refuse_extras(opts, fname, "walks", span)?;
    let next = callable(&args[1], fname, 2, "Next", span)?;
    let value = callable(&args[2], fname, 3, "Value", span)?;
    let spec = plain_spec(args[0].clone(), next, GoalTest::Nothing, Some(value));
    crate::search::workers::search_call(it);
    let mut problem = ScriptProblem::new(it, spec, span)?;
    problem.h_role = "value";
    if opts.record {
        problem.start_recording();
    }
    Ok(problem)
}

fn refuse_extras(opts: &Opts, fname: &str, what: &str, span: Span) -> R<()> {
    if opts.threads.is_some_and(|n| n > 1) || opts.symmetry.is_some() || opts.trace.is_some() {
        return fail(span, format!("`{fname}` {what} on one thread, without `symmetry` or `trace`"));
    }
    Ok(())
}

fn plain_spec(start: Value, next: Rc<FnCode>, goal: GoalTest, h: Option<Rc<FnCode>>) -> Spec {
    Spec {
        // (the problem asks for an algorithm: greedy, which reads h and takes any cost, as
        // these searches need; their paths change, unlike greedy's)
        algorithm: Algorithm::Greedy,
        start,
        next,
        goal,
        h,
        symmetry: None,
        canonical: None,
        trace: Trace::Off,
        first_paths_kept: false,
    }
}

/// The statistics of a local search, with its `more` entries, and its record.
fn finish(mut problem: ScriptProblem<'_>, store: StateStore, e: Ended, more: &[(&str, f64)]) -> (Value, Option<Kept>) {
    let outcome = Outcome { goal: Some(e.best), reason: e.reason, counts: e.counts };
    let map = stats_map(&problem.decoder, &mut problem.it.world, &store, &outcome, ms(e.started), e.name, Logic::UNDEF);
    if let Value::Map(m) = &map {
        for (k, v) in more {
            m.borrow_mut().insert(Value::str(k), Value::Num(*v));
        }
    }
    let record = super::search_record::take(&mut problem, store).map(|k| k.by(e.name));
    (map, record)
}

/// Keeps the statistics and the record; the last state of the statistics' path (Undef when
/// there is none).
fn end(it: &mut Interp, map: Value, record: Option<Kept>, reason: Reason, span: Span) -> R<Value> {
    let state = match &map {
        Value::Map(m) => match m.borrow().get(&Value::str("path")) {
            Some(Value::Array(path)) => path.borrow().back().cloned(),
            _ => None,
        },
        _ => None,
    };
    keep_stats(it, &map);
    super::search_record::keep(it, record);
    grace(it, reason, span)?;
    Ok(state.unwrap_or(Value::Logic(Logic::UNDEF)))
}

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1000.0
}

fn found(reason: Reason) -> Logic {
    match reason.found() {
        Some(b) => Logic::from_bool(b),
        None => Logic::UNDEF,
    }
}

/// Option `key` of an options map (Opts::read has checked the map and its keys).
fn option(opts: Option<&Value>, key: &str) -> Option<Value> {
    match opts {
        Some(Value::Map(m)) => m.borrow().get(&Value::str(key)).cloned(),
        _ => None,
    }
}

/// `Search.anneal`'s schedule from its options (`Schedule::default()` for those not given).
fn schedule(it: &Interp, opts: Option<&Value>, fname: &str, span: Span) -> R<Schedule> {
    let mut s = Schedule::default();
    let number = |key: &str, ok: &dyn Fn(f64) -> bool, what: &str| -> R<Option<f64>> {
        match option(opts, key) {
            None => Ok(None),
            Some(Value::Num(x)) if ok(x) => Ok(Some(x)),
            Some(v) => fail(span, format!("option `{key}` of `{fname}` must be {what}, not {}", it.text(&v))),
        }
    };
    let whole = |x: f64| x.fract() == 0.0 && x >= 0.0;
    if let Some(x) = number("seed", &|x| whole(x) && x <= 2f64.powi(53), "a whole number from 0 to 2^53")? {
        s.seed = x as u64;
    }
    if let Some(x) = number("steps", &whole, "a whole number >= 0")? {
        s.steps = x.min(u64::MAX as f64) as u64;
    }
    if let Some(x) = number("t0", &|x| x.is_finite() && x > 0.0, "a finite number > 0")? {
        s.t0 = x;
    }
    if let Some(x) = number("decay", &|x| x > 0.0 && x <= 1.0, "a number > 0 and <= 1")? {
        s.decay = x;
    }
    Ok(s)
}

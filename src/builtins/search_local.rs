//! `Search.hill(Start, Next, Value [, Opts])` (docs/search.md, "Local search"): steepest-ascent
//! hill climbing over the script's value function (`search::hill`). It has a value where the
//! table's algorithms have a goal, so it is a builtin of its own beside `Search.check`.

use super::search::{callable, grace, keep_stats, stats_map, Opts};
use crate::eval::{fail, Interp, R};
use crate::search::hill::{hill as climb, Climb};
use crate::search::script::{GoalTest, ScriptProblem, Spec, Trace};
use crate::search::{Algorithm, Outcome, StateStore};
use crate::syntax::Span;
use crate::value::{Logic, Value};
use web_time::Instant;

/// `Search.hill(Start, Next, Value [, Opts])`: the state where the climb stopped.
pub(super) fn hill(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.hill";
    let next = callable(&args[1], fname, 2, "Next", span)?;
    let value = callable(&args[2], fname, 3, "Value", span)?;
    let opts = Opts::read(it, args.get(3), fname, &[], span)?;
    if opts.threads.is_some_and(|n| n > 1) || opts.symmetry.is_some() || opts.trace.is_some() {
        return fail(span, format!("`{fname}` climbs on one thread, without `symmetry` or `trace`"));
    }
    let spec = Spec {
        // (the problem asks for an algorithm: greedy, which also reads h and takes any cost)
        algorithm: Algorithm::Greedy,
        start: args[0].clone(),
        next,
        goal: GoalTest::Nothing,
        h: Some(value),
        symmetry: None,
        canonical: None,
        trace: Trace::Off,
    };
    let started = Instant::now();
    let mut store = StateStore::default();
    it.search_call();
    let mut problem = ScriptProblem::new(it, spec, span)?;
    problem.h_role = "value";
    if opts.record {
        problem.start_recording();
    }
    let Climb { last, value, reason, counts } = climb(&mut problem, &mut store, &opts.config)?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let outcome = Outcome { goal: Some(last), reason, counts };
    let map = stats_map(&problem.decoder, &mut problem.it.world, &store, &outcome, ms, "hill", Logic::UNDEF);
    let record = super::search_record::take(&mut problem, store);
    drop(problem);
    let Value::Map(m) = &map else { unreachable!("stats_map makes a map") };
    m.borrow_mut().insert(Value::str("value"), Value::Num(value));
    let state = match m.borrow().get(&Value::str("path")) {
        Some(Value::Array(path)) => path.borrow().back().cloned(),
        _ => None,
    };
    keep_stats(it, &map);
    super::search_record::keep(it, record);
    grace(it, reason, span)?;
    Ok(state.unwrap_or(Value::Logic(Logic::UNDEF)))
}

//! The `Search` module (docs/language.md, decision 17): one `Search.NAME` per row of the
//! algorithm table (`search::TABLE`), `Search.stats()` and `Search.compare`. The engine is
//! `crate::search`; this file reads the arguments and options and turns outcomes into script
//! values.

use super::search_checkpoint::Checkpointed;
use super::{function, search_checkpoint, search_store, Arity, Builtin};
use crate::compile::ir::FnCode;
use crate::eval::{fail, Interp, Limit, R};
use crate::search::checkpoint::Kind;
use crate::search::script::{GoalTest, ScriptProblem, Spec, Trace};
use crate::search::states::Decoder;
use crate::search::store::StoreMode;
use crate::search::symmetry::Symmetry;
use crate::search::workers;
use crate::search::{self, Algorithm, Config, Counts, Outcome, Reason, StateStore, COMMON_OPTIONS, NONE};
use crate::value::code::CodeRef;
use crate::value::{Logic, Map, Value};
use crate::world::{NodeId, World};
use ds_base::names::suggest;
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;
use web_time::Instant;

pub const BUILTINS: &[Builtin] = &[
    function("Search.stats", Arity::exactly(0), stats)
        .doc("Search.stats()", "a map about the last search: found, path, actions, cost, expanded, generated ..."),
    function("Search.trace", Arity::range(0, 1), super::search_record::trace).doc(
        "Search.trace([View])",
        "the events of the last search run with the option record (push, expand, goal ...); with View, each state drawn as `view`",
    ),
    function("Search.check", Arity::exactly(3), super::search_check::check).doc(
        "Search.check(Space, Goal, H)",
        "judges heuristic H over a whole explored space: admissible, consistent, max_overestimate, worst, exact",
    ),
    function("Search.hill", Arity::range(2, 4), super::search_local::hill).doc(
        "Search.hill(Start, Next, Value [, Opts])",
        "hill climbing: from Start to the best successor by Value while it improves; the state it stopped at",
    ),
    function("Search.anneal", Arity::range(2, 4), super::search_local::anneal).doc(
        "Search.anneal(Start, Next, Value [, Opts])",
        "simulated annealing, seeded: a random walk by Value that cools; the best state it visited",
    ),
    function("Search.bibfs", Arity::range(1, 4), super::search_local::bibfs).doc(
        "Search.bibfs(Start, Next, Goal, {\"prev\": Prev})",
        "bidirectional breadth-first search from Start and from the goal state by Prev: fewest actions",
    ),
    function("Search.compare", Arity::range(3, 6), super::search_compare::compare).doc(
        "Search.compare(Start, Next, Goal, H, Algorithms [, Opts])",
        "runs each algorithm on the problem, prints a table of their results and returns its rows",
    ),
];

/// The builtins of the algorithm table (`search::TABLE`), one per row, all with one body
/// (`search_row::<I>`, the search of row I). There is room for `MAX_ALGORITHMS` rows: a
/// longer table stops the build here.
pub const ALGORITHM_BUILTINS: &[Builtin] = ROW_BUILTINS.split_at(search::TABLE.len()).0;

const MAX_ALGORITHMS: usize = 16;
const _: () = assert!(search::TABLE.len() <= MAX_ALGORITHMS, "more algorithms than MAX_ALGORITHMS");
const ROW_BUILTINS: [Builtin; MAX_ALGORITHMS] = [
    row_builtin::<0>(),
    row_builtin::<1>(),
    row_builtin::<2>(),
    row_builtin::<3>(),
    row_builtin::<4>(),
    row_builtin::<5>(),
    row_builtin::<6>(),
    row_builtin::<7>(),
    row_builtin::<8>(),
    row_builtin::<9>(),
    row_builtin::<10>(),
    row_builtin::<11>(),
    row_builtin::<12>(),
    row_builtin::<13>(),
    row_builtin::<14>(),
    row_builtin::<15>(),
];

/// The builtin of row I (a placeholder, never registered, past the table's end).
const fn row_builtin<const I: usize>() -> Builtin {
    if I >= search::TABLE.len() {
        return function("", Arity::exactly(0), search_row::<I>);
    }
    let row = &search::TABLE[I];
    // `Search.ALG(P [, H] [, Opts])` with a problem map too (search_problem.rs).
    let arity = if row.informed { Arity::range(2, 5) } else { Arity::range(1, 4) };
    function(row.function, arity, search_row::<I>).doc(row.usage, row.doc)
}

fn search_row<const I: usize>(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    search_with(it, search::TABLE[I].algorithm, args, span)
}

/// `Search.stats()`: the map about the last search (an empty map before the first).
fn stats(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(match &it.kept::<LastStats>().0 {
        Some(m) => Value::Map(Rc::new(RefCell::new(m.borrow().clone()))),
        None => Value::Map(Rc::default()),
    })
}

/// The statistics of the last search (`Search.stats()`; None before the first).
#[derive(Default)]
pub(super) struct LastStats(Option<crate::value::MapRef>);

/// Keeps `map` (a map of statistics) as the last search's.
pub(super) fn keep_stats(it: &mut Interp, map: &Value) {
    if let Value::Map(m) = map {
        it.kept::<LastStats>().0 = Some(m.clone());
    }
}

/// `Search.ALG(Start, Next, Goal [, H] [, Opts])`.
fn search_with(it: &mut Interp, algorithm: Algorithm, args: &[Value], span: Span) -> R<Value> {
    let row = algorithm.row();
    let fname = row.function;
    let args = &super::search_problem::positional(it, args, row.informed, fname, row.usage, span)?;
    let opts_at = if row.informed { 4 } else { 3 };
    let h = if row.informed { Some(callable(&args[3], fname, 4, "H", span)?) } else { None };
    let opts = Opts::read(it, args.get(opts_at), fname, row.options, span)?;
    let spec = spec(it, algorithm, args, h, &opts, fname, span)?;
    let tracing = !matches!(spec.trace, Trace::Off) || opts.record;
    let asked = match opts.config.store {
        StoreMode::Exact => opts.threads,
        _ => Some(search_store::one_thread_untraced(opts.threads, tracing, fname, span)?),
    };
    let on = workers::threads(it, asked, algorithm, tracing, fname, span)?;
    let (result, _) = run(it, spec, &opts.config, on, opts.record, opts.checkpoint.as_ref(), span)?;
    Ok(result)
}

/// The spec of a search from `Start, Next, Goal` and the options.
pub(super) fn spec(
    it: &mut Interp,
    algorithm: Algorithm,
    args: &[Value],
    h: Option<Rc<FnCode>>,
    opts: &Opts,
    fname: &str,
    span: Span,
) -> R<Spec> {
    let next = callable(&args[1], fname, 2, "Next", span)?;
    let goal = match &args[2] {
        Value::Lambda(code) => GoalTest::Demon(one_argument(code, fname, 3, "Goal", span)?),
        v => GoalTest::Value(v.clone()),
    };
    let (symmetry, canonical) = symmetry(it, opts.symmetry.as_ref(), &args[0], fname, span)?;
    let trace = match &opts.trace {
        Some(Value::Lambda(code)) => Trace::Call(one_argument(code, fname, 0, "trace", span)?),
        Some(v) if v.condition().is_true() => Trace::Print,
        _ => Trace::Off,
    };
    let first_paths_kept = algorithm.row().keeps_first_path;
    Ok(Spec { algorithm, start: args[0].clone(), next, goal, h, symmetry, canonical, trace, first_paths_kept })
}

/// Runs a search; returns its result (the goal state or Undef) and the statistics map, which
/// `Search.stats()` also gives from now on.
/// With `record`, the search's events are kept for `Search.trace()`.
pub(super) fn run(
    it: &mut Interp,
    spec: Spec,
    config: &Config,
    on: workers::On,
    record: bool,
    checkpoints: Option<&search_checkpoint::Plan>,
    span: Span,
) -> R<(Value, Value)> {
    let algorithm = spec.algorithm;
    let started = Instant::now();
    let mut store = match StateStore::new(config.store) {
        Ok(store) => store,
        Err(why) => return fail(span, format!("the store \"bitstate\" cannot be made: {why} (`bits` sets its size)")),
    };
    let mut saving = match checkpoints {
        Some(plan) => Some({
            let identity = search_checkpoint::identity(it, &spec, Kind::Bfs, None, config.store);
            search_checkpoint::Checkpointed::prepare(it, plan, identity, &on, span)?
        }),
        None => None,
    };
    if let Some(saved) = saving.as_mut().and_then(|s| s.saved.take()) {
        store = saved.store;
    }
    crate::search::workers::search_call(it);
    let mut problem = ScriptProblem::new(it, spec, span)?;
    workers::serve_here(&mut problem)?;
    if let Some(saving) = &saving {
        saving.check_resumed(&mut problem, &store, span)?;
    }
    if record {
        problem.start_recording();
    }
    let counts = saving.as_ref().map_or_else(Counts::default, |s| s.counts);
    let outcome = workers::spread(&mut problem, on, config, |problem, on| match (on, saving.as_mut()) {
        (Some(on), saving) => {
            let mut engine = saving.map(Checkpointed::engine);
            search::run_bfs_threaded(problem, &mut store, config, on, engine.as_mut(), counts)
        }
        (None, Some(saving)) => search::run_bfs_saving(problem, &mut store, config, &mut saving.engine(), counts),
        (None, None) => search::run(algorithm, problem, &mut store, config),
    })?;
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    let result = match (&outcome.goal, problem.found.take()) {
        (Some(_), Some(v)) => v,
        _ => Value::Logic(Logic::UNDEF),
    };
    let found = match outcome.reason.found() {
        Some(b) => Logic::from_bool(b),
        None => Logic::UNDEF,
    };
    if let Some(goal) = outcome.goal.filter(|_| !store.is_exact()) {
        search_store::rebuild_path(&mut problem, &mut store, goal.origin.parent, span)?;
    }
    let map = stats_map(&problem.decoder, &mut problem.it.world, &store, &outcome, ms, algorithm.name(), found);
    let record = super::search_record::take(&mut problem, store);
    drop(problem);
    keep_stats(it, &map);
    super::search_record::keep(it, record);
    grace(it, outcome.reason, span)?;
    Ok((result, map))
}

/// After a search stopped on `--timeout` or `--max-steps`, the script's little more time to
/// report what it found. A signal that stopped it ends a plain run (issue 41): only where a
/// person is at the controls does the script go on.
pub(super) fn grace(it: &mut Interp, reason: Reason, span: Span) -> R<()> {
    match reason {
        Reason::Timeout => it.grant_grace(Limit::Timeout),
        Reason::MaxSteps => it.grant_grace(Limit::Steps),
        Reason::Interrupted if it.limits().interrupt_ends_run => {
            return crate::eval::limit_error(span, Limit::Interrupt, None)
        }
        _ => {}
    }
    Ok(())
}

/// The map of docs/language.md, decision 17 (docs/search.md defines each entry).
pub(super) fn stats_map(
    decoder: &Decoder,
    world: &mut World,
    store: &StateStore,
    o: &Outcome,
    ms: f64,
    algorithm: &str,
    found: Logic,
) -> Value {
    let (mut path, mut actions, mut cost) = (Vec::new(), Vec::new(), Value::Logic(Logic::UNDEF));
    if let Some(found) = &o.goal {
        let mut ids = if found.origin.parent == NONE { Vec::new() } else { store.path(found.origin.parent) };
        ids.push(found.id);
        let last = ids.len() - 1;
        for k in 0..ids.len() {
            let label = (k == last).then_some(found.origin.label);
            path.push(decoder.state_along(store, world, &ids[..=k], label));
            if k > 0 {
                let action = if k == last { found.origin.action } else { store.origin(ids[k]).action };
                actions.push(decoder.action_value(store, world, action));
            }
        }
        cost = Value::Num(found.origin.g);
    }
    let c = &o.counts;
    let num = |n: u64| Value::Num(n as f64);
    let entries = [
        ("found", Value::Logic(found)),
        ("reason", Value::str(o.reason.word())),
        ("path", Value::array(path)),
        ("actions", Value::array(actions)),
        ("cost", cost),
        ("expanded", num(c.expanded)),
        ("generated", num(c.generated)),
        ("duplicates", num(c.duplicates)),
        ("max_frontier", num(c.max_frontier)),
        ("depth", num(c.depth)),
        ("dead_ends", num(c.dead_ends)),
        ("states", num(store.len() as u64)),
        ("bytes", num(store.memory() as u64)),
        ("bytes_per_state", Value::Num(store.memory() as f64 / store.len().max(1) as f64)),
        ("exact", Value::Logic(Logic::from_bool(store.is_exact()))),
        ("ms", Value::Num(ms)),
        ("algorithm", Value::str(algorithm)),
    ];
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(Value::str(k), v);
    }
    for (k, v) in search_store::lossy_stats(store, c) {
        m.insert(Value::str(k), v);
    }
    Value::Map(Rc::new(RefCell::new(m)))
}

// ---------------------------------------------------------------- arguments and options

/// A demon or lambda of one argument, given as argument `n` (`role` names it in messages).
pub(super) fn callable(v: &Value, fname: &str, n: usize, role: &str, span: Span) -> R<Rc<FnCode>> {
    match v {
        Value::Lambda(code) => one_argument(code, fname, n, role, span),
        other => fail(
            span,
            format!("argument {n} of `{fname}` ({role}) must be a demon or a lambda, not {}", other.described()),
        ),
    }
}

pub(super) fn one_argument(code: &CodeRef, fname: &str, n: usize, role: &str, span: Span) -> R<Rc<FnCode>> {
    if code.params().len() == 1 {
        return crate::eval::runnable(code.clone(), span);
    }
    let place = if n > 0 { format!("argument {n} of `{fname}` ({role})") } else { format!("`{role}` of `{fname}`") };
    fail(span, format!("{place}: `{}` must take one argument, not {}", code.name(), code.params().len()))
}

/// The options only `Search.explore` and `Search.compare` take (every search takes
/// `COMMON_OPTIONS`, and an algorithm its row's options).
pub(super) const EXPLORE_OPTIONS: &[&str] = &["limit", "goal", "view"];
pub(super) const COMPARE_OPTIONS: &[&str] = &["time"];

/// The options map of a search, read and checked.
#[derive(Default)]
pub(super) struct Opts {
    pub config: Config,
    pub symmetry: Option<Value>,
    pub trace: Option<Value>,
    /// `Search.compare`: print the ms column (default True).
    pub time: bool,
    /// `Search.explore`: which states to mark as goals.
    pub goal: Option<Value>,
    /// `threads`, when given.
    pub threads: Option<usize>,
    /// `record`: keep the search's events for `Search.trace()`.
    pub record: bool,
    /// `Search.explore`: how to draw each state.
    pub view: Option<Value>,
    /// `checkpoint`, `every`, `resume`: where the search keeps its checkpoints.
    pub checkpoint: Option<search_checkpoint::Plan>,
}

impl Opts {
    /// Reads the options of `fname`, which takes `COMMON_OPTIONS` and `own`.
    pub fn read(it: &Interp, v: Option<&Value>, fname: &str, own: &[&str], span: Span) -> R<Opts> {
        let mut opts = Opts { time: true, ..Opts::default() };
        let m = match v {
            None => return Ok(opts),
            Some(Value::Map(m)) => m.borrow().clone(),
            Some(other) => {
                return fail(span, format!("the options of `{fname}` must be a map, not {}", other.described()))
            }
        };
        let mut bits = None;
        let mut checkpoint = search_checkpoint::Given::default();
        for (k, v) in m.iter() {
            let key = match k {
                Value::Str(s) => s.to_string(),
                other => it.text(other),
            };
            if !COMMON_OPTIONS.contains(&key.as_str()) && !own.contains(&key.as_str()) {
                return fail(span, no_option(fname, &key, own));
            }
            let count = |min: f64| -> R<f64> {
                match v {
                    Value::Num(n) if n.fract() == 0.0 && *n >= min => Ok(*n),
                    _ => fail(
                        span,
                        format!("option `{key}` of `{fname}` must be a whole number >= {min}, not {}", it.text(v)),
                    ),
                }
            };
            match key.as_str() {
                "limit" => opts.config.limit = Some(count(0.0)?.min(u32::MAX as f64) as u32),
                "max_states" => opts.config.max_states = Some(count(1.0)?.min(usize::MAX as f64) as usize),
                "threads" => opts.threads = Some(count(1.0)?.min(usize::MAX as f64) as usize),
                "width" => opts.config.width = Some(count(1.0)?.min(usize::MAX as f64) as usize),
                "symmetry" => opts.symmetry = Some(v.clone()),
                "trace" => opts.trace = Some(v.clone()),
                "record" => opts.record = v.condition().is_true(),
                "store" => opts.config.store = search_store::mode(it, v, fname, span)?,
                "bits" => bits = Some(count(64.0)?),
                "time" => opts.time = v.condition().is_true(),
                "goal" => opts.goal = Some(v.clone()),
                "view" => opts.view = Some(v.clone()),
                "checkpoint" | "every" | "resume" => checkpoint.read(it, &key, v, fname, span)?,
                // (read by search_local.rs)
                "seed" | "t0" | "decay" | "steps" | "prev" => {}
                // A listed option without an arm would otherwise be ignored in silence.
                _ => {
                    return fail(span, format!("option `{key}` of `{fname}` is accepted but never read (a bug in ds)"))
                }
            }
        }
        search_store::size_bits(&mut opts.config.store, bits, span)?;
        let tracing = opts.record
            || opts.trace.as_ref().is_some_and(|v| v.condition().is_true() || matches!(v, Value::Lambda(_)));
        opts.checkpoint = checkpoint.plan(fname, opts.config.store, tracing, span)?;
        Ok(opts)
    }
}

/// The message for option `key`, which `fname` (taking `COMMON_OPTIONS` and `own`) does not
/// take: where it belongs when another function takes it, else the options there are.
fn no_option(fname: &str, key: &str, own: &[&str]) -> String {
    let mut owners: Vec<&str> = search::TABLE.iter().filter(|r| r.options.contains(&key)).map(|r| r.function).collect();
    if EXPLORE_OPTIONS.contains(&key) {
        owners.push("Search.explore");
    }
    if COMPARE_OPTIONS.contains(&key) {
        owners.push("Search.compare");
    }
    if super::search_local::ANNEAL_OPTIONS.contains(&key) {
        owners.push("Search.anneal");
    }
    if super::search_local::BIBFS_OPTIONS.contains(&key) {
        owners.push("Search.bibfs");
    }
    if !owners.is_empty() {
        let owners: Vec<String> = owners.iter().map(|o| format!("`{o}`")).collect();
        return format!("`{key}` is an option of {}, not of `{fname}`", owners.join(", "));
    }
    let options: Vec<&str> = COMMON_OPTIONS.iter().chain(own).copied().collect();
    match suggest(key, options.iter().copied()) {
        Some(s) => format!("`{fname}` has no option `{key}` (did you mean `{s}`?)"),
        None => format!("`{fname}` has no option `{key}`; the options are {}", options.join(", ")),
    }
}

/// What the `symmetry` option gives: a renaming of nodes, or a user's canonicaliser.
pub(super) type Symmetries = (Option<Rc<Symmetry>>, Option<Rc<FnCode>>);

/// The `symmetry` option: interchangeable nodes of the start's world, as one array, or as an
/// array of groups (arrays) whose nodes are interchangeable within their group; or, for states
/// of any kind, a demon or lambda that gives each state's representative (a canonicaliser).
pub(super) fn symmetry(it: &Interp, v: Option<&Value>, start: &Value, fname: &str, span: Span) -> R<Symmetries> {
    match v {
        None => Ok((None, None)),
        Some(Value::Lambda(code)) => Ok((None, Some(one_argument(code, fname, 0, "symmetry", span)?))),
        Some(v) => Ok((node_symmetry(it, v, start, fname, span)?, None)),
    }
}

/// The `symmetry` option as nodes of the start's world.
fn node_symmetry(it: &Interp, v: &Value, start: &Value, fname: &str, span: Span) -> R<Option<Rc<Symmetry>>> {
    let Value::Graph(g) = start else {
        return fail(span, format!("`symmetry` of `{fname}` as an array of nodes needs graph states; the start is {}: give a demon or lambda that returns each state's representative instead", start.described()));
    };
    let class = g.borrow().class;
    let groups = match v {
        Value::Array(items) if items.borrow().iter().all(|i| matches!(i, Value::Array(_))) => {
            items.borrow().iter().cloned().collect()
        }
        _ => vec![v.clone()],
    };
    let mut out: Vec<Vec<NodeId>> = Vec::new();
    for group in groups {
        let Value::Array(items) = &group else {
            return fail(span, format!("`symmetry` of `{fname}` must be an array of nodes, not {}", group.described()));
        };
        let mut nodes = Vec::new();
        for item in items.borrow().iter() {
            match item {
                Value::Node(n) if n.class == class && out.iter().any(|g| g.contains(&n.id)) => {
                    // Overlapping groups would make one group of their union, which nobody
                    // wrote: refused rather than guessed (issue 41).
                    let name = crate::value::display::node_name(&it.world, n.class, n.id);
                    let msg = format!(
                        "`symmetry` of `{fname}` puts `{name}` in two groups: groups must not overlap \
                         (nodes interchangeable with both groups make one group: write them all in one array)"
                    );
                    return fail(span, msg);
                }
                Value::Node(n) if n.class == class => nodes.push(n.id),
                Value::Node(n) => {
                    let name = crate::value::display::node_name(&it.world, n.class, n.id);
                    let msg =
                        format!("`symmetry` of `{fname}` names `{name}`, a node of another world than the start's");
                    return fail(span, msg);
                }
                other => {
                    let msg =
                        format!("`symmetry` of `{fname}` must be an array of nodes; it holds {}", other.described());
                    return fail(span, msg);
                }
            }
        }
        out.push(nodes);
    }
    Ok(Some(Rc::new(Symmetry::new(class, out))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Flow;

    /// A value each option accepts: a whole number >= 1 suits every counted option and is
    /// ignored by the rest's arms (they keep the value or read its truth).
    fn read_one(it: &Interp, fname: &str, own: &[&str], key: &str) -> R<Opts> {
        let mut m = Map::default();
        m.insert(Value::str(key), Value::Num(2.0));
        Opts::read(it, Some(&Value::Map(Rc::new(RefCell::new(m)))), fname, own, Span::default())
    }

    #[test]
    fn every_listed_option_is_read() {
        let it = Interp::new(Box::new(std::io::sink()), crate::builtins::registry());
        let local = [
            ("anneal", super::super::search_local::ANNEAL_OPTIONS),
            ("bibfs", super::super::search_local::BIBFS_OPTIONS),
        ];
        let lists = search::TABLE
            .iter()
            .map(|row| (row.function, row.options))
            .chain([("explore", EXPLORE_OPTIONS), ("compare", COMPARE_OPTIONS)])
            .chain(local);
        for (fname, own) in lists {
            for key in COMMON_OPTIONS.iter().chain(own) {
                if let Err(Flow::Error(d)) = read_one(&it, fname, own, key) {
                    assert!(!d.message.contains("never read"), "{fname}: {}", d.message);
                }
            }
        }
    }

    #[test]
    fn an_option_not_listed_is_refused_by_name() {
        let it = Interp::new(Box::new(std::io::sink()), crate::builtins::registry());
        match read_one(&it, "bfs", &[], "colour") {
            Err(Flow::Error(d)) => assert!(d.message.contains("colour"), "{}", d.message),
            _ => panic!("an unknown option was accepted"),
        }
    }
}

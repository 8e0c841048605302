//! The search engine of the `Search` module (docs/language.md, decision 17): breadth-first,
//! depth-first (with a depth limit), iterative deepening, uniform-cost, A*, IDA*, RBFS, greedy
//! best-first and beam search (one row each in `algorithms.rs`), with hill climbing,
//! simulated annealing and bidirectional breadth-first search beside them (builtins of their own), over any problem that can pack its states into byte keys (`Problem`), and
//! the exploration of a whole state space.
//!
//! The engine does not know the interpreter: `store.rs` keeps the states as packed keys, the
//! algorithms work on state ids, and `script.rs` is the one place that turns keys into live
//! values and calls the script's demons. `builtins/search.rs` is the script-facing module.

mod algorithms;
pub mod anneal;
mod beam;
mod best_first;
pub(crate) mod bfs;
pub mod bidi;
pub mod bitstate;
pub mod check;
pub mod checkpoint;
mod columns;
mod content;
mod dfs;
pub mod explore;
pub mod export;
pub mod fingerprints;
pub mod hill;
mod idastar;
mod kept_keys;
mod key_vars;
pub mod on_demand;
pub mod open_order;
pub mod pack;
mod packed_states;
pub mod parallel;
mod phases;
pub mod problem;
pub mod processes;
pub mod progress;
mod rbfs;
mod records;
pub mod replay;
pub mod script;
pub mod space;
pub mod start_guard;
pub mod states;
pub mod store;
pub mod symmetry;
mod wire;
pub mod workers;

pub use algorithms::{Algorithm, FOf, GoalTest, Order, Row, COMMON_OPTIONS, TABLE};
pub use problem::{tell, Event, EventKind, Halt, Problem, Step, Succ, Successors, Which};
pub use store::{Origin, StateId, StateStore, NONE};

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// A goal was found.
    Goal,
    /// Every reachable state was searched and none is a goal.
    Exhausted,
    /// No goal within the depth limit (`dfs`, `iddfs` with `limit`); one may lie deeper.
    DepthLimit,
    /// `max_states` states are stored and another would be needed.
    MaxStates,
    Interrupted,
    Timeout,
    MaxSteps,
    /// The heap passed `--max-memory`.
    MaxMemory,
    /// An incomplete algorithm (`beam`) ended without a goal after dropping states it could
    /// have searched: a goal may still be reachable.
    Incomplete,
    /// Hill climbing stopped at a state no successor improves (a local or the global maximum).
    Peak,
    /// Simulated annealing ran its steps, or its temperature reached 0.
    Cooled,
}

impl Reason {
    /// The word `Search.stats()["reason"]` gives.
    pub fn word(self) -> &'static str {
        match self {
            Reason::Goal => "goal",
            Reason::Exhausted => "exhausted",
            Reason::DepthLimit => "limit",
            Reason::MaxStates => "max_states",
            Reason::Interrupted => "interrupted",
            Reason::Timeout => "timeout",
            Reason::MaxSteps => "max_steps",
            Reason::MaxMemory => "max_memory",
            Reason::Incomplete => "incomplete",
            Reason::Peak => "peak",
            Reason::Cooled => "cooled",
        }
    }

    /// `found`: True with a goal, False when there is none (within the limit), Undef (None)
    /// when a limit stopped the search before it could tell, or an incomplete search gave up
    /// (Undef is "not known", as in ds's three-valued logic).
    pub fn found(self) -> Option<bool> {
        match self {
            Reason::Goal => Some(true),
            Reason::Exhausted | Reason::DepthLimit => Some(false),
            _ => None,
        }
    }
}

/// The counts every algorithm keeps, with the same meaning in all (docs/search.md defines them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// States whose successors were asked for (calls of `Next`).
    pub expanded: u64,
    /// Successors `Next` returned, one by one, duplicates included.
    pub generated: u64,
    /// Generated successors dropped because their state was already met (and not by a worse
    /// path that this one improves).
    pub duplicates: u64,
    /// The most states waiting to be expanded at one time.
    pub max_frontier: u64,
    /// The greatest depth (actions from the start) of a state the search reached.
    pub depth: u64,
    /// States an informed search dropped because their heuristic was infinite (a dead end,
    /// as planners and AIMA mark one): each counted once, when first evaluated.
    pub dead_ends: u64,
    /// The states waiting now (for the progress line; not a statistic).
    pub frontier: u64,
}

impl Counts {
    fn frontier(&mut self, n: usize) {
        self.frontier = n as u64;
        self.max_frontier = self.max_frontier.max(n as u64);
    }

    fn reached(&mut self, depth: u32) {
        self.depth = self.depth.max(depth as u64);
    }
}

/// Options of one search.
#[derive(Debug, Clone, Copy, Default)]
pub struct Config {
    /// Stop (reason `max_states`) rather than store more states than this.
    pub max_states: Option<usize>,
    /// The depth limit of `dfs` and the deepest limit `iddfs` tries.
    pub limit: Option<u32>,
    /// The states `beam` keeps at each level (`DEFAULT_WIDTH` when not given).
    pub width: Option<usize>,
    /// How visited states are kept (`Opts["store"]`).
    pub store: store::StoreMode,
}

/// A goal found, and the way the search reached it: its origin in the store.
#[derive(Debug, Clone, Copy)]
pub struct Found {
    pub id: StateId,
    pub origin: Origin,
}

/// How an algorithm ends: a goal found, or the reason it ended without one.
pub(crate) type Ended<E> = Step<Result<Found, Reason>, E>;

/// The result of a search.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub goal: Option<Found>,
    pub reason: Reason,
    pub counts: Counts,
}

/// Runs `algorithm` on `problem`, with a fresh `store` (which keeps the states afterwards).
pub fn run<P: Problem>(
    algorithm: Algorithm,
    problem: &mut P,
    store: &mut StateStore,
    config: &Config,
) -> Result<Outcome, P::Error> {
    let mut counts = Counts::default();
    let result = algorithms::run_row(algorithm, problem, store, config, &mut counts);
    outcome(result, counts)
}

/// `bfs` on one thread with checkpoints (`checkpoint.rs`): from the start, or from where a
/// checkpoint left it, with the counts it had then.
pub fn run_bfs_saving<P: Problem>(
    problem: &mut P,
    store: &mut StateStore,
    config: &Config,
    saving: &mut checkpoint::Saving<'_, P::Error>,
    mut counts: Counts,
) -> Result<Outcome, P::Error> {
    let result = bfs::bfs_saving(problem, store, config, &mut counts, Some(saving));
    outcome(result, counts)
}

/// `bfs` on several threads or processes (`parallel.rs`): the same outcome as `run` on one
/// thread. With `saving` (on threads), checkpoints are written at the start of a level, and a
/// resumed search goes on from where one left it, with `counts` as it had them then.
pub fn run_bfs_threaded<P: parallel::Threaded>(
    problem: &mut P,
    store: &mut StateStore,
    config: &Config,
    on: parallel::Parallel<'_, P::Error>,
    saving: Option<&mut checkpoint::Saving<'_, P::Error>>,
    mut counts: Counts,
) -> Result<Outcome, P::Error> {
    let result = bfs::bfs_threaded(problem, store, config, &mut counts, on, saving);
    outcome(result, counts)
}

/// An algorithm's result as an outcome: `Ok(Ok(goal))` found one, `Ok(Err(reason))` ended
/// without one; a limit is a clean end too.
pub(crate) fn outcome<E>(result: Step<Result<Found, Reason>, E>, counts: Counts) -> Result<Outcome, E> {
    match result {
        Ok(Ok(found)) => Ok(Outcome { goal: Some(found), reason: Reason::Goal, counts }),
        Ok(Err(reason)) | Err(Halt::Limit(reason)) => Ok(Outcome { goal: None, reason, counts }),
        Err(Halt::Error(e)) => Err(e),
    }
}

/// Stores the start (id 0).
pub(crate) fn insert_start<P: Problem>(
    problem: &mut P,
    store: &mut StateStore,
    buf: &mut Successors,
) -> Step<(), P::Error> {
    buf.clear();
    problem.start(buf)?;
    let s = buf.get(0);
    let variant = s.variant.map_or(NONE, |v| store.intern_variant(v));
    store.insert(s.key, Origin { variant, ..Origin::START });
    Ok(())
}

/// Stores the start and tests it, before anything is expanded: every algorithm does (issue 41).
pub(crate) fn start_is_goal<P: Problem>(p: &mut P, store: &mut StateStore) -> Step<Option<Found>, P::Error> {
    let mut buf = Successors::default();
    insert_start(p, store, &mut buf)?;
    p.load(store, 0)?;
    let goal = p.is_goal(Which::Current)?;
    tell(p, store, || Event::start(None))?;
    if goal {
        tell(p, store, || Event { kind: EventKind::Goal, frontier: 0, ..Event::start(None) })?;
    }
    Ok(goal.then_some(Found { id: 0, origin: Origin::START }))
}

/// Stores the start unless it is stored already (`bfs` stored and tested it first).
pub(crate) fn store_start<P: Problem>(p: &mut P, store: &mut StateStore, buf: &mut Successors) -> Step<(), P::Error> {
    match store.is_empty() {
        true => insert_start(p, store, buf),
        false => Ok(()),
    }
}

/// The origin of successor `s` of `parent`, its action, label and variant interned.
fn origin_of(store: &mut StateStore, s: &Succ<'_>, parent: StateId, depth: u32, g: f64) -> Origin {
    Origin {
        parent,
        action: s.action.map_or(NONE, |a| store.intern_action(a)),
        label: s.label.map_or(NONE, |l| store.intern_label(l)),
        variant: s.variant.map_or(NONE, |v| store.intern_variant(v)),
        depth,
        g,
    }
}

/// Stores successor `s` of `parent` if it is new; `(id, true)` for a new state, `(id, false)`
/// for a known one. Stops with `max_states` rather than store one state too many.
pub(crate) fn insert<E>(
    store: &mut StateStore,
    config: &Config,
    s: &Succ<'_>,
    parent: StateId,
    depth: u32,
    g: f64,
) -> Step<(StateId, bool), E> {
    let absent = match store.probe(s.key) {
        Ok(id) => return Ok((id, false)),
        Err(absent) => absent,
    };
    if config.max_states.is_some_and(|m| store.len() >= m) {
        return Err(Halt::Limit(Reason::MaxStates));
    }
    let origin = origin_of(store, s, parent, depth, g);
    Ok((store.insert_absent_probed(s.key, absent, origin), true))
}

#[cfg(test)]
mod tests;

//! The interpreter's side of searching on several threads (issue 17), the SPMD way: values
//! hold `Rc`s and cannot cross threads, so each extra thread runs the same script in an
//! interpreter of its own, with its output discarded, up to the same search call (the N-th
//! search the script makes); there it serves: it expands the states the first thread gives it
//! as keys and hands back packed successors (`parallel::serve`). A worker never goes past
//! its search: when the search is over it ends.
//!
//! What makes this right is that the script runs the same way on every thread up to the
//! search. A worker that reaches a different search (another start, other numbers or strings
//! in the globals: `System.time`, a changed file) stops the search with an error; so does
//! output from `Next` or `Goal` while they expand for another thread, and a `Next` that
//! declares nodes or relations (their numbers would differ between threads).
//!
//! A native host starts the workers (`Workers`, `ds_native::workers`): without one (the core
//! alone, the playground) every search runs on one thread and `threads` above 1 is refused.

use super::parallel::{self, Parallel, Pool, WorkerEnd};
use super::processes::Cluster;
use super::script::ScriptProblem;
use super::Algorithm;
use crate::eval::{fail, Flow, Interp, R};
use crate::value::Value;
use ds_syntax::Span;
use std::sync::Arc;

/// Most threads a search may ask for.
pub const MAX_THREADS: usize = 256;

/// Starts the workers of a search on several threads: a native host's, which runs the script
/// again on each (`ds FILE`, `ds -e`: `ds_native::workers::Replay`).
pub trait Workers {
    /// Starts a worker for each of `ends`, each running the script again, quietly, up to
    /// search number `target`, which it then serves. A worker that cannot start leaves its
    /// share to the others.
    fn start(&self, target: u64, ends: Vec<WorkerEnd<Flow>>);
}

/// An interpreter's part in searches on several threads or processes, which the `Search`
/// module keeps for it (`Interp::kept`).
#[derive(Default)]
pub struct Threads {
    /// `ds --threads N`: the threads of `Search.bfs` and `Search.explore` when their options
    /// do not say (0: one).
    pub default: usize,
    /// How to start workers (None in the REPL and `ds explore`: no script to run again). Only
    /// a native host starts threads: the core alone searches on one.
    pub workers: Option<Arc<dyn Workers>>,
    /// Searches started so far: a worker serves the one the first thread is at.
    pub calls: u64,
    /// In a worker: the search it serves, and its end of the pool.
    pub worker: Option<(u64, WorkerEnd<Flow>)>,
    /// `ds --processes N`: this process's part of the cluster (taken out while it searches).
    pub cluster: Option<Box<dyn Cluster>>,
}

/// Where a search runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum On {
    /// On this thread.
    One,
    /// On this many threads (more than one).
    Threads(usize),
    /// Across the processes of `ds --processes`.
    Processes,
}

/// The part of `it` in searches on several threads or processes.
pub fn of(it: &mut Interp) -> &mut Threads {
    it.kept::<Threads>()
}

/// Counts a search call (every thread counts the same calls).
pub fn search_call(it: &mut Interp) -> u64 {
    let threads = of(it);
    threads.calls += 1;
    threads.calls
}

/// Where a search runs: across the processes of `ds --processes` for `bfs` and `explore`
/// (unless `Opts["threads"]` is 1: then in each process on its own); on `Opts["threads"]`,
/// else `ds --threads` threads for `bfs` and `explore`; on one in a worker thread (a search
/// before the one it serves) and when tracing.
pub fn threads(
    it: &mut Interp,
    asked: Option<usize>,
    algorithm: Algorithm,
    tracing: bool,
    fname: &str,
    span: Span,
) -> R<On> {
    let host_threads = it.spawn.is_some();
    let threads = of(it);
    if threads.worker.is_some() {
        return Ok(On::One);
    }
    let parallel = algorithm.row().parallel;
    let fits = parallel && !tracing;
    if fits && asked != Some(1) && threads.cluster.as_ref().is_some_and(|c| c.broken().is_none()) {
        return Ok(On::Processes);
    }
    let can_start_workers = threads.workers.is_some();
    let Some(n) = asked else {
        let n = threads.default.max(1);
        return Ok(if fits && n > 1 && can_start_workers { On::Threads(n) } else { On::One });
    };
    if n == 1 {
        return Ok(On::One);
    }
    if n > MAX_THREADS {
        return fail(span, format!("`{fname}` runs on at most {MAX_THREADS} threads, not {n}"));
    }
    if !parallel {
        return fail(span, format!("`{fname}` runs on one thread: `threads` is for `Search.bfs` and `Search.explore`"));
    }
    if tracing {
        return fail(
            span,
            format!("`{fname}` traces and records on one thread only: `trace` and `record` need `threads` 1"),
        );
    }
    if !can_start_workers {
        let why = if host_threads { NO_SCRIPT_TO_RUN_AGAIN } else { NO_THREADS };
        return fail(span, format!("`{fname}` {why}"));
    }
    Ok(On::Threads(n))
}

/// Why `threads` above 1 is refused where the host has threads but no script to run again.
const NO_SCRIPT_TO_RUN_AGAIN: &str =
    "runs on several threads only in a script run by `ds FILE` or `ds -e` (not in the REPL or `ds explore`)";
/// Why `threads` above 1 is refused where the host has no threads.
const NO_THREADS: &str =
    "runs on one thread in this build of ds (the playground has no threads): give `threads` 1 or leave it out";

/// Runs `search` with the options `config` on the threads or processes `on` says (`None` to
/// `search`: on this thread).
pub fn spread<'a, T>(
    p: &mut ScriptProblem<'a>,
    on: On,
    config: &super::Config,
    search: impl FnOnce(&mut ScriptProblem<'a>, Option<Parallel<'_, Flow>>) -> T,
) -> T {
    match on {
        On::Processes => {
            let Some(mut cluster) = of(p.it).cluster.take() else { return search(p, None) };
            // Processes may run different scripts: their options must agree too (threads
            // run this script again, with these options).
            let mut fingerprint = fingerprint(p);
            for option in [config.max_states.map(|n| n as u64), config.limit.map(u64::from)] {
                push_option(&mut fingerprint, option);
            }
            let result = search(p, Some(Parallel::Processes(&mut *cluster, fingerprint)));
            of(p.it).cluster = Some(cluster);
            result
        }
        On::Threads(n) => {
            let mut pool = start(p, n);
            search(p, Some(Parallel::Threads(&mut pool)))
        }
        On::One => search(p, None),
    }
}

/// Starts the workers of a search on `threads` threads, each running the script again up to
/// this search (`Threads::workers`). The first levels are expanded here while they get there.
fn start(p: &mut ScriptProblem<'_>, threads: usize) -> Pool<Flow> {
    let (pool, ends) = Pool::new(threads, fingerprint(p));
    let target = of(p.it).calls;
    if let Some(workers) = of(p.it).workers.clone() {
        workers.start(target, ends);
    }
    pool
}

/// What a search is, as every thread must see it: the search's number, the start's key and
/// the world's shape, and the numbers and strings held by global variables.
pub fn fingerprint(p: &mut ScriptProblem<'_>) -> Vec<u8> {
    use super::problem::{Problem, Successors};
    let mut out = of(p.it).calls.to_le_bytes().to_vec();
    let mut start = Successors::default();
    if p.start(&mut start).is_ok() && !start.is_empty() {
        out.extend_from_slice(start.get(0).key);
    }
    for n in p.it.world.shape() {
        out.extend_from_slice(&(n as u64).to_le_bytes());
    }
    for g in &p.it.globals {
        match g {
            Value::Num(x) => out.extend_from_slice(&x.to_bits().to_le_bytes()),
            Value::Str(s) => out.extend_from_slice(s.as_bytes()),
            _ => {}
        }
        out.push(0);
    }
    // What is searched: the algorithm, and `Next`, the goal and the heuristic as written, so
    // that processes running scripts whose demons differ refuse to search together.
    let spec = p.spec();
    out.extend_from_slice(spec.algorithm.name().as_bytes());
    let goal = match &spec.goal {
        super::script::GoalTest::Demon(code) => Some(code),
        _ => None,
    };
    for code in [Some(&spec.next), goal, spec.h.as_ref(), spec.canonical.as_ref()].into_iter().flatten() {
        let span = code.span;
        let text = p.it.sources.source(span.file).and_then(|s| s.get(span.lo as usize..span.hi as usize));
        out.extend_from_slice(text.unwrap_or_default().as_bytes());
        out.push(0);
    }
    if let Some(symmetry) = &spec.symmetry {
        symmetry.write_bytes(&mut out);
    }
    out
}

/// An option's value, or that it is not given, as bytes of a fingerprint.
fn push_option(out: &mut Vec<u8>, option: Option<u64>) {
    match option {
        Some(n) => {
            out.push(1);
            out.extend_from_slice(&n.to_le_bytes());
        }
        None => out.push(0),
    }
}

/// In a worker at the search it serves: serves it, and ends the worker's run (`Flow::Exit`).
pub fn serve_here(p: &mut ScriptProblem<'_>) -> R<()> {
    let threads = of(p.it);
    if !matches!(threads.worker, Some((target, _)) if target == threads.calls) {
        return Ok(());
    }
    let Some((_, end)) = threads.worker.take() else { return Ok(()) };
    let fingerprint = fingerprint(p);
    parallel::serve(p, &end, fingerprint);
    Err(Flow::Exit(0))
}

//! Breadth-first levels expanded on several threads, committed in order (issue 17).
//!
//! Each thread has its own problem (in scripts: its own interpreter, which ran the same script
//! up to the same search). A level is the id range `level..next`; it is cut into chunks that
//! the threads take in turn, each expanding its states into packed successors. When every
//! chunk is done, the first thread commits them in id order, and each state's successors in
//! the order `Next` gave them: the very order of one thread, so the ids, the goal, the
//! transitions and every count come out the same. The store (the visited set) is only read
//! while a level is expanded and only written while it is committed, under one lock; the
//! commit is a hash lookup per successor, a small part of the work next to `Next`.
//!
//! Goal tests are made by the expanding thread, on the successors that may be new: those not
//! stored before the level and not met before in the same chunk (every state that turns out
//! new at the commit is among them), and the start, when goals are marked (`explore`), by
//! the thread that expands it (`bfs` tested it before).

use super::bfs::{Commit, GoalOf};
use super::checkpoint::{LevelSaver, Position};
use super::phases::{self, Phase};
use super::problem::{Halt, Problem, Step, Successors, Which};
use super::store::{StateId, StateStore, NONE};
use super::{store_start, Counts};
use rustc_hash::FxHashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, RwLock, RwLockReadGuard};
use std::time::Duration;

/// What a problem must also do to be expanded on several threads.
pub trait Threaded: Problem {
    /// The work counted so far (in scripts: the interpreter's steps).
    fn work(&self) -> u64;
    /// Adds work done for it on other threads.
    fn add_work(&mut self, n: u64);
    /// Stops the problem's own work after `left` more units (None: no limit).
    fn work_budget(&mut self, left: Option<u64>);
    /// The work still allowed before the run's limit (None: no limit).
    fn work_left(&self) -> Option<u64>;
    /// While on, the problem expands for the commit of another thread: nothing it does may
    /// reach the outside (no output, no file).
    fn serving(&mut self, on: bool);
    /// The error to stop with when another thread or process cannot take part (`message`
    /// says which and why).
    fn parallel_error(&mut self, message: String) -> Self::Error;
    /// Sets the work counted so far (processes count every expansion at its commit).
    fn set_work(&mut self, n: u64);
    /// The step limit of the run passed (the one limit every process sees at the same point).
    fn work_limit(&mut self) -> Step<(), Self::Error>;
    /// A limit of the run reached (Ctrl-C, `--timeout`, ...), checked while waiting for the
    /// other threads.
    fn limit(&mut self) -> Step<(), Self::Error>;
    /// Shows how far the search is (the live line), where `check` is not asked (processes).
    fn progress(&mut self, _counts: &Counts, _store: &StateStore) {}
}

/// What the expanding thread found out for the commit of one expansion: the goal tests
/// (0 not tested, 1 not a goal, 2 a goal), and the id of each successor that was stored
/// before the level (`NONE` for the others), so that the commit, the one part done on one
/// thread, looks up only the successors that may be new.
#[derive(Debug, Default)]
pub struct Goals {
    pub current: u8,
    pub successors: Vec<u8>,
    pub stored: Vec<StateId>,
}

impl Goals {
    pub fn get(&self, which: Which) -> bool {
        let flag = match which {
            Which::Current => self.current,
            Which::Successor(i) => self.successors.get(i).copied().unwrap_or(0),
        };
        flag == 2
    }

    /// The id of successor `i` if it was stored before its level.
    pub fn stored(&self, i: usize) -> Option<StateId> {
        self.stored.get(i).copied().filter(|&id| id != NONE)
    }
}

/// One expansion done for the commit.
pub struct Expanded {
    pub succ: Successors,
    pub goals: Goals,
    /// The work it took (steps of `Next` and of the goal tests).
    pub work: u64,
}

pub(super) type Outcome<E> = Result<Expanded, Halt<E>>;

/// The expansions of one chunk, and the thread that made them: that thread frees them, while
/// it expands the next level (`Level::free`), so that no thread frees what another allocated
/// (which costs the allocator more) and the commit frees nothing.
pub(super) struct Chunk<E> {
    pub(super) by: usize,
    pub(super) done: Vec<Outcome<E>>,
}

/// One level's work.
pub struct Level<E> {
    pub(super) from: usize,
    pub(super) to: usize,
    chunk: usize,
    next_chunk: AtomicUsize,
    /// The first chunk in which an expansion failed: the commit stops there, so the chunks
    /// after it are not expanded.
    pub(super) first_failure: AtomicUsize,
    pub(super) results: Vec<Mutex<Option<Chunk<E>>>>,
    /// Test the goal of the successors that may be new (and of the start, when expanded).
    goals: bool,
    /// The work each thread may still do (the run's step limit).
    work_left: Option<u64>,
}

impl<E> Level<E> {
    pub(super) fn new(from: usize, to: usize, threads: usize, goals: bool, work_left: Option<u64>) -> Level<E> {
        // Chunks small enough to share the level evenly, large enough to cost little to take.
        let chunk = ((to - from) / (threads * 16)).clamp(1, 256);
        let count = (to - from).div_ceil(chunk);
        let results = (0..count).map(|_| Mutex::new(None)).collect();
        let (next_chunk, first_failure) = (AtomicUsize::new(0), AtomicUsize::new(usize::MAX));
        Level { from, to, chunk, next_chunk, first_failure, results, goals, work_left }
    }

    pub(super) fn ids(&self, chunk: usize) -> std::ops::Range<usize> {
        let from = self.from + chunk * self.chunk;
        from..(from + self.chunk).min(self.to)
    }

    /// Frees the (committed) chunks thread `by` expanded.
    fn free(&self, by: usize) {
        for slot in &self.results {
            let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
            if slot.as_ref().is_some_and(|c| c.by == by) {
                drop(slot.take());
            }
        }
    }
}

/// A message to a worker thread.
pub enum Job<E> {
    /// A level to expand, and the one committed before it (to free this thread's chunks of).
    Level(Arc<Level<E>>, Option<Arc<Level<E>>>),
    /// The search is over.
    Stop,
}

/// A message from a worker thread.
pub enum Report {
    /// It reached the search (with this fingerprint of what it searches) and serves.
    Ready(usize, Vec<u8>),
    /// It did its part of the level it was given.
    Done(usize),
    /// It stopped before serving, or while serving; `limit`: on a limit of the run.
    Gone { thread: usize, why: String, limit: bool },
}

/// What all threads of a search share.
pub struct Shared {
    pub store: RwLock<StateStore>,
}

impl Shared {
    /// The store, to read (a thread that panicked while holding it left it whole: every change
    /// is made under the write lock by one call).
    fn read(&self) -> RwLockReadGuard<'_, StateStore> {
        self.store.read().unwrap_or_else(|e| e.into_inner())
    }
}

/// A worker thread's end of the pool.
pub struct WorkerEnd<E> {
    pub thread: usize,
    pub jobs: Receiver<Job<E>>,
    pub reports: Sender<Report>,
    pub shared: Arc<Shared>,
    /// Set to stop the worker's current work (its interpreter's interrupt flag).
    pub stop: Arc<AtomicBool>,
}

struct Worker<E> {
    jobs: Sender<Job<E>>,
    stop: Arc<AtomicBool>,
    ready: bool,
}

/// The first thread's end: the workers, and what they report.
pub struct Pool<E> {
    workers: Vec<Worker<E>>,
    reports: Receiver<Report>,
    shared: Arc<Shared>,
    /// What the first thread searches: a worker that searches something else went astray.
    pub fingerprint: Vec<u8>,
    /// A worker that could not take part, for the error.
    failed: Option<String>,
}

impl<E> Pool<E> {
    /// A pool of `threads - 1` workers; their ends, to hand each to its thread.
    pub fn new(threads: usize, fingerprint: Vec<u8>) -> (Pool<E>, Vec<WorkerEnd<E>>) {
        let (report_tx, reports) = std::sync::mpsc::channel();
        let shared = Arc::new(Shared { store: RwLock::new(StateStore::default()) });
        let (mut workers, mut ends) = (Vec::new(), Vec::new());
        for thread in 1..threads {
            let (jobs_tx, jobs) = std::sync::mpsc::channel();
            let stop = Arc::new(AtomicBool::new(false));
            workers.push(Worker { jobs: jobs_tx, stop: stop.clone(), ready: false });
            ends.push(WorkerEnd { thread, jobs, reports: report_tx.clone(), shared: shared.clone(), stop });
        }
        (Pool { workers, reports, shared, fingerprint, failed: None }, ends)
    }

    fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// Takes in a report: a worker ready (if it searches the same), done or gone. `Done`
    /// reports count against `waiting`.
    fn take(&mut self, report: Report, waiting: &mut usize) {
        match report {
            Report::Ready(t, fingerprint) if fingerprint == self.fingerprint => self.workers[t - 1].ready = true,
            Report::Ready(t, _) => {
                self.failed.get_or_insert(format!(
                    "thread {} reached a different search: the script must run the same way on every thread up to the search",
                    t + 1
                ));
            }
            Report::Done(_) => *waiting = waiting.saturating_sub(1),
            Report::Gone { thread, why, limit } => {
                let was_ready = std::mem::replace(&mut self.workers[thread - 1].ready, false);
                if was_ready {
                    // it will report no Done for the level it had
                    *waiting = waiting.saturating_sub(1);
                }
                if !limit {
                    self.failed.get_or_insert(format!("thread {} stopped: {why}", thread + 1));
                }
            }
        }
    }

    /// Reports that came in meanwhile.
    fn poll(&mut self) {
        let mut none = 0;
        while let Ok(r) = self.reports.try_recv() {
            self.take(r, &mut none);
        }
    }

    /// Stops every worker (those still on their way to the search too).
    pub fn finish(&mut self) {
        for w in &self.workers {
            let _ = w.jobs.send(Job::Stop);
            w.stop.store(true, Ordering::Relaxed);
        }
    }

    fn stop_all(&self) {
        for w in &self.workers {
            w.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl<E> Drop for Pool<E> {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A worker's side: once its problem is at the search, it reports ready and expands what it
/// is given until the search is over.
pub fn serve<P: Threaded>(p: &mut P, end: &WorkerEnd<P::Error>, fingerprint: Vec<u8>) {
    if end.reports.send(Report::Ready(end.thread, fingerprint)).is_err() {
        return;
    }
    p.serving(true);
    phases::enter(Phase::Wait);
    while let Ok(Job::Level(level, previous)) = end.jobs.recv() {
        phases::enter(Phase::Expand);
        if let Some(previous) = previous {
            previous.free(end.thread);
        }
        let store = end.shared.read();
        expand_level(p, &store, &level, end.thread, taking(&level));
        drop(store);
        phases::enter(Phase::Wait);
        if end.reports.send(Report::Done(end.thread)).is_err() {
            break;
        }
    }
    p.serving(false);
    phases::report(&format!("thread {}", end.thread));
}

/// The chunks of `level` a thread takes in turn with the others.
fn taking<E>(level: &Level<E>) -> impl FnMut() -> usize + '_ {
    || level.next_chunk.fetch_add(1, Ordering::Relaxed)
}

/// Expands the chunks `next` gives until none is left (or one failed), on thread `me`; the
/// limit of the run that stopped this thread, if one did.
pub(super) fn expand_level<P: Threaded>(
    p: &mut P,
    store: &StateStore,
    level: &Level<P::Error>,
    me: usize,
    mut next: impl FnMut() -> usize,
) -> Option<super::Reason> {
    let start = p.work();
    let mut limit = None;
    let mut scratch = Successors::default();
    loop {
        let c = next();
        if c >= level.results.len() || c > level.first_failure.load(Ordering::Relaxed) {
            break;
        }
        let used = p.work() - start;
        p.work_budget(level.work_left.map(|left| left.saturating_sub(used)));
        let mut seen = FxHashSet::<Box<[u8]>>::default();
        let mut out = Vec::with_capacity(level.chunk);
        for id in level.ids(c) {
            let done = expand_one(p, store, id as StateId, level.goals, &mut seen, &mut scratch);
            let failed = match &done {
                Ok(_) => false,
                Err(Halt::Limit(reason)) => {
                    limit = Some(*reason);
                    true
                }
                Err(Halt::Error(_)) => true,
            };
            out.push(done);
            if failed {
                level.first_failure.fetch_min(c, Ordering::Relaxed);
                break;
            }
        }
        *level.results[c].lock().unwrap_or_else(|e| e.into_inner()) = Some(Chunk { by: me, done: out });
    }
    p.work_budget(None);
    limit
}

fn expand_one<P: Threaded>(
    p: &mut P,
    store: &StateStore,
    id: StateId,
    goals: bool,
    seen: &mut FxHashSet<Box<[u8]>>,
    scratch: &mut Successors,
) -> Outcome<P::Error> {
    let before = p.work();
    let flag = |yes: bool| if yes { 2 } else { 1 };
    let mut tested = Goals::default();
    p.load(store, id)?;
    if goals && id == 0 {
        tested.current = flag(p.is_goal(Which::Current)?);
    }
    p.expand(scratch)?;
    // kept in buffers of the exact size: one allocation each, not a growing one
    let succ = scratch.clone();
    tested.stored = (0..succ.len()).map(|i| store.find(succ.get(i).key).unwrap_or(NONE)).collect();
    if goals {
        tested.successors = vec![0; succ.len()];
        for i in 0..succ.len() {
            let key = succ.get(i).key;
            tested.successors[i] = match tested.stored(i) {
                Some(_) => continue,
                None if !seen.insert(key.into()) => continue,
                None => flag(p.is_goal(Which::Successor(i))?),
            };
        }
    }
    Ok(Expanded { succ, goals: tested, work: p.work() - before })
}

/// Where the levels of a search are expanded besides here.
pub enum Parallel<'a, E> {
    Threads(&'a mut Pool<E>),
    /// The processes of `ds --processes`, and what this one searches (a fingerprint).
    Processes(&'a mut dyn super::processes::Cluster, Vec<u8>),
}

/// `bfs::by_levels` on several threads or processes; `commit` gets each state's successors
/// with their goal tests (made when `goals`).
pub(super) fn by_levels<P: Threaded, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    on: Parallel<'_, P::Error>,
    goals: bool,
    commit: impl Commit<P, T>,
    saver: Option<&mut LevelSaver<'_, '_, P::Error>>,
) -> Step<Option<T>, P::Error> {
    match on {
        Parallel::Threads(pool) => on_threads(p, store, counts, pool, goals, commit, saver),
        // (a search across processes keeps no checkpoints: `Search.bfs` refuses them there)
        Parallel::Processes(cluster, fingerprint) => {
            super::processes::by_levels(p, store, counts, cluster, &fingerprint, goals, commit)
        }
    }
}

/// The start stored, then each level expanded by every thread ready and committed here in
/// order.
fn on_threads<P: Threaded, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    pool: &mut Pool<P::Error>,
    goals: bool,
    mut commit: impl Commit<P, T>,
    saver: Option<&mut LevelSaver<'_, '_, P::Error>>,
) -> Step<Option<T>, P::Error> {
    let mut succ = Successors::default();
    store_start(p, store, &mut succ)?;
    *pool.shared.store.write().unwrap_or_else(|e| e.into_inner()) = std::mem::take(store);
    let result = levels(p, counts, pool, goals, &mut commit, saver);
    phases::report("thread 0");
    *store = std::mem::take(&mut *pool.shared.store.write().unwrap_or_else(|e| e.into_inner()));
    pool.finish();
    result
}

/// The levels from the start, or from where a checkpoint left the search (`saver`), which is
/// written at the start of a level when due and, when a limit stops the search, as it stood at
/// the start of the level under way.
fn levels<P: Threaded, T>(
    p: &mut P,
    counts: &mut Counts,
    pool: &mut Pool<P::Error>,
    goals: bool,
    commit: &mut impl Commit<P, T>,
    mut saver: Option<&mut LevelSaver<'_, '_, P::Error>>,
) -> Step<Option<T>, P::Error> {
    let mut at = saver.as_ref().and_then(|s| s.resume()).unwrap_or(Position::START);
    let mut previous = None;
    while at.id < at.next {
        pool.poll();
        if let Some(why) = pool.failed.take() {
            return Err(Halt::Error(p.parallel_error(format!("a search on several threads failed: {why}"))));
        }
        let clean = saver.as_ref().map(|s| s.clean(at, &pool.shared.read(), counts));
        if let (Some(saver), Some(clean)) = (saver.as_deref_mut(), &clean) {
            if saver.due() {
                saver.save(&pool.shared.read(), clean)?;
            }
        }
        let (found, work) = match level_of(p, counts, pool, goals, commit, at, previous.take()) {
            Err(Halt::Limit(reason)) => {
                if let (Some(saver), Some(clean)) = (saver, &clean) {
                    saver.save(&pool.shared.read(), clean)?;
                }
                return Err(Halt::Limit(reason));
            }
            level => level?,
        };
        if let Some(t) = found {
            return Ok(Some(t));
        }
        let next = pool.shared.read().len() as StateId;
        at = Position { id: at.next, level: at.next, next, depth: at.depth + 1 };
        previous = Some(work);
    }
    Ok(None)
}

/// Expands the states `at.id..at.next` on every thread and commits them here.
#[allow(clippy::type_complexity)]
fn level_of<P: Threaded, T>(
    p: &mut P,
    counts: &mut Counts,
    pool: &mut Pool<P::Error>,
    goals: bool,
    commit: &mut impl Commit<P, T>,
    at: Position,
    previous: Option<Arc<Level<P::Error>>>,
) -> Step<(Option<T>, Arc<Level<P::Error>>), P::Error> {
    let (from, next) = (at.id as usize, at.next as usize);
    let work = Arc::new(Level::new(from, next, pool.threads(), goals, p.work_left()));
    let before = p.work();
    expand_shared(p, pool, &work, previous)?;
    // every expansion's work is counted at its commit, this thread's too (once)
    p.set_work(before);
    phases::enter(Phase::Commit);
    let mut store = pool.shared.store.write().unwrap_or_else(|e| e.into_inner());
    let check = |p: &mut P, counts: &Counts, store: &StateStore| p.check(counts, store);
    let found = commit_level(p, &mut store, counts, &work, at.depth, commit, check)?;
    drop(store);
    Ok((found, work))
}

/// Commits an expanded level in id order (each state's successors in the order `Next` gave
/// them): `check` is asked before each state and after its work is counted.
pub(super) fn commit_level<P: Threaded, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    level: &Level<P::Error>,
    depth: u32,
    commit: &mut impl Commit<P, T>,
    check: impl Fn(&mut P, &Counts, &StateStore) -> Step<(), P::Error>,
) -> Step<Option<T>, P::Error> {
    let next = level.to;
    let mut id = level.from;
    for slot in &level.results {
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        let Some(chunk) = slot.as_mut() else {
            return Err(Halt::Error(
                p.parallel_error("a search in parallel failed: a part of a level was not expanded".into()),
            ));
        };
        for k in 0..chunk.done.len() {
            counts.frontier(next - id + (store.len() - next));
            check(p, counts, store)?;
            let e = match &chunk.done[k] {
                Ok(e) => e,
                Err(_) => return Err(chunk.done.swap_remove(k).err().expect("an error")),
            };
            p.add_work(e.work);
            check(p, counts, store)?;
            counts.expanded += 1;
            counts.generated += e.succ.len() as u64;
            if let Some(t) = commit(p, store, counts, id as StateId, depth, &e.succ, GoalOf::Tested(&e.goals))? {
                return Ok(Some(t));
            }
            id += 1;
        }
    }
    Ok(None)
}

/// Expands a level on every ready thread, this one included; chunks a worker left undone (it
/// stopped) are expanded here. A limit of the run met meanwhile stops every thread.
fn expand_shared<P: Threaded>(
    p: &mut P,
    pool: &mut Pool<P::Error>,
    level: &Arc<Level<P::Error>>,
    previous: Option<Arc<Level<P::Error>>>,
) -> Step<(), P::Error> {
    let mut waiting = 0;
    for w in pool.workers.iter().filter(|w| w.ready) {
        if w.jobs.send(Job::Level(level.clone(), previous.clone())).is_ok() {
            waiting += 1;
        }
    }
    p.serving(true);
    phases::enter(Phase::Expand);
    if let Some(previous) = &previous {
        previous.free(0);
    }
    let store = pool.shared.read();
    let limit = expand_level(p, &store, level, 0, taking(level));
    drop(store);
    p.serving(false);
    phases::enter(Phase::Wait);
    // A limit met here (Ctrl-C, --timeout) stops the others at once.
    let mut stopped = limit.map(Halt::Limit);
    if stopped.is_some() {
        pool.stop_all();
    }
    while waiting > 0 {
        match pool.reports.recv_timeout(Duration::from_millis(20)) {
            Ok(r) => pool.take(r, &mut waiting),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => break,
        }
        if stopped.is_none() {
            if let Err(halt) = p.limit() {
                stopped = Some(halt);
                pool.stop_all();
            }
        }
    }
    // what a worker that is not serving expanded
    drop(previous);
    if let Some(halt) = stopped {
        return Err(halt);
    }
    // chunks taken by a worker that stopped before finishing them
    phases::enter(Phase::Expand);
    let store = pool.shared.read();
    expand_undone(p, &store, level, 0);
    Ok(())
}

/// Expands here the chunks of `level` (up to the first that failed) that no one expanded.
pub(super) fn expand_undone<P: Threaded>(p: &mut P, store: &StateStore, level: &Level<P::Error>, me: usize) {
    let mut scratch = Successors::default();
    for (c, slot) in level.results.iter().enumerate() {
        if c > level.first_failure.load(Ordering::Relaxed) {
            break;
        }
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            let mut seen = FxHashSet::default();
            p.serving(true);
            let done = level
                .ids(c)
                .map(|id| expand_one(p, store, id as StateId, level.goals, &mut seen, &mut scratch))
                .collect();
            p.serving(false);
            *slot = Some(Chunk { by: me, done });
        }
    }
}

//! Breadth-first levels expanded on several processes (`ds --processes N`, issue 17), over
//! the rounds of a `Cluster`, which a native host lends (`ds_native::cluster`, over timely).
//!
//! Every process runs the same script (SPMD, as the threads of `parallel.rs` do) and holds the
//! whole store. A level is cut into the chunks of `parallel::Level`; process `q` expands the
//! chunks `q, q + N, ...` of it, and in one round every process sends every other its packed
//! successors. Then each process commits the whole level, in id order, exactly as one thread
//! does: the stores stay the same everywhere (whatever `Next` does), the ids, goal, counts and
//! transitions are those of one thread, and after the search every process has its result and
//! runs on to the next search in step with the others. Process 0 prints; the others' output
//! is dropped.
//!
//! The limits stay in step too: a process that meets Ctrl-C, `--timeout` or `--max-memory`
//! before or while expanding says so in its round, and every process stops there with that
//! reason; the step limit is checked at each commit, where every process counts the same
//! steps (each expansion's, once, whichever process made it). A chunk whose expansion failed
//! (a script error) is expanded again by every process, so that each stops with the error.
//! A limit met while waiting for the others leaves the processes out of step: this process
//! stops the search at once, and its later searches run on their own.

use super::bfs::Commit;
use super::parallel::{commit_level, expand_level, expand_undone, Chunk, Expanded, Goals, Level, Outcome, Threaded};
use super::phases::{self, Phase};
use super::problem::{Halt, Step, Successors};
use super::store::{StateStore, NONE};
use super::wire::{put_u64, Reader};
use super::{store_start, Counts, Reason};
use std::sync::atomic::Ordering;

/// This process's part of the processes of `ds --processes`: rounds in which every process
/// sends every other a message.
pub trait Cluster {
    /// This process's number (from 0).
    fn me(&self) -> usize;
    /// How many processes there are.
    fn peers(&self) -> usize;
    /// Why no more rounds can be made (a process was lost), if so.
    fn broken(&self) -> Option<&str>;
    /// One round: sends `mine` to every process and returns what each sent, by process. While
    /// waiting, `stop` is asked (about every 20 ms) whether to give up, and with what message
    /// for the next round: that is sent at once, so that the others, which finish this round
    /// without this process, find it in the next and stay in step. A process that is gone ends
    /// the round with `Lost`, and the cluster is broken from then on.
    fn exchange(&mut self, mine: &[u8], stop: &mut dyn FnMut() -> Option<Vec<u8>>) -> Result<Vec<Vec<u8>>, Stopped>;
    /// Ends this process's part: a last round in which every process takes part when its run
    /// ends, unless `stop` says or a process is gone; then the connections are closed.
    fn finish(self: Box<Self>, stop: &dyn Fn() -> bool);
}

/// Why a round did not end.
#[derive(Debug)]
pub enum Stopped {
    /// A process is gone (or the connection failed): the message says which.
    Lost(String),
    /// `stop` said so (a limit of this process's run).
    ByStop,
}

/// The reasons a process may stop every process with, by their code in a round (0: none).
const REASONS: [Reason; 4] = [Reason::Interrupted, Reason::Timeout, Reason::MaxSteps, Reason::MaxMemory];

/// `bfs::by_levels` on the processes of `cluster`; `fingerprint` is what this process
/// searches (a process that searches something else went astray).
pub(super) fn by_levels<P: Threaded, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    cluster: &mut dyn Cluster,
    fingerprint: &[u8],
    goals: bool,
    commit: impl Commit<P, T>,
) -> Step<Option<T>, P::Error> {
    let result = levels(p, store, counts, cluster, fingerprint, goals, commit);
    phases::report(&format!("process {}", cluster.me()));
    result
}

fn levels<P: Threaded, T>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    cluster: &mut dyn Cluster,
    fingerprint: &[u8],
    goals: bool,
    mut commit: impl Commit<P, T>,
) -> Step<Option<T>, P::Error> {
    let mut succ = Successors::default();
    store_start(p, store, &mut succ)?;
    let hello = round(p, cluster, fingerprint)?;
    if let Some(q) = hello.iter().position(|f| f != fingerprint) {
        let why = format!(
            "process {q} reached a different search: the script must run the same way in every process up to the search"
        );
        return Err(failed(p, why));
    }
    let (mut level, mut next) = (0usize, 1usize);
    let mut depth = 0u32;
    while level < next {
        let work = Level::new(level, next, cluster.peers(), goals, p.work_left());
        let before = p.work();
        let mine = expand_mine(p, store, &work, cluster.me(), cluster.peers())?;
        phases::enter(Phase::Wait);
        let all = round(p, cluster, &mine)?;
        phases::enter(Phase::Code);
        if let Some(reason) =
            all.iter().find_map(|m| m.first().and_then(|&c| REASONS.get((c as usize).wrapping_sub(1))))
        {
            return Err(Halt::Limit(*reason));
        }
        for (q, message) in all.iter().enumerate().filter(|&(q, _)| q != cluster.me()) {
            if take_chunks(&work, message, cluster.me()).is_none() {
                return Err(failed(p, format!("process {q} sent a message that is not a level")));
            }
        }
        // failed chunks again here, then every expansion counted once, at its commit
        phases::enter(Phase::Expand);
        expand_undone(p, store, &work, cluster.me());
        p.set_work(before);
        phases::enter(Phase::Commit);
        let me = cluster.me();
        let check = move |p: &mut P, counts: &Counts, store: &StateStore| {
            if me == 0 {
                p.progress(counts, store);
            }
            p.work_limit()
        };
        if let Some(t) = commit_level(p, store, counts, &work, depth, &mut commit, check)? {
            return Ok(Some(t));
        }
        level = next;
        next = store.len();
        depth += 1;
    }
    Ok(None)
}

/// This process's chunks of the level, expanded (unless a limit of its run is reached
/// already), as its message of the round: the limit's code, then each chunk.
fn expand_mine<P: Threaded>(
    p: &mut P,
    store: &StateStore,
    work: &Level<P::Error>,
    me: usize,
    peers: usize,
) -> Step<Vec<u8>, P::Error> {
    let mut limit = match p.limit() {
        Ok(()) => None,
        Err(Halt::Limit(reason)) => Some(reason),
        Err(halt) => return Err(halt),
    };
    if limit.is_none() {
        let mut k = 0;
        phases::enter(Phase::Expand);
        p.serving(true);
        limit = expand_level(p, store, work, me, || {
            k += 1;
            me + (k - 1) * peers
        });
        p.serving(false);
    }
    phases::enter(Phase::Code);
    let mut out = vec![code(limit)];
    for c in (me..work.results.len()).step_by(peers) {
        let slot = work.results[c].lock().unwrap_or_else(|e| e.into_inner());
        let Some(chunk) = slot.as_ref() else { continue };
        put_u64(&mut out, c as u64);
        let expanded: Option<Vec<&Expanded>> = chunk.done.iter().map(|o| o.as_ref().ok()).collect();
        match expanded {
            Some(expanded) => {
                out.push(1);
                put_u64(&mut out, expanded.len() as u64);
                for e in expanded {
                    encode(e, &mut out);
                }
            }
            // expanded again by every process, to stop with the same error
            None => out.push(0),
        }
    }
    Ok(out)
}

/// A limit's code in a round: 0 for none (or one no other process knows).
fn code(limit: Option<Reason>) -> u8 {
    limit.and_then(|r| REASONS.iter().position(|&x| x == r)).map_or(0, |i| i as u8 + 1)
}

fn encode(e: &Expanded, out: &mut Vec<u8>) {
    put_u64(out, e.work);
    out.push(e.goals.current);
    put_u64(out, e.goals.successors.len() as u64);
    out.extend_from_slice(&e.goals.successors);
    // the same ids in every process: each holds the same store
    put_u64(out, e.goals.stored.len() as u64);
    for id in &e.goals.stored {
        out.extend_from_slice(&id.to_le_bytes());
    }
    e.succ.encode(out);
}

/// The chunks another process expanded, into `work`; None when the message is garbled.
fn take_chunks<E>(work: &Level<E>, message: &[u8], me: usize) -> Option<()> {
    let mut r = Reader(message.get(1..)?);
    let stored_before = work.to;
    while !r.0.is_empty() {
        let c = r.len()?;
        let slot = work.results.get(c)?;
        if r.u8()? == 0 {
            work.first_failure.fetch_min(c, Ordering::Relaxed);
            continue;
        }
        let n = r.len()?;
        if n != work.ids(c).len() {
            return None;
        }
        let mut chunk: Vec<Outcome<E>> = Vec::with_capacity(n);
        for _ in 0..n {
            let work = r.u64()?;
            let current = r.u8()?;
            let flags = r.len()?;
            let successors = r.bytes(flags)?.to_vec();
            let known = r.len()?;
            // ids stored before the level
            let stored: Vec<u32> = (0..known)
                .map(|_| r.u32().filter(|&id| id == NONE || (id as usize) < stored_before))
                .collect::<Option<_>>()?;
            let (succ, rest) = Successors::decode(r.0)?;
            r.0 = rest;
            if (flags != 0 && flags != succ.len()) || known != succ.len() {
                return None;
            }
            chunk.push(Ok(Expanded { succ, goals: Goals { current, successors, stored }, work }));
        }
        *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Chunk { by: me, done: chunk });
    }
    Some(())
}

/// One round of the cluster. A limit of this run met while waiting stops this process at
/// once, and the others in the next round, which says so.
fn round<P: Threaded>(p: &mut P, cluster: &mut dyn Cluster, mine: &[u8]) -> Step<Vec<Vec<u8>>, P::Error> {
    let mut stopped_by = None;
    let mut stop = || {
        let halt = p.limit().err()?;
        let reason = match &halt {
            Halt::Limit(reason) => Some(*reason),
            Halt::Error(_) => None,
        };
        stopped_by = Some(halt);
        Some(vec![code(reason)])
    };
    let result = cluster.exchange(mine, &mut stop);
    match (result, stopped_by) {
        (Ok(all), _) => Ok(all),
        (Err(Stopped::ByStop), Some(halt)) => Err(halt),
        (Err(Stopped::ByStop), None) => Err(failed(p, "a round stopped for no reason".into())),
        (Err(Stopped::Lost(why)), _) => Err(failed(p, why)),
    }
}

fn failed<P: Threaded>(p: &mut P, why: String) -> Halt<P::Error> {
    Halt::Error(p.parallel_error(format!("a search on several processes failed: {why}")))
}

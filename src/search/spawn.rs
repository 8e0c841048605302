//! Worker threads of a search on several threads (docs/search.md, "On several threads"): each
//! runs the script again, quietly, up to the search it serves (`workers` says how the threads
//! share a search). Only a native host starts threads: the core alone (the playground's
//! WebAssembly) knows nothing of them and searches on one.

use super::parallel::{Pool, Report, WorkerEnd};
use super::script::ScriptProblem;
use super::workers::{fingerprint, Quiet};
use crate::eval::{Flow, Limits};
use std::path::PathBuf;
use std::sync::mpsc::Sender;

/// How a worker runs the script again: what the command line gave the first thread.
pub struct Replay {
    pub name: String,
    pub src: String,
    pub args: Vec<String>,
    pub script_dir: Option<PathBuf>,
    pub limits: Limits,
    pub deny_warnings: bool,
    pub files: Box<dyn crate::files::Files>,
}

/// Starts the workers of a search on `threads` threads, each running the script again up to
/// this search. The first levels are expanded here while they get there.
pub fn start(p: &mut ScriptProblem<'_>, threads: usize) -> Pool<Flow> {
    let (pool, ends) = Pool::new(threads, fingerprint(p));
    let Some(replay) = p.it.threads.replay.clone() else { return pool };
    let target = p.it.threads.calls;
    let size = crate::guard::stack::interpreter_size().max(16 << 20);
    for end in ends {
        let replay = replay.clone();
        let spawned = std::thread::Builder::new().name(format!("ds thread {}", end.thread + 1)).stack_size(size).spawn(
            move || {
                crate::guard::stack::mark(size);
                work(&replay, target, end)
            },
        );
        // A thread that cannot start leaves its share to the others: the answer is the same.
        drop(spawned);
    }
    pool
}

/// Tells the first thread that a worker is gone, when it leaves without having served (its
/// script ended, failed, or it panicked).
struct Leaving {
    reports: Sender<Report>,
    thread: usize,
    why: Option<(String, bool)>,
    served: bool,
}

impl Drop for Leaving {
    fn drop(&mut self) {
        if self.served {
            return;
        }
        let (why, limit) = self.why.take().unwrap_or_else(|| ("it failed".into(), false));
        let _ = self.reports.send(Report::Gone { thread: self.thread, why, limit });
    }
}

/// A worker thread: the script run again, quietly, up to search number `target`.
fn work(replay: &Replay, target: u64, end: WorkerEnd<Flow>) {
    use crate::session::{Outcome, Session};
    let mut leaving = Leaving { reports: end.reports.clone(), thread: end.thread, why: None, served: false };
    let mut session = Session::new(Box::new(std::io::sink()));
    let it = &mut session.interp;
    it.set_files(replay.files.boxed_clone());
    it.warnings.sink = Box::new(std::io::sink());
    it.warnings.deny = replay.deny_warnings;
    *it.limits_mut() = replay.limits.clone();
    it.args = replay.args.clone();
    it.script_dir = replay.script_dir.clone();
    it.interrupt = end.stop.clone();
    it.threads.quiet = Quiet::Discard;
    it.threads.worker = Some((target, end));
    let outcome = session.run_source(&replay.name, &replay.src);
    leaving.served = session.interp.threads.worker.is_none();
    leaving.why = Some(match outcome {
        Outcome::RuntimeError(d) => (d.message.clone(), d.limit.is_some()),
        Outcome::CompileErrors(_) => ("the script did not compile".into(), false),
        Outcome::Finished(_) | Outcome::Exited(_) => {
            ("the script ended before this search: it must run the same way on every thread".into(), false)
        }
    });
}

//! Worker threads of a search on several threads (docs/search.md, "On several threads"): each
//! runs the script again, quietly, up to the search it serves (`ds_core::search::workers` says
//! how the threads share a search). Only a native host starts threads: the core alone (the
//! playground's WebAssembly) knows nothing of them and searches on one.

use ds_core::eval::{Flow, Limits, Quiet};
use ds_core::search::parallel::{Report, WorkerEnd};
use ds_core::search::workers::{self, Workers};
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
    pub files: Box<dyn ds_core::files::Files>,
}

impl Clone for Replay {
    fn clone(&self) -> Replay {
        Replay {
            name: self.name.clone(),
            src: self.src.clone(),
            args: self.args.clone(),
            script_dir: self.script_dir.clone(),
            limits: self.limits.clone(),
            deny_warnings: self.deny_warnings,
            files: self.files.boxed_clone(),
        }
    }
}

impl Workers for Replay {
    fn start(&self, target: u64, ends: Vec<WorkerEnd<Flow>>) {
        let size = ds_base::guard::stack::interpreter_size().max(16 << 20);
        for end in ends {
            let replay = self.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("ds thread {}", end.thread + 1))
                .stack_size(size)
                .spawn(move || {
                    ds_base::guard::stack::mark(size);
                    work(&replay, target, end)
                });
            // A thread that cannot start leaves its share to the others: the answer is the same.
            drop(spawned);
        }
    }
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
    use ds_core::session::{Outcome, Session};
    let mut leaving = Leaving { reports: end.reports.clone(), thread: end.thread, why: None, served: false };
    let mut session = Session::new(Box::new(std::io::sink()));
    crate::lend(&mut session.interp);
    let it = &mut session.interp;
    it.set_files(replay.files.boxed_clone());
    it.warnings.sink = Box::new(std::io::sink());
    it.warnings.deny = replay.deny_warnings;
    *it.limits_mut() = replay.limits.clone();
    it.args = replay.args.clone();
    it.script_dir = replay.script_dir.clone();
    it.interrupt = end.stop.clone();
    it.quiet = Quiet::Discard;
    workers::of(it).worker = Some((target, end));
    let outcome = session.run_source(&replay.name, &replay.src);
    leaving.served = workers::of(&mut session.interp).worker.is_none();
    leaving.why = Some(match outcome {
        Outcome::RuntimeError(d) => (d.message.clone(), d.limit.is_some()),
        Outcome::CompileErrors(_) => ("the script did not compile".into(), false),
        Outcome::Finished(_) | Outcome::Exited(_) => {
            ("the script ended before this search: it must run the same way on every thread".into(), false)
        }
    });
}

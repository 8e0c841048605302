//! Ctrl-C: while an entry runs, SIGINT sets the interpreter's interrupt flag, which it checks
//! every 1024 steps and turns into an "interrupted" error, so the session goes on.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What SIGINT does when nothing is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenIdle {
    /// At a terminal: nothing (at the prompt rustyline reads Ctrl-C as a key instead).
    Ignore,
    /// Reading piped input: end the process, as SIGINT normally would.
    Exit,
}

pub struct Interrupter {
    busy: Arc<AtomicBool>,
}

impl Interrupter {
    /// Installs the process's SIGINT handler; `flag` is the interpreter's interrupt flag.
    /// If a handler cannot be installed, Ctrl-C keeps its default effect and a note says so.
    pub fn install(flag: Arc<AtomicBool>, when_idle: WhenIdle) -> Interrupter {
        let busy = Arc::new(AtomicBool::new(false));
        let running = busy.clone();
        let installed = ctrlc::set_handler(move || {
            if running.load(Ordering::SeqCst) {
                flag.store(true, Ordering::SeqCst);
            } else if when_idle == WhenIdle::Exit {
                std::process::exit(130);
            }
        });
        if let Err(e) = installed {
            crate::eprintln_safe!("note: Ctrl-C will not interrupt evaluations ({e})");
        }
        Interrupter { busy }
    }

    /// Runs `f` (an evaluation) with Ctrl-C stopping it rather than the process.
    pub fn busy<T>(&self, f: impl FnOnce() -> T) -> T {
        self.busy.store(true, Ordering::SeqCst);
        let result = f();
        self.busy.store(false, Ordering::SeqCst);
        result
    }
}

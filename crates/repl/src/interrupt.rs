//! Ctrl-C in the REPL: while an entry runs, SIGINT sets the interpreter's interrupt flag, which
//! it checks every 1024 steps and turns into an "interrupted" error, so the session goes on
//! (`host::signals` has the handlers; SIGTERM and SIGHUP stop the entry too, then the REPL).

use ds_native::host::signals;
pub use ds_native::host::signals::WhenIdle;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub struct Interrupter {
    _private: (),
}

impl Interrupter {
    /// Installs the process's signal handlers; `flag` is the interpreter's interrupt flag.
    /// If they cannot be installed, Ctrl-C keeps its default effect and a note says so.
    pub fn install(flag: Arc<AtomicBool>, when_idle: WhenIdle) -> Interrupter {
        if !signals::install(flag, when_idle) {
            ds_base::eprintln_safe!("note: Ctrl-C will not interrupt evaluations");
        }
        Interrupter { _private: () }
    }

    /// Runs `f` (an evaluation) with Ctrl-C stopping it rather than the process.
    pub fn busy<T>(&self, f: impl FnOnce() -> T) -> T {
        signals::clear();
        signals::set_busy(true);
        let result = f();
        signals::set_busy(false);
        result
    }

    /// The signal that stopped the last evaluation, if it was SIGTERM or SIGHUP (which end
    /// the session as well).
    pub fn ending_signal(&self) -> Option<i32> {
        signals::received().filter(|&s| s != libc::SIGINT)
    }
}

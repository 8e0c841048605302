//! What a host lends the core, which alone runs on one thread over no operating system (the
//! playground's WebAssembly): threads (`Spawn`), the live line of a long search (`StatusLine`)
//! and the CPU clock of a thread. The native hosts implement these (crates/native); where none
//! is lent, the core does without: a long pattern match runs on the interpreter's thread, a
//! search shows no line, and the phases of a parallel search count no CPU time.

use std::io;
use std::sync::OnceLock;

/// Starts threads: a native host's (`ds_native::StdThreads`).
pub trait Spawn {
    /// Runs `job` on a new thread named `name`, with a stack of `stack` bytes (0: the host's
    /// default).
    fn spawn(&self, name: String, stack: usize, job: Box<dyn FnOnce() + Send>) -> io::Result<()>;
}

/// Where a host shows the state of a search.
pub trait StatusLine {
    /// Shows the line (replacing the one before).
    fn show(&mut self, text: String);
    /// Clears the line: the search has ended.
    fn clear(&mut self);
}

/// Makes the status line of a search, if the host shows one (`Interp::status_line`).
pub type StatusLineMaker = fn() -> Option<Box<dyn StatusLine>>;

/// The CPU time of the calling thread in seconds, if a host tells it (`set_thread_clock`).
static THREAD_CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

/// Sets how the CPU time of the calling thread is read (once per process; later calls are
/// ignored).
pub fn set_thread_clock(clock: fn() -> f64) {
    let _ = THREAD_CLOCK.set(clock);
}

/// The CPU time of the calling thread, in seconds (0 where no host tells it).
pub fn thread_cpu() -> f64 {
    THREAD_CLOCK.get().map_or(0.0, |clock| clock())
}

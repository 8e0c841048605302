//! What an operating system adds under the ds core, which alone runs on one thread over no
//! operating system: the disk as the script's files (with the `--sandbox` rules, `sandbox`),
//! threads for long pattern matches and for searches on several threads (`workers`), the
//! processes of `ds --processes` (`cluster`, over timely), and what the command line needs
//! (`host`: the interpreter thread's big stack, signals, standard output, the watchdog of
//! `--timeout`, the terminal's progress line).
//!
//! Each reaches the core through a trait the core defines: `lend` gives an interpreter the
//! first two; the command line sets the rest up.

pub mod cluster;
pub mod host;
pub mod sandbox;
pub mod workers;

use ds_core::eval::Interp;
use std::sync::Arc;

pub use host::run_on_big_stack;

/// The operating system's threads (`ds_core::hooks::Spawn`).
pub struct StdThreads;

impl ds_core::hooks::Spawn for StdThreads {
    fn spawn(&self, name: String, stack: usize, job: Box<dyn FnOnce() + Send>) -> std::io::Result<()> {
        let builder = std::thread::Builder::new().name(name);
        let builder = if stack > 0 { builder.stack_size(stack) } else { builder };
        builder.spawn(job).map(drop)
    }
}

/// Lends `it` what a native host has: the disk with no limits as its files, and threads.
pub fn lend(it: &mut Interp) {
    it.set_files(Box::new(sandbox::Access::Open));
    it.spawn = Some(Arc::new(StdThreads));
    ds_core::hooks::set_thread_clock(thread_cpu);
}

/// The CPU time of the calling thread, in seconds.
fn thread_cpu() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec it is given and nothing else.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

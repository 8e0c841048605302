//! Which signal interrupted the last run, so that its error can name it. The host's signal
//! handler records it (`host::signals`); the interpreter's own interrupt flag is
//! `Interp::interrupt`.

use std::sync::atomic::{AtomicI32, Ordering};

/// The last signal that asked a run to stop (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// The POSIX numbers of the signals a host turns into interrupts.
pub const SIGHUP: i32 = 1;
pub const SIGINT: i32 = 2;
pub const SIGTERM: i32 = 15;

/// Records the signal that interrupted a run (async-signal-safe: one atomic store).
pub fn record(sig: i32) {
    RECEIVED.store(sig, Ordering::SeqCst);
}

/// The signal that interrupted the last run, if any.
pub fn received() -> Option<i32> {
    Some(RECEIVED.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Forgets the signal of an earlier run (the REPL goes on after one).
pub fn clear() {
    RECEIVED.store(0, Ordering::SeqCst);
}

/// The name of a signal a host turns into an interrupt.
pub fn name(sig: i32) -> &'static str {
    match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

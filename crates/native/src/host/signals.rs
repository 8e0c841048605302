//! SIGINT, SIGTERM and SIGHUP. While a script runs, each sets the interpreter's interrupt flag,
//! which it checks every 1024 steps (and every `Meter` checks), so the run stops like at
//! `--timeout`: an "interrupted" error, the output flushed, exit status 128 + the signal. A
//! second signal before the first was taken ends the process at once, as the signal would.
//! When nothing runs (the REPL waiting for input) SIGTERM and SIGHUP end the process, and
//! SIGINT does what `WhenIdle` says.

use ds_base::guard::interrupt;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::Arc;

/// The record of which signal interrupted a run is the core's, so that its errors can name it.
pub use interrupt::{clear, name, received};

/// What SIGINT does when nothing is running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhenIdle {
    /// At a terminal: nothing (at the prompt rustyline reads Ctrl-C as a key instead).
    Ignore,
    /// Reading piped input: end the process, as SIGINT normally would.
    Exit,
}

/// The interpreter's interrupt flag (kept alive by `install` for the rest of the process).
static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());
static BUSY: AtomicBool = AtomicBool::new(false);
static IDLE_EXIT: AtomicBool = AtomicBool::new(false);
/// Written to standard error when a signal ends the process while nothing runs.
static IDLE_MESSAGE: AtomicPtr<&'static str> = AtomicPtr::new(std::ptr::null_mut());

const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

extern "C" fn on_signal(sig: libc::c_int) {
    // Only atomics and async-signal-safe calls here.
    let busy = BUSY.load(Ordering::SeqCst);
    if !busy {
        if sig != libc::SIGINT || IDLE_EXIT.load(Ordering::SeqCst) {
            let message = IDLE_MESSAGE.load(Ordering::SeqCst);
            // SAFETY: `write` and `_exit` are async-signal-safe; the message is a leaked
            // `&'static str`; nothing is running that output waits for.
            unsafe {
                if let Some(text) = message.as_ref() {
                    libc::write(2, text.as_ptr().cast(), text.len());
                }
                libc::_exit(128 + sig)
            };
        }
        return;
    }
    interrupt::record(sig);
    let flag = FLAG.load(Ordering::SeqCst);
    // SAFETY: the flag is an `Arc` leaked by `install`, never freed.
    let already = !flag.is_null() && unsafe { (*flag).swap(true, Ordering::SeqCst) };
    if flag.is_null() || already {
        // SAFETY: both calls are async-signal-safe; the default action ends the process.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }
}

/// Installs the handlers; `flag` is the interpreter's interrupt flag. Returns false when they
/// could not be installed (the signals then keep their default effect).
pub fn install(flag: Arc<AtomicBool>, when_idle: WhenIdle) -> bool {
    let ptr = Arc::into_raw(flag) as *mut AtomicBool;
    let old = FLAG.swap(ptr, Ordering::SeqCst);
    if !old.is_null() {
        // SAFETY: `old` came from `Arc::into_raw` in an earlier call.
        drop(unsafe { Arc::from_raw(old) });
    }
    IDLE_EXIT.store(when_idle == WhenIdle::Exit, Ordering::SeqCst);
    SIGNALS.iter().all(|&sig| {
        // SAFETY: a plain sigaction with a handler that only touches atomics.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut()) == 0
        }
    })
}

/// What to say on standard error when a signal ends the process while nothing runs.
pub fn set_idle_message(message: &'static str) {
    IDLE_MESSAGE.store(Box::into_raw(Box::new(message)), Ordering::SeqCst);
}

/// Marks whether a script (or REPL entry) is running, which signals then interrupt.
pub fn set_busy(busy: bool) {
    BUSY.store(busy, Ordering::SeqCst);
}

//! A thread that makes sure `--timeout` and SIGINT/SIGTERM/SIGHUP end a run even when the
//! interpreter cannot notice them: it checks its limits between steps and inside every long
//! built-in, but a read from a pipe that never ends, or a bug, could keep it from checking.
//! If the run is still going `GRACE` after the deadline or after a signal, the watchdog flushes
//! the output (unless a write is blocked), says why on standard error and ends the process.

use super::output::Stdout;
use super::signals;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long the interpreter has to stop on its own.
pub const GRACE: Duration = Duration::from_secs(5);
const TICK: Duration = Duration::from_millis(50);

/// Watches a run with this deadline and interrupt flag, until the process ends.
pub fn start(out: Stdout, deadline: Option<Instant>, interrupt: Arc<AtomicBool>) {
    let watch = move || {
        let mut signalled_at: Option<Instant> = None;
        loop {
            std::thread::sleep(TICK);
            let now = Instant::now();
            if deadline.is_some_and(|d| now > d + GRACE) {
                end(&out, "time limit reached (--timeout), and the script did not stop by itself", 1);
            }
            match (interrupt.load(Ordering::SeqCst), signalled_at) {
                (false, _) => signalled_at = None,
                (true, None) => signalled_at = Some(now),
                (true, Some(at)) if now - at > GRACE => {
                    let sig = signals::received().unwrap_or(libc::SIGINT);
                    let why = format!("interrupted ({}), and the script did not stop by itself", signals::name(sig));
                    end(&out, &why, 128 + sig);
                }
                (true, Some(_)) => {}
            }
        }
    };
    // Without the watchdog the limits still hold whenever the interpreter checks them.
    let _ = std::thread::Builder::new().name("ds-watchdog".into()).stack_size(256 << 10).spawn(watch);
}

fn end(out: &Stdout, why: &str, status: i32) -> ! {
    out.flush_within(Duration::from_secs(1));
    ds_base::eprintln_safe!("error: {why}");
    // SAFETY: ends the process at once; the interpreter thread may be stuck, so nothing waits.
    unsafe { libc::_exit(status) }
}

//! Standard output as scripts write it: line by line on a terminal (a user watching a long
//! search sees each line as it is printed), in 64 KB blocks otherwise. It is shared with the
//! watchdog, which flushes it before it ends a run that would not stop. A closed standard
//! output (`ds x >&-`) is an error on the first write, not output silently dropped.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

#[derive(Clone)]
pub struct Stdout(Arc<Mutex<Box<dyn Write + Send>>>);

impl Stdout {
    pub fn new() -> Stdout {
        let out = io::stdout();
        let w: Box<dyn Write + Send> = if CLOSED_AT_START.load(Ordering::Relaxed) || !is_open(1) {
            Box::new(Closed)
        } else if out.is_terminal() {
            // `io::Stdout` itself writes out each line.
            Box::new(out)
        } else {
            Box::new(BufWriter::with_capacity(1 << 16, out))
        };
        Stdout(Arc::new(Mutex::new(w)))
    }

    fn lock(&self) -> MutexGuard<'_, Box<dyn Write + Send>> {
        self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Flushes now if no write is under way (for a process about to end abruptly).
    pub fn try_flush(&self) -> bool {
        match self.0.try_lock() {
            Ok(mut w) => w.flush().is_ok(),
            Err(_) => false,
        }
    }

    /// Flushes unless the writer stays busy for `patience` (a write blocked on a full pipe).
    pub fn flush_within(&self, patience: Duration) -> bool {
        let start = Instant::now();
        loop {
            if let Ok(mut w) = self.0.try_lock() {
                return w.flush().is_ok();
            }
            if start.elapsed() >= patience {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Default for Stdout {
    fn default() -> Self {
        Stdout::new()
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.lock().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.lock().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lock().flush()
    }
}

/// Standard output was closed when the process started. Rust's runtime then opens
/// `/dev/null` in its place before `main`, so output would vanish without an error;
/// `note_closed_stdout` runs before that (see `main.rs`) to remember it.
static CLOSED_AT_START: AtomicBool = AtomicBool::new(false);

/// Called before Rust's runtime starts: remembers whether standard output is closed. It only
/// makes a system call and stores a flag, which is all that is safe so early.
pub extern "C" fn note_closed_stdout() {
    if !is_open(1) {
        CLOSED_AT_START.store(true, Ordering::Relaxed);
    }
}

/// Whether file descriptor `fd` is open.
fn is_open(fd: libc::c_int) -> bool {
    // SAFETY: F_GETFD only reads the descriptor's flags.
    unsafe { libc::fcntl(fd, libc::F_GETFD) != -1 }
}

/// The standard output of a process started with it closed.
struct Closed;

impl Write for Closed {
    fn write(&mut self, _: &[u8]) -> io::Result<usize> {
        Err(io::Error::from_raw_os_error(libc::EBADF))
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

pub use ds_core::eval::print::{broken_pipe, BROKEN_PIPE_STATUS};

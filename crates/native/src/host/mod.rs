//! What ds needs from the operating system, kept in one place: the interpreter thread's stack
//! (as large as the process may have), the heap limit of the address space, signals, standard
//! output, and the watchdog that enforces `--timeout` and signals whatever the interpreter is doing.

pub mod machine;
pub mod output;
pub mod progress;
pub mod signals;
pub mod watchdog;

/// The heap count and the stack floor are the core's (`guard`): the host sets them up.
pub use ds_base::guard::{memory, stack};

/// The stack wanted for the interpreter thread when nothing limits the address space. It is
/// only reserved, not used: the native-stack check (`stack`) and `--max-depth` decide how deep
/// scripts go.
const BIG_STACK: usize = 2 << 30;
/// No smaller stack is tried.
const SMALL_STACK: usize = 16 << 20;

/// The address space the process may have (`ulimit -v`), if it is limited.
pub fn address_space_limit() -> Option<usize> {
    // SAFETY: getrlimit fills the struct it is given.
    let mut lim: libc::rlimit = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } != 0 || lim.rlim_cur == libc::RLIM_INFINITY {
        return None;
    }
    usize::try_from(lim.rlim_cur).ok()
}

/// The stack of the interpreter thread (0 before it starts).
pub fn stack_size() -> usize {
    stack::interpreter_size()
}

/// The stack to ask for: 2 GiB, or a quarter of a limited address space.
pub fn wanted_stack() -> usize {
    match address_space_limit() {
        None => BIG_STACK,
        Some(limit) => (limit / 4).clamp(SMALL_STACK, BIG_STACK),
    }
}

/// Runs `f` on a thread with as large a stack as the process may have (halving the request
/// until a thread starts), with the native-stack check set up for it. `Err` when no thread can
/// be started at all: a failure of the environment (exit status 2).
pub fn try_run_on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> Result<T, String> {
    let mut size = wanted_stack();
    let mut f = Some(f);
    loop {
        let slot = std::sync::Arc::new(std::sync::Mutex::new(f.take()));
        let inner = slot.clone();
        let spawned = std::thread::Builder::new().name("ds".into()).stack_size(size).spawn(move || {
            stack::mark(size);
            stack::set_interpreter_size(size);
            let f = inner.lock().unwrap_or_else(|p| p.into_inner()).take();
            f.map(|f| f())
        });
        match spawned {
            Ok(handle) => {
                return match handle.join() {
                    Ok(Some(v)) => Ok(v),
                    Ok(None) => Err("the interpreter thread lost its work".into()),
                    Err(panic) => std::panic::resume_unwind(panic),
                };
            }
            Err(e) if size / 2 < SMALL_STACK => return Err(format!("cannot start the interpreter thread: {e}")),
            Err(_) => {
                size /= 2;
                f = slot.lock().unwrap_or_else(|p| p.into_inner()).take();
            }
        }
    }
}

/// `try_run_on_big_stack`, ending the process with exit status 2 when no thread starts.
pub fn run_on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match try_run_on_big_stack(f) {
        Ok(v) => v,
        Err(e) => {
            ds_base::eprintln_safe!("error: {e}");
            std::process::exit(2)
        }
    }
}

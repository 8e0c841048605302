//! Heap memory: a global allocator that counts the bytes in use, and the limit of
//! `--max-memory` (or of the address space the process may have). Going over the limit is not
//! refused by the allocator — an allocation failure aborts a Rust program — but noticed by the
//! interpreter at its next step, by every `Meter` (so long built-in loops stop), and checked
//! before any large buffer is made (`reserve`): the script then ends with an error and its
//! output is kept.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};

/// The counting allocator; `main.rs` makes it the global one.
pub struct Counting;

/// The bytes in use, as the threads last reported them: each thread counts its own
/// allocations and adds them here once they come to `BATCH` bytes (either way), so that
/// threads searching together do not fight over one cache line on every allocation. The
/// count is off by less than `BATCH` per thread (and may dip below 0 when a thread frees what
/// another allocated).
static USED: AtomicIsize = AtomicIsize::new(0);
const BATCH: isize = 256 << 10;

thread_local! {
    /// This thread's bytes not yet added to `USED`.
    static UNREPORTED: Cell<isize> = const { Cell::new(0) };
}

#[inline]
fn count(bytes: isize) {
    let report = UNREPORTED.try_with(|u| {
        let v = u.get() + bytes;
        if v.abs() < BATCH {
            u.set(v);
            return 0;
        }
        u.set(0);
        v
    });
    match report {
        Ok(0) => {}
        Ok(v) => {
            USED.fetch_add(v, Ordering::Relaxed);
        }
        Err(_) => {
            USED.fetch_add(bytes, Ordering::Relaxed);
        }
    }
}
/// `usize::MAX`: no limit.
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Called when the system refuses memory, instead of returning null (which aborts a Rust
/// program, output buffers and all): it ends the process as a script error, after the
/// output written so far. Set by `main.rs` (it flushes standard output if it can).
static ON_FAILURE: std::sync::OnceLock<fn(usize) -> !> = std::sync::OnceLock::new();

/// What to do when an allocation fails (once; later calls are ignored).
pub fn on_failure(f: fn(usize) -> !) {
    let _ = ON_FAILURE.set(f);
}

fn failed(size: usize) -> *mut u8 {
    match ON_FAILURE.get() {
        Some(f) => f(size),
        None => std::ptr::null_mut(),
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; the counter only records
// the sizes of the blocks that were handed out and given back. A refused request either
// returns null, as the system did, or ends the process (`ON_FAILURE`).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if p.is_null() {
            return failed(layout.size());
        }
        count(layout.size() as isize);
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            return failed(layout.size());
        }
        count(layout.size() as isize);
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        count(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            return failed(new_size);
        }
        count(new_size as isize - layout.size() as isize);
        p
    }
}

/// Where the limit comes from, for its message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// `--max-memory`.
    Asked,
    /// What the address-space limit (`ulimit -v`) leaves.
    AddressSpace,
    /// The default of a run without `--max-memory`: a share of the machine's memory.
    Default,
    /// Set by a host without a command line (the playground's page).
    Host,
}

/// The `Source` of the limit, as its index in `SOURCES`.
static SOURCE: AtomicUsize = AtomicUsize::new(0);
const SOURCES: [Source; 4] = [Source::Asked, Source::AddressSpace, Source::Default, Source::Host];

/// Sets the limit in bytes (None: no limit) and where it comes from.
pub fn set_limit(bytes: Option<usize>, source: Source) {
    LIMIT.store(bytes.unwrap_or(usize::MAX), Ordering::Relaxed);
    SOURCE.store(SOURCES.iter().position(|&s| s == source).unwrap_or(0), Ordering::Relaxed);
}

/// The limit in bytes, if there is one.
pub fn limit() -> Option<usize> {
    let l = LIMIT.load(Ordering::Relaxed);
    (l != usize::MAX).then_some(l)
}

/// Bytes of heap in use (0 when the counting allocator is not the global one: a test binary).
pub fn used() -> usize {
    USED.load(Ordering::Relaxed).max(0) as usize
}

/// Whether the heap in use is over the limit.
#[inline]
pub fn exceeded() -> bool {
    used() > LIMIT.load(Ordering::Relaxed)
}

/// Whether a container holding `bytes` may double: asked before it grows, as the growth
/// itself can pass the limit (or fail) in one allocation.
pub fn room_to_double(bytes: usize) -> bool {
    room_for(bytes)
}

/// Whether `bytes` more would still be within the limit: asked before making a large buffer.
pub fn room_for(bytes: usize) -> bool {
    used().saturating_add(bytes) <= LIMIT.load(Ordering::Relaxed)
}

/// The message of the error that stops a script over the limit.
pub fn limit_message() -> String {
    let Some(l) = limit() else { return "out of memory".to_string() };
    let why = match SOURCES[SOURCE.load(Ordering::Relaxed)] {
        Source::Asked => "--max-memory",
        Source::AddressSpace => "what the address-space limit, ulimit -v, leaves",
        Source::Default => "the default, half of the machine's memory; --max-memory sets another",
        Source::Host => "the limit of the page or program running ds",
    };
    format!("memory limit of {l} bytes reached ({why})")
}

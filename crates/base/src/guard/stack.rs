//! The native stack of the interpreter thread: where it ends, so that deep recursion (demon
//! calls, nested expressions, the compiler's walk) stops with a script error while there is
//! still room, whatever the nesting that caused it.

use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

thread_local! {
    /// The lowest stack address recursion may reach on this thread (0: not known, no check).
    static FLOOR: Cell<usize> = const { Cell::new(0) };
}

/// Room kept below the floor for the work done after the last check: a built-in, an error
/// being rendered, the unwinding of what was built.
const RESERVE: usize = 1 << 20;

/// The address of a local of the caller's frame: how far down the stack is.
#[inline(always)]
pub fn here() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}

/// Records that this thread's stack has `size` bytes, starting about here (called first thing
/// on the interpreter thread).
pub fn mark(size: usize) {
    let floor = here().saturating_sub(size.saturating_sub(RESERVE));
    FLOOR.with(|f| f.set(floor));
}

/// The floor recorded for this thread (0 when none was).
pub fn floor() -> usize {
    FLOOR.with(Cell::get)
}

/// Sets this thread's floor: a host narrows it for one run and puts the old one back after
/// (the playground, whose browser's own stack may hold less than the one it marked).
pub fn set_floor(floor: usize) {
    FLOOR.with(|f| f.set(floor));
}

/// Whether the stack is used up down to the floor.
#[inline]
pub fn exhausted() -> bool {
    here() < floor()
}

/// The stack of the interpreter thread (0 before a host starts it).
static INTERPRETER_SIZE: AtomicUsize = AtomicUsize::new(0);

/// Records the stack of the interpreter thread (the host that started it).
pub fn set_interpreter_size(size: usize) {
    INTERPRETER_SIZE.store(size, Ordering::Relaxed);
}

/// The stack of the interpreter thread (0 before a host starts it): the workers of a search
/// get as much.
pub fn interpreter_size() -> usize {
    INTERPRETER_SIZE.load(Ordering::Relaxed)
}

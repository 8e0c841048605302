//! For tests that count work instead of timing it (a clock fails on a loaded machine): a key
//! that counts how often it is hashed or compared, so that a test can tell a set of keys seen
//! (a bounded number of looks per key) from a scan of a list (looks growing with the list).

use std::cell::Cell;

thread_local! {
    static LOOKS: Cell<u64> = const { Cell::new(0) };
}

/// A key whose every hash and comparison is counted (per thread: tests run on threads).
#[derive(Eq)]
pub(crate) struct Counted(pub u32);

impl PartialEq for Counted {
    fn eq(&self, other: &Counted) -> bool {
        LOOKS.with(|n| n.set(n.get() + 1));
        self.0 == other.0
    }
}

impl std::hash::Hash for Counted {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        LOOKS.with(|n| n.set(n.get() + 1));
        self.0.hash(h);
    }
}

/// The looks at `Counted` keys `f` takes, with what it returns.
pub(crate) fn looks<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = LOOKS.with(Cell::get);
    let value = f();
    (value, LOOKS.with(Cell::get) - before)
}

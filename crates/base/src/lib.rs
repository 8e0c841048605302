//! What every layer of ds shares, below the syntax: `diagnostics` (spans, `Diagnostic`, the
//! `SourceMap` that renders them, the `Limit` a run stopped at), `guard` (the heap count and
//! limit, the native stack's floor, the signal that interrupted a run: what the hosts set up and
//! the core checks) and `names` (did-you-mean).

/// `eprint!` that ignores a failed write: a closed standard error (`ds x 2>&1 | head`) must not
/// become a panic.
#[macro_export]
macro_rules! eprint_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stderr(), $($arg)*);
    }};
}

/// `eprintln!` that ignores a failed write (see `eprint_safe!`).
#[macro_export]
macro_rules! eprintln_safe {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod diagnostics;
pub mod guard;
pub mod names;

pub use diagnostics::{Diagnostic, Frame, SourceMap};

//! ds: a DemonScript interpreter. Worlds are graphs whose edges are True, False or Undef;
//! programs are demons that rewrite them.
//!
//! The pipeline: `syntax` (logos lexer + LALRPOP grammar) -> `compile` (names to slots, checks
//! before running) -> `eval` (tree-walking evaluator) over `value`s and `world` graph states,
//! with `builtins` registered module by module, and `mind` the inference engine of the
//! `Mind` module (axioms, propagation, models). `Session` ties them together for the command
//! line and the REPL.
//!
//! Without the `native` feature the crate is the core alone, over no operating system (it
//! builds for wasm32-unknown-unknown): it reaches files through `files::Files` and reads the
//! limits the host set in `guard`. The hosts (`host`, `repl`, `lsp`, the explorer's server,
//! the disk in `sandbox`, search on several processes) come with `native`.

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

pub mod builtins;
pub mod compile;
#[cfg(test)]
mod counted;
pub mod diagnostics;
pub mod eval;
pub mod explore;
pub mod files;
pub mod guard;
#[cfg(feature = "native")]
pub mod host;
#[cfg(feature = "native")]
pub mod kernel;
#[cfg(feature = "native")]
pub mod lsp;
pub mod mind;
pub mod names;
#[cfg(feature = "native")]
pub mod repl;
#[cfg(feature = "native")]
pub mod sandbox;
pub mod search;
pub mod session;
pub mod syntax;
pub mod value;
pub mod world;

pub use diagnostics::{Diagnostic, Frame, SourceMap};
#[cfg(feature = "native")]
pub use host::run_on_big_stack;
pub use session::{Outcome, Session};

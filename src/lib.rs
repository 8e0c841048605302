//! ds: a DemonScript interpreter. Worlds are graphs whose edges are True, False or Undef;
//! programs are demons that rewrite them.
//!
//! This library puts the layers (crates/, docs/internals.md "Layers") under one name for the
//! `ds` binary and the integration tests: `ds_base` (diagnostics, limits), `ds_syntax`, the core
//! interpreter `ds_core` (over no operating system: the playground's), `ds_native` (what an
//! operating system adds: the disk, threads, processes, signals) and the hosts above them (the
//! REPL, the language server, `ds explore`'s server, the Jupyter kernel).

pub use ds_base::{diagnostics, eprint_safe, eprintln_safe, guard, names, Diagnostic, Frame, SourceMap};
pub use ds_core::{builtins, compile, eval, files, hooks, mind, search, session, value, world, Outcome, Session};
pub use ds_grade as grade;
pub use ds_kernel as kernel;
pub use ds_lsp as lsp;
pub use ds_native::{cluster, host, lend, run_on_big_stack, sandbox, workers};
pub use ds_pddl as pddl;
pub use ds_repl as repl;
pub use ds_syntax as syntax;

/// `ds explore`: the state space of a script, as the core answers it (`ds_core::explore`) and
/// served to a browser (`ds_explore`).
pub mod explore {
    pub use ds_core::explore::*;
    pub use ds_explore::{bind, port, serve, Server};
}

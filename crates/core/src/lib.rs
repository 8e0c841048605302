//! The ds interpreter over no operating system: it builds for wasm32-unknown-unknown (the
//! playground) as well as for the native hosts above it.
//!
//! The pipeline: `ds_syntax` (logos lexer + LALRPOP grammar) -> `compile` (names to slots,
//! checks before running) -> `eval` (the closures that run the program) over `value`s and
//! `world` graph states, with `builtins` registered module by module, `mind` the inference
//! engine of the `Mind` module (axioms, propagation, models) and `search` the engine of the
//! `Search` module. `Session` ties them together for the hosts.
//!
//! What a host lends the core is reached through traits it implements: files through
//! `files::Files`, threads through `hooks::Spawn`, the worker threads of a search through
//! `search::workers::Workers`, the processes of `ds --processes` through
//! `search::processes::Cluster`, the live line of a long search through `hooks::StatusLine`;
//! the limits a host sets are read in `ds_base::guard`. An interpreter starts with none of it
//! (a folder in memory, one thread): `ds_native::lend` gives it the disk and threads.

pub mod builtins;
pub mod compile;
#[cfg(test)]
mod counted;
pub mod eval;
pub mod explore;
pub mod files;
pub mod hooks;
pub mod mind;
pub mod search;
pub mod session;
pub mod value;
pub mod world;

pub use session::{Outcome, Session};

//! Planning domains (decision 26): PDDL read on the project's stack (a logos lexer and a LALRPOP
//! grammar), checked (`check`), grounded into a finite-domain task over packed states
//! (`ground`, `task`), and solved by the planner's searches and heuristics (`search`,
//! `heuristics`, `lmcut`); `plan::run` is `ds plan` without the files. No files, no threads: it builds
//! for wasm32, and the caller passes the source text and a file name.

pub mod ast;
pub mod check;
pub mod ground;
pub mod heuristics;
pub mod lexer;
mod lmcut;
pub mod parse;
pub mod plan;
pub mod search;
pub mod task;

use lalrpop_util::lalrpop_mod;

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, dead_code, unused_imports)]
    grammar,
    "/grammar.rs"
);

#[cfg(test)]
mod tests;

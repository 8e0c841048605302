//! The integration tests, in one binary: linking each test file as its own binary cost most of
//! the edit-test loop (nickel's core/tests/README.md makes the same point). Run one group with
//! `cargo test --profile release-dev --test integration golden::`, one case by its name.

mod cli;
mod closures;
mod common;
mod conformance;
mod conveniences;
mod decisions;
mod docs;
mod dump;
mod errors;
mod explore;
mod explore_limits;
mod explore_views;
mod extras;
mod golden;
mod keywords;
mod krk;
mod layers;
mod limits;
mod loop_closures;
mod lsp_features;
mod lsp_limits;
mod lsp_prefixes;
mod lsp_session;
mod memory_files;
mod method_closures;
mod mind;
mod mutations;
mod node_loops;
mod output;
mod parse_cost;
mod probes;
mod processes;
mod record;
mod regressions;
mod repl_backend;
mod repl_piped;
mod repl_pty;
mod sandbox;
mod search;
mod standalone;
mod threads;
mod traps;
mod views;
mod warnings;

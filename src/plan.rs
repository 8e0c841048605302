//! `ds plan DOMAIN PROBLEM [--search NAME] [--h NAME]` (decision 26): the options, the files
//! and the limits; the planner itself is `ds_pddl::plan::run`.

use clap::Parser;
use ds::host::memory;
use ds::pddl::plan::{self, Options, Source};
use ds::pddl::{heuristics, search};
use std::io::{IsTerminal, Write};

#[derive(Parser, Debug)]
#[command(
    name = "ds plan",
    about = "Find a plan for a PDDL problem (STRIPS with :typing, :negative-preconditions, :equality, :action-costs)",
    after_help = "Exit status: 0 a plan was found, 1 an error in a file, 2 bad command-line use or an unreadable file,\n\
                  3 the problem is unsolvable, 4 a limit stopped the search first."
)]
struct PlanCli {
    /// The domain file.
    domain: String,
    /// The problem file.
    problem: String,
    /// The search algorithm.
    #[arg(long, default_value = "astar", value_parser = clap::builder::PossibleValuesParser::new(search::NAMES))]
    search: String,
    /// The heuristic.
    #[arg(long = "h", value_name = "NAME", default_value = "blind", value_parser = clap::builder::PossibleValuesParser::new(heuristics::NAMES))]
    heuristic: String,
    /// Stop after SECONDS (exit status 4).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Stop when the heap passes BYTES (a number, or with a suffix K, M or G) [default: half of
    /// the machine's memory].
    #[arg(long, value_name = "BYTES", value_parser = crate::cli::parse_bytes)]
    max_memory: Option<usize>,
}

/// Runs `ds plan` with the arguments after `plan`; the exit status.
pub fn main(args: Vec<String>) -> u8 {
    let cli = match PlanCli::try_parse_from(std::iter::once("ds plan".to_string()).chain(args)) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let deadline = match super::deadline(cli.timeout) {
        Ok(d) => d,
        Err(status) => return status,
    };
    let (limit, source) = super::heap_limit(cli.max_memory);
    memory::set_limit(limit, source);
    let read = |path: &str| {
        std::fs::read_to_string(path).map_err(|e| {
            ds::eprintln_safe!("error: cannot read {path}: {e}");
        })
    };
    let (Ok(domain), Ok(problem)) = (read(&cli.domain), read(&cli.problem)) else { return 2 };
    let opts = Options {
        search: &cli.search,
        heuristic: &cli.heuristic,
        deadline,
        over_memory: &memory::exceeded,
        color: std::io::stderr().is_terminal(),
    };
    let report =
        plan::run(Source { name: &cli.domain, text: &domain }, Source { name: &cli.problem, text: &problem }, &opts);
    // A closed standard output (`ds plan d p | head -1`) is not an error of the planner.
    let _ = std::io::stdout().write_all(report.stdout.as_bytes());
    ds::eprint_safe!("{}", report.stderr);
    report.status
}

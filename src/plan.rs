//! `ds plan DOMAIN PROBLEM [--search NAME] [--h NAME]` (decision 26): the options, the files
//! and the limits; the planner itself is `ds_pddl::plan::run`.

use clap::Parser;
use ds::host::{memory, signals};
use ds::pddl::plan::{self, Options, Source};
use ds::pddl::{heuristics, search};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

#[derive(Parser, Debug)]
#[command(
    name = "ds plan",
    about = "Find a plan for a PDDL problem (STRIPS with :typing, :negative-preconditions, :equality, :action-costs)",
    after_help = "Exit status: 0 a plan was found, 1 an error in a file, 2 bad command-line use or an unreadable file,\n\
                  3 the problem is unsolvable, 4 a limit or Ctrl-C stopped the search first (SIGTERM: 143, SIGHUP: 129)."
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
    // SIGINT, SIGTERM and SIGHUP ask the planner to stop, which it notices within a few
    // expansions and ends with its statistics; a second signal ends the process at once.
    let stop = Arc::new(AtomicBool::new(false));
    if !signals::install(stop.clone(), signals::WhenIdle::Exit) {
        ds::eprintln_safe!("note: signals keep their default effect (the handlers could not be installed)");
    }
    signals::set_busy(true);
    let interrupted = || stop.load(Ordering::Relaxed).then(|| signals::received().map_or("a signal", signals::name));
    let opts = Options {
        search: &cli.search,
        heuristic: &cli.heuristic,
        deadline,
        over_memory: &memory::exceeded,
        interrupted: &interrupted,
        color: std::io::stderr().is_terminal(),
    };
    let report =
        plan::run(Source { name: &cli.domain, text: &domain }, Source { name: &cli.problem, text: &problem }, &opts);
    // A closed standard output (`ds plan d p | head -1`) is not an error of the planner.
    let _ = std::io::stdout().write_all(report.stdout.as_bytes());
    ds::eprint_safe!("{}", report.stderr);
    status(&report)
}

/// The exit status: the planner's (decision 26), except that a search stopped by SIGTERM or
/// SIGHUP ends with 128 + the signal, as every run of ds does; Ctrl-C (SIGINT) is the user's
/// limit on the search, status 4 with the statistics, as `--timeout` is.
fn status(report: &plan::Report) -> u8 {
    match (report.stopped, signals::received()) {
        (Some("interrupted"), Some(sig)) if sig != libc::SIGINT => 128u8.saturating_add(sig as u8),
        _ => report.status,
    }
}

//! `ds plan DOMAIN PROBLEM` without the files: the texts in, the plan, statistics and exit
//! status out (decision 26). The binary reads the files and sets the limits; a script's
//! `Problem.pddl` uses `load` for the task alone.

use crate::check::Model;
use crate::ground::{ground, GroundError};
use crate::heuristics;
use crate::search::{self, Limits, Outcome};
use crate::task::Task;
use crate::{check, parse};
use ds_base::diagnostics::{Diagnostic, SourceMap};
use web_time::Instant;

/// A source file: its name (for messages) and text.
pub struct Source<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

/// Parses, checks and grounds a domain and a problem (registered in `sources`, which renders
/// the error). `over_limit` stops grounding when it returns true (a limit of the caller), then
/// the error is `None`.
pub fn load(
    sources: &mut SourceMap,
    domain: Source,
    problem: Source,
    over_limit: &dyn Fn() -> bool,
) -> Result<Task, Option<Diagnostic>> {
    let model = read(sources, domain, problem)?;
    match ground(&model, over_limit) {
        Ok(task) => Ok(task),
        Err(GroundError::Invalid(d)) => Err(Some(d)),
        Err(GroundError::Limit) => Err(None),
    }
}

/// Parses and checks a domain and a problem (registered in `sources`) into their lifted task:
/// the objects, types and predicates by name, from which `ground::ground` makes the `Task`
/// (whose variables name their atoms by the model's indices).
pub fn read(sources: &mut SourceMap, domain: Source, problem: Source) -> Result<Model, Diagnostic> {
    let dfile = sources.add(domain.name, domain.text);
    let pfile = sources.add(problem.name, problem.text);
    let d = parse::domain(domain.text, dfile)?;
    let p = parse::problem(problem.text, pfile)?;
    check::check(&d, &p)
}

/// What `ds plan` asks for besides the files.
pub struct Options<'a> {
    pub search: &'a str,
    pub heuristic: &'a str,
    pub deadline: Option<Instant>,
    /// Whether the memory in use is over the limit.
    pub over_memory: &'a dyn Fn() -> bool,
    /// Whether someone asked the planner to stop (a signal: Ctrl-C), and who: `SIGINT`.
    pub interrupted: &'a dyn Fn() -> Option<&'static str>,
    pub color: bool,
}

/// What `ds plan` prints and its exit status.
pub struct Report {
    pub stdout: String,
    pub stderr: String,
    pub status: u8,
    /// What stopped the grounding or the search before the end, when something did:
    /// `timeout`, `max_memory` or `interrupted` (the caller may give a signal its own status).
    pub stopped: Option<&'static str>,
}

/// `ds plan`: 0 a plan, 1 an error in a file, 2 bad use, 3 unsolvable, 4 stopped by a limit.
pub fn run(domain: Source, problem: Source, opts: &Options) -> Report {
    let mut report = Report { stdout: String::new(), stderr: String::new(), status: 0, stopped: None };
    if !search::NAMES.contains(&opts.search) || !heuristics::NAMES.contains(&opts.heuristic) {
        report.stderr = format!(
            "error: unknown search or heuristic (searches: {}; heuristics: {})\n",
            search::NAMES.join(", "),
            heuristics::NAMES.join(", ")
        );
        report.status = 2;
        return report;
    }
    let started = Instant::now();
    let timed_out = || opts.deadline.is_some_and(|d| Instant::now() >= d);
    let interrupted = || (opts.interrupted)().is_some();
    let over = || interrupted() || timed_out() || (opts.over_memory)();
    let mut sources = SourceMap::default();
    let task = match load(&mut sources, domain, problem, &over) {
        Ok(task) => task,
        Err(Some(d)) => {
            report.stderr = sources.render(&d, opts.color);
            report.status = 1;
            return report;
        }
        Err(None) => {
            let why = if interrupted() {
                "interrupted"
            } else if timed_out() {
                "timeout"
            } else {
                "max_memory"
            };
            report.stderr = format!(
                "stopped: {} (while grounding)\nground_ms: {}\n",
                stop_text(why, opts),
                started.elapsed().as_millis()
            );
            report.status = 4;
            report.stopped = Some(why);
            return report;
        }
    };
    let ground_ms = started.elapsed().as_millis();
    let mut h = heuristics::by_name(opts.heuristic, &task).expect("a known heuristic");
    let over_memory = |_bytes: usize| (opts.over_memory)();
    let limits = Limits { deadline: opts.deadline, over_memory: &over_memory, interrupted: &interrupted };
    let (outcome, stats) = search::run(&task, opts.search, h.as_mut(), &limits);
    match outcome {
        Outcome::Plan(ops) => {
            let mut cost = 0;
            for &o in &ops {
                report.stdout.push_str(&task.ops[o].name);
                report.stdout.push('\n');
                cost += task.ops[o].cost;
            }
            let kind = if task.unit_cost { "unit cost" } else { "general cost" };
            report.stdout.push_str(&format!("; cost = {cost} ({kind})\n"));
        }
        Outcome::Unsolvable => {
            report.stdout.push_str("; unsolvable\n");
            report.status = 3;
        }
        Outcome::Limit(why) => {
            report.stderr.push_str(&format!("stopped: {}\n", stop_text(why, opts)));
            report.status = 4;
            report.stopped = Some(why);
        }
    }
    let per_state = (stats.bytes as u64).checked_div(stats.states).unwrap_or(0);
    report.stderr.push_str(&format!(
        "expanded: {}\nexpanded_until_last_jump: {}\ngenerated: {}\nstates: {}\nms: {}\n\
         ground_ms: {ground_ms}\nvariables: {}\noperators: {}\nbytes_per_state: {per_state}\n",
        stats.expanded,
        stats.expanded_until_last_jump,
        stats.generated,
        stats.states,
        stats.ms,
        task.vars.len(),
        task.ops.len(),
    ));
    report
}

/// What stopped the planner as `stopped:` names it: `interrupted (SIGINT)` for a signal.
fn stop_text(why: &str, opts: &Options) -> String {
    match (why, (opts.interrupted)()) {
        ("interrupted", Some(by)) => format!("interrupted ({by})"),
        _ => why.to_string(),
    }
}

//! The `ds` command line: run a file, a snippet, check a file, or open the REPL.

use clap::Parser;
use ds::eval::Limits;
use ds::session::Stage;
use ds::{repl, Outcome, Session};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser, Debug)]
#[command(
    name = "ds",
    version,
    about = "DemonScript: worlds as three-valued graphs, programs as demons that rewrite them"
)]
struct Cli {
    /// Run this code instead of a file.
    #[arg(short = 'e', long = "eval", value_name = "CODE", conflicts_with = "check")]
    code: Option<String>,
    /// Parse and resolve FILE without running it.
    #[arg(long, requires = "file")]
    check: bool,
    /// Print a stage of FILE instead of running it: the tokens after the layout pass, the
    /// syntax tree, or the resolved program (IR).
    #[arg(long, value_name = "STAGE", conflicts_with_all = ["check", "interactive"])]
    dump: Option<DumpStage>,
    /// Treat warnings as errors: the script does not run (or stops) on the first one.
    #[arg(long)]
    deny_warnings: bool,
    /// Run FILE, then open the REPL in its state.
    #[arg(short = 'i', long)]
    interactive: bool,
    /// Largest number of demon calls in progress at once.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    max_depth: usize,
    /// Stop the script after N statements.
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Stop the script after SECONDS of running.
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Run an untrusted script: it reads and writes no files; `#include` reads only `.ds`
    /// files inside the script's folder.
    #[arg(long)]
    sandbox: bool,
    /// The script to run.
    file: Option<String>,
    /// Arguments for the script (`System.args()`).
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    args: Vec<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum DumpStage {
    Tokens,
    Ast,
    Ir,
}

/// A year: longer is surely a mistake (and 1e19 s is past what the clock can add).
const MAX_TIMEOUT: f64 = 365.0 * 24.0 * 3600.0;

fn main() -> ExitCode {
    // `lsp` is a reserved word of the command line (LANGUAGE.md decision 18): `ds ./lsp` runs a file.
    if std::env::args_os().nth(1).is_some_and(|a| a == "lsp") {
        return ExitCode::from(ds::run_on_big_stack(ds::lsp::run));
    }
    // So is `explore` (`ds ./explore` runs a file of that name).
    if std::env::args_os().nth(1).is_some_and(|a| a == "explore") {
        let args: Vec<String> = std::env::args_os().skip(2).map(|a| a.to_string_lossy().into_owned()).collect();
        return ExitCode::from(ds::run_on_big_stack(move || explore(args)));
    }
    let cli = Cli::parse();
    let code = ds::run_on_big_stack(move || run(cli));
    ExitCode::from(code)
}

fn run(cli: Cli) -> u8 {
    let color = std::io::stderr().is_terminal();
    let out: Box<dyn Write> = Box::new(std::io::BufWriter::new(std::io::stdout()));
    let mut session = Session::new(out);
    if let Err(status) = configure(&cli, &mut session) {
        return status;
    }
    let (name, src) = match script(&cli, &mut session) {
        Ok(Some(script)) => script,
        Ok(None) => return open_repl(session, None),
        Err(status) => return status,
    };
    if let Some(stage) = cli.dump {
        return dump(&mut session, &name, &src, stage, color);
    }
    if cli.check {
        return match session.check_source(&name, &src) {
            Ok(warnings) => {
                ds::eprint_safe!("{}", session.render(&warnings, color));
                0
            }
            Err(d) => {
                ds::eprint_safe!("{}", session.render(&d, color));
                if d.iter().any(|d| d.environment) {
                    2
                } else {
                    1
                }
            }
        };
    }
    if cli.interactive {
        return open_repl(session, Some((&name, &src)));
    }
    run_script(&mut session, &name, &src, color)
}

/// `--dump STAGE`: the stage on standard output (status 0), or the errors that stop it (1).
fn dump(session: &mut Session, name: &str, src: &str, stage: DumpStage, color: bool) -> u8 {
    let stage = match stage {
        DumpStage::Tokens => Stage::Tokens,
        DumpStage::Ast => Stage::Ast,
        DumpStage::Ir => Stage::Ir,
    };
    match session.dump(name, src, stage) {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(text.as_bytes()).and_then(|_| out.flush());
            0
        }
        Err(d) => {
            ds::eprint_safe!("{}", session.render(&d, color));
            1
        }
    }
}

/// `ds explore FILE [ARGS] --start NAME --next NAME --goal NAME ...`: runs FILE as usual, then
/// serves its state space (`ds::explore`). The port is taken first, so that a port in use
/// stops the command before the script runs.
fn explore(args: Vec<String>) -> u8 {
    let (options, rest) = match ds::explore::take_options(args) {
        Ok(parsed) => parsed,
        Err(message) => {
            ds::eprintln_safe!("error: {message}\n{}", ds::explore::USAGE);
            return 2;
        }
    };
    if options.help {
        ds::eprintln_safe!("{}\n{}", ds::explore::USAGE, EXPLORE_HELP);
        return 0;
    }
    let cli = match Cli::try_parse_from(std::iter::once("ds explore".to_string()).chain(rest)) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return 2;
        }
    };
    let Some(file) =
        cli.file.clone().filter(|_| cli.code.is_none() && !cli.check && !cli.interactive && cli.dump.is_none())
    else {
        ds::eprintln_safe!("error: ds explore runs a FILE (not -e, --check, --dump or -i)\n{}", ds::explore::USAGE);
        return 2;
    };
    let server = match ds::explore::bind(options.port) {
        Ok(server) => server,
        Err(message) => {
            ds::eprintln_safe!("error: {message}");
            return 2;
        }
    };
    let color = std::io::stderr().is_terminal();
    let mut session = Session::new(Box::new(std::io::BufWriter::new(std::io::stdout())));
    if let Err(status) = configure(&cli, &mut session) {
        return status;
    }
    let (name, src) = match script(&cli, &mut session) {
        Ok(Some(script)) => script,
        Ok(None) => return 2,
        Err(status) => return status,
    };
    match run_script(&mut session, &name, &src, color) {
        0 => {}
        status => return status,
    }
    let timeout = cli.timeout.and_then(|s| Duration::try_from_secs_f64(s).ok());
    ds::explore::serve(&mut session, &file, &options, &server, timeout)
}

const EXPLORE_HELP: &str = "Runs FILE (with ARGS), then serves the states reachable from the global --start under the
demon --next on http://127.0.0.1:PORT/ until Ctrl-C; --goal (a demon or a value) marks goals,
--h (a demon) gives A*'s estimate. --port 0 (the default) takes a free port; --max-states
bounds the states stored (default 1000000); --timeout bounds the script's run and each request.
docs/explorer.md describes the page and the JSON API.";

/// Limits and script arguments from the command line; `Err(2)` for a bad option value.
fn configure(cli: &Cli, session: &mut Session) -> Result<(), u8> {
    let deadline = match cli.timeout {
        Some(s) => match Duration::try_from_secs_f64(s).ok().and_then(|d| Instant::now().checked_add(d)) {
            Some(at) if s <= MAX_TIMEOUT => Some(at),
            _ => {
                ds::eprintln_safe!("error: --timeout takes a number of seconds from 0 to {MAX_TIMEOUT}");
                return Err(2);
            }
        },
        None => None,
    };
    session.set_limits(Limits { max_depth: cli.max_depth, max_steps: cli.max_steps, deadline, ..Limits::default() });
    session.interp.warnings.deny = cli.deny_warnings;
    session.interp.warnings.color = std::io::stderr().is_terminal();
    // The sandbox is per thread: this runs on the interpreter's thread.
    if cli.sandbox {
        let root = match (&cli.code, &cli.file) {
            (None, Some(file)) => std::path::Path::new(file).parent().map(|p| p.to_path_buf()).unwrap_or_default(),
            _ => std::path::PathBuf::from("."),
        };
        if let Err(e) = ds::sandbox::set(ds::sandbox::Access::Sandbox { root: root.clone() }) {
            ds::eprintln_safe!("error: cannot use the folder {} for --sandbox: {e}", root.display());
            return Err(2);
        }
    }
    session.interp.args = cli.args.clone();
    Ok(())
}

/// The code to run (`-e CODE` or FILE) as (name, text); `None` when there is none (the REPL).
fn script(cli: &Cli, session: &mut Session) -> Result<Option<(String, String)>, u8> {
    if let Some(code) = &cli.code {
        if let Some(f) = &cli.file {
            // With -e, a positional FILE is the first script argument.
            session.interp.args.insert(0, f.clone());
        }
        return Ok(Some(("<-e>".to_string(), code.clone())));
    }
    let Some(file) = &cli.file else { return Ok(None) };
    // The script's directory, for `File.scriptDir()` (data files next to the script).
    session.interp.script_dir = std::path::Path::new(file).parent().map(|p| p.to_path_buf());
    match std::fs::read(file) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(s) => Ok(Some((file.clone(), s))),
            Err(_) => {
                ds::eprintln_safe!("error: {file} is not UTF-8 text");
                Err(2)
            }
        },
        Err(e) => {
            ds::eprintln_safe!("error: cannot read {file}: {e}");
            Err(2)
        }
    }
}

/// Runs a script to the end; the exit status (0, or 1 for an error in the script).
fn run_script(session: &mut Session, name: &str, src: &str, color: bool) -> u8 {
    let status = match session.run_source(name, src) {
        Outcome::Finished(_) => 0,
        Outcome::Exited(code) => code.clamp(0, 255) as u8,
        Outcome::CompileErrors(d) => {
            ds::eprint_safe!("{}", session.render(&d, color));
            if d.iter().any(|d| d.environment) {
                2
            } else {
                1
            }
        }
        Outcome::RuntimeError(d) => {
            let _ = session.interp.out.flush();
            ds::eprint_safe!("{}", session.render(&[*d], color));
            1
        }
    };
    let _ = session.interp.out.flush();
    status
}

/// Opens the REPL, after running `first` (`ds -i FILE`) with Ctrl-C already stopping only
/// the evaluation. The status is the worse of the script's and the REPL's.
fn open_repl(mut session: Session, first: Option<(&str, &str)>) -> u8 {
    let interrupter = repl::Interrupter::install(session.interp.interrupt.clone(), repl::when_idle());
    let color = std::io::stderr().is_terminal();
    let status = match first {
        Some((name, src)) => interrupter.busy(|| run_script(&mut session, name, src, color)),
        None => 0,
    };
    status.max(repl::run(session, &interrupter))
}

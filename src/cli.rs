//! The command line's shape: `ds [OPTIONS] [FILE] [ARGS...]`. Everything after FILE belongs
//! to the script (`ds s.ds --help` gives `--help` to the script), so the arguments are split at
//! FILE before clap sees them; `ds lsp`, `ds explore`, `ds kernel`, `ds plan` and `ds grade`
//! are subcommands (docs/language.md, decisions 18, 21, 26 and 28), recognised as the first
//! argument only, so `ds ./lsp`
//! runs a file named `lsp`.

use clap::{CommandFactory, Parser};
use std::ffi::OsString;

#[derive(Parser, Debug)]
#[command(
    name = "ds",
    version,
    about = "DemonScript: worlds as three-valued graphs, programs as demons that rewrite them",
    after_help = "Options go before FILE: what follows FILE is for the script (System.args()).\n\
                  Exit status: 0 success, 1 an error in the script, 2 bad command-line use or an \
                  unreadable file,\n128 + N when signal N stopped the run (130 Ctrl-C, 143 SIGTERM), \
                  141 when standard output was a closed pipe."
)]
pub struct Cli {
    /// Run this code instead of a file (a FILE after it is the script's first argument).
    #[arg(short = 'e', long = "eval", value_name = "CODE", conflicts_with = "check")]
    pub code: Option<String>,
    /// Parse and resolve FILE without running it.
    #[arg(long, requires = "file")]
    pub check: bool,
    /// Print a stage of FILE instead of running it: the tokens after the layout pass, the
    /// syntax tree, or the resolved program (IR).
    #[arg(long, value_name = "STAGE", conflicts_with_all = ["check", "interactive"])]
    pub dump: Option<DumpStage>,
    /// Treat warnings as errors: the script does not run (or stops) on the first one.
    #[arg(long)]
    pub deny_warnings: bool,
    /// Run FILE, then open the REPL in its state.
    #[arg(short = 'i', long)]
    pub interactive: bool,
    /// Largest number of demon calls in progress at once [default: 10000, or what the stack
    /// holds when the address space is limited].
    #[arg(long, value_name = "N")]
    pub max_depth: Option<usize>,
    /// Stop the script after N statements (and as much work inside built-ins).
    #[arg(long, value_name = "N")]
    pub max_steps: Option<u64>,
    /// Stop the script after SECONDS of running.
    #[arg(long, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop the script when its heap passes BYTES (a number, or with a suffix K, M or G)
    /// [default: half of the machine's memory].
    #[arg(long, value_name = "BYTES", value_parser = parse_bytes)]
    pub max_memory: Option<usize>,
    /// Run `Search.bfs` and `Search.explore` on N threads when their options do not say
    /// (each extra thread runs the script again, quietly, up to the search).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256), conflicts_with = "interactive")]
    pub threads: Option<u16>,
    /// Run `Search.bfs` and `Search.explore` across N processes, possibly on several machines
    /// (with --process and --hostfile; docs/search.md): each runs the script, process 0 prints.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256),
          conflicts_with_all = ["interactive", "threads"], requires_all = ["process", "hostfile"])]
    pub processes: Option<u16>,
    /// Which of the --processes this one is, from 0 (process 0 prints).
    #[arg(long, value_name = "I", requires = "processes")]
    pub process: Option<u16>,
    /// The processes' addresses for --processes: one host:port a line, process 0's first.
    #[arg(long, value_name = "FILE", requires = "processes")]
    pub hostfile: Option<String>,
    /// Run an untrusted script: it reads and writes no files, and `#include` reads only `.ds`
    /// files inside the script's folder.
    #[arg(long)]
    pub sandbox: bool,
    /// The script to run.
    pub file: Option<String>,
    /// The arguments after FILE (`System.args()`); set from the split, not by clap.
    #[arg(skip)]
    pub args: Vec<String>,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum DumpStage {
    Tokens,
    Ast,
    Ir,
}

/// What the command line asks for.
pub enum Command {
    /// `ds lsp`: the language server.
    Lsp,
    /// `ds explore ...`: the arguments after `explore`.
    Explore(Vec<String>),
    /// `ds kernel ...`: the Jupyter kernel, with the arguments after `kernel`.
    Kernel(Vec<String>),
    /// `ds grade ...`: grades a program by an exercise's tests, with the arguments after `grade`.
    Grade(Vec<String>),
    /// `ds plan ...`: the planner (decision 26), with the arguments after `plan`.
    Plan(Vec<String>),
    /// Anything else: run a script, a snippet, check a file or open the REPL.
    Run(Box<Cli>),
}

/// Reads the command line (exits with clap's message and status 2 when it is wrong, or 0 for
/// `--help` and `--version`).
pub fn parse(argv: Vec<OsString>) -> Command {
    if argv.get(1).is_some_and(|a| a == "lsp") {
        return Command::Lsp;
    }
    if argv.get(1).is_some_and(|a| a == "explore") {
        return Command::Explore(argv.iter().skip(2).map(|a| a.to_string_lossy().into_owned()).collect());
    }
    if argv.get(1).is_some_and(|a| a == "kernel") {
        return Command::Kernel(argv.iter().skip(2).map(|a| a.to_string_lossy().into_owned()).collect());
    }
    if argv.get(1).is_some_and(|a| a == "grade") {
        return Command::Grade(argv.iter().skip(2).map(|a| a.to_string_lossy().into_owned()).collect());
    }
    if argv.get(1).is_some_and(|a| a == "plan") {
        return Command::Plan(argv.iter().skip(2).map(|a| a.to_string_lossy().into_owned()).collect());
    }
    match parse_run_os(argv) {
        Ok(cli) => Command::Run(Box::new(cli)),
        Err(e) => e.exit(),
    }
}

/// The options of a run after a command word (`ds explore`, whose own options are taken out).
pub fn parse_run(name: &str, args: Vec<String>) -> Result<Cli, clap::Error> {
    parse_run_os(std::iter::once(name.to_string()).chain(args).map(OsString::from).collect())
}

fn parse_run_os(argv: Vec<OsString>) -> Result<Cli, clap::Error> {
    let (ours, script_args) = split_at_file(argv);
    let mut cli = Cli::try_parse_from(ours)?;
    cli.args = script_args.into_iter().map(|a| a.to_string_lossy().into_owned()).collect();
    if cli.code.is_some() {
        // With -e, a positional FILE is the first script argument.
        if let Some(f) = cli.file.take() {
            cli.args.insert(0, f);
        }
    }
    Ok(cli)
}

/// Splits the arguments after the first positional one (FILE): ds's options and FILE, then
/// the script's arguments.
fn split_at_file(mut argv: Vec<OsString>) -> (Vec<OsString>, Vec<OsString>) {
    let command = Cli::command();
    let takes_value = |long: Option<&str>, short: Option<char>| {
        command.get_arguments().any(|a| {
            !a.is_positional()
                && a.get_action().takes_values()
                && (long.is_some_and(|l| a.get_long() == Some(l)) || short.is_some_and(|s| a.get_short() == Some(s)))
        })
    };
    let mut i = 1;
    while i < argv.len() {
        let Some(arg) = argv[i].to_str() else { break };
        if arg == "--" {
            // The next argument is FILE, whatever it looks like.
            let end = (i + 2).min(argv.len());
            let rest = argv.split_off(end);
            return (argv, rest);
        }
        if let Some(long) = arg.strip_prefix("--") {
            if !long.contains('=') && takes_value(Some(long), None) {
                i += 1;
            }
        } else if let Some(shorts) = arg.strip_prefix('-').filter(|s| !s.is_empty()) {
            // A cluster like `-ie CODE`: a value-taking letter takes the rest or the next one.
            if let Some(at) = shorts.chars().position(|c| takes_value(None, Some(c))) {
                if at + 1 == shorts.chars().count() {
                    i += 1;
                }
            }
        } else {
            let rest = argv.split_off(i + 1);
            return (argv, rest);
        }
        i += 1;
    }
    (argv, Vec::new())
}

/// Whether an argument is one of ds's own options (`--sandbox`, `--timeout=5`, `-i`).
pub fn is_own_option(arg: &str) -> bool {
    let command = Cli::command();
    if let Some(long) = arg.strip_prefix("--") {
        let name = long.split_once('=').map_or(long, |(n, _)| n);
        let builtin = ["help", "version"].contains(&name);
        return builtin || command.get_arguments().any(|a| a.get_long() == Some(name));
    }
    match arg.strip_prefix('-').and_then(|s| s.chars().next()) {
        Some(c) => ['h', 'V'].contains(&c) || command.get_arguments().any(|a| a.get_short() == Some(c)),
        None => false,
    }
}

/// Takes `--max-memory BYTES` (or `--max-memory=BYTES`) out of a command's arguments (`ds
/// kernel`, whose other options are its own); the size asked for, if any.
pub fn take_max_memory(args: &mut Vec<String>) -> Result<Option<usize>, String> {
    let mut asked = None;
    let mut i = 0;
    while i < args.len() {
        let value = if args[i] == "--max-memory" {
            let value = args.get(i + 1).cloned().ok_or("`--max-memory` needs a size")?;
            args.drain(i..i + 2);
            value
        } else if let Some(value) = args[i].strip_prefix("--max-memory=") {
            let value = value.to_string();
            args.remove(i);
            value
        } else {
            i += 1;
            continue;
        };
        asked = Some(parse_bytes(&value)?);
    }
    Ok(asked)
}

/// `--max-memory`: a number of bytes, or with K, M or G (1024, 1024², 1024³).
pub(crate) fn parse_bytes(s: &str) -> Result<usize, String> {
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((at, _)) => s.split_at(at),
        None => (s, ""),
    };
    let scale: usize = match unit {
        "" | "B" => 1,
        "K" | "k" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return Err(format!("`{s}` is no size: write bytes, or a number with K, M or G")),
    };
    let n: usize = digits.parse().map_err(|_| format!("`{s}` is no size: write bytes, or a number with K, M or G"))?;
    match n.checked_mul(scale) {
        Some(0) | None => Err(format!("`{s}` is no usable size")),
        Some(bytes) => Ok(bytes),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(args: &[&str]) -> (Vec<String>, Vec<String>) {
        let argv = args.iter().map(OsString::from).collect();
        let (a, b) = split_at_file(argv);
        let s = |v: Vec<OsString>| v.into_iter().map(|a| a.to_string_lossy().into_owned()).collect();
        (s(a), s(b))
    }

    #[test]
    fn options_after_the_file_belong_to_the_script() {
        assert_eq!(
            split(&["ds", "s.ds", "--help", "-e", "x"]),
            (vec!["ds".into(), "s.ds".into()], vec!["--help".into(), "-e".into(), "x".into()])
        );
        let (ours, theirs) = split(&["ds", "--max-steps", "5", "--timeout=2", "-e", "out 1", "a", "--b"]);
        assert_eq!(ours, ["ds", "--max-steps", "5", "--timeout=2", "-e", "out 1", "a"]);
        assert_eq!(theirs, ["--b"]);
        assert_eq!(split(&["ds", "-i", "--", "-file.ds", "--x"]).1, ["--x"]);
        assert_eq!(split(&["ds", "-ie", "code", "f"]).0, ["ds", "-ie", "code", "f"]);
    }

    #[test]
    fn the_kernel_takes_max_memory_out_of_its_arguments() {
        let mut args: Vec<String> = ["-f", "c.json", "--max-memory", "50M"].map(String::from).to_vec();
        assert_eq!(take_max_memory(&mut args), Ok(Some(50 << 20)));
        assert_eq!(args, ["-f", "c.json"]);
        let mut args: Vec<String> = ["--max-memory=2G", "-f", "c"].map(String::from).to_vec();
        assert_eq!(take_max_memory(&mut args), Ok(Some(2 << 30)));
        assert_eq!(args, ["-f", "c"]);
        assert!(take_max_memory(&mut vec!["--max-memory".into()]).is_err());
        assert!(take_max_memory(&mut vec!["--max-memory".into(), "x".into()]).is_err());
        assert_eq!(take_max_memory(&mut vec!["-f".into(), "c".into()]), Ok(None));
    }

    #[test]
    fn ds_s_own_options_are_known() {
        for own in ["--sandbox", "--timeout=5", "--max-memory", "-i", "-e", "--help"] {
            assert!(is_own_option(own), "{own}");
        }
        for theirs in ["--verbose", "x", "-", "--", "-q", "--sandboxed"] {
            assert!(!is_own_option(theirs), "{theirs}");
        }
    }

    #[test]
    fn sizes_read_with_their_units() {
        assert_eq!(parse_bytes("50000000"), Ok(50_000_000));
        assert_eq!(parse_bytes("2G"), Ok(2 << 30));
        assert_eq!(parse_bytes("512K"), Ok(512 << 10));
        assert!(parse_bytes("0").is_err() && parse_bytes("1.5G").is_err() && parse_bytes("-1").is_err());
        assert!(parse_bytes("99999999999999999999").is_err());
    }
}

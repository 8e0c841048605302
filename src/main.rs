//! The `ds` command line: run a file, a snippet, check a file, or open the REPL; `ds lsp` is
//! the language server. The options' shape is in `cli.rs`; what ds needs from the system
//! (stack, heap limit, signals, output, watchdog) in `ds::host`.

mod cli;
mod plan;

use cli::{Cli, Command};
use ds::diagnostics::Limit;
use ds::eval::Limits;
use ds::host::{self, memory, output, signals, watchdog};
use ds::search::workers;
use ds::session::Stage;
use ds::{repl, Outcome, Session};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Every heap allocation is counted, for `--max-memory` (`host::memory`).
#[global_allocator]
static HEAP: memory::Counting = memory::Counting;

/// Rust's runtime points a closed standard output at /dev/null before `main`; this ELF
/// initialiser runs before that, so that `ds x >&-` reports that it cannot print.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static NOTE_CLOSED_STDOUT: extern "C" fn() = output::note_closed_stdout;

/// A year: longer is surely a mistake (and 1e19 s is past what the clock can add).
const MAX_TIMEOUT: f64 = 365.0 * 24.0 * 3600.0;
/// The default of `--max-depth` (docs/language.md, decision 10: at least 10,000 where the stack
/// allows it).
const DEFAULT_DEPTH: usize = 10_000;
/// The native stack one demon call takes at least (a demon that only calls itself takes about
/// 1.5 KB): `--max-depth` is refused when the stack cannot hold that many.
const FRAME_BYTES: usize = 1536;

fn main() -> ExitCode {
    let cli = match cli::parse(std::env::args_os().collect()) {
        Command::Lsp => return ExitCode::from(ds::run_on_big_stack(ds::lsp::run)),
        Command::Explore(args) => return ExitCode::from(ds::run_on_big_stack(move || explore(args))),
        Command::Kernel(args) => return ExitCode::from(kernel(args)),
        Command::Grade(args) => return ExitCode::from(grade(args)),
        Command::Plan(args) => return ExitCode::from(plan::main(args)),
        Command::Run(cli) => cli,
    };
    let deadline = match deadline(cli.timeout) {
        Ok(d) => d,
        Err(status) => return ExitCode::from(status),
    };
    if let Err(status) = set_heap_limit(cli.max_memory) {
        return ExitCode::from(status);
    }
    match host::try_run_on_big_stack(move || run(*cli, deadline)) {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            ds::eprintln_safe!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `ds grade`: the students' programs get the CLI's default heap limit and the big stack, so
/// that one that allocates or recurses without end fails its test instead of the grading.
fn grade(mut args: Vec<String>) -> u8 {
    // (`--max-memory` is taken here, where the heap limit is set; `ds grade` lists it in its help)
    let asked = match cli::take_max_memory(&mut args) {
        Ok(asked) => asked,
        Err(e) => {
            ds::eprintln_safe!("error: {e}");
            return 2;
        }
    };
    if let Err(status) = set_heap_limit(asked) {
        return status;
    }
    match host::try_run_on_big_stack(move || ds::grade::main(args)) {
        Ok(status) => status,
        Err(e) => {
            ds::eprintln_safe!("error: {e}");
            2
        }
    }
}

/// When `--timeout` ends the run; `Err(2)` for a value out of range.
fn deadline(timeout: Option<f64>) -> Result<Option<Instant>, u8> {
    let Some(s) = timeout else { return Ok(None) };
    match Duration::try_from_secs_f64(s).ok().and_then(|d| Instant::now().checked_add(d)) {
        Some(at) if s <= MAX_TIMEOUT => Ok(Some(at)),
        _ => {
            ds::eprintln_safe!("error: --timeout takes a number of seconds from 0 to {MAX_TIMEOUT}");
            Err(2)
        }
    }
}

/// The least heap a limited address space must leave: below it, not even a small script runs,
/// and ds refuses to start (a failure of the environment, exit status 2).
const MIN_HEAP: usize = 4 << 20;

/// The heap limit and where it comes from: `--max-memory` (or by default a share of the
/// machine's memory, `host::machine`), and below what a limited address space (`ulimit -v`)
/// can hold besides the interpreter's stack and the program itself (its code, libraries and
/// the allocator's reserves: 128 MB, or a third of a small limit), so that the script stops
/// with an error before an allocation fails (which would abort the process).
fn heap_limit(asked: Option<usize>) -> (Option<usize>, memory::Source) {
    use memory::Source;
    let room = host::address_space_limit().map(|limit| {
        let stack = host::wanted_stack();
        // glibc gives the interpreter's thread an arena of its own, 64 MB of address space,
        // only when there is room for it: under a small limit there is none, and the program
        // takes far less (found by trying limits from 20 MB up).
        let program = if limit >= stack + (144 << 20) { 128 << 20 } else { limit / 3 };
        limit.saturating_sub(stack).saturating_sub(program) / 4 * 3
    });
    let wanted = match asked {
        Some(a) => Some((a, Source::Asked)),
        None => host::machine::default_heap_limit().map(|d| (d, Source::Default)),
    };
    match (wanted, room) {
        (Some((w, source)), Some(r)) if w <= r => (Some(w), source),
        (_, Some(r)) => (Some(r), Source::AddressSpace),
        (Some((w, source)), None) => (Some(w), source),
        (None, None) => (None, Source::Asked),
    }
}

/// Sets the heap limit (`heap_limit`); `Err(2)` when a limited address space leaves too little.
fn set_heap_limit(asked: Option<usize>) -> Result<(), u8> {
    let (limit, source) = heap_limit(asked);
    if let Some(room) = limit.filter(|&l| l < MIN_HEAP && source == memory::Source::AddressSpace) {
        ds::eprintln_safe!(
            "error: the address-space limit (ulimit -v) leaves {} MB of heap; ds needs at least {} MB",
            room >> 20,
            MIN_HEAP >> 20
        );
        return Err(2);
    }
    memory::set_limit(limit, source);
    Ok(())
}

/// `ds kernel [--max-memory BYTES] ...`: the kernel's cells have the heap limit of a run.
fn kernel(mut args: Vec<String>) -> u8 {
    let asked = match cli::take_max_memory(&mut args) {
        Ok(asked) => asked,
        Err(e) => {
            ds::eprintln_safe!("error: {e}\n{}", ds::kernel::USAGE);
            return 2;
        }
    };
    if let Err(status) = set_heap_limit(asked) {
        return status;
    }
    ds::run_on_big_stack(move || ds::kernel::main(args))
}

/// `--max-depth`, or its default, checked against the stack the interpreter thread got.
fn max_depth(asked: Option<usize>) -> Result<usize, String> {
    let holds = host::stack_size() / FRAME_BYTES;
    match asked {
        None => Ok(DEFAULT_DEPTH.min(holds).max(1)),
        Some(n) if n <= holds => Ok(n),
        Some(n) => Err(format!(
            "--max-depth {n} is more demon calls than the stack can hold here (at most {holds}, with {} MB of stack)",
            host::stack_size() >> 20
        )),
    }
}

/// Standard output, for the last words of a process the system refused memory.
static STDOUT: std::sync::OnceLock<output::Stdout> = std::sync::OnceLock::new();

/// An allocation the system refused (an address-space limit, memory exhausted beyond
/// `--max-memory`): the output so far is kept and the run ends as a script error.
fn out_of_memory(size: usize) -> ! {
    if let Some(out) = STDOUT.get() {
        out.try_flush();
    }
    // No allocation from here on: the message is put together in place.
    let mut message = [0u8; 96];
    let head = b"error: out of memory: the system refused an allocation of ";
    message[..head.len()].copy_from_slice(head);
    let mut at = head.len();
    let mut digits = [0u8; 20];
    let mut n = size;
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for i in (0..count).rev() {
        message[at] = digits[i];
        at += 1;
    }
    for &b in b" bytes\n" {
        message[at] = b;
        at += 1;
    }
    // SAFETY: a plain write of a ready buffer, then the end of the process.
    unsafe {
        libc::write(2, message.as_ptr().cast(), at);
        libc::_exit(1)
    }
}

fn run(cli: Cli, deadline: Option<Instant>) -> u8 {
    let color = std::io::stderr().is_terminal();
    let stdout = output::Stdout::new();
    let _ = STDOUT.set(stdout.clone());
    memory::on_failure(out_of_memory);
    let mut session = Session::new(Box::new(stdout.clone()));
    ds::lend(&mut session.interp);
    if let Err(status) = configure(&cli, deadline, &mut session) {
        return status;
    }
    let (name, src) = match script(&cli, deadline, &mut session) {
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
    // No one at the controls: a signal ends the run, also when a search was what it stopped.
    session.interp.limits_mut().interrupt_ends_run = true;
    let files = session.interp.files().boxed_clone();
    let (script_dir, limits) = (session.interp.script_dir.clone(), session.interp.limits().clone());
    let threads = workers::of(&mut session.interp);
    threads.default = cli.threads.map_or(1, usize::from);
    threads.workers = Some(std::sync::Arc::new(ds::workers::Replay {
        name: name.clone(),
        src: src.clone(),
        args: cli.args.clone(),
        script_dir,
        limits,
        deny_warnings: cli.deny_warnings,
        files,
    }));
    // SIGINT, SIGTERM and SIGHUP stop the script like --timeout; the watchdog makes sure
    // they (and the deadline) end the process even if the script cannot notice them.
    let interrupt = session.interp.interrupt.clone();
    if !signals::install(interrupt.clone(), signals::WhenIdle::Exit) {
        ds::eprintln_safe!("note: signals keep their default effect (the handlers could not be installed)");
    }
    signals::set_busy(true);
    watchdog::start(stdout, deadline, interrupt.clone());
    if let Err(status) = join_processes(&cli, deadline, &interrupt, &mut session) {
        return status;
    }
    let status = run_script(&mut session, &name, &src, color);
    if let Some(cluster) = workers::of(&mut session.interp).cluster.take() {
        cluster.finish(&|| interrupt.load(std::sync::atomic::Ordering::Relaxed));
    }
    status
}

/// `--processes N --process I --hostfile FILE`: connects to the other processes; every process
/// but the first runs the script quietly (docs/search.md).
fn join_processes(
    cli: &Cli,
    deadline: Option<Instant>,
    interrupt: &std::sync::Arc<std::sync::atomic::AtomicBool>,
    session: &mut Session,
) -> Result<(), u8> {
    let (Some(n), Some(me), Some(hostfile)) = (cli.processes, cli.process, &cli.hostfile) else { return Ok(()) };
    let fail = |message: String| {
        ds::eprintln_safe!("error: {message}");
        2
    };
    if me >= n {
        return Err(fail(format!("--process {me} is not one of the {n} processes (0 to {})", n - 1)));
    }
    if n == 1 {
        return Ok(());
    }
    let hosts = ds::cluster::read_hostfile(hostfile, n as usize).map_err(fail)?;
    let stop = || interrupt.load(std::sync::atomic::Ordering::Relaxed) || deadline.is_some_and(|d| Instant::now() >= d);
    let cluster = ds::cluster::Timely::connect(&hosts, me as usize, &stop)
        .map_err(|e| fail(format!("process {me} of {n}: {e}")))?;
    workers::of(&mut session.interp).cluster = Some(Box::new(cluster));
    if me > 0 {
        session.interp.quiet = ds::eval::Quiet::Discard;
        session.interp.warnings.sink = Box::new(std::io::sink());
    }
    Ok(())
}

/// `--dump STAGE`: the stage on standard output (status 0), or the errors that stop it (1).
fn dump(session: &mut Session, name: &str, src: &str, stage: cli::DumpStage, color: bool) -> u8 {
    let stage = match stage {
        cli::DumpStage::Tokens => Stage::Tokens,
        cli::DumpStage::Ast => Stage::Ast,
        cli::DumpStage::Ir => Stage::Ir,
    };
    match session.dump(name, src, stage) {
        Ok(text) => {
            let _ = session.interp.out.write_all(text.as_bytes());
            finish_output(session, 0)
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
    let args_after_dashes = args.iter().position(|a| a == "--").map_or(0, |at| args.len() - at - 1);
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
    let cli = match cli::parse_run("ds explore", rest) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            for (flag, near) in &options.misspelt {
                ds::eprintln_safe!("note: `{flag}` is not an option of ds explore either (did you mean `{near}`?)");
            }
            return 2;
        }
    };
    for (flag, near) in &options.misspelt {
        if cli.args.iter().any(|a| a == flag || a.starts_with(&format!("{flag}="))) {
            ds::eprintln_safe!(
                "note: `{flag}` is not an option of ds explore: it goes to the script (did you mean `{near}`?)"
            );
        }
    }
    // `ds explore FILE --sandbox` would give `--sandbox` to the script and run it unsandboxed.
    // (What follows `--` is the script's, whatever it looks like.)
    let escaped = args_after_dashes.min(cli.args.len());
    if let Some(option) = cli.args[..cli.args.len() - escaped].iter().find(|a| cli::is_own_option(a)) {
        ds::eprintln_safe!(
            "error: `{option}` comes after FILE, where it would go to the script: ds's options go before FILE \
             (ds explore {option} ... FILE); an argument for the script that looks like one goes after `--` \
             (ds explore FILE -- {option})\n{}",
            ds::explore::USAGE
        );
        return 2;
    }
    let Some(file) =
        cli.file.clone().filter(|_| cli.code.is_none() && !cli.check && !cli.interactive && cli.dump.is_none())
    else {
        ds::eprintln_safe!("error: ds explore runs a FILE (not -e, --check, --dump or -i)\n{}", ds::explore::USAGE);
        return 2;
    };
    let deadline = match deadline(cli.timeout) {
        Ok(d) => d,
        Err(status) => return status,
    };
    if let Err(status) = set_heap_limit(cli.max_memory) {
        return status;
    }
    let server = match ds::explore::bind(options.port) {
        Ok(server) => server,
        Err(message) => {
            ds::eprintln_safe!("error: {message}");
            return 2;
        }
    };
    let color = std::io::stderr().is_terminal();
    let mut session = Session::new(Box::new(output::Stdout::new()));
    ds::lend(&mut session.interp);
    if let Err(status) = configure(&cli, deadline, &mut session) {
        return status;
    }
    let (name, src) = match script(&cli, deadline, &mut session) {
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

const EXPLORE_HELP: &str = "Runs FILE (with ARGS), then serves the states reachable from --start (a global or an
expression) under the demon --next on http://127.0.0.1:PORT/ until Ctrl-C; --goal (a demon or
a value) marks goals, --h (a demon) gives A*'s estimate, --view (a demon) draws each state. --port 0 (the default) takes a free port; --max-states
bounds the states stored (default 1000000); --timeout bounds the script's run and each request.
docs/explorer.md describes the page and the JSON API.";

/// Limits, warnings, the sandbox and the script's arguments; `Err(2)` for a bad option value.
fn configure(cli: &Cli, deadline: Option<Instant>, session: &mut Session) -> Result<(), u8> {
    let max_depth = max_depth(cli.max_depth).map_err(|e| {
        ds::eprintln_safe!("error: {e}");
        2
    })?;
    session.set_limits(Limits { max_depth, max_steps: cli.max_steps, deadline, ..Limits::default() });
    session.interp.warnings.deny = cli.deny_warnings;
    session.interp.warnings.color = std::io::stderr().is_terminal();
    session.interp.status_line = Some(host::progress::on_terminal);
    if cli.sandbox {
        let root = match (&cli.code, &cli.file) {
            (None, Some(file)) => Path::new(file).parent().map(Path::to_path_buf).unwrap_or_default(),
            _ => PathBuf::from("."),
        };
        let access = ds::sandbox::Access::Sandbox { root: root.clone() }.resolved();
        if let Err(e) = access.map(|files| session.interp.set_files(Box::new(files))) {
            ds::eprintln_safe!("error: cannot use the folder {} for --sandbox: {e}", root.display());
            return Err(2);
        }
    }
    session.interp.args = cli.args.clone();
    Ok(())
}

/// The code to run (`-e CODE` or FILE) as (name, text); `None` when there is none (the REPL).
fn script(cli: &Cli, deadline: Option<Instant>, session: &mut Session) -> Result<Option<(String, String)>, u8> {
    if let Some(code) = &cli.code {
        return Ok(Some(("<-e>".to_string(), code.clone())));
    }
    let Some(file) = &cli.file else { return Ok(None) };
    // The script's directory, for `File.scriptDir()` (data files next to the script).
    session.interp.script_dir = Path::new(file).parent().map(|p| p.to_path_buf());
    match read_script(file, deadline) {
        Some(Ok(s)) => Ok(Some((file.clone(), s))),
        Some(Err(e)) => {
            ds::eprintln_safe!("error: cannot read {file}: {e}");
            Err(2)
        }
        None => {
            ds::eprintln_safe!("error: time limit reached (--timeout) while reading {file}");
            Err(1)
        }
    }
}

/// The text of the script, read before `deadline` (a FIFO or a pipe may never end, or never
/// start): `None` when the deadline passed first.
fn read_script(file: &str, deadline: Option<Instant>) -> Option<std::io::Result<String>> {
    let read = {
        let file = file.to_string();
        move || ds::sandbox::read_text(Path::new(&file), ds::value::MAX_TEXT)
    };
    let Some(deadline) = deadline else { return Some(read()) };
    let (tx, rx) = std::sync::mpsc::channel();
    // The reader is left blocked if the deadline passes: the process ends soon after.
    let spawned = std::thread::Builder::new().name("ds-read-script".into()).spawn(move || drop(tx.send(read())));
    if let Err(e) = spawned {
        return Some(Err(e));
    }
    rx.recv_timeout(deadline.saturating_duration_since(Instant::now())).ok()
}

/// Runs a script to the end; the exit status (see the command's help).
fn run_script(session: &mut Session, name: &str, src: &str, color: bool) -> u8 {
    let status = match session.run_source(name, src) {
        // the deadline or the step limit passed during a search, which the script then
        // reported: still a run stopped by its limit (issue 41)
        Outcome::Finished(_) if session.interp.limits().search_stopped.is_some() => {
            let _ = session.interp.out.flush();
            let limit = match (session.interp.limits().search_stopped, session.interp.limits().max_steps) {
                (Some(Limit::Steps), Some(n)) => format!("step limit of {n} reached (--max-steps)"),
                _ => "time limit reached (--timeout)".to_string(),
            };
            ds::eprintln_safe!("error: {limit} during a search; the script reported it in its grace");
            1
        }
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
            let limit = d.limit;
            ds::eprint_safe!("{}", session.render(&[*d], color));
            match (limit, signals::received()) {
                (Some(ds::eval::Limit::Interrupt), Some(sig)) => 128 + sig as u8,
                _ => 1,
            }
        }
    };
    finish_output(session, status)
}

/// Flushes the output at the end of a run. A failed write is an error (exit status 1), except
/// a pipe whose reader has gone (`ds x | head -1`), which ends the run quietly.
fn finish_output(session: &mut Session, status: u8) -> u8 {
    match session.interp.out.flush() {
        Ok(()) => status,
        Err(e) if output::broken_pipe(&e) => {
            if status == 0 {
                output::BROKEN_PIPE_STATUS
            } else {
                status
            }
        }
        Err(e) => {
            ds::eprintln_safe!("error: cannot write to standard output: {e}");
            status.max(1)
        }
    }
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

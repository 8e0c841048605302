//! `ds kernel`: a Jupyter kernel (docs/language.md, decision 21). Jupyter starts it as
//! `ds kernel -f CONNECTION_FILE`; `ds kernel --install [--user | --prefix DIR]` writes the
//! kernelspec that tells Jupyter so.
//!
//! The protocol (`server`, over `connection` and `message`) runs on a thread of its own; the
//! cells run one at a time on the interpreter's big-stack thread (`runner`), sharing one
//! session as REPL entries do. `replies` answers what needs no running (completion and
//! inspection from the language server's analysis), `display`, `draw` and `space` show values richly.

//!
//! Without the feature `server` (the ZeroMQ kernel), the crate is only how cells show:
//! `display` (with `draw`, `space`, `views` and `replay`), `failed`, `progress::search_line` and
//! `replies`' completion, inspection and `is_complete`, which build for wasm32-unknown-unknown: the notebook's kernel in the browser
//! (web/src/notebook.rs, docs/kernel.md "In the browser").

pub mod cap;
#[cfg(feature = "server")]
mod connection;
pub mod display;
mod draw;
pub mod failed;
#[cfg(feature = "server")]
mod guard;
#[cfg(feature = "server")]
mod install;
#[cfg(feature = "server")]
mod message;
pub mod progress;
mod replay;
pub mod replies;
#[cfg(feature = "server")]
mod runner;
#[cfg(feature = "server")]
mod server;
mod space;
mod views;

#[cfg(feature = "server")]
pub use connection::Connection;
#[cfg(feature = "server")]
pub use install::Target;
#[cfg(feature = "server")]
use std::path::PathBuf;

#[cfg(feature = "server")]
pub const USAGE: &str =
    "usage: ds kernel [--max-memory BYTES] -f CONNECTION_FILE\n       ds kernel --install [--user | --prefix DIR]";

#[cfg(feature = "server")]
const HELP: &str = "Runs ds as a Jupyter kernel: Jupyter starts `ds kernel -f CONNECTION_FILE` itself once the
kernelspec is installed. --install writes the kernelspec (name `ds`) for this ds: system-wide
by default, for this user with --user, or under DIR/share/jupyter/kernels with --prefix DIR.
--max-memory stops a cell whose heap passes BYTES (a number, or with K, M or G) [default: half of
the machine's memory], as it stops a script.";

#[cfg(feature = "server")]
/// What the arguments after `kernel` ask for.
#[derive(Debug, PartialEq)]
enum Request {
    Run(PathBuf),
    Install(Target),
    Help,
}

#[cfg(feature = "server")]
fn parse_args(args: &[String]) -> Result<Request, String> {
    let mut file = None;
    let mut install = false;
    let mut target = Target::System;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-f" | "--connection-file" => {
                file = Some(PathBuf::from(it.next().ok_or_else(|| format!("`{a}` needs a file"))?));
            }
            "--install" => install = true,
            "--user" => target = Target::User,
            "--prefix" => target = Target::Prefix(PathBuf::from(it.next().ok_or("`--prefix` needs a folder")?)),
            "-h" | "--help" => return Ok(Request::Help),
            other => return Err(format!("unexpected argument `{other}`")),
        }
    }
    match (install, file) {
        (true, None) => Ok(Request::Install(target)),
        (false, Some(f)) if target == Target::System => Ok(Request::Run(f)),
        (true, Some(_)) => Err("`--install` and `-f` do not go together".into()),
        (false, Some(_)) => Err("`--user` and `--prefix` go with `--install`".into()),
        (false, None) => Err("no connection file (`-f FILE`)".into()),
    }
}

#[cfg(feature = "server")]
/// `ds kernel ARGS`: the exit status. Call it on the interpreter's big-stack thread.
pub fn main(args: Vec<String>) -> u8 {
    let request = match parse_args(&args) {
        Ok(r) => r,
        Err(e) => {
            ds_base::eprintln_safe!("error: {e}\n{USAGE}");
            return 2;
        }
    };
    match request {
        Request::Help => {
            ds_base::eprintln_safe!("{USAGE}\n\n{HELP}");
            0
        }
        Request::Install(target) => match install::install(&target) {
            Ok(dir) => {
                ds_base::eprintln_safe!("installed the ds kernelspec in {}", dir.display());
                0
            }
            Err(e) => {
                ds_base::eprintln_safe!("error: {e}");
                1
            }
        },
        Request::Run(file) => match run(&file) {
            Ok(()) => 0,
            Err(e) => {
                ds_base::eprintln_safe!("error: ds kernel: {e}");
                1
            }
        },
    }
}

#[cfg(feature = "server")]
/// Serves Jupyter on the connection file's ports until it shuts the kernel down.
fn run(file: &std::path::Path) -> Result<(), String> {
    let conn = Connection::read(file)?;
    let (events_tx, events_rx) = tokio::sync::mpsc::unbounded_channel();
    let (jobs_tx, jobs_rx) = std::sync::mpsc::channel();
    let runner = runner::Runner::new(events_tx);
    let link =
        server::Link { jobs: jobs_tx, events: events_rx, interrupt: runner.interrupt_flag(), cells: runner.cells() };
    let _protocol = server::start(conn, link)?;
    runner.serve(jobs_rx);
    Ok(())
}

#[cfg(feature = "server")]
/// What the kernel does with bytes from the network, short of running a cell: the guard reads
/// them as a ZMTP stream; split at each 0 byte, they are the frames of a message, decoded
/// (unsigned, and signed with a key) and, if well formed, answered as completion, inspection,
/// `is_complete` and the like are. For the fuzz target `kernel_message` (fuzz/): any input
/// must be refused or answered, never panic. Run on a thread with a large stack, as the kernel
/// answers on one.
#[doc(hidden)]
pub fn fuzz_message(data: &[u8]) {
    let mut stream = guard::Frames::default();
    let _ = stream.feed(data);
    let frames: Vec<bytes::Bytes> = data.split(|&b| b == 0).map(bytes::Bytes::copy_from_slice).collect();
    let Ok(raw) = zeromq::ZmqMessage::try_from(frames) else { return };
    for key in ["", "key"] {
        if let Ok(m) = message::Signer::new(key).decode(raw.clone()) {
            let _ = replies::answer(&m, "var Known = 1\ndef known(X) { return X }\n");
        }
    }
}

#[cfg(all(test, feature = "server"))]
mod tests {

    /// How many mutants the campaign runs: `DS_MUTANTS` when set (a longer campaign by hand),
    /// else a few seconds' worth.
    fn mutants(default: usize) -> usize {
        std::env::var("DS_MUTANTS").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
    }
    use super::*;

    fn parse(args: &[&str]) -> Result<Request, String> {
        parse_args(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn the_command_line_of_the_kernel() {
        assert_eq!(parse(&["-f", "c.json"]), Ok(Request::Run("c.json".into())));
        assert_eq!(parse(&["--install", "--user"]), Ok(Request::Install(Target::User)));
        assert_eq!(parse(&["--install", "--prefix", "/v"]), Ok(Request::Install(Target::Prefix("/v".into()))));
        assert_eq!(parse(&["--install"]), Ok(Request::Install(Target::System)));
        assert!(parse(&[]).unwrap_err().contains("connection file"));
        assert!(parse(&["-f"]).is_err());
        assert!(parse(&["--user", "-f", "c"]).is_err());
        assert!(parse(&["--bogus"]).unwrap_err().contains("--bogus"));
    }

    /// A short fuzzing campaign in the tests: seeded mutations of well-formed messages (the fuzz
    /// target `kernel_message` runs the same function under libFuzzer).
    #[test]
    fn mutated_messages_are_refused_or_answered() {
        let seeds: Vec<Vec<u8>> = ["complete_request", "inspect_request", "is_complete_request", "kernel_info_request"]
            .iter()
            .map(|t| {
                let header = format!(r#"{{"msg_id":"1","msg_type":"{t}","session":"s","version":"5.3"}}"#);
                let content = r#"{"code":"out Kno + f(1, [2, {\"a\": 3}])","cursor_pos":7}"#;
                [b"id".as_slice(), b"<IDS|MSG>", b"", header.as_bytes(), b"{}", b"{}", content.as_bytes()].join(&0u8)
            })
            .collect();
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n.max(1) as u64) as usize
        };
        let run = |data: Vec<u8>| {
            let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || fuzz_message(&data));
            worker.expect("a thread").join().expect("no panic");
        };
        for i in 0..mutants(2000) {
            let mut data = seeds[i % seeds.len()].clone();
            for _ in 0..1 + next(4) {
                let at = next(data.len() + 1);
                match next(5) {
                    0 if at < data.len() => data[at] = next(256) as u8,
                    1 if at < data.len() => drop(data.remove(at)),
                    2 => data.insert(at, [b'{', b'"', b'[', 0, b'\\', 0xff][next(6)]),
                    3 => {
                        let end = (at + next(40)).min(data.len());
                        let piece = data[at.min(end)..end].to_vec();
                        data.splice(at..at, piece);
                    }
                    _ => data.truncate(at),
                }
            }
            run(data);
        }
    }
}

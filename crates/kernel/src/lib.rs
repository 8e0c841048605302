//! `ds kernel`: a Jupyter kernel (docs/language.md, decision 21). Jupyter starts it as
//! `ds kernel -f CONNECTION_FILE`; `ds kernel --install [--user | --prefix DIR]` writes the
//! kernelspec that tells Jupyter so.
//!
//! The protocol (`server`, over `connection` and `message`) runs on a thread of its own; the
//! cells run one at a time on the interpreter's big-stack thread (`runner`), sharing one
//! session as REPL entries do. `replies` answers what needs no running (completion and
//! inspection from the language server's analysis), `display`, `draw` and `space` show values richly.

mod connection;
mod display;
mod draw;
mod install;
mod message;
mod replay;
mod replies;
mod runner;
mod server;
mod space;
mod views;

pub use connection::Connection;
pub use install::Target;

use std::path::PathBuf;

pub const USAGE: &str = "usage: ds kernel -f CONNECTION_FILE\n       ds kernel --install [--user | --prefix DIR]";

const HELP: &str = "Runs ds as a Jupyter kernel: Jupyter starts `ds kernel -f CONNECTION_FILE` itself once the
kernelspec is installed. --install writes the kernelspec (name `ds`) for this ds: system-wide
by default, for this user with --user, or under DIR/share/jupyter/kernels with --prefix DIR.";

/// What the arguments after `kernel` ask for.
#[derive(Debug, PartialEq)]
enum Request {
    Run(PathBuf),
    Install(Target),
    Help,
}

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

#[cfg(test)]
mod tests {
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
}

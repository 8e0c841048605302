//! Output is never lost and never silently dropped (docs/language.md, decision 11): SIGINT, SIGTERM
//! and SIGHUP stop a run like `--timeout` with the output flushed; a failed write is an error;
//! a closed pipe ends the run quietly; notes on standard error stay in order with the output.

use crate::common::{run_within, Run};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BUSY: &str = "out \"start\"\nvar i = 0\nwhile True { i++ }\n";

/// Starts `ds -e SRC` with its output in a file, waits until it has printed `start`, sends
/// `signal`, and returns how it ended.
fn signalled(src: &str, signal: i32, extra: &[&str]) -> (Option<i32>, String, String) {
    // (a folder per test and signal: the tests run at once, in one process)
    let tag = src.len();
    let dir = std::env::temp_dir().join(format!("ds-output-{}-{signal}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let (out, err) = (dir.join("out"), dir.join("err"));
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(extra)
        .args(["-e", src])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).expect("out"))
        .stderr(std::fs::File::create(&err).expect("err"))
        .spawn()
        .expect("run ds");
    // Wait a moment for the loop to be running.
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on the child we started.
    unsafe { libc::kill(child.id() as i32, signal) };
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("ds did not stop on signal {signal}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let read = |p: &std::path::Path| std::fs::read_to_string(p).unwrap_or_default();
    (status.code(), read(&out), read(&err))
}

#[test]
fn signals_stop_the_run_with_the_output_flushed() {
    // `ds FILE > out` then Ctrl-C left `out` empty: the buffer was never written.
    for (signal, name, status) in
        [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143), (libc::SIGHUP, "SIGHUP", 129)]
    {
        let (code, out, err) = signalled(BUSY, signal, &[]);
        assert_eq!(code, Some(status), "{name}: {err}");
        assert_eq!(out, "start\n", "{name}");
        assert!(err.contains(&format!("error: interrupted ({name})")), "{name}: {err}");
        assert!(err.contains("while True { i++ }"), "{name}: the place is shown: {err}");
    }
}

#[test]
fn a_signal_that_stops_a_search_ends_a_plain_run() {
    // Issue 41: the search took the signal (reason `interrupted`) and the script went on, to
    // exit 0. Only the REPL and `ds -i` keep going (repl_backend.rs).
    let search = "out \"start\"\nvar r = Search.bfs(0, (n) => [n + 1, n + 2], -1)\nout \"after\", r\n";
    for (signal, name, status) in [(libc::SIGINT, "SIGINT", 130), (libc::SIGTERM, "SIGTERM", 143)] {
        let (code, out, err) = signalled(search, signal, &[]);
        assert_eq!((code, out.as_str()), (Some(status), "start\n"), "{name}: {err}");
        assert!(err.contains(&format!("error: interrupted ({name})")), "{name}: {err}");
    }
}

#[test]
fn a_run_that_cannot_notice_a_signal_or_the_deadline_still_ends() {
    // A read from a pipe that never ends: the watchdog ends the run, with the output kept.
    let reading = "out \"start\"\nvar F = File.open(\"/dev/stdin\")\nout F.in()\n";
    let dir = std::env::temp_dir().join(format!("ds-output-stuck-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let out = dir.join("out");
    // Standard input is a pipe this test keeps open and never writes to.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["--timeout", "0.5", "-e", reading])
        .stdin(Stdio::piped())
        .stdout(std::fs::File::create(&out).expect("out"))
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ds");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > Duration::from_secs(40) {
            let _ = child.kill();
            panic!("ds did not end");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    child.stderr.take().expect("stderr").read_to_string(&mut err).expect("stderr");
    assert_eq!(status.code(), Some(1), "{err}");
    assert_eq!(std::fs::read_to_string(&out).expect("out"), "start\n");
    assert!(err.contains("time limit reached (--timeout), and the script did not stop by itself"), "{err}");
}

#[test]
fn a_failed_write_is_an_error() {
    // `> /dev/full` exited 0 with the output gone.
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).args(["-e", "out \"hello\""]).stdout(full).output().expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write to standard output"));
    // A closed standard output (`>&-`): Rust's runtime would have pointed it at /dev/null.
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg("exec \"$0\" -e 'out \"hello\"' >&-").arg(env!("CARGO_BIN_EXE_ds"));
    let r = run_within(cmd, 30);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("cannot write to standard output"), "{}", r.stderr);
    // A script that prints nothing does not mind.
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg("exec \"$0\" -e 'var x = 1' >&-").arg(env!("CARGO_BIN_EXE_ds"));
    assert_eq!(run_within(cmd, 30).code, Some(0));
}

#[test]
fn a_closed_pipe_ends_the_run_quietly() {
    // `ds ... | head -1`: the first line, then an end without error text (status 141, as if
    // SIGPIPE had ended it), however much the script meant to print.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["-e", "for i in range(100000000) { out i }"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ds");
    let mut first = [0u8; 2];
    child.stdout.as_mut().expect("stdout").read_exact(&mut first).expect("read");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    assert_eq!(&first, b"0\n");
    assert_eq!(out.status.code(), Some(141));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

fn both_streams(src: &str) -> Run {
    // Standard output and error into one pipe, as on a terminal or with `2>&1`.
    let mut cmd = Command::new("sh");
    cmd.arg("-c").arg("exec \"$0\" -e \"$1\" 2>&1").arg(env!("CARGO_BIN_EXE_ds")).arg(src);
    run_within(cmd, 30)
}

/// The notes go through the interpreter's writer for them (standard error unless a session
/// gives another), in order with the output.
#[test]
fn notes_go_to_the_writer_the_session_gives() {
    #[derive(Clone, Default)]
    struct Shared(std::rc::Rc<std::cell::RefCell<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let (out, notes) = (Shared::default(), Shared::default());
    let mut session = ds::Session::new(Box::new(out.clone()));
    session.interp.set_notes(Box::new(notes.clone()));
    let src = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\nG.verbose(2)\nout \"one\"\na on b\n";
    assert!(matches!(session.run_source("notes.ds", src), ds::Outcome::Finished(_)));
    assert_eq!(String::from_utf8_lossy(&out.0.borrow()), "one\n");
    assert_eq!(String::from_utf8_lossy(&notes.0.borrow()), "note: new edge a on b = True in graph G\n");
}

#[test]
fn notes_on_standard_error_stay_in_order_with_the_output() {
    // G.verbose notes went out at once while the lines printed before them waited in a buffer.
    let src = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\nG.verbose(2)\n\
               out \"one\"\na on b\nout \"two\"\na on b = False\nout \"three\"\n";
    let r = both_streams(src);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{}", r.stdout);
    assert_eq!(lines[0], "one");
    assert!(lines[1].starts_with("note: new edge a on b"), "{}", r.stdout);
    assert_eq!(lines[2], "two");
    assert!(lines[3].starts_with("note: edge a on b changed"), "{}", r.stdout);
    assert_eq!(lines[4], "three");
    // Warnings found while running, and the error at the end, come after the output too.
    let r = both_streams("out \"first\"\nvar x = 1 / 0\n");
    assert!(r.stdout.starts_with("first\nerror: division by zero"), "{}", r.stdout);
}

#[test]
fn output_written_before_a_long_computation_is_sent_while_it_runs() {
    // stdout is a pipe, so block-buffered: the line printed first must still come out while
    // the loop runs (within about 75 ms of its writing), not when the run ends.
    let src = "out \"first\"\nvar I = 0\nwhile I < 150000000 { I = I + 1 }\nout \"second\"\n";
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["-e", src])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run ds");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 6];
    stdout.read_exact(&mut first).expect("the first line");
    let first_at = started.elapsed();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("the rest");
    child.wait().expect("ds ends");
    let ended_at = started.elapsed();
    assert_eq!((&first, rest.as_str()), (b"first\n", "second\n"));
    assert!(first_at * 2 < ended_at, "the first line came after {first_at:?}, the run ended after {ended_at:?}");
}

//! The REPL at a terminal, end to end through a pseudo-terminal: prompts, multi-line entries,
//! errors, Ctrl-C during an evaluation and at the prompt, completion, Ctrl-D and history.
//!
//! Each step waits for what the previous one printed before typing on: the line editor may drop
//! typeahead that arrives together with an Enter. Output is matched with colours stripped, and
//! on strings that the typed text itself does not contain (`6*7` is typed, `42` printed).

use rexpect::reader::Options;
use rexpect::session::{spawn_with_options, PtySession};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Generous: a slow machine must not fail a test; a hang still ends.
const TIMEOUT_MS: u64 = 120_000;

/// A fresh data directory per test, so the user's history is neither read nor written.
fn data_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ds-repl-pty-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// Starts `ds ARGS` at a terminal; returns it at its first prompt, with what it printed before.
fn start(args: &[&str], data: &Path) -> (PtySession, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds"));
    cmd.args(args).current_dir(env!("CARGO_MANIFEST_DIR")).env("XDG_DATA_HOME", data).env("TERM", "xterm");
    let options = Options::new().timeout_ms(Some(TIMEOUT_MS)).strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).expect("start ds in a pty");
    let before = p.exp_string("ds> ").expect("first prompt");
    (p, before)
}

/// Types a line and Enter, and waits until the editor has taken it: the line editor writes
/// no newline before that (it redraws the line in place as it is typed).
fn type_line(p: &mut PtySession, line: &str) {
    p.send_line(line).expect("send");
    p.flush().expect("flush");
    p.exp_string("\n").unwrap_or_else(|e| panic!("{line:?} was not taken: {e}"));
}

/// Types an entry line; waits for `shows` (if any) and then the next prompt.
fn entry(p: &mut PtySession, line: &str, shows: &str) {
    type_line(p, line);
    if !shows.is_empty() {
        p.exp_string(shows).unwrap_or_else(|e| panic!("after {line:?}, expected {shows:?}: {e}"));
    }
    p.exp_string("ds> ").unwrap_or_else(|e| panic!("no prompt after {line:?}: {e}"));
}

/// Types a line that leaves the entry open: the continuation prompt follows.
fn open_line(p: &mut PtySession, line: &str) {
    type_line(p, line);
    p.exp_string("..> ").unwrap_or_else(|e| panic!("no continuation prompt after {line:?}: {e}"));
}

/// Types text without Enter.
fn type_text(p: &mut PtySession, text: &str) {
    p.send(text).expect("send");
    p.flush().expect("flush");
}

fn quit(mut p: PtySession) {
    p.send_control('d').expect("Ctrl-D");
    p.exp_eof().expect("ds ends on Ctrl-D");
}

#[test]
fn values_multi_line_entries_and_errors() {
    let data = data_dir("basic");
    let (mut p, _) = start(&[], &data);
    entry(&mut p, "6*7", "42");
    open_line(&mut p, "def sq(x) {");
    open_line(&mut p, "   return x * x");
    entry(&mut p, "}", "");
    entry(&mut p, "sq(12)", "144");
    entry(&mut p, "nosuch + 1", "unknown name `nosuch`");
    open_line(&mut p, "var A = [10,");
    entry(&mut p, "  32]", "");
    entry(&mut p, "A[0] + A[1]", "42");
    quit(p);
    let history = std::fs::read_to_string(data.join("ds").join("history")).expect("history saved");
    assert!(history.contains("sq(12)"), "{history}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn ctrl_c_stops_an_endless_loop_and_drops_an_unfinished_entry() {
    let data = data_dir("ctrlc");
    let (mut p, _) = start(&[], &data);
    // The marker is printed only once the loop's entry is running.
    type_line(&mut p, "out \"spin\" + \"ning\"; while True {}");
    p.exp_string("spinning").expect("the loop started");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("interrupted").expect("the loop was interrupted");
    p.exp_string("ds> ").expect("prompt after the interrupt");
    entry(&mut p, "40 + 2", "42");
    // At the prompt, Ctrl-C drops the entry being typed, not the session.
    open_line(&mut p, "def unfinished(x) {");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("ds> ").expect("a fresh prompt");
    entry(&mut p, "50 - 8", "42");
    quit(p);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn tab_completes_demons_and_members() {
    let data = data_dir("tab");
    let (mut p, _) = start(&[], &data);
    entry(&mut p, "def uniquedemon(x) : return x + 1", "");
    type_text(&mut p, "uniqued\t");
    // Completion is seen by its effect: the call runs.
    entry(&mut p, "(4241)", "4242");
    type_text(&mut p, "Math.sq\t");
    entry(&mut p, "(1764)", "42");
    type_line(&mut p, ":quit");
    p.exp_eof().expect("ds ends on :quit");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_second_farmer_after_ds_i() {
    let data = data_dir("wolf");
    let (mut p, before) = start(&["-i", "scripts/wolf.ds"], &data);
    assert!(before.contains("Close: 27 0"), "the script ran first: {before}");
    for line in ["GRAPH = Start", "nodes s", "s isa Sen=>$human", "s on $1"] {
        entry(&mut p, line, "");
    }
    type_line(&mut p, "out solver(Start).name()");
    p.exp_string("Close: 154 8").expect("the solver's queue sizes");
    p.exp_string("Start;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p").expect("the two-farmer answer");
    p.exp_string("ds> ").expect("prompt");
    quit(p);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_long_search_shows_its_progress_on_a_terminal() {
    // An endless search, stopped by --timeout after 3 s: after a second the live line shows.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds"));
    cmd.args(["--timeout", "3", "-e", "Search.bfs(1, (n) => [n + 1], -1)\nout Search.stats()[\"reason\"]"]);
    let options = Options::new().timeout_ms(Some(TIMEOUT_MS)).strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).expect("start ds in a pty");
    p.exp_string("states/s").expect("the progress line");
    p.exp_string("timeout").expect("the search stopped cleanly at the time limit");
    p.exp_eof().expect("ds ends");
}

#[test]
fn lines_pasted_at_once_are_all_read() {
    // Without bracketed paste the line editor read ahead and dropped what followed the first
    // line: 199 of 202 pasted lines vanished.
    let data = data_dir("paste");
    let (mut p, _) = start(&[], &data);
    let mut pasted = String::from("var total = 0\n");
    for i in 1..=200 {
        pasted.push_str(&format!("total = total + {i}\n"));
    }
    pasted.push_str("out \"sum\", total * 1\n");
    type_text(&mut p, &pasted);
    p.exp_string("sum 20100").expect("every pasted line ran");
    p.exp_string("ds> ").expect("prompt");
    quit(p);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn a_byte_that_is_not_utf8_drops_the_entry_not_the_session() {
    let data = data_dir("utf8");
    let (mut p, _) = start(&[], &data);
    p.send("1 + ").expect("send");
    // A lone continuation byte, then Enter.
    std::io::Write::write_all(&mut p.stream.writer, b"\x80\r").expect("write");
    p.flush().expect("flush");
    p.exp_string("not UTF-8").expect("the bad line is reported");
    entry(&mut p, "20 + 22", "42");
    quit(p);
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn system_exit_ends_the_session_with_its_status() {
    let data = data_dir("exit");
    let (mut p, _) = start(&[], &data);
    type_line(&mut p, "System.exit(7)");
    p.exp_eof().expect("the session ends");
    let status = p.process.wait().expect("status");
    assert!(matches!(status, rexpect::process::wait::WaitStatus::Exited(_, 7)), "{status:?}");
    let _ = std::fs::remove_dir_all(&data);
}

#[test]
fn output_on_a_terminal_appears_line_by_line() {
    // On a terminal the whole output waited in a buffer: a user watching a long search saw
    // nothing. The first line must show while the script still runs.
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds"));
    cmd.args(["-e", "out \"first line\"\nvar i = 0\nwhile True { i++ }"]);
    let options = Options::new().timeout_ms(Some(TIMEOUT_MS)).strip_ansi_escape_codes(true);
    let mut p = spawn_with_options(cmd, options).expect("start ds in a pty");
    p.exp_string("first line").expect("the line shows while the loop runs");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("interrupted").expect("Ctrl-C stops the script");
    p.exp_eof().expect("ds ends");
}

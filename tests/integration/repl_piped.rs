//! The REPL reading piped standard input: entries line by line, no prompts on stdout.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `ds ARGS` with `input` on standard input.
fn ds(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ds");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write input");
    child.wait_with_output().expect("wait for ds")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const ONE_FARMER: &str =
    "Start;f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p";
const TWO_FARMERS: &str = "Start;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p";

#[test]
fn a_second_farmer_after_running_wolf() {
    let entries = "GRAPH = Start\nnodes s\ns isa Sen=>$human\ns on $1\nout solver(Start).name()\n";
    let o = ds(&["-i", "scripts/wolf.ds"], entries);
    assert_eq!(stderr(&o), "");
    let expected = format!("Close: 27 0\n{ONE_FARMER}\nClose: 154 8\n{TWO_FARMERS}\n");
    assert_eq!(stdout(&o), expected);
    assert!(o.status.success());
}

#[test]
fn no_prompts_only_values() {
    let o = ds(&[], "var x = 20\nx * 2 + 2\n\nout \"done\"\n");
    assert_eq!(stdout(&o), "42\ndone\n");
    assert_eq!(stderr(&o), "");
    assert!(o.status.success());
}

#[test]
fn multi_line_entries() {
    let input = "def twice(x)\n{\n   return x * 2\n}\nvar A = [1,\n  2]\ntwice(A[1] +\n  19)\n";
    let o = ds(&[], input);
    assert_eq!(stderr(&o), "");
    assert_eq!(stdout(&o), "42\n");
}

#[test]
fn an_error_does_not_end_the_session() {
    let o = ds(&[], "var x = 1\nx +* 2\nnosuch(3)\nout x + 1\n");
    let err = stderr(&o);
    assert!(err.contains("<repl:2>:1:4"), "{err}");
    assert!(err.contains("unknown"), "{err}");
    assert_eq!(stdout(&o), "2\n");
    assert_eq!(o.status.code(), Some(1), "a failed entry makes the exit status 1");
}

#[test]
fn quit_stops_reading() {
    let o = ds(&[], "out 1\n:quit\nout 2\n");
    assert_eq!(stdout(&o), "1\n");
    assert!(o.status.success());
}

#[test]
fn input_ending_inside_an_entry_is_reported() {
    let o = ds(&[], "out 1\nvar A = [1,\n");
    assert_eq!(stdout(&o), "1\n");
    assert!(stderr(&o).contains("unexpected end of input"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn commands_work_when_piped() {
    let input = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\na on b\n:dot\n:graph G\n";
    let o = ds(&[], input);
    assert_eq!(stderr(&o), "");
    let text = stdout(&o);
    assert!(text.starts_with("digraph {\n"), "{text}");
    assert!(text.contains("    0 -> 1 [ label = \"on\"]\n"), "{text}");
    assert!(text.ends_with("}\nG {\n   a {  on: [b]   }, \n   b {}\n}\n"), "{text}");
}

#[test]
fn invalid_utf8_in_the_input_drops_one_entry() {
    // One bad byte ended the session with exit status 0, the rest of the input unread.
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ds");
    child.stdin.take().expect("stdin").write_all(b"out 1\nout \"\xff\"\nout 2\n").expect("input");
    let o = child.wait_with_output().expect("wait");
    assert_eq!(stdout(&o), "1\n2\n");
    assert!(stderr(&o).contains("line 2 of the input is not UTF-8"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn system_exit_in_the_repl_gives_its_status() {
    // It ended the session with status 0.
    let o = ds(&[], "out 1\nSystem.exit(7)\nout 2\n");
    assert_eq!((stdout(&o).as_str(), o.status.code()), ("1\n", Some(7)));
    let o = ds(&["-i", "scripts/hanoi.ds"], "System.exit(3)\n");
    assert_eq!(o.status.code(), Some(3));
}

#[test]
fn a_long_entry_is_parsed_once() {
    // Each line of an open entry re-parsed all of it: 5,000 lines took 25 s. The check counts
    // the bytes the lexer reads while the lines come in (a clock fails on a loaded machine):
    // once the entry and its last line's statement, where parsing after every line would read
    // the 5,000 lines' prefixes, about 5,000 / 2 times the entry.
    let mut input = String::from("def long() {\n var s = 0\n");
    for i in 0..5_000 {
        input.push_str(&format!(" s = s + {i}\n"));
    }
    input.push_str(" return s\n}\nout long()\n");
    let mut entry = ds::repl::EntryBuffer::default();
    let before = ds::syntax::lexer::lexed_bytes();
    let entries: Vec<String> = input.lines().filter_map(|line| entry.push_line(line)).collect();
    let lexed = ds::syntax::lexer::lexed_bytes() - before;
    assert_eq!(entries.len(), 2, "the def and the out");
    assert!(lexed <= 2 * input.len() as u64, "{lexed} bytes lexed for an input of {}", input.len());
    let o = ds(&[], &input);
    assert_eq!(stdout(&o), "12497500\n", "{}", stderr(&o));
}

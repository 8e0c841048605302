//! `Opts["checkpoint"]`, `every` and `resume` (decision 25): a search stopped by a limit or a
//! signal, then resumed, ends with the answer and counts of a run that was never stopped; a
//! checkpoint that does not belong to the search is refused, never resumed into a wrong answer.
//!
//! The space: triples [a, b, c] of numbers mod N, with actions a + 1, b + 7 and c + a. Every
//! triple is reachable (a and b run through all of Z_N, as 7 is prime to N, and c + 1 with
//! a = 1), so there are N^3 states, 3 N^3 successors generated, and every successor but the
//! N^3 - 1 states first found is a duplicate: 2 N^3 + 1.

use crate::common::{scratch_file, Run};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const N: u64 = 30;

fn next_demon() -> String {
    next_demon_mod(N)
}

/// `next` over the numbers mod `n`.
fn next_demon_mod(n: u64) -> String {
    format!(
        "def next(s) :\n  return [[\"a\", [(s[0] + 1) % {n}, s[1], s[2]]], [\"b\", [s[0], (s[1] + 7) % {n}, s[2]]], \
         [\"c\", [s[0], s[1], (s[2] + s[0]) % {n}]]]\n"
    )
}

/// A script that runs `search` (with `OPTS` in it replaced by the checkpoint's options) over
/// the numbers mod `n`, and prints its statistics.
fn script_mod(n: u64, search: &str, file: &Path, extra: &str) -> String {
    let opts = format!("\"checkpoint\": \"{}\", \"resume\": True{extra}", file.display());
    format!(
        "{}{}\nvar S = Search.stats()\nout S[\"reason\"], S[\"states\"], S[\"expanded\"], S[\"generated\"], \
         S[\"duplicates\"], S[\"max_frontier\"], S[\"depth\"]\n",
        next_demon_mod(n),
        search.replace("OPTS", &opts)
    )
}

fn run(script: &Path, limits: &[&str]) -> Run {
    let out =
        Command::new(env!("CARGO_BIN_EXE_ds")).args(limits).arg(script).stdin(Stdio::null()).output().expect("run ds");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// Runs `script` with `--max-steps STEPS` again and again, `before(k)` ahead of run k (from
/// 0), until a run ends without a limit: every run, that one last.
fn runs_until_done(script: &Path, steps: &str, mut before: impl FnMut(usize)) -> Vec<Run> {
    let mut runs = Vec::new();
    while runs.len() < 40 {
        before(runs.len());
        let r = run(script, &["--max-steps", steps]);
        let done = r.code == Some(0);
        runs.push(r);
        if done {
            return runs;
        }
    }
    panic!("the runs go on: {}", runs.last().map_or("", |r| r.stdout.as_str()));
}

/// A script file and the checkpoint beside it.
fn files(name: &str, search: &str, extra: &str) -> (PathBuf, PathBuf) {
    files_mod(N, name, search, extra)
}

fn files_mod(n: u64, name: &str, search: &str, extra: &str) -> (PathBuf, PathBuf) {
    let dir = scratch_file("placeholder", "").parent().expect("dir").to_path_buf();
    let checkpoint = dir.join("search.ckpt");
    let path = dir.join(name);
    std::fs::write(&path, script_mod(n, search, &checkpoint, extra)).expect("write script");
    (path, checkpoint)
}

/// The line of a whole run: every state, with the counts the module comment derives.
fn exhausted_counts(max_frontier_and_depth: &str) -> String {
    exhausted_counts_mod(N, max_frontier_and_depth)
}

fn exhausted_counts_mod(n: u64, max_frontier_and_depth: &str) -> String {
    let states = n * n * n;
    format!("exhausted {states} {states} {} {} {max_frontier_and_depth}\n", 3 * states, 2 * states + 1)
}

#[test]
fn a_search_stopped_by_a_limit_goes_on_from_its_checkpoint_to_the_same_counts() {
    let search = "var R = Search.bfs([0, 0, 0], next, [-1], {OPTS})";
    let (plain, _) = files("plain.ds", &search.replace(", {OPTS}", ""), "");
    let whole = run(&plain, &[]);
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    let frontier_depth = whole.stdout.split(' ').skip(5).collect::<Vec<_>>().join(" ");
    assert_eq!(whole.stdout, exhausted_counts(frontier_depth.trim_end()));
    let (resuming, checkpoint) = files("resuming.ds", search, "");
    // Each run stops after 20,000 steps (about 5,000 expansions) and saves where it was; the
    // next one goes on.
    let runs = runs_until_done(&resuming, "20000", |_| {});
    let (last, stopped) = runs.split_last().expect("a run");
    assert_eq!(last.stdout, whole.stdout, "resumed {} times", runs.len());
    for r in stopped {
        assert!(r.stdout.starts_with("max_steps "), "{}{}", r.stdout, r.stderr);
    }
    assert!(checkpoint.exists(), "a checkpoint after the limit");
    assert!(runs.len() > 2, "the search was stopped more than once ({} runs)", runs.len());
}

#[test]
fn an_exploration_resumed_keeps_its_transitions_and_goals() {
    // Goals: a = 5 and b = 5, any c: N of them.
    let search = "def goal(s) :\n  return s[0] == 5 & s[1] == 5\n\
                  var Sp = Search.explore([0, 0, 0], next, {\"goal\": goal, OPTS})\n\
                  out Sp.states().size(), Sp.transitions().size(), Sp.goals().size()";
    let (resuming, _) = files("explore.ds", search, ", \"every\": 0.01");
    let all = runs_until_done(&resuming, "20000", |_| {});
    let (last, runs) = (all.last().expect("a run"), all.len());
    let states = N * N * N;
    let (first, rest) = last.stdout.split_once('\n').expect("two lines");
    assert_eq!(first, format!("{states} {} {N}", 3 * states), "{}", last.stderr);
    assert!(rest.starts_with(&format!("exhausted {states} {states} {} {} ", 3 * states, 2 * states + 1)), "{rest}");
    assert!(runs > 2, "{runs} runs");
}

#[test]
fn a_search_stopped_by_a_signal_saves_itself_and_resumes() {
    // 216,000 states: about a second, and the signal comes as the first checkpoint is written
    let search = "var R = Search.bfs([0, 0, 0], next, [-1], {OPTS})";
    let (resuming, checkpoint) = files_mod(60, "signal.ds", search, ", \"every\": 0.05");
    let child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .arg(&resuming)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ds");
    let begun = Instant::now();
    while !checkpoint.exists() && begun.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(checkpoint.exists(), "a checkpoint within a minute");
    // SAFETY: a plain kill(2) of our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().expect("ds ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{stderr}");
    assert!(stderr.contains("interrupted (SIGTERM)"), "{stderr}");
    assert!(!checkpoint.with_extension("ckpt.part").exists(), "the checkpoint was put in place whole");
    let resumed = run(&resuming, &[]);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    let whole = exhausted_counts_mod(60, "");
    assert!(resumed.stdout.starts_with(whole.trim_end()), "{}", resumed.stdout);
}

#[test]
fn a_checkpoint_of_another_search_or_damaged_is_refused() {
    let search = "var R = Search.bfs([0, 0, 0], next, [-1], {OPTS})";
    let (first, checkpoint) = files("first.ds", search, "");
    let r = run(&first, &["--max-steps", "20000"]);
    assert!(r.stdout.starts_with("max_steps "), "{}{}", r.stdout, r.stderr);
    let bytes = std::fs::read(&checkpoint).expect("the checkpoint");
    let dir = checkpoint.parent().expect("dir");
    let refused = |name: &str, text: String, why: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("script");
        let r = run(&path, &[]);
        assert_eq!(r.code, Some(1), "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stderr.contains(why), "{name}: {}", r.stderr);
        assert!(r.stderr.contains("it was not resumed") || r.stderr.contains("was not resumed:"), "{}", r.stderr);
        assert_eq!(std::fs::read(&checkpoint).expect("kept"), bytes, "{name}: the checkpoint is left as it was");
    };
    let text = std::fs::read_to_string(&first).expect("script");
    refused("changed.ds", text.replace("+ 7)", "+ 11)"), "`Next` or the goal has changed since");
    refused(
        "start.ds",
        text.replace("[0, 0, 0], next", "[1, 0, 0], next"),
        "its start state is not this search's start",
    );
    refused("goal.ds", text.replace("[-1]", "[-2]"), "`Next` or the goal has changed since");
    let explore =
        text.replace("var R = Search.bfs([0, 0, 0], next, [-1], {", "var R = Search.explore([0, 0, 0], next, {");
    refused("explore.ds", explore, "was written by `Search.bfs`, not `Search.explore`");
    // The same `Next` in another place of the file is the same code.
    let moved = run(
        &{
            let p = dir.join("moved_same.ds");
            std::fs::write(&p, format!("var Unused = 1\n{text}")).expect("script");
            p
        },
        &["--max-steps", "1000"],
    );
    assert!(moved.stdout.starts_with("max_steps "), "resumed: {}{}", moved.stdout, moved.stderr);
    std::fs::write(&checkpoint, &bytes).expect("put back");
    // Damaged: a byte changed, cut short, or not a checkpoint at all.
    for (i, damaged) in [
        {
            let mut b = bytes.clone();
            b[bytes.len() / 2] ^= 0x40;
            b
        },
        bytes[..bytes.len() - 3].to_vec(),
        b"hello".to_vec(),
    ]
    .into_iter()
    .enumerate()
    {
        std::fs::write(&checkpoint, &damaged).expect("damage");
        let r = run(&first, &[]);
        assert_eq!(r.code, Some(1), "{i}: {}{}", r.stdout, r.stderr);
        let why = if i == 2 { "is not a checkpoint of ds" } else { "is damaged or cut short" };
        assert!(r.stderr.contains(why), "{i}: {}", r.stderr);
    }
}

#[test]
fn resume_with_no_checkpoint_yet_starts_afresh() {
    let search = "var R = Search.bfs([0, 0, 0], next, [5, 5, 5], {OPTS})\nout R";
    let (path, checkpoint) = files("fresh.ds", search, "");
    let r = run(&path, &[]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.starts_with("[5,5,5]\ngoal "), "{}", r.stdout);
    assert!(!checkpoint.exists(), "a search that ends before `every` writes none");
}

#[test]
fn checkpoint_options_are_checked() {
    let fails = |opts: &str, why: &str| {
        let code = format!("{}var R = Search.bfs([0, 0, 0], next, [-1], {{{opts}}})", next_demon());
        let r = crate::common::ds_eval(&code);
        assert_eq!(r.code, Some(1), "{opts}: {}", r.stderr);
        assert!(r.stderr.contains(why), "{opts}: {}", r.stderr);
    };
    fails("\"every\": 5", "options `every` and `resume` of `Search.bfs` need the file: give `checkpoint`");
    fails("\"resume\": True", "need the file");
    fails("\"checkpoint\": 3", "option `checkpoint` of `Search.bfs` must be a file name, not 3");
    fails("\"checkpoint\": \"c\", \"every\": 0", "must be a number of seconds > 0, not 0");
    fails("\"checkpoint\": \"c\", \"store\": \"bitstate\"", "not \"bitstate\"");
    fails("\"checkpoint\": \"c\", \"trace\": True", "cannot trace or record");
    let code = format!("{}Search.dfs([0, 0, 0], next, [-1], {{\"checkpoint\": \"c\"}})", next_demon());
    let r = crate::common::ds_eval(&code);
    assert!(
        r.stderr
            .contains("`Search.dfs` with a `checkpoint` is built for `Search.bfs` and `Search.explore` only so far"),
        "{}",
        r.stderr
    );
    let r = crate::common::ds(&[
        "--sandbox",
        "-e",
        &format!("{}Search.bfs([0, 0, 0], next, [-1], {{\"checkpoint\": \"c\"}})", next_demon()),
    ]);
    assert!(r.stderr.contains("scripts read and write no files under --sandbox"), "{}", r.stderr);
}

#[test]
fn a_search_on_the_hash_store_resumes_and_rebuilds_its_path() {
    // To [0, 0, 1] mod 60: c grows by a, so a must be 1 at some `c` action, and back to 0
    // after: a count of `a` actions that is a multiple of 60 and not 0, and one `c`. No
    // shorter way: 61 actions.
    let search = "var R = Search.bfs([0, 0, 0], next, [0, 0, 1], {\"store\": \"hash\", OPTS})\n\
                  out R, Search.stats()[\"actions\"].size(), Search.stats()[\"exact\"]";
    let (plain, _) = files_mod(60, "hash_plain.ds", &search.replace(", OPTS", ""), "");
    let whole = run(&plain, &[]);
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    assert!(whole.stdout.starts_with("[0,0,1] 61 False\ngoal "), "{}", whole.stdout);
    let (resuming, _) = files_mod(60, "hash.ds", search, "");
    let runs = runs_until_done(&resuming, "100000", |_| {});
    let (last, stopped) = runs.split_last().expect("a run");
    for r in stopped {
        assert!(r.stdout.contains("max_steps "), "{}{}", r.stdout, r.stderr);
    }
    assert_eq!(last.stdout, whole.stdout, "{}", last.stderr);
    assert!(runs.len() > 2, "{} runs", runs.len());
    // A checkpoint of the hash store is not one of the exact store.
    let exact = std::fs::read_to_string(&resuming).expect("script").replace("\"store\": \"hash\", ", "");
    std::fs::write(&resuming, exact).expect("script");
    let r = run(&resuming, &["--max-steps", "100000"]);
    assert!(r.stderr.contains("was written with the store \"hash\", not \"exact\""), "{}", r.stderr);
}

#[test]
fn a_search_on_threads_saves_at_its_levels_and_resumes_on_one_thread_or_two() {
    let search = "var R = Search.bfs([0, 0, 0], next, [-1], {OPTS})";
    let (plain, _) = files("threads_plain.ds", &search.replace(", {OPTS}", ""), "");
    let whole = run(&plain, &[]);
    assert_eq!(whole.code, Some(0), "{}", whole.stderr);
    // Runs on two threads and on one by turns, each stopped after 20,000 steps.
    let (resuming, checkpoint) = files("threads.ds", search, "");
    let text = std::fs::read_to_string(&resuming).expect("script");
    let two = text.replace("\"resume\": True", "\"resume\": True, \"threads\": 2");
    let runs = runs_until_done(&resuming, "20000", |k| {
        std::fs::write(&resuming, if k % 2 == 0 { &two } else { &text }).expect("script");
    });
    let (last, stopped) = runs.split_last().expect("a run");
    assert_eq!(last.stdout, whole.stdout, "resumed {} times", runs.len());
    for r in stopped {
        assert!(r.stdout.starts_with("max_steps "), "{}{}", r.stdout, r.stderr);
    }
    assert!(checkpoint.exists());
    assert!(runs.len() > 2, "{} runs", runs.len());
    // An exploration on two threads: its transitions and goals too.
    let search = "def goal(s) :\n  return s[0] == 5 & s[1] == 5\n\
                  var Sp = Search.explore([0, 0, 0], next, {\"goal\": goal, \"threads\": 2, OPTS})\n\
                  out Sp.states().size(), Sp.transitions().size(), Sp.goals().size()";
    let (explore, _) = files("threads_explore.ds", search, "");
    let all = runs_until_done(&explore, "20000", |_| {});
    let (last, runs) = (all.last().expect("a run"), all.len());
    let states = N * N * N;
    assert!(last.stdout.starts_with(&format!("{states} {} {N}\n", 3 * states)), "{}{}", last.stdout, last.stderr);
    assert!(runs > 2, "{runs} runs");
}

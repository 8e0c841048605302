//! Ctrl-C and SIGTERM during `ds plan` (decision 26; issue 53): the search stops cleanly and
//! prints its statistics, as a finished search does. Ctrl-C is the user's limit on the search,
//! exit status 4 ("a limit stopped the search before a plan was found"); SIGTERM ends the run
//! with 128 + 15, as it ends every run of ds (docs/language.md, "The command line").

use crate::plan::{files, generate};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Starts `ds plan` on a task that takes far longer than the test (gripper with 20 balls,
/// optimally with LM-cut: millions of states), waits until it has installed its signal
/// handlers and begun to search, sends `signal`, and returns (status, stdout, stderr).
fn signalled(signal: i32) -> (Option<i32>, String, String) {
    let dir = generate("gripper", 20, signal as u32);
    let (d, p) = files(&dir);
    // (--timeout: were the signal lost, the run still ends, and says `timeout`)
    let child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["plan", &d, &p, "--h", "lmcut", "--timeout", "120"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start ds plan");
    wait_for_handlers(&child);
    // Grounding gripper takes a millisecond: after this the search is running.
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on the child we started, which has not been waited for.
    unsafe { libc::kill(child.id() as i32, signal) };
    let out = child.wait_with_output().expect("ds plan ends");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

/// Waits until the child catches SIGINT (`SigCgt` in /proc/PID/status), so that the signal
/// is not sent before ds can take it; without /proc, a second is plenty.
fn wait_for_handlers(child: &Child) {
    let status = format!("/proc/{}/status", child.id());
    let begun = Instant::now();
    while begun.elapsed() < Duration::from_secs(30) {
        let Ok(text) = std::fs::read_to_string(&status) else {
            std::thread::sleep(Duration::from_secs(1));
            return;
        };
        let caught = text.lines().find_map(|l| l.strip_prefix("SigCgt:")).map(str::trim);
        let mask = caught.and_then(|hex| u64::from_str_radix(hex, 16).ok()).unwrap_or(0);
        if mask & (1 << (libc::SIGINT - 1)) != 0 {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    panic!("ds plan did not install its signal handlers within 30 s");
}

/// The value of the statistic `name` on standard error.
fn statistic(stderr: &str, name: &str) -> u64 {
    let line = stderr.lines().find_map(|l| l.strip_prefix(&format!("{name}: ")));
    line.and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("no `{name}: N` in the statistics: {stderr}"))
}

fn assert_stopped_with_statistics(signal: i32, name: &str, want: i32) {
    let (code, stdout, stderr) = signalled(signal);
    assert_eq!(code, Some(want), "{name}: {stderr}");
    assert_eq!(stdout, "", "{name}: no plan, not even a part of one");
    assert!(stderr.starts_with(&format!("stopped: interrupted ({name})\n")), "{name}: {stderr}");
    assert!(!stderr.contains("while grounding"), "{name}: the search had begun: {stderr}");
    let expanded = statistic(&stderr, "expanded");
    assert!(expanded > 0, "{name}: {stderr}");
    assert!(statistic(&stderr, "expanded_until_last_jump") <= expanded, "{stderr}");
    assert!(statistic(&stderr, "generated") >= expanded, "{stderr}");
    assert!(statistic(&stderr, "states") > 1, "{stderr}");
    statistic(&stderr, "ms");
    assert_eq!(statistic(&stderr, "variables"), 20 + 3, "each ball, each gripper, the robot: {stderr}");
}

#[test]
fn ctrl_c_stops_the_search_with_its_statistics_and_exit_4() {
    assert_stopped_with_statistics(libc::SIGINT, "SIGINT", 4);
}

#[test]
fn sigterm_stops_the_search_with_its_statistics_and_exit_143() {
    assert_stopped_with_statistics(libc::SIGTERM, "SIGTERM", 128 + libc::SIGTERM);
}

//! Searching across processes (`ds --processes N`, issue 17): two processes on 127.0.0.1 print
//! what one thread prints, only process 0 prints, and a process that dies or a limit stops
//! the run with a clear error instead of a hang. Timing never counts (the machine is loaded):
//! the bounds are many seconds, and only the `time:` lines differ between runs.

use crate::common::{ds, Run};
use crate::threads::{eight_puzzle_script, temp_dir, without_times, wolf_world_script};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A hostfile of `n` ports free on 127.0.0.1 now.
fn hostfile(name: &str, n: usize) -> PathBuf {
    let listeners: Vec<_> = (0..n).map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a free port")).collect();
    let lines: String = listeners.iter().map(|l| format!("{}\n", l.local_addr().expect("address"))).collect();
    let file = temp_dir(name).join("hosts.txt");
    std::fs::write(&file, lines).expect("write hostfile");
    file
}

/// A process started, its output read as it comes (a full pipe would stop it).
struct Running {
    child: Child,
    out: std::thread::JoinHandle<Vec<u8>>,
    err: std::thread::JoinHandle<Vec<u8>>,
}

fn start(hosts: &Path, n: usize, i: usize, extra: &[&str], script: &Path) -> Running {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
        .args(["--processes", &n.to_string(), "--process", &i.to_string(), "--hostfile"])
        .arg(hosts)
        .args(extra)
        .arg(script)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run ds");
    let read = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            bytes
        })
    };
    let out = read(Box::new(child.stdout.take().expect("stdout")));
    let err = read(Box::new(child.stderr.take().expect("stderr")));
    Running { child, out, err }
}

/// Waits for a process at most `secs` seconds (killing it then, and panicking).
#[track_caller]
fn finish(mut p: Running, secs: u64, what: &str) -> Run {
    let until = Instant::now() + Duration::from_secs(secs);
    while p.child.try_wait().expect("try_wait").is_none() {
        if Instant::now() > until {
            let _ = p.child.kill();
            let _ = p.child.wait();
            panic!("{what} was still running after {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = p.child.wait().expect("wait");
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    Run {
        stdout: text(p.out.join().expect("stdout")),
        stderr: text(p.err.join().expect("stderr")),
        code: status.code(),
    }
}

/// Runs `script` on `n` processes; what each printed, process 0 first.
#[track_caller]
fn on_processes(n: usize, extra: &[&str], script: &Path) -> Vec<Run> {
    let hosts = hostfile(&format!("hosts-{}", script.display().to_string().replace('/', "_")), n);
    let children: Vec<Running> = (0..n).map(|i| start(&hosts, n, i, extra, script)).collect();
    children.into_iter().enumerate().map(|(i, c)| finish(c, 600, &format!("process {i}"))).collect()
}

/// Asserts that 2 processes print what one thread prints, and the other process nothing; the
/// output of one thread.
#[track_caller]
fn same_on_2_processes(script: &Path) -> String {
    let script_arg = script.to_string_lossy().into_owned();
    let one = ds(&[&script_arg]);
    assert_eq!(one.code, Some(0), "{}", one.stderr);
    let runs = on_processes(2, &[], script);
    for (i, r) in runs.iter().enumerate() {
        assert_eq!(r.code, Some(0), "process {i}: {}", r.stderr);
    }
    assert_eq!(without_times(&runs[0].stdout), without_times(&one.stdout), "2 processes on {script_arg}");
    assert_eq!(runs[1].stdout, "", "process 1 prints nothing");
    one.stdout
}

#[test]
fn the_seed_wolf_world_is_the_same_on_two_processes() {
    let out = same_on_2_processes(&Path::new(ROOT).join("scripts/wolf_search.ds"));
    assert!(out.contains("Search.explore: 30 states, 60 transitions, goal states [27]"), "{out}");
}

#[test]
fn a_bigger_wolf_world_is_the_same_on_two_processes() {
    let out = same_on_2_processes(&wolf_world_script("processes-wolf", "wolf_1e4"));
    assert!(out.contains("state space: 12168 states"), "{}", &out[..out.len().min(2000)]);
    assert!(out.contains("state space: 5000 states"));
}

#[test]
fn the_eight_puzzle_space_is_the_same_on_two_processes() {
    let out = same_on_2_processes(&eight_puzzle_script("processes-eight"));
    assert!(out.starts_with("181440 483840 [181438] "), "{out}");
}

fn script(name: &str, code: &str) -> PathBuf {
    let file = temp_dir("processes").join(name);
    std::fs::write(&file, code).expect("write script");
    file
}

const ENDLESS: &str = "def next(n) : return [n + 1, n * 2, n * 3]\n";

#[test]
fn a_killed_process_ends_the_run_with_an_error() {
    let file = script("killed.ds", &format!("{ENDLESS}var S = Search.explore(1, next)\nout \"not reached\"\n"));
    for killed in [1, 0] {
        let hosts = hostfile(&format!("killed-{killed}"), 2);
        let mut children: Vec<Running> = (0..2).map(|i| start(&hosts, 2, i, &[], &file)).collect();
        std::thread::sleep(Duration::from_millis(1500));
        let _ = children[killed].child.kill();
        let _ = children[killed].child.wait();
        let other = finish(children.remove(1 - killed), 30, "the process left");
        assert_eq!(other.code, Some(1), "{}", other.stderr);
        assert!(
            other.stderr.contains(&format!("a search on several processes failed: process {killed} stopped")),
            "{}",
            other.stderr
        );
        assert!(!other.stdout.contains("not reached"));
    }
}

#[test]
fn the_limits_stop_every_process() {
    let steps = script("steps.ds", &format!("{ENDLESS}out Search.bfs(1, next, -1), Search.stats()[\"reason\"]\n"));
    let runs = on_processes(2, &["--max-steps", "200000"], &steps);
    // reported, then the exit status of a run its step limit stopped, in both (issue 41)
    assert_eq!((runs[0].stdout.as_str(), runs[0].code), ("Undef max_steps\n", Some(1)), "{}", runs[0].stderr);
    assert_eq!(runs[1].code, Some(1), "{}", runs[1].stderr);
    let timeout =
        script("timeout.ds", &format!("{ENDLESS}var S = Search.explore(1, next)\nout Search.stats()[\"reason\"]\n"));
    let runs = on_processes(2, &["--timeout", "1"], &timeout);
    // the script reports, and the run exits 1: its deadline stopped it (issue 41)
    assert_eq!((runs[0].stdout.as_str(), runs[0].code), ("timeout\n", Some(1)), "{}", runs[0].stderr);
    let states =
        format!("{ENDLESS}out Search.explore(1, next, {{\"max_states\": 3000}}), Search.stats()[\"expanded\"]\n");
    same_on_2_processes(&script("states.ds", &states));
}

#[test]
fn what_cannot_run_on_processes_says_so() {
    let printing = script(
        "printing.ds",
        "def next(n) { out n; return n < 50 ? [n + 1, n * 2] : [] }\nout Search.bfs(1, next, 40)\n",
    );
    let runs = on_processes(2, &[], &printing);
    for r in &runs {
        assert_eq!(r.code, Some(1));
        assert!(r.stderr.contains("cannot print from `Next` or the goal"), "{}", r.stderr);
    }
    assert_eq!(runs[0].stdout, "");
    // System.time differs between the processes: they reach different searches
    let differing = script(
        "differing.ds",
        "var T = System.time() * 1000000\nglobal T\ndef next(n) : return n < 3000 ? [n + 1, n * 2] : []\nout Search.explore(1, next).size()\n",
    );
    let runs = on_processes(2, &[], &differing);
    assert_eq!(runs[0].code, Some(1));
    assert!(runs[0].stderr.contains("reached a different search"), "{}", runs[0].stderr);
}

#[test]
fn processes_whose_next_differs_refuse_to_search_together() {
    // Process 1 ran a script whose `Next` also doubles: the same start, the same globals, but
    // another space. Both processes must refuse, not count 4,650 states instead of 5,002.
    let a = script("next-a.ds", "def next(n) : return n < 3000 ? [n + 1] : []\nout Search.explore(1, next).size()\n");
    let b = script(
        "next-b.ds",
        "def next(n) : return n < 3000 ? [n + 1, n * 2] : []\nout Search.explore(1, next).size()\n",
    );
    let hosts = hostfile("hosts-next-differs", 2);
    let (p0, p1) = (start(&hosts, 2, 0, &[], &a), start(&hosts, 2, 1, &[], &b));
    for (i, r) in [finish(p0, 600, "process 0"), finish(p1, 600, "process 1")].iter().enumerate() {
        assert_eq!(r.code, Some(1), "process {i}: {}", r.stderr);
        assert!(r.stderr.contains("reached a different search"), "process {i}: {}", r.stderr);
        assert_eq!(r.stdout, "", "process {i} prints no count");
    }
}

#[test]
fn processes_whose_options_differ_refuse_to_search_together() {
    // The same demons and start, but another `max_states` (or depth `limit`): another search.
    // Both say so, not "a message that is not a level" once one of them stops.
    let code = |opts: &str| {
        format!("def next(n) : return n < 3000 ? [n + 1, n * 2] : []\nout Search.explore(1, next, {opts}).size()\n")
    };
    let cases =
        [("max_states", r#"{"max_states": 100}"#, r#"{"max_states": 2000}"#), ("limit", "{}", r#"{"limit": 9}"#)];
    for (what, a, b) in cases {
        let a = script(&format!("opts-a-{what}.ds"), &code(a));
        let b = script(&format!("opts-b-{what}.ds"), &code(b));
        let hosts = hostfile(&format!("hosts-opts-{what}"), 2);
        let (p0, p1) = (start(&hosts, 2, 0, &[], &a), start(&hosts, 2, 1, &[], &b));
        for (i, r) in [finish(p0, 600, "process 0"), finish(p1, 600, "process 1")].iter().enumerate() {
            assert_eq!(r.code, Some(1), "{what}, process {i}: {}", r.stderr);
            assert!(r.stderr.contains("reached a different search"), "{what}, process {i}: {}", r.stderr);
            assert_eq!(r.stdout, "", "{what}: process {i} prints no count");
        }
    }
}

#[test]
fn output_and_searches_after_a_search_stay_in_step() {
    let code = "def next(n) : return n < 20000 ? [n + 1, n * 2] : []\nout \"before\"\n\
                var S = Search.explore(1, next)\nout S.size(), Search.stats()[\"expanded\"]\n\
                out Search.bfs(S.size(), next, 19999), Search.stats()[\"expanded\"]\n\
                out Search.dfs(1, next, 300), Search.bfs(1, next, 777, {\"threads\": 1})\n";
    let out = same_on_2_processes(&script("after.ds", code));
    assert!(out.starts_with("before\n29999 "), "{out}");
}

#[test]
fn bad_process_options_are_refused() {
    let hosts = hostfile("options", 2);
    let hosts = hosts.to_string_lossy().into_owned();
    for (args, fragment) in [
        (vec!["--processes", "2", "--process", "2", "--hostfile", &hosts], "is not one of the 2 processes"),
        (vec!["--processes", "3", "--process", "0", "--hostfile", &hosts], "lists 2 processes, not the 3"),
        (vec!["--processes", "2", "--process", "0", "--hostfile", "/nonexistent/hosts"], "cannot read the hostfile"),
        (vec!["--processes", "2", "--process", "0"], "--hostfile"),
        (vec!["--processes", "2", "--threads", "2", "--process", "0", "--hostfile", &hosts], "cannot be used with"),
    ] {
        let mut all = args.clone();
        all.extend(["-e", "out 1"]);
        let r = ds(&all);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(fragment), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn ctrl_c_in_one_process_stops_the_search_in_every_process() {
    let file =
        script("sigint.ds", &format!("{ENDLESS}var S = Search.explore(1, next)\nout Search.stats()[\"reason\"]\n"));
    let hosts = hostfile("sigint", 2);
    let children: Vec<Running> = (0..2).map(|i| start(&hosts, 2, i, &[], &file)).collect();
    std::thread::sleep(Duration::from_millis(2000));
    let sent = Command::new("kill").args(["-INT", &children[0].child.id().to_string()]).status().expect("kill");
    assert!(sent.success());
    let runs: Vec<Run> = children.into_iter().map(|c| finish(c, 60, "a process after SIGINT")).collect();
    // A plain run ends on SIGINT, also during a search (issue 41): 130 where the signal came,
    // and the other process, whose search stopped with it, ends as interrupted too.
    assert_eq!((runs[0].stdout.as_str(), runs[0].code), ("", Some(130)), "{}", runs[0].stderr);
    assert!(runs[0].stderr.contains("error: interrupted (SIGINT)"), "{}", runs[0].stderr);
    assert_eq!(runs[1].code, Some(1), "the other process stops the search too: {}", runs[1].stderr);
    assert!(runs[1].stderr.contains("error: interrupted"), "{}", runs[1].stderr);
}

//! Helpers shared by the integration tests: run the `ds` binary on a snippet or a file.

#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: Option<i32>,
}

/// Runs `ds -e CODE` (plus extra arguments before `-e`).
pub fn ds_eval(code: &str) -> Run {
    ds(&["-e", code])
}

pub fn ds(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).args(args).output().expect("run ds");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// Writes `src` to a temporary file named `name` and runs `ds EXTRA FILE` (the options go
/// before the file: what follows the file is the script's).
pub fn ds_file(name: &str, src: &str, extra: &[&str]) -> Run {
    let path = scratch_file(name, src);
    let mut args: Vec<&str> = extra.to_vec();
    let p = path.to_string_lossy().into_owned();
    args.push(&p);
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).args(&args).stdin(Stdio::null()).output().expect("run ds");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
}

/// The directory under which `scratch_file` writes, one per test process.
fn scratch_root() -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ds-test-{}", std::process::id()))
}

/// Writes `src` to a file named `name` in a directory of its own and returns its path. Tests
/// run in parallel threads of one process: with one shared directory, two tests writing the
/// same name raced, and one ran the other's script (an endless loop, killed after 60 s).
pub fn scratch_file(name: &str, src: &str) -> std::path::PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = scratch_root().join(n.to_string());
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::File::create(&path).and_then(|mut f| f.write_all(src.as_bytes())).expect("write script");
    path
}

/// `text` with every scratch directory removed, so that messages name only the file.
pub fn without_scratch_dirs(text: &str) -> String {
    let root = format!("{}/", scratch_root().display());
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&root) {
        out.push_str(&rest[..at]);
        let after = &rest[at + root.len()..];
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        rest = match after[digits..].strip_prefix('/') {
            Some(tail) if digits > 0 => tail,
            _ => after,
        };
    }
    out.push_str(rest);
    out
}

/// Asserts a snippet succeeds and prints exactly `expected`.
#[track_caller]
pub fn prints(code: &str, expected: &str) {
    let r = ds_eval(code);
    assert_eq!(r.stderr, "", "unexpected error for:\n{code}");
    assert_eq!(r.code, Some(0), "exit status for:\n{code}");
    assert_eq!(r.stdout, expected, "output of:\n{code}");
}

/// Asserts a snippet fails with exit status 1 and an error message containing `fragment`.
#[track_caller]
pub fn fails_with(code: &str, fragment: &str) -> Run {
    let r = ds_eval(code);
    assert_eq!(r.code, Some(1), "exit status for:\n{code}\nstderr: {}", r.stderr);
    assert!(r.stderr.contains(fragment), "stderr of:\n{code}\nshould contain {fragment:?}, got:\n{}", r.stderr);
    r
}

/// Runs `ds EXTRA FILE` on `src` written to a temporary file named `name`, killing it after `secs`
/// seconds of wall clock (a generous bound: the point is that it ends, not how fast). Panics
/// when it had to be killed.
#[track_caller]
pub fn ds_file_within(name: &str, src: &str, extra: &[&str], secs: u64) -> Run {
    let path = scratch_file(name, src);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds"));
    cmd.args(extra).arg(&path);
    run_within(cmd, secs)
}

/// Runs a command with standard input closed, killing it after `secs` seconds.
#[track_caller]
pub fn run_within(cmd: Command, secs: u64) -> Run {
    run_with(cmd, secs, true)
}

#[track_caller]
fn run_with(mut cmd: Command, secs: u64, null_stdin: bool) -> Run {
    if null_stdin {
        cmd.stdin(Stdio::null());
    }
    let mut child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("run ds");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut err, &mut s);
        s
    });
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed().as_secs() >= secs {
            let _ = child.kill();
            let _ = child.wait();
            panic!("still running after {secs} s: {cmd:?}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    Run {
        stdout: String::from_utf8_lossy(&reader.join().expect("stdout")).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().expect("stderr")).into_owned(),
        code: status.code(),
    }
}

/// `run_within` for a command whose standard input is already set.
#[track_caller]
pub fn run_within_keeping_stdin(cmd: Command, secs: u64) -> Run {
    run_with(cmd, secs, false)
}

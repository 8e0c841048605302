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

/// Writes `src` to a temporary file named `name` and runs `ds` on it.
pub fn ds_file(name: &str, src: &str, extra: &[&str]) -> Run {
    let dir = std::env::temp_dir().join(format!("ds-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::File::create(&path).and_then(|mut f| f.write_all(src.as_bytes())).expect("write script");
    let mut args: Vec<&str> = extra.to_vec();
    let p = path.to_string_lossy().into_owned();
    args.insert(0, &p);
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).args(&args).stdin(Stdio::null()).output().expect("run ds");
    Run {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code(),
    }
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

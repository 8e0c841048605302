//! Golden tests: every `scripts/NAME.ds` runs and its standard output must equal the checked
//! file `tests/expected/NAME.out`; `tests/expected/NAME@CASE.args` (one argument per line) with
//! `NAME@CASE.out` runs the script on another instance. Lines starting with `time:` hold CPU
//! times and are left out of the comparison. A script without an expected file fails the test.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn without_times(s: &str) -> String {
    s.lines().filter(|l| !l.starts_with("time:")).map(|l| format!("{l}\n")).collect()
}

/// Runs one case; returns a description of the failure, if any.
fn check(script: &Path, args: &[String], expected: &Path) -> Option<String> {
    let want = match fs::read_to_string(expected) {
        Ok(w) => w,
        Err(e) => return Some(format!("{}: cannot read: {e}", expected.display())),
    };
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(script).args(args).output();
    let out = match out {
        Ok(o) => o,
        Err(e) => return Some(format!("{}: cannot run ds: {e}", script.display())),
    };
    let got = String::from_utf8_lossy(&out.stdout);
    let (got, want) = (without_times(&got), without_times(&want));
    if got == want && out.status.success() {
        return None;
    }
    Some(format!(
        "{} {:?} (exit {:?}):\n--- expected\n{want}--- got\n{got}--- stderr\n{}",
        script.display(),
        args,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    ))
}

fn cases() -> Vec<(PathBuf, Vec<String>, PathBuf)> {
    let scripts = root().join("scripts");
    let expected = root().join("tests/expected");
    let mut cases = Vec::new();
    let mut names: Vec<_> = fs::read_dir(&scripts).expect("scripts/").flatten().map(|e| e.path()).collect();
    names.sort();
    for script in names.iter().filter(|p| p.extension().is_some_and(|e| e == "ds")) {
        let stem = script.file_stem().unwrap_or_default().to_string_lossy().to_string();
        cases.push((script.clone(), Vec::new(), expected.join(format!("{stem}.out"))));
    }
    let mut extra: Vec<_> = fs::read_dir(&expected).expect("tests/expected/").flatten().map(|e| e.path()).collect();
    extra.sort();
    for args_file in extra.iter().filter(|p| p.extension().is_some_and(|e| e == "args")) {
        let name = args_file.file_stem().unwrap_or_default().to_string_lossy().to_string();
        let script_name = name.split('@').next().unwrap_or_default();
        let args: Vec<String> = fs::read_to_string(args_file)
            .unwrap_or_default()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect();
        cases.push((scripts.join(format!("{script_name}.ds")), args, expected.join(format!("{name}.out"))));
    }
    cases
}

#[test]
fn every_script_matches_its_expected_output() {
    let cases = cases();
    assert!(cases.iter().any(|c| c.0.ends_with("wolf.ds")), "scripts/wolf.ds must be among the golden cases");
    let failures: Vec<String> = cases.iter().filter_map(|(s, a, e)| check(s, a, e)).collect();
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// The two known answers of problems.md, spelled out here as well as in the expected files.
#[test]
fn wolf_known_answers() {
    let run = |script: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg(root().join(script)).output().expect("run ds");
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    assert_eq!(
        run("scripts/wolf.ds"),
        "Close: 27 0\nStart;f.t.g;f.m.$2;f.p;f.m.$1;f.t.w;f.m.$2;f.p;f.t.g;f.m.$1;f.p;f.t.c;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p\n"
    );
    assert_eq!(
        run("scripts/wolf_two_farmers.ds"),
        "Close: 154 8\nStart;f.t.w;f.m.$2;f.p;f.m.$1;f.t.g;f.m.$2;f.p;s.t.c;s.m.$2;s.p\n"
    );
}

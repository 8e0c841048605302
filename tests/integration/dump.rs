//! `ds --dump tokens|ast|ir`: the stages the pipeline passes a program through, against the
//! golden files in `tests/dump/`. For `NAME.ds`, each of `NAME.tokens`, `NAME.ast` and
//! `NAME.ir` that exists holds what that stage must print.
//!
//! `DS_REGENERATE_DUMPS=1 cargo test --profile release-dev --test integration dump::` rewrites
//! the files that exist from ds's output (create an empty one to add a stage). They are then
//! read by hand, every line, before they are committed: a golden file is a claim about what the
//! stage must do, not a record of what it did.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

const STAGES: [&str; 3] = ["tokens", "ast", "ir"];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/dump")
}

fn dump(stage: &str, script: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).args(["--dump", stage]).arg(script).output().expect("run ds");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{} --dump {stage} failed:\n{stderr}", script.display());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Checks (or regenerates) every stage file of `NAME.ds`.
fn check(name: &str) {
    let script = dir().join(format!("{name}.ds"));
    let regenerate = std::env::var_os("DS_REGENERATE_DUMPS").is_some();
    let mut stages = 0;
    for stage in STAGES {
        let golden = dir().join(format!("{name}.{stage}"));
        let Ok(want) = fs::read_to_string(&golden) else { continue };
        stages += 1;
        let got = dump(stage, &script);
        if regenerate {
            fs::write(&golden, &got).expect("write golden file");
        } else {
            assert!(got == want, "{}:\n--- expected\n{want}--- got\n{got}", golden.display());
        }
    }
    assert!(stages > 0, "{name}.ds has no golden file (NAME.tokens, NAME.ast or NAME.ir)");
}

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $(#[test] fn $name() { check(stringify!($name)) })*
        const LISTED: &[&str] = &[$(stringify!($name)),*];
    };
}

cases!(layout, clauses, for_loops, axioms, sums, edges);

#[test]
fn every_input_is_listed() {
    let mut on_disk: Vec<String> = fs::read_dir(dir())
        .expect("tests/dump")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ds"))
        .map(|p| p.file_stem().unwrap_or_default().to_string_lossy().into_owned())
        .collect();
    on_disk.sort();
    let mut listed: Vec<String> = LISTED.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "tests/dump/*.ds and the cases! list differ");
}

#[test]
fn a_stage_that_fails_shows_the_error() {
    let r = super::common::ds(&["--dump", "ir", "-e", "out nothing_here"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("unknown name `nothing_here`"), "{}", r.stderr);
    assert_eq!(r.stdout, "");
    let r = super::common::ds(&["--dump", "tokens", "-e", "out \"open"]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("unterminated string"), "{}", r.stderr);
}

//! Parses, compiles and runs arbitrary input with small limits: any input must give output or a
//! diagnostic, never a panic. Run with `cargo +nightly fuzz run parse_and_run` (see docs/internals.md).
//!
//! Scripts can write files (`File.open`, `fopen`, `G.dot(file)`, `S.save(file)`) and read them
//! (`File.open`, `#include`). So that random input cannot touch the disk outside a scratch
//! directory, the target runs in a directory of its own under the system's temp directory,
//! emptied after every input, with ds's file sandbox on: only plain file names (no `/`, `..`),
//! and at most 1 MB written per input.
#![no_main]

use ds::eval::Limits;
use ds::{Outcome, Session};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// The scratch directory, made (and made current) on the first input.
fn scratch() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("ds-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("cannot make the fuzz scratch directory");
        std::env::set_current_dir(&dir).expect("cannot enter the fuzz scratch directory");
        dir
    })
}

fn empty(dir: &PathBuf) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            let p = e.path();
            let _ = if p.is_dir() { std::fs::remove_dir_all(&p) } else { std::fs::remove_file(&p) };
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let dir = scratch();
    let mut session = Session::new(Box::new(std::io::sink()));
    if let Ok(files) = (ds::sandbox::Access::Scratch { budget: 1 << 20 }).resolved() {
        session.interp.set_files(Box::new(files));
    }
    session.set_limits(Limits { max_depth: 64, max_steps: Some(20_000), ..Limits::default() });
    match session.run_source("fuzz.ds", src) {
        Outcome::CompileErrors(d) => {
            let _ = session.render(&d, false);
        }
        Outcome::RuntimeError(d) => {
            let _ = session.render(&[*d], false);
        }
        Outcome::Finished(_) | Outcome::Exited(_) => {}
    }
    drop(session);
    empty(dir);
});

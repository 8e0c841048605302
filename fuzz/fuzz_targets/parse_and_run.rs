//! Parses, compiles and runs arbitrary input with small limits: any input must give output or a
//! diagnostic, never a panic. Run with `cargo +nightly fuzz run parse_and_run` (see docs/internals.md).
#![no_main]

use ds::eval::Limits;
use ds::{Outcome, Session};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut session = Session::new(Box::new(std::io::sink()));
    session.set_limits(Limits { max_depth: 64, max_steps: Some(20_000), deadline: None });
    match session.run_source("fuzz.ds", src) {
        Outcome::CompileErrors(d) => {
            let _ = session.render(&d, false);
        }
        Outcome::RuntimeError(d) => {
            let _ = session.render(&[*d], false);
        }
        Outcome::Finished(_) | Outcome::Exited(_) => {}
    }
});

//! The REPL: a terminal-free backend (`backend`) and a line-reading front end.

use crate::session::{Outcome, Session};
use std::io::{BufRead, Write};

/// Reads entries line by line from standard input and runs each against `session`.
pub fn run_piped(session: &mut Session) -> i32 {
    let stdin = std::io::stdin();
    let mut pending = String::new();
    let mut status = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        pending.push_str(&line);
        pending.push('\n');
        match crate::syntax::parse(&pending, u32::MAX) {
            Err(d) if d.incomplete => continue,
            _ => {}
        }
        let entry = std::mem::take(&mut pending);
        match session.run_source("<stdin>", &entry) {
            Outcome::Finished(_) => {}
            Outcome::CompileErrors(d) => {
                eprint!("{}", session.render(&d, false));
                status = 1;
            }
            Outcome::RuntimeError(d) => {
                eprint!("{}", session.render(&[*d], false));
                status = 1;
            }
        }
        let _ = session.interp.out.flush();
    }
    status
}

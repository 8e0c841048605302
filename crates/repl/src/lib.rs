//! The REPL. `backend` runs one complete entry against a `Session` and returns its output and
//! errors as strings, with no terminal involved; `terminal` is the rustyline front end (line
//! editing, history, completion, highlighting) and `piped` reads entries from a pipe or file.

mod backend;
mod commands;
pub mod complete;
pub mod highlight;
#[cfg(feature = "terminal")]
mod interrupt;
#[cfg(feature = "terminal")]
mod piped;
#[cfg(feature = "terminal")]
mod terminal;

pub use backend::{needs_more, Backend, Reply};
#[cfg(feature = "terminal")]
pub use interrupt::{Interrupter, WhenIdle};
#[cfg(feature = "terminal")]
use piped::finish;

#[cfg(feature = "terminal")]
use ds_core::session::Session;
#[cfg(feature = "terminal")]
use std::io::{IsTerminal, Write};

#[cfg(feature = "terminal")]
/// Opens the REPL on `session` (fresh, or after `ds -i FILE`): with line editing when standard
/// input is a terminal, else reading entries line by line. Returns the exit status.
pub fn run(session: Session, interrupter: &Interrupter) -> u8 {
    let mut backend = Backend::new(session);
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        backend.color = colors_wanted() && std::io::stderr().is_terminal();
        backend.session.interp.warnings.color = backend.color;
        terminal::run(&mut backend, interrupter)
    } else {
        piped::run(&mut backend, stdin.lock(), interrupter)
    }
}

#[cfg(feature = "terminal")]
/// What SIGINT should do between entries for the way the REPL will read its input.
pub fn when_idle() -> WhenIdle {
    if std::io::stdin().is_terminal() {
        WhenIdle::Ignore
    } else {
        WhenIdle::Exit
    }
}

#[cfg(feature = "terminal")]
/// Colours unless the user opted out (https://no-color.org).
fn colors_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Lines typed or read so far, until they make a complete entry.
#[derive(Debug, Default)]
pub struct EntryBuffer {
    text: String,
    /// Brackets, strings and comments still open at the end of `text`.
    open: Open,
}

impl EntryBuffer {
    /// Adds a line; returns the whole entry once the parser no longer asks for more. While a
    /// bracket, string or comment is open no parse is needed: a long entry pasted line by line
    /// is parsed once, not after every line (5,000 lines took 25 s).
    pub fn push_line(&mut self, line: &str) -> Option<String> {
        self.text.push_str(line);
        self.text.push('\n');
        self.open.scan(line);
        self.open.scan("\n");
        if self.open.any() || needs_more(&self.text) {
            return None;
        }
        self.open = Open::default();
        Some(std::mem::take(&mut self.text))
    }

    /// The unfinished entry so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    pub fn take(&mut self) -> String {
        self.open = Open::default();
        std::mem::take(&mut self.text)
    }
}

/// What the lexer would still have open after the text scanned so far: bracket depth, a
/// string (its quote) or nested block comments. It follows the lexer's rules for strings
/// (`\` escapes the next character), `//` line comments and nested `/* */`.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Open {
    brackets: usize,
    quote: Option<u8>,
    comments: usize,
}

impl Open {
    fn any(&self) -> bool {
        self.brackets > 0 || self.quote.is_some() || self.comments > 0
    }

    fn scan(&mut self, text: &str) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let two = |at: usize, c1: u8, c2: u8| b[at] == c1 && b.get(at + 1) == Some(&c2);
            if let Some(q) = self.quote {
                if b[i] == b'\\' {
                    i += 1;
                } else if b[i] == q {
                    self.quote = None;
                }
            } else if self.comments > 0 {
                if two(i, b'/', b'*') {
                    self.comments += 1;
                    i += 1;
                } else if two(i, b'*', b'/') {
                    self.comments -= 1;
                    i += 1;
                }
            } else if two(i, b'/', b'/') {
                return; // the rest of the line is a comment
            } else if two(i, b'/', b'*') {
                self.comments = 1;
                i += 1;
            } else {
                match b[i] {
                    b'"' | b'\'' => self.quote = Some(b[i]),
                    b'(' | b'[' | b'{' => self.brackets += 1,
                    b')' | b']' | b'}' => self.brackets = self.brackets.saturating_sub(1),
                    _ => {}
                }
            }
            i += 1;
        }
    }
}

#[cfg(feature = "terminal")]
/// Prints what an entry produced: output to standard output, errors to standard error.
fn show(reply: &Reply) {
    if !reply.output.is_empty() {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(reply.output.as_bytes());
        let _ = out.flush();
    }
    ds_base::eprint_safe!("{}", reply.errors);
}

//! The terminal-free REPL: one complete entry in, its output and its errors out as strings.
//! Both front ends (the rustyline one and the piped one) and the tests drive this.

use ds_base::diagnostics::Diagnostic;
use ds_core::session::{Outcome, Session};
use ds_core::value::Value;
use ds_syntax::ast::{ExprKind, Stmt, StmtKind};
use ds_syntax::{self as syntax, FileId};
use std::cell::RefCell;
use std::io::{self, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What one entry produced.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Reply {
    /// Program output and echoed values; empty unless the backend captures its output
    /// (otherwise it went straight to the session's writer, as it was written).
    pub output: String,
    /// Rendered diagnostics; empty when the entry succeeded.
    pub errors: String,
    /// Rendered warnings, when the backend captures its output (otherwise they went to
    /// standard error as they were found).
    pub warnings: String,
    /// `:quit` was entered, or `System.exit` called.
    pub quit: bool,
    /// The exit status `System.exit` asked for.
    pub exit: Option<i32>,
    /// The code did not parse or compile, so none of it ran: it defined nothing.
    pub compile_failed: bool,
}

impl Reply {
    pub fn failed(&self) -> bool {
        !self.errors.is_empty()
    }

    pub(super) fn error(&mut self, message: impl AsRef<str>) {
        self.errors.push_str(&format!("error: {}\n", message.as_ref()));
    }
}

/// A writer whose bytes the backend can take back, for capturing output.
#[derive(Clone, Default)]
struct SharedBuf(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

pub struct Backend {
    pub(super) session: Session,
    captured: Option<SharedBuf>,
    captured_warnings: Option<SharedBuf>,
    /// Entries run so far; each becomes a source named `<repl:N>` in diagnostics.
    entries: usize,
    /// Render diagnostics with ANSI colours.
    pub color: bool,
}

impl Backend {
    /// A backend over an existing session (after `ds -i FILE`); output goes to its writer.
    pub fn new(session: Session) -> Backend {
        Backend { session, captured: None, captured_warnings: None, entries: 0, color: false }
    }

    /// A fresh session whose output is returned in `Reply::output` (for tests and embedding),
    /// with the disk and threads of the operating system.
    #[cfg(feature = "terminal")]
    pub fn capturing() -> Backend {
        let buf = SharedBuf::default();
        let mut session = Session::new(Box::new(buf.clone()));
        ds_native::lend(&mut session.interp);
        let mut backend = Backend::new(session);
        backend.captured = Some(buf);
        let warnings = SharedBuf::default();
        backend.session.interp.warnings.sink = Box::new(warnings.clone());
        backend.captured_warnings = Some(warnings);
        backend
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The session, to run code for a display (the notebook draws states with their views).
    pub fn session_mut(&mut self) -> &mut Session {
        &mut self.session
    }

    /// The flag that stops a running evaluation (set it from a Ctrl-C handler).
    pub fn interrupt_flag(&self) -> Arc<AtomicBool> {
        self.session.interp.interrupt.clone()
    }

    /// Runs one complete entry: a `:command` or code.
    pub fn eval(&mut self, entry: &str) -> Reply {
        let mut reply = Reply::default();
        if let Some(value) = self.run_entry(entry, &mut reply) {
            self.print_value(&value);
        }
        self.finish(&mut reply);
        reply
    }

    /// `eval`, handing back the value of a final expression instead of printing it: a notebook
    /// kernel shows it (drawn, when it is a graph) rather than as text among the output.
    pub fn eval_cell(&mut self, entry: &str) -> (Reply, Option<Value>) {
        let mut reply = Reply::default();
        let value = self.run_entry(entry, &mut reply);
        self.finish(&mut reply);
        (reply, value)
    }

    /// Runs a `:command` or code; the value to echo, if any.
    fn run_entry(&mut self, entry: &str, reply: &mut Reply) -> Option<Value> {
        let text = entry.trim();
        if let Some(command) = text.strip_prefix(':') {
            self.command(command, reply);
            None
        } else if !text.is_empty() {
            self.run_code(entry, reply)
        } else {
            None
        }
    }

    /// Flushes the output and takes what was captured into the reply.
    fn finish(&mut self, reply: &mut Reply) {
        let _ = self.session.interp.out.flush();
        if let Some(buf) = &self.captured {
            reply.output = String::from_utf8_lossy(&buf.0.take()).into_owned();
        }
        if let Some(buf) = &self.captured_warnings {
            reply.warnings = String::from_utf8_lossy(&buf.0.take()).into_owned();
        }
    }

    /// A value as `out` prints it.
    pub fn value_text(&self, value: &Value) -> String {
        self.session.interp.text(value)
    }

    /// Parses, compiles and runs code; the value of a final expression statement, to echo.
    fn run_code(&mut self, src: &str, reply: &mut Reply) -> Option<Value> {
        let file = self.add_source(src);
        let mut stmts = match self.session.parse_with_includes(file, src, None, 0) {
            Ok(stmts) => stmts,
            Err(diags) => {
                reply.errors = self.session.render(&diags, self.color);
                reply.compile_failed = true;
                return None;
            }
        };
        let echo = stmts.last().and_then(echo_rule);
        if echo.is_some() {
            return_last_value(&mut stmts);
        }
        match self.run_guarded(&stmts, reply) {
            Some(Some(value)) if echo.is_some_and(|rule| rule.shows(&value)) => Some(value),
            _ => None,
        }
    }

    /// Evaluates one expression (a `:graph` argument, say) and returns its value.
    pub(super) fn evaluate(&mut self, src: &str, reply: &mut Reply) -> Option<Value> {
        let file = self.add_source(src);
        let expr = match syntax::parse_expr(src, file) {
            Ok(expr) => expr,
            Err(d) => {
                reply.errors = self.session.render(&[d], self.color);
                return None;
            }
        };
        let span = expr.span;
        let stmt = Stmt::new(StmtKind::Return { value: Some(expr), ifdef: false }, span);
        self.run_guarded(&[stmt], reply).flatten()
    }

    /// Runs statements, turning diagnostics (and an interpreter panic) into `reply.errors`.
    /// `Some(v)` when they ran to the end, with the value of a top-level `return` if any.
    pub(super) fn run_guarded(&mut self, stmts: &[Stmt], reply: &mut Reply) -> Option<Option<Value>> {
        // A Ctrl-C that arrived after the previous entry ended must not stop this one.
        self.session.interp.interrupt.store(false, Ordering::Relaxed);
        let outcome = catch_unwind(AssertUnwindSafe(|| self.session.run_stmts(stmts)));
        match outcome {
            Ok(Outcome::Finished(value)) => Some(value),
            // `System.exit` in the REPL ends the session, like `:quit`.
            Ok(Outcome::Exited(code)) => {
                reply.quit = true;
                reply.exit = Some(code);
                Some(None)
            }
            Ok(Outcome::CompileErrors(diags)) => {
                self.report(&diags, reply);
                reply.compile_failed = true;
                None
            }
            Ok(Outcome::RuntimeError(d)) => {
                self.report(&[*d], reply);
                None
            }
            Err(_) => {
                reply.error(
                    "internal error: the interpreter panicked; its state may be inconsistent (`:reset` starts afresh)",
                );
                None
            }
        }
    }

    pub(super) fn report(&self, diags: &[Diagnostic], reply: &mut Reply) {
        reply.errors.push_str(&self.session.render(diags, self.color));
    }

    fn add_source(&mut self, src: &str) -> FileId {
        self.entries += 1;
        self.session.add_source(&format!("<repl:{}>", self.entries), src)
    }

    /// Writes a value as `out` would, on a line of its own.
    pub(super) fn print_value(&mut self, value: &Value) {
        let mut text = self.session.interp.text(value);
        if !text.ends_with('\n') {
            text.push('\n');
        }
        self.write(&text);
    }

    /// Writes REPL text (command output) where program output goes, so the two stay in order.
    pub(super) fn write(&mut self, text: &str) {
        let _ = self.session.interp.out.write_all(text.as_bytes());
    }
}

/// Whether `text` is an unfinished entry: the parser ran out of input while something was
/// still open (a bracket, a `def` without body, a trailing operator, a string).
pub fn needs_more(text: &str) -> bool {
    if text.trim_start().starts_with(':') {
        return false;
    }
    matches!(syntax::parse(text, 0), Err(d) if d.incomplete)
}

/// When the value of an entry's last statement is printed.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Echo {
    Always,
    /// A demon or method call: its value unless it is Undef or None, which is what a call
    /// made for its effect (`Open.push(G)`, a demon without `return`) gives.
    UnlessEmpty,
}

impl Echo {
    fn shows(self, value: &Value) -> bool {
        match self {
            Echo::Always => true,
            Echo::UnlessEmpty => !matches!(value, Value::None) && !matches!(value, Value::Logic(l) if l.is_undef()),
        }
    }
}

/// Only an expression statement echoes; not an assignment, `++`/`--`, an edge statement
/// (`X on Y` sets the edge, as in a script), nor an axiom statement. An edge in parentheses,
/// `(X on Y)`, reads the edge and shows it (docs/language.md, decision 14).
fn echo_rule(stmt: &Stmt) -> Option<Echo> {
    let StmtKind::Expr(e) = &stmt.kind else { return None };
    if ds_core::compile::axiom_shaped(e) {
        return None; // an axiom of the current graph, stored rather than evaluated
    }
    if e.is_parenthesised_edge() {
        return Some(Echo::Always);
    }
    match e.kind {
        ExprKind::Assign { .. } | ExprKind::CompoundAssign { .. } | ExprKind::IncDec { .. } | ExprKind::Edge { .. } => {
            None
        }
        ExprKind::Call { .. } | ExprKind::Method { .. } => Some(Echo::UnlessEmpty),
        _ => Some(Echo::Always),
    }
}

/// Turns the final expression statement into a top-level `return`, whose value the session
/// hands back.
fn return_last_value(stmts: &mut [Stmt]) {
    if let Some(last) = stmts.last_mut() {
        let kind = std::mem::replace(&mut last.kind, StmtKind::Break);
        if let StmtKind::Expr(e) = kind {
            last.kind = StmtKind::Return { value: Some(e), ifdef: false };
        }
    }
}

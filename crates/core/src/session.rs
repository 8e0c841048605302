//! A session: the sources, the compiler's persistent state and the interpreter, so that a file,
//! a snippet, or REPL entries one after another all run against the same world.

use crate::compile::ir::St;
use crate::eval::{Flow, Interp, Limits};
use crate::value::Value;
use ds_base::diagnostics::{Diagnostic, SourceMap};
use ds_syntax::ast::{Stmt, StmtKind};
use ds_syntax::{self as syntax, FileId};
use std::io::Write;
use std::path::{Path, PathBuf};

/// How a run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Ran to the end (or to a top-level `return`, whose value is kept).
    Finished(Option<Value>),
    /// Errors found before running (syntax, unknown names, argument counts): nothing ran.
    CompileErrors(Vec<Diagnostic>),
    /// An error while running; output written before it stays written.
    RuntimeError(Box<Diagnostic>),
    /// The script called `System.exit(code)`.
    Exited(i32),
}

const MAX_INCLUDE_DEPTH: usize = 32;
/// All the files one script includes, together, and how many inclusions there may be.
const MAX_INCLUDED_BYTES: usize = 50_000_000;
const MAX_INCLUDES: usize = 1000;

/// What the `#include`s of one script may still add, and which files they may read.
struct IncludeBudget<'a> {
    bytes: usize,
    count: usize,
    files: &'a dyn crate::files::Files,
}

/// The text of an included script. Only `.ds` files are included (with links resolved), so
/// that an error in one never shows a line of some other file (`#include "/etc/passwd"`).
/// An error says whether the file could not be read (exit status 2) or is no script.
fn read_script(files: &dyn crate::files::Files, path: &Path) -> Result<String, (String, bool)> {
    let unreadable = |e: std::io::Error| unreadable_include(path, e);
    let real = files.real_path(path).map_err(unreadable)?;
    if real.extension().is_none_or(|e| e != "ds") {
        return Err((format!("`{}` is not a ds script: `#include` reads `.ds` files only", path.display()), false));
    }
    if !files.is_plain_file(&real) {
        return Err((format!("`{}` is not a plain file: `#include` reads script files only", path.display()), false));
    }
    files.read_text(&real, crate::value::MAX_TEXT).map_err(unreadable)
}

/// The error of an included file that cannot be read: a failure of the environment.
fn unreadable_include(path: &Path, e: std::io::Error) -> (String, bool) {
    (format!("cannot read included file `{}`: {e}", path.display()), true)
}

/// A stage of the pipeline that `ds --dump` shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The tokens after the layout pass.
    Tokens,
    /// The syntax tree of the file (its `#include`s not expanded).
    Ast,
    /// The resolved program, includes and all, as the evaluator would run it.
    Ir,
}

/// The compiler lives in the interpreter (`interp.compiler`), so that `eval` can compile at
/// run time against the program's names.
pub struct Session {
    pub interp: Interp,
}

impl Session {
    pub fn new(out: Box<dyn Write>) -> Session {
        Session { interp: Interp::new(out, crate::builtins::registry()) }
    }

    /// The source files seen so far (the interpreter renders run-time warnings with them).
    pub fn sources(&self) -> &SourceMap {
        &self.interp.sources
    }

    pub fn set_limits(&mut self, limits: Limits) {
        *self.interp.limits_mut() = limits;
    }

    /// Parses, compiles and runs one source text.
    /// Adds a source text to the sources shown in errors and to those `System.line` knows.
    pub fn add_source(&mut self, name: &str, src: &str) -> FileId {
        let file = self.interp.sources.add(name, src);
        self.interp.add_source_lines(file, src);
        file
    }

    pub fn run_source(&mut self, name: &str, src: &str) -> Outcome {
        let file = self.add_source(name, src);
        let base = Path::new(name).parent().map(Path::to_path_buf);
        match self.parse_with_includes(file, src, base.as_deref(), 0) {
            // The syntax tree is dropped before the run: it would count against the script's
            // memory for nothing.
            Ok(stmts) => match self.compile_to_run(&stmts) {
                Ok(code) => {
                    drop(stmts);
                    self.execute(&code)
                }
                Err(outcome) => outcome,
            },
            Err(d) => Outcome::CompileErrors(d),
        }
    }

    /// Parses and compiles without running (`ds --check`): the warnings when it compiles,
    /// else the warnings and the errors.
    pub fn check_source(&mut self, name: &str, src: &str) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
        let file = self.add_source(name, src);
        let base = Path::new(name).parent().map(Path::to_path_buf);
        let stmts = self.parse_with_includes(file, src, base.as_deref(), 0)?;
        self.compile(&stmts).map(|(_, warnings)| warnings)
    }

    /// One stage of a source text as text (`ds --dump`), or the errors that stopped it there.
    pub fn dump(&mut self, name: &str, src: &str, stage: Stage) -> Result<String, Vec<Diagnostic>> {
        let file = self.add_source(name, src);
        match stage {
            Stage::Tokens => syntax::dump::tokens(src, file).map_err(|d| vec![d]),
            Stage::Ast => syntax::parse(src, file).map(|stmts| syntax::dump::ast(&stmts)).map_err(|d| vec![d]),
            Stage::Ir => {
                let base = Path::new(name).parent().map(Path::to_path_buf);
                let stmts = self.parse_with_includes(file, src, base.as_deref(), 0)?;
                let (code, _) = self.compile(&stmts)?;
                Ok(crate::compile::dump::ir(&self.interp.compiler, &self.interp.world, &code))
            }
        }
    }

    /// Compiles a chunk: its code and its warnings, or its warnings followed by its errors.
    /// Under `--deny-warnings` a warning is an error.
    fn compile(&mut self, stmts: &[Stmt]) -> Result<(Vec<St>, Vec<Diagnostic>), Vec<Diagnostic>> {
        let interp = &mut self.interp;
        let result = interp.compiler.compile_chunk(stmts, &mut interp.world);
        let mut warnings = interp.compiler.take_warnings();
        if interp.warnings.deny {
            warnings = warnings.into_iter().map(Diagnostic::denied).collect();
        }
        match result {
            Err(errors) => Err(warnings.into_iter().chain(errors).collect()),
            Ok(_) if interp.warnings.deny && !warnings.is_empty() => Err(warnings),
            Ok(code) => Ok((code, warnings)),
        }
    }

    /// Runs already parsed statements (the REPL parses first to tell incomplete input apart).
    /// Warnings found before the run are shown before it starts.
    pub fn run_stmts(&mut self, stmts: &[Stmt]) -> Outcome {
        match self.compile_to_run(stmts) {
            Ok(code) => self.execute(&code),
            Err(outcome) => outcome,
        }
    }

    /// Compiles a chunk for running, showing its warnings.
    fn compile_to_run(&mut self, stmts: &[Stmt]) -> Result<Vec<St>, Outcome> {
        match self.compile(stmts) {
            Ok((code, warnings)) => {
                self.interp.show_warnings(&warnings);
                Ok(code)
            }
            Err(d) => Err(Outcome::CompileErrors(d)),
        }
    }

    fn execute(&mut self, code: &[St]) -> Outcome {
        self.interp.demons = self.interp.compiler.demon_code.clone();
        self.interp.ensure_globals(self.interp.compiler.global_count);
        let mut result = self.interp.run_top(code);
        if let (Ok(()), Some(last)) = (&result, code.last()) {
            result = self.interp.check_at_end(last.span);
        }
        let _ = self.interp.out.flush();
        match result {
            Ok(()) => Outcome::Finished(None),
            Err(Flow::Return) => Outcome::Finished(Some(self.interp.take_returned())),
            Err(Flow::Break | Flow::Continue) => Outcome::Finished(None),
            Err(Flow::Error(d)) => Outcome::RuntimeError(d),
            Err(Flow::Exit(code)) => Outcome::Exited(code),
        }
    }

    /// Parses a file and splices in its `#include`d files (paths relative to the includer).
    pub fn parse_with_includes(
        &mut self,
        file: FileId,
        src: &str,
        base: Option<&Path>,
        depth: usize,
    ) -> Result<Vec<Stmt>, Vec<Diagnostic>> {
        let stmts = syntax::parse(src, file).map_err(|d| vec![d])?;
        let files = self.interp.files().boxed_clone();
        expand_includes(stmts, base, depth, &*files, &mut |name, text| self.add_source(name, text))
    }

    /// Renders diagnostics as text for standard error.
    pub fn render(&self, diags: &[Diagnostic], color: bool) -> String {
        diags.iter().map(|d| self.interp.sources.render(d, color)).collect()
    }
}

/// Replaces each `#include` of parsed statements by the statements of the file it names (a path
/// relative to `base`, if `files` allows reading it), recursively; `add_source` registers each
/// file read and gives its id.
pub fn expand_includes(
    stmts: Vec<Stmt>,
    base: Option<&Path>,
    depth: usize,
    files: &dyn crate::files::Files,
    add_source: &mut dyn FnMut(&str, &str) -> FileId,
) -> Result<Vec<Stmt>, Vec<Diagnostic>> {
    let mut budget = IncludeBudget { bytes: MAX_INCLUDED_BYTES, count: MAX_INCLUDES, files };
    expand(stmts, base, depth, add_source, &mut budget)
}

/// `expand_includes` with what included files may still add: a file that includes the next one
/// twice, and so on, would otherwise grow exponentially.
fn expand(
    stmts: Vec<Stmt>,
    base: Option<&Path>,
    depth: usize,
    add_source: &mut dyn FnMut(&str, &str) -> FileId,
    budget: &mut IncludeBudget<'_>,
) -> Result<Vec<Stmt>, Vec<Diagnostic>> {
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        let StmtKind::Include(name) = &s.kind else {
            out.push(s);
            continue;
        };
        let error = |message: String| vec![Diagnostic::error(name.span, message)];
        if depth >= MAX_INCLUDE_DEPTH {
            return Err(error("`#include` nested too deeply (is a file including itself?)".into()));
        }
        let path: PathBuf = match base {
            Some(b) => b.join(&*name.text),
            None => PathBuf::from(&*name.text),
        };
        budget.count = budget.count.checked_sub(1).ok_or_else(|| {
            error(format!("more than {MAX_INCLUDES} `#include`s in all (does a file include another one many times?)"))
        })?;
        let failed = |(message, unreadable): (String, bool)| {
            let mut d = error(message);
            d[0].environment = unreadable;
            d
        };
        let path = match budget.files.script_path(&path) {
            Ok(allowed) => allowed,
            // A file that is not there is unreadable (exit status 2) under --sandbox too, not
            // refused by it (issue 41).
            Err(message) => match budget.files.real_path(&path) {
                Err(e) => return Err(failed(unreadable_include(&path, e))),
                Ok(_) => return Err(error(message)),
            },
        };
        let text = read_script(budget.files, &path).map_err(failed)?;
        budget.bytes = budget.bytes.checked_sub(text.len()).ok_or_else(|| {
            error(format!(
                "the `#include`s add more than {} MB of source (does a file include another one many times?)",
                MAX_INCLUDED_BYTES / 1_000_000
            ))
        })?;
        let inner = add_source(&path.to_string_lossy(), &text);
        let inner_base = path.parent().map(Path::to_path_buf);
        let parsed = syntax::parse(&text, inner).map_err(|d| vec![d])?;
        out.extend(expand(parsed, inner_base.as_deref(), depth + 1, add_source, budget)?);
    }
    Ok(out)
}

/// Every kind of statement and expression runs as closures (`eval/closure`); here,
/// as the test needs a whole session.
#[cfg(test)]
#[path = "session_fallback_test.rs"]
mod fallback_test;

/// A search's `Next` hands its successors over without the pairs (`eval/sink.rs`); here, as
/// the test needs a whole session.
#[cfg(test)]
#[path = "session_sink_test.rs"]
mod sink_test;

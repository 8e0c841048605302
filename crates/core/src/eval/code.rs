//! `eval(S)`: the string is parsed as an expression, compiled against the program's names and
//! the variables visible where `eval` was called, and run there.

use super::{fail, Flow, Interp, R};
use crate::compile::ir::EvalScope;
use crate::value::Value;
use ds_base::diagnostics::Diagnostic;
use ds_syntax::{FileId, Span};

/// The file id of code given to `eval`: it is in no source map, so its places are reported at
/// the `eval` call instead.
const EVAL_FILE: FileId = FileId::MAX;

impl Interp {
    /// Also `ds explore --start EXPR` (crates/core/src/explore/problem.rs).
    pub fn eval_code(&mut self, src: &str, scope: &EvalScope, span: Span) -> R<Value> {
        // Each nested `eval` counts as a call, so that code that evals itself ends with an
        // error rather than exhausting the stack.
        if self.depth() >= self.limits.max_depth {
            return fail(
                span,
                format!("recursion too deep: more than {} calls in progress (--max-depth)", self.limits.max_depth),
            );
        }
        let expr = match ds_syntax::parse_expr(src, EVAL_FILE) {
            Ok(e) => e,
            Err(d) => return fail(span, format!("`eval` cannot parse {}: {}", quoted(src), place(&d, src))),
        };
        let ex = match self.compiler.compile_eval(&expr, scope, &mut self.world) {
            Ok(ex) => ex,
            Err(ds) => {
                let d = &ds[0];
                let mut msg = format!("`eval` cannot compile {}: {}", quoted(src), place(d, src));
                if let Some(note) = d.notes.first() {
                    msg.push_str(&format!(" ({note})"));
                }
                return fail(span, msg);
            }
        };
        self.ensure_globals(self.compiler.global_count);
        self.evals += 1;
        let result = self.eval_compiled(&ex);
        self.evals -= 1;
        match result {
            Err(Flow::Error(mut d)) => {
                if d.span.file == EVAL_FILE {
                    d.span = span;
                    let note = format!("in the code given to `eval`: {}", quoted(src));
                    if !d.notes.contains(&note) {
                        d.notes.push(note);
                    }
                }
                for f in d.stack.iter_mut().filter(|f| f.call_site.file == EVAL_FILE) {
                    f.call_site = span;
                }
                Err(Flow::Error(d))
            }
            other => other,
        }
    }
}

/// A diagnostic's message with its column in the code.
fn place(d: &Diagnostic, src: &str) -> String {
    let lo = (d.span.lo as usize).min(src.len());
    let col = src.get(..lo).map_or(lo, |s| s.chars().count()) + 1;
    format!("{} (at column {col})", d.message)
}

/// The code as it is quoted in messages, cut short when long.
fn quoted(src: &str) -> String {
    let cut: String = src.chars().take(60).collect();
    if cut.len() < src.len() {
        format!("`{cut}...`")
    } else {
        format!("`{cut}`")
    }
}

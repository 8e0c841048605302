//! Compile-time warnings (docs/language.md, decision 15): a statement whose value nobody uses,
//! and a variable declared twice in one block. They never stop the program (unless
//! `--deny-warnings`); the session shows them before the run.

use super::ir::*;
use super::Compiler;
use ds_base::diagnostics::Diagnostic;
use ds_syntax::ast::{BinOp, Expr, ExprKind, Name};
use ds_syntax::Span;
use std::rc::Rc;

impl Compiler {
    pub(super) fn warn(&mut self, d: Diagnostic) {
        self.warnings.push(d);
    }

    /// The warnings of the last chunk compiled.
    pub fn take_warnings(&mut self) -> Vec<Diagnostic> {
        std::mem::take(&mut self.warnings)
    }

    /// An expression statement that neither calls, assigns nor binds anything: its value is
    /// thrown away, which is almost always a mistake (`x == 1` for `x = 1`, `(X on Y)` for
    /// `X on Y`).
    pub(super) fn warn_unused(&mut self, e: &Expr, ex: &Ex) {
        if has_effect(ex) {
            return;
        }
        let d = if let ExprKind::Edge { .. } = &e.kind {
            Diagnostic::warning(e.span, "an edge in parentheses only reads the edge, and its value is unused")
                .with_note("to set the edge, write it without the parentheses: `X rel Y`")
        } else if let ExprKind::Field { name, .. } = &e.kind {
            let d = Diagnostic::warning(e.span, "this value is unused");
            match self.registry.method(&name.text) {
                Some(_) => d.with_note(format!("`{0}` is a method: to call it, write `.{0}()`", name.text)),
                None => d.with_note("a statement that only reads a node does nothing"),
            }
        } else if let ExprKind::Binary { op: BinOp::Eq, left, .. } = &e.kind {
            let d = Diagnostic::warning(e.span, "the result of this comparison is unused");
            match &left.kind {
                ExprKind::Name(n) => d.with_note(format!("to assign, write `{n} = ...` with one `=`")),
                _ => d,
            }
        } else {
            Diagnostic::warning(e.span, "this value is unused")
                .with_note("a statement that only computes a value does nothing")
        };
        self.warn(d);
    }

    /// `var X` where X is already declared in the same block (the original warned too): the
    /// second declaration reuses the variable.
    pub(super) fn warn_duplicate(&mut self, name: &Rc<str>, span: Span) {
        let Some(first) = self.declared_in_block(name) else { return };
        self.warn(
            Diagnostic::warning(span, format!("`{name}` is declared twice in this block"))
                .with_label(first, "first declared here")
                .with_note(format!("the second `var` reuses the variable; to give it a value, write `{name} = ...`")),
        );
    }

    /// `add(2, 3)` where a variable `add` holds a lambda: the builtin function of that name is
    /// called (as in the original), never the variable.
    pub(super) fn warn_shadowed_by_builtin(&mut self, name: &Name) {
        let n = &name.text;
        self.warn(
            Diagnostic::warning(
                name.span,
                format!("`{n}(...)` calls the builtin function `{n}`, not the variable `{n}`"),
            )
            .with_note("a builtin function comes before a variable of its name; rename the variable to call it"),
        );
    }

    /// Where `name` was declared in the innermost block, if it was (in this chunk).
    fn declared_in_block(&self, name: &str) -> Option<Span> {
        let ctx = self.ctx();
        match ctx.decls.last() {
            Some(decls) => decls.get(name).copied(),
            None if ctx.top_level => self.top_decls.get(name).copied(),
            None => None,
        }
    }

    /// Remembers where a variable of the innermost block was declared.
    pub(super) fn note_declaration(&mut self, name: &Rc<str>, span: Span) {
        let ctx = self.ctx.last_mut().expect("a function context");
        match ctx.decls.last_mut() {
            Some(decls) => decls.entry(name.clone()).or_insert(span),
            None => self.top_decls.entry(name.clone()).or_insert(span),
        };
    }
}

/// Whether evaluating `e` can change anything: a call, an assignment, a quantifier (which binds
/// its variable), or an edge over a demon (which runs it).
fn has_effect(e: &Ex) -> bool {
    let any = |es: &[Ex]| es.iter().any(has_effect);
    match &e.kind {
        ExKind::Const(_)
        | ExKind::Var(_)
        | ExKind::CurrentGraph
        | ExKind::Node(_)
        | ExKind::Lambda(_)
        | ExKind::DemonValue(_) => false,
        ExKind::Array(items) | ExKind::Tuple(items) | ExKind::AndOr { args: items, .. } => any(items),
        ExKind::Map(entries) => entries.iter().any(|(k, v)| has_effect(k) || has_effect(v)),
        ExKind::NodeOf { graph, .. } => has_effect(graph),
        ExKind::Index { object, index } => has_effect(object) || has_effect(index),
        ExKind::Unary { operand, .. } => has_effect(operand),
        ExKind::Binary { left, right, .. } => has_effect(left) || has_effect(right),
        ExKind::Sum(items) => items.iter().any(|(x, _)| has_effect(x)),
        ExKind::Ternary { cond, branches } => has_effect(cond) || any(branches),
        ExKind::Edge(edge) => {
            matches!(edge.rel, Rel::Demon(_)) || operand_effect(&edge.left) || operand_effect(&edge.right)
        }
        ExKind::Demon { .. }
        | ExKind::CallValue { .. }
        | ExKind::Builtin { .. }
        | ExKind::Exists { .. }
        | ExKind::Forall { .. }
        | ExKind::Eval { .. }
        | ExKind::Assign { .. }
        | ExKind::Compound { .. }
        | ExKind::IncDec { .. }
        | ExKind::Axioms { .. }
        | ExKind::ValueInModels { .. } => true,
    }
}

fn operand_effect(o: &Operand) -> bool {
    match o {
        Operand::Single(e) => has_effect(e),
        Operand::Group(items) => items.iter().any(|(_, e)| has_effect(e)),
    }
}

//! Compiling statements: blocks and scopes, declarations, and the three kinds of `for`.

use super::index::SymbolKind;
use super::ir::*;
use super::Compiler;
use crate::world::World;
use ds_syntax::ast::{self, Block, Name, Stmt, StmtKind};
use ds_syntax::Span;
use std::cell::Cell;

impl Compiler {
    pub(super) fn stmts(&mut self, stmts: &[Stmt], world: &mut World) -> Vec<St> {
        let mut out = Vec::with_capacity(stmts.len());
        for s in stmts {
            if ds_base::guard::memory::exceeded() {
                self.out_of_memory(s.span);
                break;
            }
            if let Some(st) = self.stmt(s, world) {
                out.push(st);
            }
        }
        out
    }

    /// A nested block with its own scope.
    pub(super) fn block(&mut self, b: &Block, world: &mut World) -> Vec<St> {
        self.block_stmts(&b.stmts, b.span, world)
    }

    /// Statements in a scope of their own, which spans `span`.
    pub(super) fn block_stmts(&mut self, stmts: &[Stmt], span: Span, world: &mut World) -> Vec<St> {
        self.push_scope(span);
        let code = self.stmts(stmts, world);
        self.pop_scope();
        code
    }

    fn loop_body(&mut self, b: &Block, world: &mut World) -> Vec<St> {
        self.ctx_mut().loop_depth += 1;
        let code = self.block(b, world);
        self.ctx_mut().loop_depth -= 1;
        code
    }

    fn stmt(&mut self, s: &Stmt, world: &mut World) -> Option<St> {
        if ds_base::guard::stack::exhausted() {
            self.error(s.span, "this is nested too deeply to compile: the native stack is used up");
            return None;
        }
        let kind = match &s.kind {
            StmtKind::Expr(e) => self.expr_stmt(e, world),
            StmtKind::Var(items) => {
                let mut items = self.var_items(items, world);
                match items.as_mut_slice() {
                    // `var X = e` runs as the assignment `X = e`, on the interpreter's short path.
                    [(slot, init @ Some(_))] => {
                        let value = Box::new(init.take().expect("matched Some"));
                        let target = Box::new(Target::Var(*slot));
                        StKind::Expr(Ex { kind: ExKind::Assign { target, value }, span: s.span })
                    }
                    _ => StKind::Var(items),
                }
            }
            StmtKind::Static(items) => {
                let items = items
                    .iter()
                    .map(|item| {
                        let init = item.init.as_ref().map(|e| self.expr(e, world));
                        self.check_reserved(&item.name);
                        // Unlike `var`, `static` reuses a visible top-level (or other static)
                        // variable of that name (reference 3.2); a demon's locals live in its
                        // frame, so there a static is a variable of its own.
                        if let Some(slot @ Slot::Global(_)) = self.lookup_var(&item.name.text) {
                            self.note_var(&item.name.text, slot, item.name.span, true);
                            return (slot, init);
                        }
                        let slot = self.new_global();
                        if !self.ctx_mut().scopes.insert(item.name.text.clone(), slot) {
                            self.top.insert(item.name.text.clone(), slot);
                        }
                        self.note_var(&item.name.text, slot, item.name.span, true);
                        (slot, init)
                    })
                    .collect();
                StKind::Static { done: Cell::new(false), items }
            }
            StmtKind::Global(names) => {
                for n in names {
                    let known = self.top.contains_key(&n.text);
                    let slot = self.top_slot(&n.text);
                    if self.ctx().top_level {
                        self.shared.insert(n.text.clone());
                        self.note_var(&n.text, slot, n.span, !known);
                        self.note_shared(slot);
                    } else if self.ctx_mut().scopes.insert(n.text.clone(), slot) {
                        self.note_var(&n.text, slot, n.span, true);
                    }
                }
                return None;
            }
            StmtKind::Edges(names) => {
                for n in names {
                    world.declare_relation(&n.text);
                    self.note_name(SymbolKind::Relation, &n.text, n.span, true);
                }
                return None;
            }
            StmtKind::Nodes { graph, names } => {
                for n in names {
                    self.node_names.insert(n.text.clone());
                    self.note_name(SymbolKind::Node, &n.text, n.span, true);
                }
                let graph = graph.as_ref().map(|g| self.expr(g, world));
                StKind::Nodes { graph, names: names.iter().map(|n| n.text.clone()).collect() }
            }
            StmtKind::Out(o) => StKind::Out {
                items: o.items.iter().map(|(sep, e)| (*sep, self.expr(e, world))).collect(),
                trail: o.trail,
                to_file: o.to_file,
            },
            StmtKind::If(arms) => StKind::If(
                arms.iter()
                    .map(|ifs| IfArm {
                        cond: self.expr(&ifs.cond, world),
                        then: self.block(&ifs.then, world),
                        on_false: ifs.on_false.as_ref().map(|b| self.block(b, world)),
                        on_undef: ifs.on_undef.as_ref().map(|b| self.block(b, world)),
                        on_else: ifs.on_else.as_ref().map(|b| self.block(b, world)),
                    })
                    .collect(),
            ),
            StmtKind::While { cond, body } => {
                StKind::While { cond: self.expr(cond, world), body: self.loop_body(body, world) }
            }
            StmtKind::For { vars, source, body } => self.for_stmt(vars, source.as_ref(), body, world),
            StmtKind::Def(def) => {
                self.compile_def(def, world);
                return None;
            }
            StmtKind::Return { value, ifdef } => {
                let v = value.as_ref().map(|e| self.expr(e, world));
                match (ifdef, v) {
                    (true, Some(v)) => StKind::ReturnIfdef(v),
                    (_, v) => StKind::Return(v),
                }
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.ctx().loop_depth == 0 {
                    let word = if matches!(s.kind, StmtKind::Break) { "break" } else { "continue" };
                    self.error(s.span, format!("`{word}` outside a loop"));
                }
                if matches!(s.kind, StmtKind::Break) {
                    StKind::Break
                } else {
                    StKind::Continue
                }
            }
            StmtKind::Include(name) => {
                self.error(name.span, "`#include` is only allowed at the top level of a file");
                return None;
            }
            StmtKind::Section(..) => {
                // The parser attaches every section to its demon; this cannot be reached.
                self.error(s.span, "`get:` or `set:` outside a demon");
                return None;
            }
            StmtKind::Block(b) => StKind::Block(self.block(b, world)),
            StmtKind::Clause(kind, _) => {
                self.error(s.span, format!("`{}` without an `if` before it", kind.word()));
                return None;
            }
        };
        Some(St { kind, span: s.span })
    }

    fn var_items(&mut self, items: &[ast::VarItem], world: &mut World) -> Vec<(Slot, Option<Ex>)> {
        items
            .iter()
            .map(|item| {
                let init = item.init.as_ref().map(|e| self.expr(e, world));
                self.warn_duplicate(&item.name.text, item.name.span);
                let slot = self.declare_local(&item.name, false);
                (slot, init)
            })
            .collect()
    }

    fn for_stmt(&mut self, vars: &[Name], source: Option<&ast::Expr>, body: &Block, world: &mut World) -> StKind {
        if vars.len() > 4 {
            self.error(vars[4].span, "`for` takes at most four loop variables");
        }
        let whole = vars.first().map_or(body.span, |v| v.span.to(body.span));
        self.push_scope(whole);
        let slots: Vec<Slot> = vars.iter().map(|v| self.declare_local(v, false)).collect();
        let kind = match source {
            None => StKind::ForNodes { vars: slots, cond: None, body: self.loop_body(body, world) },
            Some(src) => {
                let range_args = match &src.kind {
                    ast::ExprKind::Call { name, args }
                        if &*name.text == "range" && !self.demons.contains_key("range") =>
                    {
                        Some(args)
                    }
                    _ => None,
                };
                if let Some(args) = range_args {
                    if args.is_empty() || args.len() > 3 {
                        self.error(src.span, "`range` takes 1 to 3 arguments");
                    }
                    let args = args.iter().map(|a| self.expr(a, world)).collect();
                    StKind::ForRange { vars: slots, args, body: self.loop_body(body, world) }
                } else if mentions(src, &vars[0].text) || matches!(src.kind, ast::ExprKind::Logic(_)) {
                    let cond = Some(self.expr(src, world));
                    StKind::ForNodes { vars: slots, cond, body: self.loop_body(body, world) }
                } else {
                    let source = self.expr(src, world);
                    StKind::ForValue { vars: slots, source, body: self.loop_body(body, world) }
                }
            }
        };
        self.pop_scope();
        kind
    }
}

/// Whether `e` mentions the bare name `name` (decides graph-condition `for`).
fn mentions(e: &ast::Expr, name: &str) -> bool {
    use ast::ExprKind as K;
    let m = |x: &ast::Expr| mentions(x, name);
    match &e.kind {
        K::Name(n) => &**n == name,
        K::Array(v) | K::Tuple(v) => v.iter().any(m),
        K::Map(v) => v.iter().any(|(k, x)| m(k) || m(x)),
        K::Call { args, .. } => args.iter().any(m),
        K::Apply { callee, args } => m(callee) || args.iter().any(m),
        K::Method { object, args, .. } => m(object) || args.iter().any(m),
        K::Field { object, .. } => m(object),
        K::NodeOf { graph, .. } => m(graph),
        K::Index { object, index } => m(object) || m(index),
        K::Unary { operand, .. } => m(operand),
        K::Binary { left, right, .. } | K::Edge { left, right, .. } => m(left) || m(right),
        K::Ternary { cond, branches } => m(cond) || branches.iter().any(m),
        K::Assign { target, value } | K::CompoundAssign { target, value, .. } => m(target) || m(value),
        K::IncDec { target, .. } => m(target),
        _ => false,
    }
}

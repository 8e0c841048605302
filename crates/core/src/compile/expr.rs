//! Compiling expressions: names to slots and constants, calls to demons or builtins.

use super::index::SymbolKind;
use super::ir::*;
use super::registry::{Arity, Body, Builtin, Callee};
use super::Compiler;
use crate::value::{Logic, Value};
use crate::world::World;
use ds_base::diagnostics::Diagnostic;
use ds_base::names::suggest;
use ds_syntax::ast::{self, BinOp, EdgeMode, Expr, ExprKind, Name, UnOp};
use ds_syntax::Span;
use std::cell::Cell;
use std::rc::Rc;

impl Compiler {
    fn ex(kind: ExKind, span: Span) -> Ex {
        Ex { kind, span }
    }

    fn bad(span: Span) -> Ex {
        Ex { kind: ExKind::Const(Value::None), span }
    }

    /// An expression used as a statement: a bare edge expression `X rel Y` sets the edge; in
    /// parentheses it only reads it (docs/language.md, decision 14).
    pub(super) fn expr_stmt(&mut self, e: &Expr, world: &mut World) -> StKind {
        if let Some(axiom) = self.axiom_stmt(e, world) {
            return axiom;
        }
        if let ExprKind::Edge { left, mode, rel, right } = &e.kind {
            if !e.is_parenthesised_edge() {
                let edge = self.edge(left, *mode, rel, right, world);
                return StKind::SetEdge(edge);
            }
        }
        let errors = self.errors.len();
        let ex = self.expr(e, world);
        if self.errors.len() == errors {
            self.warn_unused(e, &ex); // an expression in error compiles to a placeholder
        }
        StKind::Expr(ex)
    }

    pub(super) fn expr(&mut self, e: &Expr, world: &mut World) -> Ex {
        let span = e.span;
        if ds_base::guard::stack::exhausted() {
            self.error(span, "this is nested too deeply to compile: the native stack is used up");
            return Self::bad(span);
        }
        let kind = match &e.kind {
            ExprKind::Number(n) => ExKind::Const(Value::Num(*n)),
            ExprKind::Str(s) => ExKind::Const(Value::str(s)),
            ExprKind::Logic(t) => ExKind::Const(Value::Logic(match t {
                ast::Truth::True => Logic::TRUE,
                ast::Truth::False => Logic::FALSE,
                ast::Truth::Undef => Logic::UNDEF,
            })),
            ExprKind::None => ExKind::Const(Value::None),
            ExprKind::Name(n) => return self.name(n, span, world),
            ExprKind::NodeConst(n) => {
                self.note_name(SymbolKind::Node, n, span, false);
                ExKind::Node(Box::new(node_ref(n, world)))
            }
            ExprKind::EdgeConst(n) => match world.relation(n) {
                Some(id) => {
                    self.note_name(SymbolKind::Relation, n, span, false);
                    ExKind::Const(Value::Edge(id))
                }
                None => {
                    self.unknown_relation(n, span, world);
                    return Self::bad(span);
                }
            },
            ExprKind::Array(items) => ExKind::Array(self.exprs(items, world)),
            ExprKind::Map(entries) => {
                ExKind::Map(entries.iter().map(|(k, v)| (self.expr(k, world), self.expr(v, world))).collect())
            }
            ExprKind::Tuple(items) => {
                if items.len() > 4 {
                    self.error(span, "a tuple has 2 (logic value) to 4 (fuzzy number) items");
                }
                ExKind::Tuple(self.exprs(items, world))
            }
            ExprKind::Lambda(l) => ExKind::Lambda(Rc::new(self.lambda(l, world))),
            ExprKind::Call { name, args } => return self.call(name, args, span, world),
            ExprKind::Apply { callee, args } => {
                ExKind::CallValue { callee: Box::new(self.expr(callee, world)), args: self.exprs(args, world) }
            }
            ExprKind::Method { object, name, args } => return self.method(object, name, args, span, world),
            ExprKind::Field { object, name } => return self.field(object, name, span, world),
            ExprKind::NodeOf { graph, node } => {
                self.note_name(SymbolKind::Node, &node.text, node.span, false);
                ExKind::NodeOf { graph: Box::new(self.expr(graph, world)), node: Box::new(node_ref(&node.text, world)) }
            }
            ExprKind::Index { object, index } => {
                ExKind::Index { object: Box::new(self.expr(object, world)), index: Box::new(self.expr(index, world)) }
            }
            ExprKind::Unary { op, operand } => ExKind::Unary { op: *op, operand: Box::new(self.expr(operand, world)) },
            ExprKind::Binary { op: BinOp::Add, left, .. } if is_add(left) => ExKind::Sum(self.sum(e, world)),
            ExprKind::Binary { op, left, right } => {
                let (left, right) = (self.expr(left, world), self.expr(right, world));
                let num = super::arith::num_code(*op, &left, &right);
                ExKind::Binary { op: *op, left: Box::new(left), right: Box::new(right), num }
            }
            ExprKind::Edge { left, mode, rel, right } => {
                ExKind::Edge(Box::new(self.edge(left, *mode, rel, right, world)))
            }
            ExprKind::Ternary { cond, branches } => {
                ExKind::Ternary { cond: Box::new(self.expr(cond, world)), branches: self.exprs(branches, world) }
            }
            ExprKind::Assign { target, value } => {
                let value = Box::new(self.expr(value, world));
                let target = Box::new(self.target(target, world));
                ExKind::Assign { target, value }
            }
            ExprKind::CompoundAssign { op, target, value } => {
                let value = Box::new(self.expr(value, world));
                let target = Box::new(self.target(target, world));
                ExKind::Compound { op: *op, target, value }
            }
            ExprKind::IncDec { target, delta } => {
                ExKind::IncDec { target: Box::new(self.target(target, world)), delta: *delta }
            }
        };
        Self::ex(kind, span)
    }

    pub(super) fn exprs(&mut self, es: &[Expr], world: &mut World) -> Vec<Ex> {
        es.iter().map(|e| self.expr(e, world)).collect()
    }

    /// The operands of a left-nested chain of `+`, each with the span of the sum it ends.
    fn sum(&mut self, e: &Expr, world: &mut World) -> Box<[(Ex, Span)]> {
        let mut rights = Vec::new();
        let mut first = e;
        while let ExprKind::Binary { op: BinOp::Add, left, right } = &first.kind {
            rights.push((right, first.span));
            first = left;
        }
        let mut items = vec![(self.expr(first, world), first.span)];
        items.extend(rights.into_iter().rev().map(|(r, span)| (self.expr(r, world), span)));
        items.into_boxed_slice()
    }

    /// A bare name: variable, `GRAPH`, declared edge, declared node, in that order.
    fn name(&mut self, n: &Rc<str>, span: Span, world: &mut World) -> Ex {
        if let Some(slot) = self.lookup_var(n) {
            self.note_var(n, slot, span, false);
            return Self::ex(ExKind::Var(slot), span);
        }
        if &**n == "GRAPH" {
            return Self::ex(ExKind::CurrentGraph, span);
        }
        if let Some(id) = world.relation(n) {
            self.note_name(SymbolKind::Relation, n, span, false);
            return Self::ex(ExKind::Const(Value::Edge(id)), span);
        }
        if self.node_names.contains(n) {
            self.note_name(SymbolKind::Node, n, span, false);
            return Self::ex(ExKind::Node(Box::new(node_ref(n, world))), span);
        }
        if let Some(id) = self.demons.get(n).map(|sig| sig.id) {
            self.note_name(SymbolKind::Demon, n, span, false);
            return Self::ex(ExKind::DemonValue(id), span);
        }
        let hidden = self.hidden_from_here(n);
        let msg = if self.registry.is_module(n) {
            format!("module `{n}` must be followed by `.` and a function or constant")
        } else if hidden.is_some() {
            let what = if self.ctx().lambda { "lambda" } else { "demon" };
            format!("`{n}` is not visible in this {what}")
        } else {
            format!("unknown name `{n}`: not a variable, edge or node")
        };
        let mut d = Diagnostic::error(span, msg);
        let candidates = self.visible_names(world);
        if let Some(note) = hidden {
            d = d.with_note(note);
        } else if let Some(s) = suggest(n, candidates.iter().map(|s| &**s)) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        self.error_with(d);
        Self::bad(span)
    }

    /// Why a variable that exists is not visible here: it belongs to the code around a lambda,
    /// or to the top level (which a demon or lambda sees only through `global`).
    fn hidden_from_here(&self, n: &str) -> Option<String> {
        let ctx = self.ctx();
        if ctx.top_level {
            return None;
        }
        let outer = &self.ctx[..self.ctx.len() - 1];
        if ctx.lambda && outer.iter().any(|c| c.scopes.lookup(n).is_some()) {
            return Some(format!(
                "a lambda sees its parameters, its own variables, `GRAPH` and the top-level names shared with \
                 `global`, not the variables of the code around it; pass `{n}` as an argument, or keep it in a \
                 top-level variable shared with `global {n}`"
            ));
        }
        if !self.top.contains_key(n) {
            return None;
        }
        let what = if ctx.lambda { "a lambda" } else { "a demon" };
        Some(format!(
            "`{n}` is a top-level variable, which {what} does not see; write `global {n}` at the top level to share it"
        ))
    }

    fn visible_names(&self, world: &World) -> Vec<Rc<str>> {
        let mut v: Vec<Rc<str>> = Vec::new();
        v.extend(self.ctx().scopes.visible().map(|(k, _)| k.clone()));
        if self.ctx().top_level {
            v.extend(self.top.keys().cloned());
        } else {
            v.extend(self.shared.iter().cloned());
        }
        v.extend(world.relations.iter().skip(1).cloned());
        v.extend(self.node_names.iter().cloned());
        v.extend(self.demons.keys().cloned());
        v
    }

    pub(super) fn unknown_relation(&mut self, n: &str, span: Span, world: &World) {
        // `X word Y` reads as an edge; these words are other languages' operators.
        let meant = match n {
            "in" => Some("to ask whether an array or map holds a value, write `A.is(X)`"),
            "and" => Some("logic values are joined with `&`: `A & B`"),
            "or" => Some("logic values are joined with `|`: `A | B`"),
            "is" => Some("compare with `A == B`, or ask whether an array holds a value with `A.is(X)`"),
            _ => None,
        };
        if let Some(meant) = meant {
            let d = Diagnostic::error(span, format!("`{n}` is not an operator: {meant}")).with_note(format!(
                "between two values, `{n}` reads as an edge type (`X {n} Y`), and none is declared; `edges {n}` declares one"
            ));
            return self.error_with(d);
        }
        let mut d = Diagnostic::error(span, format!("unknown edge type `{n}`"));
        let names: Vec<Rc<str>> = world.relations.iter().skip(1).cloned().collect();
        if let Some(s) = suggest(n, names.iter().map(|s| &**s)) {
            d = d.with_note(format!("did you mean `{s}`?"));
        } else {
            d = d.with_note(format!("declare it first: `edges {n}`"));
        }
        self.error_with(d);
    }

    fn lambda(&mut self, l: &ast::LambdaAst, world: &mut World) -> FnCode {
        let mut code = self.function("lambda", true, &l.params, l.span, world, |c, world| {
            let body = match &l.body {
                ast::LambdaBody::Expr(e) => {
                    let ex = c.expr(e, world);
                    vec![St { span: ex.span, kind: StKind::Return(Some(ex)) }]
                }
                ast::LambdaBody::Block(b) => c.block(b, world),
            };
            (body, None, None, None)
        });
        code.expr_body = matches!(l.body, ast::LambdaBody::Expr(_));
        code.source = Some(l.text.clone());
        code
    }

    pub(super) fn arity_error(&mut self, what: &str, name: &str, expected: &str, got: usize, span: Span) {
        self.error(span, format!("{what} `{name}` takes {expected}, but {got} given"));
    }

    fn call(&mut self, name: &Name, args: &[Expr], span: Span, world: &mut World) -> Ex {
        let n = &*name.text;
        if let Some(sig) = self.demons.get(n).cloned() {
            self.note_name(SymbolKind::Demon, &name.text, name.span, false);
            if sig.arity != args.len() {
                self.arity_error("demon", n, &plural(sig.arity, "argument"), args.len(), span);
            }
            let args = self.exprs(args, world);
            return Self::ex(ExKind::Demon { id: sig.id, args }, span);
        }
        if let Some(b) = self.registry.function(n) {
            if let Body::Special(form) = b.body {
                return self.special_form(b, form, args, span, world);
            }
            if self.lookup_var(n).is_some() {
                self.warn_shadowed_by_builtin(name);
            }
            return self.builtin_call(b, args, span, world);
        }
        if let Some(slot) = self.lookup_var(n) {
            self.note_var(&name.text, slot, name.span, false);
            let args = self.exprs(args, world);
            let callee = Box::new(Self::ex(ExKind::Var(slot), name.span));
            return Self::ex(ExKind::CallValue { callee, args }, span);
        }
        let mut d = Diagnostic::error(name.span, format!("unknown demon or function `{n}`"));
        let mut candidates: Vec<String> = self.demons.keys().map(|k| k.to_string()).collect();
        candidates.extend(self.registry.function_names().map(String::from));
        if let Some(s) = suggest(n, candidates.iter().map(String::as_str)) {
            d = d.with_note(format!("did you mean `{s}`?"));
        }
        self.error_with(d);
        Self::bad(span)
    }

    /// A call of a function: its arguments counted, then compiled.
    fn builtin_call(&mut self, b: &'static Builtin, args: &[Expr], span: Span, world: &mut World) -> Ex {
        self.check_builtin_arity(b.name, b.arity, args.len(), span);
        let args = self.exprs(args, world);
        match b.body {
            Body::Native(f) => Self::ex(ExKind::Builtin { name: b.name, f: Callee::Fn(f), object: None, args }, span),
            Body::Special(_) => Self::bad(span), // the callers compile special forms first
        }
    }

    fn check_builtin_arity(&mut self, name: &str, arity: Arity, got: usize, span: Span) {
        if !arity.accepts(got) {
            self.arity_error("function", name, &arity.describe(), got, span);
        }
    }

    fn module_name(&self, object: &Expr) -> Option<&'static str> {
        match &object.kind {
            ExprKind::Name(n) if self.lookup_var(n).is_none() => self.registry.module(n),
            _ => None,
        }
    }

    fn method(&mut self, object: &Expr, name: &Name, args: &[Expr], span: Span, world: &mut World) -> Ex {
        if let Some(module) = self.module_name(object) {
            let full = format!("{module}.{}", name.text);
            return match self.registry.function(&full) {
                Some(b) => match b.body {
                    Body::Special(form) => self.special_form(b, form, args, span, world),
                    Body::Native(_) => self.builtin_call(b, args, span, world),
                },
                None => {
                    let mut d =
                        Diagnostic::error(name.span, format!("module `{module}` has no function `{}`", name.text));
                    let prefix = format!("{module}.");
                    let names: Vec<&str> =
                        self.registry.function_names().filter_map(|n| n.strip_prefix(&prefix)).collect();
                    if let Some(s) = suggest(&name.text, names) {
                        d = d.with_note(format!("did you mean `{module}.{s}`?"));
                    }
                    self.error_with(d);
                    Self::bad(span)
                }
            };
        }
        match self.registry.method(&name.text) {
            Some(set) => {
                self.check_builtin_arity(set.name, set.arity, args.len(), span);
                let object = Some(Box::new(self.expr(object, world)));
                let args = self.exprs(args, world);
                Self::ex(ExKind::Builtin { name: set.name, f: Callee::of(set), object, args }, span)
            }
            // A demon written as a method, `X.d(args)`, is `d(args)`: the object is not used
            // (reference 4.7).
            None if self.demons.contains_key(&name.text) => self.call(name, args, span, world),
            None => {
                let mut d = Diagnostic::error(name.span, format!("unknown method `{}`", name.text));
                if let Some(s) = suggest(&name.text, self.registry.method_names()) {
                    d = d.with_note(format!("did you mean `{s}`?"));
                }
                self.error_with(d);
                Self::bad(span)
            }
        }
    }

    /// `Math.PI`, `G.$n`, `G.n`.
    fn field(&mut self, object: &Expr, name: &Name, span: Span, world: &mut World) -> Ex {
        if let Some(module) = self.module_name(object) {
            let full = format!("{module}.{}", name.text);
            return match self.registry.constant(&full) {
                Some(v) => Self::ex(ExKind::Const(v), span),
                None => {
                    self.error(name.span, format!("module `{module}` has no constant `{}`", name.text));
                    Self::bad(span)
                }
            };
        }
        let graph = Box::new(self.expr(object, world));
        self.note_name(SymbolKind::Node, &name.text, name.span, false);
        Self::ex(ExKind::NodeOf { graph, node: Box::new(node_ref(&name.text, world)) }, span)
    }

    fn operand(&mut self, e: &Expr, world: &mut World) -> Operand {
        let item = |c: &mut Self, e: &Expr, world: &mut World| match &e.kind {
            ExprKind::Unary { op: UnOp::Not, operand } => (EdgeMode::Not, c.expr(operand, world)),
            ExprKind::Unary { op: UnOp::IsUndef, operand } => (EdgeMode::Undef, c.expr(operand, world)),
            _ => (EdgeMode::Is, c.expr(e, world)),
        };
        match &e.kind {
            ExprKind::Array(items) => Operand::Group(items.iter().map(|i| item(self, i, world)).collect()),
            ExprKind::Unary { op: UnOp::Not | UnOp::IsUndef, .. } => Operand::Group(vec![item(self, e, world)]),
            _ => Operand::Single(self.expr(e, world)),
        }
    }

    pub(super) fn edge(&mut self, left: &Expr, mode: EdgeMode, rel: &Name, right: &Expr, world: &mut World) -> EdgeEx {
        let left = self.operand(left, world);
        let right = self.operand(right, world);
        let rel_kind = if let Some(slot) = self.lookup_var(&rel.text) {
            self.note_var(&rel.text, slot, rel.span, false);
            Rel::Var(slot)
        } else if let Some(id) = world.relation(&rel.text) {
            self.note_name(SymbolKind::Relation, &rel.text, rel.span, false);
            Rel::Fixed(id)
        } else if let Some(sig) = self.demons.get(&rel.text).cloned() {
            self.note_name(SymbolKind::Demon, &rel.text, rel.span, false);
            if sig.arity != 2 {
                self.error(
                    rel.span,
                    format!("demon `{}` is used as a relation, so it needs 2 parameters, not {}", rel.text, sig.arity),
                );
            }
            Rel::Demon(sig.id)
        } else {
            self.unknown_relation(&rel.text, rel.span, world);
            Rel::Fixed(0)
        };
        EdgeEx { left, mode, rel: rel_kind, rel_span: rel.span, right }
    }

    /// The left side of `=` and friends.
    fn target(&mut self, e: &Expr, world: &mut World) -> Target {
        match &e.kind {
            ExprKind::Name(n) => {
                if let Some(slot) = self.lookup_var(n) {
                    self.note_var(n, slot, e.span, false);
                    return Target::Var(slot);
                }
                if &**n == "GRAPH" {
                    self.ctx_mut().sets_graph = true;
                    return Target::CurrentGraph;
                }
                let mut d = Diagnostic::error(e.span, format!("cannot assign to `{n}`: it is not a declared variable"));
                d = match self.hidden_from_here(n) {
                    Some(note) => d.with_note(note),
                    None => d.with_note(format!("declare it first: `var {n} = ...`")),
                };
                self.error_with(d);
                Target::Var(Slot::Global(0))
            }
            ExprKind::Index { object, index } => {
                Target::Index { object: self.expr(object, world), index: self.expr(index, world) }
            }
            ExprKind::Edge { left, mode, rel, right } => Target::Edge(self.edge(left, *mode, rel, right, world)),
            ExprKind::Call { name, args } if self.demons.contains_key(&name.text) => {
                let sig = self.demons[&name.text].clone();
                self.note_name(SymbolKind::Demon, &name.text, name.span, false);
                if sig.arity != args.len() {
                    self.arity_error("demon", &name.text, &plural(sig.arity, "argument"), args.len(), e.span);
                }
                Target::Demon { id: sig.id, args: self.exprs(args, world) }
            }
            _ => {
                self.error(e.span, "this expression cannot be assigned to");
                Target::Var(Slot::Global(0))
            }
        }
    }
}

pub(super) fn node_ref(name: &Rc<str>, world: &mut World) -> NodeRef {
    let sym = world.symbols.intern(name);
    let alt = name.strip_prefix('$').filter(|s| !s.is_empty()).map(|s| world.symbols.intern(s));
    NodeRef { name: name.clone(), sym, alt, cache: Cell::new(None) }
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn is_add(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Binary { op: BinOp::Add, .. })
}

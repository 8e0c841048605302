//! Which local of a search's `Next` only collects successors: declared `var L = []` (or
//! assigned `L = []`) by a statement of the body's top level, then only given to `L.push(X)` (one argument, as a
//! statement) and `return L`. Such an array is never read while it is built and is held by
//! nobody but the caller once returned, so a search may take each pushed value as it is
//! pushed instead of through the array (`eval/sink.rs`). Any other mention of the local (read,
//! indexed, sized, passed on, stored, assigned, bound by a loop or a quantifier, visible to an
//! `eval`) keeps the array.

use super::ir::*;

/// The slot of the successor-collecting local of `code`, if it has one.
pub fn successor_local(code: &FnCode) -> Option<u32> {
    if code.get.is_some() || code.set.is_some() || code.value_slot.is_some() {
        return None;
    }
    let decls = code.body.iter().enumerate().filter_map(|(i, s)| Some((i, empty_array_decl(s)?)));
    decls.into_iter().find(|&(at, slot)| only_pushed_and_returned(&code.body, at, slot)).map(|(_, slot)| slot)
}

/// Whether local `slot`, declared by top-level statement `at` of `body`, is mentioned only by
/// pushes and returns after it.
fn only_pushed_and_returned(body: &[St], at: usize, slot: u32) -> bool {
    let mut uses = Uses { slot: Slot::Local(slot), other: false };
    for (i, s) in body.iter().enumerate().filter(|&(i, _)| i != at) {
        uses.stmt(s, i < at);
    }
    !uses.other
}

/// `var L = []` or `L = []` (which `var` compiles to), L a local.
fn empty_array_decl(s: &St) -> Option<u32> {
    let is_empty = |e: &Ex| matches!(&e.kind, ExKind::Array(v) if v.is_empty());
    match &s.kind {
        StKind::Var(items) => match &items[..] {
            [(Slot::Local(l), Some(e))] if is_empty(e) => Some(*l),
            _ => None,
        },
        StKind::Expr(Ex { kind: ExKind::Assign { target, value }, .. }) => match **target {
            Target::Var(Slot::Local(l)) if is_empty(value) => Some(l),
            _ => None,
        },
        _ => None,
    }
}

/// Walks code for mentions of `slot` other than a push or a return of it.
struct Uses {
    slot: Slot,
    /// A mention that is not a push or return was found.
    other: bool,
}

impl Uses {
    fn mention(&mut self, s: Slot) {
        if s == self.slot {
            self.other = true;
        }
    }

    /// `before`: the statement comes before the declaration, where even a push is a use.
    fn stmt(&mut self, s: &St, before: bool) {
        match &s.kind {
            StKind::Expr(e) if !before && self.is_push(e) => {
                let ExKind::Builtin { args, .. } = &e.kind else { unreachable!() };
                self.exprs(args);
            }
            StKind::Return(Some(Ex { kind: ExKind::Var(v), .. })) if !before && *v == self.slot => {}
            StKind::Expr(e) | StKind::ReturnIfdef(e) | StKind::Return(Some(e)) => self.expr(e),
            StKind::SetEdge(edge) => self.edge(edge),
            StKind::Axiom(ax) => self.axiom(ax),
            StKind::Var(items) | StKind::Static { items, .. } => {
                for (slot, init) in items {
                    self.mention(*slot);
                    init.iter().for_each(|e| self.expr(e));
                }
            }
            StKind::Nodes { graph, .. } => graph.iter().for_each(|e| self.expr(e)),
            StKind::Out { items, .. } => items.iter().for_each(|(_, e)| self.expr(e)),
            StKind::If(arms) => {
                for arm in arms.iter() {
                    self.expr(&arm.cond);
                    let blocks = [Some(&arm.then), arm.on_false.as_ref(), arm.on_undef.as_ref(), arm.on_else.as_ref()];
                    blocks.into_iter().flatten().for_each(|b| self.block(b, before));
                }
            }
            StKind::While { cond, body } => {
                self.expr(cond);
                self.block(body, before);
            }
            StKind::ForRange { vars, args, body } => {
                vars.iter().for_each(|v| self.mention(*v));
                self.exprs(args);
                self.block(body, before);
            }
            StKind::ForValue { vars, source, body } => {
                vars.iter().for_each(|v| self.mention(*v));
                self.expr(source);
                self.block(body, before);
            }
            StKind::ForNodes { vars, cond, body } => {
                vars.iter().for_each(|v| self.mention(*v));
                cond.iter().for_each(|e| self.expr(e));
                self.block(body, before);
            }
            StKind::Block(body) => self.block(body, before),
            StKind::Return(None) | StKind::Break | StKind::Continue => {}
        }
    }

    fn block(&mut self, body: &[St], before: bool) {
        body.iter().for_each(|s| self.stmt(s, before));
    }

    /// `L.push(X)`: one argument, the object the local itself.
    fn is_push(&self, e: &Ex) -> bool {
        match &e.kind {
            ExKind::Builtin { name: "push", object: Some(o), args, .. } => {
                args.len() == 1 && matches!(o.kind, ExKind::Var(v) if v == self.slot)
            }
            _ => false,
        }
    }

    fn exprs(&mut self, es: &[Ex]) {
        es.iter().for_each(|e| self.expr(e));
    }

    fn expr(&mut self, e: &Ex) {
        match &e.kind {
            ExKind::Const(_) | ExKind::CurrentGraph | ExKind::Node(_) | ExKind::DemonValue(_) => {}
            // a lambda's locals are its own frame's
            ExKind::Lambda(_) => {}
            ExKind::Var(v) => self.mention(*v),
            ExKind::Array(items) | ExKind::Tuple(items) | ExKind::AndOr { args: items, .. } => self.exprs(items),
            ExKind::Demon { args, .. } => self.exprs(args),
            ExKind::Map(entries) => entries.iter().for_each(|(k, v)| {
                self.expr(k);
                self.expr(v);
            }),
            ExKind::CallValue { callee, args } => {
                self.expr(callee);
                self.exprs(args);
            }
            ExKind::Builtin { object, args, .. } => {
                object.iter().for_each(|o| self.expr(o));
                self.exprs(args);
            }
            ExKind::Exists { var, cond, min, max } => {
                self.mention(*var);
                self.expr(cond);
                min.iter().chain(max.iter()).for_each(|e| self.expr(e));
            }
            ExKind::Forall { var, cond } => {
                self.mention(*var);
                self.expr(cond);
            }
            ExKind::Eval { arg, scope } => {
                scope.vars.values().for_each(|v| self.mention(*v));
                self.expr(arg);
            }
            ExKind::NodeOf { graph, .. } => self.expr(graph),
            ExKind::Index { object, index } => {
                self.expr(object);
                self.expr(index);
            }
            ExKind::Unary { operand, .. } => self.expr(operand),
            ExKind::Binary { left, right, num, .. } => {
                self.expr(left);
                self.expr(right);
                for op in num.iter().flat_map(|n| n.ops.iter()) {
                    if let NumOp::Load(Leaf::Var(v)) | NumOp::With(_, Leaf::Var(v)) | NumOp::WithRev(_, Leaf::Var(v)) =
                        op
                    {
                        self.mention(*v);
                    }
                }
            }
            ExKind::Sum(items) => items.iter().for_each(|(e, _)| self.expr(e)),
            ExKind::Edge(edge) => self.edge(edge),
            ExKind::Ternary { cond, branches } => {
                self.expr(cond);
                self.exprs(branches);
            }
            ExKind::Assign { target, value } | ExKind::Compound { target, value, .. } => {
                self.target(target);
                self.expr(value);
            }
            ExKind::IncDec { target, .. } => self.target(target),
            ExKind::Axioms { axioms, .. } => axioms.iter().for_each(|ax| self.axiom(ax)),
            ExKind::ValueInModels { models, expr } => {
                self.expr(models);
                self.expr(expr);
            }
        }
    }

    fn target(&mut self, t: &Target) {
        match t {
            Target::Var(v) => self.mention(*v),
            Target::CurrentGraph => {}
            Target::Index { object, index } => {
                self.expr(object);
                self.expr(index);
            }
            Target::Edge(edge) => self.edge(edge),
            Target::Demon { args, .. } => self.exprs(args),
        }
    }

    fn edge(&mut self, edge: &EdgeEx) {
        self.rel(&edge.rel);
        for side in [&edge.left, &edge.right] {
            match side {
                Operand::Single(e) => self.expr(e),
                Operand::Group(items) => items.iter().for_each(|(_, e)| self.expr(e)),
            }
        }
    }

    fn rel(&mut self, rel: &Rel) {
        if let Rel::Var(v) = rel {
            self.mention(*v);
        }
    }

    fn axiom(&mut self, ax: &AxiomEx) {
        let term = |t: &TermEx, this: &mut Self| {
            if let TermEx::Fixed(e) = t {
                this.expr(e);
            }
        };
        for atom in &ax.atoms {
            match atom {
                AtomEx::Edge { rel, from, to, .. } => {
                    self.rel(rel);
                    term(from, self);
                    term(to, self);
                }
                AtomEx::Same(a, b) => {
                    term(a, self);
                    term(b, self);
                }
            }
        }
    }
}

//! Compiling axioms: the arguments of `Mind.add`, `Mind.add_usual` and `set`, and statements
//! `A -> B` / `A | B` made of edge literals. An axiom is not evaluated: its literals become
//! atoms, its connectives clauses (`mind::cnf`), and a name that is not a variable, an edge
//! type or a declared node becomes a universally quantified variable.

use super::index::SymbolKind;
use super::ir::*;
use super::Compiler;
use crate::mind::clause::MAX_VARS;
use crate::mind::cnf::{self, Formula};
use crate::world::World;
use ds_base::diagnostics::Diagnostic;
use ds_syntax::ast::{BinOp, EdgeMode, Expr, ExprKind, Name, UnOp};
use ds_syntax::Span;
use std::rc::Rc;

/// The most clauses one axiom may expand to.
const MAX_CLAUSES: usize = 256;

const AXIOM_FORM: &str = "an axiom joins edge literals `X rel Y`, `X !rel Y` (and `X == Y`, `X != Y`) with \
                          `!`, `&`, `|`, `->`, `<->`; a name that is not declared stands for any node";

/// Whether a statement is one that the reference stores as an axiom of the current graph:
/// `A -> B` or `A | B` whose leaves are literals over names and `$nodes`, at least one of them
/// an edge literal. Anything else (`f() | g()`) is an ordinary expression.
pub fn axiom_shaped(e: &Expr) -> bool {
    let mut edges = 0;
    matches!(e.kind, ExprKind::Binary { op: BinOp::Or | BinOp::Implies, .. })
        && formula_shaped(e, &mut edges)
        && edges > 0
}

fn formula_shaped(e: &Expr, edges: &mut usize) -> bool {
    match &e.kind {
        ExprKind::Binary { op: BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv, left, right } => {
            formula_shaped(left, edges) && formula_shaped(right, edges)
        }
        ExprKind::Unary { op: UnOp::Not, operand } => formula_shaped(operand, edges),
        ExprKind::Binary { op: BinOp::Eq | BinOp::Ne, left, right } => is_term(left) && is_term(right),
        ExprKind::Edge { left, mode: EdgeMode::Is | EdgeMode::Not, right, .. } => {
            *edges += 1;
            is_term(strip_not(left).1) && is_term(strip_not(right).1)
        }
        _ => false,
    }
}

fn is_term(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Name(_) | ExprKind::NodeConst(_))
}

/// `!X` as an end of an edge literal negates the literal (`!X rel Y` is `X !rel Y`).
fn strip_not(e: &Expr) -> (bool, &Expr) {
    match &e.kind {
        ExprKind::Unary { op: UnOp::Not, operand } => (true, operand),
        _ => (false, e),
    }
}

/// An axiom's atoms and variables while it is compiled.
#[derive(Default)]
struct Parts {
    atoms: Vec<AtomEx>,
    vars: Vec<Rc<str>>,
}

impl Compiler {
    /// A statement `A -> B` / `A | B` that is an axiom; None when it is an ordinary expression
    /// (a relation in it is a demon, which an axiom cannot use).
    pub(super) fn axiom_stmt(&mut self, e: &Expr, world: &mut World) -> Option<StKind> {
        if !axiom_shaped(e) || self.has_demon_relation(e, world) {
            return None;
        }
        Some(match self.axiom(e, "an axiom statement", world) {
            Some(ax) => StKind::Axiom(ax),
            None => StKind::Expr(Ex { kind: ExKind::Const(crate::value::Value::None), span: e.span }),
        })
    }

    fn has_demon_relation(&self, e: &Expr, world: &World) -> bool {
        match &e.kind {
            ExprKind::Binary { left, right, .. } => {
                self.has_demon_relation(left, world) || self.has_demon_relation(right, world)
            }
            ExprKind::Unary { operand, .. } => self.has_demon_relation(operand, world),
            ExprKind::Edge { rel, .. } => {
                self.lookup_var(&rel.text).is_none()
                    && world.relation(&rel.text).is_none()
                    && self.demons.contains_key(&rel.text)
            }
            _ => false,
        }
    }

    /// `Mind.add(A, ...)`, `Mind.add_usual(A, ...)`, `set(A, ...)`: every argument an axiom.
    pub(super) fn axioms_call(
        &mut self,
        fname: &str,
        usage: AxiomUse,
        args: &[Expr],
        span: Span,
        world: &mut World,
    ) -> Ex {
        if args.is_empty() {
            self.error(span, format!("function `{fname}` takes at least 1 argument (an axiom), but 0 given"));
        }
        let axioms: Vec<Option<AxiomEx>> = args.iter().map(|a| self.axiom(a, fname, world)).collect();
        match axioms.into_iter().collect::<Option<Vec<_>>>() {
            Some(axioms) => Ex { kind: ExKind::Axioms { usage, axioms }, span },
            None => Ex { kind: ExKind::Const(crate::value::Value::None), span },
        }
    }

    /// Compiles one axiom; None after reporting why it is not one.
    pub(super) fn axiom(&mut self, e: &Expr, what: &str, world: &mut World) -> Option<AxiomEx> {
        let mut parts = Parts::default();
        let f = self.formula(e, what, &mut parts, world)?;
        if parts.vars.len() > MAX_VARS {
            self.error(
                e.span,
                format!("this axiom has {} variables; at most {MAX_VARS} are allowed", parts.vars.len()),
            );
            return None;
        }
        let Some(clauses) = cnf::clauses(&f, MAX_CLAUSES) else {
            self.error(e.span, format!("this axiom is too big: it makes more than {MAX_CLAUSES} clauses"));
            return None;
        };
        Some(AxiomEx { atoms: parts.atoms, clauses, vars: parts.vars, span: e.span })
    }

    fn formula(&mut self, e: &Expr, what: &str, p: &mut Parts, world: &mut World) -> Option<Formula> {
        let sub = |c: &mut Self, x: &Expr, p: &mut Parts, world: &mut World| c.formula(x, what, p, world).map(Box::new);
        Some(match &e.kind {
            ExprKind::Binary { op, left, right }
                if matches!(op, BinOp::And | BinOp::Or | BinOp::Implies | BinOp::Equiv) =>
            {
                let (l, r) = (sub(self, left, p, world)?, sub(self, right, p, world)?);
                match op {
                    BinOp::And => Formula::And(l, r),
                    BinOp::Or => Formula::Or(l, r),
                    BinOp::Implies => Formula::Implies(l, r),
                    _ => Formula::Equiv(l, r),
                }
            }
            ExprKind::Unary { op: UnOp::Not, operand } => Formula::Not(sub(self, operand, p, world)?),
            ExprKind::Binary { op: op @ (BinOp::Eq | BinOp::Ne), left, right } => {
                let a = self.axiom_term(left, what, p, world)?;
                let b = self.axiom_term(right, what, p, world)?;
                let atom = Formula::Atom(push(&mut p.atoms, AtomEx::Same(a, b)));
                if *op == BinOp::Ne {
                    Formula::Not(Box::new(atom))
                } else {
                    atom
                }
            }
            ExprKind::Edge { left, mode, rel, right } => {
                return self.edge_literal(left, *mode, rel, right, what, p, world)
            }
            _ => {
                let d = Diagnostic::error(e.span, format!("`{what}` takes axioms, and this is not one"))
                    .with_note(AXIOM_FORM)
                    .with_note("for example: `Mind.add(X part Y & Y part Z -> X part Z)`");
                self.error_with(d);
                return None;
            }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn edge_literal(
        &mut self,
        left: &Expr,
        mode: EdgeMode,
        rel: &Name,
        right: &Expr,
        what: &str,
        p: &mut Parts,
        world: &mut World,
    ) -> Option<Formula> {
        if mode == EdgeMode::Undef {
            self.error(rel.span, "an axiom cannot use `?rel`: its literals say that an edge is True or False");
            return None;
        }
        let (not_l, left) = strip_not(left);
        let (not_r, right) = strip_not(right);
        let from = self.axiom_term(left, what, p, world)?;
        let to = self.axiom_term(right, what, p, world)?;
        let rel_kind = self.axiom_relation(rel, world)?;
        let atom = Formula::Atom(push(&mut p.atoms, AtomEx::Edge { rel: rel_kind, rel_span: rel.span, from, to }));
        let negative = (mode == EdgeMode::Not) ^ not_l ^ not_r;
        Some(if negative { Formula::Not(Box::new(atom)) } else { atom })
    }

    fn axiom_relation(&mut self, rel: &Name, world: &World) -> Option<Rel> {
        if let Some(slot) = self.lookup_var(&rel.text) {
            self.note_var(&rel.text, slot, rel.span, false);
            return Some(Rel::Var(slot));
        }
        if let Some(id) = world.relation(&rel.text) {
            self.note_name(SymbolKind::Relation, &rel.text, rel.span, false);
            return Some(Rel::Fixed(id));
        }
        if self.demons.contains_key(&rel.text) {
            self.error(rel.span, format!("an axiom cannot use demon `{}` as a relation, only edge types", rel.text));
        } else {
            self.unknown_relation(&rel.text, rel.span, world);
        }
        None
    }

    /// A name (a variable or declared node: fixed; anything else: a quantified variable) or a
    /// `$node` constant.
    fn axiom_term(&mut self, e: &Expr, what: &str, p: &mut Parts, world: &mut World) -> Option<TermEx> {
        let fixed = |kind| Some(TermEx::Fixed(Ex { kind, span: e.span }));
        match &e.kind {
            ExprKind::Name(n) => {
                if let Some(slot) = self.lookup_var(n) {
                    self.note_var(n, slot, e.span, false);
                    return fixed(ExKind::Var(slot));
                }
                if self.node_names.contains(n) {
                    self.note_name(SymbolKind::Node, n, e.span, false);
                    return fixed(ExKind::Node(Box::new(super::expr::node_ref(n, world))));
                }
                if &**n == "GRAPH" || world.relation(n).is_some() {
                    self.error(e.span, format!("`{n}` cannot be a node of an axiom"));
                    return None;
                }
                let index = match p.vars.iter().position(|v| v == n) {
                    Some(i) => i,
                    None => push(&mut p.vars, n.clone()),
                };
                Some(TermEx::Var(index.min(u8::MAX as usize) as u8))
            }
            ExprKind::NodeConst(n) => {
                self.note_name(SymbolKind::Node, n, e.span, false);
                fixed(ExKind::Node(Box::new(super::expr::node_ref(n, world))))
            }
            _ => {
                let d = Diagnostic::error(e.span, format!("`{what}`: an axiom's nodes are names or `$node` constants"))
                    .with_note(AXIOM_FORM);
                self.error_with(d);
                None
            }
        }
    }
}

fn push<T>(v: &mut Vec<T>, item: T) -> usize {
    v.push(item);
    v.len() - 1
}

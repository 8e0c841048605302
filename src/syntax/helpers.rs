//! Small constructors the grammar's actions call, so each action stays one line long.

use super::ast::*;
use super::token::Tok;
use lalrpop_util::ParseError;
use std::rc::Rc;

/// Errors raised by grammar actions (not by the LR machine itself).
#[derive(Debug, Clone, PartialEq)]
pub struct GrammarError {
    pub message: String,
    pub span: Span,
}

type ActionResult<T> = Result<T, ParseError<usize, Tok, GrammarError>>;

pub fn push<T>(mut v: Vec<T>, t: T) -> Vec<T> {
    v.push(t);
    v
}

pub fn prepend<T>(first: T, mut rest: Vec<T>) -> Vec<T> {
    rest.insert(0, first);
    rest
}

fn boxed(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub fn binary(op: BinOp, left: Expr, right: Expr, span: Span) -> Expr {
    boxed(ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, span)
}

pub fn unary(op: UnOp, operand: Expr, span: Span) -> Expr {
    boxed(ExprKind::Unary { op, operand: Box::new(operand) }, span)
}

pub fn edge(left: Expr, mode: EdgeMode, rel: Name, right: Expr, span: Span) -> Expr {
    boxed(ExprKind::Edge { left: Box::new(left), mode, rel, right: Box::new(right) }, span)
}

pub fn ternary(cond: Expr, branches: Vec<Expr>, span: Span) -> Expr {
    boxed(ExprKind::Ternary { cond: Box::new(cond), branches }, span)
}

pub fn assign(target: Expr, value: Expr, span: Span) -> Expr {
    boxed(ExprKind::Assign { target: Box::new(target), value: Box::new(value) }, span)
}

pub fn compound(op: BinOp, target: Expr, value: Expr, span: Span) -> Expr {
    boxed(ExprKind::CompoundAssign { op, target: Box::new(target), value: Box::new(value) }, span)
}

pub fn inc_dec(target: Expr, delta: f64, span: Span) -> Expr {
    boxed(ExprKind::IncDec { target: Box::new(target), delta }, span)
}

pub fn index(object: Expr, index: Expr, span: Span) -> Expr {
    boxed(ExprKind::Index { object: Box::new(object), index: Box::new(index) }, span)
}

pub fn apply(callee: Expr, args: Vec<Expr>, span: Span) -> Expr {
    boxed(ExprKind::Apply { callee: Box::new(callee), args }, span)
}

pub fn method(object: Expr, name: Name, args: Vec<Expr>, span: Span) -> Expr {
    boxed(ExprKind::Method { object: Box::new(object), name, args }, span)
}

pub fn field(object: Expr, name: Name, span: Span) -> Expr {
    boxed(ExprKind::Field { object: Box::new(object), name }, span)
}

pub fn node_of(graph: Expr, node: Name, span: Span) -> Expr {
    boxed(ExprKind::NodeOf { graph: Box::new(graph), node }, span)
}

/// `( e )` keeps the inner expression but takes the span of the parentheses.
pub fn paren(mut e: Expr, span: Span) -> Expr {
    e.span = span;
    e
}

pub fn lambda(params: Option<Vec<Name>>, body: LambdaBody, span: Span) -> Expr {
    let params = params.unwrap_or_default();
    boxed(ExprKind::Lambda(Rc::new(LambdaAst { params, body, span })), span)
}

/// The block of `: statement`; `: { ... }` is the braced block itself.
pub fn single(s: Stmt) -> Block {
    match s.kind {
        StmtKind::Block(b) => b,
        _ => Block { span: s.span, stmts: vec![s], colon: true },
    }
}

pub fn braced(stmts: Option<Vec<Stmt>>, span: Span) -> Block {
    Block { stmts: stmts.unwrap_or_default(), colon: false, span }
}

pub fn if_stmt(cond: Expr, then: Block) -> StmtKind {
    StmtKind::If(Box::new(IfStmt { cond, then, on_false: None, on_undef: None, on_else: None }))
}

pub fn def(name: Name, params: Option<Vec<Name>>, body: DefBodyParts, span: Span) -> StmtKind {
    let (body, get, set) = body;
    StmtKind::Def(Rc::new(DefAst { name, params: params.unwrap_or_default(), body, get, set, span }))
}

pub type DefBodyParts = (Vec<Stmt>, Option<Vec<Stmt>>, Option<Vec<Stmt>>);

/// Attaches a `false` / `undef` / `else` clause to the innermost `if` of the statement before it
/// that can still take it (the usual dangling-else rule, extended to three clause words).
pub fn attach_clause(mut stmts: Vec<Stmt>, (kind, block, span): (ClauseKind, Block, Span)) -> ActionResult<Vec<Stmt>> {
    let target = stmts.last_mut().and_then(|s| innermost_if(s, kind));
    match target {
        Some(ifs) => {
            let slot = match kind {
                ClauseKind::False => &mut ifs.on_false,
                ClauseKind::Undef => &mut ifs.on_undef,
                ClauseKind::Else => &mut ifs.on_else,
            };
            *slot = Some(block);
            if let Some(last) = stmts.last_mut() {
                last.span = last.span.to(span);
            }
            Ok(stmts)
        }
        None => Err(ParseError::User {
            error: GrammarError {
                message: format!("`{}` without an `if` before it that can take it", kind.word()),
                span: Span { file: span.file, lo: span.lo, hi: span.lo + kind.word().len() as u32 },
            },
        }),
    }
}

fn accepts(ifs: &IfStmt, kind: ClauseKind) -> bool {
    if ifs.on_else.is_some() {
        return false;
    }
    match kind {
        ClauseKind::False => ifs.on_false.is_none(),
        ClauseKind::Undef => ifs.on_undef.is_none(),
        ClauseKind::Else => true,
    }
}

/// The block that ended last in a statement, if it was a one-statement `:` block.
fn open_tail(s: &mut Stmt) -> Option<&mut Stmt> {
    let block = match &mut s.kind {
        StmtKind::If(ifs) => {
            let ifs = &mut **ifs;
            if let Some(b) = ifs.on_else.as_mut() {
                b
            } else {
                // The last clause written is the one that ended last; clauses are kept in order
                // of appearance only implicitly, so prefer the most recently filled slot.
                match (ifs.on_undef.as_mut(), ifs.on_false.as_mut()) {
                    (Some(b), _) => b,
                    (None, Some(b)) => b,
                    (None, None) => &mut ifs.then,
                }
            }
        }
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => body,
        _ => return None,
    };
    if block.colon {
        block.stmts.last_mut()
    } else {
        None
    }
}

fn innermost_if(s: &mut Stmt, kind: ClauseKind) -> Option<&mut IfStmt> {
    // Look inside first: an inner `if` that can take the clause wins.
    let inner_found = match open_tail(s) {
        Some(inner) => innermost_if(inner, kind).is_some(),
        None => false,
    };
    if inner_found {
        return open_tail(s).and_then(|inner| innermost_if(inner, kind));
    }
    match &mut s.kind {
        StmtKind::If(ifs) if accepts(ifs, kind) => Some(&mut **ifs),
        _ => None,
    }
}

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

/// A node of the tree, refused when it nests deeper than `MAX_DEPTH` (checked as the tree is
/// built, so that not even a partly built tree is too deep to drop).
fn boxed(kind: ExprKind, span: Span) -> ActionResult<Expr> {
    nested(Expr::new(kind, span), |e| (e.depth, e.span))
}

fn nested<T>(node: T, at: impl Fn(&T) -> (u32, Span)) -> ActionResult<T> {
    let (depth, span) = at(&node);
    if depth <= MAX_DEPTH {
        return Ok(node);
    }
    let message = format!("this is nested more than {MAX_DEPTH} levels deep");
    Err(ParseError::User { error: GrammarError { message, span: Span { hi: span.lo + 1, ..span } } })
}

/// An atom (a literal, a name, a call, an array or map literal).
pub fn atom(kind: ExprKind, span: Span) -> ActionResult<Expr> {
    boxed(kind, span)
}

/// A statement, refused when too deep (see `boxed`).
pub fn stmt(kind: StmtKind, span: Span) -> ActionResult<Stmt> {
    nested(Stmt::new(kind, span), |s| (s.depth, s.span))
}

pub fn binary(op: BinOp, left: Expr, right: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Binary { op, left: Box::new(left), right: Box::new(right) }, span)
}

pub fn unary(op: UnOp, operand: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Unary { op, operand: Box::new(operand) }, span)
}

pub fn edge(left: Expr, mode: EdgeMode, rel: Name, right: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Edge { left: Box::new(left), mode, rel, right: Box::new(right) }, span)
}

pub fn ternary(cond: Expr, branches: Vec<Expr>, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Ternary { cond: Box::new(cond), branches }, span)
}

pub fn assign(target: Expr, value: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Assign { target: Box::new(target), value: Box::new(value) }, span)
}

pub fn compound(op: BinOp, target: Expr, value: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::CompoundAssign { op, target: Box::new(target), value: Box::new(value) }, span)
}

pub fn inc_dec(target: Expr, delta: f64, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::IncDec { target: Box::new(target), delta }, span)
}

pub fn index(object: Expr, index: Expr, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Index { object: Box::new(object), index: Box::new(index) }, span)
}

pub fn apply(callee: ActionResult<Expr>, args: Vec<Expr>, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Apply { callee: Box::new(callee?), args }, span)
}

pub fn method(object: Expr, name: Name, args: Vec<Expr>, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Method { object: Box::new(object), name, args }, span)
}

pub fn field(object: Expr, name: Name, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::Field { object: Box::new(object), name }, span)
}

pub fn node_of(graph: Expr, node: Name, span: Span) -> ActionResult<Expr> {
    boxed(ExprKind::NodeOf { graph: Box::new(graph), node }, span)
}

/// `( e )` keeps the inner expression but takes the span of the parentheses.
pub fn paren(mut e: Expr, span: Span) -> Expr {
    e.span = span;
    e
}

/// A lambda keeps (a share of) the source text of its body, which is how it prints
/// (reference 2.9).
pub fn lambda(params: Option<Vec<Name>>, body: LambdaBody, span: Span, src: &Rc<str>) -> ActionResult<Expr> {
    let params = params.unwrap_or_default();
    let body_span = match &body {
        LambdaBody::Expr(e) => e.span,
        LambdaBody::Block(b) => b.span,
    };
    let text = SourceText::new(src.clone(), body_span);
    boxed(ExprKind::Lambda(Rc::new(LambdaAst { params, body, span, text })), span)
}

/// The block of `: statement`; `: { ... }` is the braced block itself.
pub fn single(s: Stmt) -> Block {
    match s.kind {
        StmtKind::Block(b) => b,
        _ => Block { span: s.span, stmts: vec![s], colon: true },
    }
}

pub fn braced(stmts: Option<Vec<Stmt>>, span: Span) -> ActionResult<Block> {
    Ok(Block { stmts: attach_sections(stmts.unwrap_or_default())?, colon: false, span })
}

pub fn if_stmt(cond: Expr, then: Block) -> StmtKind {
    StmtKind::If(vec![IfStmt { cond, then, on_false: None, on_undef: None, on_else: None, last_clause: None }])
}

pub fn def(name: Name, params: Option<Vec<Name>>, body: DefBodyParts, span: Span) -> StmtKind {
    let (body, get, set, one_line) = body;
    StmtKind::Def(Rc::new(DefAst { name, params: params.unwrap_or_default(), body, get, set, span, one_line }))
}

/// The common part, the `get:` and `set:` parts, and whether the demon was written on one line.
pub type DefBodyParts = (Vec<Stmt>, Option<Vec<Stmt>>, Option<Vec<Stmt>>, bool);

pub fn section(kind: SectionKind, first: Option<Stmt>, span: Span) -> Stmt {
    Stmt::new(StmtKind::Section(kind, first.map(Box::new)), span)
}

fn section_word(kind: SectionKind) -> &'static str {
    match kind {
        SectionKind::Get => "get:",
        SectionKind::Set => "set:",
    }
}

fn section_error<T>(message: String, span: Span) -> ActionResult<T> {
    Err(ParseError::User {
        error: GrammarError { message, span: Span { file: span.file, lo: span.lo, hi: span.lo + 4 } },
    })
}

/// The `{ }` body of a demon: the statements before the first section are the common part;
/// each `get:` / `set:` takes the statements after it, up to the next section.
pub fn def_sections(stmts: Vec<Stmt>) -> ActionResult<DefBodyParts> {
    let (mut common, mut get, mut set) = (Vec::new(), None::<Vec<Stmt>>, None::<Vec<Stmt>>);
    let mut current = None;
    for s in stmts {
        match s.kind {
            StmtKind::Section(kind, first) => {
                let slot = if kind == SectionKind::Get { &mut get } else { &mut set };
                if slot.is_some() {
                    return section_error(format!("a second `{}` in one demon", section_word(kind)), s.span);
                }
                *slot = Some(first.map(|f| vec![*f]).unwrap_or_default());
                current = Some(kind);
            }
            _ => match current {
                None => common.push(s),
                Some(SectionKind::Get) => get.get_or_insert_with(Vec::new).push(s),
                Some(SectionKind::Set) => set.get_or_insert_with(Vec::new).push(s),
            },
        }
    }
    Ok((common, get, set, false))
}

/// A statement list outside a demon's `{ }` body: a section right after a one-statement
/// `def f(X) : stmt` (or after its other section) gives that demon its `get:` / `set:`
/// statement; anywhere else it is an error.
pub fn attach_sections(stmts: Vec<Stmt>) -> ActionResult<Vec<Stmt>> {
    let mut out: Vec<Stmt> = Vec::with_capacity(stmts.len());
    for s in stmts {
        let section_depth = s.depth;
        let StmtKind::Section(kind, first) = s.kind else {
            out.push(s);
            continue;
        };
        let word = section_word(kind);
        let Some(last) = out.last_mut() else {
            return section_error(format!("`{word}` outside a demon"), s.span);
        };
        let StmtKind::Def(def) = &mut last.kind else {
            return section_error(format!("`{word}` outside a demon"), s.span);
        };
        let def = Rc::make_mut(def);
        let slot = if kind == SectionKind::Get { &mut def.get } else { &mut def.set };
        if !def.one_line || slot.is_some() {
            return section_error(format!("`{word}` outside a demon, or a second one"), s.span);
        }
        *slot = Some(first.map(|f| vec![*f]).unwrap_or_default());
        def.span = def.span.to(s.span);
        last.span = last.span.to(s.span);
        last.depth = last.depth.max(section_depth.saturating_add(1));
    }
    Ok(out)
}

/// Attaches a `false` / `undef` / `else` clause to the innermost `if` of the statement before it
/// that can still take it (the usual dangling-else rule, extended to three clause words). An
/// `else` whose body is just an `if` becomes the next arm of that `if`'s chain.
pub fn attach_clause(mut stmts: Vec<Stmt>, (kind, block, span): (ClauseKind, Block, Span)) -> ActionResult<Vec<Stmt>> {
    let Some((level, arms)) = stmts.last_mut().and_then(|s| innermost_if(s, kind)) else {
        return Err(ParseError::User {
            error: GrammarError {
                message: format!("`{}` without an `if` before it that can take it", kind.word()),
                span: Span { file: span.file, lo: span.lo, hi: span.lo + kind.word().len() as u32 },
            },
        });
    };
    // The statement that holds the `if` (`level` statements down) gets one level deeper than
    // the clause; the statements in between keep their depth, which only this check reads.
    let depth = block.depth().saturating_add(level + 1);
    let block = if kind == ClauseKind::Else { else_if(block) } else { Err(block) };
    match block {
        Ok(more) => arms.extend(more),
        Err(block) => {
            let last = arms.last_mut().expect("an `if` has at least one arm");
            let slot = match kind {
                ClauseKind::False => &mut last.on_false,
                ClauseKind::Undef => &mut last.on_undef,
                ClauseKind::Else => &mut last.on_else,
            };
            *slot = Some(block);
            last.last_clause = Some(kind);
        }
    }
    if let Some(last) = stmts.last_mut() {
        last.span = last.span.to(span);
        last.depth = last.depth.max(depth);
        nested(&*last, |s| (s.depth, s.span))?;
    }
    Ok(stmts)
}

/// The arms of the `if` that is the whole body of an `else` (`else if ...`), or the block.
fn else_if(mut block: Block) -> Result<Vec<IfStmt>, Block> {
    if !block.colon || block.stmts.len() != 1 || !matches!(block.stmts[0].kind, StmtKind::If(_)) {
        return Err(block);
    }
    match block.stmts.pop().map(|s| s.kind) {
        Some(StmtKind::If(arms)) => Ok(arms),
        _ => unreachable!("checked above"),
    }
}

/// Whether an `if` chain can take the clause: only its last arm is open (the others go on to
/// the next arm where they would run an `else`).
fn accepts(arms: &[IfStmt], kind: ClauseKind) -> bool {
    let Some(ifs) = arms.last() else { return false };
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
        StmtKind::If(arms) => {
            let ifs = arms.last_mut()?;
            // The clause written last ended last, whatever its kind.
            let last = match ifs.last_clause {
                Some(ClauseKind::Else) => ifs.on_else.as_mut(),
                Some(ClauseKind::False) => ifs.on_false.as_mut(),
                Some(ClauseKind::Undef) => ifs.on_undef.as_mut(),
                None => None,
            };
            last.unwrap_or(&mut ifs.then)
        }
        StmtKind::While { body, .. } | StmtKind::For { body, .. } => body,
        // Every kind is named, so that a new statement with a `:` block must say so here.
        StmtKind::Section(..)
        | StmtKind::Var(_)
        | StmtKind::Static(_)
        | StmtKind::Global(_)
        | StmtKind::Edges(_)
        | StmtKind::Nodes { .. }
        | StmtKind::Out(_)
        | StmtKind::Clause(..)
        | StmtKind::Def(_)
        | StmtKind::Return { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Include(_)
        | StmtKind::Block(_)
        | StmtKind::Expr(_) => return None,
    };
    if block.colon {
        block.stmts.last_mut()
    } else {
        None
    }
}

/// The innermost `if` along the chain of open tails of `s` that can take the clause. One walk
/// down to find how deep it is and one to reach it: looking inside before deciding at each
/// level made an `else if` chain exponential to parse.
fn innermost_if(s: &mut Stmt, kind: ClauseKind) -> Option<(u32, &mut Vec<IfStmt>)> {
    let mut depth = None;
    let mut cur = &mut *s;
    for level in 0.. {
        if matches!(&cur.kind, StmtKind::If(arms) if accepts(arms, kind)) {
            depth = Some(level);
        }
        match open_tail(cur) {
            Some(inner) => cur = inner,
            None => break,
        }
    }
    let depth = depth?;
    let mut cur = s;
    for _ in 0..depth {
        cur = open_tail(cur)?;
    }
    match &mut cur.kind {
        StmtKind::If(arms) => Some((depth, arms)),
        _ => None,
    }
}

//! The syntax tree. Every node that can be the subject of a diagnostic carries its `Span`.

pub use ds_base::diagnostics::{FileId, Span};
use std::rc::Rc;

/// A name as written, with its place.
#[derive(Debug, Clone, PartialEq)]
pub struct Name {
    pub text: Rc<str>,
    pub span: Span,
}

/// How deep the syntax tree may nest (`syntax::parse` refuses deeper input): every pass over
/// it, and dropping it, recurses once per level.
pub const MAX_DEPTH: u32 = 200_000;

#[derive(Debug, Clone, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Levels of nesting from here down (1 for a leaf).
    pub depth: u32,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        let depth = kind.depth_below().saturating_add(1);
        Expr { kind, span, depth }
    }
}

fn deepest<'a>(exprs: impl IntoIterator<Item = &'a Expr>) -> u32 {
    exprs.into_iter().map(|e| e.depth).max().unwrap_or(0)
}

impl ExprKind {
    /// The depth of the deepest part (0 for a leaf).
    fn depth_below(&self) -> u32 {
        use ExprKind::*;
        match self {
            Number(_) | Str(_) | Logic(_) | None | Name(_) | NodeConst(_) | EdgeConst(_) => 0,
            Array(items) | Tuple(items) | Call { args: items, .. } => deepest(items),
            Map(entries) => entries.iter().map(|(k, v)| k.depth.max(v.depth)).max().unwrap_or(0),
            Lambda(l) => match &l.body {
                LambdaBody::Expr(e) => e.depth,
                LambdaBody::Block(b) => b.depth(),
            },
            Apply { callee: object, args } | Method { object, args, .. } => object.depth.max(deepest(args)),
            Field { object, .. } | NodeOf { graph: object, .. } | IncDec { target: object, .. } => object.depth,
            Unary { operand, .. } => operand.depth,
            Index { object: a, index: b }
            | Binary { left: a, right: b, .. }
            | Edge { left: a, right: b, .. }
            | Assign { target: a, value: b }
            | CompoundAssign { target: a, value: b, .. } => a.depth.max(b.depth),
            Ternary { cond, branches } => cond.depth.max(deepest(branches)),
        }
    }
}

/// A piece of a source text that shares the whole text: a lambda prints its body from it, and
/// nested lambdas must not each keep a copy of what they contain.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceText {
    text: Rc<str>,
    lo: u32,
    hi: u32,
}

impl SourceText {
    pub fn new(text: Rc<str>, span: Span) -> SourceText {
        SourceText { text, lo: span.lo, hi: span.hi }
    }

    pub fn as_str(&self) -> &str {
        self.text.get(self.lo as usize..self.hi as usize).unwrap_or("...")
    }
}

impl Expr {
    /// `(X rel Y)`: an edge expression written in parentheses. The parentheses give the
    /// expression their span (`helpers::paren`), so it starts before its left operand.
    pub fn is_parenthesised_edge(&self) -> bool {
        matches!(&self.kind, ExprKind::Edge { left, .. } if self.span.lo < left.span.lo)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    IntDiv,
    Rem,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
    Equiv,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            IntDiv => "\\",
            Rem => "%",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            And => "&",
            Or => "|",
            Implies => "->",
            Equiv => "<->",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Not,
    /// `?X`: True exactly when X is Undef.
    IsUndef,
}

/// `X rel Y`, `X !rel Y`, `X ?rel Y`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EdgeMode {
    Is,
    Not,
    Undef,
}

/// A logic constant as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Truth {
    True,
    False,
    Undef,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ExprKind {
    Number(f64),
    Str(Rc<str>),
    /// `True`, `False` or `Undef` as written (the compiler makes them logic values).
    Logic(Truth),
    None,
    /// A bare name: a variable, a declared edge or node, or a module (`Math`).
    Name(Rc<str>),
    /// `$name`.
    NodeConst(Rc<str>),
    /// `@name`.
    EdgeConst(Rc<str>),
    Array(Vec<Expr>),
    Map(Vec<(Expr, Expr)>),
    /// `(a, b)` logic pair, `(a, b, c)` / `(a, b, c, d)` fuzzy number.
    Tuple(Vec<Expr>),
    Lambda(Rc<LambdaAst>),
    Call {
        name: Name,
        args: Vec<Expr>,
    },
    /// Calling the value of an expression: `F[0](5)`, `M["f"](x)`.
    Apply {
        callee: Box<Expr>,
        args: Vec<Expr>,
    },
    Method {
        object: Box<Expr>,
        name: Name,
        args: Vec<Expr>,
    },
    /// `X.name` without arguments (`Math.PI`, `G.$n`, `G.n`).
    Field {
        object: Box<Expr>,
        name: Name,
    },
    /// `G=>$n`.
    NodeOf {
        graph: Box<Expr>,
        node: Name,
    },
    Index {
        object: Box<Expr>,
        index: Box<Expr>,
    },
    Unary {
        op: UnOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    Edge {
        left: Box<Expr>,
        mode: EdgeMode,
        rel: Name,
        right: Box<Expr>,
    },
    /// `C ? A : B [: U [: E]]`: `branches` holds 2 to 4 expressions.
    Ternary {
        cond: Box<Expr>,
        branches: Vec<Expr>,
    },
    Assign {
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// `V += e` and friends; `op` is the arithmetic operator.
    CompoundAssign {
        op: BinOp,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// `V++` / `V--`: the value before the change.
    IncDec {
        target: Box<Expr>,
        delta: f64,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct LambdaAst {
    pub params: Vec<Name>,
    pub body: LambdaBody,
    pub span: Span,
    /// The body as written, for printing.
    pub text: SourceText,
}

#[derive(Debug, Clone, PartialEq)]
pub enum LambdaBody {
    Expr(Expr),
    Block(Block),
}

/// A block: `{ ... }` or the single statement after `:`.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    /// Written `: statement`; a dangling `else` may attach inside it.
    pub colon: bool,
    pub span: Span,
}

impl Block {
    pub fn depth(&self) -> u32 {
        stmts_depth(&self.stmts)
    }
}

fn stmts_depth(stmts: &[Stmt]) -> u32 {
    stmts.iter().map(|s| s.depth).max().unwrap_or(0)
}

#[derive(Debug, Clone, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
    /// Levels of nesting from here down, expressions included (see `MAX_DEPTH`).
    pub depth: u32,
}

impl Stmt {
    pub fn new(kind: StmtKind, span: Span) -> Stmt {
        let depth = kind.depth_below().saturating_add(1);
        Stmt { kind, span, depth }
    }
}

impl StmtKind {
    /// The depth of the deepest part (0 when there is none).
    pub fn depth_below(&self) -> u32 {
        use StmtKind::*;
        let block = |b: &Option<self::Block>| b.as_ref().map_or(0, self::Block::depth);
        let expr = |e: &Option<self::Expr>| e.as_ref().map_or(0, |e| e.depth);
        let items = |items: &[VarItem]| items.iter().map(|i| expr(&i.init)).max().unwrap_or(0);
        match self {
            Section(_, first) => first.as_ref().map_or(0, |s| s.depth),
            Var(v) | Static(v) => items(v),
            Global(_) | Edges(_) | Break | Continue | Include(_) => 0,
            Nodes { graph, .. } => expr(graph),
            Out(o) => deepest(o.items.iter().map(|(_, e)| e)),
            If(arms) => arms
                .iter()
                .map(|a| {
                    let clauses = block(&a.on_false).max(block(&a.on_undef)).max(block(&a.on_else));
                    a.cond.depth.max(a.then.depth()).max(clauses)
                })
                .max()
                .unwrap_or(0),
            Clause(_, b) | Block(b) => b.depth(),
            While { cond, body } => cond.depth.max(body.depth()),
            For { source, body, .. } => expr(source).max(body.depth()),
            Def(d) => {
                let part = |p: &Option<Vec<Stmt>>| p.as_deref().map_or(0, stmts_depth);
                stmts_depth(&d.body).max(part(&d.get)).max(part(&d.set))
            }
            Return { value, .. } => expr(value),
            Expr(e) => e.depth,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct VarItem {
    pub name: Name,
    pub init: Option<Expr>,
}

/// Separator written before an `out` item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutSep {
    Space,
    Nothing,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OutStmt {
    /// Each item with the separator written before it (the first one's is ignored).
    pub items: Vec<(OutSep, Expr)>,
    /// `None`: end with a newline; `Some(sep)`: a line-ending comma (`,` space, `,,` nothing).
    pub trail: Option<OutSep>,
    /// `fout`: to the file opened with `fopen` (the console when none is open).
    pub to_file: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClauseKind {
    False,
    Undef,
    Else,
}

impl ClauseKind {
    pub fn word(self) -> &'static str {
        match self {
            ClauseKind::False => "false",
            ClauseKind::Undef => "undef",
            ClauseKind::Else => "else",
        }
    }
}

/// One `if` (or `else if`) with its clauses.
#[derive(Debug, Clone, PartialEq)]
pub struct IfStmt {
    pub cond: Expr,
    pub then: Block,
    pub on_false: Option<Block>,
    pub on_undef: Option<Block>,
    pub on_else: Option<Block>,
    /// The clause written last, whose block ends the `if`: a clause that follows may belong to
    /// an `if` inside that block (None: the `then` block ends it).
    pub last_clause: Option<ClauseKind>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DefAst {
    pub name: Name,
    pub params: Vec<Name>,
    pub body: Vec<Stmt>,
    pub get: Option<Vec<Stmt>>,
    pub set: Option<Vec<Stmt>>,
    pub span: Span,
    /// Written `def f(X) : statement` (its `get:`/`set:` follow it, one statement each).
    pub one_line: bool,
}

/// `get:` or `set:`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionKind {
    Get,
    Set,
}

#[derive(Debug, Clone, PartialEq)]
pub enum StmtKind {
    /// A `get:`/`set:` section marker (and its first statement), only while parsing: the
    /// statement lists attach it to its demon.
    Section(SectionKind, Option<Box<Stmt>>),
    Var(Vec<VarItem>),
    Static(Vec<VarItem>),
    Global(Vec<Name>),
    Edges(Vec<Name>),
    /// `nodes a, $b` (current graph) or `G.nodes a, $b`.
    Nodes {
        graph: Option<Expr>,
        names: Vec<Name>,
    },
    Out(OutStmt),
    /// An `if` and the `else if`s that follow it, kept flat (not nested in each other's
    /// `else`), so a long chain costs neither a deep tree nor a long walk to attach a clause.
    /// Every arm but the last goes on to the next one where it would run its `else`.
    If(Vec<IfStmt>),
    /// A `false` / `undef` / `else` clause before it is attached to its `if`.
    Clause(ClauseKind, Block),
    While {
        cond: Expr,
        body: Block,
    },
    For {
        vars: Vec<Name>,
        source: Option<Expr>,
        body: Block,
    },
    Def(Rc<DefAst>),
    Return {
        value: Option<Expr>,
        ifdef: bool,
    },
    Break,
    Continue,
    Include(Name),
    Block(Block),
    Expr(Expr),
}

impl IfStmt {
    /// The blocks of one arm: `then`, and the `false:`, `undef:` and `else` clauses it has.
    pub fn blocks(&self) -> impl Iterator<Item = &Block> {
        [Some(&self.then), self.on_false.as_ref(), self.on_undef.as_ref(), self.on_else.as_ref()].into_iter().flatten()
    }
}

impl Stmt {
    /// The statement lists directly inside this statement: a demon's body and its `get:` and
    /// `set:` sections, an `if`'s branches, a loop's body, a block (`walk_stmts` visits them).
    pub fn inner_lists(&self) -> Vec<&[Stmt]> {
        match &self.kind {
            StmtKind::Def(d) => {
                let mut v = vec![d.body.as_slice()];
                v.extend([&d.get, &d.set].into_iter().flatten().map(Vec::as_slice));
                v
            }
            StmtKind::Section(_, Some(s)) => vec![std::slice::from_ref(&**s)],
            kind => kind.blocks().into_iter().map(|b| b.stmts.as_slice()).collect(),
        }
    }
}

impl StmtKind {
    /// The blocks written in a statement of this kind: an `if`'s arms and clauses, a loop's
    /// body, a `{ }` block, a clause's body (a demon's body and sections are lists of
    /// statements: see `Stmt::inner_lists`). The language server folds them. Every kind is
    /// named, so that a new statement with a block must say so here.
    pub fn blocks(&self) -> Vec<&Block> {
        match self {
            StmtKind::If(arms) => arms.iter().flat_map(IfStmt::blocks).collect(),
            StmtKind::While { body, .. } | StmtKind::For { body, .. } | StmtKind::Block(body) => vec![body],
            StmtKind::Clause(_, body) => vec![body],
            StmtKind::Section(..)
            | StmtKind::Var(_)
            | StmtKind::Static(_)
            | StmtKind::Global(_)
            | StmtKind::Edges(_)
            | StmtKind::Nodes { .. }
            | StmtKind::Out(_)
            | StmtKind::Def(_)
            | StmtKind::Return { .. }
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Include(_)
            | StmtKind::Expr(_) => Vec::new(),
        }
    }
}

/// Calls `f` on every statement of `stmts` and, depth first, on every statement inside them.
pub fn walk_stmts<'a>(stmts: &'a [Stmt], f: &mut dyn FnMut(&'a Stmt)) {
    for s in stmts {
        f(s);
        for inner in s.inner_lists() {
            walk_stmts(inner, f);
        }
    }
}

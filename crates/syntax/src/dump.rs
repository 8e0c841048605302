//! `ds --dump tokens|ast`: the token stream after the layout pass and the syntax tree, as text
//! for golden tests (`tests/dump/`) and for seeing what the parser made of a program. `Tree`
//! is the S-expression printer that `compile::dump` uses for the IR too.

use super::ast::*;
use super::lexer;
use super::token::{symbol, Tok};
use ds_base::diagnostics::Diagnostic;
use std::fmt::Write as _;

/// A node of a printed tree: `(head kid kid ...)`, or just `head` without kids.
pub struct Tree {
    head: String,
    kids: Vec<Tree>,
    /// Written in parentheses even without kids: `(params)`, not `params`.
    list: bool,
    /// A list of statements: each kid on a line of its own, however short.
    block: bool,
}

/// Lines up to this width keep a subtree on one line.
const WIDTH: usize = 100;

impl Tree {
    pub fn leaf(head: impl Into<String>) -> Tree {
        Tree { head: head.into(), kids: Vec::new(), list: false, block: false }
    }

    pub fn node(head: impl Into<String>, kids: Vec<Tree>) -> Tree {
        Tree { head: head.into(), kids, list: true, block: false }
    }

    /// A statement list: always one kid per line.
    pub fn block(head: impl Into<String>, kids: Vec<Tree>) -> Tree {
        Tree { head: head.into(), kids, list: true, block: true }
    }

    /// The tree as indented text, ending with a newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn flat(&self) -> Option<String> {
        if self.block && !self.kids.is_empty() {
            return None;
        }
        if self.kids.is_empty() {
            return Some(if self.list { format!("({})", self.head) } else { self.head.clone() });
        }
        let mut s = format!("({}", self.head);
        for k in &self.kids {
            s.push(' ');
            s.push_str(&k.flat()?);
            if s.len() > WIDTH {
                return None;
            }
        }
        s.push(')');
        Some(s)
    }

    fn write(&self, out: &mut String, indent: usize) {
        if let Some(flat) = self.flat().filter(|f| indent + f.len() <= WIDTH) {
            out.push_str(&flat);
            return;
        }
        let _ = write!(out, "({}", self.head);
        for k in &self.kids {
            let _ = write!(out, "\n{:1$}", "", indent + 2);
            k.write(out, indent + 2);
        }
        out.push(')');
    }
}

/// A string as a literal (escapes shown), for trees and token lists.
pub fn quoted(s: &str) -> String {
    format!("{s:?}")
}

/// The tokens the grammar reads, one a line with its line and column. The tokens that the
/// layout pass made up (rather than found in the text) are written in angle brackets.
pub fn tokens(src: &str, file: FileId) -> Result<String, Diagnostic> {
    let toks = lexer::tokenize(src).map_err(|e| super::lex_error(e, file))?;
    let mut out = String::new();
    let mut at = LineCursor::default();
    for (lo, tok, _) in &toks.tokens {
        let (line, col) = at.advance(src, *lo);
        let _ = writeln!(out, "{:<8}{}", format!("{line}:{col}"), token_text(tok));
    }
    if let Some((open, at)) = toks.unclosed {
        let _ = writeln!(out, "unclosed `{open}` at byte {at}");
    }
    Ok(out)
}

/// Line and column of offsets taken in increasing order, each found from the one before it
/// (counting from the start for every token made the dump quadratic in the file's length).
#[derive(Default)]
struct LineCursor {
    offset: usize,
    line: usize,
    /// Characters from the line's start to `offset`.
    column: usize,
}

impl LineCursor {
    fn advance(&mut self, src: &str, to: usize) -> (usize, usize) {
        if to < self.offset {
            *self = LineCursor::default();
        }
        for b in &src.as_bytes()[self.offset..to] {
            match b {
                b'\n' => (self.line, self.column) = (self.line + 1, 0),
                // a UTF-8 continuation byte is part of the character before it
                _ if b & 0xC0 == 0x80 => {}
                _ => self.column += 1,
            }
        }
        self.offset = to;
        (self.line + 1, self.column + 1)
    }
}

fn token_text(t: &Tok) -> String {
    match t {
        Tok::Ident(s) => format!("name {s}"),
        Tok::NodeName(s) => format!("node {s}"),
        Tok::EdgeName(s) => format!("edge @{s}"),
        Tok::Number(n) => format!("number {n}"),
        Tok::Str(s) => format!("string {}", quoted(s)),
        Tok::Term => "<end of statement>".into(),
        Tok::BlockOpen => "<block {>".into(),
        Tok::LambdaOpen => "<lambda (>".into(),
        Tok::QuestionTight => "<tight ?>".into(),
        Tok::OutTrail => "<line-ending , of out>".into(),
        other => symbol(other).to_string(),
    }
}

/// The syntax tree of parsed statements.
pub fn ast(stmts: &[Stmt]) -> String {
    Tree::block("program", stmts.iter().map(stmt).collect()).render()
}

fn names(head: &str, names: &[Name]) -> Tree {
    Tree::node(head, names.iter().map(|n| Tree::leaf(&*n.text)).collect())
}

fn stmts(head: &str, list: &[Stmt]) -> Tree {
    Tree::block(head, list.iter().map(stmt).collect())
}

/// A block, its head marked `:` when written `: statement` (a dangling clause may attach
/// inside such a block).
fn block(head: &str, b: &Block) -> Tree {
    stmts(&if b.colon { format!("{head}:") } else { head.to_string() }, &b.stmts)
}

fn var_items(head: &str, items: &[VarItem]) -> Tree {
    let item = |i: &VarItem| match &i.init {
        Some(e) => Tree::node(&*i.name.text, vec![expr(e)]),
        None => Tree::leaf(&*i.name.text),
    };
    Tree::node(head, items.iter().map(item).collect())
}

fn stmt(s: &Stmt) -> Tree {
    match &s.kind {
        StmtKind::Section(kind, first) => {
            let head = if *kind == SectionKind::Get { "section get:" } else { "section set:" };
            Tree::block(head, first.iter().map(|s| stmt(s)).collect())
        }
        StmtKind::Var(items) => var_items("var", items),
        StmtKind::Static(items) => var_items("static", items),
        StmtKind::Global(list) => names("global", list),
        StmtKind::Edges(list) => names("edges", list),
        StmtKind::Nodes { graph, names: list } => {
            let mut kids: Vec<Tree> = graph.iter().map(|g| Tree::node("of", vec![expr(g)])).collect();
            kids.extend(list.iter().map(|n| Tree::leaf(&*n.text)));
            Tree::node("nodes", kids)
        }
        StmtKind::Out(o) => out(o),
        StmtKind::If(arms) => Tree::block("if", arms.iter().map(if_arm).collect()),
        StmtKind::Clause(kind, b) => block(&format!("clause {}", kind.word()), b),
        StmtKind::While { cond, body } => Tree::block("while", vec![expr(cond), block("do", body)]),
        StmtKind::For { vars, source, body } => {
            let mut kids = vec![names("vars", vars)];
            kids.extend(source.iter().map(|e| Tree::node("in", vec![expr(e)])));
            kids.push(block("do", body));
            Tree::block("for", kids)
        }
        StmtKind::Def(d) => def(d),
        StmtKind::Return { value, ifdef } => {
            Tree::node(if *ifdef { "return ifdef" } else { "return" }, value.iter().map(expr).collect())
        }
        StmtKind::Break => Tree::leaf("break"),
        StmtKind::Continue => Tree::leaf("continue"),
        StmtKind::Include(name) => Tree::node("include", vec![Tree::leaf(quoted(&name.text))]),
        StmtKind::Block(b) => block("block", b),
        StmtKind::Expr(e) => expr(e),
    }
}

fn out(o: &OutStmt) -> Tree {
    let sep = |s: OutSep| if s == OutSep::Space { "," } else { ",," };
    let mut kids = Vec::new();
    for (i, (s, e)) in o.items.iter().enumerate() {
        kids.push(if i == 0 { expr(e) } else { Tree::node(sep(*s), vec![expr(e)]) });
    }
    if let Some(t) = o.trail {
        kids.push(Tree::leaf(format!("{}<end>", sep(t))));
    }
    Tree::node(if o.to_file { "fout" } else { "out" }, kids)
}

fn if_arm(a: &IfStmt) -> Tree {
    let mut kids = vec![expr(&a.cond), block("then", &a.then)];
    let clauses = [("false", &a.on_false), ("undef", &a.on_undef), ("else", &a.on_else)];
    kids.extend(clauses.iter().filter_map(|(w, b)| b.as_ref().map(|b| block(w, b))));
    Tree::block("arm", kids)
}

fn def(d: &DefAst) -> Tree {
    let head = if d.one_line { format!("def {} one-line", d.name.text) } else { format!("def {}", d.name.text) };
    let mut kids = vec![names("params", &d.params), stmts("body", &d.body)];
    kids.extend(d.get.iter().map(|g| stmts("get:", g)));
    kids.extend(d.set.iter().map(|s| stmts("set:", s)));
    Tree::block(head, kids)
}

fn exprs(head: impl Into<String>, first: Vec<Tree>, list: &[Expr]) -> Tree {
    let mut kids = first;
    kids.extend(list.iter().map(expr));
    Tree::node(head, kids)
}

pub fn truth(t: Truth) -> &'static str {
    match t {
        Truth::True => "True",
        Truth::False => "False",
        Truth::Undef => "Undef",
    }
}

/// `rel`, `!rel` or `?rel`.
pub fn edge_rel(mode: EdgeMode, rel: &str) -> String {
    match mode {
        EdgeMode::Is => rel.to_string(),
        EdgeMode::Not => format!("!{rel}"),
        EdgeMode::Undef => format!("?{rel}"),
    }
}

pub fn unary(op: UnOp) -> &'static str {
    match op {
        UnOp::Neg => "-",
        UnOp::Not => "!",
        UnOp::IsUndef => "?",
    }
}

fn expr(e: &Expr) -> Tree {
    match &e.kind {
        ExprKind::Number(n) => Tree::leaf(n.to_string()),
        ExprKind::Str(s) => Tree::leaf(quoted(s)),
        ExprKind::Logic(t) => Tree::leaf(truth(*t)),
        ExprKind::None => Tree::leaf("None"),
        ExprKind::Name(n) | ExprKind::NodeConst(n) => Tree::leaf(&**n),
        ExprKind::EdgeConst(n) => Tree::leaf(format!("@{n}")),
        ExprKind::Array(items) => exprs("array", vec![], items),
        ExprKind::Map(entries) => {
            Tree::node("map", entries.iter().map(|(k, v)| Tree::node(":", vec![expr(k), expr(v)])).collect())
        }
        ExprKind::Tuple(items) => exprs("tuple", vec![], items),
        ExprKind::Lambda(l) => {
            let body = match &l.body {
                LambdaBody::Expr(e) => expr(e),
                LambdaBody::Block(b) => block("block", b),
            };
            Tree::node("lambda", vec![names("params", &l.params), body])
        }
        ExprKind::Call { name, args } => exprs(format!("call {}", name.text), vec![], args),
        ExprKind::Apply { callee, args } => exprs("apply", vec![expr(callee)], args),
        ExprKind::Method { object, name, args } => exprs(format!(".{}", name.text), vec![expr(object)], args),
        ExprKind::Field { object, name } => Tree::node("field", vec![expr(object), Tree::leaf(&*name.text)]),
        ExprKind::NodeOf { graph, node } => Tree::node("=>", vec![expr(graph), Tree::leaf(&*node.text)]),
        ExprKind::Index { object, index } => Tree::node("index", vec![expr(object), expr(index)]),
        ExprKind::Unary { op, operand } => Tree::node(unary(*op), vec![expr(operand)]),
        ExprKind::Binary { op, left, right } => Tree::node(op.symbol(), vec![expr(left), expr(right)]),
        ExprKind::Edge { left, mode, rel, right } => {
            let head = if e.is_parenthesised_edge() { "parenthesised-edge" } else { "edge" };
            Tree::node(head, vec![expr(left), Tree::leaf(edge_rel(*mode, &rel.text)), expr(right)])
        }
        ExprKind::Ternary { cond, branches } => exprs("?:", vec![expr(cond)], branches),
        ExprKind::Assign { target, value } => Tree::node("=", vec![expr(target), expr(value)]),
        ExprKind::CompoundAssign { op, target, value } => {
            Tree::node(format!("{}=", op.symbol()), vec![expr(target), expr(value)])
        }
        ExprKind::IncDec { target, delta } => Tree::node(if *delta > 0.0 { "++" } else { "--" }, vec![expr(target)]),
    }
}

#[cfg(test)]
mod tests {
    use super::{LineCursor, Tree};

    /// Line and column counted from the start of the text, as the cursor must agree with.
    fn from_start(src: &str, at: usize) -> (usize, usize) {
        let before = &src[..at];
        (before.matches('\n').count() + 1, before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1)
    }

    #[test]
    fn the_cursor_agrees_with_counting_from_the_start() {
        let src = "out \"héllo\"\n\n  var ñx = 1 + \"ü\"\nend";
        let offsets: Vec<usize> = src.char_indices().map(|(i, _)| i).chain([src.len()]).collect();
        let mut cursor = LineCursor::default();
        for &at in &offsets {
            assert_eq!(cursor.advance(src, at), from_start(src, at), "at byte {at}");
        }
        // going back starts again from the top
        assert_eq!(cursor.advance(src, 5), from_start(src, 5));
    }

    #[test]
    fn short_trees_stay_on_one_line_and_blocks_break() {
        let t = Tree::node("+", vec![Tree::leaf("a"), Tree::leaf("1")]);
        assert_eq!(t.render(), "(+ a 1)\n");
        assert_eq!(Tree::node("params", vec![]).render(), "(params)\n");
        let b = Tree::block("do", vec![t, Tree::leaf("break")]);
        assert_eq!(b.render(), "(do\n  (+ a 1)\n  break)\n");
        let long = Tree::node("call f", (0..40).map(|i| Tree::leaf(format!("x{i}"))).collect());
        assert!(long.render().lines().count() == 41, "{}", long.render());
    }
}

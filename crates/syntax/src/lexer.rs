//! The lexer: logos tokens plus a layout pass that decides which newlines end a statement.
//!
//! docs/language.md, decision 4: a newline ends a statement unless a `(` or `[` is open or the
//! line ends with a token that cannot end an expression (a binary operator, a comma, `:`, `{`
//! ...). The pass also tells the two meanings of `{` (block or map), `?` (ternary or tight
//! prefix), `(` (group or lambda parameters) and a line-ending `,` in `out` apart, so the grammar
//! needs no lookahead tricks.

use super::token::{LexError, Tok};
use super::words::{LayoutRole, Word};
use logos::Logos;

/// A token with its byte offsets, as LALRPOP wants it.
pub type Spanned = (usize, Tok, usize);

#[derive(Debug, Clone, PartialEq)]
pub struct LexFailure {
    pub message: String,
    pub lo: usize,
    pub hi: usize,
    /// The input ended inside a string or comment: more input could complete it.
    pub incomplete: bool,
}

/// The token stream, and the innermost bracket still open at the end (kind, offset), if any.
pub struct Tokens {
    pub tokens: Vec<Spanned>,
    pub unclosed: Option<(char, usize)>,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Open {
    Paren,
    Bracket,
    Block,
    Map,
}

impl Open {
    fn symbol(self) -> char {
        match self {
            Open::Paren => '(',
            Open::Bracket => '[',
            Open::Block | Open::Map => '{',
        }
    }
    fn closer(self) -> char {
        match self {
            Open::Paren => ')',
            Open::Bracket => ']',
            Open::Block | Open::Map => '}',
        }
    }
}

/// Words that can only start a statement, never stand inside `( )` or `[ ]`.
fn starts_statement(t: &Tok) -> bool {
    word_layout(t) == Some(LayoutRole::Statement)
}

/// How the layout treats a word token (`words::WORDS`); None for every other token.
fn word_layout(t: &Tok) -> Option<LayoutRole> {
    match t {
        Tok::Word(w) => Some(w.layout()),
        _ => None,
    }
}

/// A clause word or a demon section: it continues the statement or block before it.
fn continues_before(t: &Tok) -> bool {
    matches!(word_layout(t), Some(LayoutRole::Clause | LayoutRole::Section))
}

/// Lexes `src` into the token stream the grammar reads.
pub fn tokenize(src: &str) -> Result<Tokens, LexFailure> {
    LEXED.with(|n| n.set(n.get() + src.len() as u64));
    let raw = raw_tokens(src)?;
    Layout::new(src, raw).run()
}

thread_local! {
    /// Bytes given to `tokenize` on this thread: every parse starts there.
    static LEXED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many bytes of source this thread has tokenized so far: counted work that shows a text
/// parsed again and again (the REPL's test of a long entry reads it), which no clock can show
/// reliably on a loaded machine.
pub fn lexed_bytes() -> u64 {
    LEXED.with(|n| n.get())
}

/// How many tokens go between two looks at the memory limit.
pub const CHECK_EVERY: usize = 4096;

/// A source too big for `--max-memory` stops while it is read, not once it is all in memory.
fn over_memory(lo: usize, hi: usize) -> Result<(), LexFailure> {
    match ds_base::guard::memory::exceeded() {
        true => Err(LexFailure { message: ds_base::guard::memory::limit_message(), lo, hi, incomplete: false }),
        false => Ok(()),
    }
}

/// Deeper nesting than this is refused, so that no input can exhaust the stack later.
const MAX_NESTING: usize = 256;

fn raw_tokens(src: &str) -> Result<Vec<Spanned>, LexFailure> {
    let mut lex = Tok::lexer(src);
    let mut toks = Vec::new();
    while let Some(res) = lex.next() {
        let span = lex.span();
        if toks.len() % CHECK_EVERY == 0 {
            over_memory(span.start, span.end)?;
        }
        match res {
            Ok(Tok::BlockComment) => {}
            Ok(t) => toks.push((span.start, t, span.end)),
            Err(error) => {
                let incomplete = matches!(error, LexError::UnterminatedString | LexError::UnterminatedComment);
                let message = match error {
                    LexError::UnexpectedChar => {
                        let c = src[span.start..].chars().next().unwrap_or(' ');
                        format!("unexpected character `{}`", c.escape_default())
                    }
                    e => e.to_string(),
                };
                // An unclosed string or comment runs to the end; mark only its first line.
                let line_end = src[span.start..].find('\n').map_or(src.len(), |i| span.start + i);
                let hi = if incomplete { line_end } else { span.end }.max(span.start + 1);
                return Err(LexFailure { message, lo: span.start, hi, incomplete });
            }
        }
    }
    Ok(toks)
}

struct Layout<'s> {
    src: &'s str,
    raw: Vec<Spanned>,
    out: Vec<Spanned>,
    stack: Vec<(Open, usize)>,
    /// Bracket depth of the `out` statement being read, if any.
    out_depth: Option<usize>,
}

impl<'s> Layout<'s> {
    fn new(src: &'s str, raw: Vec<Spanned>) -> Self {
        Layout { src, raw, out: Vec::new(), stack: Vec::new(), out_depth: None }
    }

    fn run(mut self) -> Result<Tokens, LexFailure> {
        let raw = std::mem::take(&mut self.raw);
        for i in 0..raw.len() {
            let (lo, mut tok, hi) = raw[i].clone();
            if let Tok::Word(w) = tok {
                // `F.out(X)`, `S.while()`: right after a `.` a word is a method's name (a `.`
                // that ends a line is half-typed, and `var` on the next line still a keyword).
                if w.entry().member && i > 0 && raw[i - 1].1 == Tok::Dot {
                    tok = Tok::Ident(w.text().into());
                }
            }
            if i % CHECK_EVERY == 0 {
                over_memory(lo, hi)?;
            }
            if self.stack.len() > MAX_NESTING {
                let message = format!("brackets nested more than {MAX_NESTING} deep");
                return Err(LexFailure { message, lo, hi, incomplete: false });
            }
            if starts_statement(&tok) && self.inside_group() && !self.last_is(|t| *t == Tok::Dot) {
                let next = raw.get(i + 1).map(|t| &t.1);
                return Err(match next {
                    // `def f(var)`, `g(a, out, b)`: the keyword stands where a name would.
                    Some(Tok::RParen | Tok::RBracket | Tok::Comma) => self.keyword_as_name(lo, hi),
                    _ => self.unclosed_before(lo, hi, &tok),
                });
            }
            match tok {
                Tok::Newline => {
                    // Allman style: a block's `{` may stand on the line after its header.
                    let next = raw[i + 1..].iter().find(|t| t.1 != Tok::Newline).map(|t| &t.1);
                    if next == Some(&Tok::LBrace)
                        && self.last_is(|t| ends_expression(t) || word_layout(t) == Some(LayoutRole::Clause))
                    {
                        continue;
                    }
                    self.newline(lo)
                }
                Tok::Semi => self.semicolon(lo, hi),
                Tok::LBrace => {
                    let block = self.brace_opens_block();
                    self.stack.push((if block { Open::Block } else { Open::Map }, lo));
                    self.push(lo, if block { Tok::BlockOpen } else { Tok::LBrace }, hi);
                }
                Tok::RBrace => {
                    self.end_out_trail();
                    self.drop_term();
                    self.stack.pop();
                    self.push(lo, tok, hi);
                }
                Tok::LParen => {
                    self.stack.push((Open::Paren, lo));
                    let t = if lambda_params_follow(&raw, i + 1) { Tok::LambdaOpen } else { tok };
                    self.push(lo, t, hi);
                }
                Tok::LBracket => {
                    self.stack.push((Open::Bracket, lo));
                    self.push(lo, tok, hi);
                }
                Tok::RParen | Tok::RBracket => {
                    self.stack.pop();
                    self.push(lo, tok, hi);
                }
                Tok::Question => {
                    let tight = raw.get(i + 1).is_some_and(|(nlo, next, _)| {
                        *nlo == hi
                            && matches!(next, Tok::Ident(_) | Tok::NodeName(_) | Tok::EdgeName(_) | Tok::Word(Word::In))
                    });
                    self.push(lo, if tight { Tok::QuestionTight } else { tok }, hi);
                }
                // A line-ending `,` of an output statement keeps its line open.
                Tok::Word(Word::Out | Word::Fout) => {
                    self.out_depth = Some(self.stack.len());
                    self.push(lo, tok, hi);
                }
                // These continue the statement or block before them: a `Term` before them goes.
                _ if continues_before(&tok) => {
                    self.drop_term();
                    self.push(lo, tok, hi);
                }
                Tok::Comma => {
                    // A comma that starts a line continues the previous one (`out A` / `, B`).
                    if self.last_is(|t| *t == Tok::Term) && self.src[..lo].trim_end().ends_with(|c| c != ';') {
                        self.drop_term();
                    }
                    self.push(lo, tok, hi);
                }
                _ => self.push(lo, tok, hi),
            }
        }
        self.end_out_trail();
        self.drop_term();
        let unclosed = self.stack.last().map(|(open, lo)| (open.symbol(), *lo));
        Ok(Tokens { tokens: self.out, unclosed })
    }

    /// A statement keyword alone between brackets or commas: written as a name.
    fn keyword_as_name(&self, lo: usize, hi: usize) -> LexFailure {
        let word = &self.src[lo..hi];
        let message = format!("`{word}` is a keyword: it cannot name a variable, a demon or a parameter");
        LexFailure { message, lo, hi, incomplete: false }
    }

    /// A statement keyword inside `(` or `[`: the bracket was never closed.
    fn unclosed_before(&self, lo: usize, hi: usize, tok: &Tok) -> LexFailure {
        let (open, at) = self.stack.last().copied().unwrap_or((Open::Paren, lo));
        let (close, line) = (open.closer(), self.src[..at].matches('\n').count() + 1);
        LexFailure {
            message: format!("expected `{close}` before {tok}: the `{}` on line {line} is not closed", open.symbol()),
            lo,
            hi,
            incomplete: false,
        }
    }

    fn push(&mut self, lo: usize, tok: Tok, hi: usize) {
        self.out.push((lo, tok, hi));
    }

    fn last_is(&self, f: impl Fn(&Tok) -> bool) -> bool {
        self.out.last().is_some_and(|(_, t, _)| f(t))
    }

    fn drop_term(&mut self) {
        if self.last_is(|t| *t == Tok::Term) {
            self.out.pop();
        }
    }

    fn inside_group(&self) -> bool {
        matches!(self.stack.last(), Some((Open::Paren | Open::Bracket, _)))
    }

    /// A line-ending comma of an `out` statement means "space, no newline".
    fn end_out_trail(&mut self) -> bool {
        if self.out_depth == Some(self.stack.len()) && self.last_is(|t| *t == Tok::Comma) {
            if let Some(last) = self.out.last_mut() {
                last.1 = Tok::OutTrail;
            }
            return true;
        }
        false
    }

    fn term(&mut self, lo: usize) {
        if self.out.is_empty() || self.last_is(|t| matches!(t, Tok::Term | Tok::BlockOpen)) {
            return;
        }
        if self.out_depth.is_some_and(|d| d >= self.stack.len()) {
            self.out_depth = None;
        }
        self.push(lo, Tok::Term, lo + 1);
    }

    fn newline(&mut self, lo: usize) {
        if self.inside_group() {
            return;
        }
        if self.end_out_trail() {
            self.term(lo);
            return;
        }
        // `in` goes on to the next line only in a `for` header.
        let in_ends_line = self.last_is(|t| word_layout(t) == Some(LayoutRole::ForIn)) && !self.in_for_header();
        if self.last_is(continues_line) && !in_ends_line {
            return;
        }
        self.term(lo);
    }

    /// The statement being read starts with `for` (so a line-ending `in` waits for its source;
    /// elsewhere `in` is a name, as in `edges on, in`).
    fn in_for_header(&self) -> bool {
        for (_, t, _) in self.out.iter().rev() {
            match t {
                Tok::Word(Word::For) => return true,
                Tok::Term | Tok::BlockOpen | Tok::RBrace | Tok::Colon => return false,
                _ => {}
            }
        }
        false
    }

    fn semicolon(&mut self, lo: usize, _hi: usize) {
        self.end_out_trail();
        self.term(lo);
    }

    /// `{` opens a block after a condition, a parameter list, a block colon, a clause word or a
    /// statement boundary; anywhere an expression is expected it opens a map literal.
    fn brace_opens_block(&self) -> bool {
        let Some((_, last, _)) = self.out.last() else { return true };
        match last {
            Tok::Colon => !matches!(self.stack.last(), Some((Open::Map | Open::Paren | Open::Bracket, _))),
            Tok::Arrow => true,
            t => ends_expression(t) || continues_before(t) || matches!(t, Tok::Term | Tok::BlockOpen),
        }
    }
}

/// `(a, b) =>`: the `(` at `i - 1` opens lambda parameters.
fn lambda_params_follow(raw: &[Spanned], mut i: usize) -> bool {
    let skip_nl = |i: &mut usize| {
        while raw.get(*i).is_some_and(|t| t.1 == Tok::Newline) {
            *i += 1;
        }
    };
    skip_nl(&mut i);
    if raw.get(i).is_some_and(|t| t.1 == Tok::RParen) {
        return raw.get(i + 1).is_some_and(|t| t.1 == Tok::Arrow);
    }
    loop {
        skip_nl(&mut i);
        if !matches!(raw.get(i), Some((_, Tok::Ident(_), _))) {
            return false;
        }
        i += 1;
        skip_nl(&mut i);
        match raw.get(i).map(|t| &t.1) {
            Some(Tok::Comma) => i += 1,
            Some(Tok::RParen) => return raw.get(i + 1).is_some_and(|t| t.1 == Tok::Arrow),
            _ => return false,
        }
    }
}

/// Tokens that can be the last token of an expression.
pub fn ends_expression(t: &Tok) -> bool {
    word_layout(t) == Some(LayoutRole::Value)
        || matches!(
            t,
            Tok::Ident(_)
                | Tok::NodeName(_)
                | Tok::EdgeName(_)
                | Tok::Number(_)
                | Tok::Str(_)
                | Tok::RParen
                | Tok::RBracket
                | Tok::RBrace
                | Tok::PlusPlus
                | Tok::MinusMinus
        )
}

/// After these a newline does not end the statement (`in` only in a `for` header: see
/// `newline`).
fn continues_line(t: &Tok) -> bool {
    use Tok::*;
    continues_before(t)
        || word_layout(t) == Some(LayoutRole::ForIn)
        || is_binary_operator(t)
        || matches!(
            t,
            Comma
                | LParen
                | LambdaOpen
                | LBracket
                | LBrace
                | BlockOpen
                | Colon
                | Arrow
                | Bang
                | Question
                | QuestionTight
                | Term
        )
}

/// The operators that take an operand after them: a line that ends with one goes on (and
/// when the input ends instead, the error points at it: `hints.rs`).
pub(crate) fn is_binary_operator(t: &Tok) -> bool {
    use Tok::*;
    matches!(
        t,
        Plus | Minus
            | Star
            | Slash
            | Backslash
            | Percent
            | EqEq
            | NotEq
            | Lt
            | Le
            | Gt
            | Ge
            | Equiv
            | Implies
            | And
            | Or
            | Assign
            | PlusAssign
            | MinusAssign
            | StarAssign
            | SlashAssign
            | BackslashAssign
            | PercentAssign
            | Dot
    )
}

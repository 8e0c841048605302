//! Tokens of the ds language, produced by logos.
//!
//! The raw token stream still contains every newline; `lexer.rs` decides which of them end a
//! statement (see `Layout`), so that the LALRPOP grammar stays context-free.

use super::words::Word;
use logos::{Lexer, Logos};
use std::fmt;
use std::rc::Rc;

/// Why a piece of source text is not a token.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum LexError {
    #[default]
    UnexpectedChar,
    UnterminatedString,
    UnterminatedComment,
    BadNumber,
    /// `&&` or `||`, from other languages: the message says how ds writes them.
    DoubledOperator(&'static str),
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(match self {
            LexError::UnexpectedChar => "unexpected character",
            LexError::UnterminatedString => "unterminated string literal",
            LexError::UnterminatedComment => "unterminated block comment `/* ... */`",
            LexError::BadNumber => "malformed number",
            LexError::DoubledOperator("&&") => "`&&` is written `&` in DemonScript: `A & B`",
            LexError::DoubledOperator(_) => "`||` is written `|` in DemonScript: `A | B`",
        })
    }
}

#[derive(Logos, Debug, Clone, PartialEq)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\f\x0B]+")]
#[logos(skip r"//[^\n]*")]
#[logos(skip "\u{FEFF}")]
pub enum Tok {
    #[token("/*", block_comment)]
    BlockComment,

    #[regex(r"\n")]
    Newline,

    /// A name, or a word of the table in `words.rs` (`word_or_name` tells them apart): the
    /// lexer never gives this token itself.
    #[regex(r"[A-Za-z_][A-Za-z0-9_#$@]*", word_or_name)]
    #[regex(r"(get|set)[ \t]*:", word_or_name)]
    #[token("#include", word_or_name)]
    WordOrName,
    /// A keyword, clause word, demon section or literal constant (`words::WORDS`).
    Word(Word),
    Ident(Rc<str>),
    /// `$name`: a node constant; the `$` is part of the name.
    #[regex(r"\$[A-Za-z0-9_#$@]+", |lex| Rc::<str>::from(lex.slice()))]
    NodeName(Rc<str>),
    /// `@name`: an edge-type constant; the `@` is not part of the name.
    #[regex(r"@[A-Za-z_][A-Za-z0-9_#$@]*", |lex| Rc::<str>::from(&lex.slice()[1..]))]
    EdgeName(Rc<str>),
    #[regex(r"[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?", number)]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?", number)]
    Number(f64),
    #[token("\"", |lex| string(lex, b'"'))]
    #[token("'", |lex| string(lex, b'\''))]
    Str(Rc<str>),

    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(",")]
    Comma,
    #[token(";")]
    Semi,
    #[token(":")]
    Colon,
    #[token(".")]
    Dot,
    #[token("=>")]
    Arrow,
    #[token("=")]
    Assign,
    #[token("+=")]
    PlusAssign,
    #[token("-=")]
    MinusAssign,
    #[token("*=")]
    StarAssign,
    #[token("/=")]
    SlashAssign,
    #[token("\\=")]
    BackslashAssign,
    #[token("%=")]
    PercentAssign,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token("<=")]
    Le,
    #[token(">")]
    Gt,
    #[token(">=")]
    Ge,
    #[token("<->")]
    Equiv,
    #[token("->")]
    Implies,
    #[token("&")]
    And,
    #[token("|")]
    Or,
    #[token("&&", doubled)]
    #[token("||", doubled)]
    DoubledOperator,
    #[token("!")]
    Bang,
    #[token("?")]
    Question,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("\\")]
    Backslash,
    #[token("%")]
    Percent,

    // Tokens made by the layout pass (`lexer.rs`), never by logos itself.
    /// End of a statement: a significant newline or a run of `;`.
    Term,
    /// `?` written directly before a name (`X ?rel Y`, `?X`); a spaced `?` is the ternary.
    QuestionTight,
    /// `{` that opens a block of statements (a plain `LBrace` opens a map literal).
    BlockOpen,
    /// `(` that opens the parameter list of a lambda `(a, b) => ...`.
    LambdaOpen,
    /// A `,` that ends a line inside an `out` statement: no newline is printed.
    OutTrail,
}

/// A word of the table or, failing that, a name.
fn word_or_name(lex: &mut Lexer<Tok>) -> Tok {
    match Word::of(lex.slice()) {
        Some(w) => Tok::Word(w),
        Option::None => Tok::Ident(lex.slice().into()),
    }
}

/// A number; `1.` (digits and a dot not followed by a name or a digit) is the number 1, as in the
/// original (reference 1.3), while `1.string()` stays a method call.
fn number(lex: &mut Lexer<Tok>) -> Result<f64, LexError> {
    let n = lex.slice().parse::<f64>().map_err(|_| LexError::BadNumber)?;
    let rest = lex.remainder().as_bytes();
    let name_or_digit = |c: &u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'@' | b'.');
    if lex.slice().bytes().all(|c| c.is_ascii_digit())
        && rest.first() == Some(&b'.')
        && !rest.get(1).is_some_and(name_or_digit)
    {
        lex.bump(1);
    }
    Ok(n)
}

/// `&&` and `||` are never tokens: an error that says how ds writes them.
fn doubled(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    Err(LexError::DoubledOperator(if lex.slice() == "&&" { "&&" } else { "||" }))
}

/// Nested `/* ... */` comments; the layout pass drops the token.
fn block_comment(lex: &mut Lexer<Tok>) -> Result<(), LexError> {
    let rest = lex.remainder().as_bytes();
    let mut depth = 1usize;
    let mut i = 0;
    while i < rest.len() {
        if rest[i..].starts_with(b"/*") {
            depth += 1;
            i += 2;
        } else if rest[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                lex.bump(i);
                return Ok(());
            }
        } else {
            i += 1;
        }
    }
    lex.bump(rest.len());
    Err(LexError::UnterminatedComment)
}

/// A string literal; it may span lines. Escapes: `\\ \" \' \n \t`; any other `\x` keeps both.
fn string(lex: &mut Lexer<Tok>, quote: u8) -> Result<Rc<str>, LexError> {
    let rest = lex.remainder();
    let bytes = rest.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    let mut start = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == quote {
            out.push_str(&rest[start..i]);
            lex.bump(i + 1);
            return Ok(out.into());
        }
        if b == b'\\' && i + 1 < bytes.len() {
            out.push_str(&rest[start..i]);
            match bytes[i + 1] {
                b'\\' => out.push('\\'),
                b'"' => out.push('"'),
                b'\'' => out.push('\''),
                b'n' => out.push('\n'),
                b't' => out.push('\t'),
                _ => {
                    // Keep both characters; the second may start a multi-byte char.
                    start = i;
                    i += 1;
                    continue;
                }
            }
            i += 2;
            start = i;
            continue;
        }
        i += 1;
    }
    lex.bump(bytes.len());
    Err(LexError::UnterminatedString)
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Tok::Ident(s) => write!(f, "name `{s}`"),
            Tok::NodeName(s) => write!(f, "node `{s}`"),
            Tok::EdgeName(s) => write!(f, "edge `@{s}`"),
            Tok::Number(n) => write!(f, "number `{n}`"),
            Tok::Str(_) => f.write_str("string"),
            Tok::Newline | Tok::Term => f.write_str("end of statement"),
            Tok::OutTrail => f.write_str("`,` at end of line"),
            Tok::BlockOpen => f.write_str("`{`"),
            Tok::LambdaOpen => f.write_str("`(`"),
            Tok::QuestionTight => f.write_str("`?`"),
            Tok::BlockComment => f.write_str("comment"),
            other => write!(f, "`{}`", symbol(other)),
        }
    }
}

/// The source spelling of a fixed token (with no wildcard arm: a new token must say it).
pub fn symbol(t: &Tok) -> &'static str {
    use Tok::*;
    match t {
        Word(w) => w.text(),
        LParen | LambdaOpen => "(",
        RParen => ")",
        LBracket => "[",
        RBracket => "]",
        LBrace | BlockOpen => "{",
        RBrace => "}",
        Comma | OutTrail => ",",
        Semi => ";",
        Colon => ":",
        Dot => ".",
        Arrow => "=>",
        Assign => "=",
        PlusAssign => "+=",
        MinusAssign => "-=",
        StarAssign => "*=",
        SlashAssign => "/=",
        BackslashAssign => "\\=",
        PercentAssign => "%=",
        PlusPlus => "++",
        MinusMinus => "--",
        EqEq => "==",
        NotEq => "!=",
        Lt => "<",
        Le => "<=",
        Gt => ">",
        Ge => ">=",
        Equiv => "<->",
        Implies => "->",
        And => "&",
        Or => "|",
        Bang => "!",
        Question | QuestionTight => "?",
        Plus => "+",
        Minus => "-",
        Star => "*",
        Slash => "/",
        Backslash => "\\",
        Percent => "%",
        // Tokens with no one spelling (the names and literals say theirs in `Display`).
        BlockComment | Newline | Term | WordOrName | Ident(_) | NodeName(_) | EdgeName(_) | Number(_) | Str(_)
        | DoubledOperator => "?",
    }
}

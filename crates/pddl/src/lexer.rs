//! PDDL's tokens (logos). PDDL is case-insensitive: names, variables and keywords are lowered
//! here, so every later stage compares lower-case text.

use logos::Logos;

fn lower(lex: &mut logos::Lexer<Tok>) -> String {
    lex.slice().to_ascii_lowercase()
}

#[derive(Logos, Clone, Debug, PartialEq)]
#[logos(skip r"[ \t\r\n\f]+")]
#[logos(skip r";[^\n]*")]
pub enum Tok {
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("-")]
    Dash,
    #[token("=")]
    Eq,
    #[token("define", ignore(ascii_case))]
    Define,
    #[token("domain", ignore(ascii_case))]
    Domain,
    #[token("problem", ignore(ascii_case))]
    Problem,
    #[token("and", ignore(ascii_case))]
    And,
    #[token("not", ignore(ascii_case))]
    Not,
    #[token("increase", ignore(ascii_case))]
    Increase,
    #[token("minimize", ignore(ascii_case))]
    Minimize,
    #[token(":requirements", ignore(ascii_case))]
    Requirements,
    #[token(":types", ignore(ascii_case))]
    Types,
    #[token(":constants", ignore(ascii_case))]
    Constants,
    #[token(":predicates", ignore(ascii_case))]
    Predicates,
    #[token(":functions", ignore(ascii_case))]
    Functions,
    #[token(":action", ignore(ascii_case))]
    Action,
    #[token(":parameters", ignore(ascii_case))]
    Parameters,
    #[token(":precondition", ignore(ascii_case))]
    Precondition,
    #[token(":effect", ignore(ascii_case))]
    Effect,
    #[token(":domain", ignore(ascii_case))]
    DomainRef,
    #[token(":objects", ignore(ascii_case))]
    Objects,
    #[token(":init", ignore(ascii_case))]
    Init,
    #[token(":goal", ignore(ascii_case))]
    Goal,
    #[token(":metric", ignore(ascii_case))]
    Metric,
    /// Any other `:word`: a requirement flag, or a section ds does not read.
    #[regex(r":[a-zA-Z][a-zA-Z0-9_-]*", lower)]
    Keyword(String),
    #[regex(r"\?[a-zA-Z][a-zA-Z0-9_-]*", lower)]
    Var(String),
    #[regex(r"[a-zA-Z][a-zA-Z0-9_-]*", lower)]
    Name(String),
    #[regex(r"[0-9]+(\.[0-9]+)?", |lex| lex.slice().to_string())]
    Number(String),
}

impl std::fmt::Display for Tok {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Tok::LParen => write!(f, "`(`"),
            Tok::RParen => write!(f, "`)`"),
            Tok::Dash => write!(f, "`-`"),
            Tok::Eq => write!(f, "`=`"),
            Tok::Keyword(s) | Tok::Name(s) | Tok::Var(s) | Tok::Number(s) => write!(f, "`{s}`"),
            other => write!(f, "`{}`", format!("{other:?}").to_ascii_lowercase()),
        }
    }
}

/// A token with its byte range.
pub type Spanned = (usize, Tok, usize);

/// The tokens of `src`, or the byte range of the first character that starts none.
pub fn tokenize(src: &str) -> Result<Vec<Spanned>, (usize, usize)> {
    let mut out = Vec::new();
    let mut lex = Tok::lexer(src);
    while let Some(tok) = lex.next() {
        let range = lex.span();
        match tok {
            Ok(t) => out.push((range.start, t, range.end)),
            Err(()) => return Err((range.start, range.end.max(range.start + 1))),
        }
    }
    Ok(out)
}

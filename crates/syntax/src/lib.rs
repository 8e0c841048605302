//! Source text to syntax tree: the logos lexer, its layout pass, and the LALRPOP grammar.

pub mod ast;
pub mod dump;
pub mod helpers;
mod hints;
pub mod lexer;
pub mod token;
pub mod words;

use lalrpop_util::lalrpop_mod;

lalrpop_mod!(
    #[allow(clippy::all, clippy::pedantic, unused_parens, dead_code, unused_imports)]
    grammar,
    "/grammar.rs"
);

pub use ast::{FileId, Span};

use ds_base::diagnostics::Diagnostic;
use lalrpop_util::ParseError;
use std::rc::Rc;

/// Parses one source file into statements; the only entry point to the parser.
pub fn parse(src: &str, file: FileId) -> Result<Vec<ast::Stmt>, Diagnostic> {
    let tokens = lexer::tokenize(src).map_err(|e| lex_error(e, file))?;
    let unclosed = tokens.unclosed;
    let shared: Rc<str> = src.into();
    grammar::ProgramParser::new()
        .parse(file, &shared, within_memory(tokens.tokens, file))
        .map_err(|e| parse_error(e, file, src, unclosed))
}

/// The tokens, ended by an error if the tree built from them passes `--max-memory`.
fn within_memory(
    tokens: Vec<lexer::Spanned>,
    file: FileId,
) -> impl Iterator<Item = Result<lexer::Spanned, helpers::GrammarError>> {
    tokens.into_iter().enumerate().map(move |(i, t)| {
        if i % lexer::CHECK_EVERY == 0 && ds_base::guard::memory::exceeded() {
            let span = Span::new(file, t.0, t.2);
            return Err(helpers::GrammarError { message: ds_base::guard::memory::limit_message(), span });
        }
        Ok(t)
    })
}

/// Parses a single expression (used by the REPL and `eval`).
pub fn parse_expr(src: &str, file: FileId) -> Result<ast::Expr, Diagnostic> {
    let tokens = lexer::tokenize(src).map_err(|e| lex_error(e, file))?;
    let unclosed = tokens.unclosed;
    let shared: Rc<str> = src.into();
    grammar::ExprParser::new().parse(file, &shared, tokens.tokens).map_err(|e| parse_error(e, file, src, unclosed))
}

/// A lexer failure as a diagnostic; a string or block comment still open at the end of the
/// input makes it incomplete (the REPL then reads another line).
fn lex_error(e: lexer::LexFailure, file: FileId) -> Diagnostic {
    let mut d = Diagnostic::error(Span::new(file, e.lo, e.hi), e.message);
    d.incomplete = e.incomplete;
    d
}

/// The one place where LALRPOP's errors become diagnostics.
fn parse_error(
    err: ParseError<usize, token::Tok, helpers::GrammarError>,
    file: FileId,
    src: &str,
    unclosed: Option<(char, usize)>,
) -> Diagnostic {
    let end = src.len();
    match err {
        ParseError::InvalidToken { location } => {
            Diagnostic::error(Span::new(file, location, location + 1), "invalid token")
        }
        ParseError::UnrecognizedEof { location, expected } => {
            let found = format!("unexpected end of input{}", expected_list(&expected));
            let mut d = match hints::hint(src, location) {
                Some(h) => Diagnostic::error(Span::new(file, h.lo, h.hi), h.message).with_note(h.note.unwrap_or(found)),
                None => Diagnostic::error(Span::new(file, location.min(end), location.min(end)), found),
            };
            if let Some((open, at)) = unclosed {
                let line = src[..at].matches('\n').count() + 1;
                d = d.with_note(format!("the `{open}` on line {line} is not closed"));
            }
            d.incomplete = true;
            d
        }
        ParseError::UnrecognizedToken { token: (lo, tok, hi), expected } => {
            // The end of a statement is a newline: mark the end of its line, not the next line.
            let hi = if tok == token::Tok::Term { lo } else { hi };
            let found = format!("unexpected {tok}{}", expected_list(&expected));
            if let Some(message) = keyword_as_name(&src[lo..hi], &expected) {
                return Diagnostic::error(Span::new(file, lo, hi), message).with_note(found);
            }
            match hints::hint(src, lo) {
                Some(h) => Diagnostic::error(Span::new(file, h.lo, h.hi), h.message).with_note(h.note.unwrap_or(found)),
                None => Diagnostic::error(Span::new(file, lo, hi), found),
            }
        }
        ParseError::ExtraToken { token: (lo, tok, hi) } => {
            Diagnostic::error(Span::new(file, lo, hi), format!("unexpected {tok}"))
        }
        ParseError::User { error } => Diagnostic::error(error.span, error.message),
    }
}

/// The error for a keyword where a name, and not any expression, was wanted (`var in = 1`,
/// `def out(X)`).
fn keyword_as_name(word: &str, expected: &[String]) -> Option<String> {
    let wants = |what: &str| expected.iter().any(|e| e.trim_matches('"') == what);
    let wanted_name = wants("name") && !wants("number");
    (wanted_name && words::is_keyword(word))
        .then(|| format!("`{word}` is a keyword: it cannot name a variable, a demon or a parameter"))
}

/// "; expected one of ..." with the grammar's terminal names made readable.
fn expected_list(expected: &[String]) -> String {
    let mut names: Vec<String> = expected
        .iter()
        .map(|e| {
            let e = e.trim_matches('"');
            match e {
                "name" | "number" | "string" | "end of line" => e.to_string(),
                "$node" => "node name".to_string(),
                "@edge" => "edge name".to_string(),
                "?name" => "`?`".to_string(),
                "lambda (" => "`(`".to_string(),
                "block {" => "`{`".to_string(),
                "line-ending ," => "`,`".to_string(),
                other => format!("`{}`", other.replace("\\\\", "\\")),
            }
        })
        .collect();
    names.sort();
    names.dedup();
    // Clause words and demon sections are always possible after a statement and rarely what
    // was meant.
    names.retain(|n| !matches!(n.as_str(), "`get:`" | "`set:`"));
    if names.len() > 3 {
        names.retain(|n| !matches!(n.as_str(), "`else`" | "`false`" | "`undef`"));
    }
    let expression = ["name", "number", "string"].iter().all(|w| names.iter().any(|n| n == w));
    let end = names.iter().any(|n| n == "end of line");
    match names.len() {
        0 => String::new(),
        1 => format!("; expected {}", names[0]),
        _ if expression => "; expected an expression".to_string(),
        n if n > 8 && end => "; expected an operator or the end of the statement".to_string(),
        n if n > 8 => format!("; expected one of {n} kinds of token"),
        _ => format!("; expected one of {}", names.join(", ")),
    }
}

//! Source text to syntax tree: the lexer's tokens through the LALRPOP grammar, and the one place
//! where the parser's errors become diagnostics ("expected ...").

use crate::ast::{Domain, Problem};
use crate::grammar;
use crate::lexer::{self, Tok};
use ds_base::diagnostics::{Diagnostic, FileId, Span};
use lalrpop_util::ParseError;

pub fn domain(src: &str, file: FileId) -> Result<Domain, Diagnostic> {
    let tokens = tokens(src, file)?;
    grammar::DomainParser::new().parse(file, tokens).map_err(|e| error(e, file, src))
}

pub fn problem(src: &str, file: FileId) -> Result<Problem, Diagnostic> {
    let tokens = tokens(src, file)?;
    grammar::ProblemParser::new().parse(file, tokens).map_err(|e| error(e, file, src))
}

/// How deep parentheses may nest: the checks walk the tree recursively, and a file nested
/// deeper than any real domain must get an error, not overflow the stack.
pub const MAX_DEPTH: usize = 256;

fn tokens(src: &str, file: FileId) -> Result<Vec<lexer::Spanned>, Diagnostic> {
    let tokens = lexer::tokenize(src).map_err(|(lo, hi)| {
        let ch = src[lo..].chars().next().unwrap_or(' ');
        Diagnostic::error(Span::new(file, lo, hi.max(lo + ch.len_utf8())), format!("unexpected character `{ch}`"))
    })?;
    let mut depth = 0usize;
    for (lo, tok, hi) in &tokens {
        match tok {
            Tok::LParen => depth += 1,
            Tok::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
        if depth > MAX_DEPTH {
            return Err(Diagnostic::error(
                Span::new(file, *lo, *hi),
                format!("parentheses nested more than {MAX_DEPTH} deep"),
            ));
        }
    }
    Ok(tokens)
}

fn error(err: ParseError<usize, Tok, ()>, file: FileId, src: &str) -> Diagnostic {
    match err {
        ParseError::UnrecognizedEof { expected, .. } => {
            let end = src.trim_end().len();
            Diagnostic::error(Span::new(file, end, end), format!("unexpected end of file{}", expected_list(&expected)))
        }
        ParseError::UnrecognizedToken { token: (lo, tok, hi), expected } => {
            let d = Diagnostic::error(Span::new(file, lo, hi), format!("unexpected {tok}{}", expected_list(&expected)));
            match tok {
                Tok::Keyword(k) => d.with_note(format!("ds does not read `{k}` here (supported: {SUPPORTED})")),
                _ => d,
            }
        }
        ParseError::ExtraToken { token: (lo, tok, hi) } => {
            Diagnostic::error(Span::new(file, lo, hi), format!("unexpected {tok} after the end of the definition"))
        }
        ParseError::InvalidToken { location } => {
            Diagnostic::error(Span::new(file, location, location + 1), "invalid token")
        }
        ParseError::User { .. } => Diagnostic::error(Span::new(file, 0, 0), "malformed PDDL"),
    }
}

/// The requirements ds reads (decision 26).
pub const SUPPORTED: &str = ":strips, :typing, :negative-preconditions, :equality, :action-costs";

/// "; expected one of ..." with the grammar's terminal names made readable.
fn expected_list(expected: &[String]) -> String {
    let mut names: Vec<String> = expected
        .iter()
        .map(|e| match e.trim_matches('"') {
            "Name" => "a name".to_string(),
            "Var" => "a variable (`?x`)".to_string(),
            "Number" => "a number".to_string(),
            "Keyword" => "a requirement (`:strips`)".to_string(),
            other => format!("`{other}`"),
        })
        .collect();
    names.sort();
    names.dedup();
    match names.len() {
        0 => String::new(),
        1 => format!("; expected {}", names[0]),
        _ => format!("; expected one of {}", names.join(", ")),
    }
}

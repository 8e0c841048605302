//! Half-typed text to something that parses, so that completion and navigation keep working
//! while the user types: lines that do not parse are blanked (byte for byte, so every offset
//! stays where it was) and brackets still open at the end are closed. The diagnostics always
//! come from the text as it is; only the names come from the repaired copy.

use crate::syntax::ast::Stmt;
use crate::syntax::token::{LexError, Tok};
use crate::syntax::{self, FileId};
use logos::Logos;

/// Enough for a few broken places; each attempt blanks one more line.
const MAX_ATTEMPTS: usize = 40;

/// The statements of the nearest text that parses, if a few repairs find one.
pub fn parse_repaired(text: &str, file: FileId) -> Option<Vec<Stmt>> {
    let mut t = text.to_string();
    let mut closed = false;
    let mut last_error = None;
    for _ in 0..MAX_ATTEMPTS {
        let d = match syntax::parse(&t, file) {
            Ok(stmts) => return Some(stmts),
            Err(d) => d,
        };
        if d.incomplete && !closed {
            closed = true;
            let closers = missing_closers(&t);
            if !closers.is_empty() {
                t.push_str(&closers);
                continue;
            }
        }
        let at = (d.span.lo as usize).min(t.len());
        let line_start = t[..at].rfind('\n').map_or(0, |i| i + 1);
        let blame = if let Some(open) = open_group_before(&t, at) {
            // A statement keyword inside an open `(` or `[`: the line that opened it is broken.
            open
        } else if t[line_start..at].trim().is_empty() && line_start > 0 && last_error != Some(at) {
            // The first token of a line: the line before ended in the middle of an expression
            // (`a.`, `x =`), and its newline did not end the statement.
            line_start - 1
        } else {
            at
        };
        last_error = Some(at);
        if !blank_line_at(&mut t, blame) {
            return None;
        }
    }
    None
}

/// Blanks the line holding `at` or, when that line is blank already, the nearest non-blank line
/// before it. False when there is nothing left to blank.
fn blank_line_at(t: &mut String, at: usize) -> bool {
    let mut end = t[at..].find('\n').map_or(t.len(), |i| at + i);
    loop {
        let start = t[..end.min(t.len())].rfind('\n').map_or(0, |i| i + 1);
        if t[start..end].trim().is_empty() {
            if start == 0 {
                return false;
            }
            end = start - 1;
            continue;
        }
        // Same length in bytes: the offsets of everything else do not move.
        let spaces = " ".repeat(end - start);
        t.replace_range(start..end, &spaces);
        return true;
    }
}

/// What closes the strings, comments and brackets still open at the end of `t`, innermost first.
fn missing_closers(t: &str) -> String {
    let mut open = Vec::new();
    let mut lex = Tok::lexer(t);
    let mut tail = String::new();
    while let Some(tok) = lex.next() {
        match tok {
            Ok(Tok::LParen) => open.push(')'),
            Ok(Tok::LBracket) => open.push(']'),
            Ok(Tok::LBrace) => open.push('}'),
            Ok(Tok::RParen | Tok::RBracket | Tok::RBrace) => {
                open.pop();
            }
            Err(LexError::UnterminatedString) => {
                tail.push_str(&t[lex.span()][..1]);
                break;
            }
            Err(LexError::UnterminatedComment) => {
                tail.push_str("*/");
                break;
            }
            _ => {}
        }
    }
    for c in open.into_iter().rev() {
        tail.push('\n');
        tail.push(c);
    }
    tail
}

/// The offset of the outermost `(` or `[` still open at `at`, if any.
fn open_group_before(t: &str, at: usize) -> Option<usize> {
    let mut open: Vec<(char, usize)> = Vec::new();
    let mut lex = Tok::lexer(&t[..at]);
    while let Some(tok) = lex.next() {
        match tok {
            Ok(Tok::LParen) => open.push(('(', lex.span().start)),
            Ok(Tok::LBracket) => open.push(('[', lex.span().start)),
            Ok(Tok::LBrace) => open.push(('{', lex.span().start)),
            Ok(Tok::RParen | Tok::RBracket | Tok::RBrace) => {
                open.pop();
            }
            _ => {}
        }
    }
    // Only a group counts: an open `{` is a block the statement legitimately stands in.
    let last_block = open.iter().rposition(|(c, _)| *c == '{').map_or(0, |i| i + 1);
    open.get(last_block).map(|&(_, at)| at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repairs_keep_the_other_lines() {
        let text = "var a = 1\nvar b = a.\nvar c = place(\n";
        let stmts = parse_repaired(text, 0).expect("repaired");
        assert_eq!(stmts.len(), 2, "{stmts:?}");
        assert_eq!(stmts[0].span.lo, 0);
        assert!(parse_repaired("def f(X) {\n  var y = X\n", 0).is_some());
        assert!(parse_repaired("out \"abc", 0).is_some());
        assert!(parse_repaired("/* open", 0).is_some());
        assert_eq!(missing_closers("f([1, {"), "\n}\n]\n)");
    }
}

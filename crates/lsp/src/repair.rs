//! Half-typed text to something that parses, so that completion and navigation keep working
//! while the user types: lines that do not parse are blanked (byte for byte, so every offset
//! stays where it was) and brackets still open at the end are closed. The diagnostics always
//! come from the text as it is; only the names come from the repaired copy.
//!
//! Which line to blank is a guess from the shape of the text: the line of the error; the line
//! before it when the error is the first token of its line (that line ended in the middle of an
//! expression); the line that opened a `(` or `[` a statement keyword stands in; the line of a
//! `{` whose `}` is at another indentation, or that is followed by code at its own level (a
//! block left open in the middle of the file); the line where a string starts that runs over
//! several lines (a quote left open).

use ds_syntax::ast::Stmt;
use ds_syntax::token::{LexError, Tok};
use ds_syntax::{self as syntax, FileId};
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
        let at = (d.span.lo as usize).min(t.len());
        let shape = Shape::of(&t);
        let blame = if let Some(open) = shape.open_string_before(at) {
            open
        } else if d.incomplete {
            match shape.misplaced_block(&t) {
                Some(open) => open,
                None if !closed && !shape.closers.is_empty() => {
                    closed = true;
                    t.push_str(&shape.closers);
                    continue;
                }
                None => at,
            }
        } else {
            blame_line(&t, at, last_error)
        };
        last_error = Some(at);
        if !blank_line_at(&mut t, blame) {
            return None;
        }
    }
    None
}

/// The place to blank for a syntax error at `at` (see the module's comment).
fn blame_line(t: &str, at: usize, last_error: Option<usize>) -> usize {
    let line_start = t[..at].rfind('\n').map_or(0, |i| i + 1);
    if let Some(open) = open_group_before(t, at) {
        open
    } else if t[line_start..at].trim().is_empty() && line_start > 0 && last_error != Some(at) {
        line_start - 1
    } else {
        at
    }
}

/// Blanks the line holding `at` or, when that line is blank already, the nearest non-blank line
/// before it. False when there is nothing left to blank.
fn blank_line_at(t: &mut String, at: usize) -> bool {
    let mut end = t[at..].find('\n').map_or(t.len(), |i| at + i);
    loop {
        let start = t[..end].rfind('\n').map_or(0, |i| i + 1);
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

/// What the raw tokens say about brackets and strings.
struct Shape {
    /// What closes the strings, comments and brackets still open at the end, innermost first.
    closers: String,
    /// `{` still open at the end: (offset, indentation of its line).
    open_blocks: Vec<(usize, usize)>,
    /// A `{` whose `}` starts a line at another indentation than the `{`'s line.
    mismatched_block: Option<usize>,
    /// Where strings spanning several lines start.
    multiline_strings: Vec<usize>,
}

impl Shape {
    fn of(t: &str) -> Shape {
        let mut open: Vec<(char, usize)> = Vec::new();
        let mut shape = Shape {
            closers: String::new(),
            open_blocks: Vec::new(),
            mismatched_block: None,
            multiline_strings: Vec::new(),
        };
        let mut tail = String::new();
        let mut lex = Tok::lexer(t);
        while let Some(tok) = lex.next() {
            let span = lex.span();
            match tok {
                Ok(Tok::LParen) => open.push((')', span.start)),
                Ok(Tok::LBracket) => open.push((']', span.start)),
                Ok(Tok::LBrace) => open.push(('}', span.start)),
                Ok(Tok::RParen | Tok::RBracket | Tok::RBrace) => {
                    if let Some(('}', at)) = open.pop() {
                        let starts_line = t[line_start(t, span.start)..span.start].trim().is_empty();
                        if starts_line && indent(t, at) != indent(t, span.start) {
                            shape.mismatched_block.get_or_insert(at);
                        }
                    }
                }
                Ok(Tok::Str(_)) if t[span.clone()].contains('\n') => shape.multiline_strings.push(span.start),
                Err(LexError::UnterminatedString) => {
                    shape.multiline_strings.push(span.start);
                    tail.push_str(&t[span][..1]);
                    break;
                }
                Err(LexError::UnterminatedComment) => {
                    tail.push_str("*/");
                    break;
                }
                _ => {}
            }
        }
        shape.open_blocks = open.iter().filter(|(c, _)| *c == '}').map(|&(_, at)| (at, indent(t, at))).collect();
        for (c, _) in open.into_iter().rev() {
            tail.push('\n');
            tail.push(c);
        }
        shape.closers = tail;
        shape
    }

    /// The start of a string that spans lines and begins before `at`: most likely a quote the
    /// user has not closed yet, which turned the rest of the text inside out.
    fn open_string_before(&self, at: usize) -> Option<usize> {
        self.multiline_strings.iter().copied().find(|&s| s < at)
    }

    /// A `{` that is not the last block being typed: its `}` is at another indentation, or
    /// after it comes a line of code at its own indentation or less.
    fn misplaced_block(&self, t: &str) -> Option<usize> {
        if let Some(at) = self.mismatched_block {
            return Some(at);
        }
        self.open_blocks.iter().find_map(|&(at, level)| {
            let after = t[at..].find('\n').map_or(t.len(), |i| at + i + 1);
            let code_at_level = t[after..].lines().any(|l| {
                let trimmed = l.trim_start();
                !trimmed.is_empty()
                    && !trimmed.starts_with("//")
                    && !trimmed.starts_with('}')
                    && l.len() - trimmed.len() <= level
            });
            code_at_level.then_some(at)
        })
    }
}

fn line_start(t: &str, at: usize) -> usize {
    t[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// The indentation (in bytes) of the line holding `at`.
fn indent(t: &str, at: usize) -> usize {
    let line = &t[line_start(t, at)..];
    line.len() - line.trim_start_matches([' ', '\t']).len()
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
    use ds_syntax::ast::StmtKind;

    fn defs(stmts: &[Stmt]) -> Vec<String> {
        stmts
            .iter()
            .filter_map(|s| match &s.kind {
                StmtKind::Def(d) => Some(d.name.text.to_string()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn repairs_keep_the_other_lines() {
        let text = "var a = 1\nvar b = a.\nvar c = place(\n";
        let stmts = parse_repaired(text, 0).expect("repaired");
        assert_eq!(stmts.len(), 2, "{stmts:?}");
        assert_eq!(stmts[0].span.lo, 0);
        assert!(parse_repaired("def f(X) {\n  var y = X\n", 0).is_some());
        assert!(parse_repaired("out \"abc", 0).is_some());
        assert!(parse_repaired("/* open", 0).is_some());
        assert_eq!(Shape::of("f([1, {").closers, "\n}\n]\n)");
    }

    #[test]
    fn a_block_or_string_left_open_in_the_middle_keeps_the_demons_after_it() {
        let before = "def f(X) {\n   return X\n}\n";
        let after = "def g(Y) {\n   out \"y\"\n   return Y\n}\ndef h() { return 1 }\n";
        for broken in ["if x {", "out \"abc", "   if X {\n      out X\n}"] {
            let text = format!("{before}{broken}\n{after}");
            let stmts = parse_repaired(&text, 0).unwrap_or_else(|| panic!("no repair of {text}"));
            assert_eq!(defs(&stmts), ["f", "g", "h"], "{text}");
        }
        // The block being typed at the end keeps its demon.
        let stmts = parse_repaired("def f(X) {\n   var y = X\n   out y\n", 0).expect("repaired");
        assert_eq!(defs(&stmts), ["f"]);
    }
}

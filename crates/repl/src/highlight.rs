//! Highlighting of an input line (keywords, literals, comments, the bracket matching the one at
//! the cursor) and the hint of the brackets an entry still has to close. Both read the
//! language's own lexer, so they agree with the parser about what is a string or a comment.

use ds_syntax::token::Tok;
use ds_syntax::words::Style;
use logos::Logos;
use std::ops::Range;

const RESET: &str = "\x1b[0m";
const KEYWORD: &str = "\x1b[1;35m";
const CONSTANT: &str = "\x1b[33m";
const NUMBER: &str = "\x1b[36m";
const STRING: &str = "\x1b[32m";
const NAME_CONST: &str = "\x1b[34m";
const COMMENT: &str = "\x1b[90m";
const MATCH: &str = "\x1b[1;4m";

/// `line` with ANSI colours; the bracket matching the one at (or just before) `cursor` is
/// underlined. The visible text is unchanged.
pub fn highlight(line: &str, cursor: Option<usize>) -> String {
    let partner = cursor.and_then(|at| matching_bracket(line, at));
    let mut out = String::with_capacity(line.len() * 2);
    let mut done = 0;
    for (range, style) in styled_spans(line) {
        push_plain(&mut out, &line[done..range.start]);
        let style = if partner == Some(range.start) { Some(MATCH) } else { style };
        match style {
            Some(s) => out.extend([s, &line[range.clone()], RESET]),
            None => out.push_str(&line[range.clone()]),
        }
        done = range.end;
    }
    push_plain(&mut out, &line[done..]);
    out
}

/// Text between tokens is blanks or a `//` comment.
fn push_plain(out: &mut String, text: &str) {
    match text.find("//") {
        Some(i) => out.extend([&text[..i], COMMENT, &text[i..], RESET]),
        None => out.push_str(text),
    }
}

/// Every token with its colour; an unfinished string or comment runs to the end of the line.
fn styled_spans(line: &str) -> Vec<(Range<usize>, Option<&'static str>)> {
    let mut lex = Tok::lexer(line);
    let mut spans = Vec::new();
    let mut after_dot = false;
    while let Some(tok) = lex.next() {
        let range = lex.span();
        let style = match &tok {
            // `F.out(X)`: right after a `.` a word is a method's name, as for the parser.
            Ok(Tok::Word(w)) if after_dot && w.entry().member => None,
            Ok(tok) => style_of(tok),
            Err(_) if line[range.start..].starts_with(['"', '\'']) => Some(STRING),
            Err(_) if line[range.start..].starts_with("/*") => Some(COMMENT),
            Err(_) => None,
        };
        after_dot = tok == Ok(Tok::Dot);
        spans.push((range, style));
    }
    spans
}

/// The colour of a token; every kind of token is listed, so a new one must choose.
fn style_of(tok: &Tok) -> Option<&'static str> {
    use Tok::*;
    Some(match tok {
        Word(w) => match w.entry().style {
            Style::Keyword => KEYWORD,
            Style::Constant => CONSTANT,
        },
        Number(_) => NUMBER,
        Str(_) => STRING,
        NodeName(_) | EdgeName(_) => NAME_CONST,
        BlockComment => COMMENT,
        WordOrName | Ident(_) | Newline | LParen | RParen | LBracket | RBracket | LBrace | RBrace | Comma | Semi
        | Colon | Dot | Arrow | Assign | PlusAssign | MinusAssign | StarAssign | SlashAssign | BackslashAssign
        | PercentAssign | PlusPlus | MinusMinus | EqEq | NotEq | Lt | Le | Gt | Ge | Equiv | Implies | And | Or
        | DoubledOperator | Bang | Question | Plus | Minus | Star | Slash | Backslash | Percent | Term
        | QuestionTight | BlockOpen | LambdaOpen | OutTrail => return Option::None,
    })
}

/// The brackets of `text` with their byte offsets, strings and comments skipped.
fn brackets(text: &str) -> Vec<(usize, u8)> {
    let mut lex = Tok::lexer(text);
    let mut out = Vec::new();
    while let Some(tok) = lex.next() {
        let at = lex.span().start;
        if matches!(tok, Ok(Tok::LParen | Tok::RParen | Tok::LBracket | Tok::RBracket | Tok::LBrace | Tok::RBrace)) {
            out.push((at, text.as_bytes()[at]));
        }
    }
    out
}

fn closer(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

fn is_open(b: u8) -> bool {
    matches!(b, b'(' | b'[' | b'{')
}

/// The offset of the bracket matching the one at `cursor` or just before it.
pub fn matching_bracket(line: &str, cursor: usize) -> Option<usize> {
    let all = brackets(line);
    let here = all.iter().position(|(at, _)| *at == cursor).or_else(|| {
        let before = cursor.checked_sub(1)?;
        all.iter().position(|(at, _)| *at == before)
    })?;
    let mut stack: Vec<usize> = Vec::new();
    for (i, &(_, b)) in all.iter().enumerate() {
        if is_open(b) {
            stack.push(i);
            continue;
        }
        let open = stack.pop()?;
        if closer(all[open].1) != b {
            return None;
        }
        if open == here {
            return Some(all[i].0);
        }
        if i == here {
            return Some(all[open].0);
        }
    }
    None
}

/// The closing brackets `text` still needs, innermost first (`foo([1` gives `])`); empty when
/// none are open or the brackets do not pair up.
pub fn missing_closers(text: &str) -> String {
    let mut stack = Vec::new();
    for (_, b) in brackets(text) {
        if is_open(b) {
            stack.push(b);
        } else if stack.pop().map(closer) != Some(b) {
            return String::new();
        }
    }
    stack.iter().rev().map(|&b| closer(b) as char).collect()
}

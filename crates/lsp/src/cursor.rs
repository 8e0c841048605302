//! What stands at the cursor: the word being typed or pointed at, what comes before a `.`,
//! and whether the place is code at all (not a comment or a string).

use super::position::floor_boundary;
use ds_syntax::token::{LexError, Tok};
use logos::Logos;

pub struct Cursor<'a> {
    /// The word around the cursor, from its start to its end (`$1`, `@on`, `all_actions`).
    pub word: &'a str,
    /// Byte offsets of the word's start and end, and of the cursor.
    pub start: usize,
    pub end: usize,
    pub offset: usize,
    /// For `X.word`: the text of X's last part (`Math`, `Start`, `"abc"`, `f(x)`).
    pub receiver: Option<&'a str>,
    /// False in a comment or a string.
    pub in_code: bool,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '#' | '$' | '@')
}

impl<'a> Cursor<'a> {
    pub fn at(text: &'a str, offset: usize) -> Cursor<'a> {
        let offset = floor_boundary(text, offset);
        let start =
            text[..offset].char_indices().rev().take_while(|&(_, c)| is_word(c)).last().map_or(offset, |(i, _)| i);
        let end = text[offset..].char_indices().find(|&(_, c)| !is_word(c)).map_or(text.len(), |(i, _)| offset + i);
        let receiver = text[..start].strip_suffix('.').map(receiver_text);
        Cursor { word: &text[start..end], start, end, offset, receiver, in_code: in_code(text, offset) }
    }

    /// The part of the word before the cursor, which completion extends.
    pub fn prefix(&self) -> &'a str {
        &self.word[..self.offset - self.start]
    }
}

/// The last part of the expression that ends at the end of `before`: a word, a string, or a
/// call or index with its brackets.
fn receiver_text(before: &str) -> &str {
    let trimmed = before.trim_end();
    let bytes = trimmed.as_bytes();
    let Some(&last) = bytes.last() else { return "" };
    let start = match last {
        b')' | b']' => matching_open(trimmed).map(|open| word_start(&trimmed[..open])),
        b'"' | b'\'' => trimmed[..trimmed.len() - 1].rfind(last as char),
        _ => Some(word_start(trimmed)),
    };
    &trimmed[start.unwrap_or(trimmed.len())..]
}

fn word_start(text: &str) -> usize {
    text.char_indices().rev().take_while(|&(_, c)| is_word(c)).last().map_or(text.len(), |(i, _)| i)
}

/// Where the bracket that closes at the end of `text` opened.
fn matching_open(text: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in text.char_indices().rev() {
        match c {
            ')' | ']' => depth += 1,
            '(' | '[' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether `offset` is in code: not inside a string, a block comment or a line comment.
fn in_code(text: &str, offset: usize) -> bool {
    let mut lex = Tok::lexer(text);
    let mut code_end = 0;
    while let Some(tok) = lex.next() {
        let span = lex.span();
        if span.start >= offset {
            break;
        }
        let unterminated = matches!(tok, Err(LexError::UnterminatedString | LexError::UnterminatedComment));
        if unterminated || (matches!(tok, Ok(Tok::Str(_) | Tok::BlockComment)) && offset < span.end) {
            return false;
        }
        code_end = span.end;
    }
    // Line comments are skipped by the lexer: look at what lies between the last token and here.
    !text[code_end.min(offset)..offset].contains("//")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_receivers_and_comments() {
        let text = "x = Math.sq + \"a.b\" // Math.";
        let c = Cursor::at(text, 11);
        assert_eq!((c.word, c.prefix(), c.receiver, c.in_code), ("sq", "sq", Some("Math"), true));
        assert!(!Cursor::at(text, 16).in_code, "inside the string");
        assert!(!Cursor::at(text, text.len()).in_code, "inside the comment");
        let c = Cursor::at("GRAPH(\"x\").no", 14);
        assert_eq!((c.receiver, c.prefix()), (Some("GRAPH(\"x\")"), "no"));
        let c = Cursor::at("out $1", 5);
        assert_eq!((c.word, c.prefix()), ("$1", "$"));
        assert!(!Cursor::at("out \"abc", 7).in_code);
    }
}

//! What a user probably meant when a statement does not parse: words from other languages
//! (`not`, `elif`, `then`, `print`) and misspelt statement keywords (`ot cat` for `out cat`).
//! The parser only sees where the statement stopped making sense (`if not x :` fails at the
//! `:`), so the tokens of the statement before that point are looked at again here.

use super::lexer;
use super::token::Tok;
use super::words::{self, LayoutRole};
use ds_base::names::suggest;

/// A message for a syntax error that names the likely fix, about the word at `lo..hi`, and a
/// note to show instead of the parser's own "unexpected ..." (when that says nothing more).
pub struct Hint {
    pub lo: usize,
    pub hi: usize,
    pub message: String,
    pub note: Option<String>,
}

/// Words of other languages, and what DemonScript writes instead.
const FOREIGN: [(&str, &str); 12] = [
    ("not", "`not X` is written `!X`"),
    ("elif", "`elif` is written `else if`"),
    ("elsif", "`elsif` is written `else if`"),
    ("elseif", "`elseif` is written `else if`, in two words"),
    ("then", "there is no `then`: write `if Cond : statement` or `if Cond { ... }`"),
    ("print", "output is written `out`: `out X, Y`"),
    ("println", "output is written `out`: `out X, Y`"),
    ("echo", "output is written `out`: `out X, Y`"),
    ("let", "a variable is declared with `var`: `var X = ...`"),
    ("function", "a demon (a function) is defined with `def`: `def name(X) { ... }`"),
    ("fn", "a demon (a function) is defined with `def`: `def name(X) { ... }`"),
    ("func", "a demon (a function) is defined with `def`: `def name(X) { ... }`"),
];

/// The hint for a syntax error whose token starts at `error_lo`, if the statement shows one.
pub fn hint(src: &str, error_lo: usize) -> Option<Hint> {
    let tokens = lexer::tokenize(src).ok()?.tokens;
    let end = tokens.iter().position(|t| t.0 >= error_lo).unwrap_or(tokens.len());
    let start = tokens[..end].iter().rposition(|t| ends_statement(&t.1)).map_or(0, |i| i + 1);
    let statement = &tokens[start..end];
    // The word the parser stopped at counts too: `} elif x {` fails at `elif` (issue 41).
    let through_error = &tokens[start..(end + 1).min(tokens.len())];
    if let Some(hint) = through_error.iter().find_map(foreign_word) {
        return Some(hint);
    }
    // At the end of the input a `Term` may close the statement after its operator.
    let last_word = tokens[..end].iter().rev().find(|t| t.1 != Tok::Term);
    if let Some(hint) = dangling_operator(src, last_word, error_lo) {
        return Some(hint);
    }
    if statement.is_empty() {
        return tokens.get(end).and_then(clause_without_if);
    }
    misspelt_keyword(statement)
}

/// A word of another language (`elif`, `not`, `print` ...), with what ds writes instead.
fn foreign_word((lo, tok, hi): &lexer::Spanned) -> Option<Hint> {
    let Tok::Ident(word) = tok else { return None };
    let (_, text) = FOREIGN.iter().find(|(w, _)| **w == **word)?;
    Some(Hint { lo: *lo, hi: *hi, message: text.to_string(), note: None })
}

/// `out X +` at the end of a line: the operator carries the statement on to the next line
/// (decision 4), so the parser only fails there; the error belongs to the operator.
fn dangling_operator(src: &str, last: Option<&lexer::Spanned>, error_lo: usize) -> Option<Hint> {
    let (lo, tok, hi) = last?;
    let line_ended = src.get(*hi..error_lo)?.contains('\n') || src.get(*hi..)?.trim().is_empty();
    if !line_ended || !lexer::is_binary_operator(tok) {
        return None;
    }
    Some(Hint {
        lo: *lo,
        hi: *hi,
        message: format!("the line ends with {tok}, which needs an operand after it"),
        note: None,
    })
}

/// `else` (or `false`, `undef`) where a statement starts: no `if` statement before it (a REPL
/// entry ends where it is complete, so there it must follow the `}` on its line).
fn clause_without_if((lo, tok, hi): &lexer::Spanned) -> Option<Hint> {
    let word = match tok {
        Tok::Word(w) if w.layout() == LayoutRole::Clause => w.text(),
        _ => return None,
    };
    Some(Hint {
        lo: *lo,
        hi: *hi,
        message: format!("`{word}` without an `if` before it"),
        note: Some(format!("a clause goes right after the block of its `if`: `}} {word} {{` on the line of the `}}`")),
    })
}

/// `ot cat`: a statement that starts with a name followed by an operand, where the name is
/// close to a statement keyword (two names in a row only make sense as an edge `X rel Y`).
fn misspelt_keyword(statement: &[lexer::Spanned]) -> Option<Hint> {
    let [(lo, Tok::Ident(word), hi), (_, next, _), ..] = statement else { return None };
    // Not a bracket: `vars[0]` and `fo(x)` are a variable and a call.
    let operand = matches!(next, Tok::Ident(_) | Tok::Str(_) | Tok::Number(_) | Tok::NodeName(_));
    let keyword = suggest(word, words::suggestions())?;
    let message = format!("unknown statement `{word}`: did you mean `{keyword}`?");
    operand.then_some(Hint { lo: *lo, hi: *hi, message, note: None })
}

fn ends_statement(t: &Tok) -> bool {
    match t {
        Tok::Word(w) => w.layout() == LayoutRole::Clause,
        _ => matches!(t, Tok::Term | Tok::BlockOpen | Tok::RBrace | Tok::Colon),
    }
}

//! The one table of the language's words: keywords, clause words, demon sections and literal
//! constants, each once with everything the rest of ds needs to know about it. The lexer makes
//! a `Tok::Word` from it, the layout pass reads how each word treats the lines around it, and
//! hints, the REPL's colours and both completions read their columns. The grammar's `extern`
//! and the VS Code grammar cannot be generated from it; tests read them and fail on a word
//! either has and the table has not, or the other way round (tests/integration/keywords.rs).

/// How the layout pass (`lexer.rs`) treats a word: which newlines around it end a statement,
/// and what a `{` after it opens. Every word says it, so a new keyword cannot be added without
/// deciding it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LayoutRole {
    /// Starts a statement (`var`, `out`, `if`): never inside `( )` or `[ ]`, where it means the
    /// bracket was not closed (or, alone between commas, that it was used as a name).
    Statement,
    /// A clause of the `if` before it (`} else {`): the end of statement before it goes, a
    /// newline after it does not end the statement, a `{` after it opens a block, and a `{` on
    /// the next line belongs to it.
    Clause,
    /// A section of a demon (`get:`): continues the block before it as a clause does.
    Section,
    /// A value (`True`): it can end an expression, so a newline after it ends the statement and
    /// a `{` after it opens a block (`if True {`).
    Value,
    /// `in`: a newline after it continues the statement only in a `for` header.
    ForIn,
    /// Inside a statement, with no say over newlines or braces (`return ifdef X`).
    Inner,
}

/// How the REPL colours a word.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Style {
    Keyword,
    Constant,
}

/// One word of the language and its properties.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub word: Word,
    /// How it is written (`get:` and `set:` may have blanks before the colon).
    pub text: &'static str,
    pub layout: LayoutRole,
    pub style: Style,
    /// Offered by completion (the REPL's, the language server's).
    pub complete: bool,
    /// A statement whose first word is close to it and followed by an operand gets "did you
    /// mean" it (`ot X`: `out`); words that take no operand would never match.
    pub suggest: bool,
    /// Right after a `.` it is a name, of a method (`F.out(X)`, `S.while()` is an unknown method),
    /// not the word: only `nodes` stays the word there (`G.nodes a, $b` declares nodes).
    pub member: bool,
}

/// The table: one line per word makes the `Word` enum and its entry, in the same order.
macro_rules! words {
    ($($word:ident $text:literal $layout:ident $style:ident $complete:literal $suggest:literal $member:literal;)*) => {
        /// A word of the language, as the lexer gives it (`Tok::Word`).
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
        pub enum Word {
            $($word),*
        }

        /// Every word, in the order of `Word` (so `WORDS[w as usize]` is `w`'s entry).
        pub const WORDS: &[Entry] = &[$(Entry {
            word: Word::$word,
            text: $text,
            layout: LayoutRole::$layout,
            style: Style::$style,
            complete: $complete,
            suggest: $suggest,
            member: $member,
        }),*];
    };
}

words! {
    // word     text        layout     colour    complete suggest member
    Var         "var"       Statement  Keyword   true     true    true;
    Static      "static"    Statement  Keyword   true     true    true;
    Global      "global"    Statement  Keyword   true     true    true;
    Edges       "edges"     Statement  Keyword   true     true    true;
    Nodes       "nodes"     Statement  Keyword   true     true    false;
    Out         "out"       Statement  Keyword   true     true    true;
    Fout        "fout"      Statement  Keyword   true     true    true;
    If          "if"        Statement  Keyword   true     true    true;
    While       "while"     Statement  Keyword   true     true    true;
    For         "for"       Statement  Keyword   true     true    true;
    Def         "def"       Statement  Keyword   true     true    true;
    Return      "return"    Statement  Keyword   true     true    true;
    Break       "break"     Statement  Keyword   true     false   true;
    Continue    "continue"  Statement  Keyword   true     false   true;
    Include     "#include"  Statement  Keyword   true     false   false;
    Else        "else"      Clause     Keyword   true     false   true;
    FalseKw     "false"     Clause     Keyword   true     false   true;
    UndefKw     "undef"     Clause     Keyword   true     false   true;
    In          "in"        ForIn      Keyword   true     false   true;
    Ifdef       "ifdef"     Inner      Keyword   true     false   true;
    GetSection  "get:"      Section    Keyword   false    false   false;
    SetSection  "set:"      Section    Keyword   false    false   false;
    True        "True"      Value      Constant  true     false   true;
    False       "False"     Value      Constant  true     false   true;
    Undef       "Undef"     Value      Constant  true     false   true;
    None        "None"      Value      Constant  true     false   true;
}

impl Word {
    pub fn entry(self) -> &'static Entry {
        &WORDS[self as usize]
    }

    pub fn text(self) -> &'static str {
        self.entry().text
    }

    pub fn layout(self) -> LayoutRole {
        self.entry().layout
    }

    /// The word `text` spells, if any: an identifier, `#include`, or a section with blanks
    /// before its colon (`get :`).
    pub fn of(text: &str) -> Option<Word> {
        if let Some(section) = text.strip_suffix(':') {
            let name = section.trim_end_matches([' ', '\t']);
            return WORDS.iter().find(|e| e.text.strip_suffix(':') == Some(name)).map(|e| e.word);
        }
        WORDS.iter().find(|e| e.text == text).map(|e| e.word)
    }
}

/// The words completion offers.
pub fn completions() -> impl Iterator<Item = &'static str> {
    WORDS.iter().filter(|e| e.complete).map(|e| e.text)
}

/// The words a misspelt first word of a statement may have meant.
pub fn suggestions() -> impl Iterator<Item = &'static str> {
    WORDS.iter().filter(|e| e.suggest).map(|e| e.text)
}

/// Whether `text` is a word of the table (`GRAPH` is not: it is a name, of the current graph).
pub fn is_keyword(text: &str) -> bool {
    Word::of(text).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_entry_is_at_its_words_place() {
        for (i, e) in WORDS.iter().enumerate() {
            assert_eq!(e.word as usize, i, "`{}` is out of place", e.text);
            assert_eq!(Word::of(e.text), Some(e.word), "`{}` does not read back", e.text);
        }
        assert_eq!(Word::of("get \t:"), Some(Word::GetSection));
        // a name no statement will take (a new keyword must not break this test)
        assert_eq!(Word::of("no_such_word_xyz"), None);
    }
}

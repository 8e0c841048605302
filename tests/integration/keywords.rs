//! The words of the language have one table (`ds::syntax::words::WORDS`): keywords are refused
//! as names with an error that says so, methods named like keywords (`F.out`, `S.while`) are
//! still methods after a dot, and the lists that cannot be made from the table (the grammar's
//! `extern`, the VS Code grammar, the lexer's own tokens) are read here and checked against it.

use crate::common::fails_with;
use ds::files::MemoryFiles;
use ds::syntax::words::{LayoutRole, WORDS};
use ds::{Outcome, Session};
use std::collections::BTreeSet;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every word that looks like a name: not `#include` or a section (`get:`).
fn name_like_words() -> impl Iterator<Item = &'static str> {
    WORDS.iter().map(|e| e.text).filter(|t| t.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Runs `src` in-process; the rendered errors, or None when it finished.
fn errors_of(src: &str) -> Option<String> {
    let mut session = Session::new(Box::new(std::io::sink()));
    match session.run_source("main.ds", src) {
        Outcome::Finished(_) => None,
        Outcome::CompileErrors(d) => Some(session.render(&d, false)),
        Outcome::RuntimeError(d) => Some(session.render(&[*d], false)),
        Outcome::Exited(code) => Some(format!("exit {code}")),
    }
}

#[test]
fn a_keyword_cannot_name_a_variable_a_demon_or_a_parameter() {
    for k in name_like_words() {
        let message = format!("`{k}` is a keyword: it cannot name a variable, a demon or a parameter");
        for src in [format!("var {k} = 1\n"), format!("def f({k}) : return 1\n")] {
            let errors = errors_of(&src).unwrap_or_default();
            assert!(errors.contains(&message), "{src}gave:\n{errors}");
        }
    }
    fails_with("def out(X) : return X\n", "`out` is a keyword");
}

#[test]
fn methods_named_like_keywords_still_work() {
    let files = MemoryFiles::default();
    let mut session = Session::new(Box::new(std::io::sink()));
    session.interp.set_files(Box::new(files.clone()));
    let src = "var F = File.open(\"a.txt\", \"w\")\nF.out(\"x\", 1)\nF.close()\n\
               var R = File.open(\"a.txt\")\nfopen(\"b.txt\")\nfout R.in()\nfclose()\n";
    let outcome = session.run_source("main.ds", src);
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    assert_eq!(files.get("b.txt").as_deref(), Some("x 1\n\n"));
}

/// After a `.` every word the table marks `member` is a method's name: `S.while()` is an
/// unknown method (not "`while` is a keyword"), as `S.repeat(2)` would stay a method if
/// `repeat` became a statement.
#[test]
fn after_a_dot_a_keyword_is_a_method_name() {
    for e in WORDS.iter().filter(|e| e.member) {
        let src = format!("var S = \"ab\"\nout S.{}(1)\n", e.text);
        // A string method of that name (`S.repeat(1)`, were `repeat` a word) just runs.
        let Some(errors) = errors_of(&src) else { continue };
        // `unknown method `while``; for a real method (`edges`, `in`), why it cannot be called so.
        let as_method = errors.contains(&format!("`{}`", e.text)) && !errors.contains("keyword");
        assert!(as_method && !errors.contains("unexpected"), "{src}should be a method call, gave:\n{errors}");
    }
    // Nor does a keyword method end the line or open a block as its word would.
    assert_eq!(errors_of("var S = \"ab\"\nvar T = S.repeat(2)\nif T.size() == 4 { out T }\n"), None);
    let errors = errors_of("var S = \"ab\"\nout S.else(1) == 1 ?\n  1 : 2\n").unwrap_or_default();
    assert!(errors.contains("unknown method `else`"), "{errors}");
}

/// The `extern` block of grammar.lalrpop names each word of the table once, as its token.
#[test]
fn the_grammar_has_the_words_of_the_table() {
    let grammar = read("crates/syntax/src/grammar.lalrpop");
    let in_grammar: BTreeSet<(String, String)> = grammar
        .lines()
        .filter_map(|line| {
            let (text, token) = line.trim().split_once(" => Tok::Word(Word::")?;
            Some((text.trim_matches('"').to_string(), token.trim_end_matches("),").to_string()))
        })
        .collect();
    let table: BTreeSet<(String, String)> =
        WORDS.iter().map(|e| (e.text.to_string(), format!("{:?}", e.word))).collect();
    let missing: Vec<_> = table.difference(&in_grammar).collect();
    let extra: Vec<_> = in_grammar.difference(&table).collect();
    assert!(missing.is_empty(), "words of the table missing from grammar.lalrpop's extern: {missing:?}");
    assert!(extra.is_empty(), "words in grammar.lalrpop's extern that the table lacks: {extra:?}");
}

/// token.rs makes words only through the table: a `#[token("...")]` spelled with letters would
/// be a keyword that nothing else knows of.
#[test]
fn the_lexer_has_no_word_outside_the_table() {
    let tokens = read("crates/syntax/src/token.rs");
    let words: Vec<&str> = tokens
        .split("#[token(\"")
        .skip(1)
        .filter_map(|rest| rest.split_once('"').map(|(text, _)| text))
        .filter(|text| text.starts_with(|c: char| c.is_ascii_alphabetic()))
        .collect();
    assert!(words.is_empty(), "token.rs spells words outside words::WORDS: {words:?}");
}

/// The words that the VS Code grammar highlights (every alternation of plain words in its
/// patterns: `(if|else|...)`), against the table: each word of the table is highlighted, and
/// every other word highlighted is a builtin function or a module (`exists`, `GRAPH`, `Math`).
#[test]
fn the_vscode_grammar_has_the_words_of_the_table() {
    let json: serde_json::Value =
        serde_json::from_str(&read("editors/vscode/syntaxes/ds.tmLanguage.json")).expect("the tmLanguage is JSON");
    let mut patterns = Vec::new();
    collect_patterns(&json, &mut patterns);
    let mut highlighted = BTreeSet::new();
    for pattern in &patterns {
        for group in pattern.split('(').skip(1).filter_map(|g| g.split_once(')').map(|(g, _)| g)) {
            if !group.is_empty() && group.chars().all(|c| c.is_ascii_alphabetic() || c == '|' || c == '#') {
                highlighted.extend(group.split('|').map(str::to_string));
            }
        }
    }
    // `(get|set)\s*:` highlights the sections.
    let table: BTreeSet<String> = WORDS.iter().map(|e| e.text.trim_end_matches(':').to_string()).collect();
    let missing: Vec<_> = table.difference(&highlighted).collect();
    assert!(missing.is_empty(), "words of the table the VS Code grammar does not highlight: {missing:?}");
    let registry = ds::builtins::registry();
    let extra: Vec<_> =
        highlighted.difference(&table).filter(|w| registry.function(w).is_none() && !registry.is_module(w)).collect();
    assert!(
        extra.is_empty(),
        "the VS Code grammar highlights words that are neither in the table nor builtins: {extra:?}"
    );
}

fn collect_patterns(json: &serde_json::Value, out: &mut Vec<String>) {
    match json {
        serde_json::Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("match" | "begin", serde_json::Value::String(s)) => out.push(s.clone()),
                    _ => collect_patterns(value, out),
                }
            }
        }
        serde_json::Value::Array(items) => items.iter().for_each(|v| collect_patterns(v, out)),
        _ => {}
    }
}

/// Each way the layout pass can treat a word, seen in the tokens it makes: a new word gets
/// one of these roles in the table, and this test shows what that role does.
#[test]
fn the_layout_treats_each_word_by_its_role() {
    use ds::syntax::lexer::tokenize;
    use ds::syntax::token::Tok;
    let ends_line = |src: &str| tokenize(src).map(|t| t.tokens.iter().any(|t| t.1 == Tok::Term)).unwrap_or(false);
    for e in WORDS {
        let w = e.text;
        let (after_x, before_y) = (ends_line(&format!("x {w}\ny")), ends_line(&format!("x\n{w} y")));
        let (newline_after, newline_before) = match e.layout {
            LayoutRole::Statement | LayoutRole::Inner | LayoutRole::Value => (true, true),
            LayoutRole::Clause | LayoutRole::Section => (false, false),
            LayoutRole::ForIn => (true, true),
        };
        assert_eq!(after_x, newline_after, "a newline after `{w}` ({:?})", e.layout);
        assert_eq!(before_y, newline_before, "a newline before `{w}` ({:?})", e.layout);
        let block = tokenize(&format!("x {w} {{")).map(|t| t.tokens.iter().any(|t| t.1 == Tok::BlockOpen));
        let opens_block = matches!(e.layout, LayoutRole::Clause | LayoutRole::Section | LayoutRole::Value);
        assert_eq!(block.ok(), Some(opens_block), "a `{{` after `{w}` ({:?})", e.layout);
        let inside = tokenize(&format!("f(1 {w} 2)")).is_err();
        assert_eq!(inside, e.layout == LayoutRole::Statement, "`{w}` inside `( )` ({:?})", e.layout);
    }
    // `in` continues its line in a `for` header only.
    assert!(!ends_line("for X in\nA {}"));
}

/// libFuzzer's dictionary holds every word of the table, so that its mutations reach each.
/// (fuzz/mutate.py keeps its fragments as they were: its mutant i of seed S stays the same.)
#[test]
fn the_fuzz_dictionary_has_every_word() {
    let dictionary = read("fuzz/ds.dict");
    let entries: Vec<&str> = dictionary.lines().filter_map(|l| l.strip_prefix('"')?.strip_suffix('"')).collect();
    let missing: Vec<&str> = WORDS.iter().map(|e| e.text).filter(|w| !entries.iter().any(|d| d.trim() == *w)).collect();
    assert!(missing.is_empty(), "fuzz/ds.dict lacks the words {missing:?}");
}

//! Hover: a demon's signature and the comment above its `def`, a variable's, node's or
//! relation's declaration, and a builtin's usage and one-line description (from the builtin
//! tables, the text the docs and the REPL show too).

use super::analysis::DOCUMENT;
use super::cursor::Cursor;
use super::documents::Document;
use ds_core::builtins::{self, Builtin};
use ds_core::compile::index::{SymbolId, SymbolKind};
use ds_syntax::Span;
use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind, Position};

pub fn hover(doc: &Document, pos: Position) -> Option<Hover> {
    let offset = doc.offset(pos);
    let index = &doc.analysis.index;
    if let Some(o) = index.occurrence_at(DOCUMENT, offset) {
        return Some(markdown(symbol_text(doc, o.symbol), Some(doc.range(o.span))));
    }
    let cursor = Cursor::at(&doc.text, offset as usize);
    if !cursor.in_code || cursor.word.is_empty() {
        return None;
    }
    let (text, lo) = builtin_text(&cursor)?;
    let span = Span::new(DOCUMENT, lo, cursor.end);
    Some(markdown(text, Some(doc.range(span))))
}

fn markdown(value: String, range: Option<lsp_types::Range>) -> Hover {
    Hover { contents: HoverContents::Markup(MarkupContent { kind: MarkupKind::Markdown, value }), range }
}

fn code(text: &str) -> String {
    format!("```ds\n{text}\n```")
}

fn symbol_text(doc: &Document, id: SymbolId) -> String {
    let index = &doc.analysis.index;
    let s = &index.symbols[id];
    let declared = |d: Span| code(source_line(doc, d).trim());
    match s.kind {
        SymbolKind::Demon => {
            let mut text =
                code(&format!("def {}({})", s.name, s.params.iter().map(|p| &**p).collect::<Vec<_>>().join(", ")));
            if let Some(comment) = s.decl.and_then(|d| comment_above(doc, d)) {
                text.push_str("\n\n");
                text.push_str(&comment);
            }
            text
        }
        SymbolKind::Variable | SymbolKind::Parameter => {
            let what = if s.kind == SymbolKind::Parameter { "parameter" } else { "variable" };
            let decl = s.decl.map(declared).unwrap_or_default();
            format!("{what} `{}`\n\n{decl}", s.name)
        }
        SymbolKind::Node => {
            let decls: Vec<String> =
                index.occurrences_of(id).filter(|o| o.declaration).map(|o| declared(o.span)).collect();
            format!("node `{}`\n\n{}", s.name, decls.join("\n"))
        }
        SymbolKind::Relation => match s.decl {
            Some(d) => format!("edge type `{}`\n\n{}", s.name, declared(d)),
            None => format!("edge type `{}` (built in)", s.name),
        },
    }
}

/// The usage and description of the builtin named at the cursor, with where its name starts
/// (`Math.sqrt` starts at `Math`).
fn builtin_text(cursor: &Cursor) -> Option<(String, usize)> {
    let word = cursor.word;
    let (builtin, lo) = match cursor.receiver {
        Some(module) if is_module(module) => {
            let full = format!("{module}.{word}");
            if let Some(doc) = builtins::constants().find(|c| c.0 == full).map(|c| c.1) {
                return Some((format!("{}\n\n{doc}", code(&full)), cursor.start - module.len() - 1));
            }
            (builtins::lookup_function(&full)?, cursor.start - module.len() - 1)
        }
        Some(_) => {
            // Every body of the method: the kind of the object is not known here.
            let texts: Vec<String> = builtins::lookup_method(word)?.entries().map(|(b, _)| describe(b)).collect();
            return Some((texts.join("\n\n"), cursor.start));
        }
        None => (builtins::lookup_function(word)?, cursor.start),
    };
    Some((describe(builtin), lo))
}

/// `usage` as code, then the description.
pub fn describe(b: &Builtin) -> String {
    format!("{}\n\n{}", code(b.usage), b.doc)
}

/// A module's name: the prefix of some builtin `Module.f`.
pub fn is_module(name: &str) -> bool {
    !name.is_empty() && builtins::function_names().any(|f| f.split_once('.').is_some_and(|(m, _)| m == name))
}

/// The whole line of source that holds the start of `span`.
fn source_line(doc: &Document, span: Span) -> &str {
    let text = doc.analysis.text(span.file);
    let at = (span.lo as usize).min(text.len());
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    text.get(start..end).unwrap_or("")
}

/// The `//` lines right above the line of `span` (or a `/* */` comment ending there), without
/// the comment marks.
fn comment_above(doc: &Document, span: Span) -> Option<String> {
    let text = doc.analysis.text(span.file);
    let line_start = text[..(span.lo as usize).min(text.len())].rfind('\n').map_or(0, |i| i + 1);
    let above: Vec<&str> = text[..line_start].lines().collect();
    let mut lines: Vec<&str> = Vec::new();
    let mut iter = above.iter().rev().map(|l| l.trim());
    let first = iter.next()?;
    if first.ends_with("*/") {
        let mut block = vec![first];
        if !first.starts_with("/*") {
            for l in iter.by_ref() {
                block.push(l);
                if l.starts_with("/*") {
                    break;
                }
            }
        }
        block.reverse();
        let joined = block.join("\n");
        let inner = joined.trim_start_matches("/*").trim_end_matches("*/");
        let cleaned: Vec<&str> = inner.lines().map(|l| l.trim().trim_start_matches('*').trim()).collect();
        return Some(cleaned.join("\n").trim().to_string()).filter(|c| !c.is_empty());
    }
    lines.extend(std::iter::once(first).chain(iter).take_while(|l| l.starts_with("//")));
    lines.reverse();
    for l in &mut lines {
        *l = l.trim_start_matches('/').trim();
    }
    let comment = lines.join("\n").trim().to_string();
    (!comment.is_empty()).then_some(comment)
}

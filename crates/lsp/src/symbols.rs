//! The outline of a document (demons, graphs, top-level variables) and the folding ranges of
//! its blocks and comments.

use super::documents::Document;
use ds_syntax::ast::{walk_stmts, DefAst, ExprKind, Stmt, StmtKind, VarItem};
use ds_syntax::token::{LexError, Tok};
use ds_syntax::Span;
use logos::Logos;
use lsp_types::{DocumentSymbol, DocumentSymbolResponse, FoldingRange, FoldingRangeKind, SymbolKind};

pub fn document_symbols(doc: &Document) -> Option<DocumentSymbolResponse> {
    let mut out = Vec::new();
    for s in &doc.analysis.stmts {
        match &s.kind {
            StmtKind::Def(d) => out.push(demon_symbol(doc, d)),
            StmtKind::Var(items) | StmtKind::Static(items) => {
                out.extend(items.iter().map(|item| variable_symbol(doc, item, s.span)))
            }
            _ => {}
        }
    }
    Some(DocumentSymbolResponse::Nested(out))
}

/// `place(G, X)`.
pub fn signature(d: &DefAst) -> String {
    let params: Vec<&str> = d.params.iter().map(|p| &*p.text).collect();
    format!("{}({})", d.name.text, params.join(", "))
}

fn demon_symbol(doc: &Document, d: &DefAst) -> DocumentSymbol {
    let mut nested = Vec::new();
    for list in [Some(&d.body), d.get.as_ref(), d.set.as_ref()].into_iter().flatten() {
        walk_stmts(list, &mut |s| {
            if let StmtKind::Def(inner) = &s.kind {
                nested.push(demon_symbol(doc, inner));
            }
        });
    }
    symbol(doc, d.name.text.to_string(), Some(signature(d)), SymbolKind::FUNCTION, d.span, d.name.span, nested)
}

fn variable_symbol(doc: &Document, item: &VarItem, stmt: Span) -> DocumentSymbol {
    let graph =
        matches!(&item.init, Some(e) if matches!(&e.kind, ExprKind::Call { name, .. } if &*name.text == "GRAPH"));
    let (kind, detail) =
        if graph { (SymbolKind::OBJECT, Some("graph".to_string())) } else { (SymbolKind::VARIABLE, None) };
    symbol(doc, item.name.text.to_string(), detail, kind, stmt, item.name.span, Vec::new())
}

fn symbol(
    doc: &Document,
    name: String,
    detail: Option<String>,
    kind: SymbolKind,
    whole: Span,
    name_span: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    #[allow(deprecated)] // `deprecated` is a field every client still expects to be settable
    DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range: doc.range(whole.to(name_span)),
        selection_range: doc.range(name_span),
        children: (!children.is_empty()).then_some(children),
    }
}

pub fn folding_ranges(doc: &Document) -> Option<Vec<FoldingRange>> {
    let mut out = Vec::new();
    walk_stmts(&doc.analysis.stmts, &mut |s: &Stmt| {
        if let StmtKind::Def(d) = &s.kind {
            fold(doc, d.span, None, &mut out);
        }
        for b in blocks(s) {
            fold(doc, b, None, &mut out);
        }
    });
    comment_folds(doc, &mut out);
    out.sort_by_key(|f| (f.start_line, f.end_line));
    out.dedup_by_key(|f| (f.start_line, f.end_line));
    Some(out)
}

/// The `{ }` blocks of a statement (a demon's body is folded as the whole `def`).
fn blocks(s: &Stmt) -> Vec<Span> {
    s.kind.blocks().iter().map(|b| b.span).collect()
}

/// A range from the line where `span` starts to the line before its closing `}` (which stays
/// visible), when that is at least one line further.
fn fold(doc: &Document, span: Span, kind: Option<FoldingRangeKind>, out: &mut Vec<FoldingRange>) {
    let start = doc.range(span).start.line;
    let end = doc.range(span).end;
    let closing_line_starts_with_brace = {
        let line_start = doc.offset(lsp_types::Position { line: end.line, character: 0 }) as usize;
        doc.text.get(line_start..).is_some_and(|rest| rest.trim_start().starts_with('}'))
    };
    let end_line = if closing_line_starts_with_brace { end.line.saturating_sub(1) } else { end.line };
    if end_line > start {
        out.push(FoldingRange { start_line: start, end_line, kind, ..FoldingRange::default() });
    }
}

/// Block comments over several lines, and runs of `//` lines.
fn comment_folds(doc: &Document, out: &mut Vec<FoldingRange>) {
    let mut lex = Tok::lexer(&doc.text);
    while let Some(tok) = lex.next() {
        if matches!(tok, Ok(Tok::BlockComment) | Err(LexError::UnterminatedComment)) {
            let span = lex.span();
            fold(doc, Span::new(0, span.start, span.end), Some(FoldingRangeKind::Comment), out);
        }
    }
    let mut run: Option<(u32, u32)> = None;
    let end_run = |run: Option<(u32, u32)>, out: &mut Vec<FoldingRange>| {
        if let Some((start_line, end_line)) = run.filter(|(a, b)| b > a) {
            let kind = Some(FoldingRangeKind::Comment);
            out.push(FoldingRange { start_line, end_line, kind, ..FoldingRange::default() });
        }
    };
    for (i, line) in doc.text.lines().enumerate().map(|(i, l)| (i as u32, l)) {
        if line.trim_start().starts_with("//") {
            run = Some(run.map_or((i, i), |(a, _)| (a, i)));
        } else {
            end_run(run.take(), out);
        }
    }
    end_run(run, out);
}

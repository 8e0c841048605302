//! Go to definition and find references, from the names the compiler resolved: a demon's
//! `def`, a variable's declaration (by scope, so two `X`s in two demons are two variables), a
//! node's `nodes` declarations (one per world that declares it) and a relation's `edges`.

use super::analysis::DOCUMENT;
use super::documents::{path_to_uri, Document};
use ds_core::compile::index::{Occurrence, SymbolKind};
use ds_syntax::ast::StmtKind;
use lsp_types::{GotoDefinitionResponse, Location, Position, Range};
use std::path::Path;

pub fn definition(doc: &Document, pos: Position) -> Option<GotoDefinitionResponse> {
    let offset = doc.offset(pos);
    if let Some(file) = included_file_at(doc, offset) {
        return Some(GotoDefinitionResponse::Scalar(file));
    }
    let occurrence = doc.analysis.index.occurrence_at(DOCUMENT, offset)?;
    let index = &doc.analysis.index;
    let symbol = &index.symbols[occurrence.symbol];
    let places: Vec<Location> = if symbol.kind == SymbolKind::Node {
        declarations(doc, occurrence).collect()
    } else {
        symbol.decl.and_then(|d| doc.location(d)).into_iter().collect()
    };
    (!places.is_empty()).then_some(GotoDefinitionResponse::Array(places))
}

pub fn references(doc: &Document, pos: Position, include_declaration: bool) -> Option<Vec<Location>> {
    let index = &doc.analysis.index;
    let occurrence = index.occurrence_at(DOCUMENT, doc.offset(pos))?;
    let places = index
        .occurrences_of(occurrence.symbol)
        .filter(|o| include_declaration || !o.declaration)
        .filter_map(|o| doc.location(o.span))
        .collect();
    Some(places)
}

fn declarations<'a>(doc: &'a Document, occurrence: &Occurrence) -> impl Iterator<Item = Location> + 'a {
    let index = &doc.analysis.index;
    index.occurrences_of(occurrence.symbol).filter(|o| o.declaration).filter_map(|o| doc.location(o.span))
}

/// The file named by the `#include` under the cursor.
fn included_file_at(doc: &Document, offset: u32) -> Option<Location> {
    let name = doc.analysis.stmts.iter().find_map(|s| match &s.kind {
        StmtKind::Include(name) if name.span.lo <= offset && offset <= name.span.hi => Some(name),
        _ => None,
    })?;
    let base = super::documents::uri_to_path(&doc.uri)?;
    let path = base.parent().unwrap_or(Path::new("")).join(&*name.text);
    let start = Position { line: 0, character: 0 };
    Some(Location { uri: path_to_uri(&path)?, range: Range { start, end: start } })
}

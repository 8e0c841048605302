//! The compiler's diagnostics as the editor shows them: the exact range, the message with its
//! notes ("did you mean `place`?"), and for a problem inside an included file, a squiggle on
//! the `#include` that brought it in, pointing to the place.

use super::analysis::DOCUMENT;
use super::documents::Document;
use crate::diagnostics::Diagnostic;
use lsp_types::{Diagnostic as LspDiagnostic, DiagnosticRelatedInformation, DiagnosticSeverity};

pub fn of_document(doc: &Document) -> Vec<LspDiagnostic> {
    doc.analysis.problems.iter().filter_map(|d| convert(doc, d)).collect()
}

fn convert(doc: &Document, d: &Diagnostic) -> Option<LspDiagnostic> {
    let mut message = d.message.clone();
    for note in &d.notes {
        message.push('\n');
        message.push_str(note);
    }
    let (span, related) = if d.span.file == DOCUMENT {
        (d.span, None)
    } else {
        let include = *doc.analysis.included_by.get(&d.span.file)?;
        let at = doc.location(d.span)?;
        let sources = &doc.analysis.sources;
        let name = sources.name(d.span.file).unwrap_or("?");
        let (line, col) = sources.line_col(d.span.file, d.span.lo);
        message = format!("in the included file {name}:{line}:{col}: {message}");
        (include, Some(vec![DiagnosticRelatedInformation { location: at, message: d.message.clone() }]))
    };
    Some(LspDiagnostic {
        range: doc.range(span),
        severity: Some(DiagnosticSeverity::ERROR),
        source: Some("ds".to_string()),
        message,
        related_information: related,
        ..LspDiagnostic::default()
    })
}

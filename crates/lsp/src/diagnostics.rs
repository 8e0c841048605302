//! The compiler's errors and warnings as the editor shows them: the exact range, the severity,
//! the message with its notes ("did you mean `place`?"), and for a problem inside an included file, a squiggle on
//! the `#include` that brought it in, pointing to the place.

use super::analysis::DOCUMENT;
use super::documents::Document;
use ds_base::diagnostics::{Diagnostic, Severity};
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
    let (span, mut related) = if d.span.file == DOCUMENT {
        (d.span, Vec::new())
    } else {
        let include = *doc.analysis.included_by.get(&d.span.file)?;
        let at = doc.location(d.span)?;
        let sources = &doc.analysis.sources;
        let name = sources.name(d.span.file).unwrap_or("?");
        let (line, col) = sources.line_col(d.span.file, d.span.lo);
        message = format!("in the included file {name}:{line}:{col}: {message}");
        (include, vec![DiagnosticRelatedInformation { location: at, message: d.message.clone() }])
    };
    // Other places the diagnostic points at (where a name was first declared).
    for (place, text) in &d.labels {
        if let Some(location) = doc.location(*place) {
            related.push(DiagnosticRelatedInformation { location, message: text.clone() });
        }
    }
    let severity = match d.severity {
        Severity::Error => DiagnosticSeverity::ERROR,
        Severity::Warning => DiagnosticSeverity::WARNING,
    };
    Some(LspDiagnostic {
        range: doc.range(span),
        severity: Some(severity),
        source: Some("ds".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..LspDiagnostic::default()
    })
}

//! The open documents: their text as the editor has it, and its analysis, redone on every
//! change. Also file URIs to paths and back.

use super::analysis::Analysis;
use super::position::LineIndex;
use ds_core::files::Files;
use ds_syntax::Span;
use lsp_types::{Position, Range, Uri};
use std::path::{Path, PathBuf};
use std::str::FromStr;
#[cfg(feature = "server")]
use {super::analysis::DOCUMENT, ds_syntax::FileId, lsp_types::Location, rustc_hash::FxHashMap};

#[cfg_attr(not(feature = "server"), allow(dead_code))] // (`uri`: for the server)
pub struct Document {
    pub uri: Uri,
    pub text: String,
    pub lines: LineIndex,
    pub analysis: Analysis,
}

impl Document {
    /// `files`: where the text's `#include`s are read.
    pub fn new(uri: Uri, text: String, files: &dyn Files) -> Document {
        let analysis = Analysis::new(&text, uri_to_path(&uri).as_deref(), files);
        Document { uri, lines: LineIndex::new(&text), text, analysis }
    }

    pub fn offset(&self, pos: Position) -> u32 {
        self.lines.offset(&self.text, pos)
    }

    pub fn range(&self, span: Span) -> Range {
        self.lines.range(&self.text, span)
    }
}

#[cfg(feature = "server")]
impl Document {
    /// Where a span of this document or of a file it includes is, for the editor.
    pub fn location(&self, span: Span) -> Option<Location> {
        if span.file == DOCUMENT {
            return Some(Location { uri: self.uri.clone(), range: self.range(span) });
        }
        self.included_location(span.file, span)
    }

    fn included_location(&self, file: FileId, span: Span) -> Option<Location> {
        let sources = &self.analysis.sources;
        let uri = path_to_uri(Path::new(sources.name(file)?))?;
        let text = sources.source(file)?;
        Some(Location { uri, range: LineIndex::new(text).range(text, span) })
    }
}

/// The editor's own files: no sandbox (`ds lsp` takes no `--sandbox`).
#[cfg(feature = "server")]
const EDITOR_FILES: ds_native::sandbox::Access = ds_native::sandbox::Access::Open;

#[cfg(feature = "server")]
#[derive(Default)]
pub struct Documents {
    open: FxHashMap<Uri, Document>,
}

#[cfg(feature = "server")]
impl Documents {
    pub fn open(&mut self, uri: Uri, text: String) -> &Document {
        let doc = Document::new(uri.clone(), text, &EDITOR_FILES);
        self.open.insert(uri.clone(), doc);
        &self.open[&uri]
    }

    pub fn close(&mut self, uri: &Uri) {
        self.open.remove(uri);
    }

    pub fn get(&self, uri: &Uri) -> Option<&Document> {
        self.open.get(uri)
    }

    /// Analyses every open document again (a saved file may be included by the others).
    pub fn refresh_all(&mut self) -> Vec<&Document> {
        for doc in self.open.values_mut() {
            *doc = Document::new(doc.uri.clone(), std::mem::take(&mut doc.text), &EDITOR_FILES);
        }
        self.open.values().collect()
    }
}

/// The path of a `file:` URI (percent-decoded); `None` for other schemes.
pub fn uri_to_path(uri: &Uri) -> Option<PathBuf> {
    if !uri.scheme()?.as_str().eq_ignore_ascii_case("file") {
        return None;
    }
    let path = uri.path().as_estr().decode().into_string().ok()?.into_owned();
    // `file:///C:/x` on Windows: the drive letter follows the slash.
    let windows_drive = path.len() > 2 && path.as_bytes()[2] == b':' && cfg!(windows);
    Some(PathBuf::from(if windows_drive { &path[1..] } else { &path[..] }))
}

/// The `file:` URI of an absolute path (relative ones are taken from the current directory).
pub fn path_to_uri(path: &Path) -> Option<Uri> {
    let absolute = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir().ok()?.join(path) };
    let text = absolute.to_string_lossy().replace('\\', "/");
    let mut uri = String::from(if text.starts_with('/') { "file://" } else { "file:///" });
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            uri.push(b as char);
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_and_uris_round_trip() {
        let path = Path::new("/a b/дом.ds");
        let uri = path_to_uri(path).unwrap();
        assert_eq!(uri.as_str(), "file:///a%20b/%D0%B4%D0%BE%D0%BC.ds");
        assert_eq!(uri_to_path(&uri).unwrap(), path);
        assert_eq!(uri_to_path(&Uri::from_str("untitled:Untitled-1").unwrap()), None);
    }
}

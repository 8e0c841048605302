//! One look at a document: parsed with its `#include`d files, compiled with the names
//! recorded, and every problem the compiler finds. Nothing runs.

use super::repair;
use ds_base::diagnostics::{Diagnostic, SourceMap};
use ds_core::compile::index::NameIndex;
use ds_core::compile::Compiler;
use ds_core::files::Files;
use ds_core::session::expand_includes;
use ds_core::world::World;
use ds_syntax::ast::{Stmt, StmtKind};
use ds_syntax::{self as syntax, FileId, Span};
use rustc_hash::FxHashMap;
use std::path::Path;
use std::rc::Rc;

/// The document is always file 0 of its analysis.
pub const DOCUMENT: FileId = 0;

#[cfg_attr(not(feature = "server"), allow(dead_code))] // (the server reads them all)
pub struct Analysis {
    /// The document and the files it includes, by file id.
    pub sources: SourceMap,
    /// The document's own statements; those of a repaired copy when the text does not parse
    /// (`syntax_ok` is false then).
    pub stmts: Vec<Stmt>,
    pub syntax_ok: bool,
    pub index: NameIndex,
    /// Every error and warning, as the compiler says it; spans may be in included files.
    pub problems: Vec<Diagnostic>,
    /// For each included file, the `#include` of the document that brought it in.
    pub included_by: FxHashMap<FileId, Span>,
    /// Every relation known after compiling: the built-in ones and those declared.
    pub relations: Vec<Rc<str>>,
}

/// The longest document analysed. Analysis takes some 140 bytes of memory a byte of text at its
/// peak (578 MB for 4 MB of text), so this bounds it near 300 MB; a script is rarely a
/// hundredth of it.
pub const MAX_DOCUMENT: usize = 2 << 20;

impl Analysis {
    /// Parses and compiles `text`; `path` (the document's file, when it has one) is where
    /// `#include` paths start, `files` where they are read. A text over `MAX_DOCUMENT` is not
    /// analysed: its one problem says so.
    pub fn new(text: &str, path: Option<&Path>, files: &dyn Files) -> Analysis {
        let name = path.map_or_else(|| "untitled.ds".to_string(), |p| p.to_string_lossy().into_owned());
        if text.len() > MAX_DOCUMENT {
            return Analysis::too_large(&name, text.len());
        }
        let mut sources = SourceMap::default();
        let file = sources.add(&name, text);
        debug_assert_eq!(file, DOCUMENT);
        let mut problems = Vec::new();
        let (stmts, syntax_ok) = match syntax::parse(text, DOCUMENT) {
            Ok(stmts) => (stmts, true),
            Err(d) => {
                problems.push(d);
                (repair::parse_repaired(text, DOCUMENT).unwrap_or_default(), false)
            }
        };
        let base = path.and_then(Path::parent);
        let mut included_by = FxHashMap::default();
        let mut program = Vec::with_capacity(stmts.len());
        for s in &stmts {
            let StmtKind::Include(name) = &s.kind else {
                program.push(s.clone());
                continue;
            };
            let mut added = Vec::new();
            let expanded = expand_includes(vec![s.clone()], base, 0, files, &mut |name, text| {
                let id = sources.add(name, text);
                added.push(id);
                id
            });
            included_by.extend(added.into_iter().map(|id| (id, name.span)));
            match expanded {
                Ok(inner) => program.extend(inner),
                Err(ds) => problems.extend(ds),
            }
        }
        let mut compiler = Compiler::new(ds_core::builtins::registry());
        compiler.record_names();
        let mut world = World::new();
        let compiled = compiler.compile_chunk(&program, &mut world);
        // After a syntax error the program is a repaired copy: its other problems may be made up.
        if syntax_ok {
            problems.extend(compiler.take_warnings());
            problems.extend(compiled.err().unwrap_or_default());
        }
        let index = compiler.take_names().unwrap_or_default();
        let relations = world.relations.iter().filter(|r| !r.is_empty()).cloned().collect();
        Analysis { sources, stmts, syntax_ok, index, problems, included_by, relations }
    }

    fn too_large(name: &str, len: usize) -> Analysis {
        let mut sources = SourceMap::default();
        sources.add(name, "");
        let message = format!(
            "this document is {len} bytes, over ds lsp's limit of {} MiB: it is not analysed (no diagnostics, \
             completion or navigation); `ds --check` checks it",
            MAX_DOCUMENT >> 20
        );
        Analysis {
            sources,
            stmts: Vec::new(),
            syntax_ok: false,
            index: NameIndex::default(),
            problems: vec![Diagnostic::warning(Span::new(DOCUMENT, 0, 0), message)],
            included_by: FxHashMap::default(),
            relations: Vec::new(),
        }
    }

    pub fn text(&self, file: FileId) -> &str {
        self.sources.source(file).unwrap_or("")
    }
}

//! Completion: keywords, demons with their parameters, the variables in scope at the cursor,
//! declared nodes and relations, builtin functions, and after a `.` a module's members or the
//! methods of the receiver's kind of value, when the kind is known.

use super::analysis::DOCUMENT;
use super::cursor::Cursor;
use super::documents::Document;
use super::hover::is_module;
use ds_core::builtins::{self, Builtin, Kind, Receivers};
use ds_core::compile::index::SymbolKind;
use ds_syntax::ast::{walk_stmts, Expr, ExprKind, StmtKind};
use ds_syntax::{words, Span};
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionItemLabelDetails, CompletionResponse, CompletionTextEdit,
    Documentation, MarkupContent, MarkupKind, Position, TextEdit,
};

pub fn complete(doc: &Document, pos: Position) -> Option<CompletionResponse> {
    let cursor = Cursor::at(&doc.text, doc.offset(pos) as usize);
    if !cursor.in_code {
        return None;
    }
    let prefix = cursor.prefix();
    let mut items = if let Some(receiver) = cursor.receiver {
        after_dot(doc, receiver, cursor.start as u32)
    } else if prefix.starts_with('$') {
        nodes(doc).map(|n| item(&dollar(&n), CompletionItemKind::CONSTANT, Some("node"))).collect()
    } else if prefix.starts_with('@') {
        doc.analysis
            .relations
            .iter()
            .map(|r| item(&format!("@{r}"), CompletionItemKind::ENUM_MEMBER, Some("edge type")))
            .collect()
    } else if prefix.starts_with('#') {
        vec![item("#include", CompletionItemKind::KEYWORD, None)]
    } else {
        words(doc, cursor.offset as u32)
    };
    // Replace the whole word typed so far: editors disagree on whether `$` and `@` are part of it.
    let range = doc.range(Span::new(DOCUMENT, cursor.start, cursor.offset));
    items.sort_by(|a, b| a.label.cmp(&b.label));
    items.dedup_by(|a, b| a.label == b.label);
    for it in &mut items {
        let new_text = it.insert_text.take().unwrap_or_else(|| it.label.clone());
        it.text_edit = Some(CompletionTextEdit::Edit(TextEdit { range, new_text }));
    }
    Some(CompletionResponse::Array(items))
}

fn item(label: &str, kind: CompletionItemKind, detail: Option<&str>) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: detail.map(String::from),
        ..Default::default()
    }
}

fn dollar(node: &str) -> String {
    if node.starts_with('$') {
        node.to_string()
    } else {
        format!("${node}")
    }
}

fn builtin_item(label: &str, b: &Builtin) -> CompletionItem {
    let kind = if b.kind == Kind::Method { CompletionItemKind::METHOD } else { CompletionItemKind::FUNCTION };
    CompletionItem {
        documentation: Some(Documentation::MarkupContent(MarkupContent {
            kind: MarkupKind::Markdown,
            value: b.doc.to_string(),
        })),
        ..item(label, kind, Some(b.usage))
    }
}

/// Everything a name can be at the cursor.
fn words(doc: &Document, offset: u32) -> Vec<CompletionItem> {
    let analysis = &doc.analysis;
    let mut items: Vec<CompletionItem> =
        words::completions().map(|k| item(k, CompletionItemKind::KEYWORD, None)).collect();
    for b in builtins::all().filter(|b| b.kind == Kind::Function) {
        match b.name.split_once('.') {
            Some((module, _)) => items.push(item(module, CompletionItemKind::MODULE, Some("module"))),
            None => items.push(builtin_item(b.name, b)),
        }
    }
    for s in analysis.index.symbols.iter().filter(|s| s.kind == SymbolKind::Demon && s.decl.is_some()) {
        let params = s.params.iter().map(|p| &**p).collect::<Vec<_>>().join(", ");
        items.push(CompletionItem {
            label_details: Some(CompletionItemLabelDetails { detail: Some(format!("({params})")), description: None }),
            ..item(&s.name, CompletionItemKind::FUNCTION, Some(&format!("demon {}({params})", s.name)))
        });
    }
    let in_demon = in_demon(doc, offset);
    for s in analysis.index.variables_at(DOCUMENT, offset, in_demon) {
        let what = if s.kind == SymbolKind::Parameter { "parameter" } else { "variable" };
        items.push(item(&s.name, CompletionItemKind::VARIABLE, Some(what)));
    }
    items.extend(nodes(doc).map(|n| item(&n, CompletionItemKind::CONSTANT, Some("node"))));
    items.extend(analysis.relations.iter().map(|r| item(r, CompletionItemKind::ENUM_MEMBER, Some("edge type"))));
    items
}

fn nodes(doc: &Document) -> impl Iterator<Item = String> + '_ {
    doc.analysis
        .index
        .symbols
        .iter()
        .filter(|s| s.kind == SymbolKind::Node && s.decl.is_some())
        .map(|s| s.name.to_string())
}

fn in_demon(doc: &Document, offset: u32) -> bool {
    let mut inside = false;
    walk_stmts(&doc.analysis.stmts, &mut |s| {
        if let StmtKind::Def(d) = &s.kind {
            inside |= d.span.lo <= offset && offset <= d.span.hi;
        }
    });
    inside
}

/// After `Module.`: its functions and constants; after anything else, the methods for the
/// receiver's kind (all of them when it is not known), and for a graph its nodes (`G.$n`).
fn after_dot(doc: &Document, receiver: &str, offset: u32) -> Vec<CompletionItem> {
    if is_module(receiver) && !is_variable(doc, receiver, offset) {
        let prefix = format!("{receiver}.");
        let mut items: Vec<CompletionItem> = builtins::all()
            .filter(|b| b.kind == Kind::Function)
            .filter_map(|b| Some(builtin_item(b.name.strip_prefix(&prefix)?, b)))
            .collect();
        for (name, text) in builtins::constants() {
            if let Some(member) = name.strip_prefix(&prefix) {
                items.push(CompletionItem {
                    documentation: Some(Documentation::String(text.to_string())),
                    ..item(member, CompletionItemKind::CONSTANT, Some(name))
                });
            }
        }
        return items;
    }
    let kind = receiver_kind(doc, receiver, offset);
    // A method with a body per kind (`push` of arrays and of heaps) is offered once.
    let mut seen = rustc_hash::FxHashSet::default();
    let mut items: Vec<CompletionItem> = builtins::methods()
        .filter(|(b, on)| kind.is_none_or(|k| on.includes(k)) && seen.insert(b.name))
        .map(|(b, _)| builtin_item(b.name, b))
        .collect();
    if kind.is_none_or(|k| k == Receivers::GRAPH) {
        items.extend(nodes(doc).map(|n| item(&dollar(&n), CompletionItemKind::CONSTANT, Some("node"))));
    }
    items
}

fn is_variable(doc: &Document, name: &str, offset: u32) -> bool {
    doc.analysis.index.variables_at(DOCUMENT, offset, in_demon(doc, offset)).any(|s| &*s.name == name)
}

/// The kind of value `receiver` (the text before a `.`) holds, when it can be told from its
/// form or from the declaration of the variable it names.
fn receiver_kind(doc: &Document, receiver: &str, offset: u32) -> Option<Receivers> {
    if receiver.starts_with(['"', '\'']) {
        return Some(Receivers::STRING);
    }
    if receiver.starts_with('$') {
        return Some(Receivers::NODE);
    }
    if receiver == "GRAPH" || receiver.starts_with("GRAPH(") {
        return Some(Receivers::GRAPH);
    }
    let index = &doc.analysis.index;
    if index.symbols.iter().any(|s| s.kind == SymbolKind::Node && s.decl.is_some() && &*s.name == receiver) {
        return Some(Receivers::NODE);
    }
    let var = index.variables_at(DOCUMENT, offset, in_demon(doc, offset)).filter(|s| &*s.name == receiver).last()?;
    declared_kind(doc, var.decl?)
}

/// The kind of value a variable holds, from its declaration: `var G = GRAPH("x")`, a string,
/// an array, a map, a node; a `for` over all nodes.
fn declared_kind(doc: &Document, decl: Span) -> Option<Receivers> {
    let mut found = None;
    walk_stmts(&doc.analysis.stmts, &mut |s| match &s.kind {
        StmtKind::Var(items) | StmtKind::Static(items) => {
            for item in items.iter().filter(|i| i.name.span == decl) {
                found = item.init.as_ref().and_then(value_kind);
            }
        }
        StmtKind::For { vars, source: None, .. } if vars.iter().any(|v| v.span == decl) => {
            found = Some(Receivers::NODE);
        }
        _ => {}
    });
    found
}

fn value_kind(e: &Expr) -> Option<Receivers> {
    Some(match &e.kind {
        ExprKind::Str(_) => Receivers::STRING,
        ExprKind::Array(_) => Receivers::ARRAY,
        ExprKind::Map(_) => Receivers::MAP,
        ExprKind::NodeConst(_) | ExprKind::NodeOf { .. } => Receivers::NODE,
        ExprKind::Call { name, .. } => match &*name.text {
            "GRAPH" => Receivers::GRAPH,
            "range" | "ARRAY" => Receivers::ARRAY,
            "Heap" => Receivers::HEAP,
            _ => return None,
        },
        ExprKind::Method { object, name, .. } => match (&object.kind, &*name.text) {
            (ExprKind::Name(m), "create") if &**m == "SVG" => Receivers::PICTURE,
            (ExprKind::Name(m), "open") if &**m == "File" => Receivers::FILE,
            _ => return None,
        },
        _ => return None,
    })
}

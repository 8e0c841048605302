//! The language server never fails on half-typed input: every request, on every prefix of every
//! script (at each line boundary and in the middle of lines), gets an answer, and diagnostics
//! stay inside the text. In-process, against the server's handlers, to be fast.

use ds::lsp::{path_to_uri, Server};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn scripts() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("scripts folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "ds") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Where to cut each script: after each line, and in the middle of every third line.
fn cuts(text: &str) -> Vec<usize> {
    let mut cuts = vec![0];
    let mut start = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n % 3 == 1 {
            let mid = (0..=line.len() / 2).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
            cuts.push(start + mid);
        }
        start += line.len();
        cuts.push(start);
    }
    cuts
}

/// The 0-based (line, UTF-16 column) of a byte offset.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column: usize = before.rsplit('\n').next().unwrap_or("").chars().map(char::len_utf16).sum();
    json!({"line": line, "character": column})
}

fn check_prefix(server: &mut Server, path: &Path, prefix: &str) {
    let uri = path_to_uri(path).expect("uri").as_str().to_string();
    let doc = json!({"textDocument": {"uri": uri, "languageId": "ds", "version": 1, "text": prefix}});
    let published = server.notify("textDocument/didOpen", doc).expect("didOpen is handled");
    let lines = prefix.split('\n').count() as u64;
    for note in &published {
        for d in note.params["diagnostics"].as_array().expect("diagnostics") {
            let line = d["range"]["end"]["line"].as_u64().expect("a range");
            assert!(line < lines, "{}: a diagnostic past the end of the prefix: {d}", path.display());
        }
    }
    let end = position(prefix, prefix.len());
    let middle = position(prefix, (0..=prefix.len() / 2).rev().find(|&i| prefix.is_char_boundary(i)).unwrap_or(0));
    for pos in [&end, &middle] {
        let at = json!({"textDocument": {"uri": uri}, "position": pos});
        let refs = json!({"textDocument": {"uri": uri}, "position": pos, "context": {"includeDeclaration": true}});
        for (method, params) in [
            ("textDocument/completion", &at),
            ("textDocument/hover", &at),
            ("textDocument/definition", &at),
            ("textDocument/references", &refs),
        ] {
            if let Err(e) = server.request(method, params.clone()) {
                panic!("{method} at {pos} of a prefix of {}: {}", path.display(), e.message);
            }
        }
    }
    let whole = json!({"textDocument": {"uri": uri}});
    for method in ["textDocument/documentSymbol", "textDocument/foldingRange"] {
        if let Err(e) = server.request(method, whole.clone()) {
            panic!("{method} on a prefix of {}: {}", path.display(), e.message);
        }
    }
}

#[test]
fn every_request_on_every_prefix_of_every_script_gets_an_answer() {
    // Deeply nested prefixes compile recursively: give the server the stack `ds` gives it.
    let checked = ds::run_on_big_stack(|| {
        let mut server = Server::new();
        let mut checked = 0;
        for path in scripts() {
            let text = std::fs::read_to_string(&path).expect("script");
            for cut in cuts(&text) {
                check_prefix(&mut server, &path, &text[..cut]);
                checked += 1;
            }
        }
        checked
    });
    assert!(checked > 4000, "only {checked} prefixes");
}

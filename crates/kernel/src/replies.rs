//! The requests answered without running anything: kernel info, completion and inspection (the
//! language server's analysis, `lsp::text`, of the cells run so far followed by this one, so
//! that names from earlier cells complete), whether a cell is complete (the REPL's rule: the
//! parser ran out of input with something open), history and comms. Completion, inspection
//! and `is_complete` build without the server too: the kernel in the browser answers with them
//! (web/src/notebook.rs).

#[cfg(feature = "server")]
use super::message::{Message, PROTOCOL_VERSION};
use crate::failed::FailedCells;
use ds_core::files::Files;
use serde_json::{json, Value};

#[cfg(feature = "server")]
/// The reply type and content for a request, or `None` for a request ds does not answer.
/// `before` is the text of the cells run so far without error.
pub fn answer(m: &Message, before: &str) -> Option<(String, Value)> {
    let c = &m.content;
    let code = c["code"].as_str().unwrap_or("");
    let cursor = c["cursor_pos"].as_u64().map_or(code.chars().count(), |p| p as usize);
    // The session's own files (`ds kernel` runs without a sandbox).
    let files = ds_native::sandbox::Access::Open;
    let content = match m.msg_type() {
        "kernel_info_request" => kernel_info(),
        "complete_request" => complete(before, code, cursor, &files),
        "inspect_request" => inspect(before, code, cursor, &files),
        "is_complete_request" => is_complete(code),
        "history_request" => json!({ "status": "ok", "history": [] }),
        "comm_info_request" => json!({ "status": "ok", "comms": {} }),
        _ => return None,
    };
    let reply_type = m.msg_type().replace("_request", "_reply");
    Some((reply_type, content))
}

#[cfg(feature = "server")]
/// Whether a request is answered from the analysis of the cells (slow, and deep on nested
/// code: `server` answers it on a thread of its own).
pub fn needs_analysis(msg_type: &str) -> bool {
    matches!(msg_type, "complete_request" | "inspect_request" | "is_complete_request")
}

#[cfg(feature = "server")]
pub fn kernel_info() -> Value {
    json!({
        "status": "ok",
        "protocol_version": PROTOCOL_VERSION,
        "implementation": "ds",
        "implementation_version": env!("CARGO_PKG_VERSION"),
        "language_info": {
            "name": "ds",
            "version": env!("CARGO_PKG_VERSION"),
            "mimetype": "text/x-demonscript",
            "file_extension": ".ds",
        },
        "banner": format!("ds {} (DemonScript): worlds are three-valued graphs, demons rewrite them", env!("CARGO_PKG_VERSION")),
        "help_links": [],
    })
}

/// Jupyter counts the cursor in Unicode code points; the analysis in bytes.
fn byte_offset(text: &str, chars: usize) -> usize {
    text.char_indices().nth(chars).map_or(text.len(), |(i, _)| i)
}

fn char_offset(text: &str, byte: usize) -> usize {
    text.char_indices().take_while(|&(i, _)| i < byte).count()
}

/// The earlier cells and this one as one text, the cell starting at the offset returned.
fn joined(before: &str, code: &str) -> (String, usize) {
    let text = format!("{before}{code}");
    (text, before.len())
}

/// The content of a `complete_reply`: `before` is the text of the cells run so far without
/// error, `cursor` where the cursor is in `code` (in characters, as Jupyter counts), `files`
/// where `#include`s are read.
pub fn complete(before: &str, code: &str, cursor: usize, files: &dyn Files) -> Value {
    let cursor = byte_offset(code, cursor);
    let (text, at) = joined(before, code);
    let (mut matches, range) = ds_lsp::text::complete(&text, at + cursor, files);
    let range = range.start.max(at) - at..range.end - at;
    // An editor filters what its language server offers as the user types; Jupyter shows
    // the list as it is, so only the words that go on what was typed are kept.
    let typed = code.get(range.clone()).unwrap_or("");
    matches.retain(|m| m.starts_with(typed));
    json!({
        "status": "ok",
        "matches": matches,
        "cursor_start": char_offset(code, range.start),
        "cursor_end": char_offset(code, range.end),
        "metadata": {},
    })
}

/// The content of an `inspect_reply` (what hovering shows in an editor), as `complete`.
pub fn inspect(before: &str, code: &str, cursor: usize, files: &dyn Files) -> Value {
    let cursor = byte_offset(code, cursor);
    let (text, at) = joined(before, code);
    // Shift-tab comes with the cursor just after the word, where hover finds nothing.
    let text = ds_lsp::text::hover(&text, at + cursor, files).or_else(|| {
        let back = code.get(..cursor).and_then(|c| c.chars().next_back()).map_or(0, char::len_utf8);
        ds_lsp::text::hover(&text, at + cursor - back, files)
    });
    match text {
        Some(t) => json!({
            "status": "ok", "found": true, "metadata": {},
            "data": { "text/plain": t, "text/markdown": t },
        }),
        None => json!({ "status": "ok", "found": false, "data": {}, "metadata": {} }),
    }
}

/// Keeps a cell that ran without error: its code is added to `cells` (the text that
/// completion and inspection analyse) and `failed` learns it compiled. A REPL command has no
/// code to analyse; after `:reset`, the names of the cells before it no longer complete.
pub fn ran(code: &str, cells: &mut String, failed: &mut FailedCells) {
    if let Some(command) = code.trim_start().strip_prefix(':') {
        if command.split_whitespace().next() == Some("reset") {
            cells.clear();
            failed.clear();
        }
        return;
    }
    failed.compiled(code);
    cells.push_str(code);
    cells.push('\n');
}

/// The longest cell `is_complete` parses: the language server's limit for a document, so that
/// the parse, and dropping its tree, stay within the analysis thread's stack.
const MAX_IS_COMPLETE: usize = 2 << 20;

pub fn is_complete(code: &str) -> Value {
    if code.trim_start().starts_with(':') {
        return json!({ "status": "complete" });
    }
    // Over the analysis's limit, the front end decides (and the cell, run, says what is wrong).
    if code.len() > MAX_IS_COMPLETE {
        return json!({ "status": "unknown" });
    }
    match ds_syntax::parse(code, 0) {
        Ok(_) => json!({ "status": "complete" }),
        Err(d) if d.incomplete => json!({ "status": "incomplete", "indent": "    " }),
        Err(_) => json!({ "status": "invalid" }),
    }
}

#[cfg(all(test, feature = "server"))]
mod tests {
    use super::*;

    const OPEN: ds_native::sandbox::Access = ds_native::sandbox::Access::Open;

    #[test]
    fn an_open_brace_waits_for_more() {
        assert_eq!(is_complete("def f() {")["status"], "incomplete");
        assert_eq!(is_complete("x = 1")["status"], "complete");
        assert_eq!(is_complete("x = )")["status"], "invalid");
    }

    #[test]
    fn completion_and_inspection_take_any_cursor() {
        // A cursor past the end, inside a character's bytes, or in a cell of one character.
        for (code, cursor) in [("out Sea", 100), ("é", 1), ("x", 0), ("", 0)] {
            let _ = complete("", code, cursor, &OPEN);
            let _ = inspect("var A = 1\n", code, cursor, &OPEN);
        }
        let c = complete("var Alpha = 1\n", "out Alp", 7, &OPEN);
        assert_eq!(c["matches"], json!(["Alpha"]));
        assert_eq!((c["cursor_start"].as_u64(), c["cursor_end"].as_u64()), (Some(4), Some(7)));
    }

    #[test]
    fn cursor_positions_count_characters() {
        let text = "// é\nx";
        assert_eq!(byte_offset(text, 5), 6);
        assert_eq!(char_offset(text, 6), 5);
    }
}

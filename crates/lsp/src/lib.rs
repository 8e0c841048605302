//! `ds lsp`: a Language Server Protocol server on standard input and output, for editors.
//!
//! The protocol loop is here; `server` dispatches each message to a handler, and the handlers
//! (`completion`, `hover`, `navigation`, `symbols`) answer from a document's `analysis`: the
//! compiler's diagnostics and the names it resolved (`compile::index`), of the text as the
//! editor has it (`documents`). Nothing a document says is ever run.

//!
//! Without the feature `server` (the protocol, and documents read from disk), the crate is the
//! analysis behind completion and hover, asked over a text (`text`): it builds for
//! wasm32-unknown-unknown, for the notebook's kernel in the browser.

mod analysis;
mod completion;
mod cursor;
#[cfg(feature = "server")]
mod diagnostics;
mod documents;
mod hover;
#[cfg(feature = "server")]
mod navigation;
mod position;
mod repair;
#[cfg(feature = "server")]
mod server;
#[cfg(feature = "server")]
mod symbols;
#[cfg(feature = "server")]
mod transport;

pub use documents::{path_to_uri, uri_to_path};
#[cfg(feature = "server")]
pub use server::Server;

#[cfg(feature = "server")]
use lsp_server::{Connection, ErrorCode, Message, Response};
#[cfg(feature = "server")]
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Serves one editor until it says `exit`; the exit status (0 after an orderly shutdown).
#[cfg(feature = "server")]
pub fn run() -> u8 {
    let (connection, writer) = transport::stdio();
    let status = match serve(&connection) {
        Ok(status) => status,
        Err(e) => {
            ds_base::eprintln_safe!("ds lsp: {e}");
            1
        }
    };
    // The writer ends when the connection's sender is dropped, after the last answer. The
    // reader may be waiting on standard input: the process ends without it.
    drop(connection);
    let _ = writer.join();
    status
}

#[cfg(feature = "server")]
fn serve(connection: &Connection) -> Result<u8, Box<dyn std::error::Error>> {
    let capabilities = serde_json::to_value(Server::capabilities())?;
    connection.initialize(capabilities)?;
    let mut server = Server::new();
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection.handle_shutdown(&request)? {
                    return Ok(0);
                }
                let id = request.id.clone();
                // A bug in a handler must not take the editor's server down with it.
                let answer = catch_unwind(AssertUnwindSafe(|| server.request(&request.method, request.params)));
                let response = match answer {
                    Ok(response_result) => Response { id, response_result },
                    Err(_) => Response::new_err(id, ErrorCode::InternalError as i32, "ds lsp: internal error".into()),
                };
                connection.sender.send(response.into())?;
            }
            Message::Notification(n) if n.method == "exit" => return Ok(1),
            Message::Notification(n) => {
                let sent = catch_unwind(AssertUnwindSafe(|| server.notify(&n.method, n.params)));
                match sent {
                    Ok(Ok(notifications)) => {
                        for out in notifications {
                            connection.sender.send(out.into())?;
                        }
                    }
                    Ok(Err(e)) => ds_base::eprintln_safe!("ds lsp: {}: {}", n.method, e.message),
                    Err(_) => ds_base::eprintln_safe!("ds lsp: internal error on {}", n.method),
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(1)
}

/// What the server does with the bytes an editor sends: read as `Content-Length` frames, each
/// message handled as `serve` handles it (without the handshake). For the fuzz target
/// `lsp_message` (fuzz/): any input must be answered or refused, never panic. Run on a thread
/// with a large stack, as `ds lsp` runs.
#[doc(hidden)]
#[cfg(feature = "server")]
pub fn fuzz_messages(data: &[u8]) {
    let mut frames = transport::Frames::new(data);
    let mut server = Server::new();
    while let Ok(Some(frame)) = frames.next() {
        match frame {
            Ok(Message::Request(r)) => drop(server.request(&r.method, r.params)),
            Ok(Message::Notification(n)) => drop(server.notify(&n.method, n.params)),
            Ok(Message::Response(_)) | Err(_) => {}
        }
    }
}

/// Completion and hover over a text no editor holds (a notebook cell, for `ds kernel` and the
/// kernel in the browser): the same analysis as an editor's document, asked at a byte offset.
/// `files` is where the text's `#include`s are read, as the session that runs it reads them.
pub mod text {
    use crate::documents::Document;
    use ds_core::files::Files;
    use lsp_types::{CompletionResponse, CompletionTextEdit, HoverContents, Uri};
    use std::str::FromStr;

    fn document(text: &str, files: &dyn Files) -> Option<Document> {
        // Not a `file:` URI: a cell has no folder, so its `#include`s resolve from the
        // kernel's working directory as when it runs.
        Some(Document::new(Uri::from_str("untitled:cell").ok()?, text.to_string(), files))
    }

    /// The words that complete the one at `offset`, and the byte range they replace.
    pub fn complete(text: &str, offset: usize, files: &dyn Files) -> (Vec<String>, std::ops::Range<usize>) {
        let Some(doc) = document(text, files) else { return (Vec::new(), offset..offset) };
        let pos = doc.lines.position(text, offset as u32);
        let Some(CompletionResponse::Array(items)) = crate::completion::complete(&doc, pos) else {
            return (Vec::new(), offset..offset);
        };
        let mut start = offset;
        let words = items
            .into_iter()
            .map(|it| match it.text_edit {
                Some(CompletionTextEdit::Edit(edit)) => {
                    start = start.min(doc.offset(edit.range.start) as usize);
                    edit.new_text
                }
                _ => it.label,
            })
            .collect();
        (words, start..offset)
    }

    /// What hovering at `offset` shows, as Markdown.
    pub fn hover(text: &str, offset: usize, files: &dyn Files) -> Option<String> {
        let doc = document(text, files)?;
        let pos = doc.lines.position(text, offset as u32);
        match crate::hover::hover(&doc, pos)?.contents {
            HoverContents::Markup(m) => Some(m.value),
            _ => None,
        }
    }
}

#[cfg(all(test, feature = "server"))]
mod fuzz_tests {

    /// How many mutants the campaign runs: `DS_MUTANTS` when set (a longer campaign by hand),
    /// else a few seconds' worth.
    fn mutants(default: usize) -> usize {
        std::env::var("DS_MUTANTS").ok().and_then(|n| n.parse().ok()).unwrap_or(default)
    }
    /// A frame as an editor sends it.
    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    /// A short fuzzing campaign in the tests: seeded mutations of an editor's session (the fuzz
    /// target `lsp_message` runs the same function under libFuzzer).
    #[test]
    fn mutated_sessions_are_answered_or_refused() {
        let open = r#"{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"untitled:a","languageId":"ds","version":1,"text":"var Alpha = 1\ndef f(X) { return X + Alpha }\nout f(2)\n"}}}"#;
        let change = r#"{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"untitled:a","version":2},"contentChanges":[{"range":{"start":{"line":2,"character":4},"end":{"line":2,"character":5}},"text":"Al"}]}}"#;
        let asks = ["completion", "hover", "definition", "references", "documentSymbol", "signatureHelp"].map(|m| {
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"textDocument/{m}","params":{{"textDocument":{{"uri":"untitled:a"}},"position":{{"line":1,"character":24}},"context":{{"includeDeclaration":true}}}}}}"#
            )
        });
        let mut seed = framed(open);
        seed.extend(framed(change));
        for ask in &asks {
            seed.extend(framed(ask));
        }
        let mut rng = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            (rng % n.max(1) as u64) as usize
        };
        for _ in 0..mutants(300) {
            let mut data = seed.clone();
            for _ in 0..1 + next(4) {
                let at = next(data.len() + 1);
                match next(5) {
                    0 if at < data.len() => data[at] = next(256) as u8,
                    1 if at < data.len() => drop(data.remove(at)),
                    2 => data.insert(at, [b'{', b'"', b'9', b'\n', b'\\', b'-'][next(6)]),
                    3 => {
                        let end = (at + next(60)).min(data.len());
                        let piece = data[at.min(end)..end].to_vec();
                        data.splice(at..at, piece);
                    }
                    _ => data.truncate(at),
                }
            }
            let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || super::fuzz_messages(&data));
            worker.expect("a thread").join().expect("no panic");
        }
    }
}

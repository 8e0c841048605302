//! `ds lsp`: a Language Server Protocol server on standard input and output, for editors.
//!
//! The protocol loop is here; `server` dispatches each message to a handler, and the handlers
//! (`completion`, `hover`, `navigation`, `symbols`) answer from a document's `analysis`: the
//! compiler's diagnostics and the names it resolved (`compile::index`), of the text as the
//! editor has it (`documents`). Nothing a document says is ever run.

mod analysis;
mod completion;
mod cursor;
mod diagnostics;
mod documents;
mod hover;
mod navigation;
mod position;
mod repair;
mod server;
mod symbols;

pub use documents::{path_to_uri, uri_to_path};
pub use server::Server;

use lsp_server::{Connection, ErrorCode, Message, Response};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Serves one editor until it says `exit`; the exit status (0 after an orderly shutdown).
pub fn run() -> u8 {
    let (connection, io_threads) = Connection::stdio();
    let status = match serve(&connection) {
        Ok(status) => status,
        Err(e) => {
            crate::eprintln_safe!("ds lsp: {e}");
            1
        }
    };
    drop(connection);
    if let Err(e) = io_threads.join() {
        crate::eprintln_safe!("ds lsp: {e}");
    }
    status
}

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
                    Ok(Err(e)) => crate::eprintln_safe!("ds lsp: {}: {}", n.method, e.message),
                    Err(_) => crate::eprintln_safe!("ds lsp: internal error on {}", n.method),
                }
            }
            Message::Response(_) => {}
        }
    }
    Ok(1)
}

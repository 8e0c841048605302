//! `ds lsp` given what no editor should send: frames that cannot be read, a message or a
//! document too large to keep. Each gets an answer, the memory stays small, and the server goes
//! on (docs/editors.md, "Limits").

use super::lsp_session::Client;
use serde_json::{json, Value};

fn initialized() -> Client {
    let mut client = Client::start();
    client.request("initialize", json!({"processId": null, "capabilities": {}, "rootUri": null}));
    client.notify("initialized", json!({}));
    client
}

/// The next message, which must be an error answer with id null; its code and message.
fn error_answer(client: &mut Client) -> (i64, String) {
    let m = client.next_message();
    assert_eq!(m["id"], Value::Null, "{m}");
    (m["error"]["code"].as_i64().expect("an error code"), m["error"]["message"].as_str().unwrap().to_string())
}

fn frame(body: &[u8]) -> Vec<u8> {
    let mut bytes = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    bytes.extend_from_slice(body);
    bytes
}

/// The resident memory of a process, in MB (Linux's /proc).
fn resident_mb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("VmRSS");
    line.split_whitespace().nth(1).unwrap().parse::<u64>().unwrap() / 1024
}

fn shut_down(mut client: Client) {
    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    assert_eq!(client.child.wait().expect("ds lsp exits").code(), Some(0));
}

#[test]
fn malformed_frames_get_a_parse_error_and_the_server_goes_on() {
    let mut client = initialized();
    let bad: [(&str, Vec<u8>); 5] = [
        ("not JSON", frame(b"{\"jsonrpc\": \"2.0\", \"method\": ")),
        ("a lone surrogate", frame(br#"{"jsonrpc":"2.0","method":"x","params":{"a":"\ud800"}}"#)),
        ("not UTF-8", frame(b"{\"jsonrpc\":\"2.0\",\"method\":\"\xff\"}")),
        ("a length that is no number", b"Content-Length: 1O\r\n\r\n".to_vec()),
        // Two bytes fewer than the body: its end runs into the next frame's header.
        ("a short length", {
            let body = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
            let mut f = format!("Content-Length: {}\r\n\r\n", body.len() - 2).into_bytes();
            f.extend_from_slice(body);
            f
        }),
    ];
    for (what, bytes) in bad {
        client.send_raw(&bytes);
        let (code, message) = error_answer(&mut client);
        assert_eq!(code, -32700, "{what}: {message}");
        assert!(message.starts_with("ds lsp: "), "{what}: {message}");
    }
    // JSON that is no JSON-RPC message: "Invalid Request".
    client.send_raw(&frame(b"[1, 2]"));
    assert_eq!(error_answer(&mut client).0, -32600);
    // Spaces around the length are allowed, as in HTTP: this frame is read.
    let body = json!({"jsonrpc": "2.0", "id": 99, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": "file:///none.ds"}, "position": {"line": 0, "character": 0}}})
    .to_string();
    client.send_raw(format!("Content-Length:  {} \r\n\r\n{body}", body.len()).as_bytes());
    assert_eq!(client.next_message(), json!({"jsonrpc": "2.0", "id": 99, "result": null}));
    shut_down(client);
}

#[test]
fn a_message_over_the_limit_is_answered_and_skipped_without_keeping_it() {
    let mut client = initialized();
    let over = 64 * 1024 * 1024 + 1;
    let mut bytes = format!("Content-Length: {over}\r\n\r\n").into_bytes();
    bytes.resize(bytes.len() + over, b' ');
    client.send_raw(&bytes);
    let (code, message) = error_answer(&mut client);
    assert_eq!(code, -32700);
    assert!(message.contains("a message of 67108865 bytes is over ds lsp's limit of 64 MiB"), "{message}");
    assert!(resident_mb(client.child.id()) < 48, "ds lsp kept the message: {} MB", resident_mb(client.child.id()));

    // A length of 91 TB: answered at once; the server waits for the bytes it skips.
    client.send_raw(b"Content-Length: 99999999999999\r\n\r\n{}");
    let (code, message) = error_answer(&mut client);
    assert_eq!(code, -32700);
    assert!(message.contains("99999999999999 bytes is over"), "{message}");
    assert!(resident_mb(client.child.id()) < 48);
    drop(client.stdin);
    let status = client.child.wait().expect("ds lsp exits");
    assert_eq!(status.code(), Some(1), "the input ended without `exit`: {status:?}");
}

#[test]
fn a_document_over_the_limit_is_not_analysed() {
    let mut client = initialized();
    let uri = "file:///project/ds-lsp-limits/large.ds";
    let text = "out 1 + 2\n".repeat(500_000); // 5 MB, over the 2 MiB limit
    let doc = json!({"uri": uri, "languageId": "ds", "version": 1, "text": text});
    client.notify("textDocument/didOpen", json!({"textDocument": doc}));
    let published = client.next_notification("textDocument/publishDiagnostics");
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1, "{published}");
    let message = diagnostics[0]["message"].as_str().unwrap();
    assert!(message.contains("this document is 5000000 bytes, over ds lsp's limit of 2 MiB"), "{message}");
    assert_eq!(diagnostics[0]["range"]["start"], json!({"line": 0, "character": 0}));
    let hover = client
        .request("textDocument/hover", json!({"textDocument": {"uri": uri}, "position": {"line": 3, "character": 1}}));
    assert_eq!(hover, Value::Null);
    // The text (5 MB, and the message that brought it) is kept; its analysis, some 140 times
    // that, is not.
    assert!(resident_mb(client.child.id()) < 100, "{} MB", resident_mb(client.child.id()));
    // Below the limit again, it is analysed.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "out palce\n"}]}),
    );
    let published = client.next_notification("textDocument/publishDiagnostics");
    assert!(published["diagnostics"][0]["message"].as_str().unwrap().contains("palce"), "{published}");
    shut_down(client);
}

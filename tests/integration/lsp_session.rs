//! `ds lsp` spoken to over pipes, as an editor does: initialize, open a document with an unknown
//! demon, read the diagnostic with its range and suggestion, ask for completion, definition and
//! hover, change the document, and shut down.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Generous: the machine is shared with other builds.
const WAIT: Duration = Duration::from_secs(60);

pub struct Client {
    pub child: Child,
    pub stdin: ChildStdin,
    incoming: Receiver<Value>,
    next_id: i64,
}

impl Client {
    pub fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ds"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start ds lsp");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, incoming) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Client { child, stdin, incoming, next_id: 1 }
    }

    pub fn send(&mut self, message: Value) {
        let body = message.to_string();
        self.send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Bytes as they are, for frames that are not well formed.
    pub fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("write to ds lsp");
        self.stdin.flush().expect("flush");
    }

    pub fn next_message(&mut self) -> Value {
        self.incoming.recv_timeout(WAIT).expect("a message from ds lsp")
    }

    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and returns its result, skipping the notifications that come first.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next_message();
            if message["id"] == json!(id) {
                assert!(message.get("error").is_none(), "{method} failed: {message}");
                return message["result"].clone();
            }
        }
    }

    pub fn next_notification(&mut self, method: &str) -> Value {
        loop {
            let message = self.next_message();
            if message["method"] == method {
                return message["params"].clone();
            }
        }
    }
}

fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length: ") {
            length = n.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

const SCRIPT: &str = "\
edges on
var G = GRAPH(\"G\")
GRAPH = G
nodes cat, mat

// Where X sits.
def place(X)
{
   if exists(Z, X on Z) : return Z
}

cat on mat
out palce(cat)
";

#[test]
fn a_whole_session_over_pipes() {
    let mut client = Client::start();
    let init = client.request("initialize", json!({"processId": null, "capabilities": {}, "rootUri": null}));
    assert_eq!(init["capabilities"]["definitionProvider"], json!(true), "{init}");
    client.notify("initialized", json!({}));

    let uri = "file:///project/ds-lsp-session/session.ds";
    let doc = json!({"uri": uri, "languageId": "ds", "version": 1, "text": SCRIPT});
    client.notify("textDocument/didOpen", json!({"textDocument": doc}));
    let published = client.next_notification("textDocument/publishDiagnostics");
    assert_eq!(published["uri"], uri);
    let diagnostics = published["diagnostics"].as_array().expect("diagnostics");
    assert_eq!(diagnostics.len(), 1, "{published}");
    let d = &diagnostics[0];
    // `palce` on line 12 (0-based), columns 4 to 9.
    assert_eq!(d["range"], json!({"start": {"line": 12, "character": 4}, "end": {"line": 12, "character": 9}}));
    assert_eq!(d["severity"], 1);
    let message = d["message"].as_str().unwrap();
    assert!(message.contains("unknown demon or function `palce`"), "{message}");
    assert!(message.contains("did you mean `place`?"), "{message}");

    let at = |line: u32, character: u32| json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}});
    let items = client.request("textDocument/completion", at(12, 6));
    let labels: Vec<&str> = items.as_array().unwrap().iter().filter_map(|i| i["label"].as_str()).collect();
    for expected in ["place", "exists", "forall", "cat", "mat", "on", "G", "GRAPH", "Math"] {
        assert!(labels.contains(&expected), "completion lacks {expected}: {labels:?}");
    }

    // From `Z` in `return Z` to its binding in `exists(Z, ...)`.
    let def = client.request("textDocument/definition", at(8, 33));
    assert_eq!(def[0]["range"]["start"], json!({"line": 8, "character": 13}), "{def}");

    let hover = client.request("textDocument/hover", at(6, 5));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("place(X)") && text.contains("Where X sits."), "{text}");

    let fixed = SCRIPT.replace("palce", "place");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": fixed}]}),
    );
    let published = client.next_notification("textDocument/publishDiagnostics");
    assert_eq!(published["diagnostics"], json!([]), "{published}");
    let def = client.request("textDocument/definition", at(12, 6));
    assert_eq!(def[0]["range"]["start"], json!({"line": 6, "character": 4}), "{def}");

    assert_eq!(client.request("shutdown", Value::Null), Value::Null);
    client.notify("exit", Value::Null);
    let status = client.child.wait().expect("ds lsp exits");
    assert_eq!(status.code(), Some(0));
}

#[test]
fn a_file_named_lsp_still_runs() {
    let dir = std::env::temp_dir().join(format!("ds-lsp-name-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lsp"), "out 6 * 7\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ds")).arg("./lsp").current_dir(&dir).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\n");
}

//! The notebook's kernel in the browser (`cargo xtask lite`, docs/kernel.md "In the browser"):
//! cells share one session, as `ds kernel`'s do, and show as they show there. The session is
//! the REPL's backend (ds-repl without its terminal) and the values are drawn by `ds kernel`'s
//! own display code (ds-kernel without its server): the same SVG worlds, `Search.compare`
//! tables and `Search.trace()` step-throughs. What a cell prints streams to the page while it
//! runs (the playground's chunks), at most 1 MB of it per cell as in `ds kernel`, and a long
//! search shows `ds kernel`'s line (`status::in_cell`). Completion and inspection are
//! `ds kernel`'s (`ds_kernel::replies`: the language server's analysis of the cells run so far,
//! `complete` and `inspect`).
//!
//! Nothing here knows the browser (the native tests run it): `web/src/lib.rs` exports it to
//! the worker, and web/lite/ makes Jupyter messages of what it says.

use crate::runner::{Chunks, Sink, Stream};
use ds_core::session::Session;
use ds_core::value::Value;
use ds_kernel::cap::OutputCap;
use ds_kernel::display;
use ds_kernel::failed::{error_content, FailedCells};
use ds_repl::Backend;
use serde_json::{json, Value as Json};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// One output stream of the running cell: the playground's chunks, with the cell's cap.
struct Capped {
    chunks: Chunks,
    cap: OutputCap,
}

impl Capped {
    /// Ends a cell: sends the rest, with a note when output was dropped, and starts afresh.
    fn finish(&mut self) {
        if let Some(note) = self.cap.end() {
            let _ = self.chunks.write(note.as_bytes());
        }
        let _ = self.chunks.flush();
    }
}

#[derive(Clone)]
struct Output(Rc<RefCell<Capped>>);

impl Output {
    fn new(sink: Sink, stream: Stream) -> Output {
        Output(Rc::new(RefCell::new(Capped { chunks: Chunks::new(sink, stream), cap: OutputCap::default() })))
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut s = self.0.borrow_mut();
        let shown = s.cap.shown(buf.len());
        if shown > 0 {
            s.chunks.write(&buf[..shown])?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().chunks.flush()
    }
}

/// The tables (`Search.compare`'s rows) the running cell has shown: its value, if it is one of
/// them, is not shown a second time.
type Tables = Rc<RefCell<Vec<ds_core::value::ArrayRef>>>;

/// What gets a cell's output as it comes: the stream and the text.
pub type OnOutput = Box<dyn FnMut(Stream, &str)>;

/// Where the running cell's output goes: replaced for each cell (the worker's callback is the
/// cell's).
type Target = Rc<RefCell<Option<OnOutput>>>;

/// One notebook's session.
pub struct Notebook {
    backend: Backend,
    out: Output,
    err: Output,
    /// Where the running cell's output goes (its search lines too).
    sink: Sink,
    target: Target,
    failed: FailedCells,
    tables: Tables,
    /// The cells run so far without error, for completion and inspection.
    cells: String,
}

/// What a cell ended with: the content of its `execute_reply` (`status`, and `ename`,
/// `evalue`, `traceback` for an error) and, when its last value is shown, that value's MIME
/// bundle (`result`, for an `execute_result`).
pub struct Executed {
    pub reply: Json,
    pub result: Option<Json>,
}

impl Default for Notebook {
    fn default() -> Self {
        Notebook::new()
    }
}

impl Notebook {
    pub fn new() -> Notebook {
        let target: Target = Rc::default();
        let forward = target.clone();
        let sink: Sink = Rc::new(RefCell::new(move |stream: Stream, text: &str| {
            if let Some(to) = forward.borrow_mut().as_mut() {
                to(stream, text);
            }
        }));
        let out = Output::new(sink.clone(), Stream::Out);
        let err = Output::new(sink.clone(), Stream::Err);
        let mut session = Session::new(Box::new(out.clone()));
        session.interp.warnings.sink = Box::new(err.clone());
        session.interp.set_notes(Box::new(err.clone()));
        // A folder in memory, as the playground's: what a cell writes, a later cell reads.
        session.interp.set_files(Box::new(ds_core::files::MemoryFiles::default()));
        let tables = Tables::default();
        session.interp.show = Some(shower(out.clone(), sink.clone(), tables.clone()));
        session.interp.status_line = Some(crate::status::in_cell);
        let backend = Backend::new(session);
        Notebook { backend, out, err, sink, target, failed: FailedCells::default(), tables, cells: String::new() }
    }

    /// Runs one cell, numbered `count`; `on_output(stream, text)` gets what it prints as it
    /// prints it ("out" and "err": text, "shown": the JSON content of a `display_data`,
    /// "status": a search's line, `{"msg_type", "content"}` in JSON).
    pub fn execute(&mut self, code: &str, count: u32, silent: bool, on_output: OnOutput) -> Executed {
        *self.target.borrow_mut() = Some(on_output);
        self.tables.borrow_mut().clear();
        let posting = crate::status::posting_to(self.sink.clone());
        let (reply, value) = self.backend.eval_cell(code);
        drop(posting);
        self.out.0.borrow_mut().finish();
        if reply.quit {
            let note = "note: `System.exit` ends a script, not the kernel: the session goes on\n";
            let _ = self.err.write_all(note.as_bytes());
        }
        self.err.0.borrow_mut().finish();
        let executed = if reply.failed() {
            let errors = self.failed.error_text(&reply.errors, reply.compile_failed, count, code);
            let mut content = error_content(&errors);
            content["status"] = json!("error");
            Executed { reply: content, result: None }
        } else {
            ds_kernel::replies::ran(code, &mut self.cells, &mut self.failed);
            let tables = self.tables.clone();
            let shown = |v: &Value| matches!(v, Value::Array(a) if tables.borrow().iter().any(|t| Rc::ptr_eq(t, a)));
            let result = value.filter(|v| !silent && !shown(v)).map(|v| display::shown(&mut self.backend, &v));
            Executed { reply: json!({ "status": "ok", "payload": [], "user_expressions": {} }), result }
        };
        *self.target.borrow_mut() = None;
        executed
    }

    /// The text of the cells run so far without error: what completion and inspection analyse
    /// before the cell they are asked about (`complete`, `inspect`).
    pub fn cells(&self) -> &str {
        &self.cells
    }
}

/// The content of the `complete_reply` for `code` with the cursor at `cursor` (in characters),
/// `before` the text of the cells run so far (`Notebook::cells`): `ds kernel`'s answer, from
/// the language server's analysis. It needs no session: the kernel in the browser asks it of
/// a worker of its own, so that a cell that runs does not delay it, and an analysis that
/// fails (the tab's stack running out on a deeply nested cell) ends only that worker.
/// Included files are not read (the session's files are in the other worker).
pub fn complete(before: &str, code: &str, cursor: usize) -> Json {
    ds_kernel::replies::complete(before, code, cursor, &ds_core::files::MemoryFiles::default())
}

/// The content of the `inspect_reply` (Shift-Tab) at `cursor`, as `complete`.
pub fn inspect(before: &str, code: &str, cursor: usize) -> Json {
    ds_kernel::replies::inspect(before, code, cursor, &ds_core::files::MemoryFiles::default())
}

/// How `out G` (a world, a picture, a state space printed alone) shows: drawn, as a
/// `display_data` after what the cell printed before it (`ds kernel`'s rule).
fn shower(out: Output, sink: Sink, tables: Tables) -> ds_core::eval::Shower {
    Box::new(move |world, value| {
        let Some(data) = display::drawn(world, value) else { return false };
        if let Value::Array(rows) = value {
            tables.borrow_mut().push(rows.clone());
        }
        let mut stream = out.0.borrow_mut();
        let _ = stream.chunks.flush();
        if stream.cap.admit(display::size(&data)) {
            let content = json!({ "data": data, "metadata": {} });
            (sink.borrow_mut())(Stream::Shown, &content.to_string());
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a cell, collecting what it streams.
    fn run(nb: &mut Notebook, code: &str, count: u32) -> (Executed, Vec<(Stream, String)>) {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let into = seen.clone();
        let executed = nb.execute(code, count, false, Box::new(move |s, t| into.borrow_mut().push((s, t.to_string()))));
        let seen = seen.borrow().clone();
        (executed, seen)
    }

    #[test]
    fn cells_share_a_session_and_stream_their_output() {
        let mut nb = Notebook::new();
        let (first, seen) = run(&mut nb, "var X = 40\nout \"hello\"", 1);
        assert_eq!(first.reply["status"], "ok");
        assert!(first.result.is_none(), "an `out` statement is not a value to show");
        assert_eq!(seen, vec![(Stream::Out, "hello\n".to_string())]);
        let (second, _) = run(&mut nb, "X + 2", 2);
        assert_eq!(second.result.expect("a value")["text/plain"], "42");
    }

    #[test]
    fn a_graph_shows_as_svg_and_an_error_names_its_place() {
        let mut nb = Notebook::new();
        let (shown, _) = run(&mut nb, "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\na on b\nG", 1);
        let data = shown.result.expect("the graph is shown");
        assert!(data["image/svg+xml"].as_str().is_some_and(|s| s.starts_with("<svg")), "{data}");
        let (failed, _) = run(&mut nb, "\nout 1 +", 2);
        assert_eq!(failed.reply["status"], "error");
        let traceback = failed.reply["traceback"].to_string();
        assert!(traceback.contains("<repl:2>:2:"), "{traceback}");
    }

    #[test]
    fn out_of_a_world_is_drawn_among_the_output() {
        let mut nb = Notebook::new();
        let (_, seen) =
            run(&mut nb, "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\na on b\nout \"before\"\nout G", 1);
        assert_eq!(seen[0], (Stream::Out, "before\n".to_string()));
        assert_eq!(seen[1].0, Stream::Shown);
        let content: Json = serde_json::from_str(&seen[1].1).expect("JSON");
        assert!(content["data"]["image/svg+xml"].is_string(), "{content}");
    }

    #[test]
    fn what_a_cell_writes_a_later_cell_reads() {
        let mut nb = Notebook::new();
        let (wrote, _) = run(&mut nb, "var F = File.open(\"notes.txt\", \"w\")\nF.out(\"kept\")\nF.close()", 1);
        assert_eq!(wrote.reply["status"], "ok", "{}", wrote.reply);
        let (read, _) = run(&mut nb, "File.open(\"notes.txt\").getline()", 2);
        assert_eq!(read.result.expect("a value")["text/plain"], "kept");
    }

    #[test]
    fn completion_knows_the_cells_names() {
        let mut nb = Notebook::new();
        run(&mut nb, "var Alpha = 1", 1);
        let c = complete(nb.cells(), "out Alp", 7);
        assert_eq!(c["matches"], json!(["Alpha"]));
        assert_eq!((c["cursor_start"].as_u64(), c["cursor_end"].as_u64()), (Some(4), Some(7)));
        // A cell that failed left nothing to complete; `:reset` forgets the cells before it.
        run(&mut nb, "var Alpine = 1\nout Alpine +", 2);
        assert_eq!(complete(nb.cells(), "out Alp", 7)["matches"], json!(["Alpha"]));
        run(&mut nb, ":reset", 3);
        assert_eq!(complete(nb.cells(), "out Alp", 7)["matches"], json!([]));
    }

    #[test]
    fn inspection_shows_a_demon_of_an_earlier_cell_and_a_builtin() {
        let mut nb = Notebook::new();
        run(&mut nb, "// Twice its argument.\ndef double(X) { return X * 2 }", 1);
        // Shift-Tab with the cursor just after the name, as Jupyter sends it.
        let shown = inspect(nb.cells(), "out double(4)", 10);
        assert_eq!(shown["found"], true, "{shown}");
        let text = shown["data"]["text/plain"].as_str().unwrap_or("");
        assert!(text.contains("def double(X)") && text.contains("Twice its argument."), "{text}");
        let sqrt = inspect(nb.cells(), "out Math.sqrt(2)", 13);
        assert!(sqrt["data"]["text/markdown"].as_str().is_some_and(|t| t.contains("Math.sqrt")), "{sqrt}");
        assert_eq!(inspect(nb.cells(), "out 1 + 2", 5)["found"], false);
    }

    #[test]
    fn a_long_search_shows_ds_kernels_line_and_clears_it() {
        let mut nb = Notebook::new();
        // Triples mod 80 by a + 1, b + 7, c + a (`ds kernel`'s test, tests/kernel): all
        // 80^3 = 512,000 reachable, seconds of search, past the second after which the line shows.
        let program =
            "def next(s) { return [[\"a\", [(s[0] + 1) % 80, s[1], s[2]]], [\"b\", [s[0], (s[1] + 7) % 80, s[2]]], \
                       [\"c\", [s[0], s[1], (s[2] + s[0]) % 80]]] }\n\
                       Search.bfs([0, 0, 0], next, [-1])\nSearch.stats()[\"states\"]";
        let (done, seen) = run(&mut nb, program, 1);
        assert_eq!(done.reply["status"], "ok", "{}", done.reply);
        let lines: Vec<Json> = seen
            .iter()
            .filter(|(s, _)| *s == Stream::Status)
            .map(|(_, t)| serde_json::from_str(t).expect("JSON"))
            .collect();
        assert!(lines.len() >= 2, "a line, then its end: {lines:?}");
        assert_eq!(lines[0]["msg_type"], "display_data");
        assert!(lines[1..].iter().all(|l| l["msg_type"] == "update_display_data"), "{lines:?}");
        let id = &lines[0]["content"]["transient"]["display_id"];
        assert!(id.as_str().is_some_and(|i| i.starts_with("ds-search-")), "{id}");
        assert!(lines.iter().all(|l| &l["content"]["transient"]["display_id"] == id));
        let text = lines[0]["content"]["data"]["text/plain"].as_str().unwrap_or("");
        assert!(text.starts_with("search: ") && text.contains("states/s"), "{text}");
        assert_eq!(lines.last().expect("a line")["content"]["data"]["text/plain"], "", "cleared at the end");
        assert_eq!(done.result.expect("a value")["text/plain"], "512000");
    }
}

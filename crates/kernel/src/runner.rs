//! The interpreter side of `ds kernel`: one REPL backend, so cells share a session as REPL
//! entries do, run one after another on the big-stack thread. What a cell prints streams to
//! the front end in chunks while it runs, bounded per cell; its last value is shown richly
//! (`display`); an error comes back with the diagnostic as the command line renders it.

use super::display;
use super::message::Message;
use super::server::Event;
use ds_core::session::Session;
use ds_repl::{Backend, Interrupter, WhenIdle};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// What one cell may print before the rest is dropped (a notebook holding 10 MB of output
/// is one no browser opens).
const MAX_CELL_OUTPUT: usize = 1 << 20;
/// Output is sent when this much is waiting, or when it has waited this long.
const CHUNK: usize = 16 << 10;
const PATIENCE: Duration = Duration::from_millis(50);

/// One output stream (`stdout` or `stderr`) of the running cell.
struct Stream {
    name: &'static str,
    events: UnboundedSender<Event>,
    pending: Vec<u8>,
    since: Instant,
    /// Bytes this cell has printed on the stream, shown or not.
    written: usize,
}

impl Stream {
    /// Sends what is pending, keeping back the start of a character cut at the end.
    fn send(&mut self) {
        let whole = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.pending.len(),
        };
        if whole > 0 {
            let text = String::from_utf8_lossy(&self.pending[..whole]).into_owned();
            let _ = self.events.send(Event::Iopub("stream", json!({ "name": self.name, "text": text })));
            self.pending.drain(..whole);
        }
        self.since = Instant::now();
    }
}

/// A writer for the session's output (or its warnings) that forwards to a `Stream`.
#[derive(Clone)]
struct Output(Rc<RefCell<Stream>>);

impl Output {
    fn new(name: &'static str, events: UnboundedSender<Event>) -> Output {
        let stream = Stream { name, events, pending: Vec::new(), since: Instant::now(), written: 0 };
        Output(Rc::new(RefCell::new(stream)))
    }

    /// Ends a cell: sends the rest, with a note when output was dropped, and starts afresh.
    fn finish(&self) {
        let mut s = self.0.borrow_mut();
        if s.written > MAX_CELL_OUTPUT {
            let note = format!(
                "\n[ds kernel: output cut after {} bytes; {} more bytes not shown]\n",
                MAX_CELL_OUTPUT,
                s.written - MAX_CELL_OUTPUT
            );
            s.pending.extend_from_slice(note.as_bytes());
        }
        s.send();
        s.written = 0;
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.0.borrow_mut();
        let room = MAX_CELL_OUTPUT.saturating_sub(s.written);
        s.written = s.written.saturating_add(buf.len());
        s.pending.extend_from_slice(&buf[..buf.len().min(room)]);
        if s.pending.len() >= CHUNK || s.since.elapsed() >= PATIENCE {
            s.send();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.0.borrow_mut().send();
        Ok(())
    }
}

/// How `out G` (a world, a picture, a state space printed alone) shows in the notebook: drawn,
/// as `display_data`, after what the cell printed before it.
fn shower(out: Output, events: UnboundedSender<Event>) -> ds_core::eval::Shower {
    Box::new(move |world, value| {
        let Some(data) = display::drawn(world, value) else { return false };
        out.0.borrow_mut().send();
        let _ = events.send(Event::Iopub("display_data", json!({ "data": data, "metadata": {} })));
        true
    })
}

pub struct Runner {
    backend: Backend,
    out: Output,
    err: Output,
    events: UnboundedSender<Event>,
    count: u32,
    interrupter: Interrupter,
    /// The cells run without error, for completion (`server::Link::cells`).
    cells: Arc<Mutex<String>>,
}

impl Runner {
    pub fn new(events: UnboundedSender<Event>) -> Runner {
        let out = Output::new("stdout", events.clone());
        let err = Output::new("stderr", events.clone());
        let mut session = Session::new(Box::new(out.clone()));
        ds_native::lend(&mut session.interp);
        session.interp.warnings.sink = Box::new(err.clone());
        session.interp.show = Some(shower(out.clone(), events.clone()));
        let backend = Backend::new(session);
        // SIGINT too stops a running cell (a front end may send it), never the kernel.
        let interrupter = Interrupter::install(backend.interrupt_flag(), WhenIdle::Ignore);
        Runner { backend, out, err, events, count: 0, interrupter, cells: Arc::default() }
    }

    pub fn interrupt_flag(&self) -> Arc<std::sync::atomic::AtomicBool> {
        self.backend.interrupt_flag()
    }

    pub fn cells(&self) -> Arc<Mutex<String>> {
        self.cells.clone()
    }

    /// Runs cells until the protocol side goes away.
    pub fn serve(mut self, jobs: std::sync::mpsc::Receiver<Message>) {
        while let Ok(request) = jobs.recv() {
            let stop_on_error = request.content["stop_on_error"].as_bool().unwrap_or(true);
            let reply = self.execute(request);
            if reply["status"] == "error" && stop_on_error {
                // Jupyter's rule: an error aborts the cells sent before it ended ("run all"
                // stops at the first cell that fails instead of running on in a broken state).
                // Before the reply goes: a cell sent once the reply came must run.
                while let Ok(queued) = jobs.try_recv() {
                    let _ = self.events.send(Event::Aborted(queued));
                }
            }
            let _ = self.events.send(Event::Done(reply));
        }
    }

    /// Runs one cell; the content of its reply.
    fn execute(&mut self, request: Message) -> Value {
        let code = request.content["code"].as_str().unwrap_or("").to_string();
        let silent = request.content["silent"].as_bool().unwrap_or(false);
        if !silent {
            self.count += 1;
        }
        let _ = self.events.send(Event::Start(request, self.count));
        let backend = &mut self.backend;
        let (reply, value) = self.interrupter.busy(|| backend.eval_cell(&code));
        self.out.finish();
        if reply.quit {
            let note = "note: `System.exit` ends a script, not the kernel: the session goes on\n";
            let _ = self.err.clone().write_all(note.as_bytes());
        }
        self.err.finish();
        let content = if reply.failed() {
            let error = error_content(&reply.errors);
            let _ = self.events.send(Event::Iopub("error", error.clone()));
            let mut content = error;
            content["status"] = json!("error");
            content
        } else {
            self.remember(&code);
            if let Some(v) = value.filter(|_| !silent) {
                let data = display::shown(&mut self.backend, &v);
                let result = json!({ "execution_count": self.count, "data": data, "metadata": {} });
                let _ = self.events.send(Event::Iopub("execute_result", result));
            }
            json!({ "status": "ok", "payload": [], "user_expressions": {} })
        };
        let mut content = content;
        content["execution_count"] = json!(self.count);
        content
    }
}

impl Runner {
    /// Keeps a cell's code for completion (not a REPL command: no code to analyse).
    fn remember(&self, code: &str) {
        if code.trim_start().starts_with(':') {
            return;
        }
        if let Ok(mut cells) = self.cells.lock() {
            cells.push_str(code);
            cells.push('\n');
        }
    }
}

/// The content of an error: the first line of the diagnostics as the value, all of them (with
/// the source line and its caret) as the traceback.
fn error_content(errors: &str) -> Value {
    let first = errors.lines().next().unwrap_or("error");
    let evalue = first.strip_prefix("error: ").unwrap_or(first);
    let ename = if evalue.contains("interrupted") { "Interrupted" } else { "Error" };
    json!({ "ename": ename, "evalue": evalue, "traceback": errors.lines().collect::<Vec<_>>() })
}

//! The interpreter side of `ds kernel`: one REPL backend, so cells share a session as REPL
//! entries do, run one after another on the big-stack thread. What a cell prints streams to
//! the front end in chunks while it runs, bounded per cell; its last value is shown richly
//! (`display`); an error comes back with the diagnostic as the command line renders it.

use super::cap::OutputCap;
use super::display;
use super::failed::{error_content, FailedCells};
use super::message::Message;
use super::server::Event;
use ds_core::session::Session;
use ds_core::value::Value;
use ds_repl::{Backend, Interrupter, WhenIdle};
use serde_json::{json, Value as Json};
use std::io::{self, Write};
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedSender;

/// What one cell may print before the rest is dropped (a notebook holding 10 MB of output
/// is one no browser opens).
/// Output is sent when this much is waiting, or when it has waited this long (checked at every
/// write, and twice as often by `send_waiting`: so within 100 ms of its writing).
const CHUNK: usize = 16 << 10;
const PATIENCE: Duration = Duration::from_millis(50);

/// One output stream (`stdout` or `stderr`) of the running cell.
struct Stream {
    name: &'static str,
    events: UnboundedSender<Event>,
    pending: Vec<u8>,
    since: Instant,
    cap: OutputCap,
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

/// A writer for the session's output (or its warnings) that forwards to a `Stream`, shared with
/// the thread that sends what waits (`send_waiting`).
#[derive(Clone)]
struct Output(Arc<Mutex<Stream>>);

impl Output {
    fn new(name: &'static str, events: UnboundedSender<Event>) -> Output {
        let stream = Stream { name, events, pending: Vec::new(), since: Instant::now(), cap: OutputCap::default() };
        Output(Arc::new(Mutex::new(stream)))
    }

    fn lock(&self) -> MutexGuard<'_, Stream> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Ends a cell: sends the rest, with a note when output was dropped, and starts afresh.
    fn finish(&self) {
        let mut s = self.lock();
        if let Some(note) = s.cap.end() {
            s.pending.extend_from_slice(note.as_bytes());
        }
        s.send();
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut s = self.lock();
        let shown = s.cap.shown(buf.len());
        s.pending.extend_from_slice(&buf[..shown]);
        if s.pending.len() >= CHUNK || s.since.elapsed() >= PATIENCE {
            s.send();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lock().send();
        Ok(())
    }
}

/// Sends what the streams hold once it has waited `PATIENCE`, while the cell runs on (a cell
/// that prints, then computes for a minute, shows what it printed at once); ends with them.
fn send_waiting(streams: [Weak<Mutex<Stream>>; 2]) {
    let spawned = std::thread::Builder::new().name("ds-kernel-output".into()).spawn(move || loop {
        std::thread::sleep(PATIENCE / 2);
        for stream in &streams {
            let Some(stream) = stream.upgrade() else { return };
            let mut s = stream.lock().unwrap_or_else(|p| p.into_inner());
            if !s.pending.is_empty() && s.since.elapsed() >= PATIENCE {
                s.send();
            }
        }
    });
    if spawned.is_err() {
        ds_base::eprintln_safe!("ds kernel: output shows when a cell writes again or ends (no thread to send it)");
    }
}

/// How `out G` (a world, a picture, a state space printed alone) shows in the notebook: drawn,
/// as `display_data`, after what the cell printed before it.
fn shower(out: Output, events: UnboundedSender<Event>, tables: Tables) -> ds_core::eval::Shower {
    Box::new(move |world, value| {
        let Some(data) = display::drawn(world, value) else { return false };
        if let Value::Array(rows) = value {
            tables.borrow_mut().push(rows.clone());
        }
        let mut stream = out.lock();
        stream.send();
        // A drawing counts against the cell's output cap as text does: past it, it is dropped
        // (and counted in the note that ends the cell).
        if stream.cap.admit(display::size(&data)) {
            let _ = events.send(Event::Iopub("display_data", json!({ "data": data, "metadata": {} })));
        }
        true
    })
}

/// The tables (`Search.compare`'s rows) the running cell has shown: its value, if it is one of
/// them, is not shown a second time.
type Tables = Rc<std::cell::RefCell<Vec<ds_core::value::ArrayRef>>>;

pub struct Runner {
    backend: Backend,
    out: Output,
    err: Output,
    events: UnboundedSender<Event>,
    count: u32,
    interrupter: Interrupter,
    /// The cells run without error, for completion (`server::Link::cells`).
    cells: Arc<Mutex<String>>,
    /// The names of the cells that did not compile.
    failed: FailedCells,
    tables: Tables,
}

impl Runner {
    pub fn new(events: UnboundedSender<Event>) -> Runner {
        let out = Output::new("stdout", events.clone());
        let err = Output::new("stderr", events.clone());
        let mut session = Session::new(Box::new(out.clone()));
        ds_native::lend(&mut session.interp);
        session.interp.warnings.sink = Box::new(err.clone());
        let tables = Tables::default();
        session.interp.show = Some(shower(out.clone(), events.clone(), tables.clone()));
        super::progress::install(events.clone());
        session.interp.status_line = Some(super::progress::in_notebook);
        let backend = Backend::new(session);
        send_waiting([Arc::downgrade(&out.0), Arc::downgrade(&err.0)]);
        // SIGINT too stops a running cell (a front end may send it), never the kernel.
        let interrupter = Interrupter::install(backend.interrupt_flag(), WhenIdle::Ignore);
        Runner {
            backend,
            out,
            err,
            events,
            count: 0,
            interrupter,
            cells: Arc::default(),
            failed: FailedCells::default(),
            tables,
        }
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
    fn execute(&mut self, request: Message) -> Json {
        let code = request.content["code"].as_str().unwrap_or("").to_string();
        let silent = request.content["silent"].as_bool().unwrap_or(false);
        if !silent {
            self.count += 1;
        }
        let _ = self.events.send(Event::Start(request, self.count));
        let backend = &mut self.backend;
        self.tables.borrow_mut().clear();
        let (reply, value) = self.interrupter.busy(|| backend.eval_cell(&code));
        self.out.finish();
        if reply.quit {
            let note = "note: `System.exit` ends a script, not the kernel: the session goes on\n";
            let _ = self.err.clone().write_all(note.as_bytes());
        }
        self.err.finish();
        let content = if reply.failed() {
            let errors = self.failed.error_text(&reply.errors, reply.compile_failed, self.count, &code);
            let error = error_content(&errors);
            let _ = self.events.send(Event::Iopub("error", error.clone()));
            let mut content = error;
            content["status"] = json!("error");
            content
        } else {
            self.remember(&code);
            let shown =
                |v: &Value| matches!(v, Value::Array(a) if self.tables.borrow().iter().any(|t| Rc::ptr_eq(t, a)));
            if let Some(v) = value.filter(|v| !silent && !shown(v)) {
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
    /// Keeps a cell's code for completion and inspection (`replies::ran`).
    fn remember(&mut self, code: &str) {
        let mut cells = self.cells.lock().unwrap_or_else(|p| p.into_inner());
        super::replies::ran(code, &mut cells, &mut self.failed);
    }
}

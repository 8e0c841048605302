//! One run of a script in the playground, with nothing of the browser in it (so that the native
//! tests can run it): the request the page sends (the program, its arguments, the folder of
//! files `#include` and `File.open` see, the limits) and the answer it gets back. Output goes
//! to a sink while the script runs, in chunks, so that the page shows it as it comes.

use ds_base::diagnostics::Severity;
use ds_base::Diagnostic;
use ds_core::eval::Limits;
use ds_core::files::MemoryFiles;
use ds_core::{Outcome, Session};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::rc::Rc;
use web_time::{Duration, Instant};

/// What the page asks for.
#[derive(Debug)]
pub struct Request {
    pub source: String,
    /// The program's file name: errors name it, and its `#include`s are relative to its folder.
    pub name: String,
    /// `System.args`.
    pub args: Vec<String>,
    /// The folder the script sees, path -> text (scripts/ of the repository).
    pub files: BTreeMap<String, String>,
    pub limits: RunLimits,
    /// Explore the state space once the script has run (the Explore panel), instead of only
    /// running it.
    pub explore: Option<crate::explore::Exploring>,
}

/// The limits of one run; each one missing means no limit (the page fills in its defaults).
#[derive(Debug, Default)]
pub struct RunLimits {
    pub max_steps: Option<u64>,
    pub timeout_ms: Option<u64>,
    pub max_memory_bytes: Option<u64>,
    pub max_depth: Option<usize>,
    /// How much of the module's stack a run may use (the page's measure of the browser's own
    /// stack, after it ran out once): recursion past it is the interpreter's error.
    pub stack_bytes: Option<u64>,
}

/// What the page gets back once the run is over.
#[derive(Debug)]
pub struct Response {
    /// "finished", "compile_error", "runtime_error", "exited" or "bad_request".
    pub status: &'static str,
    /// The code given to `System.exit` (0 when the script finished).
    pub exit_code: i32,
    pub diagnostics: Vec<Place>,
    /// The files the script wrote, in the order first written.
    pub files_written: Vec<WrittenFile>,
    pub ms: f64,
    /// The current graph (`GRAPH`) at the end, `{name, facts}` as `Search.explore`'s JSON gives
    /// a state, for the page to draw the world; None when it is no graph, has no facts or too
    /// many to draw.
    pub world: Option<serde_json::Value>,
    /// For an explore request: `{"ready": true}` once the explorer answers the API, or
    /// `{"error": text}`; None when the script did not finish.
    pub explorer: Option<serde_json::Value>,
}

/// A diagnostic, placed in its file (1-based lines and columns, the end exclusive).
#[derive(Debug)]
pub struct Place {
    pub file: String,
    pub line: usize,
    pub col: usize,
    pub end_line: usize,
    pub end_col: usize,
    pub severity: &'static str,
    pub message: String,
    /// The whole diagnostic as the command line prints it.
    pub rendered: String,
}

#[derive(Debug)]
pub struct WrittenFile {
    pub path: String,
    pub text: String,
}

/// What a run writes: the script's output, the warnings, and a graph `out G` printed alone,
/// which the page draws (its text is JSON: `{"graph": {name, facts}, "text": what `out` would
/// have printed}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    Out,
    Err,
    Shown,
    /// The live line of a long search (`status.rs`): "" when it ends.
    Status,
}

/// Where the chunks of output go (the worker posts them to the page).
pub type Sink = Rc<RefCell<dyn FnMut(Stream, &str)>>;

/// Runs a request given as JSON and answers in JSON: bad JSON is an answer too, never a panic.
pub fn run_json(request: &str, sink: Sink) -> String {
    let response = match crate::wire::request(request) {
        Ok(mut request) => match request.explore.take() {
            Some(exploring) => crate::explore::explore(request, exploring, sink),
            None => run(request, sink),
        },
        Err(e) => bad_request(format!("the playground sent a request the engine cannot read: {e}")),
    };
    crate::wire::response(&response)
}

fn bad_request(message: String) -> Response {
    let place = Place {
        file: String::new(),
        line: 0,
        col: 0,
        end_line: 0,
        end_col: 0,
        severity: "error",
        rendered: format!("error: {message}\n"),
        message,
    };
    Response {
        status: "bad_request",
        exit_code: 2,
        diagnostics: vec![place],
        files_written: Vec::new(),
        ms: 0.0,
        world: None,
        explorer: None,
    }
}

/// Runs one script in a fresh session over a fresh folder.
pub fn run(request: Request, sink: Sink) -> Response {
    run_keeping(request, sink).0
}

/// The script a worker runs once when it starts (warm_up.ds): the browser compiles each of the
/// engine's functions when it is first called, and the busy ones again, faster, later; without
/// this the user's first run paid for that (docs/performance.md, "A smaller, faster start").
pub const WARM_UP: &str = include_str!("warm_up.ds");

/// Runs `WARM_UP` with its output dropped; its answer says whether it ran to its end.
pub fn warm_up() -> Response {
    let limits = RunLimits { timeout_ms: Some(5000), ..RunLimits::default() };
    let files = BTreeMap::new();
    let request =
        Request { source: WARM_UP.into(), name: "warm_up.ds".into(), args: Vec::new(), files, limits, explore: None };
    run(request, Rc::new(RefCell::new(|_: Stream, _: &str| {})))
}

/// Runs one script as `run` does, and gives its session back (for the explorer).
pub fn run_keeping(request: Request, sink: Sink) -> (Response, Session) {
    let started = Instant::now();
    let files = MemoryFiles::default();
    for (path, text) in &request.files {
        files.insert(path, text);
    }
    let _budget = StackBudget::narrow(request.limits.stack_bytes);
    let out = Shared(Rc::new(RefCell::new(Chunks::new(sink.clone(), Stream::Out))));
    let out_flusher = out.clone();
    let mut session = Session::new(Box::new(out));
    session.interp.warnings.sink = Box::new(Chunks::new(sink.clone(), Stream::Err));
    session.interp.set_notes(Box::new(Chunks::new(sink.clone(), Stream::Err)));
    session.interp.show = Some(shower(out_flusher, sink.clone()));
    let _posting = crate::status::posting_to(sink);
    session.interp.status_line = Some(crate::status::on_page);
    session.interp.set_files(Box::new(files.clone()));
    session.interp.args = request.args;
    // File.scriptDir() is the program's folder in the playground's folder.
    let dir = PathBuf::from(&request.name).parent().map(PathBuf::from).unwrap_or_default();
    session.interp.script_dir = Some(if dir.as_os_str().is_empty() { PathBuf::from(".") } else { dir });
    session.set_limits(limits(&request.limits, started));
    ds_base::guard::memory::set_limit(
        request.limits.max_memory_bytes.map(|b| b as usize),
        ds_base::guard::memory::Source::Host,
    );

    let outcome = session.run_source(&request.name, &request.source);
    let _ = session.interp.out.flush();
    let (status, exit_code, diags) = match outcome {
        Outcome::Finished(_) => ("finished", 0, Vec::new()),
        Outcome::Exited(code) => ("exited", code, Vec::new()),
        Outcome::CompileErrors(d) => ("compile_error", 1, d),
        Outcome::RuntimeError(d) => ("runtime_error", 1, vec![*d]),
    };
    let diagnostics = diags.iter().map(|d| place(&session, d)).collect();
    let files_written = files
        .written()
        .into_iter()
        .map(|path| WrittenFile { text: files.get(&path).unwrap_or_default(), path })
        .collect();
    let world = world(&session);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    (Response { status, exit_code, diagnostics, files_written, ms, world, explorer: None }, session)
}

/// The most facts of a world the page draws.
const MAX_WORLD_FACTS: usize = 2000;

/// The current graph at the end, for the page to draw (see `Response::world`).
fn world(session: &Session) -> Option<serde_json::Value> {
    drawable(&session.interp.world, &session.interp.graph)
}

/// A graph as the page draws it (`{name, facts}`, as `Search.explore`'s JSON gives a state);
/// None for another value, a graph without facts or with too many to draw.
fn drawable(world: &ds_core::world::World, value: &ds_core::value::Value) -> Option<serde_json::Value> {
    let ds_core::value::Value::Graph(g) = value else { return None };
    let facts = g.borrow().facts.len();
    if facts == 0 || facts > MAX_WORLD_FACTS {
        return None;
    }
    Some(serde_json::Value::Object(ds_core::search::export::state_fields(world, value)))
}

/// `out G` of a graph (alone, to the console) is drawn by the page, with its text, after what
/// was printed before it (core hook `Interp::show`, as the notebook's).
fn shower(out: Shared, sink: Sink) -> ds_core::eval::Shower {
    Box::new(move |world, value| {
        let Some(graph) = drawable(world, value) else { return false };
        let text = ds_core::value::display::to_text(value, world) + "\n";
        out.0.borrow_mut().send();
        let shown = serde_json::json!({ "graph": graph, "text": text });
        (sink.borrow_mut())(Stream::Shown, &shown.to_string());
        true
    })
}

/// The output's writer, shared with the shower (which sends what waits before a drawing).
#[derive(Clone)]
struct Shared(Rc<RefCell<Chunks>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.borrow_mut().flush()
    }
}

/// The stack floor narrowed for one run to `bytes` below here (never lowered), and put back when
/// the run is over.
pub(crate) struct StackBudget(usize);

impl StackBudget {
    pub(crate) fn narrow(bytes: Option<u64>) -> StackBudget {
        let old = ds_base::guard::stack::floor();
        if let Some(bytes) = bytes {
            let bytes = usize::try_from(bytes).unwrap_or(usize::MAX);
            ds_base::guard::stack::set_floor(old.max(ds_base::guard::stack::here().saturating_sub(bytes)));
        }
        StackBudget(old)
    }
}

impl Drop for StackBudget {
    fn drop(&mut self) {
        ds_base::guard::stack::set_floor(self.0);
    }
}

/// The core's limits for a run that starts at `started`.
fn limits(asked: &RunLimits, started: Instant) -> Limits {
    let defaults = Limits::default();
    Limits {
        max_depth: asked.max_depth.unwrap_or(defaults.max_depth).max(1),
        max_steps: asked.max_steps,
        deadline: asked.timeout_ms.and_then(|ms| started.checked_add(Duration::from_millis(ms))),
        ..defaults
    }
}

/// Where a diagnostic is, for the editor to mark it.
fn place(session: &Session, d: &Diagnostic) -> Place {
    let sources = session.sources();
    let (line, col) = sources.line_col(d.span.file, d.span.lo);
    let (end_line, end_col) = sources.line_col(d.span.file, d.span.hi);
    Place {
        file: sources.name(d.span.file).unwrap_or_default().to_string(),
        line,
        col,
        end_line,
        end_col,
        severity: if d.severity == Severity::Warning { "warning" } else { "error" },
        message: d.message.clone(),
        rendered: session.render(std::slice::from_ref(d), false),
    }
}

/// A writer that hands what it is given to the sink as it comes, but in chunks once a script
/// prints fast: at most `BURST` messages every `WINDOW`, or when `MAX_CHUNK` bytes wait, and the
/// rest when flushed. One message per `out` would flood the page; one at the end would show
/// nothing while the script runs.
pub(crate) struct Chunks {
    sink: Sink,
    stream: Stream,
    waiting: Vec<u8>,
    window: Instant,
    sent: u32,
}

const WINDOW: Duration = Duration::from_millis(50);
const BURST: u32 = 16;
const MAX_CHUNK: usize = 64 << 10;

impl Chunks {
    pub(crate) fn new(sink: Sink, stream: Stream) -> Chunks {
        Chunks { sink, stream, waiting: Vec::new(), window: Instant::now(), sent: 0 }
    }

    /// Whether to send now: a new window starts once the last one is over.
    fn due(&mut self) -> bool {
        if self.window.elapsed() >= WINDOW {
            self.window = Instant::now();
            self.sent = 0;
        }
        self.sent < BURST || self.waiting.len() >= MAX_CHUNK
    }

    /// Sends the waiting text up to its last whole character (a character may be cut between
    /// two writes; its start waits for the rest).
    fn send(&mut self) {
        let whole = match std::str::from_utf8(&self.waiting) {
            Ok(_) => self.waiting.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(_) => self.waiting.len(),
        };
        if whole > 0 {
            let text = String::from_utf8_lossy(&self.waiting[..whole]).into_owned();
            self.waiting.drain(..whole);
            self.sent += 1;
            (self.sink.borrow_mut())(self.stream, &text);
        }
    }
}

impl Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.waiting.extend_from_slice(buf);
        if self.due() {
            self.send();
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.send();
        Ok(())
    }
}

impl Drop for Chunks {
    fn drop(&mut self) {
        self.send();
    }
}

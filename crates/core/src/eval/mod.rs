//! The tree-walking evaluator over the resolved program (`compile::ir`).

mod append;
mod attrs;
mod closure;
mod code;
mod compound;
mod edges;
mod exists;
mod expr;
mod meter;
pub mod mind;
mod node_test;
mod numeric;
mod ops;
pub mod print;
pub mod random;
pub mod sink;
mod stmt;

use crate::compile::ir::{DemonId, FnCode, Slot};
use crate::value::code::CodeRef;
use crate::value::display::to_text;
use crate::value::{NodeVal, Value};
use crate::world::{ClassId, GraphRef, NodeId, World};
use ds_base::diagnostics::{Diagnostic, SourceMap, Warnings};
use ds_syntax::Span;
use std::io::Write;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use web_time::{Duration, Instant};

/// How long output may wait unsent while the script computes (`Interp::out_waiting`).
const OUTPUT_PATIENCE: Duration = Duration::from_millis(75);

/// How control leaves an expression or statement other than by finishing normally.
#[derive(Debug)]
pub enum Flow {
    /// `return`: the value waits in `Interp::returned`, so that a `Flow` (and every
    /// statement's result) stays two words, returned in registers.
    Return,
    Break,
    Continue,
    Error(Box<Diagnostic>),
    /// `System.exit(code)`: stop the whole program with this exit status.
    Exit(i32),
}

pub(crate) use attrs::{get_attr, lineage, set_attr};
pub use closure::FastBody;
pub use ds_base::diagnostics::Limit;
pub use meter::{limit_error, Meter};
pub use print::{Quiet, Text};
pub use stmt::range_bounds;

pub type R<T> = Result<T, Flow>;

/// A runtime error at `span`.
pub fn fail<T>(span: Span, message: impl Into<String>) -> R<T> {
    let mut d = Diagnostic::error(span, message);
    d.runtime = true;
    Err(Flow::Error(Box::new(d)))
}

/// The code of a demon or lambda value, to run it.
pub fn runnable(code: CodeRef, span: Span) -> R<Rc<FnCode>> {
    match FnCode::of(code) {
        Some(code) => Ok(code),
        None => fail(span, "this function value has no code to run"),
    }
}

/// Where `fout` writes once `fopen` opened a file (`builtins/file.rs`).
pub trait TextSink {
    fn write_text(&self, it: &mut Interp, text: &str, span: Span) -> R<()>;
}

/// Limits that stop a runaway script with a clear message.
#[derive(Debug, Clone)]
pub struct Limits {
    pub max_depth: usize,
    pub max_steps: Option<u64>,
    pub deadline: Option<Instant>,
    /// A search stopped on `--timeout` or `--max-steps` already gave the script its grace
    /// (`Interp::grant_grace`).
    pub grace_used: bool,
    /// Steps allowed past `max_steps` by that grace.
    pub step_grace: u64,
    /// The limit, `--timeout` or `--max-steps`, that stopped a search: the run ends with status
    /// 1 even when the script ends within its grace (issue 41).
    pub search_stopped: Option<ds_base::diagnostics::Limit>,
    /// A signal that stops a search ends the run too (a plain `ds FILE`); where a person is at
    /// the controls (the REPL, `ds -i`, the explorer) the search stops with reason
    /// `interrupted` and the script goes on.
    pub interrupt_ends_run: bool,
}

impl Limits {
    /// The step count past which the run stops.
    pub fn step_limit(&self) -> Option<u64> {
        self.max_steps.map(|m| m.saturating_add(self.step_grace))
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 10_000,
            max_steps: None,
            deadline: None,
            grace_used: false,
            step_grace: 0,
            search_stopped: None,
            interrupt_ends_run: false,
        }
    }
}

pub struct Interp {
    /// The lowest native stack address the evaluator may reach (`host::stack`; 0 on a thread
    /// whose stack is not known, which is then not checked).
    stack_floor: usize,
    pub world: World,
    pub globals: Vec<Value>,
    /// Locals of all active demon frames; `base` is where the running one starts.
    stack: Vec<Value>,
    base: usize,
    /// The current graph (`GRAPH`); any value may be assigned to it.
    pub graph: Value,
    pub demons: Vec<Option<Rc<FnCode>>>,
    pub out: Box<dyn Write>,
    /// Where the notes of `G.verbose` and `Mind.verbose` go (standard error by default).
    notes: Box<dyn Write>,
    /// Nested `eval`s in progress: with the demon calls (`call_sites`), what `--max-depth`
    /// limits.
    evals: usize,
    /// The value of the `return` being carried out (see `Flow::Return`).
    returned: Value,
    /// Private so that every change goes through `limits_mut`, which has the next step
    /// check the limits again.
    limits: Limits,
    steps: u64,
    /// The step count at which `tick` next calls `check_limits`: the next multiple of 1024
    /// (Ctrl-C, the deadline, the memory limit), or the step limit + 1 if that comes first.
    /// One comparison a step instead of three tests.
    next_check: u64,
    pub interrupt: Arc<AtomicBool>,
    pub args: Vec<String>,
    /// When `System.time()` was last reset (the start, at first).
    timer: Instant,
    pub script_dir: Option<std::path::PathBuf>,
    /// The compiler's state for the program so far: `eval` compiles against it.
    pub compiler: crate::compile::Compiler,
    /// The file `fout` writes to, opened by `fopen` (None: `fout` prints like `out`).
    fout: Option<Rc<dyn TextSink>>,
    /// The axioms and settings of the `Mind` module.
    pub mind: crate::mind::Mind,
    /// Where each demon call in progress was made (`System.line(depth)`).
    call_sites: Vec<Span>,
    /// The start offset of every line of each source file, to turn a place into a line number.
    line_starts: rustc_hash::FxHashMap<ds_syntax::FileId, Rc<[u32]>>,
    /// The source files, for rendering diagnostics (run-time warnings are shown as they happen).
    pub sources: SourceMap,
    pub warnings: Warnings,
    /// The compiled conditions of node loops, by the address of the condition
    /// (`node_test::cached_test`).
    node_tests: rustc_hash::FxHashMap<usize, Rc<node_test::NodeTest>>,
    /// What the script's output does now: a worker of a search on several threads drops it or
    /// refuses it (`search::workers`).
    pub quiet: Quiet,
    /// How the host starts threads (None: it has none, as in a browser): a long pattern match
    /// runs on one of its own, so that a limit can stop the script while it runs.
    pub spawn: Option<Arc<dyn crate::hooks::Spawn>>,
    /// The pseudo-random numbers of `Math.random` (this interpreter's own sequence).
    pub random: random::Random,
    /// What builtin modules keep for this interpreter (compiled regular expressions), one
    /// value per type (`Interp::kept`).
    kept: rustc_hash::FxHashMap<std::any::TypeId, Box<dyn std::any::Any>>,
    /// The files the script reads and writes, and which it may touch (`--sandbox`, the fuzz
    /// target's scratch policy, the playground's folder in memory).
    files: Box<dyn crate::files::Files>,
    /// How the host shows a long search while it runs (None: it does not).
    pub status_line: Option<crate::hooks::StatusLineMaker>,
    /// Since when output has waited in `out` (None: nothing waits). A check of the limits
    /// sends it once it has waited `OUTPUT_PATIENCE`: a script that prints, then computes,
    /// shows what it printed, where the output is held until the next write (a pipe, the
    /// playground, a notebook in the browser).
    out_waiting: Option<Instant>,
    /// How the host shows a value that `out` prints alone (`out G`): the notebook draws a graph
    /// or a picture. Returns whether it showed it; `out` then prints nothing of it.
    pub show: Option<Shower>,
    /// Where the search's `Next` call in progress pushes its successors (`eval/sink.rs`).
    sink: Option<sink::Sink>,
}

/// A host's way to show a value (`Interp::show`).
pub type Shower = Box<dyn FnMut(&crate::world::World, &Value) -> bool>;

/// How a frame runs its body (`Interp::run_frame_with`), and the result it gives. (A trait,
/// not a closure, so that it is inlined into the call as `run_frame` is.)
trait RunBody {
    type Out;
    fn run(self, it: &mut Interp, code: &Rc<FnCode>) -> R<Self::Out>;
}

/// The body's value (with the value assigned, for a `set:` section).
struct AsValue(Option<Value>);

impl RunBody for AsValue {
    type Out = Value;
    #[inline(always)]
    fn run(self, it: &mut Interp, code: &Rc<FnCode>) -> R<Value> {
        match self.0 {
            None => match it.run_fast_body(code) {
                Some(result) => result,
                None => it.run_fn_body(code, None),
            },
            set_value => it.run_fn_body(code, set_value),
        }
    }
}

/// The body's value as a number (`Interp::call_compiled_num`).
struct AsNumber;

impl RunBody for AsNumber {
    type Out = f64;
    #[inline(always)]
    fn run(self, it: &mut Interp, code: &Rc<FnCode>) -> R<f64> {
        it.run_fast_num(code)
    }
}

impl Interp {
    /// An interpreter whose programs call the builtins of `registry` (`builtins::registry()`).
    pub fn new(out: Box<dyn Write>, registry: &'static crate::compile::registry::Registry) -> Interp {
        let mut world = World::new();
        let graph = Value::Graph(world.new_graph("GRAPH"));
        Interp {
            stack_floor: ds_base::guard::stack::floor(),
            world,
            globals: Vec::new(),
            stack: Vec::new(),
            base: 0,
            graph,
            demons: Vec::new(),
            out,
            notes: Box::new(std::io::stderr()),
            evals: 0,
            returned: Value::None,
            limits: Limits::default(),
            steps: 0,
            next_check: 0,
            interrupt: Arc::new(AtomicBool::new(false)),
            args: Vec::new(),
            timer: Instant::now(),
            script_dir: None,
            fout: None,
            compiler: crate::compile::Compiler::new(registry),
            mind: crate::mind::Mind::default(),
            call_sites: Vec::new(),
            line_starts: Default::default(),
            sources: SourceMap::default(),
            warnings: Warnings::default(),
            node_tests: Default::default(),
            sink: None,
            quiet: Quiet::Off,
            spawn: None,
            random: Default::default(),
            kept: Default::default(),
            files: Box::new(crate::files::MemoryFiles::default()),
            status_line: None,
            out_waiting: None,
            show: None,
        }
    }

    /// The time since `System.time()` was last reset (since the start, at first); `reset`
    /// starts it again.
    pub fn timer(&mut self, reset: bool) -> std::time::Duration {
        let elapsed = self.timer.elapsed();
        if reset {
            self.timer = Instant::now();
        }
        elapsed
    }

    /// Sets the file `fout` writes to (None: the console again); whether one was set before.
    pub fn set_fout(&mut self, f: Option<Rc<dyn TextSink>>) -> bool {
        std::mem::replace(&mut self.fout, f).is_some()
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The limits to change: the next step checks them all and sets its threshold again.
    pub fn limits_mut(&mut self) -> &mut Limits {
        self.next_check = 0;
        &mut self.limits
    }

    /// The calls in progress that `--max-depth` limits: demon calls and nested `eval`s.
    #[inline(always)]
    fn depth(&self) -> usize {
        self.call_sites.len() + self.evals
    }

    /// Where the demon call `depth` levels up was made (None past the top).
    pub fn call_site(&self, depth: usize) -> Option<Span> {
        self.call_sites.len().checked_sub(depth).and_then(|i| self.call_sites.get(i)).copied()
    }

    /// The files the script reads and writes.
    pub fn files(&self) -> &dyn crate::files::Files {
        &*self.files
    }

    pub fn files_mut(&mut self) -> &mut dyn crate::files::Files {
        &mut *self.files
    }

    /// Sets the files the script reads and writes, and which it may touch.
    pub fn set_files(&mut self, files: Box<dyn crate::files::Files>) {
        self.files = files;
    }

    /// Takes `len` bytes from the files' allowance before a write.
    pub fn charge_write(&mut self, len: usize, span: Span) -> R<()> {
        self.files.charge_write(len).or_else(|e| fail(span, e))
    }

    /// The value of type T this interpreter keeps for a builtin module (made the first time),
    /// so that nothing of one interpreter outlives it or is seen by another on the same thread.
    pub fn kept<T: Default + 'static>(&mut self) -> &mut T {
        let v = self.kept.entry(std::any::TypeId::of::<T>()).or_insert_with(|| Box::new(T::default()));
        v.downcast_mut::<T>().expect("kept values are stored under their own type")
    }

    /// A run-time warning: shown the first time its place warns (after the output so far, so
    /// that the two stay in order on a terminal), or an error under `--deny-warnings`.
    pub fn warn(&mut self, d: Diagnostic) -> R<()> {
        if self.warnings.deny {
            let mut d = d.denied();
            d.runtime = true;
            return Err(Flow::Error(Box::new(d)));
        }
        if self.warnings.first_at(d.span) {
            let _ = self.out.flush();
            let text = self.sources.render(&d, self.warnings.color);
            self.warnings.write(&text);
        }
        Ok(())
    }

    /// Shows warnings found before the run (they never stop it: see `Session`).
    pub fn show_warnings(&mut self, diags: &[Diagnostic]) {
        let text: String = diags.iter().map(|d| self.sources.render(d, self.warnings.color)).collect();
        let _ = self.out.flush();
        self.warnings.write(&text);
    }

    /// A note on standard error (`G.verbose`, `Mind.verbose`), after the output printed before
    /// it, so that the two stay in order when they go to the same terminal or file.
    pub fn note(&mut self, text: std::fmt::Arguments) {
        if self.quiet != Quiet::Off {
            return;
        }
        let _ = self.out.flush();
        let _ = writeln!(self.notes, "note: {text}"); // a closed standard error is not the script's error
    }

    /// Sends the notes of `G.verbose` and `Mind.verbose` to `w` instead of standard error.
    pub fn set_notes(&mut self, w: Box<dyn Write>) {
        self.notes = w;
    }

    /// Remembers where the lines of a source file start (for `System.line`).
    pub fn add_source_lines(&mut self, file: ds_syntax::FileId, src: &str) {
        let starts = std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i as u32 + 1)).collect();
        self.line_starts.insert(file, starts);
    }

    /// The 1-based line of a place in a source file (0 if the file is not known).
    pub fn line_of(&self, span: Span) -> usize {
        self.line_starts.get(&span.file).map_or(0, |starts| starts.partition_point(|&s| s <= span.lo))
    }

    /// Starts a `return` of `v`.
    pub(crate) fn return_value(&mut self, v: Value) -> Flow {
        std::mem::replace(&mut self.returned, v).discard();
        Flow::Return
    }

    /// The value of the `return` that just ended (None after the first take).
    pub fn take_returned(&mut self) -> Value {
        std::mem::take(&mut self.returned)
    }

    pub fn ensure_globals(&mut self, count: u32) {
        if self.globals.len() < count as usize {
            self.globals.resize(count as usize, Value::None);
        }
    }

    #[inline(always)]
    fn get(&self, slot: Slot) -> &Value {
        match slot {
            Slot::Local(i) => &self.stack[self.base + i as usize],
            Slot::Global(i) => &self.globals[i as usize],
        }
    }

    /// Local `i` of the running demon's frame. Only compiled bodies (`eval/closure`) read it,
    /// and they run only inside `run_frame_with`, which makes the stack at least `base +
    /// frame_size` long; a frame above pops only down to its own base, above that; and the
    /// compiler numbers locals below `frame_size`. So the bounds check (a compare and a branch
    /// on every read, four reads a `fib` call) is left to debug builds.
    #[inline(always)]
    fn local(&self, i: usize) -> &Value {
        debug_assert!(self.base + i < self.stack.len());
        // SAFETY: `base + i` is within the stack, as said above.
        unsafe { self.stack.get_unchecked(self.base + i) }
    }

    #[inline(always)]
    fn slot_mut(&mut self, slot: Slot) -> &mut Value {
        match slot {
            Slot::Local(i) => &mut self.stack[self.base + i as usize],
            Slot::Global(i) => &mut self.globals[i as usize],
        }
    }

    #[inline(always)]
    fn set(&mut self, slot: Slot, v: Value) {
        std::mem::replace(self.slot_mut(slot), v).discard();
    }

    /// `set` of a number: into a variable that holds a number only the number is written. A
    /// whole `Value` built and then copied in (`set`) is two narrow stores read back as one wide
    /// load, which the CPU cannot forward: the store waits, and so does the next read of the
    /// variable (1.6x the time of a counting loop, issue 43).
    #[inline(always)]
    fn set_num(&mut self, slot: Slot, x: f64) {
        match self.slot_mut(slot) {
            Value::Num(n) => *n = x,
            _ => self.set(slot, Value::Num(x)),
        }
    }

    /// `set` of a node of the current graph (`NodeVal` with no graph), written in place into a
    /// variable that holds one, as `set_num` writes a number: the loops over nodes set their
    /// variable at every node.
    #[inline(always)]
    fn set_node(&mut self, slot: Slot, class: ClassId, id: NodeId) {
        match self.slot_mut(slot) {
            Value::Node(NodeVal { class: c, id: i, graph: None }) => (*c, *i) = (class, id),
            // The node written into the slot itself (a fresh frame's `exists(Z, ...)` finds
            // None there), not built aside and copied in as `set` would.
            v => {
                if !v.owns_nothing() {
                    *v = Value::None;
                }
                // SAFETY: `v` owns nothing now, so overwriting it leaks nothing.
                unsafe { std::ptr::write(v, Value::Node(NodeVal { class, id, graph: None })) }
            }
        }
    }

    pub fn text(&self, v: &Value) -> String {
        to_text(v, &self.world)
    }

    /// Writes program output; a failed write (a closed pipe) is a runtime error, not a panic.
    /// A pipe whose reader has gone (`ds x | head -1`) ends the run quietly, as SIGPIPE would
    /// (`Flow::Exit`); any other failure is an error.
    pub fn write_out(&mut self, s: &str, span: Span) -> R<()> {
        if self.quiet != Quiet::Off && !self.may_write("print", span)? {
            return Ok(());
        }
        match self.out.write_all(s.as_bytes()) {
            Ok(()) => {
                if self.out_waiting.is_none() {
                    self.out_waiting = Some(Instant::now());
                }
                Ok(())
            }
            Err(e) if print::broken_pipe(&e) => Err(Flow::Exit(print::BROKEN_PIPE_STATUS.into())),
            Err(e) => fail(span, format!("cannot write to standard output: {e}")),
        }
    }

    /// Counts a step of work and enforces the limits (`check_limits`, at `next_check`).
    #[inline]
    fn tick(&mut self, span: Span) -> R<()> {
        self.steps += 1;
        if self.steps >= self.next_check {
            return self.check_limits(span);
        }
        Ok(())
    }

    /// Whether `n` more steps reach no check of the limits (`tick` checks at `next_check`): a
    /// loop may then count them together (`add_free_steps`), exactly as `n` ticks would.
    #[inline(always)]
    fn steps_free(&self, n: u64) -> bool {
        self.steps + n < self.next_check
    }

    /// Counts `n` steps that `steps_free` said reach no check.
    #[inline(always)]
    fn add_free_steps(&mut self, n: u64) {
        debug_assert!(self.steps + n < self.next_check);
        self.steps += n;
    }

    /// Two steps, at `a` then at `b`, with nothing done between them: one count and one test
    /// when no check is due (the limits are checked for each, as two `tick`s would, otherwise).
    #[inline(always)]
    fn tick2(&mut self, a: Span, b: Span) -> R<()> {
        let after = self.steps + 2;
        if after >= self.next_check {
            self.tick(a)?;
            return self.tick(b);
        }
        self.steps = after;
        Ok(())
    }

    /// Counts `n` units of work done inside a built-in (about a step each: an item copied,
    /// compared or printed) and stops the script at its limits, as a step would; a built-in
    /// that loops over large data calls it as it goes.
    pub fn work(&mut self, n: u64, span: Span) -> R<()> {
        self.steps = self.steps.saturating_add(n);
        if self.steps >= self.next_check {
            return self.check_limits(span);
        }
        Ok(())
    }

    /// The limits after a run that ended normally: a deadline passed during its last steps (a
    /// long built-in) is still reported.
    pub fn check_at_end(&mut self, span: Span) -> R<()> {
        self.check_limits(span)
    }

    /// The memory limit, Ctrl-C, the deadline and the step limit; then the step at which to
    /// look again (`next_check`). Reached every 1024 steps, at the step limit, and at the end
    /// of a run.
    #[inline(never)]
    fn check_limits(&mut self, span: Span) -> R<()> {
        // Nothing below moves the threshold on when an error is returned: the next step checks
        // again (a script's `try` or a search's grace may go on).
        self.next_check = self.steps.saturating_add(1);
        if ds_base::guard::memory::exceeded() {
            return limit_error(span, Limit::Memory, None);
        }
        if self.interrupt.load(Ordering::Relaxed) && self.interrupt.swap(false, Ordering::Relaxed) {
            return limit_error(span, Limit::Interrupt, None);
        }
        if let Some(deadline) = self.limits.deadline {
            if Instant::now() >= deadline {
                return limit_error(span, Limit::Timeout, None);
            }
        }
        let step_limit = self.limits.step_limit();
        if step_limit.is_some_and(|max| self.steps > max) {
            return limit_error(span, Limit::Steps, self.limits.max_steps);
        }
        let next_round = (self.steps | 0x3ff).saturating_add(1);
        self.next_check = step_limit.map_or(next_round, |max| next_round.min(max.saturating_add(1)));
        self.send_waiting_output();
        Ok(())
    }

    /// Flushes the output once it has waited `OUTPUT_PATIENCE` (a failed flush is the next
    /// write's error).
    fn send_waiting_output(&mut self) {
        if self.out_waiting.is_some_and(|since| since.elapsed() >= OUTPUT_PATIENCE) {
            let _ = self.out.flush();
            self.out_waiting = None;
        }
    }

    /// Pushes a number onto the frame stack, written in place (`Vec::push` of a `Value` built
    /// elsewhere copies it with a load wider than the stores that made it).
    #[inline(always)]
    fn push_num(&mut self, x: f64) {
        if self.stack.len() == self.stack.capacity() {
            self.grow_stack();
        }
        // SAFETY: there is room for one more value, made just above if there was none.
        unsafe {
            let len = self.stack.len();
            std::ptr::write(self.stack.as_mut_ptr().add(len), Value::Num(x));
            self.stack.set_len(len + 1);
        }
    }

    /// Pushes a copy of local `i` (a demon call's argument), copied from slot to slot: made
    /// as a `Value` and then pushed, a node (class, id, no graph) is three narrow stores read
    /// back as one wide load, which waits for them (no forwarding); 4% of the seed's program.
    #[inline(always)]
    fn push_local(&mut self, i: usize) {
        if self.stack.len() == self.stack.capacity() {
            self.grow_stack();
        }
        debug_assert!(self.base + i < self.stack.len());
        // SAFETY: there is room for one more value; `base + i` is a slot below `len` (see
        // `local`). The bits copied are a valid copy of the value: one that owns nothing is
        // plain data, and a graph is one `Rc`, whose count is raised first, as `clone` does.
        unsafe {
            let (len, p) = (self.stack.len(), self.stack.as_mut_ptr());
            let src = p.add(self.base + i);
            match &*src {
                v if v.owns_nothing() => {}
                Value::Graph(g) => Rc::increment_strong_count(Rc::as_ptr(g)),
                v => {
                    let v = v.clone();
                    std::ptr::write(p.add(len), v);
                    self.stack.set_len(len + 1);
                    return;
                }
            }
            std::ptr::copy_nonoverlapping(src, p.add(len), 1);
            self.stack.set_len(len + 1);
        }
    }

    #[cold]
    #[inline(never)]
    fn grow_stack(&mut self) {
        self.stack.reserve(1);
    }

    /// Whether the native stack is used up (`host::stack`): checked on every demon call and
    /// expression, so that deep recursion of any kind ends in an error, never an overflow.
    #[inline(always)]
    fn stack_low(&self) -> bool {
        ds_base::guard::stack::here() < self.stack_floor
    }

    #[cold]
    #[inline(never)]
    fn stack_used_up<T>(&self, span: Span) -> R<T> {
        fail(
            span,
            format!(
                "recursion too deep: the native stack is used up, with {} demon calls in progress",
                self.call_sites.len()
            ),
        )
    }

    /// Calls a demon or lambda with argument values: a new frame, parameters bound, the current
    /// graph restored after.
    pub fn call_fn(&mut self, code: &Rc<FnCode>, args: Vec<Value>, span: Span, set_value: Option<Value>) -> R<Value> {
        if self.stack_low() {
            return self.stack_used_up(span);
        }
        self.check_call(code, args.len(), span)?;
        let base = self.stack.len();
        self.stack.extend(args);
        self.run_frame(code, base, span, set_value)
    }

    /// The code of `f` called at `span` (`f(x)`, `f` a lambda or demon value, given by the
    /// expression at `callee`): anything else cannot be called.
    #[inline(always)]
    fn callable(f: Value, callee: Span, span: Span) -> R<Rc<FnCode>> {
        match f {
            Value::Lambda(code) => runnable(code, span),
            other => fail(callee, format!("{} cannot be called", other.described())),
        }
    }

    /// Calls a demon or lambda from a body compiled to closures (`eval/closure`): the
    /// arguments are closures, their values pushed straight onto the frame stack.
    #[inline(always)]
    fn call_compiled(&mut self, code: &Rc<FnCode>, args: &[closure::CallArg], span: Span) -> R<Value> {
        let base = self.push_compiled_args(code, args, span)?;
        self.run_frame(code, base, span, None)
    }

    /// `call_compiled` where the caller wants a number (an operand of arithmetic): the value
    /// comes back in registers. `Err(Flow::Return)`: it is not a number, and waits in
    /// `returned` (`closure::from_num`).
    #[inline(always)]
    fn call_compiled_num(&mut self, code: &Rc<FnCode>, args: &[closure::CallArg], span: Span) -> R<f64> {
        let base = self.push_compiled_args(code, args, span)?;
        self.run_frame_with(code, base, span, AsNumber)
    }

    /// The checks of a compiled call and its arguments pushed: the new frame's base.
    #[inline(always)]
    fn push_compiled_args(&mut self, code: &FnCode, args: &[closure::CallArg], span: Span) -> R<usize> {
        self.check_call(code, args.len(), span)?;
        let base = self.stack.len();
        // One argument (most recursions) without the loop around it.
        if let [a] = args {
            a.push(self)?;
            return Ok(base);
        }
        for a in args {
            if let Err(e) = a.push(self) {
                self.stack.truncate(base);
                return Err(e);
            }
        }
        Ok(base)
    }

    /// The depth and argument count of a call. (The native stack was checked by the `eval` of
    /// the call; `call_fn` checks it itself.)
    #[inline(always)]
    fn check_call(&self, code: &FnCode, given: usize, span: Span) -> R<()> {
        if self.depth() >= self.limits.max_depth || given != code.param_names.len() {
            return self.call_refused(code, given, span);
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn call_refused(&self, code: &FnCode, given: usize, span: Span) -> R<()> {
        if self.depth() >= self.limits.max_depth {
            return fail(
                span,
                format!(
                    "recursion too deep: more than {} demon calls in progress (--max-depth)",
                    self.limits.max_depth
                ),
            );
        }
        fail(span, format!("`{}` takes {} arguments, but {} given", code.name, code.param_names.len(), given))
    }

    /// Runs `code` in the frame that starts at `base`, where its arguments already are.
    #[inline(always)]
    fn run_frame(&mut self, code: &Rc<FnCode>, base: usize, span: Span, set_value: Option<Value>) -> R<Value> {
        self.run_frame_with(code, base, span, AsValue(set_value))
    }

    /// `run_frame` with the body run by `body`, which gives the call's result as T.
    #[inline(always)]
    fn run_frame_with<B: RunBody>(&mut self, code: &Rc<FnCode>, base: usize, span: Span, body: B) -> R<B::Out> {
        // Locals start empty (`resize` would clone a `Value` per slot, through its match).
        // (The arguments are below `top`: their count was checked against the parameters.)
        let locals = (base + code.frame_size as usize).saturating_sub(self.stack.len());
        if locals > 0 {
            self.stack.extend(std::iter::repeat_with(|| Value::None).take(locals));
        }
        let saved_base = std::mem::replace(&mut self.base, base);
        self.call_sites.push(span);
        code.calls.set(code.calls.get() + 1);
        let result = if code.sets_graph { self.run_keeping_graph(code, body) } else { body.run(self, code) };
        self.call_sites.pop();
        self.pop_frame(base);
        self.base = saved_base;
        match result {
            Err(Flow::Error(mut d)) => {
                d.push_frame(&code.name, span);
                Err(Flow::Error(d))
            }
            other => other,
        }
    }

    /// `body.run` for a demon that assigns `GRAPH`: the caller's graph is back after it. (Out
    /// of line: most demons do not, and their calls then carry no saved graph.)
    #[inline(never)]
    fn run_keeping_graph<B: RunBody>(&mut self, code: &Rc<FnCode>, body: B) -> R<B::Out> {
        if let Value::Graph(g) = &self.graph {
            let saved = g.clone();
            let result = body.run(self, code);
            self.set_current_graph(saved);
            return result;
        }
        let saved_graph = self.graph.clone();
        let result = body.run(self, code);
        self.graph = saved_graph;
        result
    }

    /// `GRAPH = g`, written in place: a `Value` made aside and moved in is read back with a
    /// wide load that waits for the narrow stores that made it (see `set_num`).
    #[inline(always)]
    pub(super) fn set_current_graph(&mut self, g: GraphRef) {
        drop(std::mem::take(&mut self.graph));
        // SAFETY: `graph` holds None, taken above, which owns nothing to leak.
        unsafe { std::ptr::write(&mut self.graph, Value::Graph(g)) }
    }

    /// Drops the frame's values from the stack; a frame of numbers and logic values (most
    /// recursions) without the out-of-line drop glue that `truncate` calls for every value.
    #[inline(always)]
    fn pop_frame(&mut self, base: usize) {
        if self.stack[base..].iter().all(Value::owns_nothing) {
            // SAFETY: `base` is within the vector, and values that own nothing need no drop.
            unsafe { self.stack.set_len(base) }
        } else {
            self.stack.truncate(base);
        }
    }

    pub(super) fn run_fn_body(&mut self, code: &FnCode, set_value: Option<Value>) -> R<Value> {
        if let (Some(v), Some(slot)) = (&set_value, code.value_slot) {
            self.stack[self.base + slot as usize] = v.clone();
        }
        let sections = Interp::sections(code);
        match (sections.body)(self) {
            Ok(()) => {}
            Err(Flow::Return) => return Ok(self.take_returned()),
            Err(Flow::Break | Flow::Continue) => return Ok(Value::Logic(crate::value::Logic::UNDEF)),
            Err(e) => return Err(e),
        }
        let section = if set_value.is_some() { &sections.set } else { &sections.get };
        if let Some(section) = section {
            match section(self) {
                Ok(()) => {}
                Err(Flow::Return) if set_value.is_none() => return Ok(self.take_returned()),
                Err(Flow::Return) => drop(self.take_returned()),
                Err(Flow::Break | Flow::Continue) => {}
                Err(e) => return Err(e),
            }
        }
        if set_value.is_some() {
            if let Some(slot) = code.value_slot {
                return Ok(self.stack[self.base + slot as usize].clone());
            }
        }
        Ok(Value::Logic(crate::value::Logic::UNDEF))
    }

    pub fn demon(&self, id: DemonId, span: Span) -> R<Rc<FnCode>> {
        match self.demons.get(id as usize).and_then(|d| d.clone()) {
            Some(code) => Ok(code),
            None => fail(span, "this demon has no body (its definition failed to compile)"),
        }
    }
}

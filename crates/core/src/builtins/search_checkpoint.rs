//! `Opts["checkpoint"]`, `Opts["every"]` and `Opts["resume"]` (decision 25): a `Search.bfs` or
//! `Search.explore` that saves itself to a file every so often and when a limit or a signal
//! stops it, and a later run that goes on from that file. The file is written beside itself
//! (`FILE.part`) and put in its place once whole, so that a run stopped while writing leaves the
//! checkpoint before.

use crate::eval::{fail, Flow, Interp, R};
use crate::files::Files;
use crate::search::checkpoint::{self, Checkpoints, Identity, Kind, Position, Saved, Saving, Snapshot, Walked};
use crate::search::problem::Halt;
use crate::search::script::ScriptProblem;
use crate::search::script::{GoalTest, Spec};
use crate::search::store::StoreMode;
use crate::search::workers::On;
use crate::search::{Counts, StateStore};
use crate::value::Value;
use ds_syntax::Span;
use std::path::PathBuf;
use web_time::{Duration, Instant};

/// How often a checkpoint is written when `every` is not given, in seconds.
const DEFAULT_EVERY: f64 = 60.0;

/// The options as read.
#[derive(Default)]
pub(super) struct Given {
    pub file: Option<String>,
    pub every: Option<f64>,
    pub resume: bool,
}

/// Where a search keeps its checkpoints.
pub(super) struct Plan {
    file: String,
    every: f64,
    resume: bool,
}

impl Given {
    /// Reads option `key` (one of `OPTIONS`).
    pub fn read(&mut self, it: &Interp, key: &str, v: &Value, fname: &str, span: Span) -> R<()> {
        match (key, v) {
            ("checkpoint", Value::Str(s)) if !s.is_empty() => self.file = Some(s.to_string()),
            ("checkpoint", _) => {
                return fail(span, format!("option `checkpoint` of `{fname}` must be a file name, not {}", it.text(v)))
            }
            ("every", Value::Num(n)) if *n > 0.0 && n.is_finite() => self.every = Some(*n),
            ("every", _) => {
                return fail(
                    span,
                    format!("option `every` of `{fname}` must be a number of seconds > 0, not {}", it.text(v)),
                )
            }
            _ => self.resume = v.condition().is_true(),
        }
        Ok(())
    }

    /// The plan, once every option is read: `every` and `resume` need a `checkpoint`, and
    /// only an untraced search on the store "exact" or "hash" takes one so far.
    pub fn plan(self, fname: &str, store: StoreMode, tracing: bool, span: Span) -> R<Option<Plan>> {
        let Some(file) = self.file else {
            return match (self.every, self.resume) {
                (None, false) => Ok(None),
                _ => fail(span, format!("options `every` and `resume` of `{fname}` need the file: give `checkpoint`")),
            };
        };
        let refuse = |why: &str| fail(span, format!("`{fname}` with a `checkpoint` {why}"));
        if fname != "Search.bfs" && fname != "Search.explore" {
            return refuse("is built for `Search.bfs` and `Search.explore` only so far");
        }
        if matches!(store, StoreMode::Bitstate(_)) {
            return refuse("keeps its states in the store \"exact\" or \"hash\", not \"bitstate\" (a bit array cannot be cut back to where an expansion began)");
        }
        if tracing {
            return refuse(
                "cannot trace or record (a resumed run never saw the states before it): leave out `trace` and `record`",
            );
        }
        Ok(Some(Plan { file, every: self.every.unwrap_or(DEFAULT_EVERY), resume: self.resume }))
    }
}

/// What a checkpoint of this search must match: the search, its options that change the
/// answer, and the text of its demons (`Next`, the goal, a canonicaliser).
pub(super) fn identity(it: &Interp, spec: &Spec, kind: Kind, limit: Option<u32>, store: StoreMode) -> Identity {
    let mut hash = xxhash_rust::xxh3::Xxh3::new();
    let text = |hash: &mut xxhash_rust::xxh3::Xxh3, part: &str| {
        hash.update(&(part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    };
    let code = |span: Span| {
        let source = it.sources.source(span.file).unwrap_or("");
        source.get(span.lo as usize..span.hi as usize).unwrap_or("")
    };
    text(&mut hash, code(spec.next.span));
    match &spec.goal {
        GoalTest::Demon(goal) => text(&mut hash, code(goal.span)),
        GoalTest::Value(v) => text(&mut hash, &it.text(v)),
        GoalTest::Nothing => {}
    }
    if let Some(canonical) = &spec.canonical {
        text(&mut hash, code(canonical.span));
    }
    hash.update(&[u8::from(spec.symmetry.is_some())]);
    let marks_goals = !matches!(spec.goal, GoalTest::Nothing) && kind == Kind::Explore;
    let fingerprints = store == StoreMode::Hash;
    Identity { kind, marks_goals, limit, fingerprints, code: hash.digest() }
}

impl Plan {
    /// The search the checkpoint holds, if `resume` asks for it and the file is there (with
    /// no file, the search starts afresh: the first run of a script that resumes).
    pub fn resumed(&self, it: &Interp, identity: &Identity, span: Span) -> R<Option<Saved>> {
        if !self.resume {
            return Ok(None);
        }
        let path = it.files().data_path(&self.file).or_else(|e| fail(span, e))?;
        let file = match it.files().open_read(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return fail(span, format!("the checkpoint `{}` could not be read: {e}", self.file)),
        };
        match checkpoint::read(std::io::BufReader::new(file), identity) {
            Ok(saved) => Ok(Some(saved)),
            Err(why) => fail(span, format!("the checkpoint `{}` {why}; it was not resumed", self.file)),
        }
    }

    /// Where this search writes its checkpoints.
    pub fn writer(&self, it: &Interp, span: Span) -> R<FileCheckpoints> {
        let path = it.files().data_path(&self.file).or_else(|e| fail(span, e))?;
        let part = it.files().data_path(&format!("{}.part", self.file)).or_else(|e| fail(span, e))?;
        Ok(FileCheckpoints {
            files: it.files().boxed_clone(),
            name: self.file.clone(),
            path,
            part,
            every: Duration::from_secs_f64(self.every.min(1e9)),
            last: Instant::now(),
            calls: 0,
            size: 0,
            span,
        })
    }
}

/// A search's checkpoints: where they go, and what it resumes.
pub(super) struct Checkpointed {
    identity: Identity,
    writer: FileCheckpoints,
    /// The checkpoint read back, until the search takes its store and record.
    pub saved: Option<Saved>,
    /// Where a resumed search goes on, with its counts then.
    resume: Option<Position>,
    pub counts: Counts,
}

impl Checkpointed {
    /// Reads the checkpoint to resume (if asked and there) and readies the writer, before the
    /// search begins.
    pub fn prepare(it: &Interp, plan: &Plan, identity: Identity, on: &On, span: Span) -> R<Checkpointed> {
        if matches!(on, On::Processes) {
            let function = identity.kind.function();
            return fail(span, format!("`{function}` with a `checkpoint` runs in one process: leave out `checkpoint`"));
        }
        let saved = plan.resumed(it, &identity, span)?;
        let (resume, counts) = saved.as_ref().map_or((None, Counts::default()), |s| (Some(s.at), s.counts));
        Ok(Checkpointed { identity, writer: plan.writer(it, span)?, saved, resume, counts })
    }

    /// Refuses to go on from a checkpoint whose start or first successors are not this
    /// search's.
    pub fn check_resumed(&self, problem: &mut ScriptProblem<'_>, store: &StateStore, span: Span) -> R<()> {
        let Some(at) = self.resume else { return Ok(()) };
        let why = match checkpoint::differs(problem, store, at) {
            Ok(why) => why,
            Err(Halt::Error(e)) => return Err(e),
            Err(Halt::Limit(reason)) => Some(format!("could not be checked: the limit {} was reached", reason.word())),
        };
        match why {
            Some(why) => fail(span, format!("the checkpoint `{}` was not resumed: {why}", self.writer.name)),
            None => Ok(()),
        }
    }

    /// An exploration's transitions and goals as the checkpoint had them (or none).
    pub fn take_walked(&mut self) -> Walked {
        self.saved.as_mut().and_then(|s| s.walked.take()).unwrap_or_default()
    }

    /// What the engine takes.
    pub fn engine(&mut self) -> Saving<'_, Flow> {
        Saving { to: &mut self.writer, identity: self.identity, resume: self.resume }
    }
}

/// Checkpoints written to a file every `every`.
pub(super) struct FileCheckpoints {
    files: Box<dyn Files>,
    name: String,
    path: PathBuf,
    part: PathBuf,
    every: Duration,
    last: Instant,
    calls: u32,
    /// The size of the last checkpoint written (a scratch policy is charged what it grows).
    size: u64,
    span: Span,
}

impl Checkpoints<Flow> for FileCheckpoints {
    fn due(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        self.calls.is_multiple_of(64) && self.last.elapsed() >= self.every
    }

    fn save(&mut self, snapshot: &Snapshot<'_>) -> Result<(), Flow> {
        let written = self.write(snapshot);
        self.last = Instant::now();
        written.or_else(|why| {
            let c = &snapshot.clean;
            fail(
                self.span,
                format!(
                    "the checkpoint `{}` could not be written: {why}; the search stopped there, with no answer ({} states stored, {} expanded)",
                    self.name, c.states, c.counts.expanded
                ),
            )
        })
    }
}

impl FileCheckpoints {
    fn write(&mut self, snapshot: &Snapshot<'_>) -> Result<(), String> {
        let mut file = self.files.open_write(&self.part, false).map_err(|e| e.to_string())?;
        checkpoint::write(&mut file, snapshot).map_err(|e| e.to_string())?;
        let size = file.len();
        drop(file);
        self.files.charge_write(size.saturating_sub(self.size).min(usize::MAX as u64) as usize)?;
        self.size = self.size.max(size);
        self.files.replace(&self.part, &self.path).map_err(|e| e.to_string())
    }
}

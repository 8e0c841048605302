//! Every error and warning the user sees: a message, the place (file:line:col with the source
//! line and a caret), optional notes, and for runtime errors the demon call stack.

use codespan_reporting::diagnostic::{Diagnostic as CsDiagnostic, Label};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::{self, termcolor};

/// A source file registered with the `SourceMap`.
pub type FileId = u32;

/// A byte range in one source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Span {
    pub file: FileId,
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(file: FileId, lo: usize, hi: usize) -> Span {
        Span { file, lo: lo as u32, hi: hi as u32 }
    }
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
}

/// Whether a diagnostic stops the program (an error) or only points at a likely mistake.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Severity {
    #[default]
    Error,
    Warning,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    /// Other places that explain this one (a first declaration), each with a short text.
    pub labels: Vec<(Span, String)>,
    pub notes: Vec<String>,
    /// Demon calls active when a runtime error happened, innermost first.
    pub stack: Vec<Frame>,
    /// The parser reached the end of input while a construct was still open.
    pub incomplete: bool,
    /// Set for errors found while running (as opposed to before running).
    pub runtime: bool,
    /// Calls beyond `MAX_FRAMES` distinct frames.
    pub omitted_frames: u32,
    /// The environment failed, not the script (an included file cannot be read): exit status 2.
    pub environment: bool,
    /// The error is a limit of the run (Ctrl-C, `--timeout`, `--max-steps`), not a mistake of
    /// the script: a search stops cleanly on it (`Search.stats()["reason"]`).
    pub limit: Option<Limit>,
}

/// A limit of the run that stopped it (or a search in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// Ctrl-C.
    Interrupt,
    /// `--timeout`.
    Timeout,
    /// `--max-steps`.
    Steps,
    /// `--max-memory` (or the address space the process may have).
    Memory,
}

impl Limit {
    /// The word `Search.stats()["reason"]` gives for it.
    pub fn reason(self) -> &'static str {
        match self {
            Limit::Interrupt => "interrupted",
            Limit::Timeout => "timeout",
            Limit::Steps => "max_steps",
            Limit::Memory => "max_memory",
        }
    }
}

/// One entry of a runtime error's call stack; `repeat` counts identical calls folded into it.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub demon: String,
    pub call_site: Span,
    pub repeat: u32,
}

/// At most this many distinct frames are kept; deeper ones are only counted.
const MAX_FRAMES: usize = 50;

impl Diagnostic {
    /// Adds the demon call that the error passed through on its way out.
    pub fn push_frame(&mut self, demon: &str, call_site: Span) {
        if let Some(last) = self.stack.last_mut() {
            if last.demon == demon && last.call_site == call_site {
                last.repeat += 1;
                return;
            }
        }
        if self.stack.len() < MAX_FRAMES {
            self.stack.push(Frame { demon: demon.to_string(), call_site, repeat: 1 });
        } else {
            self.omitted_frames += 1;
        }
    }

    pub fn error(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            labels: Vec::new(),
            notes: Vec::new(),
            stack: Vec::new(),
            incomplete: false,
            runtime: false,
            omitted_frames: 0,
            environment: false,
            limit: None,
        }
    }

    pub fn warning(span: Span, message: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(span, message) }
    }

    pub fn is_warning(&self) -> bool {
        self.severity == Severity::Warning
    }

    /// A warning made an error by `--deny-warnings`.
    pub fn denied(mut self) -> Diagnostic {
        self.severity = Severity::Error;
        self.with_note("this is a warning, made an error by `--deny-warnings`")
    }

    pub fn with_label(mut self, span: Span, text: impl Into<String>) -> Diagnostic {
        self.labels.push((span, text.into()));
        self
    }

    pub fn with_note(mut self, note: impl Into<String>) -> Diagnostic {
        self.notes.push(note.into());
        self
    }
}

/// Where warnings go and what becomes of them: shown on standard error (or a test's buffer),
/// run-time ones once per place, or made errors by `--deny-warnings` (docs/language.md,
/// decision 15).
pub struct Warnings {
    pub deny: bool,
    /// Render with ANSI colours.
    pub color: bool,
    pub sink: Box<dyn std::io::Write>,
    /// The places whose run-time warning was shown already.
    shown: rustc_hash::FxHashSet<Span>,
}

impl Default for Warnings {
    fn default() -> Self {
        Warnings { deny: false, color: false, sink: Box::new(std::io::stderr()), shown: Default::default() }
    }
}

impl Warnings {
    /// Whether a run-time warning at `span` is shown now: only the first time.
    pub fn first_at(&mut self, span: Span) -> bool {
        self.shown.insert(span)
    }

    /// The same settings for a new session (whose places are new).
    pub fn for_new_session(mut self) -> Warnings {
        self.shown.clear();
        self
    }

    /// Writes rendered warnings; a closed standard error is not an error of the script.
    pub fn write(&mut self, text: &str) {
        let _ = self.sink.write_all(text.as_bytes());
        let _ = self.sink.flush();
    }
}

/// The source files of a session, for rendering diagnostics.
pub struct SourceMap {
    files: SimpleFiles<String, String>,
}

impl Default for SourceMap {
    fn default() -> Self {
        SourceMap { files: SimpleFiles::new() }
    }
}

impl SourceMap {
    pub fn add(&mut self, name: &str, src: &str) -> FileId {
        self.files.add(name.to_string(), src.to_string()) as FileId
    }

    pub fn source(&self, file: FileId) -> Option<&str> {
        self.files.get(file as usize).ok().map(|f| f.source().as_str())
    }

    pub fn name(&self, file: FileId) -> Option<&str> {
        self.files.get(file as usize).ok().map(|f| f.name().as_str())
    }

    /// 1-based line and column of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let Some(src) = self.source(file) else { return (0, 0) };
        let offset = (offset as usize).min(src.len());
        // the files' line index: counting from the start made a message per line quadratic
        let at = floor_char_boundary(src, offset);
        codespan_reporting::files::Files::location(&self.files, file as usize, at)
            .map_or((0, 0), |l| (l.line_number, l.column_number))
    }

    /// Renders a diagnostic as plain text (or with colour when `color` is set).
    pub fn render(&self, d: &Diagnostic, color: bool) -> String {
        let cs = match d.severity {
            Severity::Error => CsDiagnostic::error(),
            Severity::Warning => CsDiagnostic::warning(),
        };
        let mut cs = cs.with_message(clip(&d.message, MAX_MESSAGE));
        let window = self.source(d.span.file).and_then(|src| Window::around(self, src, d.span));
        if let Some(w) = &window {
            cs = cs.with_labels(w.labels(d));
        } else if self.source(d.span.file).is_some() {
            let (lo, hi) = self.clamp(d.span);
            let mut labels = vec![Label::primary(d.span.file as usize, lo..hi)];
            for (span, text) in d.labels.iter().filter(|(s, _)| self.source(s.file).is_some()) {
                let (lo, hi) = self.clamp(*span);
                labels.push(Label::secondary(span.file as usize, lo..hi).with_message(text));
            }
            cs = cs.with_labels(labels);
        }
        let mut notes = d.notes.clone();
        for f in &d.stack {
            let (line, col) = self.line_col(f.call_site.file, f.call_site.lo);
            let file = self.name(f.call_site.file).unwrap_or("?");
            let times = if f.repeat > 1 { format!(" ({} times)", f.repeat) } else { String::new() };
            notes.push(format!("in demon `{}`, called from {file}:{line}:{col}{times}", f.demon));
        }
        if d.omitted_frames > 0 {
            notes.push(format!("... and {} more calls further out", d.omitted_frames));
        }
        cs = cs.with_notes(notes.iter().map(|n| clip(n, MAX_MESSAGE)).collect());
        let mut buf = if color { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
        let config = term::Config::default();
        let emitted = match &window {
            Some(w) => term::emit(&mut buf, &config, w, &cs),
            None => term::emit(&mut buf, &config, &self.files, &cs),
        };
        if emitted.is_err() {
            let word = if d.is_warning() { "warning" } else { "error" };
            return format!("{word}: {}\n", d.message);
        }
        String::from_utf8_lossy(buf.as_slice()).into_owned()
    }

    fn clamp(&self, span: Span) -> (usize, usize) {
        let len = self.source(span.file).map_or(0, str::len);
        let src = self.source(span.file).unwrap_or("");
        let lo = floor_char_boundary(src, (span.lo as usize).min(len));
        let hi = floor_char_boundary(src, (span.hi as usize).clamp(lo, len));
        (lo, hi)
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The longest message, note or source line shown whole: a 10 MB line (or a value of that size
/// in a message) must not print 10 MB.
const MAX_MESSAGE: usize = 2000;
const MAX_LINE: usize = 300;

/// `text`, cut at `max` bytes (on a character boundary) with an ellipsis.
fn clip(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    format!("{}…", &text[..floor_char_boundary(text, max)])
}

/// The part of a very long source line around a diagnostic's place, shown instead of the
/// line, with the true line and column numbers.
struct Window<'a> {
    name: &'a str,
    /// The part shown, with `…` where the line goes on.
    text: String,
    /// The place in `text` of byte `start` of the source.
    shift: isize,
    start: usize,
    end: usize,
    line: usize,
    /// Characters of the line before the window (less one for a leading `…`).
    first_col: usize,
}

impl<'a> Window<'a> {
    fn around(map: &'a SourceMap, src: &'a str, span: Span) -> Option<Window<'a>> {
        let lo = floor_char_boundary(src, (span.lo as usize).min(src.len()));
        let line_start = src[..lo].rfind('\n').map_or(0, |i| i + 1);
        let line_end = src[lo..].find('\n').map_or(src.len(), |i| lo + i);
        if line_end - line_start <= MAX_LINE {
            return None;
        }
        let start = floor_char_boundary(src, lo.saturating_sub(MAX_LINE / 4).max(line_start));
        let end = ceil_char_boundary(src, (start + MAX_LINE).min(line_end));
        let prefix = if start > line_start { "…" } else { "" };
        let suffix = if end < line_end { "…" } else { "" };
        let text = format!("{prefix}{}{suffix}", &src[start..end]);
        let first_col = src[line_start..start].chars().count() - prefix.chars().count();
        let line = src[..line_start].matches('\n').count() + 1;
        let name = map.name(span.file).unwrap_or("?");
        Some(Window { name, text, shift: prefix.len() as isize - start as isize, start, end, line, first_col })
    }

    /// The labels of `d` that fall in the window, moved to its text.
    fn labels(&self, d: &Diagnostic) -> Vec<Label<usize>> {
        let inside = |span: Span| span.file == d.span.file && (self.start..=self.end).contains(&(span.lo as usize));
        let place = |span: Span| {
            let lo = (span.lo as usize).clamp(self.start, self.end);
            let hi = (span.hi as usize).clamp(lo, self.end);
            let at = |i: usize| floor_char_boundary(&self.text, (i as isize + self.shift) as usize);
            at(lo)..at(hi)
        };
        let mut labels = vec![Label::primary(d.span.file as usize, place(d.span))];
        for (span, text) in d.labels.iter().filter(|(s, _)| inside(*s)) {
            labels.push(Label::secondary(d.span.file as usize, place(*span)).with_message(text));
        }
        labels
    }
}

impl<'a> codespan_reporting::files::Files<'a> for Window<'a> {
    type FileId = usize;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, _: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, _: usize) -> Result<&'a str, codespan_reporting::files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, _: usize, _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, _: usize, _: usize) -> Result<usize, codespan_reporting::files::Error> {
        Ok(self.line)
    }

    fn column_number(&'a self, _: usize, _: usize, byte: usize) -> Result<usize, codespan_reporting::files::Error> {
        let byte = floor_char_boundary(&self.text, byte.min(self.text.len()));
        Ok(self.first_col + self.text[..byte].chars().count() + 1)
    }

    fn line_range(&'a self, _: usize, line: usize) -> Result<std::ops::Range<usize>, codespan_reporting::files::Error> {
        match line {
            0 => Ok(0..self.text.len()),
            _ => Err(codespan_reporting::files::Error::LineTooLarge { given: line, max: 0 }),
        }
    }
}

fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

//! The rustyline front end: prompts, line editing, history in the user's data directory,
//! completion, highlighting and the hint of the brackets still open. All the language work is
//! the backend's; this file only talks to the terminal.

use super::complete::Names;
use super::highlight::{highlight, missing_closers};
use super::{finish, Backend, EntryBuffer, Interrupter};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::config::{CompletionType, Config};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::borrow::Cow;
use std::cell::Cell;
use std::io::Write;
use std::path::PathBuf;

const PROMPT: &str = "ds> ";
/// Shown while an entry continues (an open bracket, a `def` without body ...).
const MORE: &str = "..> ";
const DIM: &str = "\x1b[2m";
const RESET: &str = "\x1b[0m";

pub fn run(backend: &mut Backend, interrupter: &Interrupter) -> u8 {
    let mut editor = match new_editor(backend.color) {
        Ok(editor) => editor,
        Err(e) => {
            ds_base::eprintln_safe!("note: no line editing ({e}); reading plain lines");
            return super::piped::run(backend, std::io::stdin().lock(), interrupter);
        }
    };
    // At a terminal, output shows line by line as it is written, not when the entry ends.
    let _ = backend.session.interp.out.flush();
    backend.session.interp.out = Box::new(std::io::stdout());
    let history = history_path(backend.session.interp.files());
    if let Some(path) = &history {
        let _ = editor.load_history(path);
    }
    println!("ds {} REPL: `:help` for help, Ctrl-D to leave", env!("CARGO_PKG_VERSION"));
    let status = read_eval_print(&mut editor, backend, interrupter);
    if let Some(path) = &history {
        save_history(&mut editor, path);
    }
    status
}

/// The exit status: 0, or what `System.exit` or a signal asked for.
fn read_eval_print(editor: &mut Editor<DsHelper, FileHistory>, backend: &mut Backend, interrupter: &Interrupter) -> u8 {
    let mut entry = EntryBuffer::default();
    let mut failures = 0;
    refresh_names(editor, backend);
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.pending = entry.text().to_string();
        }
        let prompt = if entry.is_empty() { PROMPT } else { MORE };
        let line = match editor.readline(prompt) {
            Ok(line) => line,
            // Ctrl-C at the prompt drops the entry being typed.
            Err(ReadlineError::Interrupted) => {
                entry.take();
                continue;
            }
            Err(ReadlineError::Eof) => break,
            // A byte that is not UTF-8 (a stray key, a bad paste) drops the entry, not the
            // session.
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                ds_base::eprintln_safe!("error: the line is not UTF-8 text; the entry is dropped");
                entry.take();
                continue;
            }
            Err(ReadlineError::WindowResized) => continue,
            Err(e) => {
                ds_base::eprintln_safe!("error: {e}");
                break;
            }
        };
        let Some(text) = entry.push_line(&line) else { continue };
        let _ = editor.add_history_entry(text.trim_end());
        let reply = interrupter.busy(|| backend.eval(&text));
        // Failed entries do not change the status of an interactive session.
        if let Some(status) = finish(&reply, &mut failures, interrupter) {
            return if reply.exit.is_some() || interrupter.ending_signal().is_some() { status } else { 0 };
        }
        refresh_names(editor, backend);
    }
    0
}

/// Completion offers what the session knows now: new variables, demons, nodes, edge types.
fn refresh_names(editor: &mut Editor<DsHelper, FileHistory>, backend: &Backend) {
    if let Some(helper) = editor.helper_mut() {
        helper.names = Names::from_session(backend.session());
    }
}

fn new_editor(color: bool) -> rustyline::Result<Editor<DsHelper, FileHistory>> {
    let config = Config::builder()
        .max_history_size(1000)?
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .auto_add_history(false)
        .completion_type(CompletionType::List)
        .build();
    let mut editor = Editor::with_config(config)?;
    editor.set_helper(Some(DsHelper {
        names: Names::default(),
        pending: String::new(),
        color,
        files: FilenameCompleter::new(),
        cursor: Cell::new(None),
    }));
    Ok(editor)
}

/// `ds/history` in the user's data directory (`~/.local/share` on Linux).
/// None under `--sandbox`, which writes no file, the history's included.
fn history_path(files: &dyn ds_core::files::Files) -> Option<PathBuf> {
    if files.is_sandbox() {
        return None;
    }
    Some(dirs::data_dir()?.join("ds").join("history"))
}

fn save_history(editor: &mut Editor<DsHelper, FileHistory>, path: &PathBuf) {
    if let Some(dir) = path.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = editor.save_history(path) {
        ds_base::eprintln_safe!("note: cannot save the history to {}: {e}", path.display());
    }
}

struct DsHelper {
    names: Names,
    /// The lines of the unfinished entry before the one being edited.
    pending: String,
    color: bool,
    files: FilenameCompleter,
    /// Where the cursor is, for the bracket match; `None` for the final drawing of a line.
    cursor: Cell<Option<usize>>,
}

impl Helper for DsHelper {}
impl Validator for DsHelper {}

impl Completer for DsHelper {
    type Candidate = Pair;

    fn complete(&self, line: &str, pos: usize, ctx: &Context<'_>) -> rustyline::Result<(usize, Vec<Pair>)> {
        if takes_file(line) {
            return self.files.complete(line, pos, ctx);
        }
        let (start, words) = self.names.complete(line, pos);
        let pairs = words.into_iter().map(|w| Pair { display: w.clone(), replacement: w }).collect();
        Ok((start, pairs))
    }
}

/// `:load F`, `:dot G F`: the arguments are file names.
fn takes_file(line: &str) -> bool {
    let Some(command) = line.trim_start().strip_prefix(':') else { return false };
    match command.split_once(char::is_whitespace) {
        Some((word, _)) => !word.is_empty() && ("load".starts_with(word) || "dot".starts_with(word)),
        None => false,
    }
}

impl Hinter for DsHelper {
    type Hint = String;

    /// The brackets still to close, shown dimmed after the cursor at the end of the line.
    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<String> {
        if !self.color || pos < line.len() || line.trim_start().starts_with(':') {
            return None;
        }
        let closers = missing_closers(&format!("{}{line}", self.pending));
        (!closers.is_empty()).then_some(closers)
    }
}

impl Highlighter for DsHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color || line.trim_start().starts_with(':') {
            return Cow::Borrowed(line);
        }
        Cow::Owned(highlight(line, self.cursor.get()))
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        Cow::Owned(format!("{DIM}{hint}{RESET}"))
    }

    /// Redraw on every key and cursor move, so the matching bracket follows the cursor; the
    /// final drawing (`forced`, on Enter) marks no bracket.
    fn highlight_char(&self, _line: &str, pos: usize, forced: bool) -> bool {
        self.cursor.set(if forced { None } else { Some(pos) });
        self.color
    }
}

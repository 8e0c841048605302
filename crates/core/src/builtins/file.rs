//! The `File` module (reference §7.7): `File.open(Name, Mode)` with Mode "w" (truncate), "a"
//! (append) or "r" (read) gives a file value. Methods on it: `F.out(A, B, ...)` writes the
//! arguments' printed forms separated by spaces and a newline; `F.write(A, ...)` writes them with
//! nothing between and no newline; `F.getline()` is the next line without its newline (None at
//! the end); `F.getlines()` the remaining lines as an array; `F.in()` the rest as one string;
//! `F.eof()` True when no line is left; `F.is_open()`; `F.close()`. Writes go straight to the file (no buffer), so nothing is
//! lost on any exit path. A file that cannot be opened, read or written is a runtime error.

use super::{arg, function, method, this, Arity, Builtin, BuiltinFn};
use crate::eval::{fail, Interp, TextSink, R};
use crate::files::{Discard, FileWriter};
use crate::value::host::Host;
use crate::value::Value;
use ds_syntax::Span;
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

/// Writes a whole file (`G.dot(file)`, `S.save(file)`), if the sandbox allows it.
pub(crate) fn write_file(it: &mut Interp, name: &str, text: &str, span: Span) -> R<()> {
    if !it.may_write("write a file", span)? {
        return Ok(());
    }
    let path = it.files().data_path(name).or_else(|e| fail(span, e))?;
    it.charge_write(text.len(), span)?;
    if let Err(e) = it.files_mut().write(&path, text) {
        return fail(span, format!("cannot write `{name}`: {e}"));
    }
    Ok(())
}

pub const BUILTINS: &[Builtin] = &[
    function("File.open", Arity::range(1, 2), open)
        .doc("File.open(name [, mode])", "opens a file to read (\"r\"), write afresh (\"w\") or append to (\"a\")"),
    function("File.scriptDir", Arity::exactly(0), script_dir)
        .doc("File.scriptDir()", "the folder of the running script, for data files next to it"),
    function("fopen", Arity::range(1, 2), fopen)
        .doc("fopen(name [, mode])", "sends `fout` to the file: \"w\" (the default) starts it afresh, \"a\" appends"),
    function("fclose", Arity::exactly(0), fclose)
        .doc("fclose()", "closes the `fout` file: `fout` prints to the console again"),
    method("out", Arity::at_least(0), out)
        .doc("F.out(v, ...)", "writes the values' printed forms to F, separated by spaces, and a newline"),
    method("write", Arity::at_least(0), write)
        .doc("F.write(v, ...)", "writes the values' printed forms to F, nothing between"),
    method("getline", Arity::exactly(0), getline)
        .doc("F.getline()", "the next line of F without its newline (None at the end)"),
    method("getlines", Arity::exactly(0), getlines).doc("F.getlines()", "the remaining lines of F as an array"),
    method("in", Arity::exactly(0), rest).doc("F.in()", "the rest of F as one string"),
    method("eof", Arity::exactly(0), eof).doc("F.eof()", "True when no line of F is left to read"),
    method("is_open", Arity::exactly(0), is_open).doc("F.is_open()", "True while F is open"),
    method("close", Arity::exactly(0), close).doc("F.close()", "closes file F"),
    // The module forms of the methods, `File.getline(F)` = `F.getline()` (reference 7.7).
    function("File.out", Arity::at_least(1), file_out).doc("File.out(F, v, ...)", "the same as `F.out(v, ...)`"),
    function("File.write", Arity::at_least(1), file_write)
        .doc("File.write(F, v, ...)", "the same as `F.write(v, ...)`"),
    function("File.getline", Arity::exactly(1), file_getline).doc("File.getline(F)", "the same as `F.getline()`"),
    function("File.getlines", Arity::exactly(1), file_getlines).doc("File.getlines(F)", "the same as `F.getlines()`"),
    function("File.in", Arity::exactly(1), file_in).doc("File.in(F)", "the same as `F.in()`"),
    function("File.eof", Arity::exactly(1), file_eof).doc("File.eof(F)", "the same as `F.eof()`"),
    function("File.is_open", Arity::exactly(1), file_is_open).doc("File.is_open(F)", "the same as `F.is_open()`"),
    function("File.close", Arity::exactly(1), file_close).doc("File.close(F)", "the same as `F.close()`"),
    function("File.size", Arity::exactly(1), file_size)
        .doc("File.size(F)", "the size of F in bytes: of the text being read, or written so far"),
];

/// `File.f(F, args...)` is `F.f(args...)`.
fn module_form(f: BuiltinFn, it: &mut Interp, args: &[Value], span: Span) -> R<Value> {
    match args.split_first() {
        Some((file, rest)) if as_file(file).is_some() => f(it, Some(file.clone()), rest, span),
        Some((other, _)) => fail(span, format!("the first argument must be a file, not {}", other.described())),
        None => fail(span, "a file is needed as the first argument"),
    }
}

fn file_out(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(out, it, args, span)
}
fn file_write(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(write, it, args, span)
}
fn file_getline(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(getline, it, args, span)
}
fn file_getlines(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(getlines, it, args, span)
}
fn file_in(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(rest, it, args, span)
}
fn file_eof(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(eof, it, args, span)
}
fn file_is_open(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(is_open, it, args, span)
}
fn file_close(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    module_form(close, it, args, span)
}
fn file_size(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match args.first() {
        Some(v) if as_file(v).is_some() => super::convert::size(it, Some(v.clone()), &[], span),
        Some(other) => fail(span, format!("`File.size` takes a file, not {}", other.described())),
        None => fail(span, "`File.size` takes a file"),
    }
}

/// The size in bytes of an open file: of the text being read, or of the file written so far
/// (0 once closed).
pub(crate) fn size_of(f: &FileHandle) -> u64 {
    if !f.open {
        return 0;
    }
    match &f.writer {
        Some(w) => w.len(),
        None => f.text.len() as u64,
    }
}

/// An open (or closed) file: a writer, or the whole text of a file being read and a position.
#[derive(Debug)]
pub struct FileHandle {
    pub name: String,
    writer: Option<Box<dyn FileWriter>>,
    text: String,
    pos: usize,
    open: bool,
}

pub type FileRef = Rc<RefCell<FileHandle>>;

impl Host for RefCell<FileHandle> {
    fn type_name(&self) -> &'static str {
        "file"
    }
    fn described(&self) -> &'static str {
        "a file"
    }
    fn write(&self, out: &mut String) {
        out.push_str(&self.borrow().name);
    }
    fn rank(&self) -> u8 {
        7
    }
}

/// The file a value holds, if it holds one.
pub(crate) fn as_file(v: &Value) -> Option<FileRef> {
    v.as_host::<RefCell<FileHandle>>()
}

fn open(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    open_as("File.open", "r", it, obj, args, span)
}

fn open_as(fname: &str, default: &str, it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let name = arg::<&str>(args, 0, fname, span)?.to_string();
    let mode = if args.len() > 1 { arg::<&str>(args, 1, fname, span)? } else { default };
    if fname == "fopen" && !matches!(mode, "w" | "a") {
        return fail(span, "`fopen` opens the file of `fout` for writing: its mode is \"w\" or \"a\"");
    }
    let path = it.files().data_path(&name).or_else(|e| fail(span, e))?;
    // A worker running the script again writes nothing: its writes are dropped.
    let discard = mode != "r" && !it.may_write("open a file for writing", span)?;
    let mut handle = FileHandle { name: name.clone(), writer: None, text: String::new(), pos: 0, open: true };
    let result = match mode {
        "w" | "a" => {
            let writer = match discard {
                true => Ok(Box::new(Discard) as Box<dyn FileWriter>),
                false => it.files_mut().open_write(&path, mode == "a"),
            };
            writer.map(|f| handle.writer = Some(f))
        }
        "r" => it.files().read_text(&path, crate::value::MAX_TEXT).map(|t| handle.text = t),
        other => return fail(span, format!("file mode must be \"r\", \"w\" or \"a\", not \"{other}\"")),
    };
    if let Err(e) = result {
        return fail(span, format!("cannot open file `{name}`: {e}"));
    }
    Ok(Value::Host(Rc::new(RefCell::new(handle))))
}

/// `fopen(name [, "w"|"a"])`: opens the file `fout` writes to ("w", the default, empties it;
/// "a" appends), closing the one open before. Returns True.
fn fopen(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let Some(f) = as_file(&open_as("fopen", "w", it, obj, args, span)?) else {
        return fail(span, "`fopen` could not open the file");
    };
    it.set_fout(Some(f));
    Ok(Value::bool(true))
}

/// `fclose()`: closes the file of `fout`, which prints to the console again. True if a file
/// was open, else False.
fn fclose(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    let was_open = it.set_fout(None);
    Ok(Value::bool(was_open))
}

impl TextSink for RefCell<FileHandle> {
    fn write_text(&self, it: &mut Interp, text: &str, span: Span) -> R<()> {
        write_to(it, self, text, span)
    }
}

/// Writes text to a file opened for writing (`fout`); every write goes straight to the file.
fn write_to(it: &mut Interp, f: &RefCell<FileHandle>, text: &str, span: Span) -> R<()> {
    if !it.may_write("write a file", span)? {
        return Ok(());
    }
    let mut f = f.borrow_mut();
    let fname = f.name.clone();
    let Some(w) = f.writer.as_mut() else {
        return fail(span, format!("file `{fname}` is not open for writing"));
    };
    it.charge_write(text.len(), span)?;
    if let Err(e) = w.write_all(text.as_bytes()) {
        return fail(span, format!("cannot write to file `{fname}`: {e}"));
    }
    Ok(())
}

/// `File.scriptDir()`: the directory of the running script ("." for `-e` and the REPL), so that
/// a script finds its own data files wherever it is run from: `File.scriptDir() + "/data/x"`.
fn script_dir(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    let dir = it.script_dir.as_ref().map(|d| d.to_string_lossy().to_string());
    Ok(Value::str(dir.as_deref().filter(|d| !d.is_empty()).unwrap_or(".")))
}

fn put(it: &mut Interp, name: &str, obj: Option<Value>, args: &[Value], sep: &str, end: &str, span: Span) -> R<Value> {
    let f = this::<FileRef>(name, obj, span)?;
    let mut text = it.text_start();
    for (i, a) in args.iter().enumerate() {
        if i > 0 {
            text.push(sep, span)?;
        }
        text.value(a, &it.world, span)?;
    }
    text.push(end, span)?;
    let text = it.text_end(text, span)?;
    write_to(it, &f, &text, span)?;
    Ok(Value::bool(true))
}

fn out(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    put(it, "out", obj, args, " ", "\n", span)
}

fn write(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    put(it, "write", obj, args, "", "", span)
}

/// The next line of a file being read, without its line ending; None at the end.
fn next_line(f: &mut FileHandle) -> Option<String> {
    if !f.open || f.writer.is_some() || f.pos >= f.text.len() {
        return None;
    }
    let rest = &f.text[f.pos..];
    let (line, used) = match rest.find('\n') {
        Some(i) => (&rest[..i], i + 1),
        None => (rest, rest.len()),
    };
    let line = line.strip_suffix('\r').unwrap_or(line).to_string();
    f.pos += used;
    Some(line)
}

fn getline(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("getline", obj, span)?;
    let line = next_line(&mut f.borrow_mut());
    Ok(line.map_or(Value::None, |l| Value::str(&l)))
}

fn getlines(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("getlines", obj, span)?;
    let mut f = f.borrow_mut();
    let mut lines = Vec::new();
    while let Some(l) = next_line(&mut f) {
        lines.push(Value::str(&l));
        it.work(1, span)?;
    }
    Ok(Value::array(lines))
}

/// `F.in()`: the rest of a file being read, as one string ("" at the end).
fn rest(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("in", obj, span)?;
    let mut f = f.borrow_mut();
    if !f.open || f.writer.is_some() {
        let name = f.name.clone();
        return fail(span, format!("file `{name}` is not open for reading"));
    }
    let rest = f.text[f.pos..].to_string();
    f.pos = f.text.len();
    Ok(Value::str(&rest))
}

fn eof(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("eof", obj, span)?;
    let f = f.borrow();
    Ok(Value::bool(!f.open || f.writer.is_some() || f.pos >= f.text.len()))
}

fn is_open(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("is_open", obj, span)?;
    let open = f.borrow().open;
    Ok(Value::bool(open))
}

/// `F.close()` closes a file (`G.close([flag])` is in graph.rs).
fn close(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let f = this::<FileRef>("close", obj, span)?;
    if !args.is_empty() {
        return fail(span, "`F.close()` of a file takes no arguments");
    }
    let mut f = f.borrow_mut();
    f.open = false;
    f.writer = None;
    f.text = String::new();
    f.pos = 0;
    Ok(Value::bool(true))
}

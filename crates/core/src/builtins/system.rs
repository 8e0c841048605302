//! The `System` module.

use super::{function, Arity, Builtin};
use crate::eval::{Interp, R};
use crate::value::Value;
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    function("System.args", Arity::exactly(0), args)
        .doc("System.args()", "the command-line arguments after the script"),
    function("System.time", Arity::range(0, 1), time)
        .doc("System.time([reset])", "milliseconds since the last reset, and a reset unless reset is False"),
    function("System.version", Arity::exactly(0), version).doc("System.version()", "the version of ds as a number"),
    function("System.versionStr", Arity::exactly(0), version_str)
        .doc("System.versionStr()", "the version of ds as text"),
    function("System.exit", Arity::range(0, 1), exit)
        .doc("System.exit([code])", "ends the script with exit status code (0)"),
    function("System.error", Arity::exactly(0), error).doc("System.error()", "always False: an error stops the script"),
    function("System.errorMsg", Arity::exactly(0), error_msg)
        .doc("System.errorMsg()", "always \"\": an error stops the script"),
    function("System.stat", Arity::exactly(0), stat)
        .doc("System.stat()", "prints how many times each demon was called"),
    function("System.line", Arity::range(0, 1), line)
        .doc("System.line([depth])", "the line of this call, or of the demon call depth levels up"),
    function("System.traceLevel", Arity::range(0, 1), trace_level)
        .doc("System.traceLevel([level])", "a setting of the original's messages, kept and returned"),
];

/// `System.error()`: True if an error happened since the last call. An error stops a ds
/// program, so a running program never has one pending: always False.
fn error(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::bool(false))
}

/// `System.errorMsg()`: the text of the last error; "" (see `System.error`).
fn error_msg(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::str(""))
}

/// `System.stat()`: prints how many times each demon was called, most called first.
fn stat(it: &mut Interp, _: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let mut rows: Vec<(u64, String)> =
        it.demons.iter().flatten().map(|d| (d.calls.get(), d.name.to_string())).filter(|(n, _)| *n > 0).collect();
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    let mut text = String::from("Functions calls stat:\n");
    for (n, name) in rows {
        text.push_str(&format!("{n:>8}    : {name}\n"));
    }
    it.write_out(&text, span)?;
    Ok(Value::Logic(crate::value::Logic::UNDEF))
}

/// `System.line([depth])`: the line of this call, or with depth n the line of the demon call n
/// levels up (0 at the top).
fn line(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let depth = match args.first() {
        None => 0,
        Some(Value::Num(n)) if *n >= 0.0 => *n as usize,
        Some(other) => {
            return crate::eval::fail(span, format!("`System.line` takes a depth >= 0, not {}", it.text(other)))
        }
    };
    let place = if depth == 0 { Some(span) } else { it.call_site(depth) };
    Ok(Value::Num(place.map_or(0, |p| it.line_of(p)) as f64))
}

/// `System.traceLevel([level])`: which messages the original showed ("Verbose", "Info",
/// "Warnings", "Errors", "Disable"). ds keeps the setting and returns it; its errors always show.
fn trace_level(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match args.first() {
        None => {}
        Some(Value::Str(s)) if ["Verbose", "Info", "Warnings", "Errors", "Disable"].contains(&&**s) => {
            it.kept::<TraceLevel>().0 = Some(s.clone());
        }
        Some(other) => {
            return crate::eval::fail(
                span,
                format!(
                    "`System.traceLevel` takes \"Verbose\", \"Info\", \"Warnings\", \"Errors\" or \"Disable\", not {}",
                    it.text(other)
                ),
            )
        }
    }
    Ok(Value::str(it.kept::<TraceLevel>().0.as_deref().unwrap_or("Warnings")))
}

/// `System.traceLevel()`'s setting (None: "Warnings"), kept and returned: ds shows every
/// error whatever it is.
#[derive(Default)]
struct TraceLevel(Option<crate::value::Str>);

/// Stops the program; the exit status is the argument (default 0), from 0 to 255.
fn exit(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let code = match args.first() {
        None => 0.0,
        Some(Value::Num(n)) if (0.0..=255.0).contains(n) && n.fract() == 0.0 => *n,
        Some(Value::Num(n)) => {
            let n = crate::value::number::format_number(*n);
            return crate::eval::fail(span, format!("`System.exit` takes a whole number from 0 to 255, not {n}"));
        }
        Some(other) => {
            return crate::eval::fail(span, format!("`System.exit` takes a whole number, not {}", other.described()))
        }
    };
    Err(crate::eval::Flow::Exit(code as i32))
}

fn args(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::array(it.args.iter().map(|a| Value::str(a)).collect()))
}

/// Milliseconds since the last reset (the start of the run at first). The timer resets unless
/// the argument is False: `System.time()` measures from one call to the next (reference 7.9).
fn time(it: &mut Interp, _: Option<Value>, args: &[Value], _: Span) -> R<Value> {
    let reset = !args.first().is_some_and(|a| matches!(a, Value::Logic(l) if l.is_false()));
    Ok(Value::Num(it.timer(reset).as_secs_f64() * 1000.0))
}

fn version(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    let v: Vec<f64> = env!("CARGO_PKG_VERSION").split('.').filter_map(|p| p.parse().ok()).collect();
    Ok(Value::Num(v.iter().fold(0.0, |acc, p| acc * 1000.0 + p)))
}

fn version_str(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::str(env!("CARGO_PKG_VERSION")))
}

//! The `System` module.

use super::{function, Arity, Builtin};
use crate::eval::{Interp, R};
use crate::syntax::Span;
use crate::value::Value;

pub const BUILTINS: &[Builtin] = &[
    function("System.args", Arity::exactly(0), args),
    function("System.time", Arity::range(0, 1), time),
    function("System.version", Arity::exactly(0), version),
    function("System.versionStr", Arity::exactly(0), version_str),
    function("System.exit", Arity::range(0, 1), exit),
];

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

/// Milliseconds since the start of the run (or the last reset with `System.time(True)`).
fn time(it: &mut Interp, _: Option<Value>, args: &[Value], _: Span) -> R<Value> {
    let ms = it.started.elapsed().as_secs_f64() * 1000.0;
    if args.first().is_some_and(Value::is_exactly_true) {
        it.started = std::time::Instant::now();
    }
    Ok(Value::Num(ms))
}

fn version(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    let v: Vec<f64> = env!("CARGO_PKG_VERSION").split('.').filter_map(|p| p.parse().ok()).collect();
    Ok(Value::Num(v.iter().fold(0.0, |acc, p| acc * 1000.0 + p)))
}

fn version_str(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::str(env!("CARGO_PKG_VERSION")))
}

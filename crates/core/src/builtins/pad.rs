//! Padding for tables: `X.pad(n)`, `X.padStart(n)`, `X.center(n)` give the printed form of any
//! value widened to n characters (every search script that prints a table wrote its own).

use super::{arg, method, object, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::value::{Value, MAX_TEXT};
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    method("pad", Arity::range(1, 2), pad)
        .doc("X.pad(n [, fill])", "the text of X left-aligned in n characters (filled with spaces, or fill, after it)"),
    method("padStart", Arity::range(1, 2), pad_start)
        .doc("X.padStart(n [, fill])", "the text of X right-aligned in n characters (filled before it): for numbers"),
    method("center", Arity::range(1, 2), center)
        .doc("X.center(n [, fill])", "the text of X centred in n characters (an odd fill goes after it)"),
];

/// Where the fill goes.
#[derive(Clone, Copy)]
enum Align {
    Left,
    Right,
    Center,
}

fn pad(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    widen(it, "pad", Align::Left, obj, args, span)
}

fn pad_start(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    widen(it, "padStart", Align::Right, obj, args, span)
}

fn center(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    widen(it, "center", Align::Center, obj, args, span)
}

/// The text of the object, filled up to the width (in characters); a longer text stays whole.
fn widen(it: &mut Interp, name: &str, align: Align, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let text = match object(obj, span)? {
        Value::Str(s) => s.to_string(),
        other => it.text_for_output(&other, span)?,
    };
    let width = arg::<f64>(args, 0, name, span)?;
    if !(0.0..=MAX_TEXT as f64).contains(&width) {
        return fail(span, format!("the width of `{name}` is a number from 0 to 100 million"));
    }
    let fill = match args.get(1) {
        None => ' ',
        Some(Value::Str(s)) if s.chars().count() == 1 => s.chars().next().unwrap_or(' '),
        Some(other) => {
            let got = it.text(other);
            return fail(span, format!("the fill of `{name}` is one character, not `{got}`"));
        }
    };
    let missing = (width as usize).saturating_sub(text.chars().count());
    let (before, after) = match align {
        Align::Left => (0, missing),
        Align::Right => (missing, 0),
        Align::Center => (missing / 2, missing - missing / 2),
    };
    let mut out = String::with_capacity(text.len() + missing * fill.len_utf8());
    out.extend(std::iter::repeat_n(fill, before));
    out.push_str(&text);
    out.extend(std::iter::repeat_n(fill, after));
    it.text_work(out.len(), span)?;
    Ok(Value::str(&out))
}

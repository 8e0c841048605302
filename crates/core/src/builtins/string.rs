//! String methods. Positions are byte offsets, as in the reference.

use super::{arg, method, regexp, this, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::value::text::clamp;
use crate::value::{Str, Value, MAX_TEXT};
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    method("substr", Arity::range(1, 2), substr).doc(
        "S.substr(start [, len])",
        "the len bytes (all the rest) of S from start; a negative start counts from the end",
    ),
    method("substring", Arity::range(1, 2), substring).doc(
        "S.substring(start [, end])",
        "the bytes of S from start up to end (the end); negative positions count from the end",
    ),
    method("indexOf", Arity::range(1, 2), index_of)
        .doc("S.indexOf(sub [, from])", "the position of the first sub in S (from position from on), or -1"),
    method("split", Arity::range(0, 2), split).doc(
        "S.split([regex [, max]])",
        "the pieces of S between matches of regex (a space by default; \"\" splits into characters), at most max",
    ),
    method("trim", Arity::exactly(0), trim).doc("S.trim()", "S without white space at either end"),
    method("replace", Arity::range(2, 3), replace).doc(
        "S.replace(a, b [, n])",
        "S with the first n (1; negative: every) occurrences of the text a replaced by b",
    ),
    method("repeat", Arity::exactly(1), repeat).doc("S.repeat(n)", "S written n times in a row"),
    method("include", Arity::exactly(1), include).doc("S.include(s)", "True when the text s occurs in S"),
    method("startsWith", Arity::exactly(1), starts_with).doc("S.startsWith(s)", "True when S begins with s"),
    method("endsWith", Arity::exactly(1), ends_with).doc("S.endsWith(s)", "True when S ends with s"),
    method("upper", Arity::exactly(0), upper).doc("S.upper()", "S in upper case"),
    method("lower", Arity::exactly(0), lower).doc("S.lower()", "S in lower case"),
    method("search", Arity::exactly(1), search)
        .doc("S.search(regex)", "the position of the first match of the regular expression in S, or -1"),
    method("replaceRegexp", Arity::exactly(2), replace_regexp).doc(
        "S.replaceRegexp(regex, format)",
        "S with every match replaced by format, where $& is the match, $1... its groups and $$ a dollar",
    ),
];

/// The string a method works on. Reading it and the string arguments is counted as work
/// (`Interp::text_work`): a search through 100 MB is far more than a step.
fn text(it: &mut Interp, name: &str, obj: Option<Value>, args: &[Value], span: Span) -> R<Str> {
    let s: Str = this(name, obj, span)?;
    let read: usize = args.iter().map(|a| if let Value::Str(t) = a { t.len() } else { 0 }).sum();
    it.text_work(s.len().saturating_add(read), span)?;
    Ok(s)
}

/// A string a method made, its making counted as work like its reading.
fn made(it: &mut Interp, s: &str, span: Span) -> R<Value> {
    it.text_work(s.len(), span)?;
    Ok(Value::str(s))
}

/// The bytes a..b (clamped), each end moved back to a character boundary.
fn slice(it: &mut Interp, s: &str, a: usize, b: usize, span: Span) -> R<Value> {
    let part = crate::value::text::part(s, a, b);
    it.text_work(part.len(), span)?;
    Ok(Value::substr(part))
}

fn substr(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "substr", obj, args, span)?;
    let start = arg::<f64>(args, 0, "substr", span)?;
    let count = if args.len() > 1 { Some(arg::<f64>(args, 1, "substr", span)?) } else { None };
    let part = crate::value::text::substr(&s, start, count);
    it.text_work(part.len(), span)?;
    Ok(Value::substr(part))
}

fn substring(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    // A string and numbers (the 8-puzzle's `S.substring(0, I)`): what `text` and `arg` would
    // check, without moving the string out of its value or looking the arguments up twice.
    if let (Some(Value::Str(s)), [Value::Num(a), rest @ ..]) = (&obj, args) {
        let end = match rest {
            [] => Some(s.len()),
            [Value::Num(b)] => Some(clamp(*b, s.len())),
            _ => None,
        };
        if let Some(end) = end {
            it.text_work(s.len(), span)?;
            return slice(it, s, clamp(*a, s.len()), end, span);
        }
    }
    let s = text(it, "substring", obj, args, span)?;
    let start = clamp(arg::<f64>(args, 0, "substring", span)?, s.len());
    let end = if args.len() > 1 { clamp(arg::<f64>(args, 1, "substring", span)?, s.len()) } else { s.len() };
    slice(it, &s, start, end, span)
}

fn index_of(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "indexOf", obj, args, span)?;
    let sub = arg::<&str>(args, 0, "indexOf", span)?;
    let mut from = if args.len() > 1 { arg::<f64>(args, 1, "indexOf", span)?.max(0.0) as usize } else { 0 };
    while from < s.len() && !s.is_char_boundary(from) {
        from += 1; // a position inside a character: search from the next one
    }
    let found = s.get(from..).and_then(|rest| rest.find(sub)).map(|i| i + from);
    Ok(Value::Num(found.map_or(-1.0, |i| i as f64)))
}

/// Splits at the matches of a regular expression (default a space); at most `max` pieces, the
/// last one holding the rest. An empty separator splits into characters.
fn split(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "split", obj, args, span)?;
    let sep = if args.is_empty() { " " } else { arg::<&str>(args, 0, "split", span)? };
    // A negative (or no) maximum: every piece.
    let max = match args.get(1) {
        Some(_) => match arg::<f64>(args, 1, "split", span)? {
            n if n < 0.0 => usize::MAX,
            n => n as usize,
        },
        None => usize::MAX,
    };
    if sep.is_empty() {
        return split_chars(it, &s, max, span);
    }
    let p = regexp::compile(it, sep, "split", span)?;
    let pieces = regexp::run(it, &p, &s, span, move |re, s, cancel| regexp::split(re, s, max.max(1), cancel))?;
    it.work(0, span)?; // the pieces may have passed the memory limit
    let pieces = pieces.or_else(|e| fail(span, e))?;
    it.bulk(pieces.len(), PIECE_BYTES, span)?;
    values_under_meter(it, pieces.len(), pieces.iter().map(|p| Value::str(p)), span)
}

/// `S.split("")`: at most `max` characters, each a string, made under a meter (forty million
/// characters take seconds, past `--timeout`).
fn split_chars(it: &mut Interp, s: &str, max: usize, span: Span) -> R<Value> {
    let count = s.chars().count().min(max);
    if count > regexp::MAX_PIECES {
        return fail(span, format!("`split` would make more than {} pieces", regexp::MAX_PIECES));
    }
    it.bulk(count, PIECE_BYTES, span)?;
    let chars = s.chars().take(count).map(|c| Value::str(c.encode_utf8(&mut [0; 4])));
    values_under_meter(it, count, chars, span)
}

/// An array of the pieces, each a step of work, made under a meter: tens of millions of
/// pieces take seconds, and the limits must see them being made.
fn values_under_meter(it: &mut Interp, count: usize, pieces: impl Iterator<Item = Value>, span: Span) -> R<Value> {
    let meter = it.meter();
    let mut out = Vec::with_capacity(count);
    for p in pieces {
        out.push(p);
        if meter.tick(1) {
            break;
        }
    }
    it.charge(&meter, span)?;
    Ok(Value::array(out))
}

/// The memory a piece of `split` takes: its value and a small string (and, from a regular
/// expression, the piece it was made from).
const PIECE_BYTES: usize = std::mem::size_of::<Value>() + 48;

/// `S.search(regex)`: the byte position of the first match, or -1.
fn search(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "search", obj, args, span)?;
    let p = regexp::compile(it, arg::<&str>(args, 0, "search", span)?, "search", span)?;
    let found = regexp::run(it, &p, &s, span, |re, s, _| re.find(s).map(|m| m.start()))?;
    Ok(Value::Num(found.map_or(-1.0, |i| i as f64)))
}

/// `S.replaceRegexp(regex, format)`: every match replaced by `format`, where `$&` is the
/// match, `$1`..`$99` its groups and `$$` a dollar sign (as in ECMAScript).
fn replace_regexp(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "replaceRegexp", obj, args, span)?;
    let p = regexp::compile(it, arg::<&str>(args, 0, "replaceRegexp", span)?, "replaceRegexp", span)?;
    let format = ecma_format(arg::<&str>(args, 1, "replaceRegexp", span)?);
    let result = regexp::run(it, &p, &s, span, move |re, s, cancel| regexp::replace(re, s, &format, cancel))?;
    made(it, &result.or_else(|e| fail(span, e))?, span)
}

/// An ECMAScript replacement format in the `regex` crate's syntax: `$&` -> `${0}`, `$1` ->
/// `${1}` (so that `$1a` is group 1 and an `a`), `$$` stays, any other `$` is literal.
fn ecma_format(f: &str) -> String {
    let mut out = String::with_capacity(f.len() + 8);
    let mut chars = f.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '$' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('$') => {
                chars.next();
                out.push_str("$$");
            }
            Some('&') => {
                chars.next();
                out.push_str("${0}");
            }
            Some(d) if d.is_ascii_digit() => {
                let mut n = String::new();
                while let Some(d) = chars.peek().copied().filter(|d| d.is_ascii_digit() && n.len() < 2) {
                    n.push(d);
                    chars.next();
                }
                out.push_str(&format!("${{{n}}}"));
            }
            _ => out.push_str("$$"),
        }
    }
    out
}

fn trim(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "trim", obj, args, span)?;
    made(it, s.trim(), span)
}

/// Replaces the first `count` occurrences (default 1; negative: all).
fn replace(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "replace", obj, args, span)?;
    let from = arg::<&str>(args, 0, "replace", span)?;
    let to = arg::<&str>(args, 1, "replace", span)?;
    let count = if args.len() > 2 { arg::<f64>(args, 2, "replace", span)? } else { 1.0 };
    if from.is_empty() {
        return Ok(Value::Str(s));
    }
    if to.len() > from.len() {
        // Refuse a result over 100 MB before making it (counting the matches only when it might be).
        let most = if count < 0.0 { usize::MAX } else { count as usize };
        let grow = to.len() - from.len();
        let longest = s.len().saturating_add((s.len() / from.len()).min(most).saturating_mul(grow));
        if longest > MAX_TEXT && s.len() + s.matches(from).take(most).count() * grow > MAX_TEXT {
            return fail(span, "`replace` would make a string longer than 100 MB");
        }
    }
    made(it, &if count < 0.0 { s.replace(from, to) } else { s.replacen(from, to, count as usize) }, span)
}

fn repeat(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "repeat", obj, args, span)?;
    let n = arg::<f64>(args, 0, "repeat", span)?.max(0.0) as usize;
    if s.len().saturating_mul(n) > MAX_TEXT {
        return fail(span, "`repeat` would make a string longer than 100 MB");
    }
    // The string is made, then copied into its value: twice its size.
    it.bulk(s.len().saturating_mul(n) / 16, 32, span)?;
    Ok(Value::str(&str::repeat(&s[..], n)))
}

fn include(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "include", obj, args, span)?;
    Ok(Value::bool(s.contains(arg::<&str>(args, 0, "include", span)?)))
}

fn starts_with(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "startsWith", obj, args, span)?;
    Ok(Value::bool(s.starts_with(arg::<&str>(args, 0, "startsWith", span)?)))
}

fn ends_with(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "endsWith", obj, args, span)?;
    Ok(Value::bool(s.ends_with(arg::<&str>(args, 0, "endsWith", span)?)))
}

fn upper(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "upper", obj, args, span)?;
    // ASCII text (the usual case) is many times faster to convert byte by byte.
    made(it, &if s.is_ascii() { s.to_ascii_uppercase() } else { s.to_uppercase() }, span)
}

fn lower(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = text(it, "lower", obj, args, span)?;
    made(it, &if s.is_ascii() { s.to_ascii_lowercase() } else { s.to_lowercase() }, span)
}

//! A chain of `+` (`ExKind::Sum`) as a closure, for the strings it builds: the 8-puzzle's
//! `S.substring(0, I) + S[J] + S.substring(I + 1, J) + S[I] + S.substring(J + 1)`, or the same
//! with `substr`. A piece that is a slice or a one-byte index of a local string, with number positions, is copied
//! straight from that string into the buffer, without the method call, its argument values
//! and the string value each piece made. It gives what `Interp::sum` gives, with the same work
//! counted: a piece that cannot be read this way (the local holds no string, a position is no
//! number, the string is long enough for its length to count as work) is evaluated as the tree
//! walker would, and appended as `sum` appends it.

use super::expr::value;
use super::expr::ValueFn;
use super::num::Arg;
use crate::compile::ir::{Ex, ExKind, Slot};
use crate::compile::registry::Callee;
use crate::eval::expr::position;
use crate::eval::ops::push_within;
use crate::eval::{Interp, R};
use crate::value::{Str, Value};
use ds_syntax::ast::BinOp;
use ds_syntax::Span;

/// Strings up to this length count no work when sliced (`Interp::text_work`): the direct
/// copy is taken only for them, so that the steps stay those of the method call.
const FREE_TEXT: usize = 4096;

/// An operand of the chain, with the span of the `+` it ends (for errors).
struct Piece {
    direct: Option<Direct>,
    value: ValueFn,
    span: Span,
}

/// A piece read straight from a local string.
enum Direct {
    /// `S.substring(a)` / `S.substring(a, b)`, and `S.substr(a)` / `S.substr(a, n)` (`count`).
    Slice { s: usize, from: Arg, to: Option<Arg>, count: bool },
    /// `S[i]`: one byte.
    Byte { s: usize, at: Arg },
}

/// The chain `items` (three or more operands) as a closure.
pub(super) fn sum(items: &[(Ex, Span)], depth: u32) -> ValueFn {
    let pieces: Box<[Piece]> =
        items.iter().map(|(e, span)| Piece { direct: Direct::new(e), value: value(e, depth), span: *span }).collect();
    let all_direct = pieces.len() <= MAX_JOINED && pieces.iter().all(|p| p.direct.is_some());
    Box::new(move |it| {
        if all_direct {
            if let Some(text) = joined(it, &pieces) {
                return Ok(Value::Str(text));
            }
        }
        let (first, rest) = pieces.split_first().expect("a sum has operands");
        let text = match first.direct.as_ref().and_then(|d| d.read(it)) {
            Some(part) => crate::value::text::copied(part),
            None => match (first.value)(it)? {
                Value::Str(s) => s,
                acc => return numbers_first(it, acc, rest),
            },
        };
        append_all(it, text, rest)
    })
}

/// At most this many pieces are read all at once by `joined`.
const MAX_JOINED: usize = 8;

/// The chain when every piece reads in place and the whole is short enough that no copy of it
/// counts as work: each piece read, then one copy of them all (None: a piece does not read in
/// place; the reads have no side effects, so the general path reads them again).
#[inline(always)]
fn joined(it: &Interp, pieces: &[Piece]) -> Option<Str> {
    let mut parts = [""; MAX_JOINED];
    let mut len = 0;
    for (part, p) in parts.iter_mut().zip(pieces) {
        *part = p.direct.as_ref()?.read(it)?;
        len += part.len();
    }
    (len <= FREE_TEXT).then(|| crate::value::text::joined(&parts[..pieces.len()]))
}

/// `Interp::sum` from a first operand that is not a string: `+` by `+` until the running
/// value is one.
fn numbers_first(it: &mut Interp, mut acc: Value, pieces: &[Piece]) -> R<Value> {
    for (i, p) in pieces.iter().enumerate() {
        if let Value::Str(s) = acc {
            return append_all(it, s, &pieces[i..]);
        }
        let r = (p.value)(it)?;
        acc = it.binary_values(BinOp::Add, acc, r, p.span)?;
    }
    Ok(acc)
}

/// `Interp::append_all`: every piece appended to `text`.
fn append_all(it: &mut Interp, mut text: Str, pieces: &[Piece]) -> R<Value> {
    for p in pieces {
        let copied = match p.direct.as_ref().and_then(|d| d.read(it)) {
            Some(part) => push_within(&mut text, part, p.span)?,
            None => {
                let v = (p.value)(it)?;
                it.append(&mut text, &v, p.span)?;
                continue;
            }
        };
        it.copy_work(copied, p.span)?;
    }
    Ok(Value::Str(text))
}

impl Direct {
    fn new(e: &Ex) -> Option<Direct> {
        match &e.kind {
            ExKind::Builtin { name: name @ ("substring" | "substr"), f: Callee::Fn(_), object: Some(o), args } => {
                let (s, count) = (local(o)?, *name == "substr");
                match &args[..] {
                    [a] => Some(Direct::Slice { s, from: Arg::new(a)?, to: None, count }),
                    [a, b] => Some(Direct::Slice { s, from: Arg::new(a)?, to: Some(Arg::new(b)?), count }),
                    _ => None,
                }
            }
            ExKind::Index { object, index } => Some(Direct::Byte { s: local(object)?, at: Arg::new(index)? }),
            _ => None,
        }
    }

    /// The part, as the method call or the index gives it; None: evaluate the piece instead.
    #[inline(always)]
    fn read<'a>(&self, it: &'a Interp) -> Option<&'a str> {
        match self {
            Direct::Slice { s, from, to, count } => {
                let Value::Str(s) = it.local(*s) else { return None };
                if s.len() >= FREE_TEXT {
                    return None;
                }
                let (a, b) = (
                    from.get(it)?,
                    match to {
                        Some(b) => Some(b.get(it)?),
                        None => None,
                    },
                );
                Some(if *count { crate::value::text::substr(s, a, b) } else { crate::value::text::substring(s, a, b) })
            }
            Direct::Byte { s, at } => {
                let Value::Str(s) = it.local(*s) else { return None };
                let at = at.get(it)?;
                Some(match position(at, s.len()) {
                    Some(p) => s.get(p..p + 1).unwrap_or(""),
                    None => "",
                })
            }
        }
    }
}

/// The local variable `e` reads, if it is one.
fn local(e: &Ex) -> Option<usize> {
    match e.kind {
        ExKind::Var(Slot::Local(i)) => Some(i as usize),
        _ => None,
    }
}

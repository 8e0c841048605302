//! Binary operators.

use super::{fail, Interp, R};
use crate::value::{Logic, Str, Value, MAX_TEXT};
use crate::world::facts::Fact;
use ds_syntax::ast::BinOp;
use ds_syntax::Span;
use std::cmp::Ordering;

impl Interp {
    #[inline(never)]
    pub fn binary(&mut self, op: BinOp, l: Value, r: Value, span: Span) -> R<Value> {
        use BinOp::*;
        match op {
            Add => self.add(l, r, span),
            Sub if matches!((&l, &r), (Value::Graph(_), Value::Graph(_))) => self.graph_algebra(op, &l, &r, span),
            Sub | Mul | Div | IntDiv | Rem => arithmetic(op, &l, &r, span),
            Eq | Ne => {
                self.warn_other_world(&l, &r, op, span)?;
                // Comparing containers looks at their items, and strings at their bytes:
                // work for the limits.
                self.bulk(l.items().min(r.items()), 0, span)?;
                self.text_work(text_len(&l).min(text_len(&r)), span)?;
                Ok(Value::bool(l.equals(&r) == (op == Eq)))
            }
            Lt | Le | Gt | Ge => {
                self.text_work(text_len(&l).min(text_len(&r)), span)?;
                Ok(Value::Logic(match l.compare(&r) {
                    Some(o) => Logic::from_bool(match op {
                        Lt => o == Ordering::Less,
                        Le => o != Ordering::Greater,
                        Gt => o == Ordering::Greater,
                        _ => o != Ordering::Less,
                    }),
                    None => Logic::UNDEF,
                }))
            }
            And | Or | Implies | Equiv => Ok(Value::Logic(match (&l, &r) {
                (Value::Logic(a), Value::Logic(b)) => match op {
                    And => a.and(*b),
                    Or => a.or(*b),
                    Implies => a.implies(*b),
                    _ => a.equiv(*b),
                },
                _ => Logic::UNDEF,
            })),
        }
    }

    /// `G == H` where G and H are states of two different worlds (two `GRAPH(...)` calls): never
    /// equal, whatever their edges, which is almost always a mistake (docs/language.md,
    /// decision 15).
    fn warn_other_world(&mut self, l: &Value, r: &Value, op: BinOp, span: Span) -> R<()> {
        let (Value::Graph(a), Value::Graph(b)) = (l, r) else { return Ok(()) };
        let (a, b) = (a.borrow(), b.borrow());
        if a.class == b.class {
            return Ok(());
        }
        let (sym, answer) = if op == BinOp::Eq { ("==", "False") } else { ("!=", "True") };
        let message =
            format!("`{}` {sym} `{}` compares states of two different worlds: always {answer}", a.name, b.name);
        let d = ds_base::diagnostics::Diagnostic::warning(span, message).with_note(
            "each `GRAPH(...)` starts a new world, with nodes of its own even when their names are the same; \
             make the second state a copy of the first (`Goal = Start.copy()`) and change its edges",
        );
        drop((a, b));
        self.warn(d)
    }

    /// A binary operator on evaluated operands. Two numbers (loops, arithmetic) are handled
    /// inline at every call site; the rest goes to `binary_values_slow`.
    #[inline(always)]
    pub fn binary_values(&mut self, op: BinOp, l: Value, r: Value, span: Span) -> R<Value> {
        if let (Value::Num(a), Value::Num(b)) = (&l, &r) {
            if let Some(v) = numbers(op, *a, *b) {
                // Numbers own nothing: skip the out-of-line drop glue.
                std::mem::forget((l, r));
                return Ok(v);
            }
        }
        self.binary_values_slow(op, l, r, span)
    }

    /// Logic values, node comparisons (the operands of search conditions) and joining two
    /// strings take a short path; everything else is `binary`.
    #[inline(never)]
    fn binary_values_slow(&mut self, op: BinOp, l: Value, r: Value, span: Span) -> R<Value> {
        if let (Value::Str(_), Value::Str(_), BinOp::Add) = (&l, &r, op) {
            return self.concat(&l, &r, span).map(Value::Str);
        }
        match by_reference(op, &l, &r) {
            Some(v) => {
                l.discard();
                r.discard();
                Ok(v)
            }
            None => self.binary(op, l, r, span),
        }
    }

    /// `l + r` as text.
    fn concat(&mut self, l: &Value, r: &Value, span: Span) -> R<Str> {
        let mut text = match l {
            Value::Str(s) => s.clone(),
            other => self.text_for_output(other, span)?.into(),
        };
        self.append(&mut text, r, span)?;
        Ok(text)
    }

    /// `text` with the printed form of `v` after it, if the result stays within `MAX_TEXT`.
    #[inline(always)]
    pub(super) fn append(&mut self, text: &mut Str, v: &Value, span: Span) -> R<()> {
        let printed;
        let piece = match v {
            Value::Str(s) => s.as_str(),
            other => {
                printed = self.text_for_output(other, span)?;
                printed.as_str()
            }
        };
        let copied = push_within(text, piece, span)?;
        self.copy_work(copied, span)
    }

    /// A string `+` would make must stay within `MAX_TEXT`.
    #[inline(always)]
    pub(super) fn check_text_len(&self, len: usize, span: Span) -> R<()> {
        if len > MAX_TEXT {
            return too_long(span);
        }
        Ok(())
    }

    /// Text copied by `+` is work, a step per 256 bytes when long: a loop growing a 100 MB
    /// string would pass --timeout by far between checks.
    #[inline(always)]
    pub(super) fn copy_work(&mut self, copied: usize, span: Span) -> R<()> {
        if copied > 4096 {
            self.work(copied as u64 / 256, span)?;
        }
        Ok(())
    }

    fn add(&mut self, l: Value, r: Value, span: Span) -> R<Value> {
        match (&l, &r) {
            (Value::Graph(_), Value::Graph(_)) => self.graph_algebra(BinOp::Add, &l, &r, span),
            (Value::Num(a), Value::Num(b)) => Ok(Value::Num(a + b)),
            (Value::Str(_), _) | (_, Value::Str(_)) | (Value::Node(_), _) => Ok(Value::Str(self.concat(&l, &r, span)?)),
            (Value::Array(_), Value::Array(_)) | (Value::Map(_), Value::Map(_)) => {
                self.bulk(l.items() + r.items(), std::mem::size_of::<Value>(), span)?;
                if let Value::Map(_) = r {
                    self.work(r.items() as u64, span)?; // each entry of r is hashed in
                }
                Ok(combined(&l, &r))
            }
            _ => fail(span, format!("cannot add {} and {}", l.described(), r.described())),
        }
    }
}

/// `A + B` of two arrays (A's items, then B's) or two maps (B's entries win).
fn combined(l: &Value, r: &Value) -> Value {
    match (l, r) {
        (Value::Array(a), Value::Array(b)) => {
            let mut v = a.to_vec();
            v.extend(b.borrow().iter().cloned());
            Value::array(v)
        }
        (Value::Map(a), Value::Map(b)) => {
            let mut m = a.borrow().clone();
            for (k, v) in b.borrow().iter() {
                m.insert(k.clone(), v.clone());
            }
            Value::Map(std::rc::Rc::new(std::cell::RefCell::new(m)))
        }
        _ => Value::None,
    }
}

/// `a op b` on numbers where that cannot fail; None sends the operator down the general path
/// (division by zero, `\\`, a comparison with NaN, which is Undef).
#[inline(always)]
pub(super) fn numbers(op: BinOp, a: f64, b: f64) -> Option<Value> {
    use BinOp::*;
    Some(match op {
        Add => Value::Num(a + b),
        Sub => Value::Num(a - b),
        Mul => Value::Num(a * b),
        Div if b != 0.0 => Value::Num(a / b),
        Rem if b != 0.0 => Value::Num(remainder(a, b)),
        Eq => Value::bool(a == b),
        Ne => Value::bool(a != b),
        Lt if !a.is_nan() && !b.is_nan() => Value::bool(a < b),
        Le if !a.is_nan() && !b.is_nan() => Value::bool(a <= b),
        Gt if !a.is_nan() && !b.is_nan() => Value::bool(a > b),
        Ge if !a.is_nan() && !b.is_nan() => Value::bool(a >= b),
        _ => return None,
    })
}

/// `numbers` where the result is a number (`+ - * / %` that cannot fail), as an `f64`: no
/// `Value` to build and drop. None for every other case, comparisons included.
#[inline(always)]
pub(super) fn number(op: BinOp, a: f64, b: f64) -> Option<f64> {
    use BinOp::*;
    Some(match op {
        Add => a + b,
        Sub => a - b,
        Mul => a * b,
        Div if b != 0.0 => a / b,
        Rem if b != 0.0 => remainder(a, b),
        _ => return None,
    })
}

/// The operators on logic values and `==` / `!=` of nodes (the operands of search
/// conditions), read where the values are (None: another case, for `Interp::binary`).
#[inline(always)]
pub(crate) fn by_reference(op: BinOp, l: &Value, r: &Value) -> Option<Value> {
    match (l, r) {
        (Value::Logic(a), Value::Logic(b)) => logic(op, *a, *b),
        (Value::Node(a), Value::Node(b)) => match op {
            BinOp::Eq => Some(Value::bool(a.class == b.class && a.id == b.id)),
            BinOp::Ne => Some(Value::bool(a.class != b.class || a.id != b.id)),
            _ => None,
        },
        _ => None,
    }
}

/// The logic operators and equality on two logic values.
#[inline]
pub(super) fn logic(op: BinOp, a: Logic, b: Logic) -> Option<Value> {
    Some(Value::Logic(match op {
        BinOp::And => a.and(b),
        BinOp::Or => a.or(b),
        BinOp::Eq => Logic::from_bool(a == b),
        BinOp::Ne => Logic::from_bool(a != b),
        _ => return None,
    }))
}

fn arithmetic(op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
    let (Value::Num(a), Value::Num(b)) = (l, r) else {
        return fail(span, format!("`{}` needs two numbers, not {} and {}", op.symbol(), l.described(), r.described()));
    };
    let (a, b) = (*a, *b);
    let v = match op {
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div | BinOp::IntDiv | BinOp::Rem if b == 0.0 => return fail(span, "division by zero"),
        BinOp::Div => a / b,
        BinOp::IntDiv => {
            let (x, y) = (a.trunc(), b.trunc());
            if y == 0.0 {
                return fail(span, "division by zero");
            }
            (x / y).trunc()
        }
        _ => remainder(a, b),
    };
    Ok(Value::Num(v))
}

/// `a % b` with the sign of `a`, as C's fmod; integers (the usual case) skip the slow libm call.
#[inline]
pub(super) fn remainder(a: f64, b: f64) -> f64 {
    const EXACT: f64 = 9_007_199_254_740_992.0; // 2^53: every integer below is exact
                                                // (false for NaN.) `fract` would be a libm call; the round trip through i64 is two
                                                // instructions, and within 2^53 the conversion cannot overflow.
    if a.abs() < EXACT && b.abs() < EXACT {
        // SAFETY: |a|, |b| < 2^53 are finite and within i64.
        let (x, y) = unsafe { (a.to_int_unchecked::<i64>(), b.to_int_unchecked::<i64>()) };
        if x as f64 == a && y as f64 == b {
            let r = (x % y) as f64;
            // fmod keeps the sign of a zero result: -4 % 2 is -0.
            return if r == 0.0 && a.is_sign_negative() { -0.0 } else { r };
        }
    }
    a % b
}

impl Interp {
    /// `G + H`: G's edges plus H's edges between pairs G leaves open; `G - H`: G's edges that
    /// H does not have with the same value. Both need graphs of one class.
    fn graph_algebra(&mut self, op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
        let (Value::Graph(a), Value::Graph(b)) = (l, r) else { return fail(span, "graph algebra needs two graphs") };
        let (a, b) = (a.borrow(), b.borrow());
        if a.class != b.class {
            return fail(span, format!("`{}` needs two states of one world (graphs of one class)", op.symbol()));
        }
        self.work((a.facts.len() + b.facts.len()) as u64, span)?; // a step per edge looked at
        let facts = crate::world::facts::Facts::from_sorted(merged(op, &a.facts.to_vec(), &b.facts.to_vec()));
        Ok(Value::Graph(self.world.graph_with_facts(&a, facts)))
    }
}

/// `G + H` (G's facts and those of H's that G has no fact for) or `G - H` (G's facts that H
/// lacks or holds with another value), in one pass over both sorted lists: setting the facts
/// one by one moved the list each time, quadratic in its length.
fn merged(op: BinOp, a: &[Fact], b: &[Fact]) -> Vec<Fact> {
    let mut out = Vec::with_capacity(if op == BinOp::Add { a.len() + b.len() } else { a.len() });
    let (mut i, mut j) = (0, 0);
    while i < a.len() {
        match b.get(j).map(|f| f.key.cmp(&a[i].key)) {
            Some(Ordering::Less) => {
                if op == BinOp::Add {
                    out.push(b[j]);
                }
                j += 1;
            }
            Some(Ordering::Equal) => {
                if op == BinOp::Add || b[j].value != a[i].value {
                    out.push(a[i]);
                }
                i += 1;
                j += 1;
            }
            _ => {
                out.push(a[i]);
                i += 1;
            }
        }
    }
    if op == BinOp::Add {
        out.extend_from_slice(&b[j.min(b.len())..]);
    }
    out
}

/// `piece` appended to `text` if the result stays within `MAX_TEXT` (else the error of `+`):
/// the bytes copied, as `push_text` counts them.
#[inline(always)]
pub(super) fn push_within(text: &mut Str, piece: &str, span: Span) -> R<usize> {
    if text.len() + piece.len() > MAX_TEXT {
        return too_long(span);
    }
    Ok(push_text(text, piece))
}

/// Appends `piece` to `text`; the bytes copied: the piece, or the whole text when it moved
/// (it was shared, or its buffer was full and grew).
#[inline(always)]
pub(super) fn push_text(text: &mut Str, piece: &str) -> usize {
    let before = text.as_ptr();
    text.push_str(piece);
    if text.as_ptr() == before {
        piece.len()
    } else {
        text.len()
    }
}

/// The length of a string (0 for any other value).
fn text_len(v: &Value) -> usize {
    match v {
        Value::Str(s) => s.len(),
        _ => 0,
    }
}

/// The error for a `+` whose string would pass `MAX_TEXT`.
fn too_long<T>(span: Span) -> R<T> {
    fail(span, format!("`+` would make a string longer than {} MB", MAX_TEXT / 1_000_000))
}

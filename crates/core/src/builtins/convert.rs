//! Methods every value has (`type`, `string`, `size`, `copy`, conversions) and general functions.

use super::{arg, function, method, object, Arity, Builtin};
use crate::eval::{fail, range_bounds, Interp, R};
use crate::value::display::node_name;
use crate::value::{Logic, NodeVal, Value};
use ds_syntax::Span;

pub const BUILTINS: &[Builtin] = &[
    method("type", Arity::exactly(0), type_).doc("X.type()", "the name of X's type, as a string"),
    method("string", Arity::exactly(0), string).doc("X.string()", "X as `out` would print it, as a string"),
    method("size", Arity::exactly(0), size).doc(
        "X.size()",
        "items of an array, map or heap, bytes of a string or file, nodes of a graph (2 for a logic value, 1 for others)",
    ),
    method("length", Arity::exactly(0), size).doc("X.length()", "the same as `X.size()`"),
    method("copy", Arity::range(0, 1), copy).doc(
        "X.copy([name])",
        "a copy: of a graph, a new state of its world with the same edges; of an array or map, a shallow one",
    ),
    method("copy_deep", Arity::range(0, 1), copy_deep)
        .doc("X.copy_deep([name])", "a copy of arrays and maps at every depth (of a graph, the same as `copy`)"),
    method("float", Arity::exactly(0), float)
        .doc("X.float()", "X as a number: a string parsed, a logic value's truth; None when it is not one"),
    method("logic", Arity::exactly(0), logic)
        .doc("X.logic()", "X as a logic value: 0 False, 1 True, 0.5 half, [p0, p1] that pair; Undef otherwise"),
    method("array", Arity::exactly(0), array)
        .doc("X.array()", "X as an array: a logic value's [p0, p1], a fuzzy number's four, [X] for others"),
    method("fuzzy", Arity::exactly(0), fuzzy)
        .doc("X.fuzzy()", "X as a fuzzy number: x is (x, x, x, x), [a, b, c] is (a, b, b, c), [a, b, c, d] those four"),
    method("count", Arity::exactly(0), size).doc("X.count()", "the same as `X.size()`"),
    function("range", Arity::range(1, 3), range).doc(
        "range(stop) or range(start, stop [, step])",
        "the array of numbers from start (0) up to, not including, stop",
    ),
    function("ARRAY", Arity::exactly(1), array_of).doc("ARRAY(n)", "an array of max(n, 1) Nones"),
];

fn type_(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(Value::str(object(obj, span)?.type_name()))
}

fn string(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let v = object(obj, span)?;
    // A node of the state prints as its name: no printer needed (search scripts name every
    // state they make this way).
    if let Value::Node(n @ NodeVal { graph: None, .. }) = &v {
        return Ok(Value::str(node_name(&it.world, n.class, n.id)));
    }
    Ok(Value::Str(it.text_for_output(&v, span)?.into()))
}

pub(super) fn size(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let v = object(obj, span)?;
    if let Some(f) = super::file::as_file(&v) {
        return Ok(Value::Num(super::file::size_of(&f.borrow()) as f64));
    }
    if let Some(s) = v.as_host::<crate::search::space::Space>() {
        return Ok(Value::Num(s.len() as f64));
    }
    let n = match v {
        Value::Array(a) => a.borrow().len(),
        Value::Map(m) => m.borrow().len(),
        Value::Heap(h) => h.borrow().len(),
        Value::Str(s) => s.len(),
        Value::Graph(g) => it.world.class(g.borrow().class).len(),
        Value::Logic(_) => 2,
        Value::Fuzzy(_) => 4,
        _ => 1,
    };
    Ok(Value::Num(n as f64))
}

fn copy(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Graph(g) => {
            let name = match args.first() {
                Some(Value::Str(s)) => Some(s.clone()),
                Some(other) => {
                    return fail(span, format!("a graph's new name must be a string, not {}", other.described()))
                }
                None => None,
            };
            let copy = it.world.copy_graph(&g.borrow(), name);
            Ok(Value::Graph(copy))
        }
        v => {
            it.bulk(v.items(), std::mem::size_of::<Value>(), span)?;
            Ok(v.shallow_copy())
        }
    }
}

/// Why `copy_deep` stopped.
enum Stop {
    /// Containers nested too deeply (a cycle).
    Nested,
    /// A limit of the run (the meter said so).
    Limit,
}

/// A recursive copy of arrays and maps, each item counted on `meter` (values that share parts
/// are copied as often as they are reached, which can be exponential).
fn deep(v: &Value, depth: usize, meter: &crate::eval::Meter) -> Result<Value, Stop> {
    if depth > crate::value::MAX_NESTING {
        return Err(Stop::Nested);
    }
    if meter.tick(1) {
        return Err(Stop::Limit);
    }
    Ok(match v {
        Value::Array(a) => {
            Value::array(a.borrow().iter().map(|x| deep(x, depth + 1, meter)).collect::<Result<Vec<_>, _>>()?)
        }
        Value::Map(m) => {
            let mut copy = crate::value::Map::default();
            for (k, v) in m.borrow().iter() {
                copy.insert(k.clone(), deep(v, depth + 1, meter)?);
            }
            Value::Map(std::rc::Rc::new(std::cell::RefCell::new(copy)))
        }
        other => other.clone(),
    })
}

fn copy_deep(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        g @ Value::Graph(_) => copy(it, Some(g), args, span),
        v => {
            let meter = it.meter();
            let copied = deep(&v, 0, &meter);
            it.charge(&meter, span)?;
            match copied {
                Ok(copy) => Ok(copy),
                Err(Stop::Limit) => meter.check(span).and_then(|()| fail(span, "`copy_deep` was stopped")),
                Err(Stop::Nested) => {
                    fail(span, "`copy_deep` found containers nested too deeply (does one hold itself?)")
                }
            }
        }
    }
}

fn float(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(match object(obj, span)? {
        Value::Num(n) => Value::Num(n),
        Value::Logic(l) => Value::Num(l.p1),
        Value::Str(s) => s.trim().parse::<f64>().map_or(Value::None, Value::Num),
        _ => Value::None,
    })
}

fn logic(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let from_num = |n: f64| {
        if n == 0.0 {
            Logic::FALSE
        } else if n == 1.0 {
            Logic::TRUE
        } else if n == 0.5 {
            Logic::new(0.5, 0.5)
        } else {
            Logic::UNDEF
        }
    };
    Ok(Value::Logic(match object(obj, span)? {
        Value::Logic(l) => l,
        Value::Num(n) => from_num(n),
        Value::Array(a) => match &*a.slice() {
            [] => Logic::UNDEF,
            [Value::Num(x)] => from_num(*x),
            [Value::Num(a), Value::Num(b), ..] => Logic::new(*a, *b),
            _ => Logic::UNDEF,
        },
        _ => Logic::FALSE,
    }))
}

fn array(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    Ok(match object(obj, span)? {
        a @ Value::Array(_) => a,
        Value::Logic(l) => Value::array(vec![Value::Num(l.p0), Value::Num(l.p1)]),
        Value::Fuzzy(f) => Value::array(f.iter().map(|x| Value::Num(*x)).collect()),
        other => Value::array(vec![other]),
    })
}

/// `X.fuzzy()`: a fuzzy number; a number x is (x, x, x, x), an array of 3 numbers (a, b, c) is
/// (a, b, b, c) and one of 4 is those four.
fn fuzzy(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        f @ Value::Fuzzy(_) => Ok(f),
        Value::Num(x) => Ok(Value::fuzzy([x; 4])),
        Value::Array(a) => match *a.slice() {
            [Value::Num(a), Value::Num(b), Value::Num(c)] => Ok(Value::fuzzy([a, b, b, c])),
            [Value::Num(a), Value::Num(b), Value::Num(c), Value::Num(d)] => Ok(Value::fuzzy([a, b, c, d])),
            _ => fail(span, "`fuzzy` makes a fuzzy number of an array of 3 or 4 numbers"),
        },
        other => fail(span, format!("`fuzzy` converts numbers and arrays of numbers, not {}", other.described())),
    }
}

/// `range(stop)`, `range(start, stop [, step])`: an array of numbers.
fn range(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let nums: Vec<f64> = (0..args.len()).map(|i| arg::<f64>(args, i, "range", span)).collect::<R<_>>()?;
    let (start, stop, step) = range_bounds(&nums, span)?;
    let count = ((stop - start) / step).ceil();
    if count > 50_000_000.0 {
        return fail(span, "`range` would make more than 50 million numbers; use it in a `for` loop instead");
    }
    let n = if count > 0.0 { count as usize } else { 0 };
    it.bulk(n, std::mem::size_of::<Value>(), span)?;
    Ok(Value::array((0..n).map(|i| Value::Num(start + i as f64 * step)).collect()))
}

fn array_of(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = arg::<f64>(args, 0, "ARRAY", span)?;
    if !(0.0..=50_000_000.0).contains(&n) {
        return fail(span, "`ARRAY` size must be between 0 and 50 million");
    }
    it.bulk(n as usize, std::mem::size_of::<Value>(), span)?;
    Ok(Value::array(vec![Value::None; (n as usize).max(1)]))
}

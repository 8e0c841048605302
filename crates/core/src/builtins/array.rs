//! Array (and map) methods: the queue and visited-list operations search scripts live on.

use super::{arg, method, object, this, wrong_object, Arity, Builtin, Receivers};
use crate::eval::{fail, Interp, R};
use crate::value::{ArrayRef, Value};
use ds_syntax::Span;
use std::cmp::Ordering;

pub const BUILTINS: &[Builtin] = &[
    method("push", Arity::at_least(1), push).doc("A.push(v, ...)", "adds the values at the end of array A, in turn"),
    method("pop", Arity::exactly(0), pop).doc("A.pop()", "removes and returns the last item (None when A is empty)"),
    method("shift", Arity::exactly(0), shift)
        .doc("A.shift()", "removes and returns the first item (None when A is empty)"),
    method("unshift", Arity::at_least(1), unshift)
        .doc("A.unshift(v, ...)", "adds the values at the front of A, each in turn"),
    method("empty", Arity::exactly(0), empty)
        .doc("A.empty()", "True when the array, map, string or heap has no items")
        .on(Receivers::ARRAY.or(Receivers::MAP).or(Receivers::STRING).or(Receivers::HEAP)),
    method("is", Arity::exactly(1), is)
        .doc("A.is(v)", "True when array A holds v, or map A has the key v")
        .on(Receivers::ARRAY.or(Receivers::MAP)),
    method("find", Arity::exactly(1), find)
        .doc("A.find(v)", "the position of v in array A, or of the text v in a string; -1 when absent")
        .on(Receivers::ARRAY.or(Receivers::STRING)),
    method("splice", Arity::range(1, 2), splice)
        .doc("A.splice(start [, count])", "removes count items (all the rest) from start and returns them as an array"),
    method("sort", Arity::range(0, 1), sort).doc(
        "A.sort([cmp])",
        "sorts A in place, by type then value, or by cmp(a, b) (negative or True: a first); returns A",
    ),
    method("join", Arity::range(0, 1), join)
        .doc("A.join([sep])", "the items' printed forms joined by sep (\",\" by default)"),
    method("clear", Arity::exactly(0), clear)
        .doc("A.clear()", "removes every item of an array or map")
        .on(Receivers::ARRAY.or(Receivers::MAP)),
    method("keys", Arity::exactly(0), keys)
        .doc("M.keys()", "the keys of map M, in order, as an array")
        .on(Receivers::MAP),
    method("remove", Arity::exactly(1), remove)
        .doc("M.remove(k)", "removes key k from map M and returns its value (None when absent)")
        .on(Receivers::MAP),
    method("mix", Arity::exactly(0), mix)
        .doc("A.mix()", "shuffles A in place (`Math.randomSeed` makes it repeatable); returns A"),
    method("create", Arity::exactly(1), create)
        .doc("A.create(n)", "resizes A to n items, adding Nones or cutting off the end; returns A"),
];

/// `A.mix()`: shuffles A in place (Fisher-Yates, with `Math.random`'s generator, so
/// `Math.randomSeed(n)` makes it repeatable); returns A.
fn mix(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("mix", obj, span)?;
    let n = a.borrow().len();
    it.work(n as u64, span)?; // drawing a random number is a step's work
    {
        let mut items = a.borrow_mut();
        for i in (1..items.len()).rev() {
            let j = ((it.random.number() * (i + 1) as f64) as usize).min(i);
            items.swap(i, j);
        }
    }
    Ok(Value::Array(a))
}

/// `A.create(n)`: A resized to n elements (None added at the end, or the end cut off);
/// returns A.
fn create(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("create", obj, span)?;
    let n = arg::<f64>(args, 0, "create", span)?;
    if !(0.0..=50_000_000.0).contains(&n) {
        return fail(span, "`create` takes a size from 0 to 50 million");
    }
    it.bulk(n as usize, std::mem::size_of::<Value>(), span)?;
    a.borrow_mut().resize(n as usize, Value::None);
    Ok(Value::Array(a))
}

/// Refuses to grow an array past the memory limit (its buffer doubles in one allocation).
fn room(a: &ArrayRef, extra: usize, span: Span) -> R<()> {
    if a.room_for(extra) {
        return Ok(());
    }
    crate::eval::limit_error(span, crate::eval::Limit::Memory, None)
}

/// The array of `shift` and `unshift`, which a heap has not.
fn queue(name: &str, obj: Option<Value>, span: Span) -> R<ArrayRef> {
    if let Some(Value::Heap(_)) = obj {
        return fail(span, format!("a heap has no `{name}`: `pop` takes the item of least priority"));
    }
    this(name, obj, span)
}

fn push(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("push", obj, span)?;
    room(&a, args.len(), span)?;
    a.extend(args.iter().cloned()); // appending keeps the array's index of graphs
    Ok(Value::Logic(crate::value::Logic::UNDEF))
}

fn pop(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("pop", obj, span)?;
    let v = a.borrow_mut().pop_back();
    Ok(v.unwrap_or(Value::None))
}

fn shift(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let a = queue("shift", obj, span)?;
    let v = a.borrow_mut().pop_front();
    Ok(v.unwrap_or(Value::None))
}

/// Each argument goes to the front in turn, so the last one ends up first.
fn unshift(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = queue("unshift", obj, span)?;
    room(&a, args.len(), span)?;
    let mut a = a.borrow_mut();
    for v in args {
        a.push_front(v.clone());
    }
    Ok(Value::Logic(crate::value::Logic::UNDEF))
}

fn empty(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Array(a) => Ok(Value::bool(a.borrow().is_empty())),
        Value::Map(m) => Ok(Value::bool(m.borrow().is_empty())),
        Value::Str(s) => Ok(Value::bool(s.is_empty())),
        Value::Heap(h) => Ok(Value::bool(h.borrow().is_empty())),
        other => wrong_object("empty", &other, "arrays, maps, strings and heaps", span),
    }
}

/// `A.is(v)`: an element equals `v` (for a graph, the array's index of states answers).
fn is(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Array(a) => {
            scan_work(it, &a, &args[0], span)?;
            Ok(Value::bool(a.position(&args[0]).is_some()))
        }
        Value::Map(m) => Ok(Value::bool(m.borrow().contains(&args[0]))),
        other => wrong_object("is", &other, "arrays and maps", span),
    }
}

/// A search for a value other than a graph (graphs are indexed) looks at every item: work.
fn scan_work(it: &mut Interp, a: &ArrayRef, needle: &Value, span: Span) -> R<()> {
    if matches!(needle, Value::Graph(_)) {
        return Ok(());
    }
    let n = a.borrow().len();
    it.bulk(n, 0, span)
}

fn find(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Array(a) => {
            scan_work(it, &a, &args[0], span)?;
            Ok(Value::Num(a.position(&args[0]).map_or(-1.0, |i| i as f64)))
        }
        Value::Str(s) => match &args[0] {
            Value::Str(sub) => {
                // One byte (ASCII, so never inside a character): a plain scan, without the
                // substring searcher's set-up (the 8-puzzle's `S.find("0")`).
                let at = match sub.as_bytes() {
                    &[b] => s.bytes().position(|c| c == b),
                    _ => s.find(&**sub),
                };
                Ok(Value::Num(at.map_or(-1.0, |i| i as f64)))
            }
            other => fail(span, format!("`find` on a string needs a string, not {}", other.described())),
        },
        other => wrong_object("find", &other, "arrays and strings", span),
    }
}

/// `A.splice(start [, count])`: removes and returns the elements.
fn splice(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("splice", obj, span)?;
    let mut a = a.borrow_mut();
    let len = a.len() as f64;
    let mut start = arg::<f64>(args, 0, "splice", span)?.trunc();
    if start < 0.0 {
        start = (start + len).max(0.0);
    }
    let start = start.min(len) as usize;
    let count = match args.get(1) {
        Some(_) => arg::<f64>(args, 1, "splice", span)?.trunc().max(0.0) as usize,
        None => a.len() - start,
    };
    let end = start.saturating_add(count).min(a.len());
    Ok(Value::array(a.drain(start..end).collect()))
}

/// Sorts in place (default: by type, then value); with a lambda `(a, b) => number`, `a` goes
/// first when the result is negative (a logic result: True means `a` first).
fn sort(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("sort", obj, span)?;
    // Without a comparator no script code runs during the sort, so the items are sorted where
    // they are; a comparator may look at the array, so it sorts a copy.
    let mut items = if args.is_empty() { std::mem::take(&mut *a.borrow_mut()).into() } else { a.to_vec() };
    // Comparisons are counted on a meter (four to a step), so a long sort stops at the limits.
    let meter = it.meter();
    let mut count = 0u64;
    let mut tick = move |m: &crate::eval::Meter| {
        count += 1;
        count & 3 == 0 && m.tick(1)
    };
    let sorted = match args.first() {
        None => {
            let m = meter.clone();
            merge_sort(&mut items, &mut |x, y| if tick(&m) { None } else { Some(x.total_cmp(y)) })
        }
        Some(Value::Lambda(f)) => {
            let mut error = None;
            let f = crate::eval::runnable(f.clone(), span)?;
            let m = meter.clone();
            let sorted = merge_sort(&mut items, &mut |x, y| {
                if tick(&m) {
                    return None;
                }
                match it.call_fn(&f, vec![x.clone(), y.clone()], span, None) {
                    Ok(Value::Num(n)) if n < 0.0 => Some(Ordering::Less),
                    Ok(Value::Num(n)) if n > 0.0 => Some(Ordering::Greater),
                    Ok(Value::Logic(l)) if l.is_true() => Some(Ordering::Less),
                    Ok(Value::Logic(l)) if l.is_false() => Some(Ordering::Greater),
                    Ok(_) => Some(Ordering::Equal),
                    Err(e) => {
                        error = Some(e);
                        None
                    }
                }
            });
            if let Some(e) = error {
                return Err(e);
            }
            sorted
        }
        Some(other) => return fail(span, format!("`sort` takes a lambda, not {}", other.described())),
    };
    // Sorted, or as they were when a limit stopped the sort.
    *a.borrow_mut() = items.into();
    it.charge(&meter, span)?;
    if sorted.is_none() {
        meter.check(span)?;
    }
    Ok(Value::Array(a))
}

fn join(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let a = this::<ArrayRef>("join", obj, span)?;
    let sep = match args.first() {
        Some(Value::Str(s)) => s.to_string(),
        Some(other) => it.text_for_output(other, span)?,
        None => ",".to_string(),
    };
    let mut text = it.text_start();
    for (i, v) in a.borrow().iter().enumerate() {
        if i > 0 {
            text.push(&sep, span)?;
        }
        text.value(v, &it.world, span)?;
    }
    Ok(Value::Str(it.text_end(text, span)?.into()))
}

/// `A.clear()`, `M.clear()` (`G.clear()` is in graph.rs).
fn clear(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Array(a) => a.borrow_mut().clear(),
        Value::Map(m) => m.borrow_mut().clear(),
        other => return wrong_object("clear", &other, "arrays and maps", span),
    }
    Ok(Value::Logic(crate::value::Logic::UNDEF))
}

fn keys(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Map(m) => {
            it.bulk(m.borrow().len(), std::mem::size_of::<Value>(), span)?;
            Ok(Value::array(m.borrow().keys()))
        }
        other => wrong_object("keys", &other, "maps", span),
    }
}

fn remove(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    match object(obj, span)? {
        Value::Map(m) => Ok(crate::value::Map::remove_shared(&m, &args[0]).unwrap_or(Value::None)),
        other => wrong_object("remove", &other, "maps", span),
    }
}

/// A stable merge sort that tolerates comparators which are not a total order (a user's lambda
/// may be anything; the standard library's sort may panic on those). It sorts positions
/// bottom up with one scratch buffer, and gives up (None, `items` as they were) when `cmp`
/// returns None.
fn merge_sort(items: &mut Vec<Value>, cmp: &mut dyn FnMut(&Value, &Value) -> Option<Ordering>) -> Option<()> {
    let n = items.len();
    // Positions as u32 keep the two buffers at 8 bytes an item (arrays are far smaller).
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut merged = vec![0u32; n];
    let mut width = 1;
    while width < n {
        for start in (0..n).step_by(2 * width) {
            let (mid, end) = ((start + width).min(n), (start + 2 * width).min(n));
            let (mut i, mut j) = (start, mid);
            for slot in &mut merged[start..end] {
                // The right one goes first only when it is less: equal items keep their order.
                let right = j < end
                    && (i == mid || cmp(&items[order[j] as usize], &items[order[i] as usize])? == Ordering::Less);
                if right {
                    *slot = order[j];
                    j += 1;
                } else {
                    *slot = order[i];
                    i += 1;
                }
            }
        }
        std::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    *items = order.into_iter().map(|i| std::mem::take(&mut items[i as usize])).collect();
    Some(())
}

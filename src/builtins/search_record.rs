//! `Opts["record"]` and `Search.trace()` (decision 23 of docs/language.md; docs/search.md,
//! "Recording a search"): the events of the last search, as an array of maps.

use crate::eval::{fail, Interp, R};
use crate::search::script::Record;
use crate::search::{Event, NONE};
use crate::syntax::Span;
use crate::value::{Logic, Map, Value};
use std::cell::RefCell;
use std::rc::Rc;

/// The record of the last search (None when it was not recorded).
#[derive(Default)]
pub(super) struct LastRecord(Option<Record>);

/// Keeps the last search's record (or that it kept none).
pub(super) fn keep(it: &mut Interp, record: Option<Record>) {
    it.kept::<LastRecord>().0 = record;
}

/// `Search.trace()`: the events of the last search, which must have been run with
/// `{"record": True}`.
pub(super) fn trace(it: &mut Interp, _: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let Some(record) = &it.kept::<LastRecord>().0 else {
        return fail(span, "the last search kept no record: run it with the option {\"record\": True}");
    };
    let mut out: Vec<Value> = record.events.iter().map(event_map).collect();
    if record.dropped > 0 {
        let cut = [("event", Value::str("cut")), ("dropped", Value::Num(record.dropped as f64))];
        out.push(map_of(&cut));
    }
    it.work(out.len() as u64 / 64, span)?;
    Ok(Value::array(out))
}

fn event_map(e: &Event) -> Value {
    let undef = Value::Logic(Logic::UNDEF);
    let parent = if e.parent == NONE { undef.clone() } else { Value::Num(f64::from(e.parent)) };
    map_of(&[
        ("event", Value::str(e.kind.word())),
        ("state", Value::Num(f64::from(e.id))),
        ("parent", parent),
        ("g", Value::Num(e.g)),
        ("h", e.h.map_or(undef, Value::Num)),
        ("f", Value::Num(e.f)),
        ("depth", Value::Num(f64::from(e.depth))),
        ("frontier", Value::Num(e.frontier as f64)),
    ])
}

fn map_of(entries: &[(&str, Value)]) -> Value {
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(Value::str(k), v.clone());
    }
    Value::Map(Rc::new(RefCell::new(m)))
}

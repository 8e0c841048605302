//! `Opts["record"]` and `Search.trace()` (decision 23 of docs/language.md; docs/search.md,
//! "Recording a search"): the events of the last search, as an array of maps.
//!
//! A recorded search also keeps its stored states (the store and its decoder, moved here, not
//! copied), so that `Search.trace(View)` can draw each event's state; a search that is not
//! recorded keeps nothing.

use crate::eval::{fail, Interp, R};
use crate::search::open_order;
use crate::search::script::{Record, ScriptProblem};
use crate::search::states::Decoder;
use crate::search::{Algorithm, Event, StateId, StateStore, NONE};
use crate::value::{Logic, Map, Value};
use ds_syntax::Span;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The record of the last search (None when it was not recorded).
#[derive(Default)]
pub(super) struct LastRecord(Option<Kept>);

/// A search's events and the states they name.
pub(super) struct Kept {
    /// The algorithm's name (`algorithm` of every event map).
    algorithm: &'static str,
    record: Record,
    store: StateStore,
    decoder: Decoder,
}

/// What a finished search leaves for `Search.trace()`: its events and its states when it was
/// recorded (None, and its states dropped, when not).
pub(super) fn take(problem: &mut ScriptProblem, store: StateStore) -> Option<Kept> {
    let record = problem.take_record()?;
    let algorithm = problem.spec().algorithm.name();
    Some(Kept { algorithm, record, store, decoder: problem.take_decoder() })
}

impl Kept {
    /// The record as made by the named algorithm (one outside the table, such as `hill`).
    pub(super) fn by(self, algorithm: &'static str) -> Kept {
        Kept { algorithm, ..self }
    }
}

/// Keeps the last search's record with its states (or that it kept none).
pub(super) fn keep(it: &mut Interp, kept: Option<Kept>) {
    it.kept::<LastRecord>().0 = kept;
}

/// `Search.trace([View])`: the events of the last search, which must have been run with
/// `{"record": True}`; with a view, each event also has its state drawn by it (`view`).
pub(super) fn trace(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let view = match args.first() {
        Some(v) => Some(super::search::callable(v, "Search.trace", 1, "View", span)?),
        None => None,
    };
    // (taken out while the view runs: the view may itself search)
    let Some(kept) = it.kept::<LastRecord>().0.take() else {
        return fail(span, "the last search kept no record: run it with the option {\"record\": True}");
    };
    let events = events(it, &kept, view.as_ref(), span);
    let slot = &mut it.kept::<LastRecord>().0;
    if slot.is_none() {
        *slot = Some(kept);
    }
    let out = events?;
    it.work(out.len() as u64 / 64, span)?;
    Ok(Value::array(out))
}

/// The event maps of a record, each with its state's view when there is a view: drawn once per
/// state, the same value for every event of that state.
fn events(it: &mut Interp, kept: &Kept, view: Option<&Rc<crate::compile::ir::FnCode>>, span: Span) -> R<Vec<Value>> {
    let mut drawn: FxHashMap<StateId, Value> = FxHashMap::default();
    let mut out = Vec::with_capacity(kept.record.events.len() + 1);
    let ranks = open_order::ranks(Algorithm::parse(kept.algorithm), &kept.record.events);
    for (e, rank) in kept.record.events.iter().zip(ranks) {
        let mut m = event_map(e, kept.algorithm, rank);
        if let Some(view) = view.filter(|_| (e.id as usize) < kept.store.len()) {
            let shown = match drawn.get(&e.id) {
                Some(v) => v.clone(),
                None => {
                    let state = kept.decoder.state(&kept.store, &mut it.world, e.id);
                    let v = super::search_space::draw(it, view, state, e.id, span)?;
                    drawn.insert(e.id, v.clone());
                    v
                }
            };
            m.insert(Value::str("view"), shown);
        }
        out.push(Value::Map(Rc::new(RefCell::new(m))));
    }
    if kept.record.dropped > 0 {
        let mut cut = Map::default();
        cut.insert(Value::str("event"), Value::str("cut"));
        cut.insert(Value::str("dropped"), Value::Num(kept.record.dropped as f64));
        out.push(Value::Map(Rc::new(RefCell::new(cut))));
    }
    Ok(out)
}

/// An event as a map (docs/search.md, "Recording a search"); `rank` is its state's place in
/// the order the algorithm takes states out, for an event that puts it into the frontier.
fn event_map(e: &Event, algorithm: &str, rank: Option<u64>) -> Map {
    let undef = Value::Logic(Logic::UNDEF);
    let parent = if e.parent == NONE { undef.clone() } else { Value::Num(f64::from(e.parent)) };
    let mut m = Map::default();
    let rank = rank.map_or(undef.clone(), |r| Value::Num(r as f64));
    for (k, v) in [
        ("algorithm", Value::str(algorithm)),
        ("event", Value::str(e.kind.word())),
        ("state", Value::Num(f64::from(e.id))),
        ("parent", parent),
        ("g", Value::Num(e.g)),
        ("h", e.h.map_or(undef, Value::Num)),
        ("f", Value::Num(e.f)),
        ("depth", Value::Num(f64::from(e.depth))),
        ("frontier", Value::Num(e.frontier as f64)),
        ("rank", rank),
    ] {
        m.insert(Value::str(k), v);
    }
    m
}

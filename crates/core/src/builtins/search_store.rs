//! `Opts["store"]` and `Opts["bits"]` of the searches (decision 25): which store keeps the
//! visited states, what a search on a lossy store may not do, the path it rebuilds, and the
//! statistics it adds.

use crate::eval::{fail, Interp, R};
use crate::search::problem::Halt;
use crate::search::script::ScriptProblem;
use crate::search::store::StoreMode;
use crate::search::{self, Counts, StateId, StateStore, NONE};
use crate::value::Value;
use ds_syntax::Span;

/// The bit array of `"bitstate"` when `bits` is not given and there is no memory limit (32 MB).
const UNLIMITED_BITS: u64 = 1 << 28;

/// Reads `Opts["store"]`. The lossy stores are built for `Search.bfs`, whose frontier is a
/// range of ids and whose paths can be rebuilt by expanding states again; elsewhere the
/// message says so rather than run as something it is not.
pub(super) fn mode(it: &Interp, v: &Value, fname: &str, span: Span) -> R<StoreMode> {
    let mode = match v {
        Value::Str(s) => s.to_string(),
        other => it.text(other),
    };
    let lossy = match mode.as_str() {
        "exact" => return Ok(StoreMode::Exact),
        "hash" => StoreMode::Hash,
        // (sized by `size_bits` once every option is read)
        "bitstate" => StoreMode::Bitstate(0),
        _ => {
            return fail(
                span,
                format!("option `store` of `{fname}` must be \"exact\", \"hash\" or \"bitstate\", not {}", it.text(v)),
            )
        }
    };
    if fname != "Search.bfs" {
        return fail(
            span,
            format!("the store \"{mode}\" is built for `Search.bfs` only so far: `{fname}` keeps every state exactly (\"exact\")"),
        );
    }
    Ok(lossy)
}

/// Sizes the bit array of `"bitstate"`: `Opts["bits"]`, else a quarter of the memory limit.
/// `bits` with another store is an error.
pub(super) fn size_bits(mode: &mut StoreMode, bits: Option<f64>, span: Span) -> R<()> {
    match (mode, bits) {
        (StoreMode::Bitstate(size), given) => {
            let quarter = ds_base::guard::memory::limit().map_or(UNLIMITED_BITS, |l| (l as u64 / 4).saturating_mul(8));
            *size = given.map_or(quarter, |b| b.min(u64::MAX as f64) as u64);
            Ok(())
        }
        (_, Some(_)) => {
            fail(span, "option `bits` sizes the store \"bitstate\": give it with `\"store\": \"bitstate\"`")
        }
        _ => Ok(()),
    }
}

/// A search on a lossy store runs on one thread, and shows no states past its frontier: its
/// frontier's keys are the only ones it keeps.
pub(super) fn one_thread_untraced(threads: Option<usize>, tracing: bool, fname: &str, span: Span) -> R<usize> {
    if threads.is_some_and(|n| n > 1) {
        return fail(
            span,
            format!("`{fname}` on a store other than \"exact\" runs on one thread: leave out `threads`"),
        );
    }
    if tracing {
        return fail(
            span,
            format!("`{fname}` on a store other than \"exact\" keeps no state it has expanded, so it cannot trace or record them: leave out `trace` and `record`"),
        );
    }
    Ok(1)
}

/// Brings back the keys of the states on the path to `parent` (a goal's parent), which a
/// lossy store let go: each is expanded again (`replay.rs`).
pub(super) fn rebuild_path(problem: &mut ScriptProblem, store: &mut StateStore, parent: StateId, span: Span) -> R<()> {
    if parent == NONE {
        return Ok(());
    }
    problem.forget_recent();
    match search::replay::restore_path(problem, store, parent) {
        Ok(None) => Ok(()),
        Ok(Some(id)) => fail(
            span,
            format!("the path to the goal could not be rebuilt: state {id} was not among its parent's successors when they were made again (a store other than \"exact\" rebuilds a path by running `Next` again, so `Next` must give the same states each time)"),
        ),
        Err(Halt::Limit(reason)) => fail(
            span,
            format!("the path to the goal could not be rebuilt: the search found a goal, then the limit ({}) was reached while the path's states were made again", reason.word()),
        ),
        Err(Halt::Error(e)) => Err(e),
    }
}

/// The statistics a lossy store adds: `omission` (`"hash"`), `coverage` (`"bitstate"`).
pub(super) fn lossy_stats(store: &StateStore, counts: &Counts) -> Vec<(&'static str, Value)> {
    let mut stats = Vec::new();
    if store.keeps_fingerprints() {
        // each state generated was looked up once
        let omission = search::fingerprints::omission(store.len() as u64, counts.generated);
        stats.push(("omission", Value::Num(omission)));
    }
    if let Some(coverage) = store.coverage() {
        stats.push(("coverage", Value::Num(coverage)));
    }
    stats
}

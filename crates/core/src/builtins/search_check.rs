//! `Search.check(Space, Goal, H)` (docs/search.md, "Checking a heuristic"): the heuristic H
//! judged over an explored space against the exact cost from each state to its nearest goal
//! (`search::check`).

use super::search::callable;
use super::search_space::goal_ids;
use crate::eval::{fail, Interp, R};
use crate::search::check::judge;
use crate::search::space::Space;
use crate::search::StateId;
use crate::value::{Logic, Map, Value};
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

pub(super) fn check(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let fname = "Search.check";
    let Some(space) = args[0].as_host::<Space>() else {
        return fail(
            span,
            format!("argument 1 of `{fname}` must be a state space (of `Search.explore`), not {}", args[0].described()),
        );
    };
    if !space.complete() {
        return fail(
            span,
            format!(
                "`{fname}` needs a whole state space, but this one stopped at `{}`: exact distances need every state",
                space.reason.word()
            ),
        );
    }
    let h = callable(&args[2], fname, 3, "H", span)?;
    let goal = (!matches!(args[1], Value::None)).then_some(&args[1]);
    let goals = goal_ids(it, &space, goal, (fname, 2), span)?;
    let mut values = Vec::with_capacity(space.len());
    for id in 0..space.len() as StateId {
        let state = space.decoder.state(&space.store, &mut it.world, id);
        match it.call_fn(&h, vec![state], span, None)? {
            Value::Num(x) if x.is_finite() => values.push(x),
            Value::Num(x) => return fail(span, format!("H must return a finite number, not {x} (state {id})")),
            other => return fail(span, format!("H must return a number, not {} (state {id})", other.described())),
        }
        it.work(1, span)?;
    }
    let j = judge(&space.transitions, &goals, &values);
    let exact = j.exact.iter().map(|d| d.map_or(Value::Logic(Logic::UNDEF), Value::Num)).collect();
    let entries = [
        ("admissible", Value::bool(j.admissible)),
        ("consistent", Value::bool(j.consistent)),
        ("max_overestimate", Value::Num(j.max_overestimate)),
        ("worst", j.worst.map_or(Value::Logic(Logic::UNDEF), |id| Value::Num(f64::from(id)))),
        ("exact", Value::array(exact)),
    ];
    let mut m = Map::default();
    for (k, v) in entries {
        m.insert(Value::str(k), v);
    }
    Ok(Value::Map(Rc::new(RefCell::new(m))))
}

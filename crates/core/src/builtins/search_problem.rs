//! A search problem given as one map (docs/search.md, "A problem as a map"): `start`, `next`,
//! `goal` and, for the informed searches, a heuristic, as `Problem.pddl` makes them. Every
//! `Search` function that takes `Start, Next, Goal` also takes the map in their place:
//! `Search.bfs(P [, Opts])`, `Search.astar(P, H [, Opts])`, `Search.explore(P [, Opts])`,
//! where H is a demon or lambda, or the name of one of P's heuristics (`P["h"](NAME)`). The
//! two forms never take the same number of arguments, except `Search.explore(X, Y)`, told
//! apart by Y: a map of options, or the `Next` demon. So do `Search.compare(P, H, Algorithms
//! [, Opts])`, `Search.hill(P, Value [, Opts])` and `Search.anneal(P, Value [, Opts])` (a
//! Value given by name is the heuristic's negation, to be maximised), and
//! `Search.bibfs(P [, Opts])`, whose goal must be a state and whose `prev` may be P's.

use crate::eval::{fail, runnable, Interp, R};
use crate::value::{Map, Value};
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

/// Part `key` of problem map `p`, which must have it.
fn part(p: &Map, key: &str, fname: &str, span: Span) -> R<Value> {
    match p.get(&Value::str(key)) {
        Some(v) => Ok(v.clone()),
        None => fail(span, format!("the problem map given to `{fname}` has no `{key}`")),
    }
}

fn problem_map(v: &Value, fname: &str, usage: &str, span: Span) -> R<Map> {
    match v {
        Value::Map(m) if m.borrow().contains(&Value::str("next")) => Ok(m.borrow().clone()),
        other => fail(
            span,
            format!("`{fname}` takes {usage}, or a problem map (start, next, goal) first: not {}", other.described()),
        ),
    }
}

/// The arguments of a search of the algorithm table as `Start, Next, Goal [, H] [, Opts]`:
/// the call's own when it gives them so, else read from its problem map.
pub(super) fn positional(
    it: &mut Interp,
    args: &[Value],
    informed: bool,
    fname: &str,
    usage: &str,
    span: Span,
) -> R<Vec<Value>> {
    let own = if informed { 4 } else { 3 };
    if args.len() >= own {
        return Ok(args.to_vec());
    }
    let usage = usage.strip_prefix(fname).unwrap_or(usage);
    let p = problem_map(&args[0], fname, usage, span)?;
    let mut out = vec![part(&p, "start", fname, span)?, part(&p, "next", fname, span)?, part(&p, "goal", fname, span)?];
    let mut rest = &args[1..];
    if informed {
        let Some((h, after)) = rest.split_first() else {
            return fail(
                span,
                format!("`{fname}` with a problem map takes a heuristic next: `{fname}(P, H [, Opts])`"),
            );
        };
        out.push(heuristic(it, &p, h, fname, span)?);
        rest = after;
    }
    out.extend(rest.iter().cloned());
    Ok(out)
}

/// H as a lambda: itself, or the problem's heuristic of that name (`P["h"](NAME)`).
fn heuristic(it: &mut Interp, p: &Map, h: &Value, fname: &str, span: Span) -> R<Value> {
    let Value::Str(name) = h else { return Ok(h.clone()) };
    let Value::Lambda(by_name) = part(p, "h", fname, span)? else {
        return fail(span, format!("the `h` of the problem map given to `{fname}` must be a demon or a lambda"));
    };
    let code = crate::eval::runnable(by_name, span)?;
    it.call_fn(&code, vec![Value::Str(name.clone())], span, None)
}

/// `Search.explore(P [, Opts])`: `Start, Next, Opts` with the problem's goal among the
/// options (unless they name one).
pub(super) fn explore_positional(args: &[Value], span: Span) -> R<Vec<Value>> {
    let fname = "Search.explore";
    let map_form = args.len() == 1 || matches!(args.get(1), Some(Value::Map(_)));
    if !map_form {
        return Ok(args.to_vec());
    }
    let p = problem_map(&args[0], fname, "(Start, Next [, Opts])", span)?;
    let mut opts = match args.get(1) {
        Some(Value::Map(m)) => m.borrow().clone(),
        _ => Map::default(),
    };
    if let (false, Some(goal)) = (opts.contains(&Value::str("goal")), p.get(&Value::str("goal"))) {
        opts.insert(Value::str("goal"), goal.clone());
    }
    Ok(vec![part(&p, "start", fname, span)?, part(&p, "next", fname, span)?, Value::Map(Rc::new(RefCell::new(opts)))])
}

/// `Search.compare(P, H, Algorithms [, Opts])`: `Start, Next, Goal, H, Algorithms [, Opts]`,
/// with H and each entry's own H (`["astar", "hmax"]`) given by name read from P's `h`.
pub(super) fn compare_positional(it: &mut Interp, args: &[Value], span: Span) -> R<Vec<Value>> {
    let fname = "Search.compare";
    if args.len() >= 5 {
        return Ok(args.to_vec());
    }
    let p = problem_map(&args[0], fname, "(Start, Next, Goal, H, Algorithms [, Opts])", span)?;
    let mut out = vec![part(&p, "start", fname, span)?, part(&p, "next", fname, span)?, part(&p, "goal", fname, span)?];
    out.push(heuristic(it, &p, &args[1], fname, span)?);
    let entries = match &args[2] {
        Value::Array(items) => {
            let mut named = Vec::new();
            for item in items.borrow().iter() {
                named.push(named_entry(it, &p, item, fname, span)?);
            }
            Value::array(named)
        }
        other => other.clone(),
    };
    out.push(entries);
    out.extend(args[3..].iter().cloned());
    Ok(out)
}

/// An entry `[name, H]` of `Search.compare` with H given by name: `[name, P["h"](H)]`.
fn named_entry(it: &mut Interp, p: &Map, item: &Value, fname: &str, span: Span) -> R<Value> {
    let Value::Array(pair) = item else { return Ok(item.clone()) };
    let (name, h) = {
        let pair = pair.borrow();
        match (pair.len(), pair.get(1)) {
            (2, Some(h @ Value::Str(_))) => (pair[0].clone(), h.clone()),
            _ => return Ok(item.clone()),
        }
    };
    Ok(Value::array(vec![name, heuristic(it, p, &h, fname, span)?]))
}

/// `Search.hill(P, Value [, Opts])` and `Search.anneal(P, Value [, Opts])`: `Start, Next,
/// Value [, Opts]`. A Value given by name is the negation of P's heuristic of that name, so
/// that climbing it descends the estimate toward the goal.
pub(super) fn local_positional(it: &mut Interp, args: &[Value], fname: &'static str, span: Span) -> R<Vec<Value>> {
    let map_form = args.len() == 2 || (args.len() == 3 && matches!(args[2], Value::Map(_)));
    if !map_form {
        return Ok(args.to_vec());
    }
    let p = problem_map(&args[0], fname, "(Start, Next, Value [, Opts])", span)?;
    let value = match &args[1] {
        Value::Str(name) => {
            let h = heuristic(it, &p, &args[1], fname, span)?;
            super::pddl::lambda_of(fname, &format!("-{name}"), &["S"], negated, h, span)
        }
        v => v.clone(),
    };
    let mut out = vec![part(&p, "start", fname, span)?, part(&p, "next", fname, span)?, value];
    out.extend(args[2..].iter().cloned());
    Ok(out)
}

/// The body of a negated heuristic: `-H(S)`.
fn negated(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let Value::Lambda(h) = &args[0] else { return fail(span, "a negated heuristic must be a lambda") };
    let code = runnable(h.clone(), span)?;
    match it.call_fn(&code, vec![args[1].clone()], span, None)? {
        Value::Num(x) => Ok(Value::Num(0.0 - x)), // (0, not -0, at a goal)
        other => Ok(other),
    }
}

/// `Search.bibfs(P [, Opts])`: `Start, Next, Goal, Opts`, with P's `prev` among the options
/// (unless they give one). P's goal must be a state: the backward search starts from it.
pub(super) fn bibfs_positional(args: &[Value], span: Span) -> R<Vec<Value>> {
    let fname = "Search.bibfs";
    if args.len() >= 3 {
        return Ok(args.to_vec());
    }
    let p = problem_map(&args[0], fname, "(Start, Next, Goal, {\"prev\": Prev})", span)?;
    let goal = part(&p, "goal", fname, span)?;
    if let Value::Lambda(_) = goal {
        let msg = format!(
            "`{fname}` searches backward from one goal state, and the problem map's `goal` is a test of a state (a demon or lambda), as a PDDL task's is: a PDDL goal is met by many states, and the task gives no predecessors, so bidirectional search cannot run on it (`Search.bfs(P)` finds a path of as few actions)"
        );
        return fail(span, msg);
    }
    let mut opts = match args.get(1) {
        Some(Value::Map(m)) => m.borrow().clone(),
        Some(other) => {
            return fail(span, format!("`{fname}(P, Opts)` takes a map of options after P, not {}", other.described()))
        }
        None => Map::default(),
    };
    if let (false, Some(prev)) = (opts.contains(&Value::str("prev")), p.get(&Value::str("prev"))) {
        opts.insert(Value::str("prev"), prev.clone());
    }
    Ok(vec![
        part(&p, "start", fname, span)?,
        part(&p, "next", fname, span)?,
        goal,
        Value::Map(Rc::new(RefCell::new(opts))),
    ])
}

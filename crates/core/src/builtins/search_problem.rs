//! A search problem given as one map (docs/search.md, "A problem as a map"): `start`, `next`,
//! `goal` and, for the informed searches, a heuristic, as `Problem.pddl` makes them. Every
//! `Search` function that takes `Start, Next, Goal` also takes the map in their place:
//! `Search.bfs(P [, Opts])`, `Search.astar(P, H [, Opts])`, `Search.explore(P [, Opts])`,
//! where H is a demon or lambda, or the name of one of P's heuristics (`P["h"](NAME)`). The
//! two forms never take the same number of arguments, except `Search.explore(X, Y)`, told
//! apart by Y: a map of options, or the `Next` demon.

use crate::eval::{fail, Interp, R};
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

//! `Problem.pddl(DOMAIN, PROBLEM)` (decision 26; docs/planning.md, "PDDL in scripts"): a PDDL
//! task as a search problem, the map `start`, `next`, `goal`, `h` and `types`. The task is
//! grounded by `ds_pddl` and kept in a host value (`pddl_world::PddlTask`) that the map's
//! lambdas hold: each is a one-line lambda calling a builtin body of this file on it, so it is
//! a demon value like any other to every `Search` algorithm, the explorer and the notebook.

use super::pddl_world::{self, PddlHeuristic, PddlTask};
use super::{arg, function, Arity, Builtin, BuiltinFn};
use crate::compile::ir::{Ex, ExKind, FnCode, Slot, St, StKind};
use crate::compile::registry::Callee;
use crate::eval::{fail, limit_error, Interp, Limit, R};
use crate::value::{Array, Map, Value};
use ds_base::diagnostics::{Diagnostic, SourceMap};
use ds_pddl::plan::Source;
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

pub const BUILTINS: &[Builtin] = &[function("Problem.pddl", Arity::exactly(2), pddl).doc(
    "Problem.pddl(Domain, Problem)",
    "a PDDL task (file names, or PDDL text) as a search problem: a map of start, next, goal, h(NAME) and types",
)];

/// The most bytes of PDDL read from one file.
const MAX_PDDL: usize = 50_000_000;

/// The PDDL text of an argument: the text itself when it starts with `(` or a `;` comment
/// (after white space), else the file of that name, read as `File.open` reads.
fn text_of(it: &mut Interp, args: &[Value], i: usize, what: &str, span: Span) -> R<(String, String)> {
    let s = arg::<&str>(args, i, "Problem.pddl", span)?.to_string();
    if s.trim_start().starts_with(['(', ';']) {
        return Ok((what.to_string(), s));
    }
    let path = it.files().data_path(&s).or_else(|e| fail(span, e))?;
    match it.files().read_text(&path, MAX_PDDL) {
        Ok(text) => Ok((s, text)),
        Err(e) => fail(span, format!("cannot read the PDDL {what} `{s}`: {e}")),
    }
}

/// A PDDL error as one line: `file:line:col: message`.
fn located(sources: &SourceMap, d: &Diagnostic) -> String {
    let (line, col) = sources.line_col(d.span.file, d.span.lo);
    let file = sources.name(d.span.file).unwrap_or("?");
    format!("{file}:{line}:{col}: {}", d.message)
}

fn pddl(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let (dname, dtext) = text_of(it, args, 0, "domain", span)?;
    let (pname, ptext) = text_of(it, args, 1, "problem", span)?;
    let mut sources = SourceMap::default();
    let domain = Source { name: &dname, text: &dtext };
    let problem = Source { name: &pname, text: &ptext };
    let model = match ds_pddl::plan::read(&mut sources, domain, problem) {
        Ok(m) => m,
        Err(d) => return fail(span, located(&sources, &d)),
    };
    let meter = it.meter();
    let task = match ds_pddl::ground::ground(&model, &|| meter.exhausted()) {
        Ok(t) => t,
        Err(ds_pddl::ground::GroundError::Invalid(d)) => return fail(span, located(&sources, &d)),
        Err(ds_pddl::ground::GroundError::Limit) => {
            meter.check(span)?;
            return limit_error(span, Limit::Memory, None);
        }
    };
    it.charge(&meter, span)?;
    let task = Rc::new(pddl_world::build(it, &model, task, span)?);
    let me = Value::Host(task.clone());
    let mut m = Map::default();
    m.insert(Value::str("start"), Value::Graph(task.start.clone()));
    m.insert(Value::str("next"), lambda("next", &["S"], next, me.clone(), span));
    m.insert(Value::str("goal"), lambda("goal", &["S"], goal, me.clone(), span));
    m.insert(Value::str("h"), lambda("h", &["Name"], heuristic, me, span));
    m.insert(Value::str("types"), Value::Graph(task.types.clone()));
    Ok(Value::Map(Rc::new(RefCell::new(m))))
}

/// A lambda of `params` whose body calls `f` with `bound` and its parameters: `next(S)`.
fn lambda(name: &str, params: &[&str], f: BuiltinFn, bound: Value, span: Span) -> Value {
    lambda_of("Problem.pddl", name, params, f, bound, span)
}

/// A lambda of `params` whose body calls `f` (the builtin `callee`'s body) with `bound` and its
/// parameters.
pub(super) fn lambda_of(
    callee: &'static str,
    name: &str,
    params: &[&str],
    f: BuiltinFn,
    bound: Value,
    span: Span,
) -> Value {
    let mut args = vec![Ex { kind: ExKind::Const(bound), span }];
    args.extend((0..params.len()).map(|i| Ex { kind: ExKind::Var(Slot::Local(i as u32)), span }));
    let call = Ex { kind: ExKind::Builtin { name: callee, f: Callee::Fn(f), object: None, args }, span };
    let code = FnCode {
        name: name.into(),
        param_names: params.iter().map(|&p| p.into()).collect(),
        frame_size: params.len() as u32,
        body: vec![St { kind: StKind::Return(Some(call)), span }],
        get: None,
        set: None,
        value_slot: None,
        expr_body: true,
        sets_graph: false,
        span,
        source: None,
        calls: Default::default(),
        fast: Default::default(),
    };
    Value::Lambda(Rc::new(code))
}

fn bound<T: crate::value::host::Host>(args: &[Value]) -> Rc<T> {
    args[0].as_host::<T>().expect("the lambda's bound host value")
}

fn state(args: &[Value], what: &str, span: Span) -> R<crate::world::GraphRef> {
    match args.get(1) {
        Some(Value::Graph(g)) => Ok(g.clone()),
        Some(v) => fail(span, format!("the PDDL task's `{what}` takes a state graph, not {}", v.described())),
        None => fail(span, format!("the PDDL task's `{what}` takes a state graph")),
    }
}

/// `next(S)`: `[Action, State, Cost]` for each applicable ground action.
fn next(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let task = bound::<PddlTask>(args);
    let g = state(args, "next", span)?;
    let succ = task.successors(&mut it.world, &g, span)?;
    it.work(succ.len() as u64 + 1, span)?;
    let items: Vec<Value> = succ
        .into_iter()
        .map(|(i, s)| {
            let op = &task.task.ops[i];
            let triple = vec![Value::str(&op.name), Value::Graph(s), Value::Num(op.cost as f64)];
            Value::Array(Rc::new(Array::new(triple)))
        })
        .collect();
    Ok(Value::Array(Rc::new(Array::new(items))))
}

/// `goal(S)`: whether S satisfies the problem's goal.
fn goal(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let task = bound::<PddlTask>(args);
    let g = state(args, "goal", span)?;
    let s = task.decode(&g, span)?;
    Ok(Value::bool(task.task.is_goal(&s)))
}

/// `h(NAME)`: the heuristic of that name, a lambda of one state.
fn heuristic(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let task = bound::<PddlTask>(args);
    let name = arg::<&str>(args, 1, "h", span)?;
    let Some(h) = ds_pddl::heuristics::by_name(name, &task.task) else {
        return fail(span, format!("no PDDL heuristic `{name}` (there are {})", ds_pddl::heuristics::NAMES.join(", ")));
    };
    let me = Value::host(PddlHeuristic { task, h: RefCell::new(h) });
    Ok(lambda(name, &["S"], estimate, me, span))
}

/// A heuristic's value of a state: its estimate, `inf` where the goal is out of reach.
fn estimate(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let h = bound::<PddlHeuristic>(args);
    let g = state(args, "h", span)?;
    let s = h.task.decode(&g, span)?;
    let v = h.h.borrow_mut().h(&s);
    Ok(Value::Num(v.map_or(f64::INFINITY, |v| v as f64)))
}

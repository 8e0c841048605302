//! The `Mind` module: axioms (`Mind.add`, `Mind.add_usual`, `set`, axiom statements), inference
//! (`Mind.set_graph`) and administration. Models are in `mind_models.rs`; the engine in
//! `crate::mind`.

use super::{function, num_arg, Arity, Builtin};
use crate::compile::ir::{AtomEx, AxiomEx, AxiomUse, Rel, TermEx};
use crate::eval::{fail, Interp, Meter, R};
use crate::mind::ground::STOP_EVERY;
use crate::mind::propagate::{Conflict, Derived};
use crate::mind::{Atom, Clause, Lit, Rules, Term};
use crate::syntax::Span;
use crate::value::{Logic, Value};
use crate::world::{ClassId, GraphRef};
use std::rc::Rc;

pub use super::mind_models::value_in_models;

pub const BUILTINS: &[Builtin] = &[
    function("Mind.add", Arity::at_least(1), compiled_specially)
        .doc("Mind.add(axiom, ...)", "adds axioms that always hold, such as `X part Y & Y part Z -> X part Z`"),
    function("Mind.add_usual", Arity::at_least(1), compiled_specially)
        .doc("Mind.add_usual(axiom, ...)", "adds usual axioms: defaults that a model may break"),
    function("Mind.value", Arity::exactly(2), compiled_specially)
        .doc("Mind.value(models, expr)", "the logic value expr has in every model (as `GRAPH`), else Undef"),
    function("set", Arity::at_least(1), compiled_specially)
        .doc("set(axiom, ...)", "applies the axioms once to the current graph; the number of edges set, or -1"),
    function("Mind.set_graph", Arity::at_least(1), set_graph).doc(
        "Mind.set_graph(G [, group, ...])",
        "sets what follows from the axioms in G; the number of edges set, or -1",
    ),
    function("Mind.out", Arity::range(0, 1), out)
        .doc("Mind.out([G])", "prints Mind's axioms and G's, one clause a line"),
    function("Mind.clear", Arity::range(0, 1), clear)
        .doc("Mind.clear([G])", "removes Mind's axioms, or with G, G's own"),
    function("Mind.clear_used", Arity::exactly(0), clear_used)
        .doc("Mind.clear_used()", "resets the counts `Mind.out` shows"),
    function("Mind.was_conflict", Arity::exactly(0), was_conflict)
        .doc("Mind.was_conflict()", "True when the last inference met a contradiction"),
    function("Mind.mode", Arity::range(0, 1), mode)
        .doc("Mind.mode([n])", "a setting kept and returned; it changes nothing"),
    function("Mind.verbose", Arity::range(0, 1), verbose)
        .doc("Mind.verbose([n])", "1: a note on standard error for each edge set and each contradiction"),
    function("Mind.group", Arity::range(0, 1), group)
        .doc("Mind.group([n])", "the group of the axioms added from now on (0)"),
    function("Mind.differnt_vals", Arity::range(0, 1), different_vals)
        .doc("Mind.differnt_vals([0|1])", "the original's spelling of `Mind.different_vals`"),
    function("Mind.different_vals", Arity::range(0, 1), different_vals)
        .doc("Mind.different_vals([0|1])", "1: the variables of one axiom stand for different nodes"),
    function("Mind.out_undef", Arity::range(0, 1), out_undef)
        .doc("Mind.out_undef([n])", "a setting kept and returned; it changes nothing"),
    function("Mind.validator", Arity::exactly(1), validator)
        .doc("Mind.validator(F)", "a lambda that must return True for a model to be kept (None removes it)"),
    function("Mind.get_models", Arity::range(2, 3), super::mind_models::get_models).doc(
        "Mind.get_models(G, rel or [rels] [, max])",
        "the first max (10; 0: all) completions of G the axioms allow",
    ),
    function("Mind.count_models", Arity::range(2, 3), super::mind_models::count_models)
        .doc("Mind.count_models(G, rel or [rels] [, max])", "the number of models (all, or up to max)"),
    function("Mind.get_usual_models", Arity::range(2, 3), super::mind_models::get_usual_models).doc(
        "Mind.get_usual_models(G, rel or [rels] [, max])",
        "the models that break the fewest instances of usual axioms first",
    ),
    function("Mind.split_graph", Arity::exactly(2), super::mind_models::split_graph).doc(
        "Mind.split_graph(G, rel or [rels])",
        "G after inference, split on its first open edge: the True and False graphs",
    ),
    function("Mind.split_graph_usual", Arity::exactly(1), super::mind_models::split_graph_usual)
        .doc("Mind.split_graph_usual(G)", "G after inference, split on the first edge a usual axiom would set"),
    function("Mind.merge", Arity::at_least(1), super::mind_models::merge).doc(
        "Mind.merge(G1, G2, ...) or Mind.merge([Gs])",
        "a graph with the edges all of them have with the same value",
    ),
];

fn compiled_specially(_: &mut Interp, _: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    fail(span, "this function takes axioms and cannot be called through a value")
}

// ---------------------------------------------------------------- axioms

/// `Mind.add`, `Mind.add_usual`, `set`: the axioms made concrete, then kept or applied.
pub fn axioms(it: &mut Interp, usage: AxiomUse, axioms: &[AxiomEx], span: Span) -> R<Value> {
    let mut clauses = Vec::new();
    for ax in axioms {
        clauses.extend(instantiate(it, ax)?);
    }
    match usage {
        AxiomUse::Add => it.mind.always.extend(clauses),
        AxiomUse::AddUsual => it.mind.usual.extend(clauses),
        AxiomUse::Set => {
            let g = it.current_graph(span)?;
            let n = node_count(it, &g);
            let class = g.borrow().class;
            clauses.retain(|c| c.applies_to(class)); // as everywhere: another world's axioms are skipped
            let meter = it.meter();
            let rules = Rules { clauses, n, distinct: it.mind.distinct, stop: Some(stopper(&meter)) };
            let result = apply(it, &g, &rules, Some(1), &meter, span)?;
            it.charge(&meter, span)?;
            return Ok(result);
        }
    }
    Ok(Value::None)
}

/// A statement `A -> B` / `A | B`: an axiom of the current graph (its copies share it).
pub fn state_axiom(it: &mut Interp, ax: &AxiomEx, span: Span) -> R<()> {
    let clauses = instantiate(it, ax)?;
    let g = it.current_graph(span)?;
    Rc::make_mut(&mut g.borrow_mut().data).axioms.extend(clauses);
    Ok(())
}

/// The clauses of an axiom, with its fixed nodes and relation variables evaluated now. Each
/// clause keeps only the variables it mentions.
fn instantiate(it: &mut Interp, ax: &AxiomEx) -> R<Vec<Rc<Clause>>> {
    let mut class: Option<ClassId> = None;
    let mut atoms = Vec::with_capacity(ax.atoms.len());
    for a in &ax.atoms {
        atoms.push(match a {
            AtomEx::Edge { rel, rel_span, from, to } => {
                let rel = match rel {
                    Rel::Fixed(id) => *id,
                    Rel::Var(_) | Rel::Demon(_) => it.relation_of(rel, *rel_span)?,
                };
                Atom::Edge { rel, from: term(it, from, &mut class)?, to: term(it, to, &mut class)? }
            }
            AtomEx::Same(a, b) => Atom::Same(term(it, a, &mut class)?, term(it, b, &mut class)?),
        });
    }
    let group = it.mind.group;
    Ok(ax.clauses.iter().map(|c| Rc::new(clause(c, &atoms, &ax.vars, class, group))).collect())
}

fn term(it: &mut Interp, t: &TermEx, class: &mut Option<ClassId>) -> R<Term> {
    let e = match t {
        TermEx::Var(v) => return Ok(Term::Var(*v)),
        TermEx::Fixed(e) => e,
    };
    let node = match it.eval(e)? {
        Value::Node(n) => n,
        other => {
            let mut d = crate::diagnostics::Diagnostic::error(
                e.span,
                format!("a node of an axiom must be a node, but this variable holds {}", other.described()),
            )
            .with_note("a declared variable stands for its value; use a name that is not declared for \"any node\"");
            d.runtime = true;
            return Err(crate::eval::Flow::Error(Box::new(d)));
        }
    };
    match *class {
        Some(c) if c != node.class => fail(e.span, "the nodes of an axiom must all be nodes of one world"),
        _ => {
            *class = Some(node.class);
            Ok(Term::Node(node.id))
        }
    }
}

/// One clause: its literals, with variables renumbered in order of first use.
fn clause(lits: &[(usize, bool)], atoms: &[Atom], names: &[Rc<str>], class: Option<ClassId>, group: i64) -> Clause {
    let mut vars: Vec<u8> = Vec::new();
    let mut renumber = |t: Term| match t {
        Term::Var(v) => Term::Var(match vars.iter().position(|&x| x == v) {
            Some(i) => i as u8,
            None => {
                vars.push(v);
                (vars.len() - 1) as u8
            }
        }),
        node => node,
    };
    let lits: Vec<Lit> = lits
        .iter()
        .map(|&(a, positive)| {
            let atom = match atoms[a] {
                Atom::Edge { rel, from, to } => Atom::Edge { rel, from: renumber(from), to: renumber(to) },
                Atom::Same(x, y) => Atom::Same(renumber(x), renumber(y)),
            };
            Lit { atom, positive }
        })
        .collect();
    let names = vars.iter().map(|&v| names[v as usize].clone()).collect();
    Clause::new(lits, names, class, group)
}

// ---------------------------------------------------------------- inference

pub(super) fn node_count(it: &Interp, g: &GraphRef) -> u32 {
    it.world.class(g.borrow().class).len() as u32
}

pub(super) fn graph_arg(args: &[Value], i: usize, fname: &str, span: Span) -> R<GraphRef> {
    match args.get(i) {
        Some(Value::Graph(g)) => Ok(g.clone()),
        Some(other) => {
            fail(span, format!("argument {} of `{fname}` must be a graph, not {}", i + 1, other.described()))
        }
        None => fail(span, format!("`{fname}` is missing argument {}", i + 1)),
    }
}

/// Mind's axioms that apply to g (of the chosen groups), watched by `meter` for Ctrl-C and the
/// limits.
pub(super) fn rules_for(it: &Interp, g: &GraphRef, groups: Option<&[i64]>, meter: &Meter) -> Rules {
    let mut rules = it.mind.rules_for(&g.borrow(), node_count(it, g), groups);
    rules.stop = Some(stopper(meter));
    rules
}

/// The usual axioms that apply to g.
pub(super) fn usual_for(it: &Interp, g: &GraphRef, meter: &Meter) -> Rules {
    let mut rules = it.mind.usual_for(&g.borrow(), node_count(it, g));
    rules.stop = Some(stopper(meter));
    rules
}

/// Asked by the grounding every `STOP_EVERY` bindings it tries (each counts as a step):
/// whether to give up, without reporting why (the ticker does).
fn stopper(meter: &Meter) -> Rc<dyn Fn() -> bool> {
    let meter = meter.clone();
    Rc::new(move || {
        meter.add(STOP_EVERY as u64);
        meter.exhausted()
    })
}

/// Called once per propagation pass (a step): stops a long inference or model search at
/// Ctrl-C, `--timeout` or `--max-steps`, without holding the interpreter.
pub(super) fn ticker(meter: &Meter, span: Span) -> impl FnMut() -> R<()> {
    let meter = meter.clone();
    move || {
        meter.add(1);
        meter.check(span)
    }
}

/// Propagates `rules` in g. On success the derived edges are set in g and their number is
/// returned; on a contradiction g is left as it was and the result is -1.
fn apply(it: &mut Interp, g: &GraphRef, rules: &Rules, passes: Option<usize>, meter: &Meter, span: Span) -> R<Value> {
    let mut work = g.borrow().facts.clone();
    let result = rules.propagate(&mut work, passes, &mut ticker(meter, span))?;
    drop(work);
    it.mind.was_conflict = result.is_err();
    match result {
        Ok(derived) => {
            note_derived(it, g, rules, &derived);
            let mut gm = g.borrow_mut();
            for d in &derived {
                gm.set_edge(d.key, Logic::from_bool(d.value));
                let used = &rules.clauses[d.clause].used;
                used.set(used.get() + 1);
            }
            Ok(Value::Num(derived.len() as f64))
        }
        Err(c) => {
            note_conflict(it, g, rules, c);
            Ok(Value::Num(-1.0))
        }
    }
}

/// `Mind.set_graph(G [, Group, ...])`: Mind's axioms (of those groups) and G's own, applied
/// until nothing more follows.
fn set_graph(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = graph_arg(args, 0, "Mind.set_graph", span)?;
    let groups: Vec<i64> =
        (1..args.len()).map(|i| num_arg(args, i, "Mind.set_graph", span).map(|x| x as i64)).collect::<R<_>>()?;
    let meter = it.meter();
    let rules = rules_for(it, &g, (!groups.is_empty()).then_some(&groups[..]), &meter);
    let result = apply(it, &g, &rules, None, &meter, span)?;
    it.charge(&meter, span)?;
    Ok(result)
}

fn note_derived(it: &mut Interp, g: &GraphRef, rules: &Rules, derived: &[Derived]) {
    if it.mind.verbose == 0 {
        return;
    }
    let lines: Vec<String> = {
        let g = g.borrow();
        let class = it.world.class(g.class);
        derived
            .iter()
            .map(|d| {
                let (from, to) = (class.name(d.key.src()), class.name(d.key.tgt()));
                let rel = it.world.relation_name(d.key.rel());
                let why = rules.clauses[d.clause].text(&it.world);
                format!(
                    "Mind sets {from} {rel} {to} = {} in graph {} (axiom: {why})",
                    Logic::from_bool(d.value),
                    g.name
                )
            })
            .collect()
    };
    for line in lines {
        it.note(format_args!("{line}"));
    }
}

fn note_conflict(it: &mut Interp, g: &GraphRef, rules: &Rules, c: Conflict) {
    if it.mind.verbose > 0 {
        let why = rules.clauses.get(c.clause).map_or_else(String::new, |cl| cl.text(&it.world));
        let gname = g.borrow().name.clone();
        it.note(format_args!("Mind finds a contradiction in graph {gname} (axiom: {why})"));
    }
}

// ---------------------------------------------------------------- administration

/// `Mind.out([G])`: Mind's axioms, then G's own (G: the current graph by default).
fn out(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let g = match args.first() {
        Some(_) => graph_arg(args, 0, "Mind.out", span)?,
        None => it.current_graph(span)?,
    };
    let mut text = String::new();
    let line = |text: &mut String, kind: &str, c: &Clause| {
        let group = if c.group != 0 { format!(" [group {}]", c.group) } else { String::new() };
        text.push_str(&format!("{kind}{group}: {}  (used {})\n", c.text(&it.world), c.used.get()));
    };
    for c in &it.mind.always {
        line(&mut text, "always", c);
    }
    for c in &it.mind.usual {
        line(&mut text, "usual", c);
    }
    let gname = format!("graph {}", g.borrow().name);
    for c in g.borrow().data.axioms.iter() {
        line(&mut text, &gname, c);
    }
    if text.is_empty() {
        text.push_str("no axioms\n");
    }
    it.write_out(&text, span)?;
    Ok(Value::None)
}

/// `Mind.clear()` removes Mind's axioms; `Mind.clear(G)` G's own.
fn clear(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    if args.is_empty() {
        it.mind.always.clear();
        it.mind.usual.clear();
    } else {
        Rc::make_mut(&mut graph_arg(args, 0, "Mind.clear", span)?.borrow_mut().data).axioms.clear();
    }
    Ok(Value::None)
}

fn clear_used(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    for c in it.mind.always.iter().chain(&it.mind.usual) {
        c.used.set(0);
    }
    if let Value::Graph(g) = &it.graph {
        for c in g.borrow().data.axioms.iter() {
            c.used.set(0);
        }
    }
    Ok(Value::None)
}

fn was_conflict(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::bool(it.mind.was_conflict))
}

/// A setting read with no argument, set with one; the (new) value is returned.
fn setting(args: &[Value], fname: &str, span: Span, place: &mut f64) -> R<Value> {
    if !args.is_empty() {
        *place = num_arg(args, 0, fname, span)?;
    }
    Ok(Value::Num(*place))
}

fn mode(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    setting(args, "Mind.mode", span, &mut it.mind.mode)
}

fn out_undef(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    setting(args, "Mind.out_undef", span, &mut it.mind.out_undef)
}

fn verbose(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = it.mind.verbose as f64;
    let r = setting(args, "Mind.verbose", span, &mut v)?;
    it.mind.verbose = v.clamp(0.0, 2.0) as u8;
    Ok(r)
}

fn group(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = it.mind.group as f64;
    let r = setting(args, "Mind.group", span, &mut v)?;
    it.mind.group = v as i64;
    Ok(r)
}

fn different_vals(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut v = if it.mind.distinct { 1.0 } else { 0.0 };
    setting(args, "Mind.differnt_vals", span, &mut v)?;
    it.mind.distinct = v != 0.0;
    Ok(Value::Num(if it.mind.distinct { 1.0 } else { 0.0 }))
}

/// `Mind.validator(F)`: a lambda that every complete model must make True; None removes it.
fn validator(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    it.mind.validator = match &args[0] {
        Value::None => None,
        f @ Value::Lambda(code) if code.param_names.len() == 1 => Some(f.clone()),
        other => {
            return fail(
                span,
                format!("`Mind.validator` takes a lambda with one parameter (the model), not {}", other.described()),
            )
        }
    };
    Ok(Value::None)
}

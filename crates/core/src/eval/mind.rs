//! The evaluator's side of the Mind module: axioms made concrete from their compiled form
//! (`Mind.add`, `Mind.add_usual`, `set`, axiom statements), the propagation that `set` shares
//! with `Mind.set_graph`, and `Mind.value`, whose expression runs in each model. The engine is
//! `crate::mind`; the other `Mind.*` functions are in `builtins/mind.rs`.

use super::closure::ValueFn;
use super::{fail, Flow, Interp, Meter, R};
use crate::compile::ir::{AtomEx, AxiomEx, AxiomUse, Rel, TermEx};
use crate::mind::ground::STOP_EVERY;
use crate::mind::propagate::{Conflict, Derived};
use crate::mind::{Atom, Clause, Lit, Rules, Term};
use crate::value::{Logic, Value};
use crate::world::{ClassId, GraphRef};
use ds_base::diagnostics::Diagnostic;
use ds_syntax::Span;
use std::rc::Rc;

/// The closures of an axiom's fixed terms (`TermEx::Fixed`), in the order they appear.
pub(crate) type Terms = [ValueFn];

/// `Mind.add`, `Mind.add_usual`, `set`: the axioms made concrete, then kept or applied.
pub(crate) fn axioms<'a>(
    it: &mut Interp,
    usage: AxiomUse,
    axioms: impl Iterator<Item = (&'a AxiomEx, &'a Terms)>,
    span: Span,
) -> R<Value> {
    let mut clauses = Vec::new();
    for (ax, terms) in axioms {
        clauses.extend(instantiate(it, ax, terms)?);
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
pub(crate) fn state_axiom(it: &mut Interp, ax: &AxiomEx, terms: &Terms, span: Span) -> R<()> {
    let clauses = instantiate(it, ax, terms)?;
    let g = it.current_graph(span)?;
    g.borrow_mut().data_mut().axioms.extend(clauses);
    Ok(())
}

/// The clauses of an axiom, with its fixed nodes (`terms`) and relation variables evaluated
/// now. Each clause keeps only the variables it mentions.
fn instantiate(it: &mut Interp, ax: &AxiomEx, terms: &Terms) -> R<Vec<Rc<Clause>>> {
    let mut class: Option<ClassId> = None;
    let mut terms = terms.iter();
    let mut next_term = |it: &mut Interp, t: &TermEx, class: &mut Option<ClassId>| term(it, t, &mut terms, class);
    let mut atoms = Vec::with_capacity(ax.atoms.len());
    for a in &ax.atoms {
        atoms.push(match a {
            AtomEx::Edge { rel, rel_span, from, to } => {
                let rel = match rel {
                    Rel::Fixed(id) => *id,
                    Rel::Var(_) | Rel::Demon(_) => it.relation_of(rel, *rel_span)?,
                };
                Atom::Edge { rel, from: next_term(it, from, &mut class)?, to: next_term(it, to, &mut class)? }
            }
            AtomEx::Same(a, b) => Atom::Same(next_term(it, a, &mut class)?, next_term(it, b, &mut class)?),
        });
    }
    let group = it.mind.group;
    Ok(ax.clauses.iter().map(|c| Rc::new(clause(c, &atoms, &ax.vars, class, group))).collect())
}

/// A term: a variable, or the node the next of the fixed terms' closures gives.
fn term<'a>(
    it: &mut Interp,
    t: &TermEx,
    terms: &mut impl Iterator<Item = &'a ValueFn>,
    class: &mut Option<ClassId>,
) -> R<Term> {
    let e = match t {
        TermEx::Var(v) => return Ok(Term::Var(*v)),
        TermEx::Fixed(e) => e,
    };
    let value = match terms.next() {
        Some(f) => f(it)?,
        None => return fail(e.span, "internal error: an axiom's term has no compiled form"),
    };
    let node = match value {
        Value::Node(n) => n,
        other => {
            let mut d = Diagnostic::error(
                e.span,
                format!("a node of an axiom must be a node, but this variable holds {}", other.described()),
            )
            .with_note("a declared variable stands for its value; use a name that is not declared for \"any node\"");
            d.runtime = true;
            return Err(Flow::Error(Box::new(d)));
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

pub(crate) fn node_count(it: &Interp, g: &GraphRef) -> u32 {
    it.world.class(g.borrow().class).len() as u32
}

/// Mind's axioms that apply to g (of the chosen groups), watched by `meter` for Ctrl-C and the
/// limits.
pub(crate) fn rules_for(it: &Interp, g: &GraphRef, groups: Option<&[i64]>, meter: &Meter) -> Rules {
    let mut rules = it.mind.rules_for(&g.borrow(), node_count(it, g), groups);
    rules.stop = Some(stopper(meter));
    rules
}

/// The usual axioms that apply to g.
pub(crate) fn usual_for(it: &Interp, g: &GraphRef, meter: &Meter) -> Rules {
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
pub(crate) fn ticker(meter: &Meter, span: Span) -> impl FnMut() -> R<()> {
    let meter = meter.clone();
    move || {
        meter.add(1);
        meter.check(span)
    }
}

/// Propagates `rules` in g. On success the derived edges are set in g and their number is
/// returned; on a contradiction g is left as it was and the result is -1.
pub(crate) fn apply(
    it: &mut Interp,
    g: &GraphRef,
    rules: &Rules,
    passes: Option<usize>,
    meter: &Meter,
    span: Span,
) -> R<Value> {
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

/// `Mind.value(Models, Expr)`: Expr evaluated with each model (an array of graphs, or one
/// graph) as GRAPH; the value they all give, or Undef when they differ or there are none.
/// The models are evaluated (and their place given), `expr` evaluates Expr.
pub(super) fn value_in_each(
    it: &mut Interp,
    (models, models_span): (Value, Span),
    expr: &dyn Fn(&mut Interp) -> R<Value>,
    expr_span: Span,
) -> R<Value> {
    let list = match models {
        Value::Array(a) => a.borrow().iter().cloned().collect::<Vec<_>>(),
        g @ Value::Graph(_) => vec![g],
        other => return fail(models_span, format!("`Mind.value` needs an array of graphs, not {}", other.described())),
    };
    let mut common: Option<Logic> = None;
    for m in list {
        if !matches!(m, Value::Graph(_)) {
            return fail(models_span, format!("`Mind.value` needs an array of graphs, but it holds {}", m.described()));
        }
        let saved = std::mem::replace(&mut it.graph, m);
        let v = expr(it);
        it.graph = saved;
        let v = match v? {
            Value::Logic(l) => l,
            other => return fail(expr_span, format!("`Mind.value` needs a logic value, not {}", other.described())),
        };
        if common.is_some_and(|c| c != v) {
            return Ok(Value::Logic(Logic::UNDEF));
        }
        common = Some(v);
    }
    Ok(Value::Logic(common.unwrap_or(Logic::UNDEF)))
}

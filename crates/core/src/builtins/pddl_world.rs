//! A grounded PDDL task as ds worlds (decision 26, docs/planning.md "PDDL in scripts"): the
//! start graph (objects are nodes, types the nodes of a graph of their own linked by `isa`,
//! each predicate a relation; closed world: every ground atom the types allow is set, True or
//! False), and the translation between a state graph and the task's finite-domain state, which
//! `next`, `goal` and the heuristics of `Problem.pddl` work on.

use super::pddl_known::Known;
use crate::eval::{fail, Interp, R};
use crate::value::host::Host;
use crate::value::Logic;
use crate::world::facts::{Fact, FactKey, Facts};
use crate::world::{ClassId, GraphRef, RelId, World, BUILTIN_RELATIONS, ISA};
use ds_pddl::check::Model;
use ds_pddl::heuristics::Heuristic;
use ds_pddl::task::Task;
use ds_syntax::Span;
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::rc::Rc;

/// The most ground atoms the start graph may hold (every atom the types allow is a fact).
const MAX_FACTS: usize = 2_000_000;

/// A name as ds writes it: PDDL's `-` becomes `_` (`at-robby` is the relation `at_robby`).
pub fn ds_name(pddl: &str) -> String {
    pddl.replace('-', "_")
}

/// The task and how its facts sit in the worlds.
#[derive(Debug)]
pub struct PddlTask {
    pub task: Task,
    /// The class of the state graphs.
    pub class: ClassId,
    /// The start state.
    pub start: GraphRef,
    /// The graph of types, which the objects' `isa` edges point into.
    pub types: GraphRef,
    /// For each variable: the fact of each value that makes an atom true (value, key).
    var_facts: Vec<Vec<(u32, FactKey)>>,
    /// For each variable: its value when none of its atoms is true (`none`, or a binary
    /// variable's false value).
    default: Vec<Option<u32>>,
    /// The start's content hash, and for each variable and value what the value changes in it
    /// when its atom is made True (from False): for checking that a state is one of the task's.
    start_hash: u64,
    flip: Vec<Vec<u64>>,
    /// The states decoded or made so far, by content hash.
    known: RefCell<Known>,
}

impl Host for PddlTask {
    fn type_name(&self) -> &'static str {
        "pddl"
    }
    fn described(&self) -> &'static str {
        "a PDDL task"
    }
    fn write(&self, out: &mut String) {
        out.push_str("pddl task");
    }
    fn rank(&self) -> u8 {
        13
    }
}

/// A heuristic of the task (`P["h"](NAME)`), with its own working memory.
pub struct PddlHeuristic {
    pub task: Rc<PddlTask>,
    pub h: RefCell<Box<dyn Heuristic>>,
}

impl std::fmt::Debug for PddlHeuristic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PddlHeuristic")
    }
}

impl Host for PddlHeuristic {
    fn type_name(&self) -> &'static str {
        "pddl"
    }
    fn described(&self) -> &'static str {
        "a PDDL heuristic"
    }
    fn write(&self, out: &mut String) {
        out.push_str("pddl heuristic");
    }
    fn rank(&self) -> u8 {
        13
    }
}

/// The nodes and relations a ground atom is written with: `(on a b)` is the edge `a on b`,
/// `(clear a)` the loop `a clear a`, `(handempty)` the loop of `$world`, and an atom of more
/// than two arguments, `(at t x y)`, the edge `t at x#y` to the node of the rest of its
/// arguments (a tuple node, joined to its objects by `arg1`, `arg2`, ...).
struct Writing {
    rels: Vec<RelId>,
    objects: Vec<u32>,
    world: Option<u32>,
    tuples: FxHashMap<Vec<u32>, u32>,
}

impl Writing {
    fn key(&self, pred: usize, args: &[u32]) -> FactKey {
        let r = self.rels[pred];
        let node = |a: u32| self.objects[a as usize];
        match args {
            [] => {
                let w = self.world.unwrap_or(0);
                FactKey::new(w, r, 0, w)
            }
            [a] => FactKey::new(node(*a), r, 0, node(*a)),
            [a, b] => FactKey::new(node(*a), r, 0, node(*b)),
            [a, rest @ ..] => FactKey::new(node(*a), r, 0, self.tuples[rest]),
        }
    }
}

/// The relations `arg1` ... `argN` that join a tuple node to its objects, for the longest
/// rest of a predicate's arguments (none when every predicate has at most two).
fn argument_relations(world: &mut World, model: &Model, span: Span) -> R<Vec<RelId>> {
    let longest = model.preds.iter().map(|p| p.params.len()).max().unwrap_or(0);
    let names: Vec<String> = (1..longest).map(|i| format!("arg{i}")).collect();
    if longest <= 2 {
        return Ok(Vec::new());
    }
    if let Some(p) = model.preds.iter().find(|p| names.contains(&ds_name(&p.name))) {
        let msg = format!(
            "the PDDL predicate `{}` has the name of the relation `{}` that joins a tuple node to its objects",
            p.name,
            ds_name(&p.name)
        );
        return fail(span, msg);
    }
    Ok(names.iter().map(|n| world.declare_relation(n)).collect())
}

/// Every ground atom predicate `p` has under the types: each its objects' indices.
fn ground_atoms(model: &Model, p: usize) -> impl Iterator<Item = Vec<u32>> {
    let domains: Vec<Vec<usize>> = model.preds[p].params.iter().map(|&t| model.objects_of(t)).collect();
    let n = domains.iter().map(Vec::len).product::<usize>();
    (0..n).map(move |mut i| {
        let mut args = vec![0u32; domains.len()];
        for (k, d) in domains.iter().enumerate().rev() {
            args[k] = d[i % d.len()] as u32;
            i /= d.len();
        }
        args
    })
}

/// The number of ground atoms of predicate `p` under the types.
fn atom_count(model: &Model, p: usize) -> usize {
    model.preds[p].params.iter().fold(1usize, |n, &t| n.saturating_mul(model.objects_of(t).len()))
}

/// Makes the worlds of a task: the graph of types (named after the domain) and the start graph
/// (named after the problem), with the relations declared.
pub fn build(it: &mut Interp, model: &Model, task: Task, span: Span) -> R<PddlTask> {
    let world = &mut it.world;
    // Relations: one per predicate, refused when it is one of ds's own (`isa` holds types).
    let mut rels = Vec::with_capacity(model.preds.len());
    for p in &model.preds {
        let name = ds_name(&p.name);
        if BUILTIN_RELATIONS.contains(&name.as_str()) {
            return fail(span, format!("the PDDL predicate `{}` has the name of ds's own relation `{name}`", p.name));
        }
        rels.push(world.declare_relation(&name));
    }
    let arg_rels = argument_relations(world, model, span)?;
    check_distinct(model.preds.iter().map(|p| &p.name), "predicates", span)?;
    check_distinct(model.objects.iter(), "objects", span)?;
    check_distinct(model.types.iter(), "types", span)?;
    let count = (0..model.preds.len()).fold(0usize, |n, p| n.saturating_add(atom_count(model, p)));
    if count > MAX_FACTS {
        return fail(
            span,
            format!("the PDDL problem has more than {MAX_FACTS} ground atoms: too many facts for a world"),
        );
    }
    it.bulk(count, 32, span)?;
    let world = &mut it.world;
    // The types: a graph of their own, each below its parent by `isa`.
    let types = world.new_graph(&model.domain);
    let tclass = types.borrow().class;
    let type_nodes: Vec<u32> = model.types.iter().map(|t| world.add_node(tclass, &ds_name(t))).collect();
    {
        let mut facts = Vec::new();
        for (t, parent) in model.parent.iter().enumerate() {
            if let Some(p) = parent {
                facts.push(Fact { key: FactKey::new(type_nodes[t], ISA, 0, type_nodes[*p]), value: Logic::TRUE });
            }
        }
        types.borrow_mut().facts = sorted_facts(facts);
    }
    // The objects, a node `$world` for the facts of predicates without arguments, and a tuple
    // node for each rest of the arguments of an atom of more than two.
    let start = world.new_graph(&model.problem);
    let class = start.borrow().class;
    let objects: Vec<u32> = model.objects.iter().map(|o| world.add_node(class, &ds_name(o))).collect();
    let world_node = model.preds.iter().any(|p| p.params.is_empty()).then(|| world.add_node(class, "$world"));
    let mut all = Vec::new();
    let mut tuples = FxHashMap::default();
    for p in (0..model.preds.len()).filter(|&p| model.preds[p].params.len() > 2) {
        for args in ground_atoms(model, p) {
            let rest = &args[1..];
            if tuples.contains_key(rest) {
                continue;
            }
            let name: Vec<String> = rest.iter().map(|&o| ds_name(&model.objects[o as usize])).collect();
            let node = world.add_node(class, &name.join("#"));
            for (i, &o) in rest.iter().enumerate() {
                all.push(Fact { key: FactKey::new(node, arg_rels[i], 0, objects[o as usize]), value: Logic::TRUE });
            }
            tuples.insert(rest.to_vec(), node);
        }
    }
    world.classes[class as usize].closed = true;
    world.link(&types);
    let tuid = types.borrow().uid;
    let writing = Writing { rels, objects, world: world_node, tuples };
    // Every fact the types allow, False unless `:init` says it.
    for p in 0..model.preds.len() {
        all.extend(ground_atoms(model, p).map(|args| Fact { key: writing.key(p, &args), value: Logic::FALSE }));
    }
    let mut all = sorted_facts(all).to_vec();
    for a in &model.init {
        let args: Vec<u32> = a.args.iter().map(|x| obj(*x)).collect();
        let k = writing.key(a.pred, &args);
        if let Ok(i) = all.binary_search_by(|f| f.key.cmp(&k)) {
            all[i].value = Logic::TRUE;
        }
    }
    for (o, &t) in model.object_type.iter().enumerate() {
        all.push(Fact { key: FactKey::new(writing.objects[o], ISA, tuid, type_nodes[t]), value: Logic::TRUE });
    }
    let start_facts = sorted_facts(all);
    start.borrow_mut().facts = start_facts.clone();
    let mut var_facts = Vec::with_capacity(task.vars.len());
    let mut default = Vec::with_capacity(task.vars.len());
    let mut flip = Vec::with_capacity(task.vars.len());
    for var in &task.vars {
        let mut fs = Vec::new();
        let mut none = None;
        let mut flips = vec![0; var.atoms.len()];
        for (x, atom) in var.atoms.iter().enumerate() {
            match atom {
                Some((pred, args)) => {
                    let k = writing.key(*pred, args);
                    fs.push((x as u32, k));
                    flips[x] = k.content_hash(Logic::TRUE) ^ k.content_hash(Logic::FALSE);
                }
                None => none = Some(x as u32),
            }
        }
        var_facts.push(fs);
        default.push(none);
        flip.push(flips);
    }
    let start_hash = start_facts.hash();
    let known = RefCell::new(Known::new(task.vars.len()));
    Ok(PddlTask { task, class, start, types, var_facts, default, start_hash, flip, known })
}

fn obj(a: ds_pddl::check::Arg) -> u32 {
    match a {
        ds_pddl::check::Arg::Obj(o) | ds_pddl::check::Arg::Param(o) => o as u32,
    }
}

/// Two PDDL names that become one ds name (`a-b` and `a_b`) are refused.
fn check_distinct<'a>(names: impl Iterator<Item = &'a String>, what: &str, span: Span) -> R<()> {
    let mut seen: FxHashMap<String, &str> = FxHashMap::default();
    for n in names {
        if let Some(other) = seen.insert(ds_name(n), n) {
            if other != n {
                return fail(span, format!("the PDDL {what} `{other}` and `{n}` both become `{}` in ds", ds_name(n)));
            }
        }
    }
    Ok(())
}

/// Facts from unsorted items (a later item of the same key wins).
fn sorted_facts(mut items: Vec<Fact>) -> Facts {
    items.sort_by_key(|f| f.key);
    let mut out: Vec<Fact> = Vec::with_capacity(items.len());
    for f in items {
        match out.last_mut() {
            Some(last) if last.key == f.key => *last = f,
            _ => out.push(f),
        }
    }
    Facts::from_sorted(out)
}

impl PddlTask {
    /// The task's state of a state graph; an error when the graph is not a state of this task
    /// (another world, two atoms of one variable, a fact the task keeps fixed changed).
    pub fn decode(&self, g: &GraphRef, span: Span) -> R<Vec<u32>> {
        let graph = g.borrow();
        if graph.class != self.class {
            return fail(span, "this state is not a graph of the PDDL task's world (start from its `start`)");
        }
        if let Some(state) = self.known.borrow().get(graph.facts.hash()) {
            return Ok(state.to_vec());
        }
        let state = self.read(&graph, span)?;
        self.known.borrow_mut().insert(graph.facts.hash(), &state);
        Ok(state)
    }

    /// The task's state of a graph of its world, read from the graph's facts.
    fn read(&self, graph: &crate::world::Graph, span: Span) -> R<Vec<u32>> {
        let mut state = Vec::with_capacity(self.var_facts.len());
        for (v, fs) in self.var_facts.iter().enumerate() {
            let mut value = None;
            for &(x, key) in fs {
                if graph.facts.get(key).is_true() {
                    if value.is_some() {
                        return fail(
                            span,
                            format!(
                                "this state has two atoms of `{}` true, which the PDDL task keeps as one",
                                self.task.vars[v].name
                            ),
                        );
                    }
                    value = Some(x);
                }
            }
            match value.or(self.default[v]) {
                Some(x) => state.push(x),
                None => {
                    return fail(
                        span,
                        format!(
                            "this state has no atom of `{}` true, as every state of the PDDL task has",
                            self.task.vars[v].name
                        ),
                    )
                }
            }
        }
        // The state's facts are the start's with its variables' atoms moved: the same content
        // hash (a 64-bit hash of every fact: another state has it by a chance of 2^-64).
        let expected = state.iter().enumerate().fold(self.start_hash, |h, (v, &x)| {
            let init = self.task.init[v] as usize;
            h ^ self.flip[v][init] ^ self.flip[v][x as usize]
        });
        if expected != graph.facts.hash() {
            return fail(span, "this state is not one of the PDDL task's: a fact that no action changes, or one outside the task, was changed");
        }
        Ok(state)
    }

    /// Moves variable `v` from value `from` to `to` in `facts`.
    fn set_value(&self, facts: &mut Facts, v: usize, from: u32, to: u32) {
        for &(x, key) in &self.var_facts[v] {
            if x == from {
                facts.set(key, Logic::FALSE);
            }
        }
        for &(x, key) in &self.var_facts[v] {
            if x == to {
                facts.set(key, Logic::TRUE);
            }
        }
    }

    /// The successors of state graph `g`: (ground action, successor graph) for each
    /// applicable ground action, in the task's order.
    pub fn successors(&self, world: &mut World, g: &GraphRef, span: Span) -> R<Vec<(usize, GraphRef)>> {
        let state = self.decode(g, span)?;
        let mut out = Vec::new();
        let mut after = Vec::new();
        for (i, op) in self.task.ops.iter().enumerate() {
            if !self.task.applicable(op, &state) {
                continue;
            }
            let next = world.copy_graph(&g.borrow(), None);
            after.clone_from(&state);
            {
                let mut n = next.borrow_mut();
                for &(v, x) in &op.eff {
                    let from = state[v as usize];
                    if from != x {
                        self.set_value(&mut n.facts, v as usize, from, x);
                        after[v as usize] = x;
                    }
                }
                self.known.borrow_mut().insert(n.facts.hash(), &after);
            }
            out.push((i, next));
        }
        Ok(out)
    }
}

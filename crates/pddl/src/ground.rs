//! Grounding: the lifted task (`check::Model`) to a finite-domain `Task`.
//!
//! 1. Relaxed reachability: atoms reached from the initial state, ignoring deletes and negative
//!    preconditions on fluents; an action is grounded only when all its positive preconditions
//!    are reached. Each newly reached atom triggers the schemas whose preconditions it matches
//!    (the other preconditions are joined against the atoms reached so far, through an index
//!    by predicate, argument position and object), so each ground action is found from its
//!    last-reached precondition and no round repeats the work of the one before.
//! 2. Static predicates (in no effect) are checked during grounding and then dropped.
//! 3. Predicates whose atoms sharing a key are never true together (each action that adds one
//!    deletes one of the same key from its precondition, and the initial state has at most one)
//!    become one variable per key whose value is the atom that is true, plus `none` when the
//!    group can be empty: a pair of predicates keyed by one argument each (`at` and `in` of a
//!    package), or one predicate keyed by all arguments but one (`at-robby`); every other
//!    reached atom is a binary variable.

use crate::check::{Arg, Atom, CostTerm, Lit, Model, Schema, EQ};
use crate::task::{Fact, GroundStats, Op, Task, Var};
use ds_base::diagnostics::Diagnostic;
use rustc_hash::{FxHashMap, FxHashSet};

/// A ground atom: predicate and objects.
type GAtom = (usize, Vec<u32>);

struct Reach<'m> {
    m: &'m Model,
    atoms: Vec<GAtom>,
    id: FxHashMap<GAtom, u32>,
    by_pred: Vec<Vec<u32>>,
    index: FxHashMap<(usize, usize, u32), Vec<u32>>,
    queue: Vec<u32>,
    actions: Vec<(usize, Vec<u32>)>,
    seen_actions: FxHashSet<(usize, Vec<u32>)>,
    init: FxHashSet<GAtom>,
    is_static: Vec<bool>,
    objects_of: Vec<Vec<u32>>,
    /// Stops grounding that passes the memory limit (checked now and then).
    over_limit: &'m dyn Fn() -> bool,
}

/// Why grounding stopped without a task.
pub enum GroundError {
    Invalid(Diagnostic),
    /// The memory limit (or another limit of the caller) stopped it.
    Limit,
}

pub fn ground(m: &Model, over_limit: &dyn Fn() -> bool) -> Result<Task, GroundError> {
    let mut is_static = vec![true; m.preds.len()];
    for s in &m.actions {
        for a in s.add.iter().chain(&s.del) {
            is_static[a.pred] = false;
        }
    }
    let mut r = Reach {
        m,
        atoms: Vec::new(),
        id: FxHashMap::default(),
        by_pred: vec![Vec::new(); m.preds.len()],
        index: FxHashMap::default(),
        queue: Vec::new(),
        actions: Vec::new(),
        seen_actions: FxHashSet::default(),
        init: FxHashSet::default(),
        is_static,
        objects_of: (0..m.types.len()).map(|t| m.objects_of(t).into_iter().map(|o| o as u32).collect()).collect(),
        over_limit,
    };
    for a in &m.init {
        let g = (a.pred, a.args.iter().map(|x| obj(*x)).collect::<Vec<u32>>());
        r.init.insert(g.clone());
        r.reach(g);
    }
    for s in 0..m.actions.len() {
        if !m.actions[s].pre.iter().any(|l| l.positive && l.atom.pred != EQ) {
            r.enumerate(s, vec![None; m.actions[s].params.len()], &[])?;
        }
    }
    // First reached, first triggered: the actions come out in the order of the problem's
    // atoms, as a reader of the plan expects.
    let mut next = 0;
    while next < r.queue.len() {
        if next.is_multiple_of(1024) && (r.over_limit)() {
            return Err(GroundError::Limit);
        }
        r.trigger(r.queue[next])?;
        next += 1;
    }
    build(r).map_err(GroundError::Invalid)
}

fn obj(a: Arg) -> u32 {
    match a {
        Arg::Obj(o) => o as u32,
        Arg::Param(_) => u32::MAX,
    }
}

/// The object an argument stands for under a binding, if bound.
fn value(a: Arg, binding: &[Option<u32>]) -> Option<u32> {
    match a {
        Arg::Obj(o) => Some(o as u32),
        Arg::Param(p) => binding[p],
    }
}

impl Reach<'_> {
    fn reach(&mut self, g: GAtom) {
        if self.id.contains_key(&g) {
            return;
        }
        let id = self.atoms.len() as u32;
        for (pos, &o) in g.1.iter().enumerate() {
            self.index.entry((g.0, pos, o)).or_default().push(id);
        }
        self.by_pred[g.0].push(id);
        self.id.insert(g.clone(), id);
        self.atoms.push(g);
        self.queue.push(id);
    }

    /// The schemas whose positive preconditions `atom` matches, joined with the atoms so far.
    fn trigger(&mut self, atom: u32) -> Result<(), GroundError> {
        let (pred, args) = self.atoms[atom as usize].clone();
        let m = self.m;
        for s in 0..m.actions.len() {
            let schema = &m.actions[s];
            for (i, lit) in schema.pre.iter().enumerate() {
                if !lit.positive || lit.atom.pred != pred {
                    continue;
                }
                let mut binding = vec![None; schema.params.len()];
                if unify(&lit.atom, &args, &mut binding) {
                    self.enumerate(s, binding, &[i])?;
                }
            }
        }
        Ok(())
    }

    /// Every completion of `binding` that satisfies the schema's positive preconditions (other
    /// than those in `done`) over the reached atoms; each new one is grounded.
    fn enumerate(&mut self, s: usize, binding: Vec<Option<u32>>, done: &[usize]) -> Result<(), GroundError> {
        let m = self.m;
        let schema = &m.actions[s];
        let mut rest: Vec<usize> = (0..schema.pre.len())
            .filter(|i| !done.contains(i) && schema.pre[*i].positive && schema.pre[*i].atom.pred != EQ)
            .collect();
        let mut found = Vec::new();
        self.join(schema, binding, &mut rest, &mut found);
        for b in found {
            self.complete(s, b, 0)?;
        }
        Ok(())
    }

    fn join(&self, schema: &Schema, binding: Vec<Option<u32>>, rest: &mut Vec<usize>, out: &mut Vec<Vec<Option<u32>>>) {
        if rest.is_empty() {
            out.push(binding);
            return;
        }
        // The literal with the fewest candidate atoms next.
        let (k, candidates) = rest
            .iter()
            .enumerate()
            .map(|(k, &i)| (k, self.candidates(&schema.pre[i].atom, &binding)))
            .min_by_key(|(_, c)| c.len())
            .expect("rest is not empty");
        let i = rest.swap_remove(k);
        for &c in candidates {
            let mut b = binding.clone();
            if unify(&schema.pre[i].atom, &self.atoms[c as usize].1, &mut b) {
                self.join(schema, b, rest, out);
            }
        }
        rest.push(i);
        let last = rest.len() - 1;
        rest.swap(k, last);
    }

    fn candidates(&self, atom: &Atom, binding: &[Option<u32>]) -> &[u32] {
        let mut best: &[u32] = &self.by_pred[atom.pred];
        for (pos, &a) in atom.args.iter().enumerate() {
            if let Some(o) = value(a, binding) {
                let list = self.index.get(&(atom.pred, pos, o)).map_or(&[][..], Vec::as_slice);
                if list.len() < best.len() {
                    best = list;
                }
            }
        }
        best
    }

    /// Binds the parameters no precondition bound (to every object of their type), checks the
    /// types, equalities and static negative preconditions, and grounds the action.
    fn complete(&mut self, s: usize, mut binding: Vec<Option<u32>>, from: usize) -> Result<(), GroundError> {
        let m = self.m;
        let schema = &m.actions[s];
        if let Some(p) = (from..binding.len()).find(|&p| binding[p].is_none()) {
            for o in self.objects_of[schema.params[p]].clone() {
                binding[p] = Some(o);
                self.complete(s, binding.clone(), p + 1)?;
            }
            return Ok(());
        }
        let objs: Vec<u32> = binding.iter().map(|b| b.unwrap_or(0)).collect();
        if !self.holds_statically(schema, &objs) || self.seen_actions.contains(&(s, objs.clone())) {
            return Ok(());
        }
        if self.seen_actions.len().is_multiple_of(4096) && (self.over_limit)() {
            return Err(GroundError::Limit);
        }
        self.seen_actions.insert((s, objs.clone()));
        for a in &schema.add {
            let g = (a.pred, a.args.iter().map(|&x| ground_arg(x, &objs)).collect());
            self.reach(g);
        }
        self.actions.push((s, objs));
        Ok(())
    }

    fn holds_statically(&self, schema: &Schema, objs: &[u32]) -> bool {
        let typed = schema.params.iter().zip(objs).all(|(&t, &o)| self.m.is_subtype(self.m.object_type[o as usize], t));
        typed
            && schema.pre.iter().all(|l| {
                let args: Vec<u32> = l.atom.args.iter().map(|&x| ground_arg(x, objs)).collect();
                if l.atom.pred == EQ {
                    return (args[0] == args[1]) == l.positive;
                }
                if l.positive {
                    return self.id.contains_key(&(l.atom.pred, args));
                }
                !self.is_static[l.atom.pred] || !self.init.contains(&(l.atom.pred, args))
            })
    }
}

fn ground_arg(a: Arg, objs: &[u32]) -> u32 {
    match a {
        Arg::Obj(o) => o as u32,
        Arg::Param(p) => objs[p],
    }
}

/// Binds the parameters of `atom` to `args`; false when they disagree.
fn unify(atom: &Atom, args: &[u32], binding: &mut [Option<u32>]) -> bool {
    for (&a, &o) in atom.args.iter().zip(args) {
        match a {
            Arg::Obj(x) if x as u32 != o => return false,
            Arg::Obj(_) => {}
            Arg::Param(p) => match binding[p] {
                Some(b) if b != o => return false,
                Some(_) => {}
                None => binding[p] = Some(o),
            },
        }
    }
    true
}

/// Predicates whose atoms become variables: each member predicate with the argument positions
/// of its key (a variable per key; its value is the one atom of the group true for that key),
/// and whether a key can have no atom true (`none`).
#[derive(Clone)]
struct Group {
    members: Vec<(usize, Vec<usize>)>,
    can_be_empty: bool,
}

impl Group {
    fn key_positions(&self, pred: usize) -> Option<&[usize]> {
        self.members.iter().find(|(p, _)| *p == pred).map(|(_, k)| k.as_slice())
    }
}

/// Whether the atoms of the member predicates that share a key are never true together: each
/// action that adds one deletes one of the same key that its precondition requires, no action
/// deletes one it does not require, and the initial state has at most one per key. Some(can be
/// empty) when they are.
fn check_group(m: &Model, members: &[(usize, Vec<usize>)], negated: &[bool]) -> Option<bool> {
    if members.iter().any(|(p, _)| negated[*p]) {
        return None;
    }
    let key_of = |a: &Atom| -> Option<Vec<Arg>> {
        members.iter().find(|(p, _)| *p == a.pred).map(|(_, ks)| ks.iter().map(|&k| a.args[k]).collect())
    };
    let mut can_be_empty = false;
    for s in &m.actions {
        let in_pre = |d: &Atom| s.pre.iter().any(|l| l.positive && &l.atom == d);
        let adds: Vec<Vec<Arg>> = s.add.iter().filter_map(key_of).collect();
        let dels: Vec<(&Atom, Vec<Arg>)> = s.del.iter().filter_map(|d| key_of(d).map(|k| (d, k))).collect();
        if adds.len() > 1 || dels.iter().any(|(d, _)| !in_pre(d)) {
            return None;
        }
        if adds.iter().any(|k| !dels.iter().any(|(_, dk)| dk == k)) {
            return None;
        }
        if dels.iter().any(|(_, dk)| !adds.contains(dk)) {
            can_be_empty = true;
        }
    }
    let mut keys = FxHashSet::default();
    for a in &m.init {
        if let Some(k) = key_of(a) {
            if !keys.insert(k) {
                return None;
            }
        }
    }
    Some(can_be_empty)
}

/// The groups of the task: pairs of predicates keyed by one argument each first (a ball is in
/// a room or in a gripper: `at` and `carry`, keyed by the ball), then single predicates keyed
/// by all arguments but one (`at-robby`, `lift-at`).
fn find_groups(m: &Model, is_static: &[bool], negated: &[bool]) -> (Vec<Group>, Vec<Option<usize>>) {
    let n = m.preds.len();
    let arity = |p: usize| m.preds[p].params.len();
    let fluent = |p: usize| !is_static[p] && arity(p) > 0 && !negated[p];
    let mut groups: Vec<Group> = Vec::new();
    let mut of_pred: Vec<Option<usize>> = vec![None; n];
    let mut add = |members: Vec<(usize, Vec<usize>)>, can_be_empty: bool, of_pred: &mut Vec<Option<usize>>| {
        for (p, _) in &members {
            of_pred[*p] = Some(groups.len());
        }
        groups.push(Group { members, can_be_empty });
    };
    for p in (0..n).filter(|&p| fluent(p)) {
        for q in (p + 1..n).filter(|&q| fluent(q)) {
            if of_pred[p].is_some() || of_pred[q].is_some() {
                continue;
            }
            'keys: for kp in 0..arity(p) {
                for kq in 0..arity(q) {
                    let members = vec![(p, vec![kp]), (q, vec![kq])];
                    if let Some(empty) = check_group(m, &members, negated) {
                        add(members, empty, &mut of_pred);
                        break 'keys;
                    }
                }
            }
        }
    }
    for p in (0..n).filter(|&p| fluent(p)) {
        if of_pred[p].is_some() {
            continue;
        }
        for pos in (0..arity(p)).rev() {
            let members = vec![(p, (0..arity(p)).filter(|&j| j != pos).collect())];
            if let Some(empty) = check_group(m, &members, negated) {
                add(members, empty, &mut of_pred);
                break;
            }
        }
    }
    (groups, of_pred)
}

fn atom_text(m: &Model, g: &GAtom) -> String {
    let mut s = format!("({}", m.preds[g.0].name);
    for &o in &g.1 {
        s.push(' ');
        s.push_str(&m.objects[o as usize]);
    }
    s.push(')');
    s
}

/// The variables, facts and operators from the reached atoms and actions.
fn build(r: Reach) -> Result<Task, Diagnostic> {
    let m = r.m;
    let mut negated = vec![false; m.preds.len()];
    for l in m.actions.iter().flat_map(|s| &s.pre).chain(&m.goal).filter(|l| !l.positive && l.atom.pred != EQ) {
        negated[l.atom.pred] = true;
    }
    let (groups, group_of) = find_groups(m, &r.is_static, &negated);
    let mut vars: Vec<Var> = Vec::new();
    let mut fact_of: Vec<Option<Fact>> = vec![None; r.atoms.len()];
    let mut key_var: FxHashMap<(usize, Vec<u32>), u32> = FxHashMap::default();
    let mut none_of: Vec<Option<u32>> = Vec::new();
    // The group of each variable (None: a binary variable).
    let mut var_group: Vec<Option<usize>> = Vec::new();
    let mut static_atoms = 0;
    for (id, g) in r.atoms.iter().enumerate() {
        if r.is_static[g.0] {
            static_atoms += 1;
            continue;
        }
        let text = atom_text(m, g);
        match group_of[g.0] {
            Some(grp) => {
                let positions = groups[grp].key_positions(g.0).unwrap_or_default();
                let key: Vec<u32> = positions.iter().map(|&k| g.1[k]).collect();
                let v = *key_var.entry((grp, key.clone())).or_insert_with(|| {
                    let mut name = m.preds[g.0].name.clone();
                    for &o in &key {
                        name.push(' ');
                        name.push_str(&m.objects[o as usize]);
                    }
                    vars.push(Var { name, values: Vec::new(), atoms: Vec::new() });
                    none_of.push(None);
                    var_group.push(Some(grp));
                    (vars.len() - 1) as u32
                });
                fact_of[id] = Some((v, vars[v as usize].values.len() as u32));
                vars[v as usize].values.push(text);
                vars[v as usize].atoms.push(Some(g.clone()));
            }
            None => {
                fact_of[id] = Some((vars.len() as u32, 1));
                vars.push(Var {
                    name: text.clone(),
                    values: vec![format!("(not {text})"), text],
                    atoms: vec![None, Some(g.clone())],
                });
                none_of.push(Some(0));
                var_group.push(None);
            }
        }
    }
    // The initial values; a group's key with no atom true starts at `none`.
    let mut init: Vec<Option<u32>> = vec![None; vars.len()];
    for (id, g) in r.atoms.iter().enumerate() {
        if let (Some((v, x)), true) = (fact_of[id], r.init.contains(g)) {
            init[v as usize] = Some(x);
        }
    }
    for (v, var) in vars.iter_mut().enumerate() {
        let grp_needs_none = var_group[v].is_some_and(|g| groups[g].can_be_empty || init[v].is_none());
        if grp_needs_none {
            none_of[v] = Some(var.values.len() as u32);
            var.values.push("none".into());
            var.atoms.push(None);
        }
    }
    let init: Vec<u32> = init.iter().enumerate().map(|(v, x)| x.or(none_of[v]).unwrap_or(0)).collect();
    let fact = |pred: usize, args: Vec<u32>| r.id.get(&(pred, args)).and_then(|&id| fact_of[id as usize]);
    let mut goal_unreachable = false;
    let mut goal = Vec::new();
    for l in &m.goal {
        let args: Vec<u32> = l.atom.args.iter().map(|&a| obj(a)).collect();
        match lit_fact(&r, l, args, &fact, &none_of) {
            Ok(Some(f)) => goal.push(f),
            Ok(None) => {}
            Err(()) => goal_unreachable = true,
        }
    }
    let mut ops = Vec::with_capacity(r.actions.len());
    for (s, objs) in &r.actions {
        if let Some(op) = ground_op(&r, &m.actions[*s], objs, &fact, &none_of)? {
            ops.push(op);
        }
    }
    let unit_cost = ops.iter().all(|o| o.cost == 1);
    let stats = GroundStats { reachable_atoms: r.atoms.len(), static_atoms, groups: key_var.len() };
    Ok(Task { vars, init, goal, ops, goal_unreachable, unit_cost, stats })
}

/// A literal (of a goal or a precondition) as a fact: `Ok(None)` when it always holds, `Err`
/// when it never does.
fn lit_fact(
    r: &Reach,
    l: &Lit,
    args: Vec<u32>,
    fact: &dyn Fn(usize, Vec<u32>) -> Option<Fact>,
    none_of: &[Option<u32>],
) -> Result<Option<Fact>, ()> {
    if l.atom.pred == EQ {
        return if (args[0] == args[1]) == l.positive { Ok(None) } else { Err(()) };
    }
    if r.is_static[l.atom.pred] {
        return if r.init.contains(&(l.atom.pred, args)) == l.positive { Ok(None) } else { Err(()) };
    }
    match (fact(l.atom.pred, args), l.positive) {
        (Some(f), true) => Ok(Some(f)),
        (None, true) => Err(()),
        // A negated atom that no action reaches always holds.
        (None, false) => Ok(None),
        // Negated predicates are never groups: the variable is binary.
        (Some((v, _)), false) => Ok(Some((v, none_of[v as usize].unwrap_or(0)))),
    }
}

fn ground_op(
    r: &Reach,
    s: &Schema,
    objs: &[u32],
    fact: &dyn Fn(usize, Vec<u32>) -> Option<Fact>,
    none_of: &[Option<u32>],
) -> Result<Option<Op>, Diagnostic> {
    let m = r.m;
    let args = |a: &Atom| a.args.iter().map(|&x| ground_arg(x, objs)).collect::<Vec<u32>>();
    let mut pre: Vec<Fact> = Vec::new();
    for l in &s.pre {
        match lit_fact(r, l, args(&l.atom), fact, none_of) {
            Ok(Some(f)) => pre.push(f),
            Ok(None) => {}
            Err(()) => return Ok(None),
        }
    }
    pre.sort_unstable();
    pre.dedup();
    if pre.windows(2).any(|w| w[0].0 == w[1].0) {
        return Ok(None);
    }
    // Deletes first, then adds: an atom both deleted and added stays true (PDDL's order).
    let mut eff: FxHashMap<u32, u32> = FxHashMap::default();
    for d in &s.del {
        if let Some((v, _)) = fact(d.pred, args(d)) {
            if let Some(none) = none_of[v as usize] {
                eff.insert(v, none);
            }
        }
    }
    for a in &s.add {
        if let Some((v, x)) = fact(a.pred, args(a)) {
            eff.insert(v, x);
        }
    }
    // An effect the precondition already makes true changes nothing; an action that changes
    // nothing (`move rooma rooma`) only leads back to its state, and is dropped (as Fast
    // Downward's translator does).
    let mut eff: Vec<Fact> = eff.into_iter().filter(|f| !pre.contains(f)).collect();
    if eff.is_empty() {
        return Ok(None);
    }
    eff.sort_unstable();
    let mut name = format!("({}", s.name);
    for &o in objs {
        name.push(' ');
        name.push_str(&m.objects[o as usize]);
    }
    name.push(')');
    let cost = if m.metric { cost(m, s, objs)? } else { 1 };
    Ok(Some(Op { name, cost, pre, eff }))
}

fn cost(m: &Model, s: &Schema, objs: &[u32]) -> Result<i64, Diagnostic> {
    let mut total = 0i64;
    for term in &s.cost {
        total += match term {
            CostTerm::Const(n) => *n,
            CostTerm::Fluent(f, args, span) => {
                let key: Vec<usize> = args.iter().map(|&a| ground_arg(a, objs) as usize).collect();
                match m.values.get(&(*f, key.clone())) {
                    Some(&v) => v,
                    None => {
                        let names: Vec<&str> = key.iter().map(|&o| m.objects[o].as_str()).collect();
                        return Err(Diagnostic::error(
                            *span,
                            format!("`({} {})` has no value in the problem's :init", m.funcs[*f].name, names.join(" ")),
                        ));
                    }
                }
            }
        };
    }
    Ok(total)
}

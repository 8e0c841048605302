//! The checks of a domain and its problem, and the lifted task they make (`Model`): every name
//! defined once and used where defined, arities, argument types, the type hierarchy acyclic,
//! the problem written for this domain, the requirements within decision 26's list.

use crate::ast::{self, Cond, Effect, FExp, FuncItem, Ident, InitItem, Term, Typed};
use crate::parse::SUPPORTED;
use ds_base::diagnostics::{Diagnostic, Span};
use ds_base::names::suggest;
use rustc_hash::FxHashMap;

/// The predicate index of `(= a b)`.
pub const EQ: usize = usize::MAX;

/// An argument of a lifted atom: an action parameter or an object.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arg {
    Param(usize),
    Obj(usize),
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Atom {
    pub pred: usize,
    pub args: Vec<Arg>,
}

/// A precondition or goal literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lit {
    pub atom: Atom,
    pub positive: bool,
}

/// What an action adds to `(total-cost)`: a number, or a static fluent's value.
#[derive(Debug, Clone)]
pub enum CostTerm {
    Const(i64),
    Fluent(usize, Vec<Arg>, Span),
}

#[derive(Debug, Clone)]
pub struct Schema {
    pub name: String,
    pub params: Vec<usize>,
    pub pre: Vec<Lit>,
    pub add: Vec<Atom>,
    pub del: Vec<Atom>,
    pub cost: Vec<CostTerm>,
}

#[derive(Debug, Clone)]
pub struct Pred {
    pub name: String,
    pub params: Vec<usize>,
}

/// A checked domain and problem: names are indices (types, objects, predicates, functions).
#[derive(Debug, Clone, Default)]
pub struct Model {
    pub domain: String,
    pub problem: String,
    pub types: Vec<String>,
    /// The parent of each type (`object`, index 0, has none).
    pub parent: Vec<Option<usize>>,
    pub objects: Vec<String>,
    pub object_type: Vec<usize>,
    pub preds: Vec<Pred>,
    pub funcs: Vec<Pred>,
    pub actions: Vec<Schema>,
    pub init: Vec<Atom>,
    pub values: FxHashMap<(usize, Vec<usize>), i64>,
    pub goal: Vec<Lit>,
    /// `(:metric minimize (total-cost))`: the actions' costs count; without it each costs 1.
    pub metric: bool,
}

impl Model {
    /// Whether type `t` is `ancestor` or below it.
    pub fn is_subtype(&self, mut t: usize, ancestor: usize) -> bool {
        loop {
            if t == ancestor {
                return true;
            }
            match self.parent[t] {
                Some(p) => t = p,
                None => return false,
            }
        }
    }

    /// The objects of type `t` (or below it).
    pub fn objects_of(&self, t: usize) -> Vec<usize> {
        (0..self.objects.len()).filter(|&o| self.is_subtype(self.object_type[o], t)).collect()
    }
}

type Res<T> = Result<T, Diagnostic>;

/// Checks a domain and a problem together and gives their lifted task.
pub fn check(domain: &ast::Domain, problem: &ast::Problem) -> Res<Model> {
    let mut c = Checker::default();
    c.m.domain = domain.name.name.clone();
    c.m.problem = problem.name.name.clone();
    c.m.types.push("object".into());
    c.m.parent.push(None);
    c.domain(domain)?;
    c.problem(problem, &domain.name)?;
    Ok(c.m)
}

#[derive(Default)]
struct Checker {
    m: Model,
    type_at: FxHashMap<String, (usize, Span)>,
    object_at: FxHashMap<String, (usize, Span)>,
    pred_at: FxHashMap<String, (usize, Span)>,
    func_at: FxHashMap<String, (usize, Span)>,
    action_at: FxHashMap<String, Span>,
}

fn duplicate(what: &str, id: &Ident, first: Span) -> Diagnostic {
    Diagnostic::error(id.span, format!("duplicate {what} `{}`", id.name)).with_label(first, "first defined here")
}

fn undefined<'a>(what: &str, id: &Ident, known: impl IntoIterator<Item = &'a str>) -> Diagnostic {
    let d = Diagnostic::error(id.span, format!("undefined {what} `{}`", id.name));
    match suggest(&id.name, known) {
        Some(s) => d.with_note(format!("did you mean `{s}`?")),
        None => d,
    }
}

/// A typed list as (item, its type's name): items before `- t` have type t, the others `object`.
fn typed(items: &[Typed]) -> Vec<(Ident, Option<Ident>)> {
    let mut out = Vec::new();
    let mut pending = Vec::new();
    for item in items {
        match item {
            Typed::Item(i) => pending.push(i.clone()),
            Typed::Type(t) => out.extend(pending.drain(..).map(|i| (i, Some(t.clone())))),
        }
    }
    out.extend(pending.into_iter().map(|i| (i, None)));
    out
}

fn requirements(flags: &[Ident]) -> Res<()> {
    const OK: [&str; 5] = [":strips", ":typing", ":negative-preconditions", ":equality", ":action-costs"];
    match flags.iter().find(|f| !OK.contains(&f.name.as_str())) {
        Some(f) => Err(Diagnostic::error(f.span, format!("unsupported requirement `{}`", f.name))
            .with_note(format!("ds plan reads {SUPPORTED}"))),
        None => Ok(()),
    }
}

impl Checker {
    fn domain(&mut self, d: &ast::Domain) -> Res<()> {
        use ast::DomainItem as I;
        for item in &d.items {
            match item {
                I::Requirements(flags) => requirements(flags)?,
                I::Types(list) => self.types(list)?,
                _ => {}
            }
        }
        self.type_cycle()?;
        for item in &d.items {
            match item {
                I::Constants(list) => self.objects(list)?,
                I::Predicates(decls) => {
                    for decl in decls {
                        let p = Pred { name: decl.name.name.clone(), params: self.param_types(&decl.params)? };
                        self.define_pred(&decl.name, p)?;
                    }
                }
                I::Functions(items) => self.functions(items)?,
                _ => {}
            }
        }
        for item in &d.items {
            if let I::Action(a) = item {
                if let Some(first) = self.action_at.insert(a.name.name.clone(), a.name.span) {
                    return Err(duplicate("action", &a.name, first));
                }
                let schema = self.action(a)?;
                self.m.actions.push(schema);
            }
        }
        Ok(())
    }

    fn types(&mut self, list: &[Typed]) -> Res<()> {
        let items = typed(list);
        for (name, _) in &items {
            if name.name == "object" {
                continue;
            }
            if let Some(&(_, first)) = self.type_at.get(&name.name) {
                return Err(duplicate("type", name, first));
            }
            self.type_at.insert(name.name.clone(), (self.m.types.len(), name.span));
            self.m.types.push(name.name.clone());
            self.m.parent.push(Some(0));
        }
        for (name, parent) in &items {
            if let (Some(&(t, _)), Some(p)) = (self.type_at.get(&name.name), parent) {
                self.m.parent[t] = Some(self.type_of(p)?);
            }
        }
        Ok(())
    }

    fn type_cycle(&self) -> Res<()> {
        for start in 1..self.m.types.len() {
            let mut t = start;
            for _ in 0..self.m.types.len() {
                match self.m.parent[t] {
                    Some(p) => t = p,
                    None => break,
                }
                if t == start {
                    let span = self.type_at[&self.m.types[start]].1;
                    return Err(Diagnostic::error(
                        span,
                        format!("the type `{}` is its own ancestor (a cycle of types)", self.m.types[start]),
                    ));
                }
            }
        }
        Ok(())
    }

    fn type_of(&self, id: &Ident) -> Res<usize> {
        if id.name == "object" {
            return Ok(0);
        }
        match self.type_at.get(&id.name) {
            Some(&(t, _)) => Ok(t),
            None => Err(undefined("type", id, self.m.types.iter().map(String::as_str))),
        }
    }

    fn param_types(&self, params: &[Typed]) -> Res<Vec<usize>> {
        let mut seen: FxHashMap<String, Span> = FxHashMap::default();
        let mut out = Vec::new();
        for (name, t) in typed(params) {
            if let Some(&first) = seen.get(name.name.as_str()) {
                return Err(duplicate("parameter", &name, first));
            }
            seen.insert(name.name.clone(), name.span);
            out.push(match &t {
                Some(t) => self.type_of(t)?,
                None => 0,
            });
        }
        Ok(out)
    }

    fn objects(&mut self, list: &[Typed]) -> Res<()> {
        for (name, t) in typed(list) {
            if let Some(&(_, first)) = self.object_at.get(&name.name) {
                return Err(duplicate("object", &name, first));
            }
            let t = match &t {
                Some(t) => self.type_of(t)?,
                None => 0,
            };
            self.object_at.insert(name.name.clone(), (self.m.objects.len(), name.span));
            self.m.objects.push(name.name.clone());
            self.m.object_type.push(t);
        }
        Ok(())
    }

    fn define_pred(&mut self, name: &Ident, p: Pred) -> Res<()> {
        if let Some(&(_, first)) = self.pred_at.get(&name.name) {
            return Err(duplicate("predicate", name, first));
        }
        self.pred_at.insert(name.name.clone(), (self.m.preds.len(), name.span));
        self.m.preds.push(p);
        Ok(())
    }

    fn functions(&mut self, items: &[FuncItem]) -> Res<()> {
        for item in items {
            match item {
                FuncItem::Type(t) if t.name != "number" => {
                    return Err(Diagnostic::error(t.span, format!("unsupported function type `{}`", t.name))
                        .with_note("ds plan reads numeric functions only (`- number`), for :action-costs"));
                }
                FuncItem::Type(_) => {}
                FuncItem::Decl(decl) => {
                    if let Some(&(_, first)) = self.func_at.get(&decl.name.name) {
                        return Err(duplicate("function", &decl.name, first));
                    }
                    let params = self.param_types(&decl.params)?;
                    self.func_at.insert(decl.name.name.clone(), (self.m.funcs.len(), decl.name.span));
                    self.m.funcs.push(Pred { name: decl.name.name.clone(), params });
                }
            }
        }
        Ok(())
    }

    fn action(&self, a: &ast::Action) -> Res<Schema> {
        let params = self.param_types(&a.params)?;
        let names: Vec<(String, usize)> =
            typed(&a.params).into_iter().zip(&params).map(|((n, _), &t)| (n.name, t)).collect();
        let scope = Scope { params: &names };
        let mut s = Schema {
            name: a.name.name.clone(),
            params,
            pre: Vec::new(),
            add: Vec::new(),
            del: Vec::new(),
            cost: Vec::new(),
        };
        if let Some(pre) = &a.pre {
            self.cond(pre, &scope, &mut s.pre)?;
        }
        if let Some(eff) = &a.eff {
            self.effect(eff, &scope, &mut s)?;
        }
        Ok(s)
    }

    fn cond(&self, c: &Cond, scope: &Scope, out: &mut Vec<Lit>) -> Res<()> {
        match c {
            Cond::And(cs) => cs.iter().try_for_each(|c| self.cond(c, scope, out)),
            Cond::Atom(a) | Cond::Not(a) => {
                let atom = self.atom(a, scope)?;
                out.push(Lit { atom, positive: matches!(c, Cond::Atom(_)) });
                Ok(())
            }
        }
    }

    fn effect(&self, e: &Effect, scope: &Scope, s: &mut Schema) -> Res<()> {
        match e {
            Effect::And(es) => es.iter().try_for_each(|e| self.effect(e, scope, s)),
            Effect::Add(a) => {
                let atom = self.fluent_atom(a, scope)?;
                s.add.push(atom);
                Ok(())
            }
            Effect::Del(a) => {
                let atom = self.fluent_atom(a, scope)?;
                s.del.push(atom);
                Ok(())
            }
            Effect::Increase { target, by, span } => {
                if target.pred.name != "total-cost" || !target.args.is_empty() {
                    return Err(Diagnostic::error(*span, "unsupported numeric effect")
                        .with_note("ds plan reads `(increase (total-cost) N)` only (:action-costs)"));
                }
                self.func(target, scope)?;
                let term = match by {
                    FExp::Number(n, span) => CostTerm::Const(cost_number(n, *span)?),
                    FExp::Fluent(f) => {
                        let (id, args) = self.func(f, scope)?;
                        CostTerm::Fluent(id, args, f.span)
                    }
                };
                s.cost.push(term);
                Ok(())
            }
        }
    }

    /// An atom of an effect: a predicate (not `=`).
    fn fluent_atom(&self, a: &ast::Atom, scope: &Scope) -> Res<Atom> {
        if a.pred.name == "=" {
            return Err(Diagnostic::error(a.pred.span, "an effect cannot change equality"));
        }
        self.atom(a, scope)
    }

    fn atom(&self, a: &ast::Atom, scope: &Scope) -> Res<Atom> {
        if a.pred.name == "=" {
            let args = a.args.iter().map(|t| self.arg(t, scope).map(|(arg, _)| arg)).collect::<Res<_>>()?;
            return Ok(Atom { pred: EQ, args });
        }
        let Some(&(pred, _)) = self.pred_at.get(&a.pred.name) else {
            return Err(undefined("predicate", &a.pred, self.m.preds.iter().map(|p| p.name.as_str())));
        };
        let args = self.args(&a.pred, &a.args, &self.m.preds[pred].params, a.span, scope)?;
        Ok(Atom { pred, args })
    }

    fn func(&self, a: &ast::Atom, scope: &Scope) -> Res<(usize, Vec<Arg>)> {
        let Some(&(f, _)) = self.func_at.get(&a.pred.name) else {
            return Err(undefined("function", &a.pred, self.m.funcs.iter().map(|p| p.name.as_str())));
        };
        Ok((f, self.args(&a.pred, &a.args, &self.m.funcs[f].params, a.span, scope)?))
    }

    fn args(&self, head: &Ident, terms: &[Term], types: &[usize], span: Span, scope: &Scope) -> Res<Vec<Arg>> {
        if terms.len() != types.len() {
            let n = types.len();
            return Err(Diagnostic::error(
                span,
                format!("`{}` takes {n} argument{}, given {}", head.name, if n == 1 { "" } else { "s" }, terms.len()),
            ));
        }
        let mut out = Vec::new();
        for (i, (term, &want)) in terms.iter().zip(types).enumerate() {
            let (arg, has) = self.arg(term, scope)?;
            if !self.m.is_subtype(has, want) {
                let id = term.ident();
                return Err(Diagnostic::error(
                    id.span,
                    format!(
                        "`{}` is of type `{}`, but argument {} of `{}` is of type `{}`",
                        id.name,
                        self.m.types[has],
                        i + 1,
                        head.name,
                        self.m.types[want]
                    ),
                ));
            }
            out.push(arg);
        }
        Ok(out)
    }

    fn arg(&self, term: &Term, scope: &Scope) -> Res<(Arg, usize)> {
        match term {
            Term::Var(v) => match scope.params.iter().position(|(n, _)| *n == v.name) {
                Some(i) => Ok((Arg::Param(i), scope.params[i].1)),
                None => Err(undefined("variable", v, scope.params.iter().map(|(n, _)| n.as_str()))),
            },
            Term::Name(n) => match self.object_at.get(&n.name) {
                Some(&(o, _)) => Ok((Arg::Obj(o), self.m.object_type[o])),
                None => Err(undefined("object or constant", n, self.m.objects.iter().map(String::as_str))),
            },
        }
    }

    fn problem(&mut self, p: &ast::Problem, domain: &Ident) -> Res<()> {
        use ast::ProblemItem as I;
        for item in &p.items {
            match item {
                I::Domain(d) if d.name != domain.name => {
                    return Err(Diagnostic::error(
                        d.span,
                        format!(
                            "this problem is for domain `{}`, but the domain file defines `{}`",
                            d.name, domain.name
                        ),
                    )
                    .with_label(domain.span, "the domain's name"));
                }
                I::Requirements(flags) => requirements(flags)?,
                I::Objects(list) => self.objects(list)?,
                _ => {}
            }
        }
        let scope = Scope { params: &[] };
        for item in &p.items {
            match item {
                I::Init(items) => self.init(items, &scope)?,
                I::Goal(g) => {
                    let mut goal = Vec::new();
                    self.cond(g, &scope, &mut goal)?;
                    self.m.goal.extend(goal);
                }
                I::Metric(FExp::Fluent(a), _) if a.pred.name == "total-cost" && a.args.is_empty() => {
                    self.func(a, &scope)?;
                    self.m.metric = true;
                }
                I::Metric(_, span) => {
                    return Err(Diagnostic::error(*span, "unsupported metric")
                        .with_note("ds plan reads `(:metric minimize (total-cost))` only"))
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn init(&mut self, items: &[InitItem], scope: &Scope) -> Res<()> {
        for item in items {
            match item {
                InitItem::Atom(a) => {
                    let atom = self.fluent_atom(a, scope)?;
                    self.m.init.push(atom);
                }
                InitItem::Value(f, n, span) => {
                    let (id, args) = self.func(f, scope)?;
                    let objs = args.iter().map(|a| if let Arg::Obj(o) = a { *o } else { 0 }).collect();
                    let value = cost_number(n, *span)?;
                    if self.m.values.insert((id, objs), value).is_some() {
                        return Err(Diagnostic::error(*span, format!("`{}` is given a value twice", f.pred.name)));
                    }
                }
            }
        }
        Ok(())
    }
}

/// An action's parameters in scope: (name with `?`, type).
struct Scope<'a> {
    params: &'a [(String, usize)],
}

/// A cost or fluent value: a whole number from 0 (Fast Downward's action costs are integers).
fn cost_number(text: &str, span: Span) -> Res<i64> {
    match text.parse::<i64>() {
        Ok(n) if n <= 100_000_000 => Ok(n),
        _ => Err(Diagnostic::error(
            span,
            format!("`{text}` is not a cost: ds plan reads whole numbers from 0 to 100000000"),
        )),
    }
}

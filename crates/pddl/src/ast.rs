//! The syntax tree of a domain or problem file, as written (names lowered), with spans.

use ds_base::diagnostics::Span;

#[derive(Debug, Clone, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// An argument: an object or constant, or a variable (`?x`, its name with the `?`).
#[derive(Debug, Clone, PartialEq)]
pub enum Term {
    Name(Ident),
    Var(Ident),
}

impl Term {
    pub fn ident(&self) -> &Ident {
        match self {
            Term::Name(i) | Term::Var(i) => i,
        }
    }
}

/// `(p a ?x)`, or `(= a ?x)` with `pred.name == "="`.
#[derive(Debug, Clone, PartialEq)]
pub struct Atom {
    pub pred: Ident,
    pub args: Vec<Term>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Cond {
    And(Vec<Cond>),
    Atom(Atom),
    Not(Atom),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    And(Vec<Effect>),
    Add(Atom),
    Del(Atom),
    /// `(increase (total-cost) BY)`.
    Increase {
        target: Atom,
        by: FExp,
        span: Span,
    },
}

/// A number, or a numeric fluent `(f a ?x)`.
#[derive(Debug, Clone, PartialEq)]
pub enum FExp {
    Number(String, Span),
    Fluent(Atom),
}

/// An item of a typed list: a name (or variable), or `- type`, which types the names before it.
#[derive(Debug, Clone, PartialEq)]
pub enum Typed {
    Item(Ident),
    Type(Ident),
}

/// A predicate or function declaration: `(p ?a - t ?b)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl {
    pub name: Ident,
    pub params: Vec<Typed>,
}

/// An item of `(:functions ...)`: a declaration, or `- number` for those before it.
#[derive(Debug, Clone, PartialEq)]
pub enum FuncItem {
    Decl(Decl),
    Type(Ident),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Action {
    pub name: Ident,
    pub params: Vec<Typed>,
    pub pre: Option<Cond>,
    pub eff: Option<Effect>,
}

#[derive(Debug, Clone, PartialEq)]
#[allow(clippy::large_enum_variant)] // a few per file
pub enum DomainItem {
    Requirements(Vec<Ident>),
    Types(Vec<Typed>),
    Constants(Vec<Typed>),
    Predicates(Vec<Decl>),
    Functions(Vec<FuncItem>),
    Action(Action),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Domain {
    pub name: Ident,
    pub items: Vec<DomainItem>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InitItem {
    Atom(Atom),
    /// `(= (f a) N)`.
    Value(Atom, String, Span),
}

#[derive(Debug, Clone, PartialEq)]
pub enum ProblemItem {
    Domain(Ident),
    Requirements(Vec<Ident>),
    Objects(Vec<Typed>),
    Init(Vec<InitItem>),
    Goal(Cond),
    Metric(FExp, Span),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub name: Ident,
    pub items: Vec<ProblemItem>,
}

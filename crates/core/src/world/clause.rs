//! Axioms in clause form: a disjunction of literals over edges (`X rel Y`, `X !rel Y`) and node
//! identity (`X == Y`, `X != Y`). A clause's terms are its universally quantified variables or
//! fixed nodes of one world (class). A state keeps the axioms stated in it (`StateData::axioms`),
//! so the clauses are part of the world; `mind` is the engine that reasons with them.

use super::{ClassId, NodeId, RelId, World};
use std::cell::Cell;
use std::fmt::Write;
use std::rc::Rc;

/// The most variables one axiom may have (the grounding keeps a binding per variable).
pub const MAX_VARS: usize = 16;

/// A quantified variable (its index in `Clause::vars`) or a fixed node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Term {
    Var(u8),
    Node(NodeId),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Atom {
    /// `from rel to`.
    Edge { rel: RelId, from: Term, to: Term },
    /// `a == b`: the two terms are the same node.
    Same(Term, Term),
}

/// An atom or its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lit {
    pub atom: Atom,
    pub positive: bool,
}

#[derive(Debug)]
pub struct Clause {
    pub lits: Vec<Lit>,
    /// Variable names as written, for printing.
    pub vars: Vec<Rc<str>>,
    /// The world of the clause's fixed nodes; None when it has none (it applies anywhere).
    pub class: Option<ClassId>,
    /// `Mind.group(n)` at the time the axiom was added.
    pub group: i64,
    /// How many edges this clause has set in `Mind.set_graph` and `set` (`Mind.out`; reset by
    /// `Mind.clear_used`).
    pub used: Cell<u64>,
    /// The literals to walk when grounding: edge literals first (they bind variables from
    /// facts), identity literals last (they only filter).
    pub order: Vec<usize>,
}

impl Clause {
    pub fn new(lits: Vec<Lit>, vars: Vec<Rc<str>>, class: Option<ClassId>, group: i64) -> Clause {
        let mut order: Vec<usize> = (0..lits.len()).collect();
        order.sort_by_key(|&i| matches!(lits[i].atom, Atom::Same(..)));
        Clause { lits, vars, class, group, used: Cell::new(0), order }
    }

    /// Whether the clause can be applied to a graph of `class`: its fixed nodes are from there.
    pub fn applies_to(&self, class: ClassId) -> bool {
        self.class.is_none_or(|c| c == class)
    }

    /// The clause as a script would write it: `X !part Y | Y !part Z | X part Z`.
    pub fn text(&self, world: &World) -> String {
        let term = |t: Term| match t {
            Term::Var(v) => self.vars.get(v as usize).map_or_else(|| format!("#{v}"), |n| n.to_string()),
            Term::Node(id) => match self.class {
                Some(c) if (id as usize) <= world.class(c).len() => world.class(c).name(id).to_string(),
                _ => format!("#{id}"),
            },
        };
        let mut s = String::new();
        for (i, lit) in self.lits.iter().enumerate() {
            if i > 0 {
                s.push_str(" | ");
            }
            let _ = match lit.atom {
                Atom::Edge { rel, from, to } => {
                    let bang = if lit.positive { "" } else { "!" };
                    write!(s, "{} {bang}{} {}", term(from), world.relation_name(rel), term(to))
                }
                Atom::Same(a, b) => {
                    let op = if lit.positive { "==" } else { "!=" };
                    write!(s, "{} {op} {}", term(a), term(b))
                }
            };
        }
        if self.lits.is_empty() {
            s.push_str("False");
        }
        s
    }
}

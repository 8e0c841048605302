//! The Mind module's engine: axioms in clause form (`clause`, which lives in `world`, since a
//! state keeps its own axioms), their conversion from the formulas a script writes (`cnf`), ground instances found by joining literals with a graph's
//! facts (`ground`), unit propagation (`propagate`) and the search for models (`search`).
//! `builtins/mind.rs` is the script-facing side.

pub mod cnf;
pub mod ground;
pub mod propagate;
pub mod search;

pub use crate::world::clause::{self, Atom, Clause, Lit, Term};
pub use propagate::Rules;

use crate::value::Value;
use crate::world::Graph;
use std::rc::Rc;

/// The axioms and settings of `Mind.*`, one set per interpreter.
#[derive(Debug, Default)]
pub struct Mind {
    /// `Mind.add`: axioms that always hold.
    pub always: Vec<Rc<Clause>>,
    /// `Mind.add_usual`: defaults, which a model may break.
    pub usual: Vec<Rc<Clause>>,
    /// `Mind.group(n)`: the group given to axioms added from now on.
    pub group: i64,
    /// `Mind.differnt_vals(1)`: distinct variables of an axiom stand for distinct nodes.
    pub distinct: bool,
    /// `Mind.verbose(n)`: 1 notes every edge inference sets, and contradictions (stderr).
    pub verbose: u8,
    /// `Mind.mode(n)` and `Mind.out_undef(n)` are kept and returned, nothing more.
    pub mode: f64,
    pub out_undef: f64,
    /// The last `Mind.set_graph` met a contradiction.
    pub was_conflict: bool,
    /// `Mind.validator(F)`: a lambda every complete model must make True.
    pub validator: Option<Value>,
}

impl Mind {
    /// The always-axioms that apply to `g`: Mind's and g's own (top-level axiom statements),
    /// those of the chosen groups (None: all) whose fixed nodes are g's.
    pub fn rules_for(&self, g: &Graph, n: u32, groups: Option<&[i64]>) -> Rules {
        let chosen = |c: &&Rc<Clause>| c.applies_to(g.class) && groups.is_none_or(|gs| gs.contains(&c.group));
        let clauses = self.always.iter().chain(g.data.axioms.iter()).filter(chosen).cloned().collect();
        Rules { clauses, n, distinct: self.distinct, stop: None }
    }

    /// The usual axioms that apply to `g`.
    pub fn usual_for(&self, g: &Graph, n: u32) -> Rules {
        let clauses = self.usual.iter().filter(|c| c.applies_to(g.class)).cloned().collect();
        Rules { clauses, n, distinct: self.distinct, stop: None }
    }
}

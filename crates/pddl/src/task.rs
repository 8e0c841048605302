//! The grounded task in finite-domain form: variables with small domains, operators with
//! preconditions and effects as (variable, value) pairs, the initial values and the goal.
//! States are packed with `ds_pack::Layout`; this is what the searches and heuristics work on,
//! and what a script's `Problem.pddl` is built from.

use ds_pack::Layout;

/// A fact: (variable, value).
pub type Fact = (u32, u32);

#[derive(Debug, Clone)]
pub struct Var {
    /// `(at robby)` for a binary variable of one atom, `at-robby` for a group's variable.
    pub name: String,
    /// A name for each value: the atom it makes true, `none`, or `(not (p a))`.
    pub values: Vec<String>,
    /// The atom each value makes true, as (predicate, objects) indices of the `check::Model`:
    /// None for `none` and for a binary variable's false value.
    pub atoms: Vec<Option<(usize, Vec<u32>)>>,
}

#[derive(Debug, Clone)]
pub struct Op {
    /// The ground action as a plan prints it: `(pick ball1 rooma left)`.
    pub name: String,
    pub cost: i64,
    pub pre: Vec<Fact>,
    pub eff: Vec<Fact>,
}

#[derive(Debug, Clone)]
pub struct Task {
    pub vars: Vec<Var>,
    pub init: Vec<u32>,
    pub goal: Vec<Fact>,
    pub ops: Vec<Op>,
    /// A goal atom no action can reach: the task is unsolvable before any search.
    pub goal_unreachable: bool,
    /// Every operator costs 1 (the plan's last line says "unit cost").
    pub unit_cost: bool,
    pub stats: GroundStats,
}

/// What grounding found, for `ds plan`'s statistics.
#[derive(Debug, Clone, Default)]
pub struct GroundStats {
    pub reachable_atoms: usize,
    pub static_atoms: usize,
    pub groups: usize,
}

impl Task {
    pub fn layout(&self) -> Layout {
        let sizes: Vec<u32> = self.vars.iter().map(|v| v.values.len() as u32).collect();
        Layout::new(&sizes)
    }

    pub fn applicable(&self, op: &Op, state: &[u32]) -> bool {
        op.pre.iter().all(|&(v, x)| state[v as usize] == x)
    }

    pub fn is_goal(&self, state: &[u32]) -> bool {
        !self.goal_unreachable && self.goal.iter().all(|&(v, x)| state[v as usize] == x)
    }

    /// The values of a packed state.
    pub fn unpack(&self, layout: &Layout, packed: &[u64], out: &mut Vec<u32>) {
        out.clear();
        out.extend((0..self.vars.len()).map(|v| layout.get(packed, v)));
    }

    pub fn pack(&self, layout: &Layout, state: &[u32], out: &mut [u64]) {
        out.fill(0);
        for (v, &x) in state.iter().enumerate() {
            layout.set(out, v, x);
        }
    }

    /// The atoms true in a state, as text: for printing a state.
    pub fn atoms(&self, state: &[u32]) -> Vec<&str> {
        state
            .iter()
            .zip(&self.vars)
            .map(|(&x, var)| var.values[x as usize].as_str())
            .filter(|a| a.starts_with('(') && !a.starts_with("(not "))
            .collect()
    }
}

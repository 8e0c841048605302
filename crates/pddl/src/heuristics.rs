//! The heuristics of `ds plan --h NAME`: blind, goalcount, and the delete-relaxation family
//! over facts (variable, value) — hmax, hadd, hff (the relaxed plan from hadd's best supporters)
//! and LM-cut (crate::lmcut; admissible: the sum of the costs of disjunctive action landmarks,
//! each a cut in the justification graph of hmax).

use crate::task::Task;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// An estimate of the cost to the goal; None: the goal is unreachable from the state, even
/// relaxed.
pub trait Heuristic {
    fn h(&mut self, state: &[u32]) -> Option<i64>;
}

pub const NAMES: [&str; 6] = ["blind", "goalcount", "hmax", "hadd", "hff", "lmcut"];

/// The heuristic called `name`, if there is one.
pub fn by_name(name: &str, task: &Task) -> Option<Box<dyn Heuristic>> {
    Some(match name {
        "blind" => {
            Box::new(Blind { min_cost: task.ops.iter().map(|o| o.cost).min().unwrap_or(0), goal: task.goal.clone() })
        }
        "goalcount" => Box::new(GoalCount { goal: task.goal.clone() }),
        "hmax" => Box::new(Relaxed::new(task, Kind::Max)),
        "hadd" => Box::new(Relaxed::new(task, Kind::Add)),
        "hff" => Box::new(Relaxed::new(task, Kind::Ff)),
        "lmcut" => Box::new(crate::lmcut::LmCut::new(task)),
        _ => return None,
    })
}

/// 0 on goal states, else the cheapest action's cost (Fast Downward's blind heuristic).
struct Blind {
    min_cost: i64,
    goal: Vec<(u32, u32)>,
}

impl Heuristic for Blind {
    fn h(&mut self, state: &[u32]) -> Option<i64> {
        Some(if self.goal.iter().all(|&(v, x)| state[v as usize] == x) { 0 } else { self.min_cost })
    }
}

struct GoalCount {
    goal: Vec<(u32, u32)>,
}

impl Heuristic for GoalCount {
    fn h(&mut self, state: &[u32]) -> Option<i64> {
        Some(self.goal.iter().filter(|&&(v, x)| state[v as usize] != x).count() as i64)
    }
}

/// The task's facts and operators as the delete relaxation sees them: fact ids, and for each
/// operator its preconditions and effects as fact ids. Operator `ops.len()` is the artificial
/// goal operator (preconditions: the goal, effect: the goal fact `goal_fact`); every operator
/// has a precondition (those with none get the artificial fact `true_fact`, always reached).
pub(crate) struct RelaxedTask {
    offset: Vec<u32>,
    /// Each operator's preconditions, sorted by fact id, without repeats.
    pub(crate) pre: Vec<Vec<u32>>,
    pub(crate) eff: Vec<Vec<u32>>,
    pub(crate) cost: Vec<i64>,
    /// For each fact, the operators with it as a precondition.
    pub(crate) pre_of: Vec<Vec<u32>>,
    pub(crate) goal_fact: u32,
    true_fact: u32,
    pub(crate) facts: usize,
}

impl RelaxedTask {
    pub(crate) fn new(task: &Task) -> RelaxedTask {
        let mut offset = Vec::with_capacity(task.vars.len());
        let mut n = 0u32;
        for v in &task.vars {
            offset.push(n);
            n += v.values.len() as u32;
        }
        let (goal_fact, true_fact) = (n, n + 1);
        let facts = n as usize + 2;
        let id = |&(v, x): &(u32, u32)| offset[v as usize] + x;
        let mut pre: Vec<Vec<u32>> = task.ops.iter().map(|o| o.pre.iter().map(id).collect()).collect();
        let mut eff: Vec<Vec<u32>> = task.ops.iter().map(|o| o.eff.iter().map(id).collect()).collect();
        let mut cost: Vec<i64> = task.ops.iter().map(|o| o.cost).collect();
        pre.push(task.goal.iter().map(id).collect());
        eff.push(vec![goal_fact]);
        cost.push(0);
        for p in &mut pre {
            p.sort_unstable();
            p.dedup();
            if p.is_empty() {
                p.push(true_fact);
            }
        }
        let mut pre_of = vec![Vec::new(); facts];
        for (o, p) in pre.iter().enumerate() {
            for &f in p {
                pre_of[f as usize].push(o as u32);
            }
        }
        RelaxedTask { offset, pre, eff, cost, pre_of, goal_fact, true_fact, facts }
    }

    pub(crate) fn state_facts<'a>(&'a self, state: &'a [u32]) -> impl Iterator<Item = u32> + 'a {
        state.iter().enumerate().map(|(v, &x)| self.offset[v] + x).chain(std::iter::once(self.true_fact))
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Max,
    Add,
    Ff,
}

pub(crate) const INF: i64 = i64::MAX / 4;

/// hmax, hadd and hff: a Dijkstra-like pass over facts (generalised to operators that need all
/// their preconditions), with the operators' costs combined by max or by sum.
struct Relaxed {
    t: RelaxedTask,
    kind: Kind,
    fact_cost: Vec<i64>,
    /// The operator that reached a fact most cheaply (hff's relaxed plan follows these).
    supporter: Vec<u32>,
    unsatisfied: Vec<u32>,
    op_cost: Vec<i64>,
    heap: Queue,
    marked: Vec<bool>,
}

impl Relaxed {
    fn new(task: &Task, kind: Kind) -> Relaxed {
        let t = RelaxedTask::new(task);
        let (facts, ops) = (t.facts, t.pre.len());
        // hadd's sums can grow far past facts times the greatest cost: a heap for them.
        let t_costs = (t.cost.clone(), if kind == Kind::Max { facts } else { usize::MAX / 2 });
        Relaxed {
            t,
            kind,
            fact_cost: vec![INF; facts],
            supporter: vec![u32::MAX; facts],
            unsatisfied: vec![0; ops],
            op_cost: vec![0; ops],
            heap: Queue::new(&t_costs),
            marked: vec![false; ops],
        }
    }

    fn explore(&mut self, state: &[u32]) {
        self.fact_cost.fill(INF);
        self.supporter.fill(u32::MAX);
        for (o, p) in self.t.pre.iter().enumerate() {
            self.unsatisfied[o] = p.len() as u32;
            self.op_cost[o] = self.t.cost[o];
        }
        self.heap.clear();
        let start: Vec<u32> = self.t.state_facts(state).collect();
        for f in start {
            self.fact_cost[f as usize] = 0;
            self.heap.push(0, f);
        }
        while let Some((c, f)) = self.heap.pop() {
            if c > self.fact_cost[f as usize] {
                continue;
            }
            if f == self.t.goal_fact {
                break;
            }
            for &o in &self.t.pre_of[f as usize] {
                let o = o as usize;
                self.op_cost[o] = match self.kind {
                    Kind::Max => self.op_cost[o].max(c.saturating_add(self.t.cost[o])),
                    // Sums can grow past any bound on contrived tasks: saturate, never wrap.
                    _ => self.op_cost[o].saturating_add(c).min(INF),
                };
                self.unsatisfied[o] -= 1;
                if self.unsatisfied[o] == 0 {
                    let oc = self.op_cost[o];
                    for &e in &self.t.eff[o] {
                        if oc < self.fact_cost[e as usize] {
                            self.fact_cost[e as usize] = oc;
                            self.supporter[e as usize] = o as u32;
                            self.heap.push(oc, e);
                        }
                    }
                }
            }
        }
    }

    /// The cost of the relaxed plan made of the best supporters of the goal, recursively.
    fn relaxed_plan(&mut self) -> i64 {
        self.marked.fill(false);
        let mut stack = vec![self.t.goal_fact];
        let mut total = 0;
        while let Some(f) = stack.pop() {
            let o = self.supporter[f as usize];
            if o == u32::MAX || self.marked[o as usize] {
                continue;
            }
            self.marked[o as usize] = true;
            total += self.t.cost[o as usize];
            stack.extend(self.t.pre[o as usize].iter().copied());
        }
        total
    }
}

impl Heuristic for Relaxed {
    fn h(&mut self, state: &[u32]) -> Option<i64> {
        self.explore(state);
        let g = self.fact_cost[self.t.goal_fact as usize];
        if g >= INF {
            return None;
        }
        Some(if self.kind == Kind::Ff { self.relaxed_plan() } else { g })
    }
}

/// The priority queue of the relaxed explorations: a bucket per cost when the costs are small
/// enough (a fact's cost is at most the sum of all operators' costs along a chain, so the facts
/// times the greatest cost bound it), else a binary heap. Costs pushed never go below the last
/// popped one (Dijkstra's order), so the buckets are read once from the front.
pub(crate) struct Queue {
    buckets: Vec<Vec<u32>>,
    current: usize,
    touched: usize,
    heap: Option<BinaryHeap<Reverse<(i64, u32)>>>,
}

/// The most buckets a queue keeps.
const MAX_BUCKETS: i64 = 1 << 22;

impl Queue {
    pub(crate) fn new((costs, facts): &(Vec<i64>, usize)) -> Queue {
        let max = costs.iter().copied().max().unwrap_or(0).max(1);
        let small = max.saturating_mul((*facts as i64).saturating_add(1)) <= MAX_BUCKETS;
        Queue { buckets: Vec::new(), current: 0, touched: 0, heap: (!small).then(BinaryHeap::new) }
    }

    pub(crate) fn clear(&mut self) {
        match &mut self.heap {
            Some(h) => h.clear(),
            None => {
                let touched = self.touched.min(self.buckets.len());
                for b in &mut self.buckets[..touched] {
                    b.clear();
                }
                self.current = 0;
                self.touched = 0;
            }
        }
    }

    pub(crate) fn push(&mut self, cost: i64, fact: u32) {
        match &mut self.heap {
            Some(h) => h.push(Reverse((cost, fact))),
            None => {
                let c = cost as usize;
                if c >= self.buckets.len() {
                    self.buckets.resize_with(c + 1, Vec::new);
                }
                self.buckets[c].push(fact);
                self.touched = self.touched.max(c + 1);
            }
        }
    }

    pub(crate) fn pop(&mut self) -> Option<(i64, u32)> {
        match &mut self.heap {
            Some(h) => h.pop().map(|Reverse(x)| x),
            None => {
                while self.current < self.touched {
                    if let Some(f) = self.buckets[self.current].pop() {
                        return Some((self.current as i64, f));
                    }
                    self.current += 1;
                }
                None
            }
        }
    }
}

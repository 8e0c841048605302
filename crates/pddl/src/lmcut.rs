//! LM-cut (Helmert and Domshlak 2009), incremental as Fast Downward's LandmarkCutLandmarks:
//! compute hmax, then repeatedly take the cut between the state's facts and the goal's
//! zero-cost plateau in the graph of each operator's supporter (its most costly precondition),
//! add the cut's cheapest cost and subtract it from the cut's operators, until the goal costs 0.
//! After a cut only the operators whose costs fell, and what they reach, are explored again
//! (hmax only falls as costs fall), instead of all of hmax from the start.
//!
//! The supporter of an operator is its last precondition (by fact id) of greatest hmax: a
//! function of the hmax values alone, so that the incremental update and a computation from the
//! start choose the same supporters, cut the same operators and give the same value. (The
//! planner before took the precondition that Dijkstra's queue happened to give last, which no
//! update can reproduce; among ties the last by fact id gave the higher values of the two
//! fixed orders on the generated instances: docs/performance.md.)

use crate::heuristics::{Heuristic, Queue, RelaxedTask, INF};
use crate::task::Task;

/// No supporter: the operator is not reached.
const NONE: u32 = u32::MAX;

pub(crate) struct LmCut {
    t: RelaxedTask,
    /// Each operator's cost after the cuts so far.
    remaining: Vec<i64>,
    hmax: Vec<i64>,
    /// Each operator's supporter, and its hmax when it was chosen (for the update to notice
    /// that it fell).
    sup: Vec<u32>,
    sup_cost: Vec<i64>,
    unsatisfied: Vec<u32>,
    queue: Queue,
    achievers: Vec<Vec<u32>>,
    /// Marks of the current round: a fact is in the goal zone when `zone[f] == round`, and
    /// reached by the cut's exploration when `seen[f] == round` (no clearing between rounds).
    zone: Vec<u32>,
    seen: Vec<u32>,
    round: u32,
    /// Scratch: the state's facts, a stack, the cut.
    start: Vec<u32>,
    stack: Vec<u32>,
    cut: Vec<u32>,
    /// Compute hmax from the start after each cut (the reference for the tests).
    from_scratch: bool,
}

impl LmCut {
    pub(crate) fn new(task: &Task) -> LmCut {
        let t = RelaxedTask::new(task);
        let mut achievers = vec![Vec::new(); t.facts];
        for (o, e) in t.eff.iter().enumerate() {
            for &f in e {
                achievers[f as usize].push(o as u32);
            }
        }
        let (facts, ops) = (t.facts, t.pre.len());
        let queue = Queue::new(&(t.cost.clone(), facts));
        LmCut {
            remaining: t.cost.clone(),
            t,
            hmax: vec![INF; facts],
            sup: vec![NONE; ops],
            sup_cost: vec![INF; ops],
            unsatisfied: vec![0; ops],
            queue,
            achievers,
            zone: vec![0; facts],
            seen: vec![0; facts],
            round: 0,
            start: Vec::new(),
            stack: Vec::new(),
            cut: Vec::new(),
            from_scratch: false,
        }
    }

    /// The same heuristic, computing hmax from the start after every cut.
    #[cfg(test)]
    pub(crate) fn from_scratch(task: &Task) -> LmCut {
        LmCut { from_scratch: true, ..LmCut::new(task) }
    }

    /// The last precondition of `o` (by fact id) of greatest hmax.
    fn best_precondition(&self, o: usize) -> u32 {
        let mut best = self.t.pre[o][0];
        for &p in &self.t.pre[o][1..] {
            if self.hmax[p as usize] >= self.hmax[best as usize] {
                best = p;
            }
        }
        best
    }

    /// Sets the supporter of `o` from the current hmax values; whether its cost changed.
    fn choose_supporter(&mut self, o: usize) -> bool {
        let best = self.best_precondition(o);
        let cost = self.hmax[best as usize];
        let changed = cost != self.sup_cost[o];
        self.sup[o] = best;
        self.sup_cost[o] = cost;
        changed
    }

    /// hmax under the remaining costs, from the state's facts (Dijkstra over facts; an
    /// operator is reached when its last precondition is taken from the queue).
    fn full_hmax(&mut self) {
        self.hmax.fill(INF);
        self.sup.fill(NONE);
        self.sup_cost.fill(INF);
        for (o, p) in self.t.pre.iter().enumerate() {
            self.unsatisfied[o] = p.len() as u32;
        }
        self.queue.clear();
        for &f in &self.start {
            self.hmax[f as usize] = 0;
            self.queue.push(0, f);
        }
        while let Some((c, f)) = self.queue.pop() {
            if c > self.hmax[f as usize] {
                continue;
            }
            for i in 0..self.t.pre_of[f as usize].len() {
                let o = self.t.pre_of[f as usize][i] as usize;
                self.unsatisfied[o] -= 1;
                if self.unsatisfied[o] == 0 {
                    // Every precondition has its final hmax now, the greatest being c.
                    self.choose_supporter(o);
                    self.lower_effects(o, c + self.remaining[o]);
                }
            }
        }
    }

    /// Lowers the hmax of the effects of `o` to `cost` where that is cheaper.
    fn lower_effects(&mut self, o: usize, cost: i64) {
        for &e in &self.t.eff[o] {
            if cost < self.hmax[e as usize] {
                self.hmax[e as usize] = cost;
                self.queue.push(cost, e);
            }
        }
    }

    /// hmax again after the costs of the operators in `cut` fell: from their effects, only
    /// through operators whose supporter became cheaper (Fast Downward's
    /// first_exploration_incremental). Every hmax only falls, so Dijkstra's order holds.
    fn update_hmax(&mut self) {
        self.queue.clear();
        for i in 0..self.cut.len() {
            let o = self.cut[i] as usize;
            self.lower_effects(o, self.sup_cost[o] + self.remaining[o]);
        }
        while let Some((c, f)) = self.queue.pop() {
            if c > self.hmax[f as usize] {
                continue;
            }
            for i in 0..self.t.pre_of[f as usize].len() {
                let o = self.t.pre_of[f as usize][i] as usize;
                if self.sup[o] == f && self.sup_cost[o] > c && self.choose_supporter(o) {
                    self.lower_effects(o, self.sup_cost[o] + self.remaining[o]);
                }
            }
        }
    }

    /// The next round's marks, cleared when the counter wraps.
    fn next_round(&mut self) {
        if self.round == u32::MAX {
            self.zone.fill(0);
            self.seen.fill(0);
            self.round = 0;
        }
        self.round += 1;
    }

    /// The facts from which the goal is reached by operators of remaining cost 0 along their
    /// supporters.
    fn mark_goal_zone(&mut self) {
        let round = self.round;
        self.stack.clear();
        self.stack.push(self.t.goal_fact);
        self.zone[self.t.goal_fact as usize] = round;
        while let Some(f) = self.stack.pop() {
            for &o in &self.achievers[f as usize] {
                let o = o as usize;
                let s = self.sup[o];
                if s != NONE && self.remaining[o] == 0 && self.zone[s as usize] != round {
                    self.zone[s as usize] = round;
                    self.stack.push(s);
                }
            }
        }
    }

    /// The operators that lead, along supporters, from the state's side into the goal zone.
    fn find_cut(&mut self) {
        let round = self.round;
        self.cut.clear();
        self.stack.clear();
        for &f in &self.start {
            if self.seen[f as usize] != round {
                self.seen[f as usize] = round;
                self.stack.push(f);
            }
        }
        while let Some(f) = self.stack.pop() {
            for &o in &self.t.pre_of[f as usize] {
                if self.sup[o as usize] != f {
                    continue;
                }
                let mut into_zone = false;
                for &e in &self.t.eff[o as usize] {
                    if self.zone[e as usize] == round {
                        into_zone = true;
                    } else if self.seen[e as usize] != round {
                        self.seen[e as usize] = round;
                        self.stack.push(e);
                    }
                }
                if into_zone {
                    self.cut.push(o);
                }
            }
        }
    }
}

impl Heuristic for LmCut {
    fn h(&mut self, state: &[u32]) -> Option<i64> {
        self.remaining.copy_from_slice(&self.t.cost);
        self.start.clear();
        self.start.extend(self.t.state_facts(state));
        self.full_hmax();
        let goal = self.t.goal_fact as usize;
        if self.hmax[goal] >= INF {
            return None;
        }
        let mut h = 0;
        while self.hmax[goal] != 0 {
            self.next_round();
            self.mark_goal_zone();
            self.find_cut();
            let Some(min) = self.cut.iter().map(|&o| self.remaining[o as usize]).min() else { break };
            h += min;
            for &o in &self.cut {
                self.remaining[o as usize] -= min;
            }
            if self.from_scratch {
                self.full_hmax();
            } else {
                self.update_hmax();
            }
        }
        Some(h)
    }
}

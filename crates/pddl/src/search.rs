//! The searches of `ds plan --search NAME` over packed states: best-first (astar, wastar,
//! greedy, ucs), breadth-first (bfs) and iterative-deepening A* (idastar). States are stored
//! once, packed (`ds_pack::StateSet`); each stored state keeps its cost so far, its parent and the
//! operator that reached it, from which the plan is rebuilt.

use crate::heuristics::Heuristic;
use crate::task::Task;
use ds_pack::{Layout, StateSet};
use std::collections::{BTreeMap, VecDeque};
use web_time::Instant;

pub const NAMES: [&str; 6] = ["astar", "bfs", "ucs", "greedy", "wastar", "idastar"];

/// The weight of wastar's heuristic (f = g + W * h).
pub const WASTAR_WEIGHT: i64 = 5;

/// What stops a search early: a deadline, a test of the memory limit (given the bytes the
/// search holds), and a request from outside (a signal).
pub struct Limits<'a> {
    pub deadline: Option<Instant>,
    pub over_memory: &'a dyn Fn(usize) -> bool,
    pub interrupted: &'a dyn Fn() -> bool,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The operators of the plan, in order.
    Plan(Vec<usize>),
    /// The whole reachable space was searched (or the goal is unreachable even relaxed).
    Unsolvable,
    /// A limit stopped the search: "timeout", "max_memory" or "interrupted".
    Limit(&'static str),
}

#[derive(Debug, Clone, Default)]
pub struct Stats {
    pub expanded: u64,
    pub expanded_until_last_jump: u64,
    pub generated: u64,
    pub states: u64,
    pub ms: u128,
    pub bytes: usize,
}

/// Searches `task` with the algorithm `name` (one of `NAMES`) and heuristic `h`.
pub fn run(task: &Task, name: &str, h: &mut dyn Heuristic, limits: &Limits) -> (Outcome, Stats) {
    let started = Instant::now();
    let mut s = Searcher::new(task, limits);
    let outcome = if task.goal_unreachable {
        Outcome::Unsolvable
    } else {
        match name {
            "bfs" => s.breadth_first(),
            "idastar" => s.ida_star(h),
            "ucs" => s.best_first(h, |g, _| g, false),
            "greedy" => s.best_first(h, |_, h| h, true),
            "wastar" => s.best_first(h, |g, h| g + WASTAR_WEIGHT * h, true),
            _ => s.best_first(h, |g, h| g + h, true),
        }
    };
    s.stats.ms = started.elapsed().as_millis();
    s.stats.states = s.states.len() as u64;
    s.stats.bytes = s.bytes();
    (outcome, s.stats)
}

/// The operators indexed by their first precondition (on the lowest variable), so that a
/// state's applicable operators are found by looking at each variable's value once.
struct Successors {
    by_fact: Vec<Vec<Vec<u32>>>,
    always: Vec<u32>,
}

impl Successors {
    fn new(task: &Task) -> Successors {
        let mut by_fact: Vec<Vec<Vec<u32>>> = task.vars.iter().map(|v| vec![Vec::new(); v.values.len()]).collect();
        let mut always = Vec::new();
        for (i, op) in task.ops.iter().enumerate() {
            match op.pre.first() {
                Some(&(v, x)) => by_fact[v as usize][x as usize].push(i as u32),
                None => always.push(i as u32),
            }
        }
        Successors { by_fact, always }
    }

    fn applicable(&self, task: &Task, state: &[u32], out: &mut Vec<u32>) {
        out.clear();
        out.extend(self.always.iter().copied());
        for (v, &x) in state.iter().enumerate() {
            for &o in &self.by_fact[v][x as usize] {
                if task.ops[o as usize].pre[1..].iter().all(|&(w, y)| state[w as usize] == y) {
                    out.push(o);
                }
            }
        }
    }
}

const NO_PARENT: u32 = u32::MAX;

/// How often the limits are checked, in expansions: with LM-cut on a large task an expansion
/// can take a millisecond, and Ctrl-C should answer within a fraction of a second; the clock
/// read costs about 20 ns, under 1% of a blind expansion's time at this interval.
const LIMIT_EVERY: u64 = 64;

struct Searcher<'a> {
    task: &'a Task,
    layout: Layout,
    states: StateSet,
    g: Vec<i64>,
    parent: Vec<u32>,
    via: Vec<u32>,
    succ: Successors,
    limits: &'a Limits<'a>,
    stats: Stats,
    /// Scratch: a state's values, a successor's values, its packed words, the applicable ops.
    values: Vec<u32>,
    next: Vec<u32>,
    packed: Vec<u64>,
    parent_packed: Vec<u64>,
    ops: Vec<u32>,
    open_bytes: usize,
}

impl<'a> Searcher<'a> {
    fn new(task: &'a Task, limits: &'a Limits<'a>) -> Searcher<'a> {
        let layout = task.layout();
        let words = layout.words();
        Searcher {
            task,
            states: StateSet::new(words),
            layout,
            g: Vec::new(),
            parent: Vec::new(),
            via: Vec::new(),
            succ: Successors::new(task),
            limits,
            stats: Stats::default(),
            values: Vec::new(),
            next: Vec::new(),
            packed: vec![0; words],
            parent_packed: vec![0; words],
            ops: Vec::new(),
            open_bytes: 0,
        }
    }

    fn bytes(&self) -> usize {
        self.states.heap_bytes()
            + self.g.capacity() * 8
            + (self.parent.capacity() + self.via.capacity()) * 4
            + self.open_bytes
    }

    /// Checked every `LIMIT_EVERY` expansions: the reason to stop, if any.
    fn limit(&self) -> Option<&'static str> {
        if !self.stats.expanded.is_multiple_of(LIMIT_EVERY) {
            return None;
        }
        if (self.limits.interrupted)() {
            return Some("interrupted");
        }
        if self.limits.deadline.is_some_and(|d| Instant::now() >= d) {
            return Some("timeout");
        }
        (self.limits.over_memory)(self.bytes()).then_some("max_memory")
    }

    /// Stores a state (packed from `values`) reached with cost `g`; (id, whether it is new or
    /// now reached more cheaply).
    fn store(&mut self, state: &[u32], g: i64, parent: u32, via: u32) -> (u32, bool) {
        self.task.pack(&self.layout, state, &mut self.packed);
        self.store_packed(g, parent, via)
    }

    /// Stores the state packed in `packed`.
    fn store_packed(&mut self, g: i64, parent: u32, via: u32) -> (u32, bool) {
        let (id, new) = self.states.insert(&self.packed);
        if new {
            self.g.push(g);
            self.parent.push(parent);
            self.via.push(via);
            return (id, true);
        }
        if g < self.g[id as usize] {
            self.g[id as usize] = g;
            self.parent[id as usize] = parent;
            self.via[id as usize] = via;
            return (id, true);
        }
        (id, false)
    }

    fn load(&mut self, id: u32) {
        let packed = self.states.get(id);
        self.parent_packed.copy_from_slice(packed);
        self.values.clear();
        self.values.extend((0..self.task.vars.len()).map(|v| self.layout.get(packed, v)));
    }

    /// The successor of the loaded state by operator `o`: its values into `next`, its packed
    /// words into `packed` (the parent's words with the effects' fields set).
    fn apply(&mut self, o: u32) {
        self.next.clear();
        self.next.extend_from_slice(&self.values);
        self.packed.copy_from_slice(&self.parent_packed);
        for &(v, x) in &self.task.ops[o as usize].eff {
            self.next[v as usize] = x;
            self.layout.set(&mut self.packed, v as usize, x);
        }
    }

    fn plan(&self, mut id: u32) -> Vec<usize> {
        let mut ops = Vec::new();
        while self.parent[id as usize] != NO_PARENT {
            ops.push(self.via[id as usize] as usize);
            id = self.parent[id as usize];
        }
        ops.reverse();
        ops
    }

    /// Best-first search on `f(g, h)`, ties broken by smaller h, then first in first out; the
    /// goal is tested when a state is expanded. A state reached more cheaply is opened again.
    fn best_first(&mut self, h: &mut dyn Heuristic, f: impl Fn(i64, i64) -> i64, use_h: bool) -> Outcome {
        let mut open = Open::default();
        let init = self.task.init.clone();
        let Some(h0) = (if use_h { h.h(&init) } else { Some(0) }) else { return Outcome::Unsolvable };
        let (id, _) = self.store(&init, 0, NO_PARENT, 0);
        open.push(f(0, h0), h0, id, 0);
        let mut last_f = i64::MIN;
        while let Some((fv, id, g)) = open.pop() {
            if g > self.g[id as usize] {
                continue;
            }
            if fv > last_f {
                last_f = fv;
                self.stats.expanded_until_last_jump = self.stats.expanded;
            }
            self.load(id);
            if self.task.is_goal(&self.values) {
                return Outcome::Plan(self.plan(id));
            }
            self.stats.expanded += 1;
            self.open_bytes = open.len * 16;
            if let Some(reason) = self.limit() {
                return Outcome::Limit(reason);
            }
            let mut ops = std::mem::take(&mut self.ops);
            self.succ.applicable(self.task, &self.values, &mut ops);
            for &o in &ops {
                self.apply(o);
                self.stats.generated += 1;
                let g2 = g + self.task.ops[o as usize].cost;
                let (sid, open_it) = self.store_packed(g2, id, o);
                if open_it {
                    let hv = if use_h { h.h(&self.next) } else { Some(0) };
                    if let Some(hv) = hv {
                        open.push(f(g2, hv), hv, sid, g2);
                    }
                }
            }
            self.ops = ops;
        }
        Outcome::Unsolvable
    }

    /// Breadth-first search: the goal is tested when a state is generated, so the plan has the
    /// fewest actions.
    fn breadth_first(&mut self) -> Outcome {
        let init = self.task.init.clone();
        let (id, _) = self.store(&init, 0, NO_PARENT, 0);
        if self.task.is_goal(&init) {
            return Outcome::Plan(Vec::new());
        }
        let mut queue = VecDeque::from([id]);
        while let Some(id) = queue.pop_front() {
            self.load(id);
            self.stats.expanded += 1;
            self.open_bytes = queue.capacity() * 4;
            if let Some(reason) = self.limit() {
                return Outcome::Limit(reason);
            }
            let g = self.g[id as usize];
            let mut ops = std::mem::take(&mut self.ops);
            self.succ.applicable(self.task, &self.values, &mut ops);
            for &o in &ops {
                self.apply(o);
                self.stats.generated += 1;
                let g2 = g + self.task.ops[o as usize].cost;
                let before = self.states.len();
                let (sid, _) = self.store_packed(g2, id, o);
                let new = self.states.len() > before;
                if new && self.task.is_goal(&self.next) {
                    return Outcome::Plan(self.plan(sid));
                }
                if new {
                    queue.push_back(sid);
                }
            }
            self.ops = ops;
        }
        Outcome::Unsolvable
    }

    /// Iterative-deepening A*: depth-first passes bounded by f = g + h, each bound the least f
    /// that passed the one before; no state is stored but the current path's (to avoid cycles).
    fn ida_star(&mut self, h: &mut dyn Heuristic) -> Outcome {
        let init = self.task.init.clone();
        let Some(h0) = h.h(&init) else { return Outcome::Unsolvable };
        let mut bound = h0;
        let mut path_states: Vec<Vec<u32>> = vec![init];
        let mut path_ops: Vec<usize> = Vec::new();
        loop {
            self.stats.expanded_until_last_jump = self.stats.expanded;
            match self.ida_pass(h, 0, bound, &mut path_states, &mut path_ops) {
                Pass::Found => return Outcome::Plan(path_ops),
                Pass::Stop(reason) => return Outcome::Limit(reason),
                Pass::Next(INF) => return Outcome::Unsolvable,
                Pass::Next(b) => bound = b,
            }
        }
    }

    fn ida_pass(
        &mut self,
        h: &mut dyn Heuristic,
        g: i64,
        bound: i64,
        states: &mut Vec<Vec<u32>>,
        ops: &mut Vec<usize>,
    ) -> Pass {
        let state = states.last().expect("the path has a state").clone();
        let Some(hv) = h.h(&state) else { return Pass::Next(INF) };
        if g + hv > bound {
            return Pass::Next(g + hv);
        }
        if self.task.is_goal(&state) {
            return Pass::Found;
        }
        self.stats.expanded += 1;
        if let Some(reason) = self.limit() {
            return Pass::Stop(reason);
        }
        let mut applicable = Vec::new();
        self.succ.applicable(self.task, &state, &mut applicable);
        let mut next_bound = INF;
        for o in applicable {
            let mut next = state.clone();
            for &(v, x) in &self.task.ops[o as usize].eff {
                next[v as usize] = x;
            }
            self.stats.generated += 1;
            if states.contains(&next) {
                continue;
            }
            states.push(next);
            ops.push(o as usize);
            match self.ida_pass(h, g + self.task.ops[o as usize].cost, bound, states, ops) {
                Pass::Next(b) => next_bound = next_bound.min(b),
                done => return done,
            }
            states.pop();
            ops.pop();
        }
        Pass::Next(next_bound)
    }
}

const INF: i64 = i64::MAX / 4;

enum Pass {
    Found,
    Stop(&'static str),
    Next(i64),
}

/// The open list of best-first search: a bucket of (state, g) per (f, h), first in first out
/// within a bucket; the least (f, h) is taken first.
#[derive(Default)]
struct Open {
    buckets: BTreeMap<(i64, i64), VecDeque<(u32, i64)>>,
    len: usize,
}

impl Open {
    fn push(&mut self, f: i64, h: i64, id: u32, g: i64) {
        self.buckets.entry((f, h)).or_default().push_back((id, g));
        self.len += 1;
    }

    /// The next (f, state, g).
    fn pop(&mut self) -> Option<(i64, u32, i64)> {
        let mut entry = self.buckets.first_entry()?;
        let f = entry.key().0;
        let (id, g) = entry.get_mut().pop_front().expect("no empty bucket is kept");
        if entry.get().is_empty() {
            entry.remove();
        }
        self.len -= 1;
        Some((f, id, g))
    }
}

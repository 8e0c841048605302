//! A state space explored breadth-first on demand, as far as it is asked (`ds explore` expands
//! a state when the page first asks for its successors): the states in a `StateStore`
//! numbered in breadth-first discovery order (0 is the start), and the transitions of every
//! expanded state in the order `Next` gave them, duplicates included, with their costs.
//!
//! States are expanded in id order, so the ids do not depend on how far the exploration has
//! gone nor on what was asked first: they are the ids `explore::explore` (`Search.explore`)
//! gives the whole space, and those of `Search.bfs`'s trace (tests/integration/explore.rs
//! checks that the explorer and `Search.explore` agree state by state).

use super::*;

/// One transition: the action's number in the store (`NONE`: no action), the target, the cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Transition {
    pub action: u32,
    pub to: StateId,
    pub cost: f64,
}

pub struct OnDemand {
    pub store: StateStore,
    /// Where the transitions of state i start in `edges`: one entry per expanded state, and
    /// one more for the end.
    edge_start: Vec<usize>,
    edges: Vec<Transition>,
    /// Per state, whether it is a goal (each state is tested once, when it is stored).
    goal: Vec<bool>,
    goals: usize,
    test_goals: bool,
    max_states: Option<usize>,
    /// Why the exploration cannot go on (`max_states`), once it cannot.
    pub stopped: Option<Reason>,
    pub counts: Counts,
    succ: Successors,
}

impl OnDemand {
    /// Stores the start; with `test_goals`, asks the problem whether each state is a goal.
    pub fn new<P: Problem>(p: &mut P, max_states: Option<usize>, test_goals: bool) -> Step<OnDemand, P::Error> {
        let mut space = OnDemand {
            store: StateStore::default(),
            edge_start: vec![0],
            edges: Vec::new(),
            goal: Vec::new(),
            goals: 0,
            test_goals,
            max_states,
            stopped: None,
            counts: Counts::default(),
            succ: Successors::default(),
        };
        insert_start(p, &mut space.store, &mut space.succ)?;
        let start_goal = test_goals && {
            p.load(&space.store, 0)?;
            p.is_goal(Which::Current)?
        };
        space.mark(start_goal);
        Ok(space)
    }

    fn mark(&mut self, goal: bool) {
        self.goal.push(goal);
        self.goals += usize::from(goal);
    }

    /// States known (stored).
    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    /// States expanded: ids `0..expanded()`.
    pub fn expanded(&self) -> usize {
        self.edge_start.len() - 1
    }

    /// Every known state is expanded: the space is complete.
    pub fn is_complete(&self) -> bool {
        self.expanded() == self.len()
    }

    pub fn transitions(&self) -> usize {
        self.edges.len()
    }

    /// The transitions of state `id` (None while it is not expanded).
    pub fn successors(&self, id: StateId) -> Option<&[Transition]> {
        let i = id as usize;
        (i < self.expanded()).then(|| &self.edges[self.edge_start[i]..self.edge_start[i + 1]])
    }

    pub fn is_goal(&self, id: StateId) -> bool {
        self.goal.get(id as usize).copied().unwrap_or(false)
    }

    /// Goal states among the known ones.
    pub fn goals(&self) -> usize {
        self.goals
    }

    /// Expands the next state in id order. False when there is none left, or when storing its
    /// new successors would pass `max_states` (then `stopped` says so and it stays unexpanded).
    /// Nothing is stored unless the whole expansion (`Next`, the goal tests) succeeds.
    pub fn expand_next<P: Problem>(&mut self, p: &mut P) -> Step<bool, P::Error> {
        let id = self.expanded() as StateId;
        if self.stopped.is_some() || id as usize >= self.len() {
            return Ok(false);
        }
        self.counts.frontier(self.len() - id as usize);
        p.check(&self.counts, &self.store)?;
        p.load(&self.store, id)?;
        p.expand(&mut self.succ)?;
        let fresh = self.fresh();
        let new = fresh.iter().filter(|&&f| f).count();
        if self.max_states.is_some_and(|m| self.store.len() + new > m) {
            self.stopped = Some(Reason::MaxStates);
            return Ok(false);
        }
        let mut goals = vec![false; fresh.len()];
        if self.test_goals {
            for (i, _) in fresh.iter().enumerate().filter(|(_, &f)| f) {
                goals[i] = p.is_goal(Which::Successor(i))?;
            }
        }
        self.counts.expanded += 1;
        self.counts.generated += self.succ.len() as u64;
        let (depth, g) = (self.store.depth(id) + 1, self.store.g(id));
        for (i, &goal) in goals.iter().enumerate() {
            let s = self.succ.get(i);
            let origin = origin_of(&mut self.store, &s, id, depth, g + s.cost);
            let (to, new) = self.store.insert(s.key, origin);
            self.edges.push(Transition { action: origin.action, to, cost: s.cost });
            if new {
                self.counts.reached(depth);
                self.mark(goal);
            } else {
                self.counts.duplicates += 1;
            }
        }
        self.edge_start.push(self.edges.len());
        Ok(true)
    }

    /// Per successor of the last expansion, whether it is a new state: not stored yet, nor
    /// given earlier in the same expansion.
    fn fresh(&self) -> Vec<bool> {
        let mut seen: Vec<&[u8]> = Vec::new();
        (0..self.succ.len())
            .map(|i| {
                let key = self.succ.get(i).key;
                let new = self.store.find(key).is_none() && !seen.contains(&key);
                if new {
                    seen.push(key);
                }
                new
            })
            .collect()
    }

    /// Counts the next state as expanded, with no successors: its expansion failed (an error
    /// in the script), and the exploration goes on past it.
    pub fn skip_next(&mut self) {
        if self.expanded() < self.len() {
            self.edge_start.push(self.edges.len());
        }
    }

    /// Expands states in id order until `id` is expanded; false if it cannot be (it is not
    /// known, or `max_states` stops the exploration first).
    pub fn expand_through<P: Problem>(&mut self, p: &mut P, id: StateId) -> Step<bool, P::Error> {
        while self.expanded() <= id as usize {
            if !self.expand_next(p)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Explores until state `id` is known; false if the exploration ends (complete, or at
    /// `max_states`) first.
    pub fn discover<P: Problem>(&mut self, p: &mut P, id: StateId) -> Step<bool, P::Error> {
        while self.len() <= id as usize {
            if !self.expand_next(p)? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The id of the state packed as `key`, exploring further until it is met; None if the
    /// exploration ends (complete, or at `max_states`), or `within` states are known, without
    /// meeting it.
    pub fn find_or_explore<P: Problem>(
        &mut self,
        p: &mut P,
        key: &[u8],
        within: usize,
    ) -> Step<Option<StateId>, P::Error> {
        loop {
            if let Some(id) = self.store.find(key) {
                return Ok(Some(id));
            }
            if self.len() >= within || !self.expand_next(p)? {
                return Ok(None);
            }
        }
    }
}

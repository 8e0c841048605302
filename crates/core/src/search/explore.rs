//! Exploring a whole state space: breadth-first from the start, level by level as `bfs` does,
//! recording every transition (from, action, to), not stopping at goals. The states are
//! numbered in discovery order in the store, so a state's id is the same in the space, its
//! exports and the statistics.

use super::bfs::{by_levels, GoalOf, LevelCommit};
use super::checkpoint::{LevelSaver, Saving, WalkMark, WalkRecord, Walked};
use super::parallel::{self, Parallel, Threaded};
use super::problem::{Halt, Problem, Step, Successors, Which};
use super::store::{StateId, StateStore};
use super::{insert, Config, Counts, Reason};
use std::cell::RefCell;

/// Every transition found: parallel vectors, in the order they were found (by source id, then
/// in the order of `Next`). `action` numbers index the store's actions (`NONE`: none given).
#[derive(Default)]
pub struct Transitions {
    pub from: Vec<StateId>,
    pub action: Vec<u32>,
    pub to: Vec<StateId>,
    /// The cost of each transition; None while every cost is 1 (most spaces), so that they
    /// cost no memory.
    pub cost: Option<Vec<f64>>,
}

impl Transitions {
    pub fn len(&self) -> usize {
        self.from.len()
    }

    pub fn is_empty(&self) -> bool {
        self.from.is_empty()
    }

    pub(crate) fn push(&mut self, from: StateId, action: u32, to: StateId, cost: f64) {
        if cost != 1.0 && self.cost.is_none() {
            self.cost = Some(vec![1.0; self.from.len()]);
        }
        if let Some(costs) = &mut self.cost {
            costs.push(cost);
        }
        self.from.push(from);
        self.action.push(action);
        self.to.push(to);
    }

    /// The cost of transition `i`.
    pub fn cost_of(&self, i: usize) -> f64 {
        self.cost.as_ref().map_or(1.0, |c| c[i])
    }

    pub fn memory(&self) -> usize {
        let costs = self.cost.as_ref().map_or(0, |c| c.capacity() * std::mem::size_of::<f64>());
        (self.from.capacity() + self.action.capacity() + self.to.capacity()) * std::mem::size_of::<u32>() + costs
    }
}

/// How an exploration ended, with its counts and (when goals were asked for) the goal states.
pub struct Explored {
    pub reason: Reason,
    pub counts: Counts,
    pub goals: Vec<StateId>,
}

/// Explores from the start; with `mark_goals` every state is tested for the goal once, when it
/// is stored. Stops (reason `max_states`) rather than store more than `config.max_states`.
/// With `on`, the levels are expanded on several threads or processes (`parallel.rs`): the
/// same space.
pub fn explore<P: Threaded>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    mark_goals: bool,
    transitions: &mut Transitions,
    on: Option<Parallel<'_, P::Error>>,
) -> Result<Explored, P::Error> {
    let mut walked = Walked { transitions: std::mem::take(transitions), ..Walked::default() };
    let explored = explore_saving(p, store, config, mark_goals, &mut walked, Counts::default(), on, None);
    *transitions = walked.transitions;
    explored
}

/// `explore` with checkpoints (`checkpoint.rs`), or resumed from one (`walked` and `counts` as
/// it had them then). On threads, a checkpoint is written at the start of a level.
#[allow(clippy::too_many_arguments)]
pub fn explore_saving<P: Threaded>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    mark_goals: bool,
    walked: &mut Walked,
    mut counts: Counts,
    on: Option<Parallel<'_, P::Error>>,
    saving: Option<&mut Saving<'_, P::Error>>,
) -> Result<Explored, P::Error> {
    let Walked { transitions, goals, started, cut } = walked;
    let walk = RefCell::new(Walk { config, mark_goals, transitions, goals, started: *started, cut: *cut });
    let ended = match on {
        None => by_levels(p, store, &mut counts, true, &mut *walk.borrow_mut(), saving),
        Some(on) => {
            let mut saver = saving.map(|saving| LevelSaver { saving, walk: Some(&walk) });
            let commit =
                |p: &mut P,
                 store: &mut StateStore,
                 counts: &mut Counts,
                 id,
                 depth,
                 succ: &Successors,
                 of: GoalOf<'_>| { walk.borrow_mut().commit(p, store, counts, id, depth, succ, of) };
            parallel::by_levels(p, store, &mut counts, on, mark_goals, commit, saver.as_mut())
        }
    };
    let cut = walk.into_inner().cut;
    let reason = reason_of(ended, cut)?;
    Ok(Explored { reason, counts, goals: std::mem::take(goals) })
}

impl WalkRecord for RefCell<Walk<'_>> {
    fn mark(&self) -> WalkMark {
        self.borrow().record_mark()
    }

    fn lend(&self, f: &mut dyn FnMut(&Transitions, &[StateId])) {
        let walk = self.borrow();
        f(walk.transitions, walk.goals)
    }
}

/// Why an exploration ended, or its error.
fn reason_of<E>(ended: Step<Option<std::convert::Infallible>, E>, cut: bool) -> Result<Reason, E> {
    match ended {
        Ok(None) if cut => Ok(Reason::DepthLimit),
        Ok(None) => Ok(Reason::Exhausted),
        Ok(Some(never)) => match never {},
        Err(Halt::Limit(reason)) => Ok(reason),
        Err(Halt::Error(e)) => Err(e),
    }
}

/// Commits each state's successors: every transition recorded, new states stored (and tested
/// for the goal).
struct Walk<'a> {
    config: &'a Config,
    mark_goals: bool,
    transitions: &'a mut Transitions,
    goals: &'a mut Vec<StateId>,
    started: bool,
    /// Whether `config.limit` kept a new state out (the space is then incomplete).
    cut: bool,
}

impl<P: Problem> LevelCommit<P> for Walk<'_> {
    type Found = std::convert::Infallible;

    fn commit(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        counts: &mut Counts,
        id: StateId,
        depth: u32,
        succ: &Successors,
        of: GoalOf<'_>,
    ) -> Step<Option<Self::Found>, P::Error> {
        if !self.started {
            // the start, loaded for its expansion: is it a goal?
            self.started = true;
            if self.mark_goals && of.is(p, Which::Current)? {
                self.goals.push(0);
            }
        }
        let g = store.g(id);
        for i in 0..succ.len() {
            let s = succ.get(i);
            let known = of.stored(i).or(succ.stored(i));
            // A depth limit keeps out the new states past it (their transitions too), and the
            // search ends when a level adds none.
            if known.is_none() && self.config.limit.is_some_and(|l| depth >= l) && store.find(s.key).is_none() {
                self.cut = true;
                continue;
            }
            let (sid, new) = match known {
                Some(sid) => (sid, false),
                None => insert(store, self.config, &s, id, depth + 1, g + s.cost)?,
            };
            // a new state's action was interned as its origin was stored
            let action = match (new, s.action) {
                (true, _) => store.action(sid),
                (false, a) => a.map_or(super::NONE, |a| store.intern_action(a)),
            };
            self.transitions.push(id, action, sid, s.cost);
            if !new {
                counts.duplicates += 1;
                continue;
            }
            counts.reached(depth + 1);
            p.stored_new(i, sid, depth + 1);
            if self.mark_goals && of.is(p, Which::Successor(i))? {
                self.goals.push(sid);
            }
        }
        Ok(None)
    }

    fn mark(&self) -> Option<WalkMark> {
        Some(self.record_mark())
    }

    fn walked(&self) -> Option<(&Transitions, &[StateId])> {
        Some((self.transitions, self.goals))
    }
}

impl Walk<'_> {
    /// How far its record is.
    fn record_mark(&self) -> WalkMark {
        let (transitions, goals) = (self.transitions.len(), self.goals.len());
        WalkMark { transitions, goals, started: self.started, cut: self.cut }
    }
}

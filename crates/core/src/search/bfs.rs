//! Breadth-first search, level by level. Ids are given in discovery order, so each level is a
//! range of ids: the frontier is `level..next`, and no queue is kept. States of a level are
//! expanded in id order and their successors committed in the order `Next` gives them, which
//! is the order of a FIFO queue (and of the seed's `solver`): the parallel engine
//! (`parallel.rs`) expands a level on several threads and commits in this order, so it gets
//! the same ids and the same answer.
//!
//! As decision 17 of docs/language.md says (and the seed's `solver` does), the goal is tested
//! when a state is generated, not when it is expanded. The start is tested first, before
//! anything is expanded, as every algorithm tests it (issue 41; the `solver` does not).

use super::checkpoint::{Clean, LevelSaver, Position, Saving, Snapshot, WalkMark};
use super::explore::Transitions;
use super::parallel::{Goals, Parallel, Threaded};
use super::*;

/// How a commit learns whether a state is a goal: by asking the problem (one thread), or
/// from the tests the expanding thread made.
#[derive(Clone, Copy)]
pub(super) enum GoalOf<'a> {
    Ask,
    Tested(&'a Goals),
}

impl GoalOf<'_> {
    pub(super) fn is<P: Problem>(self, p: &mut P, which: Which) -> Step<bool, P::Error> {
        match self {
            GoalOf::Ask => p.is_goal(which),
            GoalOf::Tested(goals) => Ok(goals.get(which)),
        }
    }

    /// The id of successor `i` when the expanding thread found it stored before the level
    /// (then the commit need not look it up).
    pub(super) fn stored(self, i: usize) -> Option<StateId> {
        match self {
            GoalOf::Ask => None,
            GoalOf::Tested(goals) => goals.stored(i),
        }
    }
}

pub(super) fn bfs<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
) -> Step<Result<Found, Reason>, P::Error> {
    bfs_saving(p, store, config, counts, None)
}

/// `bfs` with checkpoints (`checkpoint.rs`), or resumed from one.
pub(super) fn bfs_saving<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
    saving: Option<&mut Saving<'_, P::Error>>,
) -> Step<Result<Found, Reason>, P::Error> {
    // (a resumed search tested the start before its checkpoint)
    if saving.as_ref().is_none_or(|s| s.resume.is_none()) {
        if let Some(found) = start_is_goal(p, store)? {
            return Ok(Ok(found));
        }
    }
    let mut goal = GoalCommit { config, index: 0 };
    let found = by_levels(p, store, counts, false, &mut goal, saving)?;
    Ok(found.ok_or(Reason::Exhausted))
}

/// `bfs` on several threads or processes. The goal state comes back as `Next` produced it:
/// its parent is expanded once more here, to give the problem its live value.
pub(super) fn bfs_threaded<P: Threaded>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
    on: Parallel<'_, P::Error>,
    saving: Option<&mut Saving<'_, P::Error>>,
) -> Step<Result<Found, Reason>, P::Error> {
    // (a resumed search tested the start before its checkpoint)
    if saving.as_ref().is_none_or(|s| s.resume.is_none()) {
        if let Some(found) = start_is_goal(p, store)? {
            return Ok(Ok(found));
        }
    }
    let mut saver = saving.map(|saving| LevelSaver { saving, walk: None });
    let mut goal = GoalCommit { config, index: 0 };
    let commit =
        |p: &mut P, store: &mut StateStore, counts: &mut Counts, id, depth, succ: &Successors, of: GoalOf<'_>| {
            goal.commit(p, store, counts, id, depth, succ, of)
        };
    let found = parallel::by_levels(p, store, counts, on, true, commit, saver.as_mut())?;
    let Some(found) = found else { return Ok(Err(Reason::Exhausted)) };
    let mut succ = Successors::default();
    p.load(store, found.origin.parent)?;
    p.expand(&mut succ)?;
    p.is_goal(Which::Successor(goal.index))?;
    Ok(Ok(found))
}

/// Commits successors as `bfs` does: stores the new ones and stops at the first that is a
/// goal (the start, tested before, is not tested again).
struct GoalCommit<'c> {
    config: &'c Config,
    /// The goal's place among its parent's successors.
    index: usize,
}

impl<P: Problem> LevelCommit<P> for GoalCommit<'_> {
    type Found = Found;

    fn commit(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        counts: &mut Counts,
        id: StateId,
        depth: u32,
        succ: &Successors,
        of: GoalOf<'_>,
    ) -> Step<Option<Found>, P::Error> {
        let g = store.g(id);
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (sid, new) = match of.stored(i).or(succ.stored(i)) {
                Some(sid) => (sid, false),
                None => insert(store, self.config, &s, id, depth + 1, g + s.cost)?,
            };
            let note = |p: &mut P, kind, store: &StateStore| {
                tell(p, store, || {
                    let (frontier, g) = (store.len() - (id as usize + 1), g + s.cost);
                    Event { kind, id: sid, parent: id, depth: depth + 1, g, h: None, f: g, frontier }
                })
            };
            if !new {
                counts.duplicates += 1;
                note(p, EventKind::Duplicate, store)?;
                continue;
            }
            counts.reached(depth + 1);
            p.stored_new(i, sid, depth + 1);
            let goal = of.is(p, Which::Successor(i))?;
            note(p, EventKind::Push, store)?;
            if goal {
                note(p, EventKind::Goal, store)?;
                self.index = i;
                return Ok(Some(Found { id: sid, origin: store.origin(sid) }));
            }
        }
        Ok(None)
    }
}

/// What `by_levels` (on one thread or several) hands each expanded state to: the state, its
/// depth, its successors and how to ask whether one is a goal; `Some` ends the search.
pub(super) trait Commit<P: Problem, T>:
    FnMut(&mut P, &mut StateStore, &mut Counts, StateId, u32, &Successors, GoalOf<'_>) -> Step<Option<T>, P::Error>
{
}

impl<P: Problem, T, F> Commit<P, T> for F where
    F: FnMut(&mut P, &mut StateStore, &mut Counts, StateId, u32, &Successors, GoalOf<'_>) -> Step<Option<T>, P::Error>
{
}

/// What the one-thread `by_levels` hands each expanded state to (`Commit`), and what it keeps
/// beside the store that a checkpoint must keep too.
#[allow(clippy::too_many_arguments)]
pub(super) trait LevelCommit<P: Problem> {
    /// What ends the search (a goal); `Infallible` for one that never ends early.
    type Found;

    fn commit(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        counts: &mut Counts,
        id: StateId,
        depth: u32,
        succ: &Successors,
        of: GoalOf<'_>,
    ) -> Step<Option<Self::Found>, P::Error>;

    /// How far its own record is (an exploration's transitions and goals).
    fn mark(&self) -> Option<WalkMark> {
        None
    }

    /// Its record, for a checkpoint.
    fn walked(&self) -> Option<(&Transitions, &[StateId])> {
        None
    }
}

/// What breadth-first search and exploration share: the start stored (if it is not), then
/// the states of each level expanded in id order (with the frontier counted, the limits
/// checked, the expansion traced), and `commit` given each state's successors (those found
/// stored with their actions and labels only if `describe_known`); it stops when `commit`
/// returns something, or when a level adds no state.
///
/// With `saving`, a checkpoint is written whenever one is due and when a limit stops the
/// search, as the search stood before the expansion under way; a resumed search goes on from
/// its position.
pub(super) fn by_levels<P: Problem, C: LevelCommit<P>>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    describe_known: bool,
    commit: &mut C,
    mut saving: Option<&mut Saving<'_, P::Error>>,
) -> Step<Option<C::Found>, P::Error> {
    let mut succ = Successors::default();
    let resume = saving.as_ref().and_then(|s| s.resume);
    // The start is stored (and its push told) by `start_is_goal` unless this is an exploration.
    let fresh = store.is_empty();
    store_start(p, store, &mut succ)?;
    if fresh {
        tell(p, store, || Event::start(None))?;
    }
    let mut at = resume.unwrap_or(Position::START);
    while at.level < at.next {
        // (a store that keeps no states keeps the keys of the frontier only)
        store.forget_keys_below(at.level);
        while at.id < at.next {
            // (where a checkpoint would put the search, kept only when there are checkpoints)
            let clean =
                saving.is_some().then(|| Clean { at, states: store.len(), counts: *counts, walk: commit.mark() });
            if let (Some(saving), Some(clean)) = (saving.as_deref_mut(), &clean) {
                if saving.to.due() {
                    save(saving, store, clean, commit)?;
                }
            }
            match expand_one(p, store, counts, at, describe_known, &mut succ, commit) {
                Ok(None) => {}
                Ok(Some(t)) => return Ok(Some(t)),
                Err(Halt::Limit(reason)) => {
                    if let (Some(saving), Some(clean)) = (saving, &clean) {
                        save(saving, store, clean, commit)?;
                    }
                    return Err(Halt::Limit(reason));
                }
                Err(e) => return Err(e),
            }
            at.id += 1;
        }
        at = Position { id: at.next, level: at.next, next: store.len() as StateId, depth: at.depth + 1 };
    }
    Ok(None)
}

/// Expands state `at.id` and commits its successors.
fn expand_one<P: Problem, C: LevelCommit<P>>(
    p: &mut P,
    store: &mut StateStore,
    counts: &mut Counts,
    at: Position,
    describe_known: bool,
    succ: &mut Successors,
    commit: &mut C,
) -> Step<Option<C::Found>, P::Error> {
    let (id, depth) = (at.id, at.depth);
    let next = at.next as usize;
    counts.frontier(next - id as usize + (store.len() - next));
    p.check(counts, store)?;
    p.load(store, id)?;
    tell(p, store, || {
        let (g, parent, frontier) = (store.g(id), store.parent(id), store.len() - (id as usize + 1));
        Event { kind: EventKind::Expand, id, parent, depth, g, h: None, f: g, frontier }
    })?;
    p.expand_seeing(succ, describe_known)?;
    counts.expanded += 1;
    counts.generated += succ.len() as u64;
    commit.commit(p, store, counts, id, depth, succ, GoalOf::Ask)
}

/// Writes a checkpoint of the search as it stood at `clean`.
fn save<P: Problem, C: LevelCommit<P>>(
    saving: &mut Saving<'_, P::Error>,
    store: &StateStore,
    clean: &Clean,
    commit: &C,
) -> Step<(), P::Error> {
    let snapshot = Snapshot { identity: saving.identity, store, clean: *clean, walked: commit.walked() };
    saving.to.save(&snapshot).map_err(Halt::Error)
}

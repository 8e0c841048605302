//! Checkpoints of a level-by-level search (`Search.bfs`, `Search.explore`; decision 25): the
//! search as it stood before one state's expansion, written so that a later run reads it back
//! and goes on to the answer and counts of a run that was never stopped.
//!
//! Breadth-first ids make this small: the states are numbered in discovery order and a level
//! is a range of ids, so where the search is comes down to four numbers (`Position`), and the
//! store is its states in id order with their origins. A search stopped in the middle of an
//! expansion (a limit reached inside `Next` or a goal test) is written as it stood before that
//! expansion began (`Clean`): the states the expansion had stored are left out, and the
//! expansion is done again on resuming.
//!
//! The core writes to and reads from any `Write` and `Read`; which file, and when, is the
//! host's (`Checkpoints`).

mod bytes;
mod file;

pub use file::{read, write};

use super::explore::Transitions;
use super::problem::{Problem, Step, Successors};
use super::store::{StateId, StateStore};
use super::Counts;

/// Which search wrote a checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bfs,
    Explore,
}

impl Kind {
    pub fn function(self) -> &'static str {
        match self {
            Kind::Bfs => "Search.bfs",
            Kind::Explore => "Search.explore",
        }
    }
}

/// What a checkpoint must match to be resumed: the search, its options that change the
/// answer, and the code of its demons (a hash the host makes of their text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    pub kind: Kind,
    /// `Search.explore` marks goals.
    pub marks_goals: bool,
    /// The depth limit of `Search.explore`.
    pub limit: Option<u32>,
    /// The store keeps fingerprints (`"hash"`) rather than every state (`"exact"`).
    pub fingerprints: bool,
    pub code: u64,
}

/// Where a level-by-level search is: about to expand `id`, of the level `level..next`, whose
/// states are at `depth`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub id: StateId,
    pub level: StateId,
    pub next: StateId,
    pub depth: u32,
}

impl Position {
    /// Before the start's expansion.
    pub const START: Position = Position { id: 0, level: 0, next: 1, depth: 0 };
}

/// What an exploration keeps beside the store.
#[derive(Default)]
pub struct Walked {
    pub transitions: Transitions,
    pub goals: Vec<StateId>,
    /// Whether the start was tested for the goal (at its expansion).
    pub started: bool,
    /// Whether the depth limit kept a state out.
    pub cut: bool,
}

/// How far an exploration's own record was at a clean point.
#[derive(Debug, Clone, Copy, Default)]
pub struct WalkMark {
    pub transitions: usize,
    pub goals: usize,
    pub started: bool,
    pub cut: bool,
}

/// The search as it stood before an expansion: what a checkpoint writes.
#[derive(Clone, Copy)]
pub struct Clean {
    pub at: Position,
    /// The states stored then (the first ones of the store).
    pub states: usize,
    pub counts: Counts,
    pub walk: Option<WalkMark>,
}

/// A search as a checkpoint holds it.
pub struct Snapshot<'a> {
    pub identity: Identity,
    pub store: &'a StateStore,
    pub clean: Clean,
    /// An exploration's transitions and goals (the first of them, as `clean.walk` says).
    pub walked: Option<(&'a Transitions, &'a [StateId])>,
}

/// A checkpoint read back.
pub struct Saved {
    pub store: StateStore,
    pub at: Position,
    pub counts: Counts,
    pub walked: Option<Walked>,
}

/// Where and when a host keeps checkpoints.
pub trait Checkpoints<E> {
    /// Whether one is due (asked before each expansion: it should look at the clock rarely).
    fn due(&mut self) -> bool;
    /// Writes one; an error ends the search.
    fn save(&mut self, snapshot: &Snapshot<'_>) -> Result<(), E>;
}

/// A level-by-level search's checkpoints: where to write them, and where it resumes.
pub struct Saving<'a, E> {
    pub to: &'a mut dyn Checkpoints<E>,
    pub identity: Identity,
    /// Where a resumed search goes on (None: from the start).
    pub resume: Option<Position>,
}

/// What an exploration on several threads lends its checkpoints: its record, borrowed only
/// while a mark is taken or a checkpoint written (its commits borrow it the rest of the time).
pub trait WalkRecord {
    fn mark(&self) -> WalkMark;
    /// Calls `f` with the transitions and goals.
    fn lend(&self, f: &mut dyn FnMut(&Transitions, &[StateId]));
}

/// The checkpoints of a search on several threads, written at the start of a level (the
/// threads expand a level as one piece of work).
pub struct LevelSaver<'a, 'b, E> {
    pub saving: &'a mut Saving<'b, E>,
    pub walk: Option<&'a dyn WalkRecord>,
}

impl<E> LevelSaver<'_, '_, E> {
    /// Where a resumed search goes on.
    pub fn resume(&self) -> Option<Position> {
        self.saving.resume
    }

    pub fn due(&mut self) -> bool {
        self.saving.to.due()
    }

    /// The search as it stands at `at`, the start of a level (or of what is left of one).
    pub fn clean(&self, at: Position, store: &StateStore, counts: &Counts) -> Clean {
        Clean { at, states: store.len(), counts: *counts, walk: self.walk.map(WalkRecord::mark) }
    }

    /// Writes a checkpoint of the search as it stood at `clean`; a failed write ends it.
    pub fn save(&mut self, store: &StateStore, clean: &Clean) -> Step<(), E> {
        let (identity, to) = (self.saving.identity, &mut *self.saving.to);
        let saved = match self.walk {
            None => to.save(&Snapshot { identity, store, clean: *clean, walked: None }),
            Some(walk) => {
                let mut saved = None;
                walk.lend(&mut |t, goals| {
                    saved = Some(to.save(&Snapshot { identity, store, clean: *clean, walked: Some((t, goals)) }));
                });
                saved.unwrap_or(Ok(()))
            }
        };
        saved.map_err(super::problem::Halt::Error)
    }
}

/// Why a resumed search cannot go on from the checkpoint, if it cannot: the start and its
/// successors must be those the checkpoint holds (another start, or another `Next`, would go on
/// into a wrong answer). Expands the start once more if the checkpoint had expanded it.
pub fn differs<P: Problem>(p: &mut P, store: &StateStore, at: Position) -> Step<Option<String>, P::Error> {
    let mut succ = Successors::default();
    p.start(&mut succ)?;
    if succ.len() != 1 || store.is_empty() || store.key(0) != succ.get(0).key {
        return Ok(Some("its start state is not this search's start".into()));
    }
    if at.id == 0 {
        return Ok(None);
    }
    p.load(store, 0)?;
    p.expand(&mut succ)?;
    let children = (1..store.len() as StateId).take_while(|&id| store.parent(id) == 0).count();
    let mut seen = Vec::new();
    for i in 0..succ.len() {
        match store.find(succ.get(i).key) {
            Some(0) => {}
            Some(id) if store.parent(id) == 0 => seen.push(id),
            // (a depth limit of 0 keeps every successor out)
            None if children == 0 => {}
            _ => return Ok(Some("`Next` gives the start other successors than when it was written".into())),
        }
    }
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != children {
        return Ok(Some("`Next` gives the start other successors than when it was written".into()));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::store::{Origin, NONE};

    fn identity() -> Identity {
        Identity { kind: Kind::Explore, marks_goals: true, limit: Some(9), fingerprints: false, code: 77 }
    }

    /// A written exploration of a few states, with costs, actions, labels and a goal.
    fn written() -> Vec<u8> {
        let mut store = StateStore::default();
        store.insert(b"start", Origin::START);
        let a = store.intern_action(b"go");
        for (i, key) in [&b"one"[..], b"two", b"three"].into_iter().enumerate() {
            let label = store.intern_label(&[i as u8]);
            store.insert(
                key,
                Origin { parent: i as StateId, action: a, label, variant: NONE, depth: 1 + i as u32, g: 0.5 },
            );
        }
        let mut t = Transitions::default();
        t.push(0, a, 1, 0.5);
        t.push(1, NONE, 2, 2.0);
        let goals = [2];
        let clean = Clean {
            at: Position { id: 2, level: 2, next: 3, depth: 2 },
            // (the fourth state was stored by the expansion under way: left out)
            states: 3,
            counts: Counts {
                expanded: 2,
                generated: 5,
                duplicates: 1,
                max_frontier: 2,
                depth: 2,
                dead_ends: 0,
                frontier: 1,
            },
            walk: Some(WalkMark { transitions: 2, goals: 1, started: true, cut: false }),
        };
        let snapshot = Snapshot { identity: identity(), store: &store, clean, walked: Some((&t, &goals)) };
        let mut file = Vec::new();
        write(&mut file, &snapshot).expect("written");
        file
    }

    #[test]
    fn a_checkpoint_reads_back_as_it_stood_before_the_expansion_under_way() {
        let saved = read(&written()[..], &identity()).expect("read");
        assert_eq!(saved.at, Position { id: 2, level: 2, next: 3, depth: 2 });
        assert_eq!((saved.counts.expanded, saved.counts.generated, saved.counts.duplicates), (2, 5, 1));
        assert_eq!(saved.store.len(), 3);
        assert_eq!(saved.store.key(2), b"two");
        let o = saved.store.origin(2);
        assert_eq!((o.parent, o.depth, o.g), (1, 2, 0.5));
        assert_eq!(saved.store.action_key(o.action), Some(&b"go"[..]));
        assert_eq!(saved.store.label_key(o.label), Some(&[1u8][..]));
        let walked = saved.walked.expect("an exploration's record");
        assert_eq!((walked.transitions.to.clone(), walked.transitions.cost_of(1)), (vec![1, 2], 2.0));
        assert_eq!((walked.goals, walked.started, walked.cut), (vec![2], true, false));
        let other = Identity { limit: None, ..identity() };
        let why = read(&written()[..], &other).err().expect("refused");
        assert_eq!(why, "was written with limit 9, not none");
    }

    /// A written breadth-first search on the store of fingerprints: five states in a chain,
    /// about to expand state 3 (its level 3..5).
    fn written_hashed() -> (Vec<u8>, Identity) {
        let identity = Identity { kind: Kind::Bfs, marks_goals: false, limit: None, fingerprints: true, code: 5 };
        let mut store = StateStore::new(crate::search::store::StoreMode::Hash).expect("a store");
        store.insert(b"s0", Origin::START);
        for id in 1..5u32 {
            store.insert(
                format!("s{id}").as_bytes(),
                Origin { parent: id - 1, depth: id, g: id as f64, ..Origin::START },
            );
        }
        store.forget_keys_below(3);
        let clean = Clean {
            at: Position { id: 3, level: 3, next: 4, depth: 3 },
            states: 5,
            counts: Counts::default(),
            walk: None,
        };
        let mut file = Vec::new();
        write(&mut file, &Snapshot { identity, store: &store, clean, walked: None }).expect("written");
        (file, identity)
    }

    #[test]
    fn a_store_of_fingerprints_comes_back_with_the_keys_of_its_start_and_frontier() {
        let (file, identity) = written_hashed();
        let saved = read(&file[..], &identity).expect("read");
        let store = &saved.store;
        assert!(!store.is_exact());
        assert_eq!(store.len(), 5);
        assert_eq!(
            [store.has_key(0), store.has_key(1), store.has_key(2), store.has_key(3), store.has_key(4)],
            [true, false, false, true, true]
        );
        assert_eq!((store.key(0), store.key(4)), (b"s0".to_vec(), b"s4".to_vec()));
        assert_eq!(store.find(b"s2"), Some(2), "found by its fingerprint");
        assert_eq!(store.origin(4).parent, 3);
        let exact = Identity { fingerprints: false, ..identity };
        assert_eq!(
            read(&file[..], &exact).err().as_deref(),
            Some("was written with the store \"hash\", not \"exact\"")
        );
    }

    #[test]
    fn every_damaged_copy_is_refused_without_a_panic() {
        let (hashed, hashed_identity) = written_hashed();
        for cut in 0..hashed.len() {
            assert!(read(&hashed[..cut], &hashed_identity).is_err(), "cut at {cut}");
        }
        let file = written();
        for cut in 0..file.len() {
            assert!(read(&file[..cut], &identity()).is_err(), "cut at {cut}");
        }
        for at in 0..file.len() {
            for bit in [0x01u8, 0x80] {
                let mut damaged = file.clone();
                damaged[at] ^= bit;
                assert!(read(&damaged[..], &identity()).is_err(), "byte {at} changed");
            }
        }
    }
}

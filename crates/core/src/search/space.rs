//! A state space as a script value (`Search.explore`): the store of its states, its
//! transitions, its goal states if a goal was given, and what it takes to bring a stored state
//! back as a live value.

use super::explore::Transitions;
use super::states::Decoder;
use super::store::{StateId, StateStore};
use super::Reason;
use std::rc::Rc;

pub struct Space {
    pub store: StateStore,
    pub transitions: Transitions,
    /// The states that satisfy the goal given to `explore`, in id order (None: no goal given).
    pub goals: Option<Vec<StateId>>,
    /// `exhausted` (every reachable state is in it) or the limit that stopped the exploration.
    pub reason: Reason,
    pub decoder: Decoder,
    /// The state view given to `explore` (`Opts["view"]`): a demon or lambda of one state that
    /// draws it (decision 22 of docs/language.md).
    pub view: Option<Rc<crate::compile::ir::FnCode>>,
}

pub type SpaceRef = Rc<Space>;

impl Space {
    pub fn len(&self) -> usize {
        self.store.len()
    }

    pub fn is_empty(&self) -> bool {
        self.store.is_empty()
    }

    /// Whether every reachable state is in the space.
    pub fn complete(&self) -> bool {
        self.reason == Reason::Exhausted
    }
}

impl crate::value::host::Host for Space {
    fn type_name(&self) -> &'static str {
        "space"
    }
    fn described(&self) -> &'static str {
        "a state space"
    }
    fn write(&self, out: &mut String) {
        use std::fmt::Write as _;
        let _ = write!(out, "state space: {} states, {} transitions", self.len(), self.transitions.len());
    }
    fn rank(&self) -> u8 {
        13
    }
}

impl std::fmt::Debug for Space {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Space({} states, {} transitions)", self.len(), self.transitions.len())
    }
}

//! The packed state encoding that ds's search store and its planner (`ds plan`) agree on.
//!
//! A state is a vector of finite-domain variables: variable `v` takes a value in
//! `0..domain[v]`. [`Layout`] gives each variable the fewest bits that hold its domain and
//! places the fields in 64-bit words, as Fast Downward's `IntPacker` does (a field never
//! straddles two words, so reading one is a shift and a mask). [`StateSet`] keeps such states
//! exactly, each once, numbered in the order they were inserted.
//!
//! Nothing here knows graphs or PDDL: the search and the planner each turn their states into
//! variables (`docs/internals.md`, "The packed encoding").

mod growing;
mod ids;
mod layout;
mod numbers;
mod rows;
mod set;

pub use growing::GrowingLayout;
pub use ids::IdTable;
pub use layout::{bits_for, Layout};
pub use numbers::Numbers;
pub use rows::Rows;
pub use set::StateSet;

//! Paths through a store that keeps no states (`"hash"`, `"bitstate"`): each state on a path
//! comes back by expanding its parent again and taking the successor with its fingerprint (or
//! check), as TLC rebuilds an error trace from its fingerprints. The start's key is always kept, so the states come
//! back in order from it.

use super::problem::{Problem, Step, Successors};
use super::store::{StateId, StateStore};

/// Brings back the keys of the states on the path to `to` that `store` let go; `p.expand` must
/// pack every successor's key (not say which are stored instead). `Some(id)`:
/// state `id` was not among its parent's successors made again (a `Next` that does not give
/// the same states each time).
pub fn restore_path<P: Problem>(p: &mut P, store: &mut StateStore, to: StateId) -> Step<Option<StateId>, P::Error> {
    let path = store.path(to);
    let mut succ = Successors::default();
    for pair in path.windows(2) {
        let (parent, id) = (pair[0], pair[1]);
        if store.has_key(id) {
            continue;
        }
        p.load(store, parent)?;
        p.expand(&mut succ)?;
        let key = (0..succ.len()).map(|i| succ.get(i).key).find(|k| store.may_be(id, k));
        match key {
            Some(key) => store.restore_key(id, key.to_vec()),
            None => return Ok(Some(id)),
        }
    }
    Ok(None)
}

//! The keys a store that keeps no states (`"hash"`) still needs: the start's, those of the
//! states not yet expanded (a breadth-first search's frontier: the ids from the level being
//! expanded on, a range, since ids are given in discovery order), and those of a path rebuilt
//! by `replay.rs`.

use rustc_hash::FxHashMap;

#[derive(Default)]
pub struct KeptKeys {
    start: Option<Vec<u8>>,
    /// The keys of ids `first..`, one after the other, each ending at its entry of `ends`
    /// (counted from the start of `bytes`).
    first: u32,
    bytes: Vec<u8>,
    ends: Vec<usize>,
    /// Keys of states before `first`, brought back for a path.
    restored: FxHashMap<u32, Vec<u8>>,
}

impl KeptKeys {
    /// Keeps the key of state `id`, the newest.
    pub fn push(&mut self, id: u32, key: &[u8]) {
        if id == 0 {
            self.start = Some(key.to_vec());
        }
        if self.ends.is_empty() {
            self.first = id;
        }
        debug_assert_eq!(id as usize, self.first as usize + self.ends.len(), "ids in order");
        self.bytes.extend_from_slice(key);
        self.ends.push(self.bytes.len());
    }

    /// The key of state `id`, if kept.
    pub fn get(&self, id: u32) -> Option<&[u8]> {
        if id == 0 {
            return self.start.as_deref();
        }
        if let Some(i) = id.checked_sub(self.first).map(|i| i as usize).filter(|&i| i < self.ends.len()) {
            let from = if i == 0 { 0 } else { self.ends[i - 1] };
            return Some(&self.bytes[from..self.ends[i]]);
        }
        self.restored.get(&id).map(Vec::as_slice)
    }

    /// Lets the keys of the states before `id` go (they are expanded).
    pub fn forget_below(&mut self, id: u32) {
        let n = (id.saturating_sub(self.first) as usize).min(self.ends.len());
        if n == 0 {
            return;
        }
        let cut = self.ends[n - 1];
        self.bytes.drain(..cut);
        self.ends.drain(..n);
        self.ends.iter_mut().for_each(|e| *e -= cut);
        self.first += n as u32;
    }

    /// Keeps the key of a state before the frontier again (a state on a path rebuilt).
    pub fn restore(&mut self, id: u32, key: Vec<u8>) {
        self.restored.insert(id, key);
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        let restored: usize = self.restored.values().map(|k| k.capacity() + 32).sum();
        self.start.as_ref().map_or(0, Vec::capacity)
            + self.bytes.capacity()
            + self.ends.capacity() * std::mem::size_of::<usize>()
            + restored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_frontier_keys_go_as_their_level_is_expanded() {
        let mut kept = KeptKeys::default();
        let key = |i: u32| format!("state {i}").into_bytes();
        for i in 0..10 {
            kept.push(i, &key(i));
        }
        kept.forget_below(4);
        assert_eq!(kept.get(0), Some(&key(0)[..]), "the start is kept");
        assert_eq!(kept.get(3), None);
        assert_eq!(kept.get(4), Some(&key(4)[..]));
        assert_eq!(kept.get(9), Some(&key(9)[..]));
        assert_eq!(kept.get(10), None);
        kept.push(10, &key(10));
        kept.forget_below(10);
        assert_eq!((kept.get(9), kept.get(10)), (None, Some(&key(10)[..])));
        kept.restore(2, key(2));
        assert_eq!(kept.get(2), Some(&key(2)[..]), "a path's state brought back");
        kept.forget_below(11);
        kept.push(11, &key(11));
        assert_eq!(kept.get(11), Some(&key(11)[..]), "after the frontier was emptied");
    }
}

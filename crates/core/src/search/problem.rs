//! What a search algorithm asks of the problem it searches: the start, the successors of a
//! state, goal tests and heuristic values, and whether to go on. The interpreter's side
//! (`script.rs`) answers by calling the script's demons; the algorithms see only packed keys.

use super::store::{StateId, StateStore, NONE};
use super::{Counts, Reason};

/// Why an algorithm stops early: a limit of the run (a clean stop), or the problem's error
/// (a script error, which ends the search and the script).
#[derive(Debug)]
pub enum Halt<E> {
    Limit(Reason),
    Error(E),
}

pub type Step<T, E> = Result<T, Halt<E>>;

/// Which live state a question is about: the one last loaded (`Problem::load`), or a
/// successor from the last expansion.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Current,
    Successor(usize),
}

/// What happened to a state in a search, as `Opts["record"]` keeps it (decision 23 of
/// docs/language.md; docs/search.md, "Recording a search").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    /// Put into the frontier (new, or again by a cheaper way while still in it).
    Push,
    /// Taken from the frontier and expanded.
    Expand,
    /// Found to be a goal (the search ends).
    Goal,
    /// Met again, no better than before: dropped.
    Duplicate,
    /// Met again by a cheaper way after it was expanded: put back into the frontier.
    Reopen,
    /// Not expanded: beyond the depth limit, or (IDA*) beyond the round's bound on f.
    Prune,
}

impl EventKind {
    /// The word `Search.trace()` gives.
    pub fn word(self) -> &'static str {
        match self {
            EventKind::Push => "push",
            EventKind::Expand => "expand",
            EventKind::Goal => "goal",
            EventKind::Duplicate => "duplicate",
            EventKind::Reopen => "reopen",
            EventKind::Prune => "prune",
        }
    }
}

/// One event of a recorded search: the state, its parent along its path (`NONE` for the
/// start), its depth, g, h (informed searches), f, and the frontier's size after the event.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    pub kind: EventKind,
    pub id: StateId,
    pub parent: StateId,
    pub depth: u32,
    pub g: f64,
    pub h: Option<f64>,
    pub f: f64,
    pub frontier: usize,
}

impl Event {
    /// The start put into the frontier, with its h for an informed search (f is then h).
    pub fn start(h: Option<f64>) -> Event {
        let f = h.unwrap_or(0.0);
        Event { kind: EventKind::Push, id: 0, parent: NONE, depth: 0, g: 0.0, h, f, frontier: 1 }
    }
}

/// Tells the problem an event if it watches the search; the event is made only then.
pub fn tell<P: Problem>(p: &mut P, store: &StateStore, event: impl FnOnce() -> Event) -> Step<(), P::Error> {
    match p.watching() {
        true => p.event(&event(), store),
        false => Ok(()),
    }
}

pub trait Problem {
    type Error;

    /// Packs the start into `out` (one successor, its action and label empty).
    fn start(&mut self, out: &mut Successors) -> Step<(), Self::Error>;

    /// Makes stored state `id` the current one (unpacks it for the demons).
    fn load(&mut self, store: &StateStore, id: StateId) -> Step<(), Self::Error>;

    /// The successors of the current state, packed into `out` (cleared first), in the order the
    /// problem gives them.
    fn expand(&mut self, out: &mut Successors) -> Step<(), Self::Error>;

    /// `expand` for a breadth-first search on one thread, which may find successors stored
    /// itself and say so (`Successors::push_stored`) instead of packing them; their actions
    /// and labels only when `describe_known` (an exploration records every transition, a
    /// search only the origins of new states).
    fn expand_seeing(&mut self, out: &mut Successors, describe_known: bool) -> Step<(), Self::Error> {
        let _ = describe_known;
        self.expand(out)
    }

    /// Tells the problem that successor `i` of the last expansion is stored as new state `id`
    /// at `depth` (by `bfs` and `explore` on one thread).
    fn stored_new(&mut self, _i: usize, _id: StateId, _depth: u32) {}

    fn is_goal(&mut self, which: Which) -> Step<bool, Self::Error>;

    /// The heuristic value of a state (only informed searches ask).
    fn h(&mut self, which: Which) -> Step<f64, Self::Error>;

    /// Called before every expansion: stops the search when a limit of the run is reached.
    fn check(&mut self, counts: &Counts, store: &StateStore) -> Step<(), Self::Error>;

    /// Whether the problem follows the search's events (`Opts["trace"]`, `Opts["record"]`,
    /// the explorer's replay): the algorithms then call `event` for each.
    fn watching(&self) -> bool {
        false
    }

    /// An event of the search (only while `watching`); an `Expand` comes just before the
    /// state's expansion, with it loaded.
    fn event(&mut self, _e: &Event, _store: &StateStore) -> Step<(), Self::Error> {
        Ok(())
    }
}

/// Packed successors of one expansion: each a key, an optional action, label and symmetry
/// variant (all bytes, in one buffer), and a cost.
#[derive(Default, Clone)]
pub struct Successors {
    buf: Vec<u8>,
    items: Vec<Item>,
}

#[derive(Clone)]
struct Item {
    /// Where the key, action, label and variant end in `buf` (each starts where the one
    /// before ends; the key where the previous item's variant ends).
    ends: [usize; 4],
    /// Which of action, label, variant are present (bits 0, 1, 2).
    has: u8,
    cost: f64,
    /// The successor's id when the expansion found it stored (`Problem::expand_seeing`).
    stored: Option<StateId>,
}

/// One successor, borrowed from `Successors`.
#[derive(Debug, Clone, Copy)]
pub struct Succ<'a> {
    pub key: &'a [u8],
    pub action: Option<&'a [u8]>,
    pub label: Option<&'a [u8]>,
    pub variant: Option<&'a [u8]>,
    pub cost: f64,
}

impl Successors {
    pub fn clear(&mut self) {
        self.buf.clear();
        self.items.clear();
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    pub fn push(&mut self, s: Succ<'_>) {
        self.push_stored(s, None)
    }

    /// `push` for a successor the expansion found stored as `stored` (its key left empty).
    pub fn push_stored(&mut self, s: Succ<'_>, stored: Option<StateId>) {
        let mut ends = [0; 4];
        let mut has = 0;
        self.buf.extend_from_slice(s.key);
        ends[0] = self.buf.len();
        for (i, part) in [s.action, s.label, s.variant].into_iter().enumerate() {
            if let Some(p) = part {
                self.buf.extend_from_slice(p);
                has |= 1 << i;
            }
            ends[i + 1] = self.buf.len();
        }
        self.items.push(Item { ends, has, cost: s.cost, stored });
    }

    /// The id of successor `i` if its expansion found it stored.
    pub fn stored(&self, i: usize) -> Option<StateId> {
        self.items.get(i).and_then(|item| item.stored)
    }

    pub fn get(&self, i: usize) -> Succ<'_> {
        let item = &self.items[i];
        let start = if i == 0 { 0 } else { self.items[i - 1].ends[3] };
        let part = |k: usize| {
            let from = item.ends[k];
            (item.has & (1 << k) != 0).then(|| &self.buf[from..item.ends[k + 1]])
        };
        Succ { key: &self.buf[start..item.ends[0]], action: part(0), label: part(1), variant: part(2), cost: item.cost }
    }
}

impl Successors {
    /// Appends the successors to `out`, for another process (`decode` reads them back).
    pub fn encode(&self, out: &mut Vec<u8>) {
        let put = |out: &mut Vec<u8>, n: usize| out.extend_from_slice(&(n as u64).to_le_bytes());
        put(out, self.buf.len());
        out.extend_from_slice(&self.buf);
        put(out, self.items.len());
        for item in &self.items {
            for end in item.ends {
                put(out, end);
            }
            out.push(item.has);
            out.extend_from_slice(&item.cost.to_le_bytes());
        }
    }

    /// The successors `encode` wrote at the start of `bytes`, and the rest; None when the bytes
    /// are not such successors.
    pub fn decode(bytes: &[u8]) -> Option<(Successors, &[u8])> {
        let mut r = super::wire::Reader(bytes);
        let n = r.len()?;
        let buf = r.bytes(n)?.to_vec();
        let count = r.len()?;
        let mut items = Vec::with_capacity(count.min(r.0.len()));
        let mut at = 0;
        for _ in 0..count {
            let mut ends = [0; 4];
            for end in &mut ends {
                *end = r.len()?;
                // each part starts where the one before ends, within the buffer
                if *end < at || *end > buf.len() {
                    return None;
                }
                at = *end;
            }
            items.push(Item { ends, has: r.u8()?, cost: r.f64()?, stored: None });
        }
        Some((Successors { buf, items }, r.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn successors_keep_their_parts() {
        let mut s = Successors::default();
        s.push(Succ { key: b"k1", action: Some(b"up"), label: None, variant: None, cost: 1.0 });
        s.push(Succ { key: b"k22", action: None, label: Some(b"L"), variant: Some(b""), cost: 2.5 });
        let a = s.get(0);
        assert_eq!((a.key, a.action, a.label, a.variant, a.cost), (&b"k1"[..], Some(&b"up"[..]), None, None, 1.0));
        let b = s.get(1);
        assert_eq!((b.key, b.action, b.label, b.variant), (&b"k22"[..], None, Some(&b"L"[..]), Some(&b""[..])));
        assert_eq!(b.cost, 2.5);
    }
}

//! The order in which an algorithm takes states out of its frontier, worked out from its
//! recorded events (decision 23): the one rule by which the explorer's replay and the
//! notebook's step-through list the open list.

use super::problem::{Event, EventKind};
use super::{Algorithm, StateId};
use super::{GoalTest, Order};
use rustc_hash::FxHashMap;

/// The order of `algorithm`'s frontier, and whether ties of f go to the smaller h: its row's
/// (None: an algorithm outside the table, such as `hill`, whose order the record shows).
pub fn order(algorithm: Option<Algorithm>) -> (Order, bool) {
    match algorithm {
        Some(a) => (a.row().order, a.row().f.ties_by_h()),
        None => (Order::AsTaken, false),
    }
}

/// Whether `algorithm` tests a state when it is generated (so the goal it finds never leaves
/// the frontier), rather than when it is taken from the frontier (None: outside the table).
pub fn tests_when_generated(algorithm: Option<Algorithm>) -> bool {
    algorithm.is_some_and(|a| a.row().goal_test == GoalTest::Generated)
}

/// Whether the event puts its state into the frontier.
pub fn enters(e: &Event) -> bool {
    matches!(e.kind, EventKind::Push | EventKind::Reopen)
}

/// For each event that puts a state into the frontier, its place in the order the algorithm
/// takes states out (a smaller rank is taken first); None for the other events. The open list
/// after any event is then its states' latest entries, sorted by rank.
pub fn ranks(algorithm: Option<Algorithm>, events: &[Event]) -> Vec<Option<u64>> {
    let entries: Vec<usize> = (0..events.len()).filter(|&i| enters(&events[i])).collect();
    let mut ranks = vec![None; events.len()];
    let (order, by_h) = order(algorithm);
    match order {
        Order::Fifo => entries.iter().for_each(|&i| ranks[i] = Some(i as u64)),
        Order::ByF => {
            let key = |i: usize| (events[i].f, if by_h { events[i].h.unwrap_or(0.0) } else { 0.0 });
            let mut sorted = entries;
            sorted.sort_by(|&a, &b| {
                let ((f1, h1), (f2, h2)) = (key(a), key(b));
                f1.total_cmp(&f2).then(h1.total_cmp(&h2)).then(a.cmp(&b))
            });
            sorted.iter().enumerate().for_each(|(r, &i)| ranks[i] = Some(r as u64));
        }
        Order::AsTaken => {
            // Walking backwards: the next time each state is taken after each entry.
            let mut taken: FxHashMap<StateId, usize> = Default::default();
            for i in (0..events.len()).rev() {
                let e = &events[i];
                if matches!(e.kind, EventKind::Expand | EventKind::Goal) {
                    taken.insert(e.id, i);
                } else if enters(e) {
                    let at = taken.get(&e.id).copied().unwrap_or(events.len() + i);
                    ranks[i] = Some(at as u64);
                }
            }
        }
    }
    ranks
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NONE;

    fn event(kind: EventKind, id: StateId, g: u8, h: u8) -> Event {
        let (g, h) = (f64::from(g), f64::from(h));
        Event { kind, id, parent: NONE, depth: 0, g, h: Some(h), f: g + h, frontier: 0 }
    }

    /// The open list after all of `events`: each state's latest entry, by rank.
    fn open(algorithm: Algorithm, events: &[Event]) -> Vec<StateId> {
        open_after(algorithm, events, events.len())
    }

    /// The open list after the first `n` of `events` (ranked knowing them all).
    fn open_after(algorithm: Algorithm, events: &[Event], n: usize) -> Vec<StateId> {
        let ranks = ranks(Some(algorithm), events);
        let mut latest: FxHashMap<StateId, Option<u64>> = Default::default();
        for (e, r) in events[..n].iter().zip(&ranks) {
            match e.kind {
                EventKind::Push | EventKind::Reopen => latest.insert(e.id, *r),
                EventKind::Expand | EventKind::Goal => latest.remove(&e.id),
                _ => None,
            };
        }
        let mut open: Vec<(u64, StateId)> = latest.into_iter().map(|(id, r)| (r.unwrap(), id)).collect();
        open.sort();
        open.into_iter().map(|(_, id)| id).collect()
    }

    #[test]
    fn astar_takes_the_least_f_then_the_least_h_then_the_first_in() {
        use EventKind::*;
        // 1 (f 8), 2 (f 5, h 3), 3 (f 5, h 1), 4 (f 5, h 1, later than 3).
        let events = [event(Push, 1, 6, 2), event(Push, 2, 2, 3), event(Push, 3, 4, 1), event(Push, 4, 4, 1)];
        assert_eq!(open(Algorithm::Astar, &events), [3, 4, 2, 1]);
        // Uniform-cost search orders by g alone: 2 (g 2), 3 and 4 (g 4, in order), 1 (g 6).
        let ucs: Vec<Event> = events.iter().map(|e| Event { h: None, f: e.g, ..*e }).collect();
        assert_eq!(open(Algorithm::Ucs, &ucs), [2, 3, 4, 1]);
    }

    #[test]
    fn a_cheaper_entry_replaces_the_old_one_and_a_fifo_keeps_the_order_of_arrival() {
        use EventKind::*;
        // 1 is pushed at f 9, then again at f 3: it waits once, first.
        let events = [event(Push, 1, 7, 2), event(Push, 2, 2, 3), event(Push, 1, 1, 2)];
        assert_eq!(open(Algorithm::Astar, &events), [1, 2]);
        let bfs = [event(Push, 5, 1, 0), event(Push, 3, 1, 0), event(Expand, 5, 1, 0), event(Push, 4, 2, 0)];
        assert_eq!(open(Algorithm::Bfs, &bfs), [3, 4]);
    }

    #[test]
    fn other_algorithms_are_ordered_by_when_each_entry_was_taken() {
        use EventKind::*;
        // A depth-first search takes 3 (pushed last) first, then 2; 4 is never taken.
        let events = [
            event(Push, 2, 1, 0),
            event(Push, 3, 1, 0),
            event(Push, 4, 1, 0),
            event(Expand, 3, 1, 0),
            event(Expand, 2, 1, 0),
        ];
        assert_eq!(open_after(Algorithm::Dfs, &events, 3), [3, 2, 4]);
        assert_eq!(ranks(None, &events)[..3], ranks(Some(Algorithm::Dfs), &events)[..3], "hill: as taken");
    }
}

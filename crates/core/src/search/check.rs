//! `Search.check(Space, Goal, H)`'s engine: the exact cost from every state of an explored
//! space to its nearest goal, and a heuristic judged against it. The distances come from a
//! breadth-first search backwards from all the goals at once, or Dijkstra's algorithm when the
//! transitions have costs; nothing here knows the interpreter.

use super::explore::Transitions;
use super::store::StateId;
use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// What `Search.check` finds.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// The cost from each state to its nearest goal (None where no goal can be reached).
    pub exact: Vec<Option<f64>>,
    /// h(s) <= exact(s) wherever a goal can be reached.
    pub admissible: bool,
    /// h(s) <= cost(s, t) + h(t) on every transition, and h = 0 on every goal.
    pub consistent: bool,
    /// The greatest h(s) - exact(s) (0 when admissible).
    pub max_overestimate: f64,
    /// The lowest id of a state with the greatest overestimate (None when admissible).
    pub worst: Option<StateId>,
}

/// Whether `a` is more than `b`, beyond the rounding of sums of costs (a relative 1e-9).
fn above(a: f64, b: f64) -> bool {
    a - b > 1e-9 * b.abs().max(1.0)
}

/// Judges the heuristic values `h` (one per state) over a space of `h.len()` states.
pub fn judge(transitions: &Transitions, goals: &[StateId], h: &[f64]) -> Judgement {
    let exact = distances(h.len(), transitions, goals);
    let (mut max_overestimate, mut worst) = (0.0, None);
    for (id, (&hs, d)) in h.iter().zip(&exact).enumerate() {
        if let Some(d) = d {
            let over = hs - d;
            if above(hs, *d) && (worst.is_none() || over > max_overestimate) {
                (max_overestimate, worst) = (over, Some(id as StateId));
            }
        }
    }
    let on_goals = goals.iter().all(|&g| h[g as usize] == 0.0);
    let on_moves = (0..transitions.len()).all(|i| {
        let (s, t) = (transitions.from[i] as usize, transitions.to[i] as usize);
        !above(h[s], transitions.cost_of(i) + h[t])
    });
    Judgement { exact, admissible: worst.is_none(), consistent: on_goals && on_moves, max_overestimate, worst }
}

/// The cost from each of `n` states to the nearest of `goals` along `transitions`.
pub fn distances(n: usize, transitions: &Transitions, goals: &[StateId]) -> Vec<Option<f64>> {
    let into = Incoming::new(n, transitions);
    match transitions.cost {
        None => by_levels(n, &into, goals),
        Some(_) => by_cost(n, &into, transitions, goals),
    }
}

/// The transitions into each state, as (from, transition number) in one array.
struct Incoming {
    starts: Vec<usize>,
    edges: Vec<(StateId, usize)>,
}

impl Incoming {
    fn new(n: usize, t: &Transitions) -> Incoming {
        let mut starts = vec![0usize; n + 1];
        for &to in &t.to {
            starts[to as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        let mut fill = starts.clone();
        let mut edges = vec![(0, 0); t.len()];
        for i in 0..t.len() {
            let to = t.to[i] as usize;
            edges[fill[to]] = (t.from[i], i);
            fill[to] += 1;
        }
        Incoming { starts, edges }
    }

    fn into(&self, id: usize) -> &[(StateId, usize)] {
        &self.edges[self.starts[id]..self.starts[id + 1]]
    }
}

/// Breadth-first backwards from the goals: every transition costs 1.
fn by_levels(n: usize, into: &Incoming, goals: &[StateId]) -> Vec<Option<f64>> {
    let mut dist = vec![None; n];
    let mut queue = VecDeque::new();
    for &g in goals {
        if dist[g as usize].is_none() {
            dist[g as usize] = Some(0.0);
            queue.push_back(g as usize);
        }
    }
    while let Some(id) = queue.pop_front() {
        let d = dist[id].unwrap_or(0.0) + 1.0;
        for &(from, _) in into.into(id) {
            if dist[from as usize].is_none() {
                dist[from as usize] = Some(d);
                queue.push_back(from as usize);
            }
        }
    }
    dist
}

/// A state to settle, cheapest first.
struct Open(f64, usize);

impl PartialEq for Open {
    fn eq(&self, other: &Open) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Open {}
impl PartialOrd for Open {
    fn partial_cmp(&self, other: &Open) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Open {
    fn cmp(&self, other: &Open) -> Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

/// Dijkstra's algorithm backwards from the goals (costs are never negative: `Search` refuses
/// them).
fn by_cost(n: usize, into: &Incoming, t: &Transitions, goals: &[StateId]) -> Vec<Option<f64>> {
    let mut dist: Vec<Option<f64>> = vec![None; n];
    let mut heap = BinaryHeap::new();
    for &g in goals {
        dist[g as usize] = Some(0.0);
        heap.push(Open(0.0, g as usize));
    }
    while let Some(Open(d, id)) = heap.pop() {
        if dist[id].is_some_and(|best| d > best) {
            continue;
        }
        for &(from, i) in into.into(id) {
            let via = d + t.cost_of(i);
            if dist[from as usize].is_none_or(|best| via < best) {
                dist[from as usize] = Some(via);
                heap.push(Open(via, from as usize));
            }
        }
    }
    dist
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A line 0 - 1 - 2 - 3 with moves both ways, 3 the goal, and 4 cut off.
    fn line(costs: Option<[f64; 3]>) -> Transitions {
        let mut t = Transitions::default();
        for (i, (a, b)) in [(0, 1), (1, 2), (2, 3)].into_iter().enumerate() {
            t.from.extend([a, b]);
            t.to.extend([b, a]);
            t.action.extend([0, 0]);
            if let Some(c) = costs {
                t.cost.get_or_insert_with(Vec::new).extend([c[i], c[i]]);
            }
        }
        t
    }

    #[test]
    fn unit_distances_count_moves_to_the_nearest_goal() {
        let t = line(None);
        assert_eq!(distances(5, &t, &[3]), [Some(3.0), Some(2.0), Some(1.0), Some(0.0), None]);
        assert_eq!(distances(5, &t, &[0, 3]), [Some(0.0), Some(1.0), Some(1.0), Some(0.0), None]);
    }

    #[test]
    fn costs_take_the_cheapest_way() {
        let mut t = line(Some([1.0, 5.0, 1.0]));
        // A shortcut from 1 straight to 3 costing 2: cheaper than 1 -> 2 -> 3 (6).
        t.from.push(1);
        t.to.push(3);
        t.action.push(0);
        t.cost.as_mut().unwrap().push(2.0);
        assert_eq!(distances(5, &t, &[3]), [Some(3.0), Some(2.0), Some(1.0), Some(0.0), None]);
    }

    #[test]
    fn the_worst_overestimate_is_named_by_its_lowest_id() {
        let t = line(None);
        let exact_h = [3.0, 2.0, 1.0, 0.0, 99.0];
        let j = judge(&t, &[3], &exact_h);
        assert!(j.admissible && j.consistent, "{j:?}");
        assert_eq!((j.max_overestimate, j.worst), (0.0, None));
        // 1 and 2 both overestimate by 2; 1 is named.
        let j = judge(&t, &[3], &[3.0, 4.0, 3.0, 0.0, 0.0]);
        assert!(!j.admissible && !j.consistent);
        assert_eq!((j.max_overestimate, j.worst), (2.0, Some(1)));
    }

    #[test]
    fn admissible_but_inconsistent_and_a_goal_with_h_above_zero() {
        let t = line(None);
        // h drops by 2 along 1 -> 2 but never overestimates.
        let j = judge(&t, &[3], &[0.0, 2.0, 0.0, 0.0, 0.0]);
        assert!(j.admissible && !j.consistent, "{j:?}");
        let j = judge(&t, &[3], &[0.0, 0.0, 0.0, 0.5, 0.0]);
        assert!(!j.consistent && !j.admissible && j.worst == Some(3));
    }
}

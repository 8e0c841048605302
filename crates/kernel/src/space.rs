//! The state space of `Search.explore` drawn for the notebook: its first states (by number, so
//! those nearest the start, as explore numbers them breadth-first) and the transitions between
//! them, laid out as a world state is (`draw`); goal states are marked. A title says how many
//! states there are and when the picture or the exploration was cut.

use super::draw::{render, Edge};
use ds_core::search::space::Space;
use rustc_hash::FxHashSet;

/// States drawn at most: a picture of more is no longer read.
pub(super) const MAX_STATES: usize = 60;

pub fn space_svg(space: &Space) -> String {
    let shown = space.len().min(MAX_STATES);
    let goals: FxHashSet<u32> = space.goals.iter().flatten().copied().collect();
    let labels: Vec<String> =
        (0..shown as u32).map(|i| if goals.contains(&i) { format!("{i} (goal)") } else { i.to_string() }).collect();
    let edges = edges(space, shown);
    render(&title(space, shown), &labels, &edges, &depths(shown, &edges))
}

/// Each state's row: its distance from the start over the drawn transitions (both ways for a
/// pair drawn as one line), so the picture reads as breadth-first search sees the space.
pub(super) fn depths(n: usize, edges: &[Edge]) -> Vec<usize> {
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges {
        next[e.from].push(e.to);
        if e.both {
            next[e.to].push(e.from);
        }
    }
    let mut depth = vec![usize::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        depth[0] = 0;
        queue.push_back(0);
    }
    while let Some(v) = queue.pop_front() {
        for &t in &next[v] {
            if depth[t] == usize::MAX {
                depth[t] = depth[v] + 1;
                queue.push_back(t);
            }
        }
    }
    // States reached only through states not drawn go below the others.
    let deepest = depth.iter().copied().filter(|&d| d != usize::MAX).max().unwrap_or(0);
    depth.into_iter().map(|d| if d == usize::MAX { deepest + 1 } else { d }).collect()
}

pub(super) fn title(space: &Space, shown: usize) -> String {
    let mut t = format!("state space: {} states, {} transitions", space.len(), space.transitions.len());
    if shown < space.len() {
        t.push_str(&format!("; the first {shown} states drawn"));
    }
    if !space.complete() {
        t.push_str(&format!("; exploration stopped ({})", space.reason.word()));
    }
    t
}

/// The transitions between drawn states, one edge per pair of states; a pair with transitions
/// both ways is one line.
pub(super) fn edges(space: &Space, shown: usize) -> Vec<Edge> {
    let t = &space.transitions;
    let pairs: FxHashSet<(u32, u32)> = (0..t.len())
        .map(|i| (t.from[i], t.to[i]))
        .filter(|&(a, b)| (a as usize) < shown && (b as usize) < shown)
        .collect();
    let mut sorted: Vec<(u32, u32)> = pairs.iter().copied().collect();
    sorted.sort_unstable();
    sorted
        .into_iter()
        .filter_map(|(a, b)| {
            let both = a != b && pairs.contains(&(b, a));
            (!both || a < b).then(|| Edge {
                from: a as usize,
                to: b as usize,
                label: String::new(),
                style: "stroke=\"#222\"",
                both,
            })
        })
        .collect()
}

//! Symmetry reduction: states that differ only by a permutation of interchangeable nodes (three
//! identical farmers) are one state. Each graph state is renamed into a canonical form before
//! it is packed, so that all its permutations give the same key:
//!
//! 1. every interchangeable node gets a colour from what it touches (its facts, with the other
//!    interchangeable nodes seen only as "one of them"), refined by the colours of the
//!    interchangeable nodes it is linked to, until the colours stop splitting;
//! 2. the nodes are ordered by colour; only nodes left with equal colours are tried in every
//!    order, and the renaming whose sorted facts are least wins.
//!
//! With 3 to 6 objects the ties left are few, so a state costs a few renamings. Beyond
//! `MAX_TRIES` orders the first is used: the key is then not always canonical, which costs
//! reduction (two equivalent states may be kept), never correctness. The renaming that was
//! applied is kept per state (its "variant"), so the state as `Next` produced it comes back
//! for the path and the next expansion.

use crate::world::{ClassId, Fact, FactKey, NodeId};

/// Renamings tried at most per state.
const MAX_TRIES: usize = 720;

pub struct Symmetry {
    pub class: ClassId,
    /// The interchangeable nodes, group by group, each group ascending: slot i of a renaming is
    /// `nodes[i]`.
    nodes: Vec<NodeId>,
    /// The slots of each group: nodes are interchangeable only within their group.
    groups: Vec<(usize, usize)>,
    /// Per node id: its slot in `nodes`, or `u8::MAX`.
    slot: Vec<u8>,
}

fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Symmetry {
    /// The class, nodes and groups as bytes, for comparing two searches (`workers::fingerprint`).
    pub fn write_bytes(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.class.to_le_bytes());
        for &n in &self.nodes {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for &(lo, hi) in &self.groups {
            out.extend_from_slice(&(lo as u64).to_le_bytes());
            out.extend_from_slice(&(hi as u64).to_le_bytes());
        }
    }

    /// Groups of interchangeable nodes of `class` (255 nodes at most in all; a node twice
    /// counts once). Groups must not overlap (`builtins/search.rs` refuses that); a node in
    /// two would count in its first only.
    pub fn new(class: ClassId, groups: Vec<Vec<NodeId>>) -> Symmetry {
        let mut nodes: Vec<NodeId> = Vec::new();
        let mut ranges = Vec::new();
        for mut group in groups {
            group.sort_unstable();
            group.dedup();
            group.retain(|n| !nodes.contains(n));
            group.truncate(255 - nodes.len());
            ranges.push((nodes.len(), nodes.len() + group.len()));
            nodes.extend(group);
        }
        let len = nodes.iter().max().map_or(0, |&m| m as usize + 1);
        let mut slot = vec![u8::MAX; len];
        for (i, &n) in nodes.iter().enumerate() {
            slot[n as usize] = i as u8;
        }
        Symmetry { class, nodes, groups: ranges, slot }
    }

    fn slot_of(&self, n: NodeId) -> Option<usize> {
        self.slot.get(n as usize).copied().filter(|&s| s != u8::MAX).map(usize::from)
    }

    /// The slot of a fact's target, when it is an interchangeable node of this graph.
    fn target_slot(&self, key: FactKey) -> Option<usize> {
        if key.tgraph() == 0 {
            self.slot_of(key.tgt())
        } else {
            None
        }
    }

    /// The canonical form of a state's facts, and its variant: the renaming that takes the
    /// canonical form back to `facts`, as bytes (the original slot of each canonical slot).
    pub fn canonical(&self, facts: &[Fact]) -> (Vec<Fact>, Vec<u8>) {
        let (canonical, to_canonical) = self.canonical_with(facts);
        let mut back = vec![0u8; to_canonical.len()];
        for (original, &c) in to_canonical.iter().enumerate() {
            back[c] = original as u8;
        }
        (canonical, back)
    }

    /// The canonical facts of a state and the renaming used (original slot to canonical slot).
    fn canonical_with(&self, facts: &[Fact]) -> (Vec<Fact>, Vec<usize>) {
        let colours = self.colours(facts);
        // Within each group, the slots ordered by colour: order[c] goes to canonical slot c.
        let mut order: Vec<usize> = (0..self.nodes.len()).collect();
        let mut ties = Vec::new();
        for &(lo, hi) in &self.groups {
            order[lo..hi].sort_by_key(|&s| (colours[s], s));
            ties.extend(tie_groups(&order[lo..hi], &colours).into_iter().map(|(a, b)| (lo + a, lo + b)));
        }
        let groups = ties;
        let mut best: Option<(Vec<Fact>, Vec<usize>)> = None;
        let mut tries = 0;
        permute_groups(&mut order, &groups, 0, &mut |order| {
            tries += 1;
            if tries > MAX_TRIES {
                return false;
            }
            // order[c] is the original slot that goes to canonical slot c
            let mut to_canonical = vec![0; order.len()];
            for (c, &original) in order.iter().enumerate() {
                to_canonical[original] = c;
            }
            let renamed = self.rename(facts, &to_canonical);
            if best.as_ref().is_none_or(|(b, _)| less(&renamed, b)) {
                best = Some((renamed, to_canonical));
            }
            true
        });
        best.unwrap_or_else(|| (facts.to_vec(), (0..self.nodes.len()).collect()))
    }

    /// The facts with each interchangeable node moved from its slot s to slot `map[s]`, sorted.
    fn rename(&self, facts: &[Fact], map: &[usize]) -> Vec<Fact> {
        let node = |n: NodeId| self.slot_of(n).map_or(n, |s| self.nodes[map[s]]);
        let mut out: Vec<Fact> = facts
            .iter()
            .map(|f| {
                let k = f.key;
                let tgt = if self.target_slot(k).is_some() { node(k.tgt()) } else { k.tgt() };
                Fact { key: FactKey::new(node(k.src()), k.rel(), k.tgraph(), tgt), value: f.value }
            })
            .collect();
        out.sort_unstable_by_key(|f| f.key);
        out
    }

    /// A state renamed back: `variant` as `variant` wrote it.
    pub fn restore(&self, facts: &[Fact], variant: &[u8]) -> Vec<Fact> {
        if variant.len() != self.nodes.len() {
            return facts.to_vec();
        }
        let map: Vec<usize> = variant.iter().map(|&b| usize::from(b)).collect();
        self.rename(facts, &map)
    }

    /// Colours of the interchangeable nodes, refined until they stop splitting.
    fn colours(&self, facts: &[Fact]) -> Vec<u64> {
        let k = self.nodes.len();
        let value = |f: &Fact| f.value.bits();
        let mut colour = vec![0u64; k];
        // What a node touches, the other interchangeable nodes all alike.
        for f in facts {
            let (s, t) = (self.slot_of(f.key.src()), self.target_slot(f.key));
            let rel = u64::from(f.key.rel());
            let far = |slot: Option<usize>, n: NodeId| if slot.is_some() { u64::MAX } else { u64::from(n) };
            if let Some(s) = s {
                let to = if t == Some(s) { u64::MAX - 1 } else { far(t, f.key.tgt()) };
                colour[s] =
                    colour[s].wrapping_add(mix(mix(rel ^ 1 << 40) ^ to ^ mix(u64::from(f.key.tgraph())) ^ value(f)));
            }
            if let Some(t) = t.filter(|&t| Some(t) != s) {
                let from = far(s, f.key.src());
                colour[t] = colour[t].wrapping_add(mix(mix(rel ^ 2 << 40) ^ from ^ value(f)));
            }
        }
        let distinct = |c: &[u64]| {
            let mut v = c.to_vec();
            v.sort_unstable();
            v.dedup();
            v.len()
        };
        let mut classes = distinct(&colour);
        for _ in 0..k {
            let mut next: Vec<u64> = colour.iter().map(|&c| mix(c)).collect();
            for f in facts {
                if let (Some(s), Some(t)) = (self.slot_of(f.key.src()), self.target_slot(f.key)) {
                    let rel = u64::from(f.key.rel());
                    next[s] = next[s].wrapping_add(mix(rel ^ colour[t] ^ value(f)));
                    next[t] = next[t].wrapping_add(mix(rel ^ 3 << 40 ^ colour[s] ^ value(f)));
                }
            }
            let now = distinct(&next);
            colour = next;
            if now == classes {
                break;
            }
            classes = now;
        }
        colour
    }
}

/// The ranges of `order` (sorted by colour) whose nodes have equal colours.
fn tie_groups(order: &[usize], colours: &[u64]) -> Vec<(usize, usize)> {
    let mut groups = Vec::new();
    let mut start = 0;
    for i in 1..=order.len() {
        if i == order.len() || colours[order[i]] != colours[order[start]] {
            if i - start > 1 {
                groups.push((start, i));
            }
            start = i;
        }
    }
    groups
}

/// Calls `visit` with every order that permutes `order` within each group (Heap's algorithm
/// per group); stops when `visit` returns false.
fn permute_groups(
    order: &mut Vec<usize>,
    groups: &[(usize, usize)],
    g: usize,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) -> bool {
    let Some(&(lo, hi)) = groups.get(g) else { return visit(order) };
    let n = hi - lo;
    let mut c = vec![0; n];
    if !permute_groups(order, groups, g + 1, visit) {
        return false;
    }
    let mut i = 0;
    while i < n {
        if c[i] < i {
            let j = if i % 2 == 0 { 0 } else { c[i] };
            order.swap(lo + j, lo + i);
            if !permute_groups(order, groups, g + 1, visit) {
                return false;
            }
            c[i] += 1;
            i = 0;
        } else {
            c[i] = 0;
            i += 1;
        }
    }
    true
}

/// A total order on sorted fact lists.
fn less(a: &[Fact], b: &[Fact]) -> bool {
    let key = |f: &Fact| (f.key, f.value.p0.to_bits(), f.value.p1.to_bits());
    a.iter().map(key).lt(b.iter().map(key))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Logic;

    fn on(x: NodeId, place: NodeId) -> Fact {
        Fact { key: FactKey::new(x, 7, 0, place), value: Logic::TRUE }
    }

    #[test]
    fn nodes_are_interchangeable_within_their_group_only() {
        // 1, 2 one kind, 3, 4 another; "1 on 10, 3 on 10" is "2 on 10, 4 on 10", not "3, 1"
        let sym = Symmetry::new(0, vec![vec![1, 2], vec![3, 4]]);
        let s = |v: &[(u32, u32)]| {
            let mut f: Vec<Fact> = v.iter().map(|&(x, p)| on(x, p)).collect();
            f.sort_by_key(|f| f.key);
            sym.canonical(&f).0
        };
        assert_eq!(s(&[(1, 10), (3, 10)]), s(&[(2, 10), (4, 10)]));
        assert_ne!(s(&[(1, 10), (3, 10)]), s(&[(1, 10), (2, 10)]));
    }

    #[test]
    fn permuted_states_have_one_canonical_form() {
        // farmers 1, 2, 3 on places 10, 11
        let sym = Symmetry::new(0, vec![vec![1, 2, 3]]);
        let mut a = vec![on(1, 10), on(2, 11), on(3, 10)];
        let mut b = vec![on(1, 11), on(2, 10), on(3, 10)];
        a.sort_by_key(|f| f.key);
        b.sort_by_key(|f| f.key);
        assert_eq!(sym.canonical(&a).0, sym.canonical(&b).0);
        let c = vec![on(1, 11), on(2, 11), on(3, 10)];
        assert_ne!(sym.canonical(&a).0, sym.canonical(&c).0);
        for facts in [&a, &b, &c] {
            let (canonical, variant) = sym.canonical(facts);
            assert_eq!(&sym.restore(&canonical, &variant), facts);
        }
    }

    #[test]
    fn links_between_interchangeable_nodes_are_kept() {
        // 1 -> 2 -> 3 (a chain) is the same shape as 3 -> 1 -> 2, not as 1 -> 2, 1 -> 3
        let sym = Symmetry::new(0, vec![vec![1, 2, 3]]);
        let sorted = |mut v: Vec<Fact>| {
            v.sort_by_key(|f| f.key);
            v
        };
        let chain = sorted(vec![on(1, 2), on(2, 3)]);
        let other_chain = sorted(vec![on(3, 1), on(1, 2)]);
        let fork = sorted(vec![on(1, 2), on(1, 3)]);
        assert_eq!(sym.canonical(&chain).0, sym.canonical(&other_chain).0);
        assert_ne!(sym.canonical(&chain).0, sym.canonical(&fork).0);
    }
}

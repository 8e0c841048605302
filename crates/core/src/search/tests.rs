//! The algorithms on small problems written in Rust: weighted directed graphs of numbered
//! states, with answers worked out by hand.

use super::*;

/// States are numbers; `edges[s]` lists (successor, cost) in order.
struct Toy {
    edges: Vec<Vec<(u32, f64)>>,
    goals: Vec<u32>,
    h: Vec<f64>,
    current: u32,
    live: Vec<u32>,
    /// Expansions allowed before `check` stops the search (a stand-in for a time limit).
    budget: Option<u64>,
}

fn key(s: u32) -> [u8; 4] {
    s.to_le_bytes()
}

fn state(k: &[u8]) -> u32 {
    u32::from_le_bytes(k.try_into().expect("4-byte key"))
}

impl Problem for Toy {
    type Error = String;

    fn start(&mut self, out: &mut Successors) -> Step<(), String> {
        out.push(Succ { key: &key(0), action: None, label: None, variant: None, cost: 0.0 });
        Ok(())
    }

    fn load(&mut self, store: &StateStore, id: StateId) -> Step<(), String> {
        self.current = state(&store.key(id));
        Ok(())
    }

    fn expand(&mut self, out: &mut Successors) -> Step<(), String> {
        out.clear();
        self.live.clear();
        for &(t, c) in &self.edges[self.current as usize] {
            let action = format!("{}>{}", self.current, t);
            out.push(Succ { key: &key(t), action: Some(action.as_bytes()), label: None, variant: None, cost: c });
            self.live.push(t);
        }
        Ok(())
    }

    fn is_goal(&mut self, which: Which) -> Step<bool, String> {
        let s = match which {
            Which::Current => self.current,
            Which::Successor(i) => self.live[i],
        };
        Ok(self.goals.contains(&s))
    }

    fn h(&mut self, which: Which) -> Step<f64, String> {
        let s = match which {
            Which::Current => self.current,
            Which::Successor(i) => self.live[i],
        };
        Ok(self.h.get(s as usize).copied().unwrap_or(0.0))
    }

    fn check(&mut self, counts: &Counts, _: &StateStore) -> Step<(), String> {
        match self.budget {
            Some(b) if counts.expanded >= b => Err(Halt::Limit(Reason::Timeout)),
            _ => Ok(()),
        }
    }
}

/// 0 -> 1 (cost 1), 0 -> 2 (cost 5), 1 -> 3 (cost 1), 3 -> 2 (cost 1), 2 -> 4 (cost 1),
/// 3 -> 0 (cost 1): the fewest steps to 4 go through 2 (0 2 4, cost 6), the cheapest through
/// 1 and 3 (0 1 3 2 4, cost 4).
fn diamond() -> Toy {
    Toy {
        edges: vec![vec![(1, 1.0), (2, 5.0)], vec![(3, 1.0)], vec![(4, 1.0)], vec![(2, 1.0), (0, 1.0)], vec![]],
        goals: vec![4],
        h: vec![3.0, 2.0, 1.0, 1.0, 0.0],
        current: 0,
        live: Vec::new(),
        budget: None,
    }
}

fn solve(algorithm: Algorithm, toy: &mut Toy, config: Config) -> (Outcome, Vec<u32>, Option<f64>) {
    let mut store = StateStore::default();
    let o = run(algorithm, toy, &mut store, &config).expect("no error");
    let path = match &o.goal {
        Some(f) => {
            let mut ids = if f.origin.parent == NONE { vec![] } else { store.path(f.origin.parent) };
            ids.push(f.id);
            ids.iter().map(|&i| state(&store.key(i))).collect()
        }
        None => Vec::new(),
    };
    (o, path, o.goal.map(|f| f.origin.g))
}

#[test]
fn fewest_steps_by_bfs_iddfs() {
    for alg in [Algorithm::Bfs, Algorithm::Iddfs] {
        let (o, path, cost) = solve(alg, &mut diamond(), Config::default());
        assert_eq!(path, vec![0, 2, 4], "{alg:?}");
        assert_eq!(cost, Some(6.0));
        assert_eq!(o.reason, Reason::Goal);
    }
}

#[test]
fn cheapest_by_ucs_astar_idastar() {
    for alg in [Algorithm::Ucs, Algorithm::Astar, Algorithm::Idastar] {
        let (_, path, cost) = solve(alg, &mut diamond(), Config::default());
        assert_eq!(path, vec![0, 1, 3, 2, 4], "{alg:?}");
        assert_eq!(cost, Some(4.0), "{alg:?}");
    }
}

#[test]
fn bfs_counts() {
    // Level 0: 0 -> 1, 2 (both new). Level 1: 1 -> 3 (new); 2 -> 4 (new, the goal).
    let (o, _, _) = solve(Algorithm::Bfs, &mut diamond(), Config::default());
    let c = o.counts;
    assert_eq!((c.expanded, c.generated, c.duplicates, c.depth), (3, 4, 0, 2));
    assert_eq!(c.max_frontier, 2);
}

#[test]
fn dfs_follows_the_first_successor_and_respects_the_limit() {
    // 1 is searched first (1, then 3), but 2 was met at depth 1 from the start already
    let (o, path, _) = solve(Algorithm::Dfs, &mut diamond(), Config::default());
    assert_eq!(path, vec![0, 2, 4]);
    assert_eq!((o.counts.expanded, o.counts.duplicates), (4, 2));
    let (o, _, _) = solve(Algorithm::Dfs, &mut diamond(), Config { limit: Some(1), ..Config::default() });
    assert_eq!((o.reason, o.reason.found()), (Reason::DepthLimit, Some(false)));
}

#[test]
fn no_goal_exhausts_the_space() {
    for alg in Algorithm::all() {
        let mut toy = diamond();
        toy.goals = vec![9];
        let (o, path, _) = solve(alg, &mut toy, Config::default());
        assert_eq!(o.reason, Reason::Exhausted, "{alg:?}");
        assert!(path.is_empty());
    }
}

#[test]
fn limits_stop_cleanly_with_counts_kept() {
    let mut toy = diamond();
    toy.budget = Some(2);
    let (o, _, _) = solve(Algorithm::Bfs, &mut toy, Config::default());
    assert_eq!((o.reason, o.reason.found(), o.counts.expanded), (Reason::Timeout, None, 2));
    let (o, _, _) = solve(Algorithm::Bfs, &mut diamond(), Config { max_states: Some(3), ..Config::default() });
    assert_eq!(o.reason, Reason::MaxStates);
    assert!(o.goal.is_none());
}

#[test]
fn a_start_that_is_a_goal() {
    // every algorithm tests the start, bfs too (issue 41: it found it only by 0 1 3 0)
    for alg in Algorithm::all() {
        let (o, path, cost) = solve(alg, &mut diamond_with_goal(0), Config::default());
        assert_eq!((o.reason, path, cost), (Reason::Goal, vec![0], Some(0.0)), "{alg:?}");
    }
}

fn diamond_with_goal(g: u32) -> Toy {
    let mut toy = diamond();
    toy.goals = vec![g];
    toy
}

#[test]
fn greedy_follows_h() {
    // h says 2 is nearest, so greedy goes 0 2 4 although it costs more
    let (_, path, cost) = solve(Algorithm::Greedy, &mut diamond(), Config::default());
    assert_eq!((path, cost), (vec![0, 2, 4], Some(6.0)));
}

// ---------------------------------------------------------------- the explored space

#[test]
fn a_space_numbers_states_breadth_first_however_far_it_is_explored() {
    // Breadth-first discovery: 0; then 1, 2 (from 0); 3 (from 1); 4 (from 2); 3 gives 2 and 0
    let mut toy = diamond();
    let mut space = on_demand::OnDemand::new(&mut toy, None, true).expect("start");
    assert_eq!((space.len(), space.expanded(), space.successors(0)), (1, 0, None));
    assert!(space.expand_through(&mut toy, 1).expect("no error"));
    assert_eq!(space.expanded(), 2, "0 and 1 are expanded, in id order");
    let targets = |s: &on_demand::OnDemand, id| {
        s.successors(id).unwrap().iter().map(|t| state(&s.store.key(t.to))).collect::<Vec<_>>()
    };
    assert_eq!(targets(&space, 0), vec![1, 2]);
    assert_eq!(targets(&space, 1), vec![3]);
    while space.expand_next(&mut toy).expect("no error") {}
    assert!(space.is_complete());
    let ids: Vec<u32> = (0..5).map(|i| state(&space.store.key(i))).collect();
    assert_eq!(ids, vec![0, 1, 2, 3, 4]);
    assert_eq!(targets(&space, 3), vec![2, 0], "duplicates are transitions too");
    assert_eq!(space.transitions(), 6);
    assert_eq!((space.goals(), space.is_goal(4), space.is_goal(3)), (1, true, false));
    let c = space.counts;
    assert_eq!((c.expanded, c.generated, c.duplicates, c.depth), (5, 6, 2, 2));
    // the action of a transition is the one `expand` gave, interned in the store
    let t = space.successors(3).unwrap()[1];
    assert_eq!((space.store.action_key(t.action), t.cost), (Some(&b"3>0"[..]), 1.0));
}

#[test]
fn a_space_stops_whole_at_max_states() {
    // 0 gives two new states: with room for two states, 0 stays unexpanded
    let mut toy = diamond();
    let mut space = on_demand::OnDemand::new(&mut toy, Some(2), false).expect("start");
    assert!(!space.expand_through(&mut toy, 0).expect("no error"));
    assert_eq!((space.len(), space.expanded(), space.stopped), (1, 0, Some(Reason::MaxStates)));
    let mut toy = diamond();
    let mut space = on_demand::OnDemand::new(&mut toy, Some(3), false).expect("start");
    assert_eq!(space.find_or_explore(&mut toy, &key(2), usize::MAX).expect("no error"), Some(2));
    assert_eq!(space.find_or_explore(&mut toy, &key(4), usize::MAX).expect("no error"), None, "4 would be the fourth");
}

#[test]
fn finding_a_state_explores_no_further_than_asked() {
    let mut toy = diamond();
    let mut space = on_demand::OnDemand::new(&mut toy, None, false).expect("start");
    // 3 is found after two states are known (0 gives 1 and 2, then 1 gives 3): not within 2
    assert_eq!(space.find_or_explore(&mut toy, &key(3), 2).expect("no error"), None);
    assert_eq!((space.len(), space.stopped), (3, None));
    assert_eq!(space.find_or_explore(&mut toy, &key(3), 4).expect("no error"), Some(3));
}

#[test]
fn an_incomplete_search_that_gave_up_does_not_know() {
    // decision on three-valued truth: Undef is "not known"
    assert_eq!((Reason::Incomplete.found(), Reason::Incomplete.word()), (None, "incomplete"));
    assert_eq!(Reason::Exhausted.found(), Some(false));
}

//! Tests of `Facts`: content equality and hashes whatever the layout, copies independent of
//! one another, values kept exactly.

use super::*;

#[test]
fn hash_is_independent_of_order_and_undone_by_removal() {
    let (a, b) = (FactKey::new(1, 7, 0, 2), FactKey::new(2, 8, 0, 1));
    let mut x = Facts::default();
    x.set(a, Logic::TRUE);
    x.set(b, Logic::FALSE);
    let mut y = Facts::default();
    y.set(b, Logic::FALSE);
    y.set(a, Logic::TRUE);
    assert_eq!(x.hash(), y.hash());
    assert_eq!(x, y);
    y.set(a, Logic::UNDEF);
    assert_ne!(x, y);
    y.set(a, Logic::TRUE);
    assert_eq!(x, y);
    let empty = Facts::default();
    x.set(a, Logic::UNDEF);
    x.set(b, Logic::UNDEF);
    assert_eq!(x.hash(), empty.hash());
    assert_eq!(x, empty);
}

#[test]
fn a_false_fact_differs_from_a_missing_one() {
    let k = FactKey::new(1, 7, 0, 2);
    let mut x = Facts::default();
    x.set(k, Logic::FALSE);
    assert_ne!(x, Facts::default());
    assert_eq!(x.get(k), Logic::FALSE);
    assert_eq!(Facts::default().get(k), Logic::UNDEF);
}

#[test]
fn changing_a_watched_state_moves_the_epoch() {
    let k = FactKey::new(1, 7, 0, 2);
    let mut x = Facts::default();
    let before = epoch();
    x.set(k, Logic::TRUE);
    assert_eq!(epoch(), before, "nobody watches x yet");
    x.watch();
    let mut copy = x.clone();
    copy.set(k, Logic::FALSE);
    assert_eq!(epoch(), before, "a copy is not watched");
    x.set(k, Logic::FALSE);
    assert_ne!(epoch(), before);
    let after = epoch();
    drop(x);
    assert_ne!(epoch(), after, "dropping a watched state counts as a change");
}

#[test]
fn copies_share_until_changed() {
    let k = FactKey::new(1, 7, 0, 2);
    let mut x = Facts::default();
    x.set(k, Logic::TRUE);
    let mut y = x.clone();
    assert!(same_rc(&x.base, &y.base));
    y.set(k, Logic::FALSE);
    assert_eq!(x.get(k), Logic::TRUE);
    assert_eq!(y.get(k), Logic::FALSE);
}

/// A state built fact by fact from nothing (everything in its base).
fn built(facts: &[(FactKey, Logic)]) -> Facts {
    let mut x = Facts::default();
    for &(k, v) in facts {
        x.set(k, v);
    }
    x
}

fn key(src: u32, rel: u32, tgt: u32) -> FactKey {
    FactKey::new(src, rel, 0, tgt)
}

#[test]
fn equal_content_is_equal_whatever_the_layout() {
    let isa: Vec<_> = (1..=6).map(|n| (FactKey::new(n, ISA, 9, 1), Logic::TRUE)).collect();
    let on = |place: u32| (1..=6).map(move |n| (key(n, 7, place), Logic::TRUE));
    let start = built(&isa.iter().copied().chain(on(10)).collect::<Vec<_>>());
    // A copy that moves everyone: its `on` facts are its own, its `isa` facts shared.
    let mut moved = start.clone();
    for n in 1..=6 {
        moved.set(key(n, 7, 10), Logic::UNDEF);
        moved.set(key(n, 7, 11), Logic::TRUE);
    }
    assert!(same_rc(&moved.base, &start.base), "the unchanged relation stays shared");
    assert_ne!(moved.own_rels, 0);
    // The same content built three other ways.
    let fresh = built(&isa.iter().copied().chain(on(11)).collect::<Vec<_>>());
    let mut reversed: Vec<_> = isa.iter().copied().chain(on(11)).collect();
    reversed.reverse();
    let reversed = built(&reversed);
    let sorted = Facts::from_sorted(fresh.to_vec());
    for other in [&fresh, &reversed, &sorted] {
        assert_eq!(&moved, other);
        assert_eq!(moved.hash(), other.hash());
        assert_eq!(moved.isa_hash(), other.isa_hash());
        assert_eq!(moved.len(), other.len());
        assert_eq!(moved.to_vec(), other.to_vec());
    }
    // Moving them back gives the start again, though from another layout.
    let mut back = moved.clone();
    for n in 1..=6 {
        back.set(key(n, 7, 11), Logic::UNDEF);
        back.set(key(n, 7, 10), Logic::TRUE);
    }
    assert_eq!(back, start);
    assert_eq!(back.hash(), start.hash());
    assert_ne!(back, moved);
}

#[test]
fn copies_are_independent_whichever_side_changes() {
    let start = built(&[(key(1, ISA, 5), Logic::TRUE), (key(1, 7, 2), Logic::TRUE), (key(2, 7, 2), Logic::FALSE)]);
    let mut a = start.clone();
    let mut b = start.clone();
    a.set(key(1, 7, 2), Logic::UNDEF);
    a.set(key(1, 7, 3), Logic::TRUE);
    b.set(key(2, 7, 2), Logic::TRUE);
    let mut c = a.clone();
    c.set(key(1, 7, 3), Logic::FALSE);
    let content =
        |f: &Facts| f.iter().map(|f| (f.key.src(), f.key.rel(), f.key.tgt(), f.value.is_true())).collect::<Vec<_>>();
    assert_eq!(content(&start), [(1, 1, 5, true), (1, 7, 2, true), (2, 7, 2, false)]);
    assert_eq!(content(&a), [(1, 1, 5, true), (1, 7, 3, true), (2, 7, 2, false)]);
    assert_eq!(content(&b), [(1, 1, 5, true), (1, 7, 2, true), (2, 7, 2, true)]);
    assert_eq!(content(&c), [(1, 1, 5, true), (1, 7, 3, false), (2, 7, 2, false)]);
    // The start, no longer shared, changes in place; its copies keep what they had.
    drop((b, c));
    let mut start = start;
    start.set(key(1, ISA, 6), Logic::TRUE);
    assert_eq!(content(&a), [(1, 1, 5, true), (1, 7, 3, true), (2, 7, 2, false)]);
    assert_eq!(start.get(key(1, ISA, 6)), Logic::TRUE);
    assert_eq!(a.get(key(1, ISA, 6)), Logic::UNDEF);
}

#[test]
fn fuzzy_values_and_large_numbers_are_kept_exactly() {
    let odd = [Logic::new(0.25, 0.5), Logic::new(-0.0, 1.0), Logic::new(1.0, 1.0)];
    let big = FactKey::new(1 << 20, 7, 0, 1);
    let far = FactKey::new(1, 7, 5000, 1 << 21);
    let mut x = built(&[(key(1, 7, 2), Logic::TRUE)]);
    let mut y = x.clone();
    x.set(key(1, 7, 3), odd[0]);
    x.set(key(1, 7, 4), odd[1]);
    x.set(key(1, 7, 5), odd[2]);
    x.set(big, Logic::TRUE);
    x.set(far, Logic::FALSE);
    let bits = |l: Logic| (l.p0.to_bits(), l.p1.to_bits());
    assert_eq!(bits(x.get(key(1, 7, 4))), bits(odd[1]));
    let values: Vec<_> = x.outgoing_rel(1, 7).map(|f| bits(f.value)).collect();
    assert_eq!(values, [bits(Logic::TRUE), bits(odd[0]), bits(odd[1]), bits(odd[2]), bits(Logic::FALSE)]);
    assert_eq!(x.iter().last().map(|f| f.key), Some(big));
    assert_eq!(x.len(), 6);
    // The same facts set the other way round, and a fuzzy value made crisp again.
    for (k, v) in [(far, Logic::FALSE), (big, Logic::TRUE), (key(1, 7, 5), odd[2]), (key(1, 7, 4), odd[1])] {
        y.set(k, v);
    }
    y.set(key(1, 7, 3), Logic::TRUE);
    assert_ne!(x, y);
    y.set(key(1, 7, 3), odd[0]);
    assert_eq!(x, y);
    assert_eq!(x.hash(), y.hash());
    x.set(key(1, 7, 3), Logic::TRUE);
    y.set(key(1, 7, 3), Logic::UNDEF);
    y.set(key(1, 7, 3), Logic::TRUE);
    assert_eq!(x, y);
    assert_eq!(x.to_vec(), y.to_vec());
}

#[test]
fn a_large_own_layer_folds_into_a_base_of_its_own() {
    let start = built(&[(key(1, ISA, 1), Logic::TRUE)]);
    let mut x = start.clone();
    for n in 0..(OWN_MAX as u32 + 10) {
        x.set(key(2, 7, n), Logic::TRUE);
    }
    assert!(x.own.is_none() && !same_rc(&x.base, &start.base));
    assert_eq!(x.len(), OWN_MAX + 11);
    assert_eq!(x.outgoing(2).count(), OWN_MAX + 10);
    assert_eq!(x.get(key(1, ISA, 1)), Logic::TRUE);
    assert_eq!(start.len(), 1);
}

/// A change to a relation of more facts than an own layer holds (its length is a byte): the
/// copy folds them into a base (a PDDL world sets every atom of a predicate, 13 x 13 of them
/// in gripper with 7 balls; this panicked while the search unpacked a state).
#[test]
fn changes_to_a_relation_of_many_facts_fold_at_once() {
    let mut items: Vec<(FactKey, Logic)> = (0..300).map(|n| (key(2, 7, n), Logic::FALSE)).collect();
    items.push((key(1, ISA, 1), Logic::TRUE));
    let start = built(&items);
    let reference = super::diff::Reference::new(&start);
    let changed = reference.with_changes(&[(key(2, 7, 5), Some(Logic::TRUE))]);
    let mut want = start.clone();
    want.set(key(2, 7, 5), Logic::TRUE);
    assert!(changed == want);
    assert_eq!(changed.get(key(2, 7, 5)), Logic::TRUE);
    assert_eq!(changed.get(key(2, 7, 6)), Logic::FALSE);
    assert_eq!(changed.len(), 301);
}

/// Random changes to random copies, against a plain sorted map of the same facts.
#[test]
fn random_changes_agree_with_a_map() {
    use std::collections::BTreeMap;
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let values = [Logic::TRUE, Logic::FALSE, Logic::UNDEF, Logic::new(0.5, 0.25)];
    let mut states: Vec<(Facts, BTreeMap<FactKey, Logic>)> = vec![(Facts::default(), BTreeMap::new())];
    for _ in 0..4000 {
        let i = next(states.len() as u64) as usize;
        if next(8) == 0 && states.len() < 40 {
            let copy = (states[i].0.clone(), states[i].1.clone());
            states.push(copy);
            continue;
        }
        let tgraph = if next(10) == 0 { 3 } else { 0 };
        // Now and then a relation that shares the last bit of the layers' relation sets, or a
        // source too large to pack (a wide fact that may be crisp).
        let rel = [1, 2, 3, 4, 1, 2, 16, 17][next(8) as usize];
        let src = if next(30) == 0 { 1 << 20 } else { next(6) as u32 + 1 };
        let k = FactKey::new(src, rel, tgraph, next(6) as u32 + 1);
        let v = values[next(4) as usize];
        let (facts, model) = &mut states[i];
        let old = facts.set(k, v);
        let model_old = if v.is_undef() { model.remove(&k) } else { model.insert(k, v) };
        assert_eq!(old, model_old.unwrap_or(Logic::UNDEF));
    }
    for (facts, model) in &states {
        let listed: Vec<_> = model.iter().map(|(&key, &value)| Fact { key, value }).collect();
        assert_eq!(facts.to_vec(), listed);
        assert_eq!(facts.len(), listed.len());
        let rebuilt = Facts::from_sorted(listed.clone());
        assert_eq!(facts, &rebuilt);
        assert_eq!(facts.hash(), rebuilt.hash());
        for rel in [1, 2, 3, 4, 16, 17] {
            let want: Vec<_> = listed
                .iter()
                .filter(|f| f.key.rel() == rel && f.key.tgraph() == 0 && (f.value.is_true() || f.value.is_false()))
                .map(|f| (f.key.src(), f.key.tgt(), f.value.is_true()))
                .collect();
            let mut got = Vec::new();
            facts.for_each_crisp(rel, |s, t, v| got.push((s, t, v)));
            assert_eq!(got, want, "the crisp facts of relation {rel}");
        }
        for src in 1..=6 {
            let want: Vec<_> = listed.iter().filter(|f| f.key.src() == src).copied().collect();
            assert_eq!(facts.outgoing(src).collect::<Vec<_>>(), want);
            for rel in 1..=4 {
                let want: Vec<_> = want.iter().filter(|f| f.key.rel() == rel).copied().collect();
                assert_eq!(facts.outgoing_rel(src, rel).collect::<Vec<_>>(), want);
            }
        }
    }
}

#[test]
fn a_state_rebuilt_from_its_difference_from_the_start_is_the_same() {
    let isa: Vec<_> = (1..=4).map(|n| (FactKey::new(n, ISA, 9, 1), Logic::TRUE)).collect();
    let on: Vec<_> = (1..=4).map(|n| (key(n, 7, 10), Logic::TRUE)).collect();
    let start = built(&isa.iter().chain(&on).copied().collect::<Vec<_>>());
    let reference = Reference::new(&start);
    // a copy of the start that moved two nodes and holds one (a new relation)
    let mut moved = start.clone();
    moved.set(key(1, 7, 10), Logic::UNDEF);
    moved.set(key(1, 7, 11), Logic::TRUE);
    moved.set(key(2, 7, 10), Logic::FALSE);
    moved.set(key(3, 8, 4), Logic::TRUE);
    // the same content built from nothing: compared fact by fact, not by layers
    let fresh = built(&moved.to_vec().iter().map(|f| (f.key, f.value)).collect::<Vec<_>>());
    let diff = |f: &Facts| {
        let mut changes = Vec::new();
        reference.diff(f, |k, v| changes.push((k, v)));
        changes
    };
    let changes = diff(&moved);
    assert_eq!(
        changes,
        [
            (key(1, 7, 10), None),
            (key(1, 7, 11), Some(Logic::TRUE)),
            (key(2, 7, 10), Some(Logic::FALSE)),
            (key(3, 8, 4), Some(Logic::TRUE))
        ]
    );
    assert_eq!(diff(&fresh), changes);
    assert!(diff(&start).is_empty());
    let back = reference.with_changes(&changes);
    assert_eq!(back, moved);
    assert_eq!((back.hash(), back.isa_hash(), back.len()), (moved.hash(), moved.isa_hash(), moved.len()));
    assert!(same_rc(&back.base, &start.base), "the relations it did not change stay shared");
    // a fuzzy value cannot be a word: the change is made fact by fact
    let fuzzy = [(key(4, 7, 12), Some(Logic::new(0.25, 0.5)))];
    let mut by_hand = start.clone();
    by_hand.set(key(4, 7, 12), Logic::new(0.25, 0.5));
    assert_eq!(reference.with_changes(&fuzzy), by_hand);
    assert_eq!(diff(&by_hand), fuzzy);
}

#[test]
fn true_targets_are_the_true_facts_to_own_nodes_in_order() {
    let mut x = Facts::default();
    x.set(key(1, 7, 5), Logic::TRUE);
    x.set(key(1, 7, 3), Logic::TRUE);
    x.set(key(1, 7, 4), Logic::FALSE); // not True
    x.set(FactKey::new(1, 7, 2, 1), Logic::TRUE); // a node of another graph
    x.set(key(1, 8, 2), Logic::TRUE); // another relation
    x.set(key(2, 7, 1), Logic::TRUE); // another source
    assert_eq!(x.true_targets(1, 7).collect::<Vec<_>>(), [3, 5]);
    assert_eq!(x.true_targets(3, 7).count(), 0);
    // A target too large to pack is kept wide: it comes in its place in the order.
    let far = 1 << 21;
    x.set(key(1, 7, far), Logic::TRUE);
    assert_eq!(x.true_targets(1, 7).collect::<Vec<_>>(), [3, 5, far]);
    x.set(key(1, 7, far), Logic::UNDEF);
    x.set(key(1, 7, 6), Logic::TRUE);
    assert_eq!(x.true_targets(1, 7).collect::<Vec<_>>(), [3, 5, 6]);
}

/// `first_true_target` is the first of `true_targets` that the test takes, packed or wide.
#[test]
fn the_first_true_target_is_the_first_one_accepted() {
    let mut x = Facts::default();
    for t in [3, 5, 6] {
        x.set(key(1, 7, t), Logic::TRUE);
    }
    x.set(key(1, 7, 4), Logic::FALSE);
    x.set(FactKey::new(1, 7, 2, 1), Logic::TRUE);
    x.set(key(2, 7, 1), Logic::TRUE);
    let first = |x: &Facts, src, from: u32| x.first_true_target(src, 7, |n| n >= from);
    assert_eq!([first(&x, 1, 0), first(&x, 1, 4), first(&x, 1, 6), first(&x, 1, 7)], [Some(3), Some(5), Some(6), None]);
    assert_eq!([first(&x, 2, 0), first(&x, 2, 2), first(&x, 3, 0)], [Some(1), None, None]);
    let far = 1 << 21; // kept wide: the answer comes from the merged facts
    x.set(key(1, 7, far), Logic::TRUE);
    assert_eq!([first(&x, 1, 4), first(&x, 1, 7)], [Some(5), Some(far)]);
}

#[test]
fn each_true_target_starts_at_its_target_and_stops_when_told() {
    let targets = |x: &Facts, from: NodeId, most: usize| {
        let mut got = Vec::new();
        x.each_true_target((1, 7), from, |n| {
            got.push(n);
            got.len() < most
        });
        got
    };
    let mut x = Facts::default();
    for (tgt, v) in [(5, Logic::TRUE), (3, Logic::TRUE), (4, Logic::FALSE), (8, Logic::TRUE)] {
        x.set(key(1, 7, tgt), v);
    }
    x.set(FactKey::new(1, 7, 2, 1), Logic::TRUE); // a node of another graph
    x.set(key(1, 8, 2), Logic::TRUE); // another relation
    x.set(key(2, 7, 1), Logic::TRUE); // another source
    assert_eq!(targets(&x, 1, 9), [3, 5, 8]);
    assert_eq!(targets(&x, 4, 9), [5, 8]); // 4 is False
    assert_eq!(targets(&x, 5, 9), [5, 8]);
    assert_eq!(targets(&x, 6, 1), [8]);
    assert_eq!(targets(&x, 9, 9), Vec::<NodeId>::new());
    assert_eq!(targets(&x, 1, 2), [3, 5]); // told to stop
                                           // With wide facts (a target too large to pack), the same, in the same order.
    x.set(key(1, 7, 1 << 21), Logic::TRUE);
    assert_eq!(targets(&x, 4, 9), [5, 8, 1 << 21]);
    assert_eq!(targets(&x, 1, 1), [3]);
}

#[test]
fn same_facts_compares_content_whichever_relations_a_copy_moved() {
    let start = built(&[(key(1, 2, 9), Logic::TRUE), (key(1, 7, 10), Logic::TRUE), (key(2, 8, 3), Logic::TRUE)]);
    // a copy that changed relation 7 only, and one that also moved relation 8 to its own layer
    // and changed it back
    let mut a = start.clone();
    a.set(key(1, 7, 10), Logic::UNDEF);
    a.set(key(1, 7, 11), Logic::TRUE);
    let mut b = a.clone();
    b.set(key(2, 8, 3), Logic::UNDEF);
    b.set(key(2, 8, 3), Logic::TRUE);
    assert_ne!((a.own_rels, a.own_words().len()), (b.own_rels, b.own_words().len()), "two layouts");
    assert!(same_facts(&a, &b) && same_facts(&b, &a));
    assert_eq!(a, b);
    let mut c = b.clone();
    c.set(key(2, 8, 3), Logic::FALSE);
    assert!(!same_facts(&b, &c) && !same_facts(&c, &a));
    assert!(!same_facts(&start, &a));
    // no shared base: compared fact by fact
    let fresh = built(&a.to_vec().iter().map(|f| (f.key, f.value)).collect::<Vec<_>>());
    assert!(same_facts(&fresh, &a) && !same_facts(&fresh, &c));
}

#[test]
fn a_fact_moved_in_an_unshared_own_layer_stays_in_its_room() {
    let isa: Vec<_> = (1..=4).map(|n| (FactKey::new(n, ISA, 9, 1), Logic::TRUE)).collect();
    let start = built(&isa.iter().copied().chain((1..=4).map(|n| (key(n, 7, 10), Logic::TRUE))).collect::<Vec<_>>());
    let mut next = start.clone();
    // The first change copies the shared layer; the removal leaves room for one word.
    next.set(key(2, 7, 10), Logic::UNDEF);
    assert_eq!(next.own_words().len(), 3);
    let own = next.own.as_ref().map(|o| Rc::as_ptr(o) as *const u64);
    // The insertion after it goes into that room, in order, without a new layer.
    next.set(key(2, 7, 11), Logic::TRUE);
    assert_eq!(next.own.as_ref().map(|o| Rc::as_ptr(o) as *const u64), own);
    assert_eq!(next.own_words().len(), 4);
    assert!(next.own_words().windows(2).all(|w| w[0] < w[1]));
    // A third change past the room makes a new layer; all three read back.
    next.set(key(3, 7, 12), Logic::FALSE);
    assert_eq!(next.get(key(2, 7, 10)), Logic::UNDEF);
    assert_eq!(next.get(key(2, 7, 11)), Logic::TRUE);
    assert_eq!(next.get(key(3, 7, 12)), Logic::FALSE);
    assert_eq!(start.get(key(2, 7, 10)), Logic::TRUE, "the state copied from is unchanged");
    let mut facts: Vec<_> = isa.clone();
    facts.extend([1, 3, 4].map(|n| (key(n, 7, 10), Logic::TRUE)));
    facts.extend([(key(2, 7, 11), Logic::TRUE), (key(3, 7, 12), Logic::FALSE)]);
    let fresh = built(&facts);
    assert_eq!(next, fresh);
    assert_eq!(next.hash(), fresh.hash());
    // Removing every own fact in place lets the layer go.
    let mut emptied = built(&[(key(1, 7, 10), Logic::TRUE)]).clone();
    emptied.set(key(1, 7, 10), Logic::UNDEF);
    assert_eq!(emptied, Facts::default());
}

#[test]
fn facts_stay_56_bytes() {
    // The own layer's length sits in what was padding: a state is no larger for it.
    assert_eq!(std::mem::size_of::<Facts>(), 56);
}

#[test]
fn a_copy_changes_a_relation_of_hundreds_of_shared_facts() {
    // The copy took the relation's 400 facts of the shared base into its own layer, whose
    // length is a byte: a panic (a mutant of the Mind's axioms found it). They become a base of
    // the copy's own instead.
    let mut x = Facts::default();
    for s in 0..20 {
        for t in 0..20 {
            x.set(FactKey::new(s, 7, 0, t), Logic::TRUE);
        }
    }
    x.set(FactKey::new(0, 8, 0, 1), Logic::TRUE);
    let mut copy = x.clone();
    copy.set(FactKey::new(3, 7, 0, 4), Logic::FALSE);
    assert_eq!((copy.get(FactKey::new(3, 7, 0, 4)), x.get(FactKey::new(3, 7, 0, 4))), (Logic::FALSE, Logic::TRUE));
    assert_eq!((copy.get(FactKey::new(5, 7, 0, 6)), copy.get(FactKey::new(0, 8, 0, 1))), (Logic::TRUE, Logic::TRUE));
    assert_eq!(copy.iter().count(), 401);
}

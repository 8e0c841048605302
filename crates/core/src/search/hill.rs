//! Hill climbing, steepest ascent (AIMA 4.1): from the start, move to the successor of the
//! highest value (the problem's `h`, read as a value to maximise; ties: the first generated)
//! while it is higher than the current state's, and stop at a state no successor improves
//! (reason `peak`). It needs no goal and keeps no frontier: the result is the last state.
//! It is not a table algorithm (`algorithms.rs`): it has a value instead of a goal, so
//! `Search.compare` and the explorer, which ask for a goal, do not run it.

use super::*;

/// How a climb ended: the state it stopped at, with its value, and why it stopped (`Peak`,
/// or the limit that stopped it: it then gives the best state so far).
pub struct Climb {
    pub last: Found,
    pub value: f64,
    pub reason: Reason,
    pub counts: Counts,
}

pub fn hill<P: Problem>(p: &mut P, store: &mut StateStore, config: &Config) -> Result<Climb, P::Error> {
    let mut counts = Counts::default();
    let mut at = Found { id: 0, origin: Origin::START };
    let mut value = 0.0;
    let result = climb(p, store, config, &mut counts, &mut at, &mut value);
    let reason = match result {
        Ok(()) => Reason::Peak,
        Err(Halt::Limit(reason)) => reason,
        Err(Halt::Error(e)) => return Err(e),
    };
    Ok(Climb { last: at, value, reason, counts })
}

/// Climbs from the start, keeping in `at` and `value` the state reached so far.
fn climb<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    counts: &mut Counts,
    at: &mut Found,
    value: &mut f64,
) -> Step<(), P::Error> {
    let mut succ = Successors::default();
    insert_start(p, store, &mut succ)?;
    p.load(store, 0)?;
    // per stored state: its value (a duplicate is not asked again)
    let mut values = vec![p.h(Which::Current)?];
    *value = values[0];
    tell(p, store, || Event::start(Some(values[0])))?;
    loop {
        p.check(counts, store)?;
        let (id, o) = (at.id, at.origin);
        p.load(store, id)?;
        tell(p, store, || event(EventKind::Expand, id, o, *value))?;
        p.expand(&mut succ)?;
        counts.expanded += 1;
        counts.generated += succ.len() as u64;
        let mut best: Option<(f64, Found)> = None;
        for i in 0..succ.len() {
            let s = succ.get(i);
            let (sid, new) = insert(store, config, &s, id, o.depth + 1, o.g + s.cost)?;
            let here = Origin { parent: id, depth: o.depth + 1, g: o.g + s.cost, ..store.origin(sid) };
            let v = if new {
                values.push(p.h(Which::Successor(i))?);
                tell(p, store, || event(EventKind::Push, sid, here, values[sid as usize]))?;
                values[sid as usize]
            } else {
                counts.duplicates += 1;
                tell(p, store, || event(EventKind::Duplicate, sid, here, values[sid as usize]))?;
                values[sid as usize]
            };
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, Found { id: sid, origin: here }));
            }
        }
        match best {
            Some((v, next)) if v > *value => {
                counts.reached(next.origin.depth);
                (*at, *value) = (next, v);
            }
            _ => return Ok(()),
        }
    }
}

fn event(kind: EventKind, id: StateId, o: Origin, value: f64) -> Event {
    Event { kind, id, parent: o.parent, depth: o.depth, g: o.g, h: Some(value), f: value, frontier: 0 }
}

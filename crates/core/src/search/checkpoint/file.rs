//! The layout of a checkpoint: a header (what wrote it, `Identity`), where the search was
//! (`Position`, `Counts`), the store (the interned actions, labels and variants, then each
//! state's key and origin in id order), an exploration's transitions and goals, and the hash of
//! it all (`bytes.rs`). Keys are written whole, so that a store packed in another layout (a
//! later version's) still reads them.

use super::bytes::{Bad, In, Out};
use super::{Clean, Identity, Kind, Position, Saved, Snapshot, WalkMark, Walked};
use crate::search::explore::Transitions;
use crate::search::store::{Origin, StateId, StateStore, StoreMode};
use crate::search::Counts;
use std::io::{self, Read, Write};

const MAGIC: &[u8] = b"ds checkpoint\n";
const VERSION: u64 = 1;
/// A key longer than this is a damaged file (a state is a few hundred bytes at most).
const MAX_KEY: usize = 1 << 28;

/// Writes `s` to `out`.
pub fn write(out: impl Write, s: &Snapshot<'_>) -> io::Result<()> {
    let mut o = Out::new(out);
    o.bytes(MAGIC)?;
    o.num(VERSION)?;
    write_identity(&mut o, &s.identity)?;
    write_where(&mut o, &s.clean)?;
    write_store(&mut o, s.store, s.clean.states, s.clean.at.id)?;
    if let (Some(mark), Some((transitions, goals))) = (s.clean.walk, s.walked) {
        write_walked(&mut o, &mark, transitions, &goals[..mark.goals])?;
    }
    o.finish().map(drop)
}

/// Reads a checkpoint written for `expect`: its search, or why it cannot be resumed (a
/// message that completes "the checkpoint ...").
pub fn read(inp: impl Read, expect: &Identity) -> Result<Saved, String> {
    let mut i = In::new(inp);
    let damaged = |b: Bad| match b {
        Bad::Damaged => "is damaged or cut short (was it being written when the machine stopped?)".to_string(),
        Bad::Io(e) => format!("could not be read: {e}"),
    };
    // (a file that does not begin as a checkpoint is not one, however short)
    for &b in MAGIC {
        match i.byte() {
            Ok(read) if read == b => {}
            Ok(_) | Err(Bad::Damaged) => return Err("is not a checkpoint of ds".into()),
            Err(e) => return Err(damaged(e)),
        }
    }
    let version = i.num().map_err(damaged)?;
    if version != VERSION {
        return Err(format!("was written by another version of ds (format {version}; this one reads {VERSION})"));
    }
    let found = read_identity(&mut i).map_err(damaged)?;
    if let Some(why) = mismatch(&found, expect) {
        return Err(why);
    }
    let (at, counts, walk) = read_where(&mut i).map_err(damaged)?;
    let store = read_store(&mut i, expect.fingerprints).map_err(damaged)?;
    let walked = match walk {
        Some(mark) => Some(read_walked(&mut i, mark, &store).map_err(damaged)?),
        None => None,
    };
    i.finish().map_err(damaged)?;
    let keys_kept = (at.id..store.len() as StateId).chain([0]).all(|id| store.has_key(id));
    let fits = at.level <= at.id && at.id < at.next && (at.next as usize) <= store.len() && keys_kept;
    if !fits || walked.is_some() != (expect.kind == Kind::Explore) {
        return Err(damaged(Bad::Damaged));
    }
    Ok(Saved { store, at, counts, walked })
}

/// Why a checkpoint written for `found` cannot be resumed by `expect`.
fn mismatch(found: &Identity, expect: &Identity) -> Option<String> {
    let limit = |l: Option<u32>| l.map_or("none".to_string(), |l| l.to_string());
    if found.kind != expect.kind {
        return Some(format!("was written by `{}`, not `{}`", found.kind.function(), expect.kind.function()));
    }
    if found.marks_goals != expect.marks_goals {
        let with = |m: bool| if m { "with" } else { "without" };
        return Some(format!(
            "was written {} a goal, and this search is {} one",
            with(found.marks_goals),
            with(expect.marks_goals)
        ));
    }
    if found.limit != expect.limit {
        return Some(format!("was written with limit {}, not {}", limit(found.limit), limit(expect.limit)));
    }
    if found.fingerprints != expect.fingerprints {
        let store = |f: bool| if f { "\"hash\"" } else { "\"exact\"" };
        return Some(format!(
            "was written with the store {}, not {}",
            store(found.fingerprints),
            store(expect.fingerprints)
        ));
    }
    if found.code != expect.code {
        return Some("was written by other code: `Next` or the goal has changed since".into());
    }
    None
}

fn write_identity<W: Write>(o: &mut Out<W>, id: &Identity) -> io::Result<()> {
    o.num(match id.kind {
        Kind::Bfs => 1,
        Kind::Explore => 2,
    })?;
    o.num(u64::from(id.marks_goals))?;
    o.opt(id.limit.unwrap_or(u32::MAX))?;
    o.num(u64::from(id.fingerprints))?;
    o.bytes(&id.code.to_le_bytes())
}

fn read_identity<R: Read>(i: &mut In<R>) -> Result<Identity, Bad> {
    let kind = match i.num()? {
        1 => Kind::Bfs,
        2 => Kind::Explore,
        _ => return Err(Bad::Damaged),
    };
    let marks_goals = i.num_to(1)? == 1;
    let limit = Some(i.opt()?).filter(|&l| l != u32::MAX);
    let fingerprints = i.num_to(1)? == 1;
    let code = u64::from_le_bytes(i.eight()?);
    Ok(Identity { kind, marks_goals, limit, fingerprints, code })
}

fn write_where<W: Write>(o: &mut Out<W>, c: &Clean) -> io::Result<()> {
    for n in [c.at.id, c.at.level, c.at.next, c.at.depth] {
        o.num(u64::from(n))?;
    }
    let k = &c.counts;
    for n in [k.expanded, k.generated, k.duplicates, k.max_frontier, k.depth, k.dead_ends] {
        o.num(n)?;
    }
    match &c.walk {
        None => o.num(0),
        Some(w) => {
            o.num(1)?;
            o.num(w.transitions as u64)?;
            o.num(w.goals as u64)?;
            o.num(u64::from(w.started) | u64::from(w.cut) << 1)
        }
    }
}

fn read_where<R: Read>(i: &mut In<R>) -> Result<(Position, Counts, Option<WalkMark>), Bad> {
    let at = Position { id: i.u32()?, level: i.u32()?, next: i.u32()?, depth: i.u32()? };
    let mut n = [0u64; 6];
    for x in &mut n {
        *x = i.num()?;
    }
    let [expanded, generated, duplicates, max_frontier, depth, dead_ends] = n;
    let counts = Counts { expanded, generated, duplicates, max_frontier, depth, dead_ends, frontier: 0 };
    let walk = match i.num_to(1)? {
        0 => None,
        _ => {
            let (transitions, goals) = (i.num()? as usize, i.num()? as usize);
            let flags = i.num_to(3)?;
            Some(WalkMark { transitions, goals, started: flags & 1 != 0, cut: flags & 2 != 0 })
        }
    };
    Ok((at, counts, walk))
}

/// The store's first `states` states. Their origins name actions, labels and variants by
/// number: those are written first, all of them, so that reading them back in order numbers
/// them alike.
fn write_store<W: Write>(o: &mut Out<W>, store: &StateStore, states: usize, first_kept: StateId) -> io::Result<()> {
    for keys in store.interned() {
        o.num(keys.len() as u64)?;
        for n in 0..keys.len() {
            o.string(keys.get(n as u32))?;
        }
    }
    o.num(states as u64)?;
    // (a path's cost is its depth unless the store keeps costs)
    let costs = store.has_costs();
    o.num(u64::from(costs))?;
    for id in 0..states as StateId {
        let origin = store.origin(id);
        match store.fingerprint_of(id) {
            None => o.string(&store.key(id))?,
            Some((fp, key)) => {
                o.bytes(&fp.to_le_bytes())?;
                // the start's key and the frontier's (the others were let go)
                match key.filter(|_| id == 0 || id >= first_kept) {
                    Some(key) => {
                        o.num(1)?;
                        o.string(key)?;
                    }
                    None => o.num(0)?,
                }
            }
        }
        o.opt(origin.parent)?;
        o.opt(origin.action)?;
        o.opt(origin.label)?;
        o.opt(origin.variant)?;
        o.num(u64::from(origin.depth))?;
        if costs {
            o.f64(origin.g)?;
        }
    }
    Ok(())
}

fn read_store<R: Read>(i: &mut In<R>, fingerprints: bool) -> Result<StateStore, Bad> {
    let mode = if fingerprints { StoreMode::Hash } else { StoreMode::Exact };
    let mut store = StateStore::new(mode).map_err(|_| Bad::Damaged)?;
    let mut key = Vec::new();
    for which in 0..3 {
        let n = i.num_to(u64::from(u32::MAX))?;
        for _ in 0..n {
            i.string_into(&mut key, MAX_KEY)?;
            store.intern_again(which, &key);
        }
    }
    let states = i.num_to(u64::from(u32::MAX))?;
    let costs = i.num_to(1)? == 1;
    for id in 0..states as StateId {
        let fp = match fingerprints {
            true => {
                let fp = u64::from_le_bytes(i.eight()?);
                let has_key = i.num_to(1)? == 1;
                if has_key {
                    i.string_into(&mut key, MAX_KEY)?;
                }
                Some((fp, has_key))
            }
            false => {
                i.string_into(&mut key, MAX_KEY)?;
                None
            }
        };
        let (parent, action, label, variant, depth) = (i.opt()?, i.opt()?, i.opt()?, i.opt()?, i.u32()?);
        let g = if costs { i.f64()? } else { f64::from(depth) };
        let origin = Origin { parent, action, label, variant, depth, g };
        let parent_ok = if id == 0 { origin.parent == u32::MAX } else { origin.parent < id };
        let stored = match fp {
            None => store.insert(&key, origin).1,
            Some((fp, has_key)) => store.restore_fingerprint(fp, has_key.then_some(&key[..]), origin),
        };
        if !parent_ok || !store.names_interned(&origin) || !stored {
            return Err(Bad::Damaged);
        }
    }
    Ok(store)
}

fn write_walked<W: Write>(o: &mut Out<W>, mark: &WalkMark, t: &Transitions, goals: &[StateId]) -> io::Result<()> {
    o.num(u64::from(t.cost.is_some()))?;
    for k in 0..mark.transitions {
        o.num(u64::from(t.from[k]))?;
        o.opt(t.action[k])?;
        o.num(u64::from(t.to[k]))?;
        if t.cost.is_some() {
            o.f64(t.cost_of(k))?;
        }
    }
    for &g in goals {
        o.num(u64::from(g))?;
    }
    Ok(())
}

/// The transitions and goals of an exploration, each naming states of `store`.
fn read_walked<R: Read>(i: &mut In<R>, mark: WalkMark, store: &StateStore) -> Result<Walked, Bad> {
    let costed = i.num_to(1)? == 1;
    let mut t = Transitions::default();
    let state =
        |i: &mut In<R>| i.u32().and_then(|id| if (id as usize) < store.len() { Ok(id) } else { Err(Bad::Damaged) });
    for _ in 0..mark.transitions {
        let (from, action, to) = (state(i)?, i.opt()?, state(i)?);
        if !store.names_interned(&Origin { action, ..Origin::START }) {
            return Err(Bad::Damaged);
        }
        let cost = if costed { i.f64()? } else { 1.0 };
        t.push(from, action, to, cost);
    }
    let goals = (0..mark.goals).map(|_| state(i)).collect::<Result<_, _>>()?;
    Ok(Walked { transitions: t, goals, started: mark.started, cut: mark.cut })
}

//! Simulated annealing (AIMA 4.2, SIMULATED-ANNEALING, as aima-python writes it): at step k
//! the temperature is T = t0 * decay^k; a successor of the current state is picked at random,
//! and the walk moves to it when its value is higher, or else with probability e^(delta/T)
//! (delta = its value minus the current state's, <= 0). It stops after `steps` steps, when T
//! is 0 (reason `cooled`), or at a state without successors (reason `peak`, as `hill`). The
//! result is the best state the walk visited (the first of equal values), not the last.
//! Like `hill` it has a value instead of a goal, so it is not a table algorithm.
//!
//! The random numbers come from `SplitMix64`, seeded by the option `seed`, so that a run is
//! the same on every machine and tests/oracle/search_oracle.py can repeat it exactly.

use super::*;

/// splitmix64 (Steele, Lea and Flood, 2014; the generator Java's `SplittableRandom` and
/// xoshiro's seeding use): the state advances by the golden gamma and each output is a mix
/// of it. `unit` takes the top 53 bits of an output as a number from 0 up to 1.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number from 0 up to (not including) 1: the top 53 bits over 2^53.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The options of a run: the generator's seed and the cooling schedule.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub seed: u64,
    pub t0: f64,
    pub decay: f64,
    pub steps: u64,
}

impl Default for Schedule {
    fn default() -> Schedule {
        Schedule { seed: 0, t0: 1.0, decay: 0.995, steps: 1000 }
    }
}

impl Schedule {
    /// The temperature at step k.
    pub fn temperature(&self, k: u64) -> f64 {
        self.t0 * self.decay.powf(k as f64)
    }
}

/// How a walk ended: the best state it visited, with its value, the moves it made and why it
/// stopped (`Cooled`, `Peak`, or the limit that stopped it).
pub struct Walk {
    pub best: Found,
    pub value: f64,
    pub moves: u64,
    pub reason: Reason,
    pub counts: Counts,
}

/// The walk's state between steps.
struct Walker {
    rng: SplitMix64,
    /// Per stored state: its value (asked once).
    values: Vec<f64>,
    at: StateId,
    best: StateId,
    moves: u64,
    succ: Successors,
}

pub fn anneal<P: Problem>(
    p: &mut P,
    store: &mut StateStore,
    config: &Config,
    schedule: &Schedule,
) -> Result<Walk, P::Error> {
    let mut counts = Counts::default();
    let mut w = Walker {
        rng: SplitMix64::new(schedule.seed),
        values: Vec::new(),
        at: 0,
        best: 0,
        moves: 0,
        succ: Successors::default(),
    };
    let reason = match w.walk(p, store, config, schedule, &mut counts) {
        Ok(reason) => reason,
        Err(Halt::Limit(reason)) => reason,
        Err(Halt::Error(e)) => return Err(e),
    };
    let value = w.values.get(w.best as usize).copied().unwrap_or(0.0);
    let best = Found { id: w.best, origin: if store.is_empty() { Origin::START } else { store.origin(w.best) } };
    Ok(Walk { best, value, moves: w.moves, reason, counts })
}

impl Walker {
    /// Walks from the start until the schedule ends or no successor is left.
    fn walk<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        config: &Config,
        schedule: &Schedule,
        counts: &mut Counts,
    ) -> Step<Reason, P::Error> {
        insert_start(p, store, &mut self.succ)?;
        p.load(store, 0)?;
        self.values.push(p.h(Which::Current)?);
        tell(p, store, || event(EventKind::Push, 0, Origin::START, self.values[0]))?;
        for k in 0..schedule.steps {
            let t = schedule.temperature(k);
            if t <= 0.0 {
                return Ok(Reason::Cooled);
            }
            p.check(counts, store)?;
            if !self.step(p, store, config, counts, t)? {
                return Ok(Reason::Peak);
            }
        }
        Ok(Reason::Cooled)
    }

    /// One step at temperature `t`: false when the current state has no successor.
    fn step<P: Problem>(
        &mut self,
        p: &mut P,
        store: &mut StateStore,
        config: &Config,
        counts: &mut Counts,
        t: f64,
    ) -> Step<bool, P::Error> {
        let id = self.at;
        let o = store.origin(id);
        p.load(store, id)?;
        tell(p, store, || event(EventKind::Expand, id, o, self.values[id as usize]))?;
        p.expand(&mut self.succ)?;
        counts.expanded += 1;
        counts.generated += self.succ.len() as u64;
        if self.succ.is_empty() {
            return Ok(false);
        }
        // (the product is below n: the unit number is below 1)
        let i = ((self.rng.unit() * self.succ.len() as f64) as usize).min(self.succ.len() - 1);
        let s = self.succ.get(i);
        let (sid, new) = insert(store, config, &s, id, o.depth + 1, o.g + s.cost)?;
        let here = store.origin(sid);
        if new {
            counts.reached(here.depth);
            self.values.push(p.h(Which::Successor(i))?);
            tell(p, store, || event(EventKind::Push, sid, here, self.values[sid as usize]))?;
        } else {
            counts.duplicates += 1;
            tell(p, store, || event(EventKind::Duplicate, sid, here, self.values[sid as usize]))?;
        }
        let delta = self.values[sid as usize] - self.values[id as usize];
        if delta > 0.0 || self.rng.unit() < (delta / t).exp() {
            self.at = sid;
            self.moves += 1;
            if self.values[sid as usize] > self.values[self.best as usize] {
                self.best = sid;
            }
        }
        Ok(true)
    }
}

fn event(kind: EventKind, id: StateId, o: Origin, value: f64) -> Event {
    Event { kind, id, parent: o.parent, depth: o.depth, g: o.g, h: Some(value), f: value, frontier: 0 }
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn splitmix64_gives_the_published_sequence() {
        // the first outputs for seed 0 (Vigna's splitmix64.c; also the test vector of
        // rand_xoshiro's SplitMix64)
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(r.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        let mut u = SplitMix64::new(7);
        assert!((0..1000).map(|_| u.unit()).all(|x| (0.0..1.0).contains(&x)));
    }
}

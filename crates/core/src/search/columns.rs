//! Numbers the store keeps per state, in less room than a `u32` each when the values allow.

use super::store::StateId;

/// The depth of each state: while no state is shallower than the one stored before it (as in
/// breadth-first search and exploration, whose ids go level by level), only where each run
/// of one depth starts; else one number per state.
pub enum Depths {
    /// (first id, depth) of each run, in id order; `len` states.
    Runs(Vec<(StateId, u32)>, usize),
    Each(Vec<u32>),
}

impl Default for Depths {
    fn default() -> Depths {
        Depths::Runs(Vec::new(), 0)
    }
}

impl Depths {
    pub fn get(&self, id: StateId) -> u32 {
        match self {
            Depths::Runs(runs, _) => {
                let k = runs.partition_point(|r| r.0 <= id);
                runs[k.saturating_sub(1)].1
            }
            Depths::Each(d) => d[id as usize],
        }
    }

    pub fn push(&mut self, depth: u32) {
        match self {
            Depths::Runs(runs, len) => match runs.last() {
                Some(&(_, last)) if last == depth => *len += 1,
                Some(&(_, last)) if last > depth => {
                    self.each();
                    self.push(depth)
                }
                _ => {
                    runs.push((*len as StateId, depth));
                    *len += 1;
                }
            },
            Depths::Each(d) => d.push(depth),
        }
    }

    pub fn set(&mut self, id: StateId, depth: u32) {
        if self.get(id) != depth {
            self.each()[id as usize] = depth;
        }
    }

    /// Makes the depths one per state.
    fn each(&mut self) -> &mut Vec<u32> {
        if let Depths::Runs(_, len) = self {
            let len = *len as StateId;
            *self = Depths::Each((0..len).map(|id| self.get(id)).collect());
        }
        match self {
            Depths::Each(d) => d,
            Depths::Runs(..) => unreachable!("made one per state above"),
        }
    }

    pub fn memory(&self) -> usize {
        match self {
            Depths::Runs(runs, _) => runs.capacity() * 8,
            Depths::Each(d) => d.capacity() * 4,
        }
    }
}

/// Small numbers, one per state, each in one byte while all fit in one, else in two while all
/// fit in two, else in four: the number of a state's (action, label) pair, of which a search meets few.
pub enum Narrow {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Default for Narrow {
    fn default() -> Narrow {
        Narrow::U8(Vec::new())
    }
}

impl Narrow {
    pub fn get(&self, id: StateId) -> u32 {
        let i = id as usize;
        match self {
            Narrow::U8(v) => u32::from(v[i]),
            Narrow::U16(v) => u32::from(v[i]),
            Narrow::U32(v) => v[i],
        }
    }

    pub fn push(&mut self, n: u32) {
        self.widen(n);
        match self {
            Narrow::U8(v) => v.push(n as u8),
            Narrow::U16(v) => v.push(n as u16),
            Narrow::U32(v) => v.push(n),
        }
    }

    pub fn set(&mut self, id: StateId, n: u32) {
        self.widen(n);
        let i = id as usize;
        match self {
            Narrow::U8(v) => v[i] = n as u8,
            Narrow::U16(v) => v[i] = n as u16,
            Narrow::U32(v) => v[i] = n,
        }
    }

    /// Makes room for `n` (a wider vector, once, when `n` does not fit).
    fn widen(&mut self, n: u32) {
        match self {
            Narrow::U8(v) if n > u32::from(u8::MAX) && n <= u32::from(u16::MAX) => {
                *self = Narrow::U16(v.iter().map(|&x| u16::from(x)).collect())
            }
            Narrow::U8(v) if n > u32::from(u16::MAX) => *self = Narrow::U32(v.iter().map(|&x| u32::from(x)).collect()),
            Narrow::U16(v) if n > u32::from(u16::MAX) => *self = Narrow::U32(v.iter().map(|&x| u32::from(x)).collect()),
            _ => {}
        }
    }

    pub fn memory(&self) -> usize {
        match self {
            Narrow::U8(v) => v.capacity(),
            Narrow::U16(v) => v.capacity() * 2,
            Narrow::U32(v) => v.capacity() * 4,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_numbers_widen_as_needed() {
        let mut n = Narrow::default();
        let values = [0, 254, 255, 3, 65_535, 65_536, u32::MAX, 7];
        for (i, &x) in values.iter().enumerate() {
            n.push(x);
            assert_eq!((0..=i as StateId).map(|id| n.get(id)).collect::<Vec<_>>(), values[..=i]);
        }
        assert!(matches!(n, Narrow::U32(_)));
        let mut m = Narrow::default();
        m.push(1);
        m.set(0, 300);
        assert!(matches!(&m, Narrow::U16(v) if v[0] == 300));
    }
}

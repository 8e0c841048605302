//! A map whose keys are the integers b, b + 1, ..., b + n - 1 (b >= 0), inserted in that order (a map
//! filled as an array: `M[I] = ...` for I from 0 or 1 up) holds key b + p at position p, so a
//! number key finds its entry by a subtraction, without hashing it or reading the index: one
//! read of memory instead of two (Lua keeps such keys in the array part of its tables for the
//! same reason). Any other new key, or a removal, ends this; the map's index is kept up to date
//! throughout, so that the map goes on by hash from there.

use super::Value;

/// Keys below this, and their differences, are exact as floats and as positions.
const LIMIT: f64 = 2_147_483_648.0; // 2^31

/// The first key b while the keys are dense (None: they are not, or the map is empty).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct DenseKeys {
    base: Option<f64>,
}

/// What the dense keys say about a key.
pub(super) enum Lookup {
    /// At this position.
    At(usize),
    /// Not in the map.
    Absent,
    /// The keys are not dense: ask the index.
    Unknown,
}

impl DenseKeys {
    /// Where `key` is in a map of `len` entries.
    #[inline(always)]
    pub fn lookup(&self, key: &Value, len: usize) -> Lookup {
        let Some(base) = self.base else { return Lookup::Unknown };
        // Every key is a number: a string, say, is not there.
        let Value::Num(n) = key else { return Lookup::Absent };
        // As 0 <= b <= n, n - b is exact (for n below 2^53; larger n are past the keys), so
        // it is an integer exactly when n is one. NaN fails the comparisons: it is never found.
        let i = n - base;
        if !(i >= 0.0 && i < len as f64) {
            return Lookup::Absent;
        }
        let p = i as u32; // positions are u32: `len` fits
        if f64::from(p) == i {
            Lookup::At(p as usize)
        } else {
            Lookup::Absent
        }
    }

    /// A new key was stored at position `len` (after the entries the keys describe).
    #[inline]
    pub fn pushed(&mut self, key: &Value, len: usize) {
        let Value::Num(n) = *key else {
            self.base = None;
            return;
        };
        let small = (0.0..LIMIT).contains(&n) && is_integer(n);
        self.base = match self.base {
            _ if len == 0 && small => Some(n),
            Some(b) if small && n == b + len as f64 => Some(b),
            _ => None,
        };
    }

    /// An entry was removed or moved: the positions no longer follow the keys.
    pub fn end(&mut self) {
        self.base = None;
    }
}

/// Whether `x` is an integer, below 2^63 in magnitude (larger ones are never dense keys). A
/// round trip through `i64` (which truncates), not `f64::trunc`, a call into libm on x86-64's
/// baseline.
#[inline(always)]
fn is_integer(x: f64) -> bool {
    (x as i64) as f64 == x
}

#[cfg(test)]
mod tests {
    use crate::value::{Map, Value};

    fn n(x: f64) -> Value {
        Value::Num(x)
    }

    fn value_at(m: &Map, key: f64) -> Option<f64> {
        match m.get(&n(key)) {
            Some(Value::Num(v)) => Some(*v),
            _ => None,
        }
    }

    /// A map filled from `first` up, then changed: every lookup agrees with the keys stored.
    fn filled(first: f64, len: usize) -> Map {
        let mut m = Map::default();
        for i in 0..len {
            assert!(m.insert(n(first + i as f64), n(i as f64 * 10.0)));
        }
        m
    }

    #[test]
    fn keys_from_zero_or_one_are_found_and_others_are_not() {
        for first in [0.0, 1.0, 5.0] {
            let mut m = filled(first, 100);
            for i in 0..100 {
                assert_eq!(value_at(&m, first + i as f64), Some(i as f64 * 10.0), "{first} + {i}");
            }
            for absent in [first - 1.0, first + 100.0, first + 0.5, 1e-17, f64::NAN, 1e300, -1e300] {
                assert_eq!(value_at(&m, absent), None, "{absent} from {first}");
            }
            assert!(m.get(&Value::str("0")).is_none());
            assert!(!m.insert(n(first + 3.0), n(-1.0)), "a replacement");
            assert_eq!(value_at(&m, first + 3.0), Some(-1.0));
            assert_eq!(m.len(), 100);
        }
        assert_eq!(value_at(&filled(0.0, 3), -0.0), Some(0.0), "-0 is the key 0");
        // Negative keys go by hash (n - b would not be exact for a tiny n).
        let m = filled(-5.0, 10);
        assert_eq!((value_at(&m, -5.0), value_at(&m, 4.0), value_at(&m, 1e-17)), (Some(0.0), Some(90.0), None));
    }

    #[test]
    fn another_key_or_a_removal_goes_on_by_hash() {
        let mut m = filled(0.0, 50);
        m.insert(Value::str("s"), n(1.0));
        m.insert(n(50.0), n(2.0));
        assert!(
            m.get(&Value::str("s")).is_some() && value_at(&m, 50.0) == Some(2.0) && value_at(&m, 7.0) == Some(70.0)
        );
        let mut m = filled(0.0, 50);
        assert!(m.remove(&n(10.0)).is_some());
        assert_eq!(value_at(&m, 10.0), None);
        assert_eq!(value_at(&m, 49.0), Some(490.0), "the last entry moved into the hole");
        m.insert(n(50.0), n(5.0));
        assert_eq!(value_at(&m, 50.0), Some(5.0));
        let mut m = filled(0.0, 5);
        m.insert(n(7.0), n(1.0)); // a gap
        assert_eq!(value_at(&m, 5.0), None);
        assert_eq!(value_at(&m, 7.0), Some(1.0));
        let keys: Vec<String> = m.iter().map(|(k, _)| format!("{k:?}")).collect();
        assert_eq!(keys.len(), 6);
        let mut m = filled(0.0, 5);
        m.clear();
        m.insert(n(2.0), n(1.0));
        assert_eq!((value_at(&m, 2.0), value_at(&m, 0.0)), (Some(1.0), None));
    }
}

//! The pseudo-random numbers of `Math.random`, `Math.randrange` and `A.mix()`: each interpreter
//! has its own sequence, so `:reset` and a second session start it afresh.

/// xorshift64*: small, fast and reproducible from `Math.randomSeed(n)`.
#[derive(Debug, Clone)]
pub struct Random(u64);

impl Default for Random {
    fn default() -> Random {
        Random(0x2545_F491_4F6C_DD1D)
    }
}

impl Random {
    /// The next number, from 0 up to 1.
    pub fn number(&mut self) -> f64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// `Math.randomSeed(n)`: the sequence starts afresh from n.
    pub fn seed(&mut self, n: f64) {
        self.0 = (n.to_bits() ^ 0x9E37_79B9_7F4A_7C15).max(1);
    }
}

#[cfg(test)]
mod tests {
    use super::Random;

    #[test]
    fn a_seed_repeats_its_sequence_and_sequences_are_apart() {
        let (mut a, mut b) = (Random::default(), Random::default());
        a.seed(7.0);
        let first: Vec<f64> = (0..5).map(|_| a.number()).collect();
        b.seed(7.0);
        assert_eq!(first, (0..5).map(|_| b.number()).collect::<Vec<_>>());
        assert!(first.iter().all(|x| (0.0..1.0).contains(x)));
        let mut c = Random::default();
        c.seed(8.0);
        assert_ne!(first[0], c.number());
    }
}

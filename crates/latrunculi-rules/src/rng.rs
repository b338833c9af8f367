//! [`FastRng`]: a small, fast, seedable generator for random playouts and tests, so that
//! the same seed always gives the same game without pulling a dependency into the rules.

/// An xorshift64* generator. Not for cryptography; uniform enough for move choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from a seed (any value, zero included).
    pub fn new(seed: u64) -> FastRng {
        FastRng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform index below `n`; `n` must be positive.
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0, "FastRng::below(0)");
        (((self.next_u64() >> 32) * n as u64) >> 32) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uniform_enough_in_range_and_reproducible() {
        let mut r = FastRng::new(7);
        let mut counts = [0u32; 7];
        for _ in 0..70_000 {
            counts[r.below(7)] += 1;
        }
        assert!(counts.iter().all(|&c| (9_000..11_000).contains(&c)), "{counts:?}");
        let (mut a, mut b) = (FastRng::new(3), FastRng::new(3));
        assert!((0..100).all(|_| a.next_u64() == b.next_u64()));
        assert_ne!(FastRng::new(3).next_u64(), FastRng::new(4).next_u64());
    }
}

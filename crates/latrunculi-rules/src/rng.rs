//! Deterministic randomness and hashing without dependencies: [`FastRng`] (a small
//! seedable generator for random playouts and tests, so the same seed always gives the
//! same game), [`splitmix64`] (seed derivation and Zobrist keys) and [`fnv1a`] (a hash of
//! bytes that is stable across runs and platforms).

/// SplitMix64's output function: a well-mixed 64-bit value of `x`.
pub const fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// FNV-1a (64 bits) of `bytes`: stable across runs, versions and platforms.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h = Fnv1a::default();
    h.update(bytes);
    h.finish()
}

/// [`fnv1a`] computed a piece at a time, for bytes never held together (a file written
/// as it is made): `update` with each piece in turn, and `finish` is [`fnv1a`] of the
/// pieces joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    /// Hashes the next piece of the bytes.
    pub fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x100_0000_01b3);
        }
    }

    /// The hash of every piece given so far.
    pub fn finish(self) -> u64 {
        self.0
    }
}

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

    #[test]
    fn mixing_functions_match_their_reference_values() {
        // SplitMix64 of 0 and the FNV-1a test vectors ("" and "a").
        assert_eq!(splitmix64(0), 0xE220_A839_7B1D_CDAF);
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}

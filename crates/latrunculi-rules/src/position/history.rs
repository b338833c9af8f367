//! The repetition history and the repetition rules' questions about it.

use super::*;

/// The repetition history: the hashes of the positions since the last irreversible ply,
/// oldest first, with a Bloom filter over them once the history has been longer than
/// [`History::FILTER_FROM`], so that asking whether a hash occurred costs a scan only when
/// the filter says it may have (rulesets that forbid any repeated state ask it for every
/// candidate move). The filter never forgets (a popped hash stays in it), so it can only
/// err towards a scan. The hashes that occur twice or more are also kept apart (seldom
/// any), which answers threefold rules' question "has this occurred at most once?"
/// without a scan.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct History {
    pub(super) hashes: Vec<u64>,
    /// The filter's bits, from the first time the history grew past `FILTER_FROM`.
    pub(super) filter: Option<Box<[u64; History::FILTER_WORDS]>>,
    /// Each hash that occurs at least twice in `hashes`, once.
    pub(super) twice: Vec<u64>,
}

impl History {
    /// History lengths up to which a plain scan is used.
    pub(super) const FILTER_FROM: usize = 32;
    /// 8,192 bits: with 1,000 hashes and two bits each, about 5% false positives.
    pub(super) const FILTER_WORDS: usize = 128;

    #[inline]
    pub(super) fn bits(h: u64) -> [usize; 2] {
        [(h & 0x1FFF) as usize, ((h >> 32) & 0x1FFF) as usize]
    }

    #[inline]
    pub(super) fn mark(filter: &mut [u64; Self::FILTER_WORDS], h: u64) {
        for b in Self::bits(h) {
            filter[b >> 6] |= 1 << (b & 63);
        }
    }

    #[inline]
    pub(super) fn push(&mut self, h: u64) {
        if self.count(h) == 1 {
            self.twice.push(h);
        }
        self.hashes.push(h);
        match &mut self.filter {
            Some(f) => Self::mark(f, h),
            None if self.hashes.len() > Self::FILTER_FROM => {
                let mut f = Box::new([0u64; Self::FILTER_WORDS]);
                for &x in &self.hashes {
                    Self::mark(&mut f, x);
                }
                self.filter = Some(f);
            }
            None => {}
        }
    }

    #[inline]
    pub(super) fn clear(&mut self) {
        self.hashes.clear();
        self.twice.clear();
        if let Some(f) = &mut self.filter {
            f.fill(0);
        }
    }

    /// Removes the last hash if it is `h`.
    #[inline]
    pub(super) fn pop_if_last(&mut self, h: u64) {
        if self.hashes.last() == Some(&h) {
            self.hashes.pop();
            if self.count(h) == 1
                && let Some(i) = self.twice.iter().position(|&x| x == h)
            {
                self.twice.swap_remove(i);
            }
        }
    }

    #[inline]
    pub(super) fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }

    /// Whether `h` occurs at most once (`count(h) <= 1`).
    #[inline]
    pub(super) fn at_most_once(&self, h: u64) -> bool {
        !self.twice.contains(&h)
    }

    /// How often `h` occurs.
    #[inline]
    pub(super) fn count(&self, h: u64) -> usize {
        if let Some(f) = &self.filter
            && Self::bits(h).iter().any(|&b| f[b >> 6] & (1 << (b & 63)) == 0)
        {
            return 0;
        }
        self.hashes.iter().filter(|&&x| x == h).count()
    }
}

impl Position {
    /// The hash after `piece` moves from `from` to `to` capturing nothing, in a position
    /// with nothing trapped (what the no-repetition filter compares with the history).
    #[inline(always)]
    pub(super) fn simple_hash(&self, from: usize, to: usize, piece: u8) -> u64 {
        self.hash ^ BLACK_TO_MOVE ^ zobrist(raw_of(from), piece) ^ zobrist(raw_of(to), piece)
    }

    /// Whether moving `piece` from `from` to `to` without a capture leads to a position
    /// that has occurred fewer than `repetition_count − 1` times (so that even then it
    /// passes the no-repetition filter).
    #[inline(never)]
    pub(super) fn unrepeated(&self, from: usize, to: usize, piece: u8) -> bool {
        // (Under a threefold rule with nothing occurred twice, `for_each_legal` does not
        // ask: see its `can_refuse`.)
        let n = self.rules.end.repetition_count as usize;
        let h = self.simple_hash(from, to, piece);
        if n == 3 {
            return self.history.at_most_once(h);
        }
        1 + self.history.count(h) < n
    }

    #[inline]
    pub(super) fn push_history(&mut self) {
        if self.rules.end.repetition != Repetition::Off {
            self.history.push(self.hash);
        }
    }

    /// How often the current position has occurred since the last irreversible ply.
    pub(super) fn repetition_count(&self) -> usize {
        self.history.count(self.hash)
    }
}

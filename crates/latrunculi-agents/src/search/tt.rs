//! The search's transposition table: buckets of two entries, one kept for the deepest
//! search of its key (depth-preferred), one always replaced.

use latrunculi_rules::Move;

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value.
    Exact,
    /// At least the score (the search failed high).
    Lower,
    /// At most the score (the search failed low).
    Upper,
}

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The position's hash.
    pub key: u64,
    /// Score (mate scores relative to this position, see [`to_tt`]).
    pub score: i32,
    /// Depth searched.
    pub depth: i16,
    /// What the score bounds.
    pub bound: Bound,
    /// The best move found, if any.
    pub best: Option<Move>,
}

/// A table of `2^k` buckets.
#[derive(Clone, Debug, Default)]
pub struct Table {
    buckets: Vec<[Option<Entry>; 2]>,
}

impl Table {
    /// A table of at most `mb` megabytes (0: none: every probe misses).
    pub fn new(mb: u32) -> Table {
        if mb == 0 {
            return Table::default();
        }
        let bytes = mb as usize * (1 << 20);
        let n = (bytes / std::mem::size_of::<[Option<Entry>; 2]>()).max(1);
        let n = if n.is_power_of_two() { n } else { n.next_power_of_two() / 2 };
        Table { buckets: vec![[None; 2]; n] }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = [None; 2]);
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    /// The entry for `key`, if stored.
    pub fn get(&self, key: u64) -> Option<Entry> {
        if self.buckets.is_empty() {
            return None;
        }
        let b = &self.buckets[self.index(key)];
        b.iter().flatten().filter(|e| e.key == key).max_by_key(|e| e.depth).copied()
    }

    /// Stores `e`: in the depth-preferred slot when it is at least as deep as what is
    /// there (or the same position), else in the always-replace slot.
    pub fn put(&mut self, e: Entry) {
        if self.buckets.is_empty() {
            return;
        }
        let i = self.index(e.key);
        let b = &mut self.buckets[i];
        match b[0] {
            Some(old) if old.key != e.key && old.depth > e.depth => b[1] = Some(e),
            _ => {
                if b[1].is_some_and(|o| o.key == e.key) {
                    b[1] = None;
                }
                b[0] = Some(e)
            }
        }
    }
}

/// Scores beyond this (in absolute value) are decided games.
pub const WIN_BOUND: i32 = super::WIN - 1_000;

/// A score as stored: a decided game's distance counted from this position, not the root.
pub fn to_tt(s: i32, ply: u32) -> i32 {
    if s > WIN_BOUND {
        s + ply as i32
    } else if s < -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// The inverse of [`to_tt`] at `ply` from the root.
pub fn from_tt(s: i32, ply: u32) -> i32 {
    if s > WIN_BOUND {
        s - ply as i32
    } else if s < -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

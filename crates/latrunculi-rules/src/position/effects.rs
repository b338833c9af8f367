//! [`Effects`]: what one ply captures and traps, packed small enough to copy.

use super::*;

/// Most effects one ply can have on a 16 × 16 board: line captures take at most 13
/// pieces on each of the 4 lines through the mover's square (52); an enclosed or corner
/// neighbour stands where its direction's line capture would start; add 2 active and 4
/// passive corners, push, flank, phalanx and a displaced piece: at most 62. Also keeps
/// [`Effects`] at 128 bytes, which the compiler copies inline.
pub(super) const MAX_EFFECTS: usize = 63;

/// What a ply did to one enemy piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EffectKind {
    /// The piece was removed from the board.
    Captured,
    /// The piece became trapped.
    Trapped,
}

/// The captures and traps one ply makes. Each entry packs a mailbox index (9 bits) and
/// a code (`REMOVE`, or a trap axis `0..=4`) in a `u16`.
#[derive(Clone, Copy, Debug)]
pub struct Effects {
    len: u8,
    items: [u16; MAX_EFFECTS],
}

// Copied by value from every ply: small enough for an inline copy.
const _: () = assert!(std::mem::size_of::<Effects>() <= 128);

impl Default for Effects {
    #[inline]
    fn default() -> Effects {
        Effects { len: 0, items: [0; MAX_EFFECTS] }
    }
}

impl PartialEq for Effects {
    fn eq(&self, other: &Effects) -> bool {
        let mut a = self.items[..self.len as usize].to_vec();
        let mut b = other.items[..other.len as usize].to_vec();
        a.sort_unstable();
        b.sort_unstable();
        a == b
    }
}

/// Effect code: the piece is removed (any other code is a trap axis `0..=4`).
pub(super) const REMOVE: u8 = 7;

impl Effects {
    #[inline]
    pub(super) fn add(&mut self, m: usize, code: u8) {
        let n = self.len as usize;
        for item in &mut self.items[..n] {
            if (*item & 0x1FF) as usize == m {
                if code == REMOVE {
                    *item = m as u16 | (REMOVE as u16) << 9;
                }
                return;
            }
        }
        if n < MAX_EFFECTS {
            self.items[n] = m as u16 | (code as u16) << 9;
            self.len += 1;
        }
    }

    /// (mailbox index, code) pairs.
    #[inline]
    pub(super) fn raw(&self) -> impl Iterator<Item = (usize, u8)> + '_ {
        self.items[..self.len as usize].iter().map(|&x| ((x & 0x1FF) as usize, (x >> 9) as u8))
    }

    /// Whether the ply removes any piece (what clears the repetition history).
    #[inline]
    pub(super) fn removes_any(&self) -> bool {
        self.raw().any(|(_, c)| c == REMOVE)
    }

    #[inline]
    pub(super) fn removes(&self, m: usize) -> bool {
        self.raw().any(|(i, c)| i == m && c == REMOVE)
    }

    /// Whether the ply captured or trapped nothing.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of pieces captured or trapped.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Every affected square with what happened to it, in ascending square order.
    pub fn iter(&self) -> impl Iterator<Item = (Square, EffectKind)> + '_ {
        let mut v: Vec<(Square, EffectKind)> = self
            .raw()
            .map(|(m, c)| (sq_of(m), if c == REMOVE { EffectKind::Captured } else { EffectKind::Trapped }))
            .collect();
        v.sort_by_key(|(s, _)| *s);
        v.into_iter()
    }

    /// Squares whose piece was removed, ascending.
    pub fn captured(&self) -> Vec<Square> {
        self.iter().filter(|(_, k)| *k == EffectKind::Captured).map(|(s, _)| s).collect()
    }

    /// Squares whose piece became trapped, ascending.
    pub fn trapped(&self) -> Vec<Square> {
        self.iter().filter(|(_, k)| *k == EffectKind::Trapped).map(|(s, _)| s).collect()
    }
}

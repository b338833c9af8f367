//! The mailbox board representation used by [`crate::Position`]: cell encoding,
//! direction offsets, square sets, Zobrist keys and rook reach along a line.
//!
//! Cells live in a `[u8; 400]` array of rows [`STRIDE`] = 20 cells wide: files 0..15,
//! then 4 sentinel columns (shared by the right edge of one row and the left edge of the
//! next). Rank `r`, file `f` is mailbox index `PAD + r * 20 + f` with [`PAD`] = 42: two
//! sentinel rows and two cells below rank 0, two rows and two cells above rank 15, so
//! every direction is a constant offset and up to two steps off any edge land on a
//! sentinel (the furthest any rule looks: a custodial anvil). Boards narrower or lower
//! than 16 mark the cells past their edges off the board too.
//!
//! The stride is 20 rather than 32 to keep [`crate::Position`], which search agents
//! clone, small (400 cells instead of 640 or more); converting between mailbox indices
//! and [`Square`]s (`rank * 16 + file`) goes through the table [`raw_of`] one way and a
//! shift and an add the other way.

use crate::rng::splitmix64;
use crate::types::{Color, MAX_SIDE, Piece, PieceKind, Square};

/// Cells per mailbox row: 16 files and 4 sentinel columns.
pub(crate) const STRIDE: usize = 20;
/// [`STRIDE`] as a signed direction offset.
pub(crate) const S: i32 = STRIDE as i32;
/// Mailbox index of `a1`: two sentinel rows and two cells below it, so that two
/// diagonal steps down-left of `a1` still land at index 0.
pub(crate) const PAD: usize = 2 * STRIDE + 2;
/// Mailbox cells: `PAD` on both sides of the 16 × 16 board's index range.
pub(crate) const CELLS: usize = PAD + (MAX_SIDE as usize - 1) * (STRIDE + 1) + PAD + 1;
// Effects pack a mailbox index in 9 bits.
const _: () = assert!(CELLS == 400 && CELLS <= 512 && STRIDE >= MAX_SIDE as usize + 2);

/// An empty on-board square.
pub(crate) const EMPTY: u8 = 0;
/// Off the board.
pub(crate) const OFF: u8 = 0x80;
/// Set on every piece.
pub(crate) const PIECE: u8 = 8;
/// Black piece (unset: White).
pub(crate) const BLACK: u8 = 1;
/// Dux (unset: soldier).
pub(crate) const DUX: u8 = 2;
/// Trapped (Alligatus); bits 4..6 hold the trap axis.
pub(crate) const TRAPPED: u8 = 4;
/// Mask of the identity bits (off-board bit included).
pub(crate) const ID: u8 = 0x8F;

/// The four orthogonal directions: right, left, up, down.
pub(crate) const ORTH: [i32; 4] = [1, -1, S, -S];
/// All eight directions, orthogonal first, then up-right, down-left, up-left, down-right.
pub(crate) const ALL8: [i32; 8] = [1, -1, S, -S, S + 1, -(S + 1), S - 1, -(S - 1)];
/// Trap axis meaning "held in a corner by its two neighbours".
pub(crate) const CORNER_AXIS: u8 = 4;

/// The up-right diagonal offset.
const S_PLUS_1: i32 = S + 1;

/// [`ALL8`] as changes of the raw square index (`rank * 16 + file`): one step in
/// direction `ALL8[i]` moves a square's raw index by `ALL8_RAW[i]`.
pub(crate) const ALL8_RAW: [i32; 8] = [1, -1, 16, -16, 17, -17, 15, -15];
// ORTH is the start of ALL8, so both share ALL8_RAW.
const _: () = {
    let mut i = 0;
    while i < 4 {
        assert!(ORTH[i] == ALL8[i]);
        i += 1;
    }
};

/// The trap axis (0..4) of a line direction.
#[inline]
pub(crate) fn axis_of(d: i32) -> u8 {
    match d.abs() {
        1 => 0,
        S => 1,
        S_PLUS_1 => 2,
        _ => 3,
    }
}

/// The positive offset of a line axis.
#[inline]
pub(crate) fn axis_offset(axis: u8) -> i32 {
    [1, S, S + 1, S - 1][axis as usize]
}

/// The cell value of a free piece.
#[inline]
pub(crate) fn cell_of(color: Color, kind: PieceKind) -> u8 {
    PIECE | color as u8 | if kind == PieceKind::Dux { DUX } else { 0 }
}

/// The piece a cell holds.
#[inline]
pub(crate) fn piece_of(c: u8) -> Option<Piece> {
    if c & ID & !(BLACK | DUX | TRAPPED) != PIECE {
        return None;
    }
    Some(Piece {
        color: if c & BLACK != 0 { Color::Black } else { Color::White },
        kind: if c & DUX != 0 { PieceKind::Dux } else { PieceKind::Soldier },
        trapped: c & TRAPPED != 0,
    })
}

/// The mailbox index of a square: `PAD + rank * 20 + file`.
#[inline]
pub(crate) fn mb(sq: Square) -> usize {
    mb_of_raw(sq.raw() as usize)
}

/// The mailbox index of a raw square index (`rank * 16 + file`).
#[inline(always)]
pub(crate) fn mb_of_raw(raw: usize) -> usize {
    PAD + raw + (raw >> 4) * (STRIDE - 16)
}

const fn make_raw_of() -> [u8; 512] {
    let mut t = [0u8; 512];
    let mut r = 0;
    while r < MAX_SIDE as usize {
        let mut f = 0;
        while f < MAX_SIDE as usize {
            t[PAD + r * STRIDE + f] = (r * 16 + f) as u8;
            f += 1;
        }
        r += 1;
    }
    t
}

/// `RAW_OF[m]`: the raw square index of on-board mailbox index `m` (0 elsewhere); 512
/// entries so that `m & 511` needs no bounds check.
static RAW_OF: [u8; 512] = make_raw_of();

/// The raw square index (`rank * 16 + file`) of a mailbox index on the 16 × 16 area.
#[inline(always)]
pub(crate) fn raw_of(m: usize) -> usize {
    RAW_OF[m & 511] as usize
}

/// The (file, rank) of a mailbox index on the 16 × 16 area.
#[inline(always)]
pub(crate) fn file_rank(m: usize) -> (usize, usize) {
    let raw = raw_of(m);
    (raw & 15, raw >> 4)
}

/// The square of a mailbox index (which must be on the board).
#[inline]
pub(crate) fn sq_of(m: usize) -> Square {
    Square::from_raw(RAW_OF[m & 511])
}

/// A set of squares (raw indices `rank * 16 + file`, 0..256) as four 64-bit words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SquareSet([u64; 4]);

impl SquareSet {
    #[inline]
    pub(crate) fn insert(&mut self, raw: usize) {
        self.0[raw >> 6] |= 1 << (raw & 63);
    }
    #[inline]
    pub(crate) fn contains(self, raw: usize) -> bool {
        self.0[raw >> 6] >> (raw & 63) & 1 != 0
    }
    #[inline]
    pub(crate) fn remove(&mut self, raw: usize) {
        self.0[raw >> 6] &= !(1 << (raw & 63));
    }
    /// How many squares are members.
    #[inline]
    pub(crate) fn len(self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }
    /// Mailbox indices of the members, ascending.
    #[inline]
    pub(crate) fn iter_mb(self) -> impl Iterator<Item = usize> {
        self.iter_raw().map(mb_of_raw)
    }

    /// Raw square indices (`rank * 16 + file`) of the members, ascending.
    #[inline]
    pub(crate) fn iter_raw(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, mut bits)| {
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b)
            })
        })
    }
}

const fn make_keys() -> [[u64; 8]; 256] {
    let mut t = [[0u64; 8]; 256];
    let mut s = 0;
    while s < 256 {
        let mut c = 0;
        while c < 8 {
            t[s][c] = splitmix64((s as u64) << 8 | (PIECE as u64 | c as u64));
            c += 1;
        }
        s += 1;
    }
    t
}

/// `PIECE_KEYS[raw][c & 7]`: the key of a free piece with cell value `c` (every piece
/// has the `PIECE` bit, so its low 4 bits are 8..16).
static PIECE_KEYS: [[u64; 8]; 256] = make_keys();

/// The Zobrist key of cell value `c` on raw square `raw` (0 for an empty cell).
#[inline]
pub(crate) fn zobrist(raw: usize, c: u8) -> u64 {
    if c & PIECE == 0 {
        return 0;
    }
    let k = PIECE_KEYS[raw][(c & 7) as usize];
    if c & TRAPPED != 0 { k ^ splitmix64(0x7A_0000 ^ (raw as u64) << 4 ^ (c >> 4) as u64) } else { k }
}

/// Key for Black to move.
pub(crate) const BLACK_TO_MOVE: u64 = 0xF1E2_D3C4_B5A6_9788;

/// Key for "the turn goes on with the piece on mailbox index `m`" (a ply granted by a
/// capture); 0 for no such piece. It hashes the raw square plus 48 (the mailbox index of
/// the earlier 16-wide layout), so positions hash as they did before boards grew to 16.
#[inline]
pub(crate) fn pending_key(m: usize) -> u64 {
    if m == 0 { 0 } else { splitmix64(0x50E4_0000 ^ (raw_of(m) as u64 + 48)) }
}

/// Key for `count` pieces of `kind` in `color`'s hand.
#[inline]
pub(crate) fn hand_key(color: Color, kind: PieceKind, count: u8) -> u64 {
    if count == 0 { 0 } else { splitmix64(0x4A4E_0000 ^ (color as u64) << 12 ^ (kind as u64) << 8 ^ count as u64) }
}

/// The positions a rook on position `p` (0..16) of a line reaches, given the line's
/// occupancy bits `line` (its own bit ignored; positions past the line's end must be
/// set): every empty position up to, not including, the first occupied one on each side.
/// Branch-free bit arithmetic, for lines of any length up to 16; on boards up to 12 × 12
/// the 12-bit table of [`slide_table`] is faster (experiments/engine-ab).
#[inline(always)]
pub(crate) fn slide_reach_bits(p: usize, line: u16) -> u16 {
    let bit = 1u32 << p;
    let upto = bit | (bit - 1);
    // Upwards: below the lowest occupied position above p (positions 16.. count as
    // occupied, so there is one).
    let above = (line as u32 | 0xFFFF_0000) & !upto;
    let up = ((above & above.wrapping_neg()) - 1) & !upto;
    // Downwards: above the highest occupied position below p, with a virtual blocker at
    // position -1 (bit 0 once shifted up by one).
    let below = ((line as u32) << 1 | 1) & ((bit << 1) - 1);
    let top = 31 - below.leading_zeros();
    let down = (bit - 1) & (u32::MAX << top);
    (up | down) as u16
}

/// `SLIDES[p][occ]`: the positions a rook on position `p` of a line of 12 reaches given
/// the line's occupancy bits `occ` (its own bit ignored; positions past the line's end
/// must be set in `occ`). 96 KiB, built on first use.
pub(crate) fn slide_table() -> &'static [[u16; 4096]; 12] {
    static TABLE: std::sync::OnceLock<Box<[[u16; 4096]; 12]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u16; 4096]; 12]);
        for (p, row) in t.iter_mut().enumerate() {
            for (occ, reach) in row.iter_mut().enumerate() {
                *reach = slide_reach_bits(p, occ as u16 | 0xF000);
            }
        }
        t
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reach of a rook by walking the line, for comparison.
    fn walk(p: usize, line: u16) -> u16 {
        let mut m = 0u16;
        for q in (p + 1)..16 {
            if line >> q & 1 != 0 {
                break;
            }
            m |= 1 << q;
        }
        for q in (0..p).rev() {
            if line >> q & 1 != 0 {
                break;
            }
            m |= 1 << q;
        }
        m
    }

    #[test]
    fn slide_reach_matches_a_walk_on_every_line_up_to_16() {
        for p in 0..16 {
            for line in 0..=u16::MAX {
                let want = walk(p, line);
                assert_eq!(slide_reach_bits(p, line), want, "p {p} line {line:016b}");
                if p < 12 && line >= 0xF000 {
                    assert_eq!(slide_table()[p][(line & 0xFFF) as usize], want, "p {p} line {line:016b}");
                }
            }
        }
    }

    #[test]
    fn mailbox_indices_and_squares_convert_both_ways() {
        for r in 0..MAX_SIDE {
            for f in 0..MAX_SIDE {
                let sq = Square::new(f, r).unwrap();
                let m = mb(sq);
                assert_eq!(m, PAD + r as usize * STRIDE + f as usize);
                assert_eq!(sq_of(m), sq);
                assert_eq!(file_rank(m), (f as usize, r as usize));
                // Two steps in any direction stay inside the array; one step moves the
                // raw index by ALL8_RAW.
                let file_rank_steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1), (-1, 1), (1, -1)];
                for (d, (df, dr)) in ALL8.into_iter().zip(file_rank_steps) {
                    if let Some(n) = Square::new((f as i32 + df) as u8, (r as i32 + dr) as u8)
                        && f as i32 + df >= 0
                        && r as i32 + dr >= 0
                    {
                        assert_eq!(mb(n) as i32, m as i32 + d, "{sq} {d}");
                        assert_eq!(
                            n.raw() as i32,
                            sq.raw() as i32 + ALL8_RAW[ALL8.iter().position(|&x| x == d).unwrap()],
                            "{sq} {d}"
                        );
                    }
                    let two = m as i32 + 2 * d;
                    assert!((0..CELLS as i32).contains(&two), "{sq} {d}");
                }
            }
        }
        let mut set = SquareSet::default();
        for s in ["a1", "p1", "a16", "p16", "h9"] {
            set.insert(s.parse::<Square>().unwrap().raw() as usize);
        }
        let back: Vec<String> = set.iter_mb().map(|m| sq_of(m).to_string()).collect();
        assert_eq!(back, ["a1", "p1", "h9", "a16", "p16"]);
    }
}

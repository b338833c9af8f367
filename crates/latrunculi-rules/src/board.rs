//! The mailbox board representation used by [`crate::Position`]: cell encoding,
//! direction offsets, square sets and Zobrist keys.
//!
//! Cells live in a `[u8; 288]` array: 16 columns per row (files 0..11, then sentinel
//! columns 12..15) and 18 rows (3 sentinel rows, ranks 0..11, 3 sentinel rows). A
//! square's mailbox index is its raw index (`rank * 16 + file`) plus 48, so every
//! direction is a constant offset and three steps off any edge land on a sentinel.

use crate::rng::splitmix64;
use crate::types::{Color, Piece, PieceKind, Square};

/// Mailbox cells.
pub(crate) const CELLS: usize = 288;
/// Offset from a raw square index to its mailbox index.
pub(crate) const PAD: usize = 48;

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

/// The four orthogonal directions.
pub(crate) const ORTH: [i32; 4] = [1, -1, 16, -16];
/// All eight directions, orthogonal first.
pub(crate) const ALL8: [i32; 8] = [1, -1, 16, -16, 17, -17, 15, -15];
/// Trap axis meaning "held in a corner by its two neighbours".
pub(crate) const CORNER_AXIS: u8 = 4;

/// The trap axis (0..4) of a line direction.
#[inline]
pub(crate) fn axis_of(d: i32) -> u8 {
    match d.abs() {
        1 => 0,
        16 => 1,
        17 => 2,
        _ => 3,
    }
}

/// The positive offset of a line axis.
#[inline]
pub(crate) fn axis_offset(axis: u8) -> i32 {
    [1, 16, 17, 15][axis as usize]
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

/// The mailbox index of a square.
#[inline]
pub(crate) fn mb(sq: Square) -> usize {
    sq.raw() as usize + PAD
}

/// The square of a mailbox index (which must be on the board).
#[inline]
pub(crate) fn sq_of(m: usize) -> Square {
    Square::from_raw((m - PAD) as u8)
}

/// A set of squares (raw indices 0..192) as three 64-bit words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SquareSet([u64; 3]);

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
    /// Mailbox indices of the members, ascending.
    #[inline]
    pub(crate) fn iter_mb(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(w, mut bits)| {
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let b = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                Some(w * 64 + b + PAD)
            })
        })
    }
}

const fn make_keys() -> [[u64; 16]; 192] {
    let mut t = [[0u64; 16]; 192];
    let mut s = 0;
    while s < 192 {
        let mut c = 0;
        while c < 16 {
            t[s][c] = splitmix64((s as u64) << 8 | c as u64);
            c += 1;
        }
        s += 1;
    }
    t
}

static PIECE_KEYS: [[u64; 16]; 192] = make_keys();

/// The Zobrist key of cell value `c` on raw square `raw` (0 for an empty cell).
#[inline]
pub(crate) fn zobrist(raw: usize, c: u8) -> u64 {
    if c & PIECE == 0 {
        return 0;
    }
    let k = PIECE_KEYS[raw][(c & 15) as usize];
    if c & TRAPPED != 0 { k ^ splitmix64(0x7A_0000 ^ (raw as u64) << 4 ^ (c >> 4) as u64) } else { k }
}

/// Key for Black to move.
pub(crate) const BLACK_TO_MOVE: u64 = 0xF1E2_D3C4_B5A6_9788;

/// Key for "the turn goes on with the piece on mailbox index `m`" (a ply granted by a
/// capture); 0 for no such piece.
#[inline]
pub(crate) fn pending_key(m: usize) -> u64 {
    if m == 0 { 0 } else { splitmix64(0x50E4_0000 ^ m as u64) }
}

/// Key for `count` pieces of `kind` in `color`'s hand.
#[inline]
pub(crate) fn hand_key(color: Color, kind: PieceKind, count: u8) -> u64 {
    if count == 0 { 0 } else { splitmix64(0x4A4E_0000 ^ (color as u64) << 12 ^ (kind as u64) << 8 ^ count as u64) }
}

/// `SLIDES[p][occ]`: the positions a rook on position `p` of a line of 12 reaches given
/// the line's occupancy bits `occ` (its own bit ignored; positions past the line's end
/// must be set in `occ`).
pub(crate) fn slide_table() -> &'static [[u16; 4096]; 12] {
    static TABLE: std::sync::OnceLock<Box<[[u16; 4096]; 12]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[0u16; 4096]; 12]);
        for (p, row) in t.iter_mut().enumerate() {
            for (occ, reach) in row.iter_mut().enumerate() {
                let mut m = 0u16;
                for q in (p + 1)..12 {
                    if occ >> q & 1 != 0 {
                        break;
                    }
                    m |= 1 << q;
                }
                for q in (0..p).rev() {
                    if occ >> q & 1 != 0 {
                        break;
                    }
                    m |= 1 << q;
                }
                *reach = m;
            }
        }
        t
    })
}

//! Materials (which pieces are on the board) and the index of the positions of one
//! material: each position of a material is a number `0..size`.
//!
//! The index, from the most significant part down: the square of the White Dux (if the
//! material has one), the square of the Black Dux, the set of White soldiers' squares
//! (a combination, ranked in the combinatorial number system), the set of Black
//! soldiers' squares, one trap bit per soldier (only in rulesets whose flanks trap:
//! White's soldiers in ascending square order, then Black's), and last the side to move
//! (0 White, 1 Black). Squares are dense, `rank * width + file`. Numbers whose pieces
//! share a square are not positions (they are marked invalid in the tables).

use std::fmt;
use std::str::FromStr;

use latrunculi_rules::{Color, Piece, PieceKind, Position, Setup, Square};

/// The pieces on the board: soldiers and Dux of each side (pieces in hand are never part
/// of a tablebase material). Written `WvB`, each side as `D` (a Dux) followed by its
/// soldier count, the count left out when a side has a Dux and no soldiers: `2v1`,
/// `Dv1`, `D1vD`, `1v0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Soldiers of each side (`[white, black]`), trapped or free.
    pub soldiers: [u8; 2],
    /// Whether each side has its Dux on the board.
    pub dux: [bool; 2],
}

impl Material {
    /// Pieces on the board, both sides.
    pub fn pieces(&self) -> u32 {
        (self.soldiers[0] + self.soldiers[1]) as u32 + self.dux[0] as u32 + self.dux[1] as u32
    }

    /// The material of a position (its pieces on the board).
    pub fn of(pos: &Position) -> Material {
        let mut m = Material { soldiers: [0; 2], dux: [false; 2] };
        for c in Color::ALL {
            m.soldiers[c.index()] = pos.soldiers_on_board(c) as u8;
            m.dux[c.index()] = pos.dux_square(c).is_some();
        }
        m
    }

    /// Every material with 1 to `max_pieces` pieces on the board (a Dux only when
    /// `has_dux`), fewest pieces first, then in the order of their names.
    pub fn all_up_to(max_pieces: u32, has_dux: bool) -> Vec<Material> {
        let duxes: &[bool] = if has_dux { &[false, true] } else { &[false] };
        let mut out = Vec::new();
        for &wd in duxes {
            for &bd in duxes {
                for ws in 0..=max_pieces as u8 {
                    for bs in 0..=max_pieces as u8 {
                        let m = Material { soldiers: [ws, bs], dux: [wd, bd] };
                        if (1..=max_pieces).contains(&m.pieces()) {
                            out.push(m);
                        }
                    }
                }
            }
        }
        out.sort_by_key(|m| (m.pieces(), m.to_string()));
        out
    }

    /// The same material with the colours swapped.
    pub fn swapped(&self) -> Material {
        Material { soldiers: [self.soldiers[1], self.soldiers[0]], dux: [self.dux[1], self.dux[0]] }
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |i: usize| match (self.dux[i], self.soldiers[i]) {
            (true, 0) => "D".to_string(),
            (true, n) => format!("D{n}"),
            (false, n) => n.to_string(),
        };
        write!(f, "{}v{}", side(0), side(1))
    }
}

/// A material name that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a material (write WvB with each side as D, D<n> or <n>, e.g. 2v1, Dv1, D1vD)")]
pub struct MaterialError(pub String);

impl FromStr for Material {
    type Err = MaterialError;

    fn from_str(s: &str) -> Result<Material, MaterialError> {
        let err = || MaterialError(s.to_string());
        let (w, b) = s.split_once('v').ok_or_else(err)?;
        let side = |t: &str| -> Option<(bool, u8)> {
            let (dux, rest) = match t.strip_prefix('D') {
                Some(r) => (true, r),
                None => (false, t),
            };
            if rest.is_empty() {
                return dux.then_some((true, 0));
            }
            if !rest.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            Some((dux, rest.parse().ok()?))
        };
        let (wd, ws) = side(w).ok_or_else(err)?;
        let (bd, bs) = side(b).ok_or_else(err)?;
        Ok(Material { soldiers: [ws, bs], dux: [wd, bd] })
    }
}

/// The binomial coefficient C(n, k) (small arguments: boards of at most 256 squares, few soldiers).
fn binom(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    let mut r = 1u64;
    for i in 0..k {
        r = r * (n - i) / (i + 1);
    }
    r
}

/// The index of the positions of one material on one board (see the module docs).
#[derive(Clone, Debug)]
pub struct Indexer {
    /// The material.
    pub material: Material,
    width: u8,
    height: u8,
    squares: u64,
    /// Whether each soldier carries a trap bit.
    traps: bool,
    /// `binom[n][k]` for n up to the number of squares, k up to the largest soldier count.
    binom: Vec<Vec<u64>>,
    size: u64,
}

impl Indexer {
    /// The index of `material` on a `width` × `height` board; `traps` when the
    /// ruleset's flanks trap (each soldier then has a trap bit).
    pub fn new(material: Material, width: u8, height: u8, traps: bool) -> Indexer {
        let squares = width as u64 * height as u64;
        let kmax = material.soldiers[0].max(material.soldiers[1]) as u64;
        let binom = (0..=squares).map(|n| (0..=kmax).map(|k| binom(n, k)).collect()).collect::<Vec<Vec<u64>>>();
        let traps = traps && material.soldiers.iter().any(|&s| s > 0);
        let mut size = 2u64;
        if traps {
            size <<= material.soldiers[0] + material.soldiers[1];
        }
        size *= binom[squares as usize][material.soldiers[0] as usize];
        size *= binom[squares as usize][material.soldiers[1] as usize];
        for d in material.dux {
            if d {
                size *= squares;
            }
        }
        Indexer { material, width, height, squares, traps, binom, size }
    }

    /// Numbers in the index (both sides to move), invalid ones included.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn trap_bits(&self) -> u32 {
        if self.traps { (self.material.soldiers[0] + self.material.soldiers[1]) as u32 } else { 0 }
    }

    fn unrank_comb(&self, mut r: u64, k: usize, out: &mut Vec<u64>) {
        let start = out.len();
        let mut hi = self.squares;
        for i in (1..=k).rev() {
            // The largest s < hi with C(s, i) <= r.
            let mut s = hi - 1;
            while self.binom[s as usize][i] > r {
                s -= 1;
            }
            r -= self.binom[s as usize][i];
            out.push(s);
            hi = s;
        }
        out[start..].reverse();
    }

    fn square(&self, dense: u64) -> Square {
        Square::new((dense % self.width as u64) as u8, (dense / self.width as u64) as u8).expect("on the board")
    }

    /// The position numbered `index` as a [`Setup`] (no pieces in hand, counters zero),
    /// or `None` when two pieces share a square or `index` is past the end.
    pub fn setup(&self, index: u64) -> Option<Setup> {
        if index >= self.size {
            return None;
        }
        let m = &self.material;
        let mut i = index;
        let turn = if i.is_multiple_of(2) { Color::White } else { Color::Black };
        i /= 2;
        let tb = self.trap_bits();
        let traps = i & ((1u64 << tb) - 1);
        i >>= tb;
        let cb = self.binom[self.squares as usize][m.soldiers[1] as usize];
        let black = i % cb;
        i /= cb;
        let cw = self.binom[self.squares as usize][m.soldiers[0] as usize];
        let white = i % cw;
        i /= cw;
        let mut dux = [None, None];
        if m.dux[1] {
            dux[1] = Some(i % self.squares);
            i /= self.squares;
        }
        if m.dux[0] {
            dux[0] = Some(i % self.squares);
        }
        let mut soldiers = Vec::with_capacity(16);
        self.unrank_comb(white, m.soldiers[0] as usize, &mut soldiers);
        self.unrank_comb(black, m.soldiers[1] as usize, &mut soldiers);
        let mut setup = Setup::empty(self.width, self.height);
        setup.turn = turn;
        let mut put = |sq: u64, piece: Piece| {
            let sq = self.square(sq);
            if setup.piece_at(sq).is_some() {
                return false;
            }
            setup.set(sq, Some(piece));
            true
        };
        for c in Color::ALL {
            if let Some(d) = dux[c.index()]
                && !put(d, Piece::new(c, PieceKind::Dux))
            {
                return None;
            }
        }
        for (n, &s) in soldiers.iter().enumerate() {
            let color = if n < m.soldiers[0] as usize { Color::White } else { Color::Black };
            let trapped = self.traps && (traps >> n) & 1 == 1;
            if !put(s, Piece { color, kind: PieceKind::Soldier, trapped }) {
                return None;
            }
        }
        Some(setup)
    }

    /// The number of a position of this material (its pieces on the board and side to
    /// move; hands, counters and a pending piece play no part), or `None` when the
    /// position's material or board is not this index's.
    pub fn index_of(&self, pos: &Position) -> Option<u64> {
        let rules = pos.rules();
        if (rules.width, rules.height) != (self.width, self.height) || Material::of(pos) != self.material {
            return None;
        }
        // Squares come in ascending order (rank, then file), so each side's soldiers
        // are ranked as they come: the i-th (0-based) adds C(square, i + 1).
        let mut dux = [0u64; 2];
        let mut comb = [0u64; 2];
        let mut traps = 0u64;
        let mut trap_bit = 0;
        for c in Color::ALL {
            let mut k = 0usize;
            for sq in pos.squares_of(c) {
                let p = pos.piece_at(sq)?;
                let d = sq.dense(self.width) as u64;
                match p.kind {
                    PieceKind::Dux => dux[c.index()] = d,
                    PieceKind::Soldier => {
                        k += 1;
                        comb[c.index()] += self.binom[d as usize][k];
                        if p.trapped {
                            if !self.traps {
                                return None;
                            }
                            traps |= 1 << (trap_bit + k - 1);
                        }
                    }
                }
            }
            trap_bit += k;
        }
        let mut i = 0u64;
        for (&has, &sq) in self.material.dux.iter().zip(&dux) {
            if has {
                i = i * self.squares + sq;
            }
        }
        for (c, &r) in comb.iter().enumerate() {
            i = i * self.binom[self.squares as usize][self.material.soldiers[c] as usize] + r;
        }
        i = (i << self.trap_bits()) | traps;
        Some(i * 2 + pos.side_to_move().index() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::Ruleset;

    #[test]
    fn material_names_round_trip() {
        for (text, m) in [
            ("2v1", Material { soldiers: [2, 1], dux: [false, false] }),
            ("Dv1", Material { soldiers: [0, 1], dux: [true, false] }),
            ("D1vD", Material { soldiers: [1, 0], dux: [true, true] }),
            ("1v0", Material { soldiers: [1, 0], dux: [false, false] }),
        ] {
            assert_eq!(m.to_string(), text);
            assert_eq!(text.parse::<Material>().unwrap(), m);
        }
        for bad in ["", "2", "2v", "vD", "Dxv1", "2v1x", "D-1v1"] {
            assert!(bad.parse::<Material>().is_err(), "{bad}");
        }
    }

    #[test]
    fn materials_by_size() {
        let all = Material::all_up_to(2, true);
        assert_eq!(all.iter().filter(|m| m.pieces() == 1).count(), 4); // 1v0 0v1 Dv0 0vD
        assert!(all.windows(2).all(|w| w[0].pieces() <= w[1].pieces()));
        assert_eq!(Material::all_up_to(3, false).len(), 2 + 3 + 4);
    }

    #[test]
    fn index_round_trips_through_positions() {
        for (id, traps) in [("kowalski", false), ("schadler", true)] {
            let rs = Ruleset::builtin(id).unwrap();
            let m = if traps {
                Material { soldiers: [2, 1], dux: [false, false] }
            } else {
                Material { soldiers: [1, 1], dux: [true, false] }
            };
            let ix = Indexer::new(m, rs.width, rs.height, traps);
            let mut valid = 0;
            for i in (0..ix.size()).step_by(7) {
                let Some(setup) = ix.setup(i) else { continue };
                let Ok(pos) = latrunculi_rules::Position::from_setup(&rs, &setup) else { continue };
                if pos.side_to_move() != setup.turn {
                    continue;
                }
                valid += 1;
                assert_eq!(ix.index_of(&pos), Some(i), "{}", setup.to_fen());
            }
            assert!(valid > 1000, "{id}: {valid}");
        }
    }
}

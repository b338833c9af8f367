//! Where each action's logit lives in the network's policy output.
//!
//! Two policy heads exist (see [`crate::model`]):
//!
//! - **dense** (the first networks): a `Linear` layer with one output per action of the
//!   simulator's encoding, so logit `a` is output `a` (relative frame);
//! - **spatial** (AlphaZero-chess style): a convolution writes `P` planes of `H × W`
//!   logits. A movement from square `s` by the displacement `(dx, dy)` is read at plane
//!   `plane(dx, dy)`, square `s`; the last three planes hold "place a soldier", "place
//!   the Dux" and "remove the trapped piece" at the target square. Squares are in the
//!   observation's (relative) frame, so the same weights serve both colours and every
//!   square.
//!
//! The displacement planes are every `(dx, dy) ≠ (0, 0)` that fits the board and lies
//! on a rank, a file or a diagonal (slides and single hops), or has both coordinates
//! even (the ends of hop chains, whose every hop covers two squares). No ruleset has a
//! move with another displacement; [`PolicyMap::logit`] returns `None` for one.

use latrunculi_sim::ActionSpace;

/// Which policy head a network has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeadKind {
    /// One `Linear` output per action.
    Dense,
    /// Convolutional planes per displacement, plus place and remove planes.
    Spatial,
}

/// The map from relative actions to logit indices of one board size and head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicyMap {
    kind: HeadKind,
    /// `index[a]`: the logit of relative action `a`, `u32::MAX` if it has none.
    index: Vec<u32>,
    /// Number of policy outputs.
    outputs: usize,
}

/// Place/remove planes after the displacement planes.
pub const EXTRA_PLANES: usize = 3;

/// The displacements of the spatial head's movement planes on a `width × height` board,
/// in plane order (see the module docs).
pub fn displacements(width: usize, height: usize) -> Vec<(i32, i32)> {
    let (w, h) = (width as i32, height as i32);
    let mut out = Vec::new();
    for dy in -(h - 1)..=(h - 1) {
        for dx in -(w - 1)..=(w - 1) {
            let on_line = dx == 0 || dy == 0 || dx.abs() == dy.abs();
            let hop_chain_end = dx % 2 == 0 && dy % 2 == 0;
            if (dx, dy) != (0, 0) && (on_line || hop_chain_end) {
                out.push((dx, dy));
            }
        }
    }
    out
}

/// Planes of the spatial head on a `width × height` board.
pub fn spatial_planes(width: usize, height: usize) -> usize {
    displacements(width, height).len() + EXTRA_PLANES
}

impl PolicyMap {
    /// The identity map of the dense head.
    pub fn dense(space: ActionSpace) -> PolicyMap {
        let n = space.size();
        PolicyMap { kind: HeadKind::Dense, index: (0..n as u32).collect(), outputs: n }
    }

    /// The map of the spatial head (see the module docs).
    pub fn spatial(space: ActionSpace) -> PolicyMap {
        let (w, h) = (space.width as usize, space.height as usize);
        let n = w * h;
        let disp = displacements(w, h);
        let span = 2 * w - 1;
        // plane_of[(dy + h - 1) * span + (dx + w - 1)]
        let mut plane_of = vec![u32::MAX; (2 * h - 1) * span];
        for (p, &(dx, dy)) in disp.iter().enumerate() {
            plane_of[(dy + h as i32 - 1) as usize * span + (dx + w as i32 - 1) as usize] = p as u32;
        }
        let moves = disp.len();
        let mut index = vec![u32::MAX; space.size()];
        for (a, slot) in index.iter_mut().enumerate() {
            *slot = if a < n * n {
                let (from, to) = (a / n, a % n);
                let dx = (to % w) as i32 - (from % w) as i32;
                let dy = (to / w) as i32 - (from / w) as i32;
                let p = plane_of[(dy + h as i32 - 1) as usize * span + (dx + w as i32 - 1) as usize];
                if p == u32::MAX { u32::MAX } else { p * n as u32 + from as u32 }
            } else {
                let k = (a - n * n) / n;
                let sq = (a - n * n) % n;
                ((moves + k) * n + sq) as u32
            };
        }
        PolicyMap { kind: HeadKind::Spatial, index, outputs: (moves + EXTRA_PLANES) * n }
    }

    /// The map of a head of `kind`.
    pub fn new(kind: HeadKind, space: ActionSpace) -> PolicyMap {
        match kind {
            HeadKind::Dense => PolicyMap::dense(space),
            HeadKind::Spatial => PolicyMap::spatial(space),
        }
    }

    /// The head this map is for.
    pub fn kind(&self) -> HeadKind {
        self.kind
    }

    /// Number of policy outputs of the network.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The logit index of relative action `a`, `None` if no legal move can use it.
    #[inline]
    pub fn logit(&self, a: usize) -> Option<usize> {
        match self.index.get(a) {
            Some(&i) if i != u32::MAX => Some(i as usize),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::{Move, PieceKind, Square};

    #[test]
    fn spatial_indices_are_distinct_and_in_range() {
        for (w, h) in [(3, 3), (8, 8), (10, 8), (12, 8), (12, 12), (5, 11), (16, 11), (16, 16)] {
            let space = ActionSpace::new(w, h).unwrap();
            let map = PolicyMap::spatial(space);
            assert_eq!(map.outputs(), spatial_planes(w as usize, h as usize) * w as usize * h as usize);
            let mut seen = vec![false; map.outputs()];
            for a in 0..space.size() {
                if let Some(i) = map.logit(a) {
                    assert!(i < map.outputs());
                    assert!(!seen[i], "{w}x{h}: logit {i} used twice");
                    seen[i] = true;
                }
            }
        }
    }

    #[test]
    fn a_hand_computed_layout() {
        let space = ActionSpace::new(4, 3).unwrap();
        let map = PolicyMap::spatial(space);
        let disp = displacements(4, 3);
        let n = 12;
        let sq = |f, r| Square::new(f, r).unwrap();
        // b1 -> b3: displacement (0, 2) read at b1 (square 1).
        let p = disp.iter().position(|&d| d == (0, 2)).unwrap();
        assert_eq!(map.logit(space.encode(Move::movement(sq(1, 0), sq(1, 2)))), Some(p * n + 1));
        // a knight's jump has no plane; a hop-chain end (2, 2) and (2, -2) do.
        assert_eq!(map.logit(space.encode(Move::movement(sq(0, 0), sq(1, 2)))), None);
        assert!(disp.contains(&(2, 2)) && disp.contains(&(-2, 2)) && !disp.contains(&(1, 2)));
        // from = to is never a move.
        assert_eq!(map.logit(space.encode(Move::movement(sq(2, 1), sq(2, 1)))), None);
        // Placement and removal planes follow the movement planes.
        let m = disp.len();
        assert_eq!(map.logit(space.encode(Move::place(PieceKind::Soldier, sq(3, 2)))), Some(m * n + 11));
        assert_eq!(map.logit(space.encode(Move::place(PieceKind::Dux, sq(0, 0)))), Some((m + 1) * n));
        assert_eq!(map.logit(space.encode(Move::remove(sq(1, 0)))), Some((m + 2) * n + 1));
        let dense = PolicyMap::dense(space);
        assert_eq!(dense.logit(17), Some(17));
        assert_eq!(dense.outputs(), space.size());
    }
}

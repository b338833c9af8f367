//! The fixed action encoding of one board size.
//!
//! A board of `W` files and `H` ranks has `N = W * H` squares, numbered densely
//! `rank * W + file` (0-based, `a1` = 0, `b1` = 1, …; the same as
//! [`Square::dense`]). Every ply of every ruleset on that board maps to one index in
//! `0..A` with `A = N * N + 3 * N`:
//!
//! | range                  | meaning                                              | index of                  |
//! |------------------------|------------------------------------------------------|---------------------------|
//! | `0 .. N*N`             | move a piece from square `f` to square `t`            | `f * N + t`               |
//! | `N*N .. N*N+N`         | place a soldier from hand on square `s`               | `N*N + s`                 |
//! | `N*N+N .. N*N+2N`      | place the Dux from hand on square `s`                 | `N*N + N + s`             |
//! | `N*N+2N .. N*N+3N`     | remove the trapped enemy piece on square `s`          | `N*N + 2N + s`            |
//!
//! A movement is identified by its two ends only (docs/rules.md: two hop chains with the
//! same ends are the same move), so the encoding is a bijection between moves and the
//! indices they use. Indices `f * N + f` (from = to) never name a legal move.
//!
//! Actions are always in the **absolute** board frame (White's `a1` is square 0),
//! whichever side is to move — even though observations are flipped for Black (see
//! [`crate::observation`]). A policy network that wants a side-relative action head
//! must map ranks `r → H-1-r` itself when Black is to move.

use latrunculi_rules::{Move, MoveKind, PieceKind, Rules, Square};

use crate::SimError;

/// The action encoding of a `width × height` board (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ActionSpace {
    /// Files of the board.
    pub width: u8,
    /// Ranks of the board.
    pub height: u8,
}

impl ActionSpace {
    /// The action space of a `width × height` board; both sides must be in `1..=16`
    /// ([`MAX_SIDE`](latrunculi_rules::types::MAX_SIDE)).
    pub fn new(width: u8, height: u8) -> Result<ActionSpace, SimError> {
        if width == 0
            || height == 0
            || width > latrunculi_rules::types::MAX_SIDE
            || height > latrunculi_rules::types::MAX_SIDE
        {
            return Err(SimError::BoardSize { width, height });
        }
        Ok(ActionSpace { width, height })
    }

    /// The action space of the board of a ruleset's parameters.
    pub fn for_rules(rules: &Rules) -> ActionSpace {
        ActionSpace { width: rules.width, height: rules.height }
    }

    /// Squares on the board, `N = width * height`.
    #[inline]
    pub fn squares(&self) -> usize {
        self.width as usize * self.height as usize
    }

    /// Number of actions, `N * N + 3 * N`.
    #[inline]
    pub fn size(&self) -> usize {
        let n = self.squares();
        n * n + 3 * n
    }

    /// The dense index of a square on this board.
    #[inline]
    fn dense(&self, sq: Square) -> usize {
        sq.dense(self.width)
    }

    /// The square of a dense index (`idx < N`).
    #[inline]
    fn square(&self, idx: usize) -> Option<Square> {
        let w = self.width as usize;
        Square::new((idx % w) as u8, (idx / w) as u8)
    }

    /// Whether a square lies on this board.
    #[inline]
    fn on_board(&self, sq: Square) -> bool {
        sq.file() < self.width && sq.rank() < self.height
    }

    /// The action index of a move. The move's squares must lie on this board (every
    /// move the engine generates for a position of this board size does); use
    /// [`ActionSpace::try_encode`] for moves from elsewhere.
    #[inline]
    pub fn encode(&self, mv: Move) -> usize {
        debug_assert!(
            self.on_board(mv.from) && self.on_board(mv.to),
            "move {mv:?} is off a {}x{} board",
            self.width,
            self.height
        );
        let n = self.squares();
        match mv.kind {
            MoveKind::Move => self.dense(mv.from) * n + self.dense(mv.to),
            MoveKind::Place(PieceKind::Soldier) => n * n + self.dense(mv.to),
            MoveKind::Place(PieceKind::Dux) => n * n + n + self.dense(mv.to),
            MoveKind::Remove => n * n + 2 * n + self.dense(mv.to),
        }
    }

    /// The action index of a move, or `None` if one of its squares is off this board.
    pub fn try_encode(&self, mv: Move) -> Option<usize> {
        (self.on_board(mv.from) && self.on_board(mv.to)).then(|| self.encode(mv))
    }

    /// The move of an action index; an error if the index is not below [`ActionSpace::size`].
    pub fn decode(&self, action: usize) -> Result<Move, SimError> {
        let n = self.squares();
        let out_of_range = || SimError::ActionOutOfRange { action, size: self.size() };
        let sq = |i: usize| self.square(i).ok_or_else(out_of_range);
        if action < n * n {
            Ok(Move::movement(sq(action / n)?, sq(action % n)?))
        } else if action < n * n + n {
            Ok(Move::place(PieceKind::Soldier, sq(action - n * n)?))
        } else if action < n * n + 2 * n {
            Ok(Move::place(PieceKind::Dux, sq(action - n * n - n)?))
        } else if action < n * n + 3 * n {
            Ok(Move::remove(sq(action - n * n - 2 * n)?))
        } else {
            Err(out_of_range())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_index_decodes_and_re_encodes() {
        for (w, h) in [(3, 3), (8, 8), (12, 9), (12, 12), (16, 11), (16, 16)] {
            let space = ActionSpace::new(w, h).unwrap();
            for a in 0..space.size() {
                let mv = space.decode(a).unwrap();
                assert_eq!(space.encode(mv), a, "{w}x{h} action {a} ({mv:?})");
            }
            assert!(matches!(space.decode(space.size()), Err(SimError::ActionOutOfRange { .. })));
        }
        assert_eq!(ActionSpace::new(16, 16).unwrap().size(), 256 * 256 + 3 * 256);
        assert_eq!(ActionSpace::new(16, 11).unwrap().size(), 176 * 176 + 3 * 176);
        let e = ActionSpace::new(17, 8).unwrap_err().to_string();
        assert!(e.contains("17x8") && e.contains("1 to 16"), "{e}");
        assert!(ActionSpace::new(8, 17).is_err());
        assert!(ActionSpace::new(0, 8).is_err());
    }

    #[test]
    fn layout_is_as_documented() {
        let space = ActionSpace::new(8, 7).unwrap();
        let n = 56;
        let sq = |s: &str| s.parse::<Square>().unwrap();
        assert_eq!(space.size(), n * n + 3 * n);
        assert_eq!(space.encode(Move::movement(sq("b1"), sq("a2"))), n + 8);
        assert_eq!(space.encode(Move::place(PieceKind::Soldier, sq("a1"))), n * n);
        assert_eq!(space.encode(Move::place(PieceKind::Dux, sq("h7"))), n * n + 2 * n - 1);
        assert_eq!(space.encode(Move::remove(sq("c1"))), n * n + 2 * n + 2);
        assert_eq!(space.try_encode(Move::remove(sq("i1"))), None);
        // The far corner of a 16-wide board: p11 is the last square of 16 x 11.
        let wide = ActionSpace::new(16, 11).unwrap();
        let n = 176;
        assert_eq!(wide.encode(Move::movement(sq("p11"), sq("a1"))), (n - 1) * n);
        assert_eq!(wide.encode(Move::remove(sq("p11"))), n * n + 3 * n - 1);
        assert_eq!(wide.decode(n * n + n - 1).unwrap(), Move::place(PieceKind::Soldier, sq("p11")));
        assert_eq!(wide.try_encode(Move::remove(sq("p12"))), None);
    }
}

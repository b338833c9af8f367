//! The network's action frame, and the left–right mirror used for augmentation.
//!
//! The simulator's actions ([`ActionSpace`]) are in the absolute board frame, while its
//! observations are flipped for Black so that the side to move always advances towards
//! higher rows. The network's policy head uses the observation's frame: a **relative**
//! action is the absolute action with every square's rank `r` replaced by `H - 1 - r`
//! when Black is to move (and unchanged for White). Both maps are involutions, kept as
//! lookup tables.

use latrunculi_rules::Color;
use latrunculi_sim::ActionSpace;

/// Lookup tables between absolute actions, relative (network) actions and their mirrors.
#[derive(Clone, Debug)]
pub struct ActionFrame {
    space: ActionSpace,
    /// `rank_flip[a]`: action `a` with every square's rank flipped.
    rank_flip: Vec<u32>,
    /// `file_flip[a]`: action `a` with every square's file flipped (left–right mirror).
    file_flip: Vec<u32>,
}

impl ActionFrame {
    /// The tables of one board size.
    pub fn new(space: ActionSpace) -> ActionFrame {
        let (w, h) = (space.width as usize, space.height as usize);
        let n = w * h;
        let flip_rank = |s: usize| (h - 1 - s / w) * w + s % w;
        let flip_file = |s: usize| (s / w) * w + (w - 1 - s % w);
        let table = |f: &dyn Fn(usize) -> usize| -> Vec<u32> {
            (0..space.size())
                .map(|a| {
                    let b = if a < n * n {
                        f(a / n) * n + f(a % n)
                    } else {
                        let base = n * n + ((a - n * n) / n) * n;
                        base + f((a - n * n) % n)
                    };
                    b as u32
                })
                .collect()
        };
        ActionFrame { space, rank_flip: table(&flip_rank), file_flip: table(&flip_file) }
    }

    /// The action space these tables are for.
    pub fn space(&self) -> ActionSpace {
        self.space
    }

    /// Number of actions.
    pub fn size(&self) -> usize {
        self.rank_flip.len()
    }

    /// The relative action of absolute action `a` with `to_move` to move (and back: the
    /// map is its own inverse).
    #[inline]
    pub fn relative(&self, a: usize, to_move: Color) -> usize {
        match to_move {
            Color::White => a,
            Color::Black => self.rank_flip[a] as usize,
        }
    }

    /// The left–right mirror of an action (in either frame).
    #[inline]
    pub fn mirror(&self, a: usize) -> usize {
        self.file_flip[a] as usize
    }
}

/// Mirrors observations `[.., W]` (rows of `width` values, e.g. `[planes, H, W]`)
/// left–right, in place: every row's files are reversed.
pub fn mirror_observation(obs: &mut [f32], width: usize) {
    debug_assert_eq!(obs.len() % width, 0);
    for row in obs.chunks_exact_mut(width) {
        row.reverse();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::{Move, PieceKind, Square};

    #[test]
    fn tables_are_involutions_and_flip_the_right_coordinate() {
        let space = ActionSpace::new(5, 3).unwrap();
        let frame = ActionFrame::new(space);
        for a in 0..space.size() {
            assert_eq!(frame.relative(frame.relative(a, Color::Black), Color::Black), a);
            assert_eq!(frame.mirror(frame.mirror(a)), a);
            assert_eq!(frame.relative(a, Color::White), a);
        }
        let sq = |f, r| Square::new(f, r).unwrap();
        let mv = space.encode(Move::movement(sq(0, 0), sq(0, 2)));
        assert_eq!(frame.relative(mv, Color::Black), space.encode(Move::movement(sq(0, 2), sq(0, 0))));
        assert_eq!(frame.mirror(mv), space.encode(Move::movement(sq(4, 0), sq(4, 2))));
        let place = space.encode(Move::place(PieceKind::Dux, sq(1, 0)));
        assert_eq!(frame.relative(place, Color::Black), space.encode(Move::place(PieceKind::Dux, sq(1, 2))));
        assert_eq!(frame.mirror(place), space.encode(Move::place(PieceKind::Dux, sq(3, 0))));
        let remove = space.encode(Move::remove(sq(2, 1)));
        assert_eq!(frame.mirror(remove), remove);
    }

    #[test]
    fn mirror_observation_reverses_files() {
        let mut obs: Vec<f32> = (0..2 * 2 * 3).map(|x| x as f32).collect();
        mirror_observation(&mut obs, 3);
        assert_eq!(obs, vec![2., 1., 0., 5., 4., 3., 8., 7., 6., 11., 10., 9.]);
    }
}

//! Game values: win, draw or loss for the side to move, with a distance in plies, and
//! the integer scores the solver orders them by.

use std::fmt;

use latrunculi_rules::{Color, Outcome};

/// Win, draw or loss for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// A score: `WIN - d` for a win in `d` plies, `-(WIN - d)` for a loss in `d` plies, 0
/// for a draw. Higher is better for the side to move.
pub(crate) type Score = i32;

/// The score of a win in 0 plies.
pub(crate) const WIN: Score = 1 << 20;

/// The score of a win (`Wdl::Win`) or loss in `d` plies, or a draw.
pub(crate) fn score(wdl: Wdl, d: u32) -> Score {
    match wdl {
        Wdl::Win => WIN - d as Score,
        Wdl::Loss => -(WIN - d as Score),
        Wdl::Draw => 0,
    }
}

/// The outcome and distance of a score.
pub(crate) fn split(s: Score) -> (Wdl, u32) {
    match s {
        0 => (Wdl::Draw, 0),
        s if s > 0 => (Wdl::Win, (WIN - s) as u32),
        s => (Wdl::Loss, (WIN + s) as u32),
    }
}

/// The score, for the side that played a ply, of a position reached by it whose score
/// for its own side to move is `child`; `same_mover` when the ply left the turn with the
/// player who made it (a granted further ply, a removal that lets the remover move on, or
/// the opponent's pass). One ply further from the end.
#[inline]
pub(crate) fn back(child: Score, same_mover: bool) -> Score {
    let s = if same_mover { child } else { -child };
    match s {
        0 => 0,
        s if s > 0 => s - 1,
        s => s + 1,
    }
}

/// The score of a finished game for `to_move`: a win or loss in 0 plies, or a draw.
pub(crate) fn terminal(o: Outcome, to_move: Color) -> Score {
    match o.winner {
        None => 0,
        Some(c) if c == to_move => WIN,
        Some(_) => -WIN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_move_one_ply_back() {
        assert_eq!(split(back(score(Wdl::Loss, 0), false)), (Wdl::Win, 1));
        assert_eq!(split(back(score(Wdl::Win, 3), false)), (Wdl::Loss, 4));
        assert_eq!(split(back(score(Wdl::Win, 3), true)), (Wdl::Win, 4));
        assert_eq!(split(back(0, false)), (Wdl::Draw, 0));
        assert!(score(Wdl::Win, 1) > score(Wdl::Win, 5));
        assert!(score(Wdl::Loss, 9) > score(Wdl::Loss, 2));
    }
}

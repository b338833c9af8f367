//! Evaluation helpers shared by the agents: material and game results from one side's
//! point of view.

use latrunculi_rules::{Color, Position};

/// Material of a side: its pieces on the board (trapped ones included) plus its pieces
/// in hand (soldiers and Dux).
pub fn material(pos: &Position, color: Color) -> i32 {
    let (s, d) = pos.in_hand(color);
    pos.pieces_on_board(color) as i32 + s as i32 + d as i32
}

/// `material(color) - material(opponent)`.
pub fn material_diff(pos: &Position, color: Color) -> i32 {
    material(pos, color) - material(pos, color.opponent())
}

/// The result of a finished game for `color`: +1 win, -1 loss, 0 draw; `None` while the
/// game goes on.
pub fn result_for(pos: &Position, color: Color) -> Option<f64> {
    pos.outcome().map(|o| match o.winner {
        Some(w) if w == color => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    })
}

/// A material difference mapped to `(-1, 1)`: `tanh(diff / 4)`.
pub fn squash(diff: i32) -> f64 {
    (diff as f64 / 4.0).tanh()
}

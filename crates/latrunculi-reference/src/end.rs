//! The end of the game: the ordered end checks after a ply, no legal ply, passing when
//! stuck, the ply cap and the material count (SEMANTICS.md, end of the game).

use super::*;

impl RefGame {
    /// The ordered end checks of SEMANTICS.md after a movement or removal ply by
    /// `mover` (the game state already updated).
    pub(crate) fn end_of_game(&self, mover: Color, r: &PlyResult) -> Option<Outcome> {
        let end = self.rules.end;
        let enemy = mover.opponent();
        let win = |c: Color, reason| Some(Outcome { winner: Some(c), reason });

        // 1. Dux captured.
        if r.enemy_dux_captured && end.win_by_dux_capture {
            return win(mover, Reason::DuxCaptured);
        }
        // 2. Immobilisation.
        if end.dux_immobilized != Immobilization::Off {
            let immobilised =
                |c: Color| self.board.dux_of(c).is_some_and(|d| dux_immobilised(&self.board, d, end.dux_immobilized));
            let own_loses = end.self_immobilization == SelfImmobilization::Loses && immobilised(mover);
            if immobilised(enemy) {
                let mover_wins = !own_loses || end.both_immobilized_mover_wins;
                return win(if mover_wins { mover } else { enemy }, Reason::Immobilized);
            }
            if own_loses {
                return win(enemy, Reason::Immobilized);
            }
        }
        // 3. (stalemate_before_bare) "no legal ply" here instead of at step 7.
        if end.stalemate_before_bare
            && let Some(o) = self.no_legal_ply_outcome()
        {
            return Some(o);
        }
        // 4. Bare / annihilated.
        if end.lose_at_soldiers >= 0 {
            let (in_hand, duxes_in_hand) = self.hand[enemy.index()];
            let left = if end.bare_counts_dux {
                self.board.count_pieces(enemy) + in_hand as u32 + duxes_in_hand as u32
            } else {
                self.board.count_soldiers(enemy) + in_hand as u32
            };
            if left as i64 <= end.lose_at_soldiers as i64 {
                return win(mover, if self.rules.has_dux { Reason::Bare } else { Reason::Annihilated });
            }
        }
        // 5. Repetition.
        if matches!(end.repetition, Repetition::Draw | Repetition::MoverLoses) {
            let now = self.snapshot();
            let occurrences = self.history.iter().filter(|s| **s == now).count() as u32;
            if occurrences >= end.repetition_count {
                return match end.repetition {
                    Repetition::Draw => Some(Outcome { winner: None, reason: Reason::Repetition }),
                    _ => win(enemy, Reason::Repetition),
                };
            }
        }
        // 6. No-capture limit.
        if end.no_capture_limit > 0 && self.quiet_plies >= end.no_capture_limit {
            return Some(match end.no_capture_result {
                LimitResult::Draw => Outcome { winner: None, reason: Reason::NoCaptureLimit },
                LimitResult::Material => self.material_outcome(Reason::NoCaptureLimit),
            });
        }
        // 7. No legal ply for the side to move.
        if !end.stalemate_before_bare
            && let Some(o) = self.no_legal_ply_outcome()
        {
            return Some(o);
        }
        // 8. Ply cap.
        self.ply_cap_outcome()
    }

    /// Step 7: the side to move has no legal ply.
    pub(crate) fn no_legal_ply_outcome(&self) -> Option<Outcome> {
        if !self.legal_candidates().is_empty() {
            return None;
        }
        Some(match self.rules.end.no_moves {
            NoMoves::Loses => Outcome { winner: Some(self.side.opponent()), reason: Reason::Stalemate },
            NoMoves::Material => self.material_outcome(Reason::Stalemate),
            NoMoves::Pass => {
                let mut other = self.clone();
                other.side = self.side.opponent();
                other.pending = None;
                if other.legal_candidates().is_empty() {
                    Outcome { winner: None, reason: Reason::Stalemate }
                } else {
                    return None;
                }
            }
        })
    }

    /// `no_moves = "pass"`: a side to move with no legal ply in a game that goes on hands
    /// the turn to the other side; that position replaces the last one in the history.
    pub(crate) fn pass_if_stuck(&mut self) {
        if self.outcome.is_some() || self.rules.end.no_moves != NoMoves::Pass || !self.legal_candidates().is_empty() {
            return;
        }
        self.pass_turn();
    }

    /// Hands the turn to the other side without a ply (a stuck side's pass, or a
    /// granted ply the capturing piece cannot make); that position, with no pending
    /// piece, replaces the current one in the history.
    pub(crate) fn pass_turn(&mut self) {
        if self.history.last() == Some(&self.snapshot()) {
            self.history.pop();
        }
        self.pending = None;
        self.side = self.side.opponent();
        self.history.push(self.snapshot());
    }

    /// Step 8: the ply cap.
    pub(crate) fn ply_cap_outcome(&self) -> Option<Outcome> {
        (self.plies >= self.ply_cap).then_some(Outcome { winner: None, reason: Reason::PlyCap })
    }

    /// More pieces (on the board plus in hand) wins by `material`; equal is a draw for
    /// `reason_if_equal`. With `adjudication = "draw"` every count is that draw.
    pub(crate) fn material_outcome(&self, reason_if_equal: Reason) -> Outcome {
        if self.rules.end.adjudication == Adjudication::Draw {
            return Outcome { winner: None, reason: reason_if_equal };
        }
        let count = |c: Color| {
            let (s, d) = self.hand[c.index()];
            self.board.count_pieces(c) + s as u32 + d as u32
        };
        let (w, b) = (count(Color::White), count(Color::Black));
        if w > b {
            Outcome { winner: Some(Color::White), reason: Reason::Material }
        } else if b > w {
            Outcome { winner: Some(Color::Black), reason: Reason::Material }
        } else {
            match self.rules.end.material_tie {
                MaterialTie::Draw => Outcome { winner: None, reason: reason_if_equal },
                MaterialTie::White => Outcome { winner: Some(Color::White), reason: Reason::Material },
                MaterialTie::Black => Outcome { winner: Some(Color::Black), reason: Reason::Material },
            }
        }
    }
}

//! Game end: the ordered end checks of SEMANTICS.md after each ply, material counts,
//! and the pass of a side without a legal ply.

use super::*;

impl Position {
    // ----- results -----

    /// The piece count of `no_capture_result` or `no_moves` = `material`; `equal_reason`
    /// is the reason of the rule that called for it, which a draw carries. With
    /// `adjudication = "draw"` no count is made: a draw.
    pub(super) fn material_outcome(&self, equal_reason: Reason) -> Outcome {
        if self.rules.end.adjudication == Adjudication::Draw {
            return Outcome { winner: None, reason: equal_reason };
        }
        let total = |c: usize| self.pieces[c] as u32 + self.hand[c][0] as u32 + self.hand[c][1] as u32;
        let (w, b) = (total(0), total(1));
        let winner = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Color::White),
            std::cmp::Ordering::Less => Some(Color::Black),
            std::cmp::Ordering::Equal => match self.rules.end.material_tie {
                MaterialTie::Draw => None,
                MaterialTie::White => Some(Color::White),
                MaterialTie::Black => Some(Color::Black),
            },
        };
        Outcome { winner, reason: if winner.is_some() { Reason::Material } else { equal_reason } }
    }

    pub(super) fn dux_immobilized(&self, color: usize) -> bool {
        let d = self.dux[color];
        if d == 0 {
            return false;
        }
        let v = View { cells: &self.cells, from: 0, to: 0, piece: self.cells[0] };
        self.immobilized_after(&v, &Effects::default(), d, self.rules.end.dux_immobilized)
    }

    /// The ordered end checks of SEMANTICS.md after a ply by `mover`.
    pub(super) fn end_checks(&self, mover: Color, mv: Move, dux_captured: bool) -> Option<Outcome> {
        let end = &self.rules.end;
        let (me, opp) = (mover.index(), mover.opponent().index());
        let win = |reason| Some(Outcome { winner: Some(mover), reason });
        let lose = |reason| Some(Outcome { winner: Some(mover.opponent()), reason });
        if let MoveKind::Place(_) = mv.kind {
            return self.final_checks();
        }
        // 1. Dux captured.
        if end.win_by_dux_capture && dux_captured {
            return win(Reason::DuxCaptured);
        }
        // 2. Immobilisation.
        if end.dux_immobilized != Immobilization::Off {
            let enemy = self.dux_immobilized(opp);
            let own = end.self_immobilization == SelfImmobilization::Loses && self.dux_immobilized(me);
            if enemy {
                return if own && !end.both_immobilized_mover_wins {
                    lose(Reason::Immobilized)
                } else {
                    win(Reason::Immobilized)
                };
            }
            if own {
                return lose(Reason::Immobilized);
            }
        }
        // 3. (parcae order) no legal move before bare.
        if end.stalemate_before_bare
            && !self.has_legal_move()
            && let Some(o) = self.no_moves_outcome()
        {
            return Some(o);
        }
        // 4. Bare / annihilated.
        if end.lose_at_soldiers >= 0 {
            let mut left = self.soldiers[opp] as i32 + self.hand[opp][0] as i32;
            if end.bare_counts_dux {
                left += i32::from(self.dux[opp] != 0) + self.hand[opp][1] as i32;
            }
            if left <= end.lose_at_soldiers {
                return win(if self.rules.has_dux { Reason::Bare } else { Reason::Annihilated });
            }
        }
        // 5. Repetition.
        match end.repetition {
            Repetition::Draw | Repetition::MoverLoses if self.repetition_count() >= end.repetition_count as usize => {
                return if end.repetition == Repetition::Draw {
                    Some(Outcome { winner: None, reason: Reason::Repetition })
                } else {
                    lose(Reason::Repetition)
                };
            }
            _ => {}
        }
        // 6. No-capture limit.
        if end.no_capture_limit > 0 && self.since_capture >= end.no_capture_limit {
            return Some(match end.no_capture_result {
                LimitResult::Draw => Outcome { winner: None, reason: Reason::NoCaptureLimit },
                LimitResult::Material => self.material_outcome(Reason::NoCaptureLimit),
            });
        }
        // 7, 8.
        self.final_checks()
    }

    /// The side to move has no legal ply: the outcome, or `None` when it passes
    /// (`no_moves = "pass"` and the other side can move).
    pub(super) fn no_moves_outcome(&self) -> Option<Outcome> {
        Some(match self.rules.end.no_moves {
            NoMoves::Loses => Outcome { winner: Some(self.turn.opponent()), reason: Reason::Stalemate },
            NoMoves::Material => self.material_outcome(Reason::Stalemate),
            NoMoves::Pass if self.other_side_can_move() => return None,
            NoMoves::Pass => Outcome { winner: None, reason: Reason::Stalemate },
        })
    }

    /// Whether the side not to move would have a legal ply were it its turn (the same
    /// history, for repetition rules).
    pub(super) fn other_side_can_move(&self) -> bool {
        let mut p = self.clone();
        p.turn = self.turn.opponent();
        p.hash ^= BLACK_TO_MOVE ^ pending_key(p.pending);
        p.pending = 0;
        p.has_legal_move()
    }

    /// With `no_moves = "pass"`: a side to move without a legal ply (and a game not over)
    /// passes the turn. The position with the other side to move replaces the last entry
    /// of the repetition history.
    pub(super) fn pass_if_stuck(&mut self) {
        if self.outcome.is_some() || self.rules.end.no_moves != NoMoves::Pass || self.has_legal_move() {
            return;
        }
        self.pass_turn();
    }

    /// Hands the turn to the other side without a ply (a stuck side's pass, or a
    /// granted ply the capturing piece cannot make): the position with the other side to
    /// move, and no pending piece, replaces the last entry of the repetition history.
    pub(super) fn pass_turn(&mut self) {
        self.history.pop_if_last(self.hash);
        self.hash ^= pending_key(self.pending) ^ BLACK_TO_MOVE;
        self.pending = 0;
        self.turn = self.turn.opponent();
        self.push_history();
    }

    /// Steps 7 and 8: no legal move for the side to move; the ply cap.
    pub(super) fn final_checks(&self) -> Option<Outcome> {
        if !self.has_legal_move()
            && let Some(o) = self.no_moves_outcome()
        {
            return Some(o);
        }
        if self.ply >= self.ply_cap {
            return Some(Outcome { winner: None, reason: Reason::PlyCap });
        }
        None
    }
}

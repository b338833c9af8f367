//! A pseudo-legal ply simulated on a copy of the board, and the legality filters of
//! SEMANTICS.md it must pass (self-immobilisation, rule 7, repetition, the Dux's limits).

use super::*;

impl RefGame {
    pub(crate) fn simulate(&self, c: &Candidate) -> PlyResult {
        let to = pos_of(c.mv.to);
        match c.mv.kind {
            MoveKind::Place(kind) => {
                let mut board = self.board.clone();
                board.set(to, Some(Cell::free(self.side, kind)));
                PlyResult { board, removed: Default::default(), trapped: Default::default(), enemy_dux_captured: false }
            }
            MoveKind::Move => resolve_movement(&self.rules, &self.board, pos_of(c.mv.from), to, c.dir),
            MoveKind::Remove => resolve_removal(&self.board, to),
        }
    }

    pub(crate) fn legal_candidates(&self) -> Vec<Candidate> {
        self.candidates().into_iter().filter(|c| self.is_legal(c, &self.simulate(c))).collect()
    }

    /// Whether the simulated ply passes every legality filter of SEMANTICS.md.
    /// Placements are always legal (any empty square).
    pub(crate) fn is_legal(&self, c: &Candidate, r: &PlyResult) -> bool {
        match c.mv.kind {
            MoveKind::Place(_) => true,
            MoveKind::Remove => self.self_immobilisation_ok(r) && self.repetition_ok(r),
            MoveKind::Move => {
                let from = pos_of(c.mv.from);
                let to = pos_of(c.mv.to);
                let offensive = self.is_offensive(to, r);
                self.locked_soldier_ok(from, offensive)
                    && self.dux_limits_ok(from, to, offensive)
                    && self.self_immobilisation_ok(r)
                    && self.rule7_ok(to, r)
                    && self.repetition_ok(r)
            }
        }
    }

    /// Offensive: captures or traps at least one piece, or ends orthogonally next to the
    /// enemy Dux.
    pub(crate) fn is_offensive(&self, to: Pos, r: &PlyResult) -> bool {
        let enemy = self.side.opponent();
        let next_to_enemy_dux = self
            .board
            .neighbours4(to)
            .into_iter()
            .any(|n| self.board.get(n).is_some_and(|c| c.piece.color == enemy && c.piece.kind == PieceKind::Dux));
        !r.removed.is_empty() || !r.trapped.is_empty() || next_to_enemy_dux
    }

    /// Whether the piece on `p` is the sole attacker of the adjacent enemy piece on `e`:
    /// no other piece of its side is orthogonally adjacent to `e`.
    pub(crate) fn is_sole_attacker(&self, p: Pos, e: Pos) -> bool {
        let Some(me) = self.board.get(p) else { return false };
        self.board.neighbours4(e).into_iter().all(|n| n == p || !self.board.has_piece_of(n, me.piece.color))
    }

    /// The orthogonally adjacent enemy pieces of the piece on `p`.
    pub(crate) fn adjacent_enemies(&self, p: Pos) -> Vec<Pos> {
        let Some(me) = self.board.get(p) else { return Vec::new() };
        let enemy = me.piece.color.opponent();
        self.board.neighbours4(p).into_iter().filter(|&n| self.board.has_piece_of(n, enemy)).collect()
    }

    /// Rules 10–12 (evaluated before the ply): a soldier that is the sole attacker of an
    /// adjacent enemy piece may make only offensive plies.
    pub(crate) fn locked_soldier_ok(&self, from: Pos, offensive: bool) -> bool {
        if !self.rules.combat.locked_soldiers {
            return true;
        }
        let Some(cell) = self.board.get(from) else { return true };
        if cell.piece.kind != PieceKind::Soldier {
            return true;
        }
        let locked = self.adjacent_enemies(from).into_iter().any(|e| self.is_sole_attacker(from, e));
        !locked || offensive
    }

    /// Rules 16–18 (evaluated before the ply).
    pub(crate) fn dux_limits_ok(&self, from: Pos, to: Pos, offensive: bool) -> bool {
        if !self.rules.combat.dux_limits {
            return true;
        }
        let Some(cell) = self.board.get(from) else { return true };
        if cell.piece.kind != PieceKind::Dux {
            return true;
        }
        let open = self.board.neighbours4(from).into_iter().filter(|&n| self.board.is_empty(n)).count();
        let adjacent = self.adjacent_enemies(from);
        let sole = adjacent.iter().filter(|&&e| self.is_sole_attacker(from, e)).count();
        if open == 1 && !adjacent.is_empty() {
            false
        } else if sole >= 2 {
            offensive
        } else if sole == 1 {
            offensive || distance(from, to) == 1
        } else {
            true
        }
    }

    /// The immobilisation definition used for the mover's own Dux.
    pub(crate) fn immobilisation_definition(&self) -> Immobilization {
        match self.rules.end.dux_immobilized {
            Immobilization::Off => Immobilization::AnyBlockers,
            def => def,
        }
    }

    /// `self_immobilization = "illegal"`: the mover's own Dux must not be immobilised
    /// after the ply (captures removed).
    pub(crate) fn self_immobilisation_ok(&self, r: &PlyResult) -> bool {
        if self.rules.end.self_immobilization != SelfImmobilization::Illegal {
            return true;
        }
        match r.board.dux_of(self.side) {
            Some(d) => !dux_immobilised(&r.board, d, self.immobilisation_definition()),
            None => true,
        }
    }

    /// Rule 7: a move may end between two enemy pieces on a rank or a file only if it
    /// traps or captures. (The neighbours of `to` hold the same enemies before and after
    /// the piece lands, so the board before the ply is used.)
    pub(crate) fn rule7_ok(&self, to: Pos, r: &PlyResult) -> bool {
        if !self.rules.movement.rule7_no_entering_between_enemies {
            return true;
        }
        let enemy = self.side.opponent();
        let between = [(1, 0), (0, 1)]
            .into_iter()
            .any(|a| self.board.has_piece_of(step(to, a, 1), enemy) && self.board.has_piece_of(step(to, a, -1), enemy));
        !between || !r.removed.is_empty() || !r.trapped.is_empty()
    }

    /// `repetition = "illegal"`: the ply must not create the n-th occurrence of a
    /// position (a ply that removes a piece starts a fresh history).
    pub(crate) fn repetition_ok(&self, r: &PlyResult) -> bool {
        if self.rules.end.repetition != Repetition::Illegal || !r.removed.is_empty() {
            return true;
        }
        // (Plies that keep the turn, removals and captures, are never repetitions.)
        let after = Snapshot { board: r.board.clone(), side: self.side.opponent(), pending: None, hand: self.hand };
        let earlier = self.history.iter().filter(|s| **s == after).count() as u32;
        earlier + 1 < self.rules.end.repetition_count
    }
}

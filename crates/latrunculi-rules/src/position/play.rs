//! Playing a move: board edits, captures and traps applied, trapped pieces released,
//! the turn handed on.

use super::*;

impl Position {
    // ----- playing -----

    /// Plays a legal move and returns what it captured or trapped.
    ///
    /// Panics (in debug builds) if the move is not legal; use [`Position::try_play`] for
    /// moves from untrusted input.
    pub fn play(&mut self, mv: Move) -> Effects {
        debug_assert!(self.is_legal(mv), "illegal move {mv:?} played");
        let mover = self.turn;
        let enemy_dux_before = self.dux[mover.opponent().index()];
        let fx = match mv.kind {
            MoveKind::Place(kind) => {
                self.apply_placement(kind, mb(mv.to));
                Effects::default()
            }
            MoveKind::Remove => {
                let fx = self.effects(mv);
                self.apply_removal(mb(mv.to));
                fx
            }
            MoveKind::Move => {
                let (from, to) = (mb(mv.from), mb(mv.to));
                let piece = self.cells[from];
                let dir = self.travel_dir(from, to);
                let fx = self.effects_of(from, to, piece, dir);
                self.apply_movement(from, to, piece, dir, fx);
                fx
            }
        };
        let dux_captured = enemy_dux_before != 0 && self.dux[mover.opponent().index()] == 0;
        self.outcome = self.end_checks(mover, mv, dux_captured);
        self.pass_if_stuck();
        fx
    }

    /// Plays `mv` if it is legal; otherwise returns `None` and leaves the position as it was.
    pub fn try_play(&mut self, mv: Move) -> Option<Effects> {
        self.is_legal(mv).then(|| self.play(mv))
    }

    pub(super) fn apply_removal(&mut self, at: usize) {
        let c = self.take(at);
        self.hash ^= zobrist(raw_of(at), c);
        self.release_pass();
        self.finish_movement_ply(true, self.rules.capture.removal_then_move, 0);
    }

    pub(super) fn apply_movement(&mut self, from: usize, to: usize, piece: u8, _dir: i32, fx: Effects) {
        self.take(from);
        self.hash ^= zobrist(raw_of(from), piece);
        if self.cells[to] != EMPTY {
            // Displacement: the trapped enemy on `to` is removed (it is in `fx`).
            let c = self.take(to);
            self.hash ^= zobrist(raw_of(to), c);
        }
        self.put(to, piece);
        self.hash ^= zobrist(raw_of(to), piece);
        let mut captured = false;
        for (m, code) in fx.raw() {
            if m == to {
                captured = true; // displaced, already removed
                continue;
            }
            if code == REMOVE {
                let c = self.take(m);
                self.hash ^= zobrist(raw_of(m), c);
                captured = true;
            } else {
                let old = self.cells[m];
                let new = (old & 0x0F) | TRAPPED | (code << 4);
                self.hash ^= zobrist(raw_of(m), old) ^ zobrist(raw_of(m), new);
                self.cells[m] = new;
                self.trapped += 1;
            }
        }
        if self.trapped > 0 {
            self.release_pass();
        }
        let grants = captured && self.rules.capture.capture_grants_ply;
        self.finish_movement_ply(captured, grants, if grants { to } else { 0 });
    }

    /// Ends a movement or removal ply: the turn passes unless `keep_turn`; with
    /// `continue_with` (a mailbox index) the next ply must move that piece, and if it has
    /// none the turn passes after all.
    pub(super) fn finish_movement_ply(&mut self, captured: bool, keep_turn: bool, continue_with: usize) {
        self.hash ^= pending_key(self.pending);
        self.pending = 0;
        if keep_turn {
            self.pending = continue_with;
            self.hash ^= pending_key(continue_with);
        } else {
            self.turn = self.turn.opponent();
            self.hash ^= BLACK_TO_MOVE;
        }
        self.ply += 1;
        if captured {
            self.since_capture = 0;
            self.history.clear();
        } else {
            self.since_capture += 1;
        }
        self.push_history();
        if continue_with != 0 && !self.has_legal_move() {
            // The capturing piece has no ply: the turn passes after all.
            self.pass_turn();
        }
    }

    /// Frees every trapped piece one of whose holders is not a free piece of the other side.
    pub(super) fn release_pass(&mut self) {
        // Every trapped piece may be freed at once, however many there are.
        let mut to_free = SquareSet::default();
        let mut unseen = self.trapped;
        for color in 0..2 {
            for m in self.occ[color].iter_mb() {
                if unseen == 0 {
                    break;
                }
                let c = self.cells[m];
                if c & TRAPPED == 0 {
                    continue;
                }
                unseen -= 1;
                let axis = c >> 4;
                let holders = if axis == CORNER_AXIS {
                    self.corner_neighbours(m)
                } else {
                    let d = axis_offset(axis);
                    [step(m, d), step(m, -d)]
                };
                let holder_ok = |h: usize| {
                    self.cells[h] & (ID | TRAPPED) == PIECE | (color ^ 1) as u8
                        || self.cells[h] & (ID | TRAPPED) == PIECE | DUX | (color ^ 1) as u8
                };
                if !(holder_ok(holders[0]) && holder_ok(holders[1])) {
                    to_free.insert(raw_of(m));
                }
            }
        }
        for m in to_free.iter_mb() {
            let old = self.cells[m];
            let new = old & 0x0F & !TRAPPED;
            self.hash ^= zobrist(raw_of(m), old) ^ zobrist(raw_of(m), new);
            self.cells[m] = new;
            self.trapped -= 1;
        }
    }
}

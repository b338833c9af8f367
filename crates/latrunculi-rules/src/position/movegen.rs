//! Legal move generation: the combat limits of XXI (rules 10-12, 16-18), every legality
//! filter of SEMANTICS.md, slides, steps, hops and hop chains, placements and removals.

use super::*;

/// How the combat rules limit one piece's moves this ply.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Limit {
    Free,
    OffensiveOnly,
    OneSquareUnlessOffensive,
    Frozen,
}

impl Position {
    // ----- combat limits (XXI rules 10-12, 16-18) -----

    /// Whether the piece on `from` (of `color`) is the sole attacker of the enemy on `e`.
    #[inline]
    pub(super) fn sole_attacker(&self, from: usize, e: usize, color: usize) -> bool {
        ORTH.iter().all(|&d| {
            let n = step(e, d);
            n == from || !Self::is_piece_of(self.cells[n], color)
        })
    }

    pub(super) fn limit_of(&self, from: usize, c: u8) -> Limit {
        let color = (c & BLACK) as usize;
        let combat = self.rules.combat;
        if c & DUX != 0 {
            if !combat.dux_limits {
                return Limit::Free;
            }
            let (mut open, mut adj, mut sole) = (0, 0, 0);
            for &d in &ORTH {
                let n = step(from, d);
                let nc = self.cells[n];
                if nc == EMPTY {
                    open += 1;
                } else if Self::is_piece_of(nc, color ^ 1) {
                    adj += 1;
                    if self.sole_attacker(from, n, color) {
                        sole += 1;
                    }
                }
            }
            if open == 1 && adj >= 1 {
                Limit::Frozen
            } else if sole >= 2 {
                Limit::OffensiveOnly
            } else if sole == 1 {
                Limit::OneSquareUnlessOffensive
            } else {
                Limit::Free
            }
        } else if combat.locked_soldiers {
            for &d in &ORTH {
                let n = step(from, d);
                if Self::is_piece_of(self.cells[n], color ^ 1) && self.sole_attacker(from, n, color) {
                    return Limit::OffensiveOnly;
                }
            }
            Limit::Free
        } else {
            Limit::Free
        }
    }

    // ----- move generation -----

    /// Whether `to` lies between two pieces of `opp` on its rank or its file in `v`
    /// (rule 7's condition, before captures).
    #[inline(always)]
    pub(super) fn between_enemies(v: &View, to: usize, opp: usize) -> bool {
        [1, S].iter().any(|&d| Self::is_piece_of(v.at(step(to, d)), opp) && Self::is_piece_of(v.at(step(to, -d)), opp))
    }

    /// Whether a movement ply passes every legality filter of SEMANTICS.md. `selfimm` says
    /// whether the mover's own Dux (on `own_dux` after the move) has no empty neighbour
    /// after the move and the self-immobilisation rule applies, so only this ply's
    /// captures could free it; the caller has already decided a full check is needed.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn movement_is_legal(
        &self,
        from: usize,
        to: usize,
        piece: u8,
        dir: i32,
        limit: Limit,
        selfimm: bool,
        own_dux: usize,
    ) -> bool {
        if limit == Limit::Free
            && !selfimm
            && self.rules.end.repetition == Repetition::Illegal
            && !self.rules.movement.rule7_no_entering_between_enemies
            && self.trapped == 0
            && self.rules.capture.effect == CaptureEffect::Remove
            && self.unrepeated(from, to, piece)
        {
            // Only the no-repetition filter is left, and it needs no captures: a ply that
            // captures clears the history, and one that does not leads to `simple_hash`,
            // which has not occurred often enough to be refused.
            return true;
        }
        let mover = (piece & BLACK) as usize;
        let v = View { cells: &self.cells, from, to, piece };
        let rule7 = self.rules.movement.rule7_no_entering_between_enemies;
        if rule7
            && limit == Limit::Free
            && !selfimm
            && self.rules.end.repetition != Repetition::Illegal
            && !Self::between_enemies(&v, to, mover ^ 1)
        {
            // Only rule 7 is left, and it asks for the captures only of a ply that ends
            // between two enemies.
            return true;
        }
        let fx = self.effects_of(from, to, piece, dir);
        if limit != Limit::Free {
            let enemy_dux = self.dux[mover ^ 1];
            let offensive = !fx.is_empty() || (enemy_dux != 0 && ORTH.iter().any(|&d| step(to, d) == enemy_dux));
            match limit {
                Limit::OffensiveOnly if !offensive => return false,
                Limit::OneSquareUnlessOffensive if !offensive && !ALL8.iter().any(|&d| step(from, d) == to) => {
                    return false;
                }
                _ => {}
            }
        }
        if selfimm && self.immobilized_after(&v, &fx, own_dux, self.self_immobilization_rule()) {
            return false;
        }
        if rule7 && fx.is_empty() && Self::between_enemies(&v, to, mover ^ 1) {
            return false;
        }
        if self.rules.end.repetition == Repetition::Illegal && !fx.removes_any() {
            // A removal clears the history, so only plies that remove nothing can repeat
            // (a ply that traps can: traps are undone by releases). Without traps (no
            // release pass, no trap set) the new hash follows directly from the moved
            // piece. Otherwise the ply is applied to a copy without the history (and
            // without a repetition rule, so that it keeps none): a ply that removes
            // nothing keeps the history and adds its own hash to it.
            let after_hash = if fx.is_empty() && self.trapped == 0 {
                self.simple_hash(from, to, piece)
            } else {
                let mut after = self.without_history();
                // Nothing is removed, so the copy needs no history of its own.
                after.rules.end.repetition = Repetition::Off;
                after.apply_movement(from, to, piece, dir, fx);
                after.hash
            };
            let occurrences = 1 + self.history.count(after_hash);
            if occurrences >= self.rules.end.repetition_count as usize {
                return false;
            }
        }
        true
    }

    /// Whether square `m` has an empty orthogonal neighbour once a piece has moved from
    /// `from` to `to`.
    #[inline(always)]
    pub(super) fn has_empty_neighbour(&self, m: usize, from: usize, to: usize) -> bool {
        ORTH.iter().any(|&d| {
            let n = step(m, d);
            n != to && (n == from || self.cells[n] == EMPTY)
        })
    }

    /// Calls `f` with every legal move until it returns false. Returns false if stopped.
    pub(super) fn for_each_legal(&self, mut f: impl FnMut(Move) -> bool) -> bool {
        if self.is_placement_phase() {
            let kind = if self.hand[self.turn.index()][0] > 0 { PieceKind::Soldier } else { PieceKind::Dux };
            let centre = self.rules.centre_empty.then_some((self.rules.width / 2, self.rules.height / 2));
            for r in 0..self.rules.height {
                let row = PAD + r as usize * STRIDE;
                for fl in 0..self.rules.width {
                    if self.cells[row + fl as usize] == EMPTY
                        && centre != Some((fl, r))
                        && !f(Move::place(kind, Square::from_raw(r << 4 | fl)))
                    {
                        return false;
                    }
                }
            }
            return true;
        }
        let me = self.turn.index();
        let mv = &self.rules.movement;
        let cap = &self.rules.capture;
        if cap.removal_move && self.trapped > 0 && self.pending == 0 {
            for m in self.occ[me ^ 1].iter_mb() {
                if self.cells[m] & TRAPPED != 0 && !f(Move::remove(sq_of(m))) {
                    return false;
                }
            }
        }
        // Rule 7 and the no-repetition filter make every ply a candidate for refusal (this
        // also chooses the generation path, and so the order of the moves).
        let check_all = mv.rule7_no_entering_between_enemies || self.rules.end.repetition == Repetition::Illegal;
        // The no-repetition filter can refuse a ply only once some position has occurred
        // `repetition_count − 1` times; under a threefold rule, not before one occurred twice.
        let can_refuse = mv.rule7_no_entering_between_enemies
            || (self.rules.end.repetition == Repetition::Illegal
                && !(self.rules.end.repetition_count >= 3 && self.history.twice.is_empty()));
        let displacement = cap.capture_by_displacement && self.trapped > 0;
        let selfimm_on = self.rules.end.self_immobilization == SelfImmobilization::Illegal;
        let own_dux = self.dux[me];
        let table = (self.rules.width <= 12 && self.rules.height <= 12).then(slide_table);
        for fraw in self.occ[me].iter_raw() {
            let from = mb_of_raw(fraw);
            let piece = self.cells[from];
            if piece & TRAPPED != 0 || (self.pending != 0 && from != self.pending) {
                continue;
            }
            let limit = self.limit_of(from, piece);
            if limit == Limit::Frozen {
                continue;
            }
            let is_dux = piece & DUX != 0;
            let fsq = Square::from_raw(fraw as u8);
            let plain = !check_all && limit == Limit::Free;
            let unfiltered = !can_refuse && limit == Limit::Free;
            let soldier_fast = plain && (!selfimm_on || !is_dux);
            let legal = |to: usize, dir: i32| -> bool {
                // The own Dux can end immobilised only if this move touches it and leaves
                // it no empty neighbour; otherwise, with no combat limit and no global
                // filter, the move is legal without computing its captures.
                let dux_after = if is_dux { to } else { own_dux };
                let selfimm = selfimm_on
                    && dux_after != 0
                    && (is_dux || adjacent(to, own_dux))
                    && !self.has_empty_neighbour(dux_after, from, to);
                (unfiltered && !selfimm) || self.movement_is_legal(from, to, piece, dir, limit, selfimm, dux_after)
            };
            // Slides and steps.
            let slide = if is_dux { mv.dux == DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
            if slide && !mv.diagonal && soldier_fast && !displacement {
                // Rook moves from the rank's and the file's occupancy bits, no ray loops:
                // a table lookup on boards up to 12 × 12, bit arithmetic beyond.
                let (fl, rk) = (fraw & 15, fraw >> 4);
                let (along_rank, along_file) = match table {
                    Some(t) => {
                        (t[fl][(self.rank_occ[rk] & 0xFFF) as usize], t[rk][(self.file_occ[fl] & 0xFFF) as usize])
                    }
                    None => (slide_reach_bits(fl, self.rank_occ[rk]), slide_reach_bits(rk, self.file_occ[fl])),
                };
                let row_base = from - fl;
                let mut bits = along_rank;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let t = row_base + b;
                    let ok = own_dux == 0 || !adjacent(t, own_dux) || legal(t, if b > fl { 1 } else { -1 });
                    if ok && !f(Move::movement(fsq, Square::from_raw((rk << 4 | b) as u8))) {
                        return false;
                    }
                }
                let mut bits = along_file;
                while bits != 0 {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let t = PAD + b * STRIDE + fl;
                    let ok = own_dux == 0 || !adjacent(t, own_dux) || legal(t, if b > rk { S } else { -S });
                    if ok && !f(Move::movement(fsq, Square::from_raw((b << 4 | fl) as u8))) {
                        return false;
                    }
                }
                if !(if is_dux { mv.dux_jumps } else { mv.soldier_hops }) {
                    continue;
                }
            }
            let backward = if me == 0 { -S } else { S };
            let rays_done = slide && !mv.diagonal && soldier_fast && !displacement;
            let dirs = if rays_done { &[][..] } else { Self::line_dirs(mv.diagonal) };
            for (&d, &dr) in dirs.iter().zip(&ALL8_RAW) {
                if !is_dux && mv.soldier == SoldierMove::StepForwardSideways {
                    // no backward component
                    let back = d == backward || d == backward + 1 || d == backward - 1;
                    if back {
                        continue;
                    }
                }
                let mut t = step(from, d);
                // The raw index of `t`, followed along (cheaper than converting `t`).
                let mut traw = fraw as i32 + dr;
                while self.cells[t] == EMPTY {
                    // Inline fast path for the common case: a free soldier not landing
                    // next to its own Dux (or no self-immobilisation rule).
                    let ok = (soldier_fast && (own_dux == 0 || !adjacent(t, own_dux))) || legal(t, d);
                    if ok && !f(Move::movement(fsq, Square::from_raw(traw as u8))) {
                        return false;
                    }
                    if !slide {
                        break;
                    }
                    t = step(t, d);
                    traw += dr;
                }
                if displacement
                    && self.cells[t] & (ID | DUX | TRAPPED) == PIECE | TRAPPED | (me ^ 1) as u8
                    && legal(t, d)
                    && !f(Move::movement(fsq, Square::from_raw(traw as u8)))
                {
                    return false;
                }
            }
            // Hops.
            let hops = if is_dux { mv.dux_jumps } else { mv.soldier_hops };
            let dedupe = slide && mv.hop_chain;
            if hops
                && !self.for_each_hop_end(from, piece, &mut |to| {
                    if (dedupe && self.travel_dir(from, to) != 0) || !legal(to, 0) {
                        true
                    } else {
                        f(Move::movement(fsq, sq_of(to)))
                    }
                })
            {
                return false;
            }
        }
        true
    }

    /// Calls `f` with each distinct end square of the hops (or hop chains) of the piece
    /// on `from`. Returns false if `f` stopped.
    pub(super) fn for_each_hop_end(&self, from: usize, piece: u8, f: &mut dyn FnMut(usize) -> bool) -> bool {
        let mv = &self.rules.movement;
        let me = (piece & BLACK) as usize;
        let dirs = Self::line_dirs(mv.diagonal);
        let can_hop_over = |c: u8| -> bool {
            if c & (OFF | PIECE) != PIECE {
                return false;
            }
            if mv.no_jump_over_dux && c & DUX != 0 {
                return false;
            }
            match mv.hop_over {
                HopOver::Any => true,
                HopOver::Enemy => (c & BLACK) as usize != me,
                HopOver::OwnOrTrapped => (c & BLACK) as usize == me || c & TRAPPED != 0,
            }
        };
        let cell = |i: usize| if i == from { EMPTY } else { self.cells[i] };
        let mut visited = SquareSet::default();
        visited.insert(raw_of(from));
        // The single hops from `from`, in direction order (most pieces have none, and
        // without chains nothing else is searched). Written out apart from the chain loop
        // below on purpose: one loop for both (a shared closure, or a `Vec` stack) made
        // `alphabeta:depth=3` on falkener 8-10% slower, playing the same games (measured
        // on 2026-11-25, commit 2433182).
        let mut first = [0u16; 8];
        let mut n = 0;
        for &d in dirs {
            let over = step(from, d);
            let land = step(over, d);
            if can_hop_over(cell(over)) && cell(land) == EMPTY && !visited.contains(raw_of(land)) {
                visited.insert(raw_of(land));
                if !f(land) {
                    return false;
                }
                first[n] = land as u16;
                n += 1;
            }
        }
        if !mv.hop_chain || n == 0 {
            return true;
        }
        // Chains go on depth-first from the last of them; each square is pushed at most
        // once (when first visited).
        let mut stack = [0u16; 256];
        stack[..n].copy_from_slice(&first[..n]);
        let mut sp = n;
        while sp > 0 {
            sp -= 1;
            let p = stack[sp] as usize;
            for &d in dirs {
                let over = step(p, d);
                let land = step(over, d);
                if can_hop_over(cell(over)) && cell(land) == EMPTY && !visited.contains(raw_of(land)) {
                    visited.insert(raw_of(land));
                    if !f(land) {
                        return false;
                    }
                    if mv.hop_chain && sp < stack.len() {
                        stack[sp] = land as u16;
                        sp += 1;
                    }
                }
            }
        }
        true
    }

    /// Appends every legal move to `out` (cleared first). Empty once the game is over.
    pub fn legal_moves(&self, out: &mut Vec<Move>) {
        out.clear();
        if self.outcome.is_none() {
            self.for_each_legal(|m| {
                out.push(m);
                true
            });
        }
    }

    /// How many legal moves the side to move has (0 once the game is over): the length of
    /// [`Position::legal_moves`], counted without building the list (what a mobility term
    /// of an evaluation needs at every leaf).
    pub fn legal_move_count(&self) -> usize {
        if self.outcome.is_some() {
            return 0;
        }
        if self.is_placement_phase() {
            // Every empty square but a centre kept empty: `for_each_legal`'s placement
            // loop, counted from the occupancy sets (the whole cost of an evaluation's
            // mobility term while the board fills up, on boards of up to 176 squares).
            let squares = self.rules.width as usize * self.rules.height as usize;
            let empty = squares - self.occ[0].len() - self.occ[1].len();
            let centre = (self.rules.height / 2) as usize * 16 + (self.rules.width / 2) as usize;
            let centre_free = self.rules.centre_empty && self.cells[mb_of_raw(centre)] == EMPTY;
            return empty - centre_free as usize;
        }
        let mut n = 0;
        self.for_each_legal(|_| {
            n += 1;
            true
        });
        n
    }

    /// Every legal move, in a new vector.
    pub fn legal_move_list(&self) -> Vec<Move> {
        let mut v = Vec::with_capacity(64);
        self.legal_moves(&mut v);
        v
    }

    /// Whether the side to move has a legal move (ignoring whether the game is over).
    pub fn has_legal_move(&self) -> bool {
        !self.for_each_legal(|_| false)
    }

    /// Whether `mv` is legal here.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.outcome.is_none() && !self.for_each_legal(|m| m != mv)
    }

    /// What a legal movement ply would capture or trap, without playing it; placements
    /// and removals report the removed piece (if any).
    pub fn effects(&self, mv: Move) -> Effects {
        match mv.kind {
            MoveKind::Move => {
                let (from, to) = (mb(mv.from), mb(mv.to));
                self.effects_of(from, to, self.cells[from], self.travel_dir(from, to))
            }
            MoveKind::Remove => {
                let mut fx = Effects::default();
                fx.add(mb(mv.to), REMOVE);
                fx
            }
            MoveKind::Place(_) => Effects::default(),
        }
    }

    /// The direction of a slide or step from `from` to `to` (which may end on a trapped
    /// enemy under displacement), or 0 when only a hop reaches `to`.
    pub(super) fn travel_dir(&self, from: usize, to: usize) -> i32 {
        let piece = self.cells[from];
        let mv = &self.rules.movement;
        let slide = if piece & DUX != 0 { mv.dux == DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
        for &d in Self::line_dirs(mv.diagonal) {
            let mut t = step(from, d);
            loop {
                if t == to {
                    return d;
                }
                if self.cells[t] != EMPTY || !slide {
                    break;
                }
                t = step(t, d);
            }
        }
        0
    }
}

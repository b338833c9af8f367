//! Captures: the board seen after a movement ply ([`View`]), the capture predicates,
//! and everything a movement ply captures or traps (custodial, corner, line, push,
//! flank, phalanx, enclosure), with the immobilisation test that depends on them.

use super::*;

/// A board as seen after a movement ply but before its removals: `from` empty and `to`
/// holding `piece`, the real cells elsewhere.
#[derive(Clone, Copy)]
pub(super) struct View<'a> {
    pub(super) cells: &'a [u8; CELLS],
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) piece: u8,
}

impl View<'_> {
    #[inline(always)]
    pub(super) fn at(&self, i: usize) -> u8 {
        if i == self.to {
            self.piece
        } else if i == self.from {
            EMPTY
        } else {
            self.cells[i]
        }
    }
}

/// Whether two mailbox indices are orthogonal neighbours.
#[inline(always)]
pub(super) fn adjacent(a: usize, b: usize) -> bool {
    pub(super) const DOWN: i32 = -S;
    matches!(a as i32 - b as i32, 1 | -1 | S | DOWN)
}

#[inline(always)]
pub(super) fn step(i: usize, d: i32) -> usize {
    (i as i32 + d) as usize
}

impl Position {
    // ----- small predicates -----

    #[inline(always)]
    pub(super) fn is_capturer(&self, c: u8, color: usize) -> bool {
        c < 16 && (self.capturer_mask[color] >> c) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn is_victim(&self, c: u8, mover: usize) -> bool {
        c < 16 && (self.victim_mask[mover] >> c) & 1 != 0
    }

    #[inline(always)]
    pub(super) fn is_piece_of(c: u8, color: usize) -> bool {
        c & (OFF | PIECE | BLACK) == PIECE | color as u8
    }

    #[inline]
    pub(super) fn is_corner(&self, m: usize) -> bool {
        let (f, r) = file_rank(m);
        let (f, r) = (f as u8, r as u8);
        (f == 0 || f == self.rules.width - 1) && (r == 0 || r == self.rules.height - 1)
    }

    /// The two orthogonal on-board neighbours of a corner square.
    #[inline]
    pub(super) fn corner_neighbours(&self, c: usize) -> [usize; 2] {
        let h = if self.cells[step(c, 1)] == OFF { step(c, -1) } else { step(c, 1) };
        let v = if self.cells[step(c, S)] == OFF { step(c, -S) } else { step(c, S) };
        [h, v]
    }

    pub(super) fn corners(&self) -> [usize; 4] {
        let (w, h) = (self.rules.width, self.rules.height);
        let s = |f, r| mb(Square::new(f, r).expect("on board"));
        [s(0, 0), s(w - 1, 0), s(0, h - 1), s(w - 1, h - 1)]
    }

    /// The line directions: [`ORTH`], or [`ALL8`] with diagonals (ORTH is ALL8's first
    /// four, so `ALL8_RAW` gives their raw-index steps in the same order).
    #[inline]
    pub(super) fn line_dirs(diagonal: bool) -> &'static [i32] {
        if diagonal { &ALL8 } else { &ORTH }
    }

    // ----- effects of a movement ply -----

    /// Everything a movement ply from `from` to `to` by `piece` (travel direction `dir`,
    /// 0 for hops) captures or traps, found on the board after the move and before any
    /// removal.
    pub(super) fn effects_of(&self, from: usize, to: usize, piece: u8, dir: i32) -> Effects {
        let v = View { cells: &self.cells, from, to, piece };
        let mover = (piece & BLACK) as usize;
        let opp = mover ^ 1;
        let cap = &self.rules.capture;
        let trap_code = |axis: u8| if cap.effect == CaptureEffect::Trap { axis } else { REMOVE };
        let mut fx = Effects::default();
        let s = to;
        if cap.capture_by_displacement && self.cells[to] & (PIECE | TRAPPED) == PIECE | TRAPPED {
            fx.add(to, REMOVE);
        }
        if self.is_capturer(piece, mover) {
            if cap.line {
                for &d in Self::line_dirs(cap.diagonal) {
                    let mut t = step(s, d);
                    let mut k = 0;
                    while self.is_victim(v.at(t), mover) {
                        t = step(t, d);
                        k += 1;
                    }
                    if k > 0 && self.is_capturer(v.at(t), mover) {
                        let mut u = step(s, d);
                        for _ in 0..k {
                            fx.add(u, trap_code(axis_of(d)));
                            u = step(u, d);
                        }
                    }
                }
            } else if cap.custodial {
                for &d in Self::line_dirs(cap.diagonal) {
                    let t = step(s, d);
                    let a = step(t, d);
                    let anvil =
                        self.is_capturer(v.at(a), mover) || (cap.corner_anvil && v.at(a) == EMPTY && self.is_corner(a));
                    if self.is_victim(v.at(t), mover) && anvil {
                        fx.add(t, trap_code(axis_of(d)));
                    }
                }
            }
            if cap.corner == CornerCapture::Active {
                for &d in &ORTH {
                    let c = step(s, d);
                    if self.is_victim(v.at(c), mover) && self.is_corner(c) {
                        let [a, b] = self.corner_neighbours(c);
                        let other = if a == s { b } else { a };
                        if self.is_capturer(v.at(other), mover) {
                            fx.add(c, trap_code(CORNER_AXIS));
                        }
                    }
                }
            }
            if dir != 0 {
                if cap.push_and_crush {
                    let (a, b, c) = (step(s, dir), step(s, 2 * dir), step(s, 3 * dir));
                    if self.is_capturer(v.at(a), mover)
                        && v.at(b) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8
                        && (v.at(c) == OFF || self.is_capturer(v.at(c), mover))
                    {
                        fx.add(b, REMOVE);
                    }
                }
                if cap.flank {
                    let mut t = step(s, dir);
                    let mut k = 0;
                    while Self::is_piece_of(v.at(t), opp) {
                        t = step(t, dir);
                        k += 1;
                    }
                    let first = step(s, dir);
                    if k >= 2
                        && self.is_capturer(v.at(t), mover)
                        && v.at(first) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8
                    {
                        fx.add(first, REMOVE);
                    }
                }
                if cap.phalanx {
                    let mut t = step(s, dir);
                    let mut k = 0;
                    while self.is_capturer(v.at(t), mover) {
                        t = step(t, dir);
                        k += 1;
                    }
                    if k >= 1 && v.at(t) & (OFF | PIECE | BLACK | DUX) == PIECE | opp as u8 {
                        let side = if dir.abs() == 1 { S } else { 1 };
                        for p in [side, -side] {
                            let mut ok = true;
                            let mut u = step(s, p);
                            for _ in 0..=k {
                                if !self.is_capturer(v.at(u), mover) {
                                    ok = false;
                                    break;
                                }
                                u = step(u, dir);
                            }
                            if ok {
                                fx.add(t, REMOVE);
                                break;
                            }
                        }
                    }
                }
            }
        }
        if cap.enclosure || cap.dux.by_enclosure() {
            for &d in &ORTH {
                let e = step(s, d);
                let c = v.at(e);
                if !Self::is_piece_of(c, opp) {
                    continue;
                }
                let is_dux = c & DUX != 0;
                let wanted = if is_dux { cap.dux.by_enclosure() } else { cap.enclosure };
                if !wanted {
                    continue;
                }
                let need_four = is_dux && cap.dux == DuxCapture::FourSides;
                let enclosed = ORTH.iter().all(|&dd| {
                    let n = v.at(step(e, dd));
                    if n == OFF { !need_four } else { Self::is_piece_of(n, mover) }
                });
                if enclosed {
                    fx.add(e, REMOVE);
                }
            }
        }
        if cap.corner == CornerCapture::Passive {
            for c in self.corners() {
                if self.is_victim(v.at(c), mover) {
                    let [a, b] = self.corner_neighbours(c);
                    if Self::is_piece_of(v.at(a), mover) && Self::is_piece_of(v.at(b), mover) {
                        fx.add(c, REMOVE);
                    }
                }
            }
        }
        fx
    }

    /// Whether the Dux on mailbox index `d` is immobilised on the view, with the squares
    /// removed by `fx` emptied.
    #[inline]
    pub(super) fn immobilized_after(&self, v: &View, fx: &Effects, d: usize, how: Immobilization) -> bool {
        let owner = (v.at(d) & BLACK) as usize;
        let freed = |n: usize| fx.removes(n);
        match how {
            Immobilization::EnemyOnly => ORTH.iter().all(|&dd| {
                let n = step(d, dd);
                let c = v.at(n);
                c == OFF || (Self::is_piece_of(c, owner ^ 1) && !freed(n))
            }),
            _ => ORTH.iter().all(|&dd| {
                let n = step(d, dd);
                let c = v.at(n);
                c != EMPTY && !(c != OFF && freed(n))
            }),
        }
    }

    #[inline]
    pub(super) fn self_immobilization_rule(&self) -> Immobilization {
        match self.rules.end.dux_immobilized {
            Immobilization::Off => Immobilization::AnyBlockers,
            other => other,
        }
    }
}

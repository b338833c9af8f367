//! [`Position`]: a validated game state with legal move generation, move application,
//! results and a 64-bit hash. The exact reading of every rule is in `SEMANTICS.md`.
//!
//! This module holds the state, its construction from a [`Setup`], the accessors and
//! the board edits; each concern of the rules has a module of its own: `movegen` (legal
//! moves and the combat limits), `captures` (what a movement ply captures or traps),
//! `play` (a move applied), `placement` (the placement phase), `history` (repetition)
//! and `end` (the end checks after each ply).

use crate::board::*;
use crate::ruleset::{
    Adjudication, CaptureEffect, CornerCapture, DuxCapture, DuxMove, HopOver, Immobilization, LimitResult, MaterialTie,
    NoMoves, Placement, Repetition, Rules, Ruleset, SelfImmobilization, SoldierMove,
};
use crate::setup::Setup;
use crate::types::{Color, MAX_SIDE, Move, MoveKind, Outcome, Piece, PieceKind, Reason, Square};

/// The default experiment-level hard ply cap (docs/rules.md §1).
pub const DEFAULT_PLY_CAP: u32 = 1000;

mod captures;
mod effects;
mod end;
mod history;
mod movegen;
mod placement;
mod play;
#[cfg(test)]
mod tests;

pub use effects::{EffectKind, Effects};
pub use placement::placer;

use captures::{View, adjacent, step};
use effects::REMOVE;
use history::History;
use placement::placement_state;

/// Errors when building a position from a [`Setup`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The setup's board size differs from the ruleset's.
    #[error("the position is {got_w}x{got_h} but ruleset {id} is {want_w}x{want_h}")]
    BoardSize {
        /// Ruleset id.
        id: String,
        /// Setup width.
        got_w: u8,
        /// Setup height.
        got_h: u8,
        /// Ruleset width.
        want_w: u8,
        /// Ruleset height.
        want_h: u8,
    },
    /// A side has more than one Dux.
    #[error("{0} has more than one Dux")]
    TwoDuxes(Color),
    /// A Dux in a ruleset without Duxes, or trapped.
    #[error("bad piece on {0}: {1}")]
    BadPiece(Square, String),
    /// Hands (or a side to move) that the ruleset's placement order never produces.
    #[error(
        "after {done} placements ruleset {id} has hands {want}; this position has {got}, which its placement order never reaches"
    )]
    BadPlacement {
        /// Ruleset id.
        id: String,
        /// Placements made (pieces in hand at the start minus those in hand now).
        done: u16,
        /// The hands and placer the order gives.
        want: String,
        /// The setup's.
        got: String,
    },
    /// More pieces of a kind in a hand than the ruleset ever puts there.
    #[error("{color} holds {count} {kind} in hand, but ruleset {id} puts at most {max} there")]
    BadHand {
        /// Ruleset id.
        id: String,
        /// The side.
        color: Color,
        /// `soldiers` or `Duxes`.
        kind: &'static str,
        /// Pieces of that kind in the setup's hand.
        count: u8,
        /// The ruleset's number in hand at the start.
        max: u8,
    },
    /// A continuing turn (`w:e4`) that the rules or the board do not allow.
    #[error("the turn cannot go on with the piece on {0}: {1}")]
    BadPending(Square, &'static str),
}

/// A game state: pieces, side to move, pieces in hand, counters, repetition history and
/// the outcome once decided. Cloning is a memcpy plus the repetition history (empty in
/// rulesets without a repetition rule).
#[derive(Clone, Debug)]
pub struct Position {
    rules: Rules,
    cells: [u8; CELLS],
    occ: [SquareSet; 2],
    dux: [usize; 2],
    soldiers: [u16; 2],
    pieces: [u16; 2],
    trapped: u16,
    hand: [[u8; 2]; 2],
    soldiers_per_side: u8,
    placements_done: u16,
    placements_total: u16,
    turn: Color,
    /// Mailbox index of the piece that must make the side to move's next ply (a further
    /// ply granted by a capture, `capture.capture_grants_ply`); 0 when none.
    pending: usize,
    ply: u32,
    since_capture: u32,
    ply_cap: u32,
    hash: u64,
    history: History,
    outcome: Option<Outcome>,
    capturer_mask: [u16; 2],
    victim_mask: [u16; 2],
    /// Occupancy of each rank by file (bits past the board's width set).
    rank_occ: [u16; MAX_SIDE as usize],
    /// Occupancy of each file by rank (bits past the board's height set).
    file_occ: [u16; MAX_SIDE as usize],
}

impl PartialEq for Position {
    /// Same pieces, side to move, hands, counters and outcome.
    fn eq(&self, o: &Position) -> bool {
        self.rules == o.rules
            && self.cells == o.cells
            && self.turn == o.turn
            && self.pending == o.pending
            && self.hand == o.hand
            && self.ply == o.ply
            && self.since_capture == o.since_capture
            && self.outcome == o.outcome
    }
}

impl Position {
    /// The starting position of a ruleset.
    pub fn new(ruleset: &Ruleset) -> Position {
        let setup = Setup::start(ruleset);
        Position::from_setup(ruleset, &setup).expect("a validated ruleset's start position is valid")
    }

    /// A position from a [`Setup`] (e.g. a diagram), validated against the ruleset.
    pub fn from_setup(ruleset: &Ruleset, setup: &Setup) -> Result<Position, PositionError> {
        let rules = ruleset.rules();
        if (setup.width, setup.height) != (rules.width, rules.height) {
            return Err(PositionError::BoardSize {
                id: ruleset.id.clone(),
                got_w: setup.width,
                got_h: setup.height,
                want_w: rules.width,
                want_h: rules.height,
            });
        }
        let mut cells = [OFF; CELLS];
        for r in 0..rules.height {
            for f in 0..rules.width {
                cells[mb(Square::new(f, r).expect("board fits"))] = EMPTY;
            }
        }
        let (hs, hd) = ruleset.in_hand();
        for color in Color::ALL {
            for (k, (kind, max)) in [("soldiers", hs), ("Duxes", hd)].into_iter().enumerate() {
                let count = setup.hand[color.index()][k];
                if count > max {
                    return Err(PositionError::BadHand { id: ruleset.id.clone(), color, kind, count, max });
                }
            }
        }
        let mut pos = Position {
            rules,
            cells,
            occ: [SquareSet::default(); 2],
            dux: [0; 2],
            soldiers: [0; 2],
            pieces: [0; 2],
            trapped: 0,
            hand: setup.hand,
            soldiers_per_side: hs,
            placements_done: 0,
            placements_total: 2 * (hs as u16 + hd as u16),
            turn: setup.turn,
            pending: 0,
            ply: setup.ply,
            since_capture: setup.since_capture,
            ply_cap: DEFAULT_PLY_CAP,
            hash: 0,
            history: History::default(),
            outcome: None,
            capturer_mask: [0; 2],
            victim_mask: [0; 2],
            rank_occ: [!((1u32 << rules.width) - 1) as u16; MAX_SIDE as usize],
            file_occ: [!((1u32 << rules.height) - 1) as u16; MAX_SIDE as usize],
        };
        pos.set_masks();
        let in_hand_now: u16 = setup.hand.iter().flatten().map(|&n| n as u16).sum();
        pos.placements_done = pos.placements_total.saturating_sub(in_hand_now);
        if in_hand_now > 0 {
            // The hands and the side to move must be those the placement order reaches
            // after this many placements (anything else leaves a player to place a piece
            // they do not hold).
            let (hand, turn) = placement_state(&rules, hs, hd, pos.placements_done);
            if hand != setup.hand || turn != setup.turn {
                let text = |h: [[u8; 2]; 2], t: Color| {
                    format!("white {},{} black {},{} with {t} to place", h[0][0], h[0][1], h[1][0], h[1][1])
                };
                return Err(PositionError::BadPlacement {
                    id: ruleset.id.clone(),
                    done: pos.placements_done,
                    want: text(hand, turn),
                    got: text(setup.hand, setup.turn),
                });
            }
        }
        for (sq, piece) in setup.pieces() {
            if sq.file() >= rules.width || sq.rank() >= rules.height {
                return Err(PositionError::BadPiece(sq, "off the board".into()));
            }
            if piece.kind == PieceKind::Dux && piece.trapped {
                return Err(PositionError::BadPiece(sq, "a Dux cannot be trapped".into()));
            }
            if piece.kind == PieceKind::Dux
                && (pos.dux[piece.color.index()] != 0 || setup.hand[piece.color.index()][1] > 0)
            {
                return Err(PositionError::TwoDuxes(piece.color));
            }
            let mut c = cell_of(piece.color, piece.kind);
            if piece.trapped {
                c |= TRAPPED | (pos.infer_axis(sq, piece.color, setup) << 4);
            }
            pos.put(mb(sq), c);
        }
        if let Some(sq) = setup.pending {
            let bad = |why| Err(PositionError::BadPending(sq, why));
            if !rules.capture.capture_grants_ply {
                return bad("this ruleset grants no further ply (capture.capture_grants_ply is off)");
            }
            if pos.is_placement_phase() {
                return bad("pieces are still in hand");
            }
            if sq.file() >= rules.width || sq.rank() >= rules.height {
                return bad("off the board");
            }
            let c = pos.cells[mb(sq)];
            if !Self::is_piece_of(c, setup.turn.index()) || c & TRAPPED != 0 {
                return bad("it is not a free piece of the side to move");
            }
            pos.pending = mb(sq);
        }
        pos.hash = pos.compute_hash();
        if pos.rules.end.repetition != Repetition::Off {
            pos.history.push(pos.hash);
        }
        pos.outcome = pos.final_checks();
        pos.pass_if_stuck();
        Ok(pos)
    }

    /// Recomputes the capturer and victim masks from the rules.
    fn set_masks(&mut self) {
        let rules = self.rules;
        for c in Color::ALL {
            let cap = |c: Color, k: PieceKind| 1u16 << cell_of(c, k);
            self.capturer_mask[c.index()] =
                cap(c, PieceKind::Soldier) | if rules.capture.dux_captures { cap(c, PieceKind::Dux) } else { 0 };
            let o = c.opponent();
            self.victim_mask[c.index()] = cap(o, PieceKind::Soldier)
                | if rules.capture.dux == DuxCapture::LikeSoldier { cap(o, PieceKind::Dux) } else { 0 }
                | if rules.capture.effect == CaptureEffect::Remove {
                    1 << (cell_of(o, PieceKind::Soldier) | TRAPPED)
                } else {
                    0
                };
        }
    }

    /// The same position under other rule parameters on the same board (e.g. with one
    /// legality filter switched off, to tell which rule forbids a move), keeping the
    /// counters and the repetition history. The outcome is recomputed as for a new
    /// position (only "no legal move" and the ply cap).
    pub fn with_rules(&self, rules: Rules) -> Result<Position, PositionError> {
        if (rules.width, rules.height) != (self.rules.width, self.rules.height) {
            return Err(PositionError::BoardSize {
                id: "(new rules)".into(),
                got_w: self.rules.width,
                got_h: self.rules.height,
                want_w: rules.width,
                want_h: rules.height,
            });
        }
        let mut p = self.clone();
        p.rules = rules;
        p.set_masks();
        if rules.end.repetition == Repetition::Off {
            p.history.clear();
        } else if p.history.is_empty() {
            p.history.push(p.hash);
        }
        p.outcome = None;
        p.outcome = p.final_checks();
        Ok(p)
    }

    /// The trap axis of a trapped piece read from a setup: the first flank of free enemy
    /// pieces found (horizontal, vertical, corner, diagonals).
    fn infer_axis(&self, sq: Square, color: Color, setup: &Setup) -> u8 {
        let enemy_free = |f: i32, r: i32| {
            if f < 0 || r < 0 {
                return false;
            }
            Square::new(f as u8, r as u8)
                .and_then(|s| setup.piece_at(s))
                .is_some_and(|p| p.color != color && !p.trapped)
        };
        let (f, r) = (sq.file() as i32, sq.rank() as i32);
        if enemy_free(f - 1, r) && enemy_free(f + 1, r) {
            return 0;
        }
        if enemy_free(f, r - 1) && enemy_free(f, r + 1) {
            return 1;
        }
        if self.is_corner(mb(sq)) {
            return CORNER_AXIS;
        }
        if enemy_free(f - 1, r - 1) && enemy_free(f + 1, r + 1) {
            return 2;
        }
        3
    }

    // ----- accessors -----

    /// The rule parameters.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move (the placer during a placement phase).
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.turn
    }

    /// The piece on a square, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        piece_of(self.cells[mb(sq)])
    }

    /// Pieces in hand: (soldiers, Duxes).
    #[inline]
    pub fn in_hand(&self, color: Color) -> (u8, u8) {
        let h = self.hand[color.index()];
        (h[0], h[1])
    }

    /// Whether pieces are still being placed.
    #[inline]
    pub fn is_placement_phase(&self) -> bool {
        self.placements_done < self.placements_total
    }

    /// The square of a side's Dux, if it has one on the board.
    #[inline]
    pub fn dux_square(&self, color: Color) -> Option<Square> {
        let m = self.dux[color.index()];
        (m != 0).then(|| sq_of(m))
    }

    /// Soldiers of a side on the board.
    #[inline]
    pub fn soldiers_on_board(&self, color: Color) -> u32 {
        self.soldiers[color.index()] as u32
    }

    /// All pieces of a side on the board (soldiers and Dux).
    #[inline]
    pub fn pieces_on_board(&self, color: Color) -> u32 {
        self.pieces[color.index()] as u32
    }

    /// Squares holding a side's pieces, ascending.
    pub fn squares_of(&self, color: Color) -> impl Iterator<Item = Square> + '_ {
        self.occ[color.index()].iter_mb().map(sq_of)
    }

    /// Plies played so far (placements included).
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Movement plies since the last capture.
    #[inline]
    pub fn plies_since_capture(&self) -> u32 {
        self.since_capture
    }

    /// The 64-bit Zobrist hash of the position (pieces with trap state, side to move,
    /// pieces in hand); equal positions hash equal.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The outcome, once the game is over.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether the game is over.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The experiment's hard ply cap (default 1000).
    pub fn ply_cap(&self) -> u32 {
        self.ply_cap
    }

    /// Sets the hard ply cap; a game already past it ends at once (`ply-cap`), and a game
    /// that had ended only by the old cap goes on when the new cap is higher.
    pub fn set_ply_cap(&mut self, cap: u32) {
        self.ply_cap = cap;
        if self.outcome.is_none() && self.ply >= cap {
            self.outcome = Some(Outcome { winner: None, reason: Reason::PlyCap });
        } else if self.outcome.is_some_and(|o| o.reason == Reason::PlyCap) && self.ply < cap {
            self.outcome = self.final_checks();
        }
    }

    /// This position as a [`Setup`] (for printing, editing and re-validating).
    pub fn to_setup(&self) -> Setup {
        let mut s = Setup::empty(self.rules.width, self.rules.height);
        for c in Color::ALL {
            for m in self.occ[c.index()].iter_mb() {
                s.set(sq_of(m), piece_of(self.cells[m]));
            }
        }
        s.turn = self.turn;
        s.hand = self.hand;
        s.ply = self.ply;
        s.since_capture = self.since_capture;
        s.pending = (self.pending != 0).then(|| sq_of(self.pending));
        s
    }

    /// The piece that must make the side to move's next ply, when the turn goes on after
    /// a capture (`capture.capture_grants_ply`).
    pub fn pending(&self) -> Option<Square> {
        (self.pending != 0).then(|| sq_of(self.pending))
    }

    /// A copy of everything but the repetition history, which it leaves empty (a plain
    /// copy, no allocation).
    #[inline]
    fn without_history(&self) -> Position {
        Position { history: History::default(), ..*self }
    }

    /// A copy with the turn passed to the other side (no ply played, outcome cleared and
    /// recomputed for the new side to move), for threat analysis such as "could the
    /// mover immobilise the enemy Dux next move".
    pub fn with_turn_passed(&self) -> Position {
        let mut p = self.without_history();
        p.turn = self.turn.opponent();
        p.hash ^= BLACK_TO_MOVE ^ pending_key(p.pending);
        p.pending = 0;
        p.outcome = None;
        p.outcome = p.final_checks();
        p
    }

    // ----- board edits -----

    #[inline]
    fn put(&mut self, m: usize, c: u8) {
        let color = (c & BLACK) as usize;
        self.cells[m] = c;
        let raw = raw_of(m);
        let (f, r) = (raw & 15, raw >> 4);
        self.rank_occ[r] |= 1 << f;
        self.file_occ[f] |= 1 << r;
        self.occ[color].insert(raw);
        self.pieces[color] += 1;
        if c & DUX != 0 {
            self.dux[color] = m;
        } else {
            self.soldiers[color] += 1;
        }
        if c & TRAPPED != 0 {
            self.trapped += 1;
        }
    }

    #[inline]
    fn take(&mut self, m: usize) -> u8 {
        let c = self.cells[m];
        let color = (c & BLACK) as usize;
        self.cells[m] = EMPTY;
        let raw = raw_of(m);
        let (f, r) = (raw & 15, raw >> 4);
        self.rank_occ[r] &= !(1 << f);
        self.file_occ[f] &= !(1 << r);
        self.occ[color].remove(raw);
        self.pieces[color] -= 1;
        if c & DUX != 0 {
            self.dux[color] = 0;
        } else {
            self.soldiers[color] -= 1;
        }
        if c & TRAPPED != 0 {
            self.trapped -= 1;
        }
        c
    }

    fn compute_hash(&self) -> u64 {
        let mut h = if self.turn == Color::Black { BLACK_TO_MOVE } else { 0 } ^ pending_key(self.pending);
        for c in Color::ALL {
            for m in self.occ[c.index()].iter_mb() {
                h ^= zobrist(raw_of(m), self.cells[m]);
            }
            h ^= hand_key(c, PieceKind::Soldier, self.hand[c.index()][0]);
            h ^= hand_key(c, PieceKind::Dux, self.hand[c.index()][1]);
        }
        h
    }
}

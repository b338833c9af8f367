//! # latrunculi-reference
//!
//! A deliberately simple, obviously correct reference implementation of the rules of
//! `crates/latrunculi-rules/SEMANTICS.md`, used only in tests: the differential test
//! plays random games and compares, at every ply, the legal moves, the board and the
//! outcome of [`RefGame`] with those of the fast engine.
//!
//! Clarity over speed: the board is a plain `Vec<Option<Cell>>`; each capture rule is
//! its own small function (see `captures.rs`); legal moves are found by generating
//! pseudo-legal moves, simulating each one fully on a copy of the board and applying the
//! legality filters; repetition stores full snapshots of the position (no hashing).
//!
//! The parts of [`RefGame`]: this file holds the state, the public methods and the
//! placement schedule; `moves.rs` the pseudo-legal plies, `legality.rs` the simulation
//! and the legality filters, `end.rs` the end of the game, `captures.rs` the capture
//! rules and `board.rs` the board.

#![warn(missing_docs)]

mod board;
mod captures;
mod end;
mod legality;
mod moves;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use latrunculi_rules::ruleset::{
    Adjudication, DuxMove, HopOver, Immobilization, LimitResult, MaterialTie, NoMoves, Placement, Repetition,
    SelfImmobilization, SoldierMove,
};
use latrunculi_rules::{Color, Move, MoveKind, Outcome, Piece, PieceKind, Reason, Rules, Ruleset, Square};

use crate::board::{Board, Cell, Pos, distance, line_directions, pos_of, square_of, step};
use crate::captures::{PlyResult, dux_immobilised, resolve_movement, resolve_removal};

/// The hard ply cap a new game starts with.
const DEFAULT_PLY_CAP: u32 = 1000;

/// A position for repetition: pieces (with trapped state and holders), side to move and
/// pieces in hand.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    board: Board,
    side: Color,
    /// The piece that must make the next ply (a ply granted by a capture).
    pending: Option<Pos>,
    hand: [(u8, u8); 2],
}

/// A pseudo-legal ply together with the travel direction of a slide or step (`None` for
/// hops, placements and removals).
#[derive(Clone, Copy, Debug)]
struct Candidate {
    mv: Move,
    dir: Option<Pos>,
}

/// How a piece walks (slides or steps), whatever its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Slide,
    Step,
    StepForwardSideways,
}

/// A game under one ruleset, played by the simple reference rules.
#[derive(Clone, Debug)]
pub struct RefGame {
    rules: Rules,
    board: Board,
    side: Color,
    /// The piece that must make the side to move's next ply, after a capture that grants
    /// a further ply (`capture.capture_grants_ply`).
    pending: Option<Pos>,
    /// `(soldiers, duxes)` in hand, indexed by [`Color::index`].
    hand: [(u8, u8); 2],
    /// Soldiers each side started with in hand (for the placement schedule).
    soldiers_in_hand_at_start: u8,
    plies: u32,
    ply_cap: u32,
    /// Movement plies since the last capture (removals and displacements count).
    quiet_plies: u32,
    /// Every position since the last capture, removal or placement, the current one last.
    history: Vec<Snapshot>,
    outcome: Option<Outcome>,
}

impl RefGame {
    /// The starting position of `ruleset` with a ply cap of 1000. Only "no legal ply" and
    /// the ply cap are checked for it.
    ///
    /// Panics if the ruleset's setup is invalid (rulesets from `Ruleset::builtin` or a
    /// file are validated).
    pub fn new(ruleset: &Ruleset) -> RefGame {
        let rules = ruleset.rules();
        let mut board = Board::new(rules.width, rules.height);
        let pieces = ruleset.initial_pieces().unwrap_or_else(|e| panic!("invalid ruleset setup: {e}"));
        for (color, kind, sq) in pieces {
            board.set(pos_of(sq), Some(Cell::free(color, kind)));
        }
        let hand = ruleset.in_hand();
        let mut game = RefGame {
            rules,
            board,
            side: rules.first_player,
            pending: None,
            hand: [hand, hand],
            soldiers_in_hand_at_start: hand.0,
            plies: 0,
            ply_cap: DEFAULT_PLY_CAP,
            quiet_plies: 0,
            history: Vec::new(),
            outcome: None,
        };
        if let Some(placer) = game.placer() {
            game.side = placer;
        }
        game.history.push(game.snapshot());
        game.outcome = game.no_legal_ply_outcome().or_else(|| game.ply_cap_outcome());
        game.pass_if_stuck();
        game
    }

    /// Sets the experiment's hard ply cap. If the game is still running and has already
    /// played that many plies, it ends at once as a `ply-cap` draw.
    pub fn set_ply_cap(&mut self, cap: u32) {
        self.ply_cap = cap;
        if self.outcome.is_none() {
            self.outcome = self.ply_cap_outcome();
        }
    }

    /// The player whose turn it is (the next placer during a placement phase).
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any (`None` off the board), with its trapped state.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.get(pos_of(sq)).map(|c| c.piece)
    }

    /// The pieces `color` has in hand: `(soldiers, duxes)`.
    pub fn in_hand(&self, color: Color) -> (u8, u8) {
        self.hand[color.index()]
    }

    /// Every legal ply of the side to move, without duplicates; empty once the game is
    /// over.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.legal_candidates().into_iter().map(|c| c.mv).collect()
    }

    /// Plays `mv` and returns the squares whose piece was removed or trapped by it,
    /// sorted. Panics if `mv` is not legal (in particular once the game is over).
    pub fn play(&mut self, mv: Move) -> Vec<Square> {
        assert!(self.outcome.is_none(), "play({mv:?}) after the game ended: {:?}", self.outcome);
        let candidate = self
            .legal_candidates()
            .into_iter()
            .find(|c| c.mv == mv)
            .unwrap_or_else(|| panic!("illegal move {mv:?} for {}", self.side));
        let result = self.simulate(&candidate);
        let mover = self.side;
        self.board = result.board.clone();
        self.plies += 1;

        if let MoveKind::Place(kind) = mv.kind {
            let hand = &mut self.hand[mover.index()];
            match kind {
                PieceKind::Soldier => hand.0 -= 1,
                PieceKind::Dux => hand.1 -= 1,
            }
            self.side = self.placer().unwrap_or(mover.opponent());
            self.history = vec![self.snapshot()];
            // Placements capture nothing and trap nothing; only steps 7 and 8 apply.
            self.outcome = self.no_legal_ply_outcome().or_else(|| self.ply_cap_outcome());
            self.pass_if_stuck();
            return Vec::new();
        }

        let captured = !result.removed.is_empty();
        // Who moves next: the remover again under `removal_then_move`; the capturing
        // piece again under `capture_grants_ply`; otherwise the other side.
        self.pending = None;
        match mv.kind {
            MoveKind::Remove if self.rules.capture.removal_then_move => {}
            MoveKind::Move if captured && self.rules.capture.capture_grants_ply => self.pending = Some(pos_of(mv.to)),
            _ => self.side = mover.opponent(),
        }
        self.quiet_plies = if captured { 0 } else { self.quiet_plies + 1 };
        if captured {
            self.history.clear();
        }
        self.history.push(self.snapshot());
        if self.pending.is_some() && self.legal_candidates().is_empty() {
            // The capturing piece has no ply: the turn passes after all.
            self.pass_turn();
        }
        self.outcome = self.end_of_game(mover, &result);
        self.pass_if_stuck();

        let mut squares: Vec<Square> = result.removed.iter().chain(&result.trapped).map(|&p| square_of(p)).collect();
        squares.sort();
        squares.dedup();
        squares
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Plies played so far, placements included.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    // ------------------------------------------------------------------------------
    // Phases and the placement schedule
    // ------------------------------------------------------------------------------

    /// Who places next, or `None` once nothing is left in hand (movement phase).
    ///
    /// Soldier placement number `i` (0-based) belongs to the scheduled player: `one-each`
    /// F O F O …, `two-each` F F O O F F …, `one-two-one` F, O O, F F, O O, …; if the
    /// scheduled player has no soldier left (possible only with an odd number in hand)
    /// the other one places. Then the first player's Dux, then the other's.
    fn placer(&self) -> Option<Color> {
        let first = self.rules.first_player;
        let other = first.opponent();
        let left = |c: Color| self.hand[c.index()];
        let soldiers_left = left(first).0 as u32 + left(other).0 as u32;
        if soldiers_left > 0 {
            let i = 2 * self.soldiers_in_hand_at_start as u32 - soldiers_left;
            let first_places = match self.rules.placement {
                Placement::OneEach => i.is_multiple_of(2),
                Placement::TwoEach => (i / 2).is_multiple_of(2),
                Placement::OneTwoOne => i == 0 || ((i - 1) / 2) % 2 == 1,
            };
            let scheduled = if first_places { first } else { other };
            return Some(if left(scheduled).0 > 0 { scheduled } else { scheduled.opponent() });
        }
        if left(first).1 > 0 {
            return Some(first);
        }
        if left(other).1 > 0 {
            return Some(other);
        }
        None
    }

    /// Whether anything is still in hand.
    fn in_placement_phase(&self) -> bool {
        self.placer().is_some()
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot { board: self.board.clone(), side: self.side, pending: self.pending, hand: self.hand }
    }
}

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

#![warn(missing_docs)]

mod board;
mod captures;
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

    // ------------------------------------------------------------------------------
    // Pseudo-legal moves
    // ------------------------------------------------------------------------------

    /// Every pseudo-legal ply of the side to move, one per `Move`.
    fn candidates(&self) -> Vec<Candidate> {
        if self.in_placement_phase() {
            return self.placement_candidates();
        }
        let mut out = self.movement_candidates();
        if let Some(p) = self.pending {
            // A granted ply: only the capturing piece moves.
            out.retain(|c| pos_of(c.mv.from) == p);
            return out;
        }
        if self.rules.capture.removal_move {
            out.extend(self.removal_candidates());
        }
        out
    }

    fn placement_candidates(&self) -> Vec<Candidate> {
        let (soldiers, duxes) = self.hand[self.side.index()];
        let kind = if soldiers > 0 {
            PieceKind::Soldier
        } else if duxes > 0 {
            PieceKind::Dux
        } else {
            return Vec::new();
        };
        // `centre_empty`: the square on file W/2 and rank H/2 (from 0) takes no piece.
        let centre = Square::new(self.rules.width / 2, self.rules.height / 2);
        let open = |p: Pos| !(self.rules.centre_empty && Some(square_of(p)) == centre);
        let empty = self.board.all_squares().into_iter().filter(|&p| self.board.is_empty(p) && open(p));
        empty.map(|p| Candidate { mv: Move::place(kind, square_of(p)), dir: None }).collect()
    }

    fn removal_candidates(&self) -> Vec<Candidate> {
        let enemy = self.side.opponent();
        let trapped = self
            .board
            .all_squares()
            .into_iter()
            .filter(|&p| self.board.get(p).is_some_and(|c| c.piece.color == enemy && c.piece.trapped));
        trapped.map(|p| Candidate { mv: Move::remove(square_of(p)), dir: None }).collect()
    }

    /// Slides, steps, displacements and hops of every free piece of the side to move.
    /// A `(from, to)` reachable both by a slide/step and by a hop chain is the slide/step
    /// (it has a travel direction).
    fn movement_candidates(&self) -> Vec<Candidate> {
        let mut moves: BTreeMap<(Pos, Pos), Option<Pos>> = BTreeMap::new();
        for from in self.board.all_squares() {
            let Some(cell) = self.board.get(from) else { continue };
            if cell.piece.color != self.side || cell.piece.trapped {
                continue;
            }
            for (to, d) in self.walk_destinations(from, cell.piece) {
                moves.insert((from, to), Some(d));
            }
            if self.may_hop(cell.piece.kind) {
                for to in self.hop_destinations(from, cell.piece.color) {
                    moves.entry((from, to)).or_insert(None);
                }
            }
        }
        moves
            .into_iter()
            .map(|((from, to), dir)| Candidate { mv: Move::movement(square_of(from), square_of(to)), dir })
            .collect()
    }

    fn walk_of(&self, kind: PieceKind) -> Walk {
        match kind {
            PieceKind::Soldier => match self.rules.movement.soldier {
                SoldierMove::Slide => Walk::Slide,
                SoldierMove::Step => Walk::Step,
                SoldierMove::StepForwardSideways => Walk::StepForwardSideways,
            },
            PieceKind::Dux => match self.rules.movement.dux {
                DuxMove::Slide => Walk::Slide,
                DuxMove::Step => Walk::Step,
            },
        }
    }

    /// Destinations of slides and steps (with their direction), and of displacements.
    fn walk_destinations(&self, from: Pos, piece: Piece) -> Vec<(Pos, Pos)> {
        let walk = self.walk_of(piece.kind);
        let forward = if piece.color == Color::White { 1 } else { -1 };
        let max_len = if walk == Walk::Slide { i32::MAX } else { 1 };
        let mut out = Vec::new();
        for d in line_directions(self.rules.movement.diagonal) {
            if walk == Walk::StepForwardSideways && d.1 == -forward {
                continue; // backward (straight or diagonal)
            }
            let mut k = 1;
            loop {
                let q = step(from, d, k);
                if !self.board.on_board(q) {
                    break;
                }
                if self.board.is_empty(q) {
                    out.push((q, d));
                    if k >= max_len {
                        break;
                    }
                    k += 1;
                    continue;
                }
                // The first occupied square beyond the empty run.
                if self.rules.capture.capture_by_displacement && self.is_trapped_enemy_soldier(q, piece.color) {
                    out.push((q, d));
                }
                break;
            }
        }
        out
    }

    fn is_trapped_enemy_soldier(&self, p: Pos, mover: Color) -> bool {
        self.board
            .get(p)
            .is_some_and(|c| c.piece.color == mover.opponent() && c.piece.kind == PieceKind::Soldier && c.piece.trapped)
    }

    fn may_hop(&self, kind: PieceKind) -> bool {
        match kind {
            PieceKind::Soldier => self.rules.movement.soldier_hops,
            PieceKind::Dux => self.rules.movement.dux_jumps,
        }
    }

    /// Whether a piece of `mover` may hop over the square `over` of board `b`.
    fn may_hop_over(&self, b: &Board, over: Pos, mover: Color) -> bool {
        let Some(cell) = b.get(over) else { return false };
        let own = cell.piece.color == mover;
        match self.rules.movement.hop_over {
            HopOver::Any => {}
            HopOver::Enemy if own => return false,
            HopOver::OwnOrTrapped if !own && !cell.piece.trapped => return false,
            _ => {}
        }
        !(self.rules.movement.no_jump_over_dux && cell.piece.kind == PieceKind::Dux)
    }

    /// Single hops from `p` on board `b` (where the moving piece has been lifted).
    fn single_hops(&self, b: &Board, p: Pos, mover: Color) -> Vec<Pos> {
        line_directions(self.rules.movement.diagonal)
            .into_iter()
            .filter(|&d| self.may_hop_over(b, step(p, d, 1), mover) && b.is_empty(step(p, d, 2)))
            .map(|d| step(p, d, 2))
            .collect()
    }

    /// Where a hop (or, with `hop_chain`, a hop chain) from `from` can end.
    ///
    /// The piece is lifted first. A hop never changes the board, so "a hop from `a` to
    /// `c`" depends only on the board, and it is symmetric: the reverse hop needs `a`
    /// empty, which holds for `from` (lifted) and every landing square (empty). Hence
    /// the ends of chains that never revisit a square are exactly the squares other than
    /// `from` reachable by hops at all (a shortest chain never revisits): a plain graph
    /// search.
    fn hop_destinations(&self, from: Pos, mover: Color) -> Vec<Pos> {
        let mut b = self.board.clone();
        b.set(from, None);
        if !self.rules.movement.hop_chain {
            return self.single_hops(&b, from, mover);
        }
        let mut seen = vec![from];
        let mut todo = vec![from];
        while let Some(p) = todo.pop() {
            for q in self.single_hops(&b, p, mover) {
                if !seen.contains(&q) {
                    seen.push(q);
                    todo.push(q);
                }
            }
        }
        seen.retain(|&q| q != from);
        seen
    }

    // ------------------------------------------------------------------------------
    // Simulation and legality
    // ------------------------------------------------------------------------------

    fn simulate(&self, c: &Candidate) -> PlyResult {
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

    fn legal_candidates(&self) -> Vec<Candidate> {
        self.candidates().into_iter().filter(|c| self.is_legal(c, &self.simulate(c))).collect()
    }

    /// Whether the simulated ply passes every legality filter of SEMANTICS.md.
    /// Placements are always legal (any empty square).
    fn is_legal(&self, c: &Candidate, r: &PlyResult) -> bool {
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
    fn is_offensive(&self, to: Pos, r: &PlyResult) -> bool {
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
    fn is_sole_attacker(&self, p: Pos, e: Pos) -> bool {
        let Some(me) = self.board.get(p) else { return false };
        self.board.neighbours4(e).into_iter().all(|n| n == p || !self.board.has_piece_of(n, me.piece.color))
    }

    /// The orthogonally adjacent enemy pieces of the piece on `p`.
    fn adjacent_enemies(&self, p: Pos) -> Vec<Pos> {
        let Some(me) = self.board.get(p) else { return Vec::new() };
        let enemy = me.piece.color.opponent();
        self.board.neighbours4(p).into_iter().filter(|&n| self.board.has_piece_of(n, enemy)).collect()
    }

    /// Rules 10–12 (evaluated before the ply): a soldier that is the sole attacker of an
    /// adjacent enemy piece may make only offensive plies.
    fn locked_soldier_ok(&self, from: Pos, offensive: bool) -> bool {
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
    fn dux_limits_ok(&self, from: Pos, to: Pos, offensive: bool) -> bool {
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
    fn immobilisation_definition(&self) -> Immobilization {
        match self.rules.end.dux_immobilized {
            Immobilization::Off => Immobilization::AnyBlockers,
            def => def,
        }
    }

    /// `self_immobilization = "illegal"`: the mover's own Dux must not be immobilised
    /// after the ply (captures removed).
    fn self_immobilisation_ok(&self, r: &PlyResult) -> bool {
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
    fn rule7_ok(&self, to: Pos, r: &PlyResult) -> bool {
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
    fn repetition_ok(&self, r: &PlyResult) -> bool {
        if self.rules.end.repetition != Repetition::Illegal || !r.removed.is_empty() {
            return true;
        }
        // (Plies that keep the turn, removals and captures, are never repetitions.)
        let after = Snapshot { board: r.board.clone(), side: self.side.opponent(), pending: None, hand: self.hand };
        let earlier = self.history.iter().filter(|s| **s == after).count() as u32;
        earlier + 1 < self.rules.end.repetition_count
    }

    // ------------------------------------------------------------------------------
    // End of the game
    // ------------------------------------------------------------------------------

    /// The ordered end checks of SEMANTICS.md after a movement or removal ply by
    /// `mover` (the game state already updated).
    fn end_of_game(&self, mover: Color, r: &PlyResult) -> Option<Outcome> {
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
    fn no_legal_ply_outcome(&self) -> Option<Outcome> {
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
    fn pass_if_stuck(&mut self) {
        if self.outcome.is_some() || self.rules.end.no_moves != NoMoves::Pass || !self.legal_candidates().is_empty() {
            return;
        }
        self.pass_turn();
    }

    /// Hands the turn to the other side without a ply (a stuck side's pass, or a
    /// granted ply the capturing piece cannot make); that position, with no pending
    /// piece, replaces the current one in the history.
    fn pass_turn(&mut self) {
        if self.history.last() == Some(&self.snapshot()) {
            self.history.pop();
        }
        self.pending = None;
        self.side = self.side.opponent();
        self.history.push(self.snapshot());
    }

    /// Step 8: the ply cap.
    fn ply_cap_outcome(&self) -> Option<Outcome> {
        (self.plies >= self.ply_cap).then_some(Outcome { winner: None, reason: Reason::PlyCap })
    }

    /// More pieces (on the board plus in hand) wins by `material`; equal is a draw for
    /// `reason_if_equal`. With `adjudication = "draw"` every count is that draw.
    fn material_outcome(&self, reason_if_equal: Reason) -> Outcome {
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

//! The move notation of docs/rules.md §2: printing moves, parsing move tokens into legal
//! moves, and naming the rule an illegal move breaks.
//!
//! Game records are read in [`crate::record`] and replayed in [`crate::replay`](mod@crate::replay).
//!
//! # Moves
//!
//! `[D]from-to[xSQ...][^SQ...][suffix]`, e.g. `d1-d5xc5`, `De6-i6xi7`, `h3-g3xf3xg4`,
//! `f6-f4#`:
//! - `D` prefixes a Dux move (a missing or superfluous `D` is an error on input);
//! - each `xSQ` names one captured (removed) square, printed in board order (`a1`, `b1`,
//!   …, `a2`, … — the order of [`Square`]); any order on input;
//! - each `^SQ` names a piece that the move *traps* (Schädler's Alligatus, capture
//!   effect `trap`). A trap is not a removal, so it gets its own mark and `x` always
//!   means "this piece left the board";
//! - placements are `@e4` (soldier) and `D@e4` (Dux); the removal of a trapped enemy
//!   piece as a whole ply is `xe4`; a hop chain is written by its two ends;
//! - the suffix (only in rulesets with a Dux whose immobilisation ends the game) is the
//!   first that applies of:
//!   - `#` the move immobilises the enemy Dux and wins;
//!   - `+` *check*: the mover threatens to immobilise the enemy Dux with his next move
//!     (on the position after the move with the turn passed back to the mover, some
//!     legal move of his ends the game by immobilisation);
//!   - `(+)` *quasi check*: the move ends orthogonally next to the enemy Dux and leaves
//!     that Dux exactly one open side (an empty on-board orthogonal neighbour), without
//!     a mate threat (seed 001: "If the move that hits the enemy Dux also
//!     partially-immobilises him, but does NOT place him in check");
//!   - `*` *hit*: the move ends orthogonally next to the enemy Dux.
//!
//!   Quality marks `!`, `?`, `!?`, `?!`, `!!`, `??` are accepted and ignored on input.
//!   Square names may be in either case.
//!
//! [`parse_move`] turns a token into the legal [`Move`] it names, or a [`MoveError`] that
//! says why not — for an illegal move, which rule forbids it ([`RuleBreach`]). It finds
//! the rule by replaying the question under copies of the ruleset with the legality
//! filters of SEMANTICS.md switched off one by one. Written capture lists and suffixes
//! that disagree with the engine are reported as [`NotationWarning`]s, not errors.

use std::fmt;

use crate::position::{Effects, Position};
use crate::ruleset::{Immobilization, Repetition, Ruleset, SelfImmobilization, SoldierMove};
use crate::setup::Setup;
use crate::types::{Color, Move, MoveKind, Outcome, PieceKind, Reason, Square};

mod diagnose;
mod errors;
#[cfg(test)]
mod tests;
mod token;

use diagnose::diagnose;
pub(crate) use diagnose::relaxed;
pub use errors::*;
pub use token::*;

// ======================================================================================
// Suffixes
// ======================================================================================

/// The check-like suffix of a move in rulesets with a Dux.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suffix {
    /// `*`: the move ends orthogonally next to the enemy Dux (a hit, XXI rule 19).
    Hit,
    /// `(+)`: quasi check — the move ends next to the enemy Dux and leaves it exactly one
    /// open side, without threatening mate.
    QuasiCheck,
    /// `+`: check — the mover threatens to immobilise the enemy Dux with his next move.
    Check,
    /// `#`: the move immobilises the enemy Dux and wins.
    Mate,
}

impl Suffix {
    /// The written symbol: `*`, `(+)`, `+` or `#`.
    pub fn symbol(self) -> &'static str {
        match self {
            Suffix::Hit => "*",
            Suffix::QuasiCheck => "(+)",
            Suffix::Check => "+",
            Suffix::Mate => "#",
        }
    }

    /// A name for messages: `hit`, `quasi check`, `check`, `mate`.
    pub fn name(self) -> &'static str {
        match self {
            Suffix::Hit => "hit",
            Suffix::QuasiCheck => "quasi check",
            Suffix::Check => "check",
            Suffix::Mate => "mate",
        }
    }
}

impl fmt::Display for Suffix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.symbol())
    }
}

// ======================================================================================
// Small geometry helpers (public API of Position only)
// ======================================================================================

/// The on-board orthogonal neighbours of `sq`.
fn orth_neighbours(width: u8, height: u8, sq: Square) -> impl Iterator<Item = Square> {
    let (f, r) = (sq.file() as i32, sq.rank() as i32);
    [(1, 0), (-1, 0), (0, 1), (0, -1)].into_iter().filter_map(move |(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        (nf >= 0 && nr >= 0 && nf < width as i32 && nr < height as i32)
            .then(|| Square::new(nf as u8, nr as u8))
            .flatten()
    })
}

fn neighbours_in(pos: &Position, sq: Square) -> impl Iterator<Item = Square> {
    orth_neighbours(pos.rules().width, pos.rules().height, sq)
}

/// Whether two squares are orthogonally adjacent.
fn adjacent(a: Square, b: Square) -> bool {
    (a.file() as i32 - b.file() as i32).abs() + (a.rank() as i32 - b.rank() as i32).abs() == 1
}

/// Empty on-board orthogonal neighbours of `sq`.
fn open_sides(pos: &Position, sq: Square) -> usize {
    neighbours_in(pos, sq).filter(|&n| pos.piece_at(n).is_none()).count()
}

fn on_board(pos: &Position, sq: Square) -> bool {
    sq.file() < pos.rules().width && sq.rank() < pos.rules().height
}

/// Whether the piece on `attacker` (of `color`) is the only piece of `color` orthogonally
/// adjacent to the enemy on `enemy` (SEMANTICS.md "sole attacker").
fn sole_attacker(pos: &Position, attacker: Square, enemy: Square, color: Color) -> bool {
    neighbours_in(pos, enemy).all(|n| n == attacker || pos.piece_at(n).is_none_or(|p| p.color != color))
}

fn immobilized_by(mover: Color) -> Option<Outcome> {
    Some(Outcome { winner: Some(mover), reason: Reason::Immobilized })
}

/// Whether suffixes apply in this ruleset: it has a Dux and immobilising it ends the game.
fn suffixes_apply(pos: &Position) -> bool {
    pos.rules().has_dux && pos.rules().end.dux_immobilized != Immobilization::Off
}

/// Whether `mover` could immobilise the enemy Dux with one legal move on `after` (the
/// position after his move), the turn passed back to him. Only a move ending next to
/// the Dux can close one of its sides, so only those are tried.
pub fn threatens_immobilization(after: &Position, mover: Color) -> bool {
    let probe = if after.side_to_move() == mover { after.clone() } else { after.with_turn_passed() };
    let Some(dux) = probe.dux_square(mover.opponent()) else {
        return false;
    };
    probe.legal_move_list().into_iter().filter(|m| m.kind != MoveKind::Remove && adjacent(m.to, dux)).any(|m| {
        let mut p = probe.clone();
        p.play(m);
        p.outcome() == immobilized_by(mover)
    })
}

/// The suffix of a ply by `mover` that led to `after` (whose game outcome is `outcome`,
/// normally `after.outcome()`); `landed` is the square a piece moved to or was placed on
/// (`None` for a removal). `None` when no suffix applies or the ruleset has none.
pub fn suffix_after(
    after: &Position,
    outcome: Option<Outcome>,
    mover: Color,
    landed: Option<Square>,
) -> Option<Suffix> {
    if !suffixes_apply(after) {
        return None;
    }
    if outcome == immobilized_by(mover) {
        return Some(Suffix::Mate);
    }
    let dux = after.dux_square(mover.opponent())?;
    if outcome.is_none() && threatens_immobilization(after, mover) {
        return Some(Suffix::Check);
    }
    let hit = landed.is_some_and(|s| adjacent(s, dux));
    if hit && open_sides(after, dux) == 1 {
        Some(Suffix::QuasiCheck)
    } else if hit {
        Some(Suffix::Hit)
    } else {
        None
    }
}

// ======================================================================================
// Printing
// ======================================================================================

/// A move as the engine writes it: the move, whether a Dux makes it, what it captures
/// and traps, and its suffix. `Display` gives the notation, e.g. `h3-g3xf3xg4`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    /// The move.
    pub mv: Move,
    /// A Dux moves (or is placed): the `D` prefix.
    pub dux: bool,
    /// Squares whose pieces the move removes, in board order (not the removed piece of
    /// a removal ply, which is the move itself).
    pub captures: Vec<Square>,
    /// Squares whose pieces the move traps, in board order.
    pub traps: Vec<Square>,
    /// The suffix, if any.
    pub suffix: Option<Suffix>,
}

impl MoveText {
    /// Builds the text of a ply by the side to move of `before` that led to `after`
    /// (with game outcome `outcome`) and made the effects `fx`.
    pub fn build(before: &Position, after: &Position, outcome: Option<Outcome>, mv: Move, fx: &Effects) -> MoveText {
        let mover = before.side_to_move();
        let dux = match mv.kind {
            MoveKind::Move => before.piece_at(mv.from).is_some_and(|p| p.kind == PieceKind::Dux),
            MoveKind::Place(k) => k == PieceKind::Dux,
            MoveKind::Remove => false,
        };
        let (mut captures, mut traps) = match mv.kind {
            MoveKind::Remove => (Vec::new(), Vec::new()),
            _ => (fx.captured(), fx.trapped()),
        };
        captures.sort();
        traps.sort();
        let landed = (mv.kind != MoveKind::Remove).then_some(mv.to);
        MoveText { mv, dux, captures, traps, suffix: suffix_after(after, outcome, mover, landed) }
    }

    /// The notation without the suffix, e.g. `De6-i6xi7`.
    pub fn body(&self) -> String {
        let mut s = String::new();
        let d = if self.dux { "D" } else { "" };
        match self.mv.kind {
            MoveKind::Move => s.push_str(&format!("{d}{}-{}", self.mv.from, self.mv.to)),
            MoveKind::Place(_) => s.push_str(&format!("{d}@{}", self.mv.to)),
            MoveKind::Remove => s.push_str(&format!("x{}", self.mv.to)),
        }
        for c in &self.captures {
            s.push_str(&format!("x{c}"));
        }
        for t in &self.traps {
            s.push_str(&format!("^{t}"));
        }
        s
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.body())?;
        if let Some(s) = self.suffix {
            f.write_str(s.symbol())?;
        }
        Ok(())
    }
}

/// The engine's notation of a legal move in `pos` (captures, traps and suffix computed
/// by playing it on a copy); `None` if the move is not legal.
pub fn move_text(pos: &Position, mv: Move) -> Option<MoveText> {
    if !pos.is_legal(mv) {
        return None;
    }
    let mut after = pos.clone();
    let fx = after.play(mv);
    Some(MoveText::build(pos, &after, after.outcome(), mv, &fx))
}

/// Notation helpers as methods of [`Position`].
impl Position {
    /// The notation of a legal move, e.g. `f6-f4#`; `None` if the move is not legal.
    pub fn move_to_string(&self, mv: Move) -> Option<String> {
        move_text(self, mv).map(|t| t.to_string())
    }
}

// ======================================================================================
// Parsing a move in a position
// ======================================================================================

/// A token read in a position: the legal move, the token as read, the engine's own
/// notation of the move, and the disagreements between the two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedMove {
    /// The legal move.
    pub mv: Move,
    /// The token as read.
    pub written: WrittenMove,
    /// The engine's notation of the move.
    pub text: MoveText,
    /// Written captures, traps or suffix that disagree with the engine.
    pub warnings: Vec<NotationWarning>,
}

/// Reads a move token in `pos` (which must have been built from `ruleset`; the ruleset
/// is needed to name the rule an illegal move breaks). Returns the legal move, or why
/// the token cannot be played.
pub fn parse_move(ruleset: &Ruleset, pos: &Position, token: &str) -> Result<ParsedMove, MoveError> {
    let written = parse_token(token)?;
    let mv = resolve_written(ruleset, pos, &written)?;
    let text = move_text(pos, mv).ok_or_else(|| diagnose(ruleset, pos, mv))?;
    let warnings = compare_written(&written, &text);
    Ok(ParsedMove { mv, written, text, warnings })
}

/// Checks everything about a written token that does not need the legality filters:
/// the game is on, squares are on the board, the right piece is there, `D` is right.
/// Returns the move the token names (which may still be illegal).
fn resolve_written(ruleset: &Ruleset, pos: &Position, w: &WrittenMove) -> Result<Move, MoveError> {
    if ruleset.rules() != *pos.rules() {
        return Err(MoveError::RulesetMismatch);
    }
    if let Some(o) = pos.outcome() {
        return Err(MoveError::GameOver(o));
    }
    let (width, height) = (pos.rules().width, pos.rules().height);
    let check = |sq: Square| {
        if on_board(pos, sq) { Ok(sq) } else { Err(MoveError::OffBoard { square: sq, width, height }) }
    };
    let me = pos.side_to_move();
    match w.kind {
        WrittenKind::Move { from, to } => {
            check(from)?;
            check(to)?;
            if pos.is_placement_phase() {
                return Err(MoveError::PlacementPhase);
            }
            let piece = pos.piece_at(from).ok_or(MoveError::NoPiece(from))?;
            if piece.color != me {
                return Err(MoveError::WrongSide { square: from, owner: piece.color, to_move: me });
            }
            match (piece.kind, w.dux) {
                (PieceKind::Dux, false) => return Err(MoveError::MissingDux(from)),
                (PieceKind::Soldier, true) => return Err(MoveError::ExtraDux(from)),
                _ => {}
            }
            if piece.trapped {
                return Err(MoveError::Trapped(from));
            }
            Ok(Move::movement(from, to))
        }
        WrittenKind::Place { to } => {
            check(to)?;
            let bad = |reason: &str| MoveError::BadPlacement { square: to, reason: reason.to_string() };
            if !pos.is_placement_phase() {
                return Err(bad("there is no placement phase now"));
            }
            if pos.piece_at(to).is_some() {
                return Err(bad("the square is occupied"));
            }
            let (soldiers, duxes) = pos.in_hand(me);
            if w.dux && duxes == 0 {
                return Err(bad(&format!("{me} has no Dux in hand")));
            }
            if w.dux && soldiers > 0 {
                return Err(bad("soldiers are placed before the Dux"));
            }
            if !w.dux && soldiers == 0 {
                return Err(bad(&format!("{me} has no soldier left in hand (write D@ for the Dux)")));
            }
            Ok(w.to_move())
        }
        WrittenKind::Remove { at } => {
            check(at)?;
            let bad = |reason: &str| MoveError::BadRemoval { square: at, reason: reason.to_string() };
            if !pos.rules().capture.removal_move {
                return Err(bad("this ruleset has no removal moves"));
            }
            if pos.is_placement_phase() {
                return Err(bad("pieces are still being placed"));
            }
            let piece = pos.piece_at(at).ok_or(MoveError::NoPiece(at))?;
            if piece.color == me {
                return Err(bad("it is the mover's own piece"));
            }
            if !piece.trapped {
                return Err(bad("it is not trapped"));
            }
            Ok(w.to_move())
        }
    }
}

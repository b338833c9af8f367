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
// Reading tokens
// ======================================================================================

/// What a written move token names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WrittenKind {
    /// `from-to`.
    Move {
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
    },
    /// `@to` or `D@to`.
    Place {
        /// The square placed on.
        to: Square,
    },
    /// `xat`: removal of a trapped enemy piece.
    Remove {
        /// The square of the removed piece.
        at: Square,
    },
}

/// A move token as written, read without looking at any position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct WrittenMove {
    /// What the token names.
    pub kind: WrittenKind,
    /// Written with the `D` prefix.
    pub dux: bool,
    /// The written `xSQ` captures, in written order.
    pub captures: Vec<Square>,
    /// The written `^SQ` traps, in written order.
    pub traps: Vec<Square>,
    /// The written suffix, if any.
    pub suffix: Option<Suffix>,
    /// The quality mark (`!`, `?!`, …), ignored by the engine.
    pub quality: Option<String>,
}

impl WrittenMove {
    /// The move this token names, given the kind of piece a placement puts down.
    pub fn to_move(&self) -> Move {
        match self.kind {
            WrittenKind::Move { from, to } => Move::movement(from, to),
            WrittenKind::Place { to } => Move::place(if self.dux { PieceKind::Dux } else { PieceKind::Soldier }, to),
            WrittenKind::Remove { at } => Move::remove(at),
        }
    }
}

const QUALITY_MARKS: [&str; 6] = ["!", "?", "!?", "?!", "!!", "??"];

/// Splits a trailing quality mark off `s`.
fn strip_quality<'a>(token: &str, s: &'a str) -> Result<(&'a str, Option<String>), MoveError> {
    let rest = s.trim_end_matches(['!', '?']);
    let mark = &s[rest.len()..];
    if mark.is_empty() {
        return Ok((s, None));
    }
    if !QUALITY_MARKS.contains(&mark) {
        return Err(malformed(token, format!("'{mark}' is not a quality mark (use ! ? !? ?! !! ??)")));
    }
    Ok((rest, Some(mark.to_string())))
}

fn malformed(token: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Malformed { token: token.to_string(), reason: reason.into() }
}

struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// A square: a letter and one or two digits.
    fn square(&mut self, token: &str, what: &str) -> Result<Square, MoveError> {
        let start = self.i;
        if !self.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
            return Err(malformed(token, format!("expected {what} (a square such as e4)")));
        }
        self.i += 1;
        let mut digits = 0;
        while digits < 2 && self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            digits += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        text.parse::<Square>().map_err(|e| malformed(token, format!("{what}: {e}")))
    }
}

/// Reads a move token on its own (syntax only): `[D]from-to[xSQ...][^SQ...][suffix][!?]`,
/// `[D]@SQ`, `xSQ`. Every error is [`MoveError::Malformed`].
pub fn parse_token(token: &str) -> Result<WrittenMove, MoveError> {
    let t = token.trim();
    if t.is_empty() {
        return Err(malformed(token, "empty move"));
    }
    if !t.is_ascii() {
        return Err(malformed(token, "unexpected non-ASCII character"));
    }
    // Quality mark, then suffix, then (tolerated) a quality mark written before it.
    let (rest, mut quality) = strip_quality(token, t)?;
    let (rest, suffix) = if let Some(r) = rest.strip_suffix("(+)") {
        (r, Some(Suffix::QuasiCheck))
    } else if let Some(r) = rest.strip_suffix('#') {
        (r, Some(Suffix::Mate))
    } else if let Some(r) = rest.strip_suffix('+') {
        (r, Some(Suffix::Check))
    } else if let Some(r) = rest.strip_suffix('*') {
        (r, Some(Suffix::Hit))
    } else {
        (rest, None)
    };
    let (body, q2) = strip_quality(token, rest)?;
    if q2.is_some() {
        if quality.is_some() || suffix.is_none() {
            return Err(malformed(token, "more than one quality mark"));
        }
        quality = q2;
    }
    let mut c = Cursor { s: body.as_bytes(), i: 0 };
    let dux =
        matches!(c.peek(), Some(b'D' | b'd')) && c.peek_at(1).is_some_and(|n| n == b'@' || n.is_ascii_alphabetic());
    if dux {
        c.i += 1;
    }
    let mut captures = Vec::new();
    let mut traps = Vec::new();
    let kind = if c.eat(b'@') {
        WrittenKind::Place { to: c.square(token, "the placement square")? }
    } else if !dux && matches!(c.peek(), Some(b'x' | b'X')) {
        c.i += 1;
        WrittenKind::Remove { at: c.square(token, "the square of the piece removed")? }
    } else {
        let from = c.square(token, "the start square")?;
        if !c.eat(b'-') {
            return Err(malformed(token, "expected '-' between the start and end squares"));
        }
        let to = c.square(token, "the end square")?;
        if from == to {
            return Err(malformed(token, "start and end square are the same"));
        }
        WrittenKind::Move { from, to }
    };
    if !matches!(kind, WrittenKind::Remove { .. }) {
        loop {
            match c.peek() {
                Some(b'x' | b'X') => {
                    c.i += 1;
                    captures.push(c.square(token, "a captured square after 'x'")?);
                }
                Some(b'^') => {
                    c.i += 1;
                    traps.push(c.square(token, "a trapped square after '^'")?);
                }
                _ => break,
            }
        }
    }
    if c.i < c.s.len() {
        let rest = &body[c.i..];
        return Err(malformed(token, format!("unexpected '{rest}'")));
    }
    Ok(WrittenMove { kind, dux, captures, traps, suffix, quality })
}

// ======================================================================================
// Errors and warnings
// ======================================================================================

/// A rule of the ruleset that forbids a move the pieces could physically make.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleBreach {
    /// XXI rule 18: the Dux has one open side and an enemy next to it: it cannot move.
    DuxPartiallyImmobilized {
        /// The Dux's square.
        dux: Square,
    },
    /// XXI rule 17: the Dux is the sole attacker of two or more adjacent enemies: only
    /// offensive moves.
    DuxDoubleCombat {
        /// The Dux's square.
        dux: Square,
        /// The enemies it is the sole attacker of.
        enemies: Vec<Square>,
    },
    /// XXI rule 16: the Dux is in single combat: a non-offensive move goes one square.
    DuxSingleCombat {
        /// The Dux's square.
        dux: Square,
        /// The enemy it is the sole attacker of.
        enemy: Square,
    },
    /// XXI rule 10: a soldier that is the sole attacker of an adjacent enemy (locked)
    /// may make only offensive moves.
    LockedSoldier {
        /// The soldier's square.
        soldier: Square,
        /// The enemy it is the sole attacker of.
        enemy: Square,
    },
    /// XXI rules 1c/20 (`end.self_immobilization = "illegal"`): the move would leave
    /// the mover's own Dux immobilised after its captures are removed.
    SelfImmobilization,
    /// Schädler's rule 7: ending between two enemy pieces without trapping.
    BetweenEnemies,
    /// `end.repetition = "illegal"`: the move would repeat a position too often.
    Repetition,
}

impl fmt::Display for RuleBreach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleBreach::DuxPartiallyImmobilized { dux } => write!(
                f,
                "rule 18: the Dux on {dux} has only one open side and an enemy next to it, so it cannot move at all"
            ),
            RuleBreach::DuxDoubleCombat { dux, enemies } => write!(
                f,
                "rule 17: the Dux on {dux} is the sole attacker of {} and may only make offensive moves",
                join_squares(enemies, " and ")
            ),
            RuleBreach::DuxSingleCombat { dux, enemy } => write!(
                f,
                "rule 16: the Dux on {dux} is in single combat with the piece on {enemy} and may only move one square non-offensively"
            ),
            RuleBreach::LockedSoldier { soldier, enemy } => write!(
                f,
                "rule 10: the soldier on {soldier} is the sole attacker of the piece on {enemy} (locked) and may only make offensive moves"
            ),
            RuleBreach::SelfImmobilization => {
                f.write_str("self-immobilisation (rule 1c/20): the move leaves the mover's own Dux immobilised")
            }
            RuleBreach::BetweenEnemies => {
                f.write_str("rule 7: a piece may end between two enemy pieces only if it traps one")
            }
            RuleBreach::Repetition => f.write_str("repetition: the move would repeat a position too often"),
        }
    }
}

fn join_squares(v: &[Square], sep: &str) -> String {
    v.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(sep)
}

fn capture_list(v: &[Square], mark: char) -> String {
    if v.is_empty() { "nothing".to_string() } else { v.iter().map(|s| format!("{mark}{s}")).collect() }
}

/// Why a move token cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The token is not a move in the notation.
    #[error("malformed move '{token}': {reason}")]
    Malformed {
        /// The token.
        token: String,
        /// What is wrong.
        reason: String,
    },
    /// The game is already over.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// The ruleset given does not belong to the position.
    #[error("the ruleset does not match the position's rules")]
    RulesetMismatch,
    /// A square outside the board.
    #[error("{square} is not on the {width}x{height} board")]
    OffBoard {
        /// The square.
        square: Square,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// No piece on the start square.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece belongs to the other side.
    #[error("not that side's turn: the piece on {square} is {owner}'s and {to_move} is to move")]
    WrongSide {
        /// The start square.
        square: Square,
        /// The piece's owner.
        owner: Color,
        /// The side to move.
        to_move: Color,
    },
    /// A Dux move written without `D`.
    #[error("the piece on {0} is a Dux: a Dux move is written with D (D{0}-...)")]
    MissingDux(Square),
    /// A soldier move (or placement) written with `D`.
    #[error("the piece on {0} is a soldier, not a Dux: drop the D")]
    ExtraDux(Square),
    /// A trapped piece cannot move.
    #[error("the piece on {0} is trapped and cannot move")]
    Trapped(Square),
    /// A movement while pieces are still being placed.
    #[error("pieces are still being placed: write a placement such as @e4")]
    PlacementPhase,
    /// A placement that cannot be made.
    #[error("cannot place on {square}: {reason}")]
    BadPlacement {
        /// The square.
        square: Square,
        /// Why not.
        reason: String,
    },
    /// A removal that cannot be made.
    #[error("cannot remove the piece on {square}: {reason}")]
    BadRemoval {
        /// The square.
        square: Square,
        /// Why not.
        reason: String,
    },
    /// The piece cannot physically get there (blocked path, wrong line, occupied …).
    #[error("{}{from}-{to} is impossible: {reason}", if *.dux { "D" } else { "" })]
    Unreachable {
        /// A Dux move.
        dux: bool,
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
        /// Why.
        reason: String,
    },
    /// The piece could get there but a rule forbids the move.
    #[error("{}{from}-{to} is illegal: {}", if *.dux { "D" } else { "" }, breaches_text(.breaches))]
    Illegal {
        /// A Dux move.
        dux: bool,
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
        /// Every rule the move breaks (empty if the engine could not name one).
        breaches: Vec<RuleBreach>,
    },
}

fn breaches_text(b: &[RuleBreach]) -> String {
    if b.is_empty() {
        "the engine does not allow it (no single rule could be named)".to_string()
    } else {
        b.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("; and ")
    }
}

impl MoveError {
    /// Whether the move breaks a rule but the piece could physically make it (the case
    /// [`ReplayOptions::continue_on_illegal`](crate::replay::ReplayOptions::continue_on_illegal) plays through).
    pub fn is_rule_breach(&self) -> bool {
        matches!(self, MoveError::Illegal { .. })
    }
}

/// A disagreement between what a record writes and what the engine computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NotationWarning {
    /// The written capture list differs from the captures the move makes.
    Captures {
        /// Written, in board order.
        written: Vec<Square>,
        /// Computed, in board order.
        engine: Vec<Square>,
    },
    /// The written trap list differs from the traps the move makes.
    Traps {
        /// Written, in board order.
        written: Vec<Square>,
        /// Computed, in board order.
        engine: Vec<Square>,
    },
    /// The written suffix differs from the computed one.
    Suffix {
        /// Written.
        written: Suffix,
        /// Computed.
        engine: Option<Suffix>,
    },
    /// The move number written before the move is not this move's number.
    MoveNumber {
        /// Written.
        written: u32,
        /// This move's number.
        expected: u32,
    },
    /// `N...` (a second-player move number) written before a first-player move, or the
    /// other way round.
    MoveSide {
        /// The side whose move the number announces.
        written: Color,
        /// The side actually to move.
        to_move: Color,
    },
}

impl fmt::Display for NotationWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationWarning::Captures { written, engine } => write!(
                f,
                "the record writes captures {} but the move captures {}",
                capture_list(written, 'x'),
                capture_list(engine, 'x')
            ),
            NotationWarning::Traps { written, engine } => write!(
                f,
                "the record writes traps {} but the move traps {}",
                capture_list(written, '^'),
                capture_list(engine, '^')
            ),
            NotationWarning::Suffix { written, engine } => match engine {
                Some(e) => write!(
                    f,
                    "the record writes '{written}' ({}) but the engine finds '{e}' ({})",
                    written.name(),
                    e.name()
                ),
                None => write!(f, "the record writes '{written}' ({}) but the engine finds no suffix", written.name()),
            },
            NotationWarning::MoveNumber { written, expected } => {
                write!(f, "move number {written} written, but this is move {expected}")
            }
            NotationWarning::MoveSide { written, to_move } => {
                write!(f, "the move number announces a {written} move, but {to_move} is to move")
            }
        }
    }
}

/// Compares a written token with the engine's text of the move: captures and traps
/// always (as sets), the suffix only when one is written.
pub fn compare_written(written: &WrittenMove, engine: &MoveText) -> Vec<NotationWarning> {
    let mut out = Vec::new();
    let sorted = |v: &[Square]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v
    };
    let wc = sorted(&written.captures);
    if wc != engine.captures {
        out.push(NotationWarning::Captures { written: wc, engine: engine.captures.clone() });
    }
    let wt = sorted(&written.traps);
    if wt != engine.traps {
        out.push(NotationWarning::Traps { written: wt, engine: engine.traps.clone() });
    }
    if let Some(s) = written.suffix
        && Some(s) != engine.suffix
    {
        out.push(NotationWarning::Suffix { written: s, engine: engine.suffix });
    }
    out
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

// ======================================================================================
// Diagnosing illegal moves
// ======================================================================================

/// A legality filter of SEMANTICS.md that a ruleset can have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filter {
    DuxLimits,
    LockedSoldiers,
    SelfImmobilization,
    BetweenEnemies,
    RepetitionIllegal,
}

const FILTERS: [Filter; 5] = [
    Filter::DuxLimits,
    Filter::LockedSoldiers,
    Filter::SelfImmobilization,
    Filter::BetweenEnemies,
    Filter::RepetitionIllegal,
];

fn has_filter(rs: &Ruleset, f: Filter) -> bool {
    match f {
        Filter::DuxLimits => rs.combat.dux_limits,
        Filter::LockedSoldiers => rs.combat.locked_soldiers,
        Filter::SelfImmobilization => rs.end.self_immobilization == SelfImmobilization::Illegal,
        Filter::BetweenEnemies => rs.movement.rule7_no_entering_between_enemies,
        Filter::RepetitionIllegal => rs.end.repetition == Repetition::Illegal,
    }
}

fn switch_off(rs: &mut Ruleset, f: Filter) {
    match f {
        Filter::DuxLimits => rs.combat.dux_limits = false,
        Filter::LockedSoldiers => rs.combat.locked_soldiers = false,
        Filter::SelfImmobilization => rs.end.self_immobilization = SelfImmobilization::Allowed,
        Filter::BetweenEnemies => rs.movement.rule7_no_entering_between_enemies = false,
        Filter::RepetitionIllegal => rs.end.repetition = Repetition::Off,
    }
}

/// A copy of the ruleset with every legality filter switched off except `keep`.
pub(crate) fn relaxed(rs: &Ruleset, keep: Option<Filter>) -> Ruleset {
    let mut r = rs.clone();
    for f in FILTERS {
        if Some(f) != keep {
            switch_off(&mut r, f);
        }
    }
    r
}

/// Whether `mv` is legal under `rs` on the pieces of `setup` (no repetition history,
/// no ply cap).
fn legal_under(rs: &Ruleset, setup: &Setup, mv: Move) -> bool {
    let mut s = setup.clone();
    s.ply = 0;
    Position::from_setup(rs, &s).is_ok_and(|p| p.is_legal(mv))
}

/// Why the movement `mv` (whose piece, side and `D` are right) is not legal in `pos`.
fn diagnose(ruleset: &Ruleset, pos: &Position, mv: Move) -> MoveError {
    if mv.kind != MoveKind::Move {
        let reason = "the engine does not allow it here".to_string();
        return match mv.kind {
            MoveKind::Remove => MoveError::BadRemoval { square: mv.to, reason },
            _ => MoveError::BadPlacement { square: mv.to, reason },
        };
    }
    let (from, to) = (mv.from, mv.to);
    let dux = pos.piece_at(from).is_some_and(|p| p.kind == PieceKind::Dux);
    let setup = pos.to_setup();
    if legal_under(ruleset, &setup, mv) {
        // Legal on the bare position: only the repetition history can forbid it.
        return MoveError::Illegal { dux, from, to, breaches: vec![RuleBreach::Repetition] };
    }
    if !legal_under(&relaxed(ruleset, None), &setup, mv) {
        return MoveError::Unreachable { dux, from, to, reason: unreachable_reason(pos, from, to) };
    }
    let mut breaches = Vec::new();
    for f in FILTERS {
        if has_filter(ruleset, f) && !legal_under(&relaxed(ruleset, Some(f)), &setup, mv) {
            breaches.push(name_breach(pos, f, from));
        }
    }
    MoveError::Illegal { dux, from, to, breaches }
}

/// The precise rule behind a filter that forbids a move of the piece on `from`.
fn name_breach(pos: &Position, f: Filter, from: Square) -> RuleBreach {
    let Some(piece) = pos.piece_at(from) else {
        return RuleBreach::SelfImmobilization;
    };
    let me = piece.color;
    let enemies: Vec<Square> =
        neighbours_in(pos, from).filter(|&n| pos.piece_at(n).is_some_and(|p| p.color != me)).collect();
    let sole: Vec<Square> = enemies.iter().copied().filter(|&e| sole_attacker(pos, from, e, me)).collect();
    match f {
        Filter::DuxLimits => {
            if open_sides(pos, from) == 1 && !enemies.is_empty() {
                RuleBreach::DuxPartiallyImmobilized { dux: from }
            } else if sole.len() >= 2 {
                RuleBreach::DuxDoubleCombat { dux: from, enemies: sole }
            } else {
                RuleBreach::DuxSingleCombat { dux: from, enemy: sole.first().copied().unwrap_or(from) }
            }
        }
        Filter::LockedSoldiers => {
            RuleBreach::LockedSoldier { soldier: from, enemy: sole.first().copied().unwrap_or(from) }
        }
        Filter::SelfImmobilization => RuleBreach::SelfImmobilization,
        Filter::BetweenEnemies => RuleBreach::BetweenEnemies,
        Filter::RepetitionIllegal => RuleBreach::Repetition,
    }
}

/// Why the piece on `from` cannot physically reach `to`.
fn unreachable_reason(pos: &Position, from: Square, to: Square) -> String {
    let rules = pos.rules();
    let Some(piece) = pos.piece_at(from) else {
        return format!("there is no piece on {from}");
    };
    let is_dux = piece.kind == PieceKind::Dux;
    let mv = &rules.movement;
    let hops = if is_dux { mv.dux_jumps } else { mv.soldier_hops };
    let slide = if is_dux { mv.dux == crate::ruleset::DuxMove::Slide } else { mv.soldier == SoldierMove::Slide };
    if let Some(p) = pos.piece_at(to) {
        let whose = if p.color == piece.color { "its own side" } else { "the enemy" };
        return format!("{to} is occupied by a piece of {whose}");
    }
    let (df, dr) = (to.file() as i32 - from.file() as i32, to.rank() as i32 - from.rank() as i32);
    let straight = df == 0 || dr == 0;
    let diagonal = df.abs() == dr.abs();
    let on_line = straight || (mv.diagonal && diagonal);
    let what = if is_dux { "the Dux" } else { "a soldier" };
    if !on_line && !hops {
        return if mv.diagonal {
            format!("{to} is not on a rank, file or diagonal through {from}")
        } else {
            format!("{to} is not on the same rank or file as {from}")
        };
    }
    if on_line {
        let (sf, sr) = (df.signum(), dr.signum());
        let dist = df.abs().max(dr.abs());
        if !is_dux && mv.soldier == SoldierMove::StepForwardSideways {
            let back = if piece.color == Color::White { -1 } else { 1 };
            if sr == back {
                return format!("{what} may not move backward");
            }
        }
        let mut blocked = None;
        for k in 1..dist {
            let sq = Square::new((from.file() as i32 + k * sf) as u8, (from.rank() as i32 + k * sr) as u8);
            if let Some(sq) = sq
                && pos.piece_at(sq).is_some()
            {
                blocked = Some(sq);
                break;
            }
        }
        if dist > 1 && !slide && !hops {
            return format!("{what} moves only one square in this ruleset");
        }
        if let Some(b) = blocked {
            return if hops {
                format!("the path is blocked at {b} and no hop or hop chain ends on {to}")
            } else {
                format!("the path is blocked at {b}")
            };
        }
    }
    if hops {
        format!("no step, slide or hop of {what} on {from} ends on {to}")
    } else {
        format!("no move of {what} on {from} ends on {to}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().expect("test square")
    }

    fn xxi() -> Ruleset {
        Ruleset::builtin("xxi").expect("xxi")
    }

    fn at(rs: &Ruleset, fen: &str) -> Position {
        Position::from_setup(rs, &Setup::from_fen(fen).expect("test FEN")).expect("test position")
    }

    /// Flips the case of the square letters and the `D` of a token.
    fn shout(t: &str) -> String {
        t.to_ascii_uppercase()
    }

    #[test]
    fn print_parse_round_trip_on_random_games_of_every_ruleset() {
        for rs in Ruleset::all_builtin() {
            let mut rng = crate::FastRng::new(rs.params_hash());
            let mut kinds = [0usize; 3];
            let (mut suffixes, mut captures, mut traps) = (0, 0, 0);
            for _game in 0..3 {
                let mut pos = Position::new(&rs);
                // 90 plies of play after any placement phase.
                let (hs, hd) = rs.in_hand();
                for _ply in 0..90 + 2 * (hs as usize + hd as usize) {
                    let moves = pos.legal_move_list();
                    if moves.is_empty() {
                        break;
                    }
                    for k in 0..moves.len().min(6) {
                        let mv = if k == 0 { moves[moves.len() - 1] } else { moves[rng.below(moves.len())] };
                        let text = move_text(&pos, mv).expect("legal move has a text");
                        let s = text.to_string();
                        kinds[match mv.kind {
                            MoveKind::Move => 0,
                            MoveKind::Place(_) => 1,
                            MoveKind::Remove => 2,
                        }] += 1;
                        suffixes += text.suffix.is_some() as usize;
                        captures += text.captures.len();
                        traps += text.traps.len();
                        assert_eq!(pos.move_to_string(mv).as_deref(), Some(s.as_str()));
                        for variant in [s.clone(), shout(&s), format!("{s}!?")] {
                            let parsed = parse_move(&rs, &pos, &variant)
                                .unwrap_or_else(|e| panic!("{}: '{variant}' does not parse back: {e}", rs.id));
                            assert_eq!(parsed.mv, mv, "{}: {variant}", rs.id);
                            assert!(parsed.warnings.is_empty(), "{}: {variant}: {:?}", rs.id, parsed.warnings);
                            assert_eq!(parsed.text, text);
                        }
                        // Captures in any order on input.
                        if text.captures.len() > 1 {
                            let mut t2 = text.clone();
                            t2.captures.reverse();
                            assert_eq!(parse_move(&rs, &pos, &t2.to_string()).expect("reversed").warnings, vec![]);
                        }
                        // Without the suffix, nothing to check: no warning either.
                        assert!(parse_move(&rs, &pos, &text.body()).expect("body").warnings.is_empty());
                    }
                    pos.play(moves[rng.below(moves.len())]);
                    if pos.is_over() {
                        break;
                    }
                }
            }
            assert!(kinds.iter().sum::<usize>() > 0, "{}: no move tested", rs.id);
            if rs.in_hand().0 > 0 {
                assert!(kinds[1] > 0, "{}: no placement tested", rs.id);
            }
            if rs.capture.removal_move {
                assert!(kinds[2] > 0 && traps > 0, "{}: no removal or trap tested", rs.id);
            }
            if rs.has_dux() && rs.end.dux_immobilized != Immobilization::Off {
                assert!(suffixes > 0, "{}: no suffix tested", rs.id);
            }
            if !rs.capture.removal_move {
                assert!(captures > 0, "{}: no capture tested", rs.id);
            }
        }
    }

    #[test]
    fn printing_uses_board_order_d_prefix_and_traps() {
        let t = MoveText {
            mv: Move::movement(sq("h3"), sq("g3")),
            dux: false,
            captures: vec![sq("f3"), sq("g4")],
            traps: vec![],
            suffix: None,
        };
        assert_eq!(t.to_string(), "h3-g3xf3xg4");
        let t = MoveText {
            mv: Move::movement(sq("e6"), sq("i6")),
            dux: true,
            captures: vec![sq("i7")],
            traps: vec![sq("a1")],
            suffix: Some(Suffix::QuasiCheck),
        };
        assert_eq!(t.to_string(), "De6-i6xi7^a1(+)");
        let p = MoveText {
            mv: Move::place(PieceKind::Dux, sq("e4")),
            dux: true,
            captures: vec![],
            traps: vec![],
            suffix: None,
        };
        assert_eq!(p.to_string(), "D@e4");
        let r = MoveText { mv: Move::remove(sq("e4")), dux: false, captures: vec![], traps: vec![], suffix: None };
        assert_eq!(r.to_string(), "xe4");
    }

    #[test]
    fn token_syntax() {
        let w = parse_token("De6-I6xi7X h7#!?".replace(' ', "").as_str()).expect("parses");
        assert!(w.dux);
        assert_eq!(w.kind, WrittenKind::Move { from: sq("e6"), to: sq("i6") });
        assert_eq!(w.captures, vec![sq("i7"), sq("h7")]);
        assert_eq!(w.suffix, Some(Suffix::Mate));
        assert_eq!(w.quality.as_deref(), Some("!?"));
        assert!(!parse_token("d1-d5").expect("soldier").dux);
        assert_eq!(parse_token("g8-g5(+)!!").expect("qc").suffix, Some(Suffix::QuasiCheck));
        assert_eq!(parse_token("h5-h4+!").expect("check").suffix, Some(Suffix::Check));
        assert_eq!(parse_token("e1-e5*?").expect("hit").suffix, Some(Suffix::Hit));
        assert_eq!(parse_token("a1-a12").expect("12 ranks").kind, WrittenKind::Move { from: sq("a1"), to: sq("a12") });
        assert_eq!(parse_token("@e4").expect("place").kind, WrittenKind::Place { to: sq("e4") });
        assert!(parse_token("D@e4").expect("place dux").dux);
        assert_eq!(parse_token("xe4").expect("remove").kind, WrittenKind::Remove { at: sq("e4") });
        assert_eq!(parse_token("b2-b6^c6").expect("trap").traps, vec![sq("c6")]);
        for bad in [
            "",
            "e4",
            "e4-",
            "-e4",
            "e4e5",
            "e4-e4",
            "e4-e5x",
            "e4-e5xz9",
            "q1-q2",
            "a17-a16",
            "a0-a1",
            "e4-e5!!!",
            "e4-e5?!?",
            "e4-e5#x",
            "Dxe4",
            "xe4xe5",
            "e4-e5 junk",
            "e4–e5",
            "e4-e5+#",
            "@",
            "S@e4",
        ] {
            match parse_token(bad) {
                Err(MoveError::Malformed { .. }) => {}
                other => panic!("'{bad}' should be malformed, got {other:?}"),
            }
        }
    }

    #[test]
    fn bad_tokens_in_a_position_say_why() {
        let rs = xxi();
        let pos = Position::new(&rs);
        let err = |t: &str| parse_move(&rs, &pos, t).expect_err(t);
        assert_eq!(err("e4-e5"), MoveError::NoPiece(sq("e4")));
        assert!(matches!(err("a8-a5"), MoveError::WrongSide { owner: Color::Black, to_move: Color::White, .. }));
        assert_eq!(err("f2-f5"), MoveError::MissingDux(sq("f2")));
        assert_eq!(err("Dd1-d5"), MoveError::ExtraDux(sq("d1")));
        assert!(matches!(err("l1-l2"), MoveError::OffBoard { width: 10, height: 8, .. }));
        assert!(err("d1-e2").to_string().contains("not on the same rank or file"), "{}", err("d1-e2"));
        assert!(err("d1-e1").to_string().contains("occupied"));
        assert!(matches!(err("@e4"), MoveError::BadPlacement { .. }));
        assert!(matches!(err("xe8"), MoveError::BadRemoval { .. }));
        // Path blocked: the white Dux on f2 cannot pass its own soldier.
        let p2 = at(&rs, "ssssssssss/4d5/10/10/10/5S4/5D4/SSSSS1SSSS w");
        let e = parse_move(&rs, &p2, "Df2-f5").expect_err("blocked");
        assert!(e.to_string().contains("path is blocked at f3"), "{e}");
    }

    #[test]
    fn illegal_moves_name_the_rule() {
        let rs = xxi();
        // Rule 10: the white soldier on e5 is the sole attacker of the black one on e6.
        let p = at(&rs, "ssss1sssss/4d5/4s5/4S5/10/10/5D4/SSSS1SSSSS w");
        let e = parse_move(&rs, &p, "e5-a5").expect_err("locked");
        assert!(
            matches!(&e, MoveError::Illegal { breaches, .. } if breaches == &[RuleBreach::LockedSoldier { soldier: sq("e5"), enemy: sq("e6") }]),
            "{e}"
        );
        assert!(e.to_string().contains("rule 10"));
        // Rule 16: the white Dux on d4 is the sole attacker of e4 and may go one square only.
        let p = at(&rs, "ssssssssss/4d5/10/10/3Ds5/10/10/SSSSSSSSSS w");
        let e = parse_move(&rs, &p, "Dd4-d2").expect_err("rule 16");
        assert!(e.to_string().contains("rule 16"), "{e}");
        assert!(parse_move(&rs, &p, "Dd4-d3").is_ok());
        // Rule 17: sole attacker of two enemies: offensive moves only.
        let p = at(&rs, "ssssssssss/4d5/10/10/2sDs5/10/10/SSSSSSSSSS w");
        let e = parse_move(&rs, &p, "Dd4-d3").expect_err("rule 17");
        assert!(e.to_string().contains("rule 17"), "{e}");
        // Rule 18: one open side and an enemy next to it: no move at all.
        let p = at(&rs, "ssssssssss/4d5/10/10/2SDs5/3S6/10/SSSSSSSS2 w");
        let e = parse_move(&rs, &p, "Dd4-d5").expect_err("rule 18");
        assert!(e.to_string().contains("rule 18"), "{e}");
        // Self-immobilisation: the white Dux on a1 would be shut in by its own soldier.
        let p = at(&rs, "ssssssssss/4d5/10/10/10/10/S9/D1SSSSSSSS w");
        let e = parse_move(&rs, &p, "c1-b1").expect_err("self-immobilisation");
        assert!(
            matches!(&e, MoveError::Illegal { breaches, .. } if breaches == &[RuleBreach::SelfImmobilization]),
            "{e}"
        );
        assert!(e.to_string().contains("self-immobilisation"));
    }

    #[test]
    fn suffixes_of_the_fools_mate() {
        // Seed 001, diagram 53: 1.e1-e6* b8-b4 2.Df2-f7+ g8-g7(+)?? 3.d1-d7#
        let rs = xxi();
        let mut pos = Position::new(&rs);
        for t in ["e1-e6*", "b8-b4", "Df2-f7+", "g8-g7(+)??", "d1-d7#"] {
            let p = parse_move(&rs, &pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(p.warnings.is_empty(), "{t}: {:?}", p.warnings);
            assert_eq!(p.written.suffix, p.text.suffix, "{t}");
            pos.play(p.mv);
        }
        assert_eq!(pos.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Immobilized }));
        // A wrong suffix or capture list is a warning, not an error.
        let pos = Position::new(&rs);
        let p = parse_move(&rs, &pos, "e1-e6xe7+").expect("legal");
        assert_eq!(
            p.warnings,
            vec![
                NotationWarning::Captures { written: vec![sq("e7")], engine: vec![] },
                NotationWarning::Suffix { written: Suffix::Check, engine: Some(Suffix::Hit) }
            ]
        );
    }
}

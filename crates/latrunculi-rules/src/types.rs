//! Small `Copy` value types shared by every part of the engine: colours, pieces,
//! squares, moves and game outcomes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The largest board side (files or ranks) any ruleset may use: 16, files `a`–`p` and
/// ranks `1`–`16` (Ludii's largest Seega board is 11 ranks of 16 files).
pub const MAX_SIDE: u8 = 16;

/// A player. White is player 0 and starts on the low ranks; Black is player 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// Player 0, starting on the low ranks ("forward" is up).
    White,
    /// Player 1, starting on the high ranks.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other player.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"white"` or `"black"`, as used in every output.
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The two kinds of piece: soldiers (men, counters, stones) and the Dux (general, king).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PieceKind {
    /// An ordinary piece.
    Soldier,
    /// The general; at most one per side.
    Dux,
}

/// A piece on the board: its owner, its kind, and whether it is trapped
/// (Schädler's *Alligatus*, or Savard's immobilised man under `capture_by_displacement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Who owns the piece.
    pub color: Color,
    /// Soldier or Dux.
    pub kind: PieceKind,
    /// Trapped pieces cannot move (and cannot trap or capture).
    pub trapped: bool,
}

impl Piece {
    /// A free (untrapped) piece.
    pub fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind, trapped: false }
    }

    /// The one-letter diagram symbol: `S`/`s` soldier, `D`/`d` Dux, `T`/`t` trapped
    /// soldier; upper case is White.
    pub fn symbol(self) -> char {
        let c = match (self.kind, self.trapped) {
            (PieceKind::Dux, _) => 'd',
            (PieceKind::Soldier, true) => 't',
            (PieceKind::Soldier, false) => 's',
        };
        if self.color == Color::White { c.to_ascii_uppercase() } else { c }
    }

    /// The inverse of [`Piece::symbol`].
    pub fn from_symbol(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let (kind, trapped) = match c.to_ascii_lowercase() {
            's' => (PieceKind::Soldier, false),
            't' => (PieceKind::Soldier, true),
            'd' => (PieceKind::Dux, false),
            _ => return None,
        };
        Some(Piece { color, kind, trapped })
    }
}

/// A square of a board up to 16 × 16, stored as `rank * 16 + file` (both 0-based) in
/// one byte.
///
/// A `Square` does not know the board it belongs to; [`Square::new`] only checks the
/// global 16 × 16 limit. Notation: file letter (`a`–`p`) then rank number (`1`–`16`),
/// `a1` bottom-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` and `rank` (0-based), if both are below [`MAX_SIDE`] (16).
    #[inline]
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < MAX_SIDE && rank < MAX_SIDE).then(|| Square(rank * 16 + file))
    }

    /// Builds a square from its raw index (`rank * 16 + file`); every byte is a square
    /// of the 16 × 16 area.
    #[inline]
    pub(crate) fn from_raw(raw: u8) -> Square {
        Square(raw)
    }

    /// The raw index `rank * 16 + file`.
    #[inline]
    pub fn raw(self) -> u8 {
        self.0
    }

    /// 0-based file (column), `a` = 0.
    #[inline]
    pub fn file(self) -> u8 {
        self.0 & 15
    }

    /// 0-based rank (row), rank `1` = 0.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 >> 4
    }

    /// Dense index `rank * width + file` for a board `width` files wide.
    #[inline]
    pub fn dense(self, width: u8) -> usize {
        self.rank() as usize * width as usize + self.file() as usize
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Why a square name could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a square (expected a file letter a-p and a rank 1-16, e.g. e4)")]
pub struct ParseSquareError(pub String);

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Reads `e4`, `E4`, `l12`, `p16`; either case.
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let err = || ParseSquareError(s.to_string());
        let mut chars = s.chars();
        let f = chars.next().ok_or_else(err)?.to_ascii_lowercase();
        if !f.is_ascii_lowercase() {
            return Err(err());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(err());
        }
        let r: u8 = digits.parse().map_err(|_| err())?;
        if r == 0 {
            return Err(err());
        }
        Square::new(f as u8 - b'a', r - 1).ok_or_else(err)
    }
}

/// What a move does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MoveKind {
    /// A piece moves from `from` to `to` (slide, step, hop or hop chain, identified by
    /// its ends).
    Move,
    /// A piece of the given kind is placed from hand on `to` (`from == to`).
    Place(PieceKind),
    /// A trapped enemy piece on `to` is removed as the whole ply (Schädler; `from == to`).
    Remove,
}

/// One ply. Two hop chains with the same ends are the same move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// What kind of ply this is.
    pub kind: MoveKind,
    /// Start square (equal to `to` for placements and removals).
    pub from: Square,
    /// End square, placement square or square of the removed piece.
    pub to: Square,
}

impl Move {
    /// A piece moving from `from` to `to`.
    pub fn movement(from: Square, to: Square) -> Move {
        Move { kind: MoveKind::Move, from, to }
    }

    /// A placement of a piece of `kind` on `to`.
    pub fn place(kind: PieceKind, to: Square) -> Move {
        Move { kind: MoveKind::Place(kind), from: to, to }
    }

    /// The removal of the trapped enemy piece on `to`.
    pub fn remove(to: Square) -> Move {
        Move { kind: MoveKind::Remove, from: to, to }
    }
}

/// Why a game ended: the closed set of docs/rules.md §1, used in every output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A Dux could not move: no empty orthogonal neighbour.
    Immobilized,
    /// A side with a Dux has no soldiers left.
    Bare,
    /// A side without a Dux is reduced to the ruleset's minimum number of pieces.
    Annihilated,
    /// A Dux was captured.
    DuxCaptured,
    /// The side to move has no legal move.
    Stalemate,
    /// A position occurred for the n-th time.
    Repetition,
    /// Too many plies without a capture.
    NoCaptureLimit,
    /// A piece count decided the game.
    Material,
    /// The experiment's hard ply cap (always a draw).
    PlyCap,
}

impl Reason {
    /// Every reason, in the order of docs/rules.md §1.
    pub const ALL: [Reason; 9] = [
        Reason::Immobilized,
        Reason::Bare,
        Reason::Annihilated,
        Reason::DuxCaptured,
        Reason::Stalemate,
        Reason::Repetition,
        Reason::NoCaptureLimit,
        Reason::Material,
        Reason::PlyCap,
    ];

    /// The reason's name in outputs, e.g. `no-capture-limit`.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Immobilized => "immobilized",
            Reason::Bare => "bare",
            Reason::Annihilated => "annihilated",
            Reason::DuxCaptured => "dux-captured",
            Reason::Stalemate => "stalemate",
            Reason::Repetition => "repetition",
            Reason::NoCaptureLimit => "no-capture-limit",
            Reason::Material => "material",
            Reason::PlyCap => "ply-cap",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(s: &str) -> Result<Reason, String> {
        Reason::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| format!("unknown result reason '{s}'"))
    }
}

/// How a game ended: the winner (`None` for a draw) and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winning player, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn score_text(self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// `white`, `black` or `draw`.
    pub fn winner_text(self) -> &'static str {
        self.winner.map_or("draw", Color::name)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.score_text(), self.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        let s: Square = "l8".parse().unwrap();
        assert_eq!((s.file(), s.rank()), (11, 7));
        assert_eq!(s.to_string(), "l8");
        assert_eq!("E4".parse::<Square>().unwrap().to_string(), "e4");
        assert_eq!("a12".parse::<Square>().unwrap().rank(), 11);
        let p16: Square = "p16".parse().unwrap();
        assert_eq!((p16.file(), p16.rank(), p16.raw()), (15, 15, 255));
        assert_eq!(p16.to_string(), "p16");
        assert_eq!("P16".parse::<Square>().unwrap(), p16);
        assert_eq!(Square::new(15, 10).unwrap().to_string(), "p11");
        assert_eq!(Square::new(16, 0), None);
        assert_eq!(Square::new(0, 16), None);
        for bad in ["", "q1", "a0", "a17", "q16", "4e", "a", "aa", "a1x", "a100"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} should not parse");
        }
        let e = "q1".parse::<Square>().unwrap_err().to_string();
        assert!(e.contains("a-p") && e.contains("1-16"), "{e}");
    }

    #[test]
    fn piece_symbols_round_trip() {
        for c in ['S', 's', 'D', 'd', 'T', 't'] {
            assert_eq!(Piece::from_symbol(c).unwrap().symbol(), c);
        }
        assert!(Piece::from_symbol('x').is_none());
    }
}

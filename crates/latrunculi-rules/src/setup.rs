//! [`Setup`]: an unvalidated position (pieces, side to move, hands, counters) that can be
//! read and written as a one-line FEN or a text diagram. [`crate::Position::from_setup`]
//! validates it against a ruleset.
//!
//! FEN: ranks from the top, separated by `/`; `S`/`s` soldier, `D`/`d` Dux, `T`/`t`
//! trapped soldier (upper case White), digits for runs of empty squares; then `w` or `b`
//! for the side to move (`w:e4`: White continues its turn with the piece on e4, after a
//! capture that grants a further ply); optionally the hands as `WS,WD/BS,BD` (or `-`), the plies since
//! the last capture and the ply number. Example (XXI 10 × 8):
//! `ssssssssss/4d5/10/10/10/10/5D4/SSSSSSSSSS w`.
//!
//! Diagram: one line per rank from the top, `rank  cells...` with `.` for empty squares,
//! a line of file letters, and a line `White to move` / `Black to move` (with
//! ` with e4` when the turn goes on with the piece on e4), optionally
//! followed by `In hand: white S,D black S,D`.

use std::fmt::Write as _;

use crate::ruleset::Ruleset;
use crate::types::{Color, MAX_SIDE, Piece, Square};

/// Errors reading a FEN or diagram.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The text has no board.
    #[error("empty position text")]
    Empty,
    /// A rank has the wrong number of squares.
    #[error("rank {rank} has {got} squares, expected {want}")]
    RankLength {
        /// 1-based rank number.
        rank: usize,
        /// Squares found.
        got: usize,
        /// Squares expected.
        want: usize,
    },
    /// A character that is not a piece, digit or `.`.
    #[error("unknown piece symbol '{0}' (use S s D d T t, digits or .)")]
    BadSymbol(char),
    /// The board is larger than 16 × 16 or smaller than 3 × 3 (files × ranks).
    #[error("a {0}x{1} board is not supported (3 to 16 files and ranks)")]
    BadSize(usize, usize),
    /// Side to move not `w`/`b`.
    #[error("side to move must be 'w' or 'b', got '{0}'")]
    BadSide(String),
    /// A malformed counter or hand field.
    #[error("bad field '{0}': {1}")]
    BadField(String, &'static str),
}

/// A position as plain data, not yet checked against any ruleset.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// Files.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    board: Vec<Option<Piece>>,
    /// Side to move.
    pub turn: Color,
    /// Pieces in hand: `hand[color][0]` soldiers, `hand[color][1]` Duxes.
    pub hand: [[u8; 2]; 2],
    /// Plies played before this position.
    pub ply: u32,
    /// Movement plies since the last capture.
    pub since_capture: u32,
    /// The piece that must make the side to move's next ply, when the turn goes on after
    /// a capture (`capture.capture_grants_ply`).
    pub pending: Option<Square>,
}

impl Setup {
    /// An empty board, White to move.
    pub fn empty(width: u8, height: u8) -> Setup {
        Setup {
            width,
            height,
            board: vec![None; width as usize * height as usize],
            turn: Color::White,
            hand: [[0; 2]; 2],
            ply: 0,
            since_capture: 0,
            pending: None,
        }
    }

    /// The starting position of a (validated) ruleset.
    pub fn start(rs: &Ruleset) -> Setup {
        let mut s = Setup::empty(rs.width, rs.height);
        for (color, kind, sq) in rs.initial_pieces().expect("validated ruleset") {
            s.set(sq, Some(Piece::new(color, kind)));
        }
        let (hs, hd) = rs.in_hand();
        s.hand = [[hs, hd], [hs, hd]];
        s.turn = rs.first_player;
        s
    }

    fn index(&self, sq: Square) -> Option<usize> {
        (sq.file() < self.width && sq.rank() < self.height).then(|| sq.dense(self.width))
    }

    /// The piece on a square (None off the board).
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.index(sq).and_then(|i| self.board[i])
    }

    /// Puts (or clears) a piece; squares off the board are ignored.
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        if let Some(i) = self.index(sq) {
            self.board[i] = piece;
        }
    }

    /// Every piece with its square, rank by rank from `a1`.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        let w = self.width as usize;
        self.board
            .iter()
            .enumerate()
            .filter_map(move |(i, p)| p.map(|p| (Square::new((i % w) as u8, (i / w) as u8).expect("fits"), p)))
    }

    /// The one-line FEN.
    pub fn to_fen(&self) -> String {
        let mut out = String::new();
        for r in (0..self.height).rev() {
            let mut empty = 0;
            for f in 0..self.width {
                match self.piece_at(Square::new(f, r).expect("fits")) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(out, "{empty}").expect("string");
                            empty = 0;
                        }
                        out.push(p.symbol());
                    }
                }
            }
            if empty > 0 {
                write!(out, "{empty}").expect("string");
            }
            if r > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(if self.turn == Color::White { 'w' } else { 'b' });
        if let Some(p) = self.pending {
            write!(out, ":{p}").expect("string");
        }
        let has_hand = self.hand.iter().flatten().any(|&n| n > 0);
        if has_hand || self.since_capture > 0 || self.ply > 0 {
            let [[a, b], [c, d]] = self.hand;
            if has_hand {
                write!(out, " {a},{b}/{c},{d}").expect("string");
            } else {
                out.push_str(" -");
            }
            write!(out, " {} {}", self.since_capture, self.ply).expect("string");
        }
        out
    }

    /// Reads a FEN (see the module docs).
    pub fn from_fen(text: &str) -> Result<Setup, SetupError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(SetupError::Empty)?;
        let ranks: Vec<&str> = board.split('/').collect();
        let mut rows: Vec<Vec<Option<Piece>>> = Vec::new();
        for rank in &ranks {
            let mut row = Vec::new();
            let mut digits = String::new();
            for ch in rank.chars() {
                if ch.is_ascii_digit() {
                    digits.push(ch);
                    continue;
                }
                if !digits.is_empty() {
                    empty_run(&mut row, &digits, ranks.len())?;
                    digits.clear();
                }
                row.push(Some(Piece::from_symbol(ch).ok_or(SetupError::BadSymbol(ch))?));
            }
            if !digits.is_empty() {
                empty_run(&mut row, &digits, ranks.len())?;
            }
            rows.push(row);
        }
        let mut s = Setup::from_rows(rows)?;
        if let Some(side) = fields.next() {
            let (side, pending) = match side.split_once(':') {
                Some((side, sq)) => (side, Some(parse_square(sq)?)),
                None => (side, None),
            };
            s.turn = parse_side(side)?;
            s.pending = pending;
        }
        if let Some(hand) = fields.next()
            && hand != "-"
        {
            s.hand = parse_hand(hand)?;
        }
        if let Some(n) = fields.next() {
            s.since_capture = n.parse().map_err(|_| SetupError::BadField(n.into(), "plies since capture"))?;
        }
        if let Some(n) = fields.next() {
            s.ply = n.parse().map_err(|_| SetupError::BadField(n.into(), "ply number"))?;
        }
        if let Some(extra) = fields.next() {
            return Err(SetupError::BadField(extra.into(), "unexpected extra field"));
        }
        Ok(s)
    }

    /// Rows from the top rank down.
    fn from_rows(rows: Vec<Vec<Option<Piece>>>) -> Result<Setup, SetupError> {
        let h = rows.len();
        let w = rows.first().map_or(0, Vec::len);
        if !(3..=MAX_SIDE as usize).contains(&w) || !(3..=MAX_SIDE as usize).contains(&h) {
            return Err(SetupError::BadSize(w, h));
        }
        let mut s = Setup::empty(w as u8, h as u8);
        for (i, row) in rows.into_iter().enumerate() {
            let rank = h - 1 - i;
            if row.len() != w {
                return Err(SetupError::RankLength { rank: rank + 1, got: row.len(), want: w });
            }
            for (f, p) in row.into_iter().enumerate() {
                s.set(Square::new(f as u8, rank as u8).expect("fits"), p);
            }
        }
        Ok(s)
    }

    /// The text diagram (see the module docs).
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for r in (0..self.height).rev() {
            write!(out, "{:>2} ", r + 1).expect("string");
            for f in 0..self.width {
                let c = self.piece_at(Square::new(f, r).expect("fits")).map_or('.', Piece::symbol);
                write!(out, " {c}").expect("string");
            }
            out.push('\n');
        }
        out.push_str("   ");
        for f in 0..self.width {
            write!(out, " {}", (b'a' + f) as char).expect("string");
        }
        out.push('\n');
        let side = if self.turn == Color::White { "White" } else { "Black" };
        match self.pending {
            Some(p) => writeln!(out, "{side} to move with {p}").expect("string"),
            None => writeln!(out, "{side} to move").expect("string"),
        }
        if self.hand.iter().flatten().any(|&n| n > 0) {
            let [[a, b], [c, d]] = self.hand;
            writeln!(out, "In hand: white {a},{b} black {c},{d}").expect("string");
        }
        out
    }

    /// Reads a diagram as printed by [`Setup::diagram`], or a FEN (a text with `/` and
    /// no newline before the first space-separated field).
    pub fn parse(text: &str) -> Result<Setup, SetupError> {
        let trimmed = text.trim();
        if !trimmed.contains('\n') && trimmed.contains('/') {
            return Setup::from_fen(trimmed);
        }
        let mut rows = Vec::new();
        let mut turn = None;
        let mut pending = None;
        let mut hand = None;
        for line in trimmed.lines() {
            let line = line.trim();
            let mut tokens = line.split_whitespace();
            let Some(first) = tokens.next() else { continue };
            if first.chars().all(|c| c.is_ascii_digit()) {
                let mut row = Vec::new();
                for tok in tokens {
                    for ch in tok.chars() {
                        row.push(if ch == '.' {
                            None
                        } else {
                            Some(Piece::from_symbol(ch).ok_or(SetupError::BadSymbol(ch))?)
                        });
                    }
                }
                rows.push(row);
            } else if line.ends_with("to move") {
                turn = Some(parse_side(first)?);
            } else if let Some((head, sq)) = line.rsplit_once(" to move with ") {
                turn = Some(parse_side(head)?);
                pending = Some(parse_square(sq.trim())?);
            } else if let Some(rest) = line.strip_prefix("In hand:") {
                let t: Vec<&str> = rest.split_whitespace().collect();
                if t.len() != 4 || t[0] != "white" || t[2] != "black" {
                    return Err(SetupError::BadField(line.into(), "expected 'In hand: white S,D black S,D'"));
                }
                hand = Some(parse_hand(&format!("{}/{}", t[1], t[3]))?);
            }
        }
        if rows.is_empty() {
            return Err(SetupError::Empty);
        }
        let mut s = Setup::from_rows(rows)?;
        if let Some(t) = turn {
            s.turn = t;
        }
        s.pending = pending;
        if let Some(h) = hand {
            s.hand = h;
        }
        Ok(s)
    }
}

fn parse_side(s: &str) -> Result<Color, SetupError> {
    match s.to_ascii_lowercase().as_str() {
        "w" | "white" => Ok(Color::White),
        "b" | "black" => Ok(Color::Black),
        _ => Err(SetupError::BadSide(s.into())),
    }
}

fn parse_square(s: &str) -> Result<Square, SetupError> {
    s.parse().map_err(|_| {
        SetupError::BadField(s.into(), "the piece that continues the turn is written as a square, e.g. w:e4")
    })
}

fn parse_hand(s: &str) -> Result<[[u8; 2]; 2], SetupError> {
    let bad = || SetupError::BadField(s.into(), "hands are written WS,WD/BS,BD");
    let mut out = [[0u8; 2]; 2];
    let sides: Vec<&str> = s.split('/').collect();
    if sides.len() != 2 {
        return Err(bad());
    }
    for (i, side) in sides.iter().enumerate() {
        let nums: Vec<&str> = side.split(',').collect();
        if nums.len() != 2 {
            return Err(bad());
        }
        out[i][0] = nums[0].parse().map_err(|_| bad())?;
        out[i][1] = nums[1].parse().map_err(|_| bad())?;
    }
    Ok(out)
}

impl std::fmt::Display for Setup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.diagram())
    }
}

/// Appends a FEN run of `digits` empty squares to `row`; a rank longer than the largest
/// board is refused before anything is allocated.
fn empty_run(row: &mut Vec<Option<Piece>>, digits: &str, ranks: usize) -> Result<(), SetupError> {
    let n: usize = digits.parse().map_err(|_| SetupError::BadField(digits.to_string(), "not a count"))?;
    let len = row.len().saturating_add(n);
    if len > MAX_SIDE as usize {
        return Err(SetupError::BadSize(len, ranks));
    }
    row.extend(std::iter::repeat_n(None, n));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        for rs in Ruleset::all_builtin() {
            let s = Setup::start(&rs);
            let fen = s.to_fen();
            assert_eq!(Setup::from_fen(&fen).unwrap(), s, "{}: {fen}", rs.id);
            assert_eq!(Setup::parse(&s.diagram()).unwrap(), s, "{}", rs.id);
        }
    }

    #[test]
    fn xxi_start_fen() {
        let s = Setup::start(&Ruleset::builtin("xxi").unwrap());
        assert_eq!(s.to_fen(), "ssssssssss/4d5/10/10/10/10/5D4/SSSSSSSSSS w");
    }

    #[test]
    fn bad_fens_are_errors() {
        assert!(matches!(Setup::from_fen("sss/3/2 w"), Err(SetupError::RankLength { .. })));
        assert!(matches!(Setup::from_fen("sxs/3/3 w"), Err(SetupError::BadSymbol('x'))));
        let e = Setup::from_fen("17/17/17 w").unwrap_err();
        assert!(matches!(e, SetupError::BadSize(17, 3)), "{e}");
        assert!(e.to_string().contains("17x3") && e.to_string().contains("3 to 16"), "{e}");
        assert!(matches!(Setup::from_fen("8s8/17/17 w"), Err(SetupError::BadSize(17, 3))));
        let tall = vec!["3"; 17].join("/") + " w";
        assert!(matches!(Setup::from_fen(&tall), Err(SetupError::BadSize(3, 17))));
        // A run too long for any board is refused before it is allocated (found by fuzzing).
        assert!(matches!(Setup::from_fen("222884901891/3/3 w"), Err(SetupError::BadSize(222884901891, 3))));
        assert!(matches!(Setup::from_fen("3/3/3 q"), Err(SetupError::BadSide(_))));
        assert!(Setup::from_fen("3/3/3 w 1,0").is_err());
        assert!(Setup::from_fen("").is_err());
        assert!(Setup::from_fen("3/3/3 w:z9").is_err());
        assert!(Setup::from_fen("3/3/3 w:").is_err());
    }

    #[test]
    fn a_continuing_turn_round_trips() {
        let mut s = Setup::from_fen("3/1S1/3 w").unwrap();
        s.pending = Some("b2".parse().unwrap());
        let fen = s.to_fen();
        assert_eq!(fen, "3/1S1/3 w:b2");
        assert_eq!(Setup::from_fen(&fen).unwrap(), s);
        assert!(s.diagram().contains("White to move with b2"), "{}", s.diagram());
        assert_eq!(Setup::parse(&s.diagram()).unwrap(), s);
    }
}

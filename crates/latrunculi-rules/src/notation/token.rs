//! Reading move tokens: the written parts of a move (`[D]from-to[xSQ...][^SQ...][suffix]`),
//! before any position is consulted.

use super::*;

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

pub(super) const QUALITY_MARKS: [&str; 6] = ["!", "?", "!?", "?!", "!!", "??"];

/// Splits a trailing quality mark off `s`.
pub(super) fn strip_quality<'a>(token: &str, s: &'a str) -> Result<(&'a str, Option<String>), MoveError> {
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

pub(super) fn malformed(token: &str, reason: impl Into<String>) -> MoveError {
    MoveError::Malformed { token: token.to_string(), reason: reason.into() }
}

pub(super) struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    pub(super) fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    pub(super) fn peek_at(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    pub(super) fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    /// A square: a letter and one or two digits.
    pub(super) fn square(&mut self, token: &str, what: &str) -> Result<Square, MoveError> {
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

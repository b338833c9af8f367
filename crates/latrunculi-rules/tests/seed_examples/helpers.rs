//! Helpers of the seed-example tests: positions from FENs, moves from notation, checks.

#![allow(dead_code)]

pub(crate) use latrunculi_rules::{
    Color, Effects, Move, MoveKind, Outcome, PieceKind, Position, Reason, Ruleset, Setup, Square,
};

// ----- helpers -----

pub(crate) fn ruleset(id: &str) -> Ruleset {
    Ruleset::builtin(id).unwrap_or_else(|e| panic!("ruleset {id}: {e}"))
}

pub(crate) fn pos_with(rs: &Ruleset, fen: &str) -> Position {
    let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    Position::from_setup(rs, &setup).unwrap_or_else(|e| panic!("FEN {fen} in {}: {e}", rs.id))
}

/// A position of a built-in ruleset read from a FEN.
pub(crate) fn pos(id: &str, fen: &str) -> Position {
    pos_with(&ruleset(id), fen)
}

pub(crate) fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A move written as in docs/rules.md §2, reduced to what identifies it: `e1-e4`, `De6-i6`,
/// `@e4` (soldier placement), `D@e4` (Dux placement), `xe4` (Schädler removal). A capture
/// list and suffixes after the destination are ignored here (see [`parse`]).
pub(crate) fn mv(s: &str) -> Move {
    parse(s).0
}

/// Parses `[D]from-to[xSQ]...[suffix]`, `@sq`, `D@sq`, `xsq`: the move, whether it is
/// marked as a Dux move, and the written capture squares.
pub(crate) fn parse(s: &str) -> (Move, bool, Vec<Square>) {
    let body = s.trim_end_matches(['*', '+', '#', '!', '?', '(', ')']);
    let (dux, body) = match body.strip_prefix('D') {
        Some(rest) => (true, rest),
        None => (false, body),
    };
    if let Some(to) = body.strip_prefix('@') {
        let kind = if dux { PieceKind::Dux } else { PieceKind::Soldier };
        return (Move::place(kind, sq(to)), dux, vec![]);
    }
    if let Some(at) = body.strip_prefix('x') {
        return (Move::remove(sq(at)), false, vec![sq(at)]);
    }
    let (from, rest) = body.split_once('-').unwrap_or_else(|| panic!("bad move '{s}'"));
    let mut parts = rest.split('x');
    let to = parts.next().expect("destination");
    let caps = parts.map(sq).collect();
    (Move::movement(sq(from), sq(to)), dux, caps)
}

pub(crate) fn fen(p: &Position) -> String {
    p.to_setup().to_fen()
}

pub(crate) fn names(v: &[Square]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays a move written in seed notation after checking that it is legal, that the `D`
/// prefix matches the piece, and that exactly the written squares are captured
/// (removed). Returns the effects (traps included).
pub(crate) fn play(p: &mut Position, s: &str) -> Effects {
    let (m, dux, caps) = parse(s);
    let before = fen(p);
    assert!(p.is_legal(m), "{s} should be legal in {before}; legal: {:?}", list(p));
    if m.kind == MoveKind::Move {
        let piece = p.piece_at(m.from).unwrap_or_else(|| panic!("no piece on {} in {before}", m.from));
        assert_eq!(piece.kind == PieceKind::Dux, dux, "{s}: the D prefix does not match the piece in {before}");
    }
    let predicted = p.effects(m);
    let fx = p.play(m);
    assert_eq!(fx, predicted, "{s}: effects() and play() disagree in {before}");
    assert_eq!(names(&fx.captured()), names(&caps), "{s}: captures in {before}");
    fx
}

/// Whether a move (seed notation, captures ignored) is legal.
pub(crate) fn legal(p: &Position, s: &str) -> bool {
    p.is_legal(mv(s))
}

/// Every legal move as `from-to` (or `@sq` / `xsq`), sorted.
pub(crate) fn list(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p
        .legal_move_list()
        .into_iter()
        .map(|m| match m.kind {
            MoveKind::Move => format!("{}-{}", m.from, m.to),
            MoveKind::Place(PieceKind::Soldier) => format!("@{}", m.to),
            MoveKind::Place(PieceKind::Dux) => format!("D@{}", m.to),
            MoveKind::Remove => format!("x{}", m.to),
        })
        .collect();
    v.sort();
    v
}

/// The sorted destinations of the legal movement plies of the piece on `from`.
pub(crate) fn dests(p: &Position, from: &str) -> Vec<String> {
    let f = sq(from);
    let mut v: Vec<String> = p
        .legal_move_list()
        .into_iter()
        .filter(|m| m.kind == MoveKind::Move && m.from == f)
        .map(|m| m.to.to_string())
        .collect();
    v.sort();
    v
}

/// What a move would capture, without playing it (names, sorted).
pub(crate) fn would_capture(p: &Position, s: &str) -> Vec<String> {
    names(&p.effects(mv(s)).captured())
}

pub(crate) fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

pub(crate) fn win(c: Color, r: Reason) -> Option<Outcome> {
    Some(Outcome { winner: Some(c), reason: r })
}

pub(crate) fn draw(r: Reason) -> Option<Outcome> {
    Some(Outcome { winner: None, reason: r })
}

pub(crate) fn is(p: &Position, at: &str, symbol: char) -> bool {
    p.piece_at(sq(at)).map(|pc| pc.symbol()) == Some(symbol)
}

pub(crate) fn empty(p: &Position, at: &str) -> bool {
    p.piece_at(sq(at)).is_none()
}

// =====================================================================================
// kowalski (seed 000)
// =====================================================================================

//! docs/rules.md §4 cross-checks: the worked examples of the seed documents as unit tests.
//!
//! Each test builds a diagram position from a FEN (the pieces are listed in the comment
//! above it), plays or inspects a move, and checks the captures / legality / result the
//! seed states. Seeds (described in docs/rules.md §5): 000 Kowalski (parcae page), 001
//! Latrunculi XXI (J. Carrillo), 002 Savard / Falkener / Bell, 003 the hobbyist "common"
//! rules, 004 Schädler's rules for play.
//!
//! Where a seed's diagram is not reproduced in the text, the position is the smallest
//! one that satisfies everything the text says about it; such reconstructions are
//! marked "reconstructed".

use latrunculi_rules::{Color, Effects, Move, MoveKind, Outcome, PieceKind, Position, Reason, Ruleset, Setup, Square};

// ----- helpers -----

fn ruleset(id: &str) -> Ruleset {
    Ruleset::builtin(id).unwrap_or_else(|e| panic!("ruleset {id}: {e}"))
}

fn pos_with(rs: &Ruleset, fen: &str) -> Position {
    let setup = Setup::from_fen(fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    Position::from_setup(rs, &setup).unwrap_or_else(|e| panic!("FEN {fen} in {}: {e}", rs.id))
}

/// A position of a built-in ruleset read from a FEN.
fn pos(id: &str, fen: &str) -> Position {
    pos_with(&ruleset(id), fen)
}

fn sq(s: &str) -> Square {
    s.parse().unwrap_or_else(|e| panic!("{e}"))
}

/// A move written as in docs/rules.md §2, reduced to what identifies it: `e1-e4`, `De6-i6`,
/// `@e4` (soldier placement), `D@e4` (Dux placement), `xe4` (Schädler removal). A capture
/// list and suffixes after the destination are ignored here (see [`parse`]).
fn mv(s: &str) -> Move {
    parse(s).0
}

/// Parses `[D]from-to[xSQ]...[suffix]`, `@sq`, `D@sq`, `xsq`: the move, whether it is
/// marked as a Dux move, and the written capture squares.
fn parse(s: &str) -> (Move, bool, Vec<Square>) {
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

fn fen(p: &Position) -> String {
    p.to_setup().to_fen()
}

fn names(v: &[Square]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Plays a move written in seed notation after checking that it is legal, that the `D`
/// prefix matches the piece, and that exactly the written squares are captured
/// (removed). Returns the effects (traps included).
fn play(p: &mut Position, s: &str) -> Effects {
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
fn legal(p: &Position, s: &str) -> bool {
    p.is_legal(mv(s))
}

/// Every legal move as `from-to` (or `@sq` / `xsq`), sorted.
fn list(p: &Position) -> Vec<String> {
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
fn dests(p: &Position, from: &str) -> Vec<String> {
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
fn would_capture(p: &Position, s: &str) -> Vec<String> {
    names(&p.effects(mv(s)).captured())
}

fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

fn win(c: Color, r: Reason) -> Option<Outcome> {
    Some(Outcome { winner: Some(c), reason: r })
}

fn draw(r: Reason) -> Option<Outcome> {
    Some(Outcome { winner: None, reason: r })
}

fn is(p: &Position, at: &str, symbol: char) -> bool {
    p.piece_at(sq(at)).map(|pc| pc.symbol()) == Some(symbol)
}

fn empty(p: &Position, at: &str) -> bool {
    p.piece_at(sq(at)).is_none()
}

// =====================================================================================
// kowalski (seed 000)
// =====================================================================================

/// Seed 000, "Core Mechanics 3. Custodial Capture": "If a Black piece is at B2, and White
/// moves pieces to B1 and B3, the Black piece is captured."
#[test]
fn kowalski_custodial_capture_b2() {
    // Sb1 sb2 Se3 Df2 df7
    let mut p = pos("kowalski", "12/5d6/12/12/12/4S7/1s3D6/1S10 w");
    play(&mut p, "e3-b3xb2");
    assert!(empty(&p, "b2"));
}

/// Seed 000 §7.4 A/B and docs/rules.md kowalski: hammer and anvil may be any friendly piece,
/// the Dux included.
#[test]
fn kowalski_dux_as_anvil() {
    // Dc4 sc5 Se6 df7
    let mut p = pos("kowalski", "12/5d6/4S7/2s9/2D9/12/12/12 w");
    play(&mut p, "e6-c6xc5");
}

/// Seed 000 §7.5 Example 1 ("The Standard Pincer"). As printed, White has C4, Black C6
/// and White moves to C7; the seed says C6 is removed. By the seed's own definition
/// (flanked "on two opposite sides") and docs/rules.md §1 the anvil must be on C5, which is
/// empty, so the printed position captures nothing. The evident intent (Black on C5,
/// between the C4 anvil and a hammer on C6) captures.
#[test]
fn kowalski_example1_standard_pincer() {
    // Literal: Sc4 sc6 Se7 Df2 df7 -> e7-c7 captures nothing (c5 is empty).
    let mut p = pos("kowalski", "12/4Sd6/2s9/12/2S9/12/5D6/12 w");
    play(&mut p, "e7-c7");
    assert!(is(&p, "c6", 's'));
    // Corrected: Sc4 sc5 Se6 Df2 df7 -> e6-c6xc5.
    let mut p = pos("kowalski", "12/5d6/4S7/2s9/2S9/12/5D6/12 w");
    play(&mut p, "e6-c6xc5");
}

/// Seed 000 §7.5 Example 2 ("The Double Strike"): Black D5, F5; White C5, G5; White moves
/// a soldier to E5: both D5 and F5 are removed.
#[test]
fn kowalski_double_strike() {
    // sd5 sf5 Sc5 Sg5 Se1 Df2 df7
    let mut p = pos("kowalski", "12/5d6/12/2Ss1sS5/12/12/5D6/4S7 w");
    play(&mut p, "e1-e5xd5xf5");
    assert!(is(&p, "e5", 'S') && is(&p, "c5", 'S') && is(&p, "g5", 'S'));
}

/// Seed 000 §7.4 C: a soldier in the corner is captured when the opponent blocks the two
/// squares next to it (A2 and B1); the edge alone is no anvil.
#[test]
fn kowalski_corner_capture() {
    // sa1 Sb1 Sa5 Df2 df7
    let mut p = pos("kowalski", "12/5d6/12/S11/12/12/5D6/sS10 w");
    play(&mut p, "a5-a2xa1");
    // Without B1: sa1 Sa5 Df2 df7 -> nothing.
    let mut p = pos("kowalski", "12/5d6/12/S11/12/12/5D6/s11 w");
    play(&mut p, "a5-a2");
    assert!(is(&p, "a1", 's'));
}

/// Seed 000 §7.5 Example 3 ("Storming the Corner") and §7.4 D: the Black Dux in A1 with
/// White on A2 and B1 is not captured but immobilised, and White wins.
#[test]
fn kowalski_dux_in_corner_is_immobilised_not_captured() {
    // da1 Sb1 Sa5 sh8 Df2
    let mut p = pos("kowalski", "7s4/12/12/S11/12/12/5D6/dS10 w");
    play(&mut p, "a5-a2");
    assert!(is(&p, "a1", 'd'));
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

/// Seed 000 §7.4 D ("The Dux cannot be captured or removed from the board"): flanking
/// the Dux on a rank does nothing.
#[test]
fn kowalski_dux_never_captured() {
    // de5 Sd5 Sf1 Dk2 sh8
    let mut p = pos("kowalski", "7s4/12/12/3Sd7/12/12/10D1/5S6 w");
    play(&mut p, "f1-f5");
    assert!(is(&p, "e5", 'd'));
    assert_eq!(p.outcome(), None);
}

/// Seed 000 §3 / §7.3.4 ("Suicide Rule"): a piece may move between two enemies and is not
/// captured; capture needs an active move of the opponent afterwards.
#[test]
fn kowalski_suicide_move_is_safe() {
    // sd5 sf5 Se1 Dk2 dk7
    let mut p = pos("kowalski", "12/10d1/12/3s1s6/12/12/10D1/4S7 w");
    play(&mut p, "e1-e5");
    assert!(is(&p, "e5", 'S'));
    play(&mut p, "f5-f6");
    play(&mut p, "Dk2-k3");
    assert!(is(&p, "e5", 'S'), "a piece standing between two enemies is not captured passively");
    // Moving back in actively captures it.
    play(&mut p, "f6-f5xe5");
}

/// docs/rules.md kowalski end 2 ([assumed] `self_immobilization = illegal`): a ply that leaves
/// the mover's own Dux without an empty neighbour is illegal, even when only its own pieces
/// block it. kowalski-parcae allows self-blocking and only counts enemy blockers.
#[test]
fn kowalski_self_immobilisation_illegal_parcae_allows_it() {
    // Da1 Sa2 Sd1 df8 sh8
    let fen = "5d1s4/12/12/12/12/12/S11/D2S8 w";
    let p = pos("kowalski", fen);
    assert!(!legal(&p, "d1-b1"));
    assert!(legal(&p, "d1-c1"));
    let mut p = pos("kowalski-parcae", fen);
    play(&mut p, "d1-b1");
    assert_eq!(p.outcome(), None);
}

/// docs/rules.md kowalski end 3 (seed 000 §7.6 "a set number of moves (e.g. 30 moves) without a
/// capture"): 60 plies without a capture end the game, the side with more pieces wins.
#[test]
fn kowalski_sixty_plies_without_capture() {
    // Df2 Sa1 Sb1 df7 sa8 — 59 plies since the last capture; White 3 pieces, Black 2.
    let mut p = pos("kowalski", "s11/5d6/12/12/12/12/5D6/SS10 w - 59 100");
    play(&mut p, "b1-b2");
    assert_eq!(p.plies_since_capture(), 60);
    assert_eq!(p.outcome(), win(Color::White, Reason::Material));
    // Equal material (add sb8): a draw.
    let mut p = pos("kowalski", "ss10/5d6/12/12/12/12/5D6/SS10 w - 59 100");
    play(&mut p, "b1-b2");
    assert_eq!(p.outcome(), draw(Reason::NoCaptureLimit));
    // One ply earlier nothing happens.
    let mut p = pos("kowalski", "s11/5d6/12/12/12/12/5D6/SS10 w - 58 100");
    play(&mut p, "b1-b2");
    assert_eq!(p.outcome(), None);
}

/// docs/rules.md kowalski-parcae: corner capture is passive: after any ply, an enemy soldier in
/// a corner whose neighbours all hold the mover's pieces is captured, even when the ply
/// moved elsewhere. In kowalski (active corner capture) the same ply captures nothing.
#[test]
fn parcae_passive_corner_capture() {
    // sa1 Sa2 Sb1 Sl4 Df1 df8 sh8 (Black walked into the corner between a2 and b1)
    let fen = "5d1s4/12/12/12/11S/12/S11/sS3D6 w";
    let mut p = pos("kowalski-parcae", fen);
    play(&mut p, "l4-l5xa1");
    let mut p = pos("kowalski", fen);
    play(&mut p, "l4-l5");
    assert!(is(&p, "a1", 's'));
}

/// docs/rules.md kowalski-parcae: the Dux counts as immobilised only when every on-board
/// neighbour holds an enemy piece; kowalski counts any blockers (seed 000 §7.6).
#[test]
fn parcae_immobilisation_by_enemy_pieces_only() {
    // da8 sb8 Sa5 Df1 sh8: a5-a7 closes the last side, but b8 is Black's own soldier.
    let fen = "ds5s4/12/12/S11/12/12/12/5D6 w";
    let mut p = pos("kowalski-parcae", fen);
    play(&mut p, "a5-a7");
    assert_eq!(p.outcome(), None);
    let mut p = pos("kowalski", fen);
    play(&mut p, "a5-a7");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
    // da8 Sb8 Sa5 Df1 sh8: both neighbours White.
    let mut p = pos("kowalski-parcae", "dS5s4/12/12/S11/12/12/12/5D6 w");
    play(&mut p, "a5-a7");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

// =====================================================================================
// common (seed 003)
// =====================================================================================

/// Seed 003: "Several soldiers in a row can also be captured."
#[test]
fn common_line_capture_of_several_soldiers() {
    // Sc4 sd4 se4 sf4 Sg1 Dk2 dk7
    let mut p = pos("common", "12/10d1/12/12/2Ssss6/12/10D1/6S5 w");
    play(&mut p, "g1-g4xd4xe4xf4");
}

/// Seed 003: "However if the king is in the same row none are captured."
#[test]
fn common_line_capture_stopped_by_king() {
    // Sc4 sd4 de4 sf4 Sg1 Dk2 sh8
    let mut p = pos("common", "7s4/12/12/12/2Ssds6/12/10D1/6S5 w");
    play(&mut p, "g1-g4");
    assert!(is(&p, "d4", 's') && is(&p, "e4", 'd') && is(&p, "f4", 's'));
}

/// Seed 003: soldiers are captured "between two of your soldiers or king": the king may
/// close a line.
#[test]
fn common_king_closes_a_line() {
    // Dc4 sd4 se4 Sf1 dk7
    let mut p = pos("common", "12/10d1/12/12/2Dss7/12/12/5S6 w");
    play(&mut p, "f1-f4xd4xe4");
}

/// Seed 003: "Edges cannot be used to capture ... A stone in the corner can be captured
/// by two stones placed across the corner."
#[test]
fn common_corner_capture_and_no_edge_anvil() {
    // sa1 Sb1 Sa5 Dk2 dk7
    let mut p = pos("common", "12/10d1/12/S11/12/12/10D1/sS10 w");
    play(&mut p, "a5-a2xa1");
    // sa4 sb4 Sc1 Dk2 dk7: a line run against the edge is not captured.
    let mut p = pos("common", "12/10d1/12/12/ss10/12/10D1/2S9 w");
    play(&mut p, "c1-c4");
    assert!(is(&p, "a4", 's') && is(&p, "b4", 's'));
}

/// Seed 003: "The black king will have been trapped by two of its own soldiers and by one
/// white soldier" — the king with no empty neighbour loses, whoever blocks it.
#[test]
fn common_king_trapped_by_own_soldiers_and_one_enemy() {
    // de8 sd8 sf8 Se1 Dk2
    let mut p = pos("common", "3sds6/12/12/12/12/12/10D1/4S7 w");
    play(&mut p, "e1-e7");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

/// Seed 003: "any move initiating a third repeating series of moves is illegal"
/// (docs/rules.md: a ply that would create the third occurrence of a position is illegal).
#[test]
fn common_repetition_third_occurrence_is_illegal() {
    // Da1 dl8 Sc3 sj6
    let mut p = pos("common", "11d/12/9s2/12/12/2S9/12/D11 w");
    for m in ["Da1-b1", "Dl8-k8", "Db1-a1", "Dk8-l8", "Da1-b1", "Dl8-k8", "Db1-a1"] {
        play(&mut p, m);
        assert_eq!(p.outcome(), None);
    }
    assert!(!legal(&p, "Dk8-l8"), "the third occurrence of the start position must be illegal");
    assert!(legal(&p, "Dk8-j8"));
}

/// Seed 003: "If the king is surrounded by pieces so the king cannot move in any
/// direction, then the king has been captured and the game is over" — whoever closes the
/// last side, even its own side (docs/rules.md common); a ply trapping both kings wins for the
/// mover [assumed].
#[test]
fn common_trapped_king_whoever_closes_it() {
    // Da1 Sa2 Sd1 dl8 sh8: White closes its own king's last side and loses.
    let mut p = pos("common", "7s3d/12/12/12/12/12/S11/D2S8 w");
    play(&mut p, "d1-b1");
    assert_eq!(p.outcome(), win(Color::Black, Reason::Immobilized));
    // Da1 Sb1 da3 sa4 sb3 Sd2: d2-a2 closes both kings.
    let mut p = pos("common", "12/12/12/12/s11/ds10/3S8/DS10 w");
    play(&mut p, "d2-a2");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

// =====================================================================================
// xxi and classical (seed 001): captures
// =====================================================================================

/// Seed 001 diagram 6: `d1-d5xc5` and `... De6-i6xi7` (the Dux as hammer).
#[test]
fn xxi_d6_custodial_captures() {
    // Sd1 sc5 Sb5 de6 Si7 si8 Dj1
    let mut p = pos("xxi", "8s1/8S1/4d5/1Ss7/10/10/10/3S5D w");
    play(&mut p, "d1-d5xc5");
    play(&mut p, "De6-i6xi7");
}

/// Seed 001 diagram 7: `i1-i6*` and `... c8-c4` move safely between two enemies; then
/// `a8-a4` wins the b4 soldier (the "relative fork"). Reconstructed.
#[test]
fn xxi_d7_moving_between_two_enemies_is_safe() {
    // di7 sh6 sj6 sc8 sa8 se8 Sb4 Sd4 Si1 Df2
    let mut p = pos("xxi", "s1s1s5/8d1/7s1s/10/1S1S6/10/5D4/8S1 w");
    play(&mut p, "i1-i6*");
    play(&mut p, "c8-c4");
    assert!(is(&p, "i6", 'S') && is(&p, "c4", 's'));
    play(&mut p, "Df2-f3");
    assert!(legal(&p, "e8-e4"));
    assert_eq!(would_capture(&p, "e8-e4"), strs(&["d4"]));
    play(&mut p, "a8-a4xb4");
}

/// Seed 001 diagram 8: `13...h3-g3xf3xg4`, two custodial captures in one move.
#[test]
fn xxi_d8_dual_capture() {
    // sh3 Sf3 se3 Sg4 sg5 Da1 dj8
    let mut p = pos("xxi", "9d/10/10/6s3/6S3/4sS1s2/10/D9 b");
    play(&mut p, "h3-g3xf3xg4");
}

/// Seed 001 diagram 9: d1 or g4 can move to d4 and capture c4 (locked against b4); the
/// j5 soldier plays to j7 and captures j8 in the corner against i8.
#[test]
fn xxi_d9_custodial_and_corner_attacks() {
    // Sd1 Sg4 Sb4 sc4 Si8 sj8 Sj5 Da1 de8
    let mut p = pos("xxi", "4d3Ss/10/10/9S/1Ss3S3/10/10/D2S6 w");
    assert!(legal(&p, "d1-d4") && legal(&p, "g4-d4"));
    assert_eq!(would_capture(&p, "d1-d4"), strs(&["c4"]));
    assert_eq!(would_capture(&p, "g4-d4"), strs(&["c4"]));
    play(&mut p, "j5-j7xj8");
}

// ----- rules 10-12: locked soldiers -----

/// Seed 001 diagram 16 (rule 10, left): soldiers in one-to-one combats cannot move
/// non-offensively. Reconstructed: pairs b5/b4 and i4/i5.
#[test]
fn xxi_d16_left_locked_soldiers_cannot_move() {
    // Sb5 sb4 si5 Si4 Df1 de8
    let p = pos("xxi", "4d5/10/10/1S6s1/1s6S1/10/10/5D4 w");
    assert_eq!(dests(&p, "b5"), Vec::<String>::new());
    assert_eq!(dests(&p, "i4"), Vec::<String>::new());
    let b = p.with_turn_passed();
    assert_eq!(dests(&b, "b4"), Vec::<String>::new());
    assert_eq!(dests(&b, "i5"), Vec::<String>::new());
}

/// Seed 001 diagram 16 (rule 11, right): "the white one at b5 can actually still do an
/// offensive play (his only possible legal move) by moving to h5 and capturing the black
/// i5 soldier ... Other than for this move (b5-h5xi5) the b5-pawn has no other legal
/// moves." Reconstructed: pairs b5/b4 and i5/j5.
#[test]
fn xxi_d16_right_locked_soldier_may_capture() {
    // Sb5 sb4 si5 Sj5 Df1 de8
    let mut p = pos("xxi", "4d5/10/10/1S6sS/1s8/10/10/5D4 w");
    assert_eq!(dests(&p, "b5"), strs(&["h5"]));
    assert_eq!(dests(&p, "j5"), Vec::<String>::new());
    play(&mut p, "b5-h5xi5");
}

/// The same diagram in Single Stone XXI (no Duxes): `b5-h5xi5` is White's only legal move.
#[test]
fn single_stone_d16_b5_h5_is_the_only_legal_move() {
    // Sb5 sb4 si5 Sj5
    let mut p = pos("single-stone-xxi", "10/10/10/1S6sS/1s8/10/10/10 w");
    assert_eq!(list(&p), strs(&["b5-h5"]));
    play(&mut p, "b5-h5xi5");
}

/// Seed 001 diagram 17 (rule 12): b4 and c5 both fight b5, so either may leave; i4 and i5
/// are locked. After `b4-f4` and `... j8-j4` (the text's "i8-i4"), c5 is locked, while i5,
/// now supported by j4 against i4, may move again; i4 stays locked. Reconstructed.
#[test]
fn xxi_d17_melee_soldier_may_leave() {
    // Sb4 sb5 Sc5 Si4 si5 sj8 Df1 de8
    let mut p = pos("xxi", "4d4s/10/10/1sS5s1/1S6S1/10/10/5D4 w");
    assert!(legal(&p, "b4-f4"), "b4 may leave the melee (rule 12)");
    assert!(legal(&p, "c5-c8"), "c5 may leave the melee (rule 12)");
    assert!(!legal(&p, "i4-i1"), "i4 is locked (rule 10)");
    let b = p.with_turn_passed();
    assert!(!legal(&b, "i5-i8"), "i5 is locked (rule 10)");
    assert!(!legal(&b, "b5-b8"), "b5 is locked (rule 10)");
    play(&mut p, "b4-f4");
    play(&mut p, "j8-j4");
    assert!(!legal(&p, "c5-c8"), "c5 is now the sole attacker of b5");
    assert!(!legal(&p, "i4-i1"), "i4 is still locked");
    play(&mut p, "f4-f3");
    assert!(legal(&p, "i5-i8"), "i5 is supported by j4 against i4 (rule 12)");
    assert!(!legal(&p, "b5-b8"), "b5 is the sole attacker of c5");
}

/// Seed 001 diagram 35 (rules 10-12), every statement of the text:
/// i6-i5-j5: i5 only `i5-f5xf4`; i6 and j5 free. a1-b2-c1-b1: b1 cannot move; a1, b2, c1
/// free. a6-a5-b5-b4: a6 and b4 free; b5 cannot move; a5 only `a5-a2xa1`.
/// e6-e5-e4-f4-f3-f2-g2: e6, e4, f4, f3, g2 free; f2 cannot move; e5 only `e5-c5xb5`
/// and `e5-h5xi5`. Reconstructed (colours from the captures named).
#[test]
fn xxi_d35_melees() {
    // White: a6 b5 e6 e4 i5 f3 b2 g2 a1 c1, Dux h1; Black: a5 b4 e5 i6 j5 f4 f2 b1, Dux j8
    let w = pos("xxi", "9d/10/S3S3s1/sS2s3Ss/1s2Ss4/5S4/1S3sS3/SsS4D2 w");
    assert_eq!(dests(&w, "i5"), strs(&["f5"]));
    assert_eq!(would_capture(&w, "i5-f5"), strs(&["f4"]));
    assert_eq!(dests(&w, "b5"), Vec::<String>::new());
    for m in ["a6-a7", "e6-e7", "e4-d4", "f3-h3", "g2-g4", "b2-c2", "a1-a3", "c1-d1"] {
        assert!(legal(&w, m), "{m}: free by rule 12");
    }
    let b = w.with_turn_passed();
    assert_eq!(dests(&b, "e5"), strs(&["c5", "h5"]));
    assert_eq!(would_capture(&b, "e5-c5"), strs(&["b5"]));
    assert_eq!(would_capture(&b, "e5-h5"), strs(&["i5"]));
    assert_eq!(dests(&b, "a5"), strs(&["a2"]));
    assert_eq!(would_capture(&b, "a5-a2"), strs(&["a1"]));
    assert_eq!(dests(&b, "f2"), Vec::<String>::new());
    assert_eq!(dests(&b, "b1"), Vec::<String>::new());
    for m in ["i6-i7", "j5-j6", "b4-c4", "f4-g4"] {
        assert!(legal(&b, m), "{m}: free by rule 12");
    }
}

// ----- rules 13-15: charging attacks -----

/// Seed 001 diagram 19 (rule 13a): `g4-h4xj4`, g4 (locked) pushes i4 and crushes j4
/// against the wall; h5 cannot go to h4 (not in the direction of the combat, hence not
/// offensive, and h5 is the sole attacker of the black Dux). Reconstructed.
#[test]
fn xxi_d19_push_and_crush_against_the_wall() {
    // Sd4 Sg4 Sh5 Si4 sd5 sf4 sg5 si5 sj4 dh6 Da1
    let fen = "10/10/7d2/3s2sSs1/3S1sS1Ss/10/10/D9 w";
    let mut p = pos("xxi", fen);
    assert!(!legal(&p, "g4-g3"), "g4 is locked (rule 10)");
    assert_eq!(would_capture(&p, "h5-h4"), Vec::<String>::new());
    assert!(!legal(&p, "h5-h4"), "h5-h4 is not offensive and h5 is locked against the Dux");
    play(&mut p, "g4-h4xj4");
}

/// Seed 001 diagram 19, second paragraph: arriving on h4 from the side (h5-h4) is no push
/// and crush even when h5 is free to move (here the black Dux is elsewhere).
#[test]
fn xxi_d19_arriving_from_the_side_is_not_push_and_crush() {
    // Sd4 Sg4 Sh5 Si4 sd5 sf4 sg5 si5 sj4 da8 Da1
    let mut p = pos("xxi", "d9/10/10/3s2sSs1/3S1sS1Ss/10/10/D9 w");
    play(&mut p, "h5-h4");
    assert!(is(&p, "j4", 's'));
}

/// Seed 001 diagram 20 (rule 13b): `d5-f5xh5`, d5 (locked) pushes g5 and crushes h5
/// against i5.
#[test]
fn xxi_d20_push_and_crush_against_a_friend() {
    // Sd4 Sg4 Sh5 Si4 sd5 sf4 sg5 si5 sj4 dh6 Da1
    let mut p = pos("xxi", "10/10/7d2/3s2sSs1/3S1sS1Ss/10/10/D9 b");
    assert!(!legal(&p, "d5-e5"), "d5 is locked (rule 10)");
    play(&mut p, "d5-f5xh5");
}

/// Seed 001 diagram 22 (rule 14): `h4-g4xf4` (by the white Dux) captures the rear soldier
/// f4 of the d4-e4-f4 line; e4 survives. Moving onto the line from the side (`g1-g4`) is
/// no flank attack. Classical Latrunculi has no flank attack. Reconstructed.
#[test]
fn xxi_d22_flank_attack() {
    // Sd4 se4 sf4 Dh4 Sg1 da8
    let fen = "d9/10/10/10/3Sss1D2/10/10/6S3 w";
    let mut p = pos("xxi", fen);
    assert_eq!(would_capture(&p, "g1-g4"), Vec::<String>::new());
    assert!(legal(&p, "g1-g4"));
    play(&mut p, "Dh4-g4xf4");
    assert!(is(&p, "e4", 's'));
    let mut c = pos("classical", fen);
    play(&mut c, "Dh4-g4");
}

/// Seed 001 rule 14: the flank attack sandwiches "any number of enemy pieces (2, 3 or
/// more)" and captures only the soldier in the rear (the one next to the attacker); it
/// never captures a Dux (docs/rules.md: `s+d` captured if it is a soldier; the run may hold any
/// enemy pieces).
#[test]
fn xxi_rule14_flank_attack_variants() {
    // Sb4 sc4 sd4 se4 Si4 Da1 da8: three in the line, only e4 falls.
    let mut p = pos("xxi", "d9/10/10/10/1Ssss3S1/10/10/D9 w");
    play(&mut p, "i4-f4xe4");
    // Sc4 sd4 de4 Si4 Da1: the Dux at the rear is not captured.
    let mut p = pos("xxi", "10/10/10/10/2Ssd3S1/10/10/D9 w");
    play(&mut p, "i4-f4*");
    // Sc4 dd4 se4 Si4 Da1 sa8: a Dux inside the line does not stop it.
    let mut p = pos("xxi", "s9/10/10/10/2Sds3S1/10/10/D9 w");
    play(&mut p, "i4-f4xe4");
}

/// Seed 001 rule 13a: the charging piece pushes "another (and only ONE) friendly piece":
/// with two friends between the attacker and the enemy there is no push and crush.
#[test]
fn xxi_rule13_pushes_only_one_piece() {
    // Sf4 Sh4 Si4 sj4 Da1 da8
    let mut p = pos("xxi", "d9/10/10/10/5S1SSs/10/10/D9 w");
    play(&mut p, "f4-g4");
    assert!(is(&p, "j4", 's'));
}

/// Classical Latrunculi (seed 001) has no locked soldiers: the diagram 16 soldiers may
/// move freely.
#[test]
fn classical_has_no_locks() {
    // Sb5 sb4 si5 Si4 Df1 de8
    let p = pos("classical", "4d5/10/10/1S6s1/1s6S1/10/10/5D4 w");
    assert!(legal(&p, "b5-b8") && legal(&p, "i4-i1"));
}

/// Seed 001 diagram 25 (rule 15): `a6-c6` completes the c7-d7-e7/c6-d6-e6 testudo and
/// captures f6; `i1-i4` joins h4-h5 and captures i6; a phalanx against the Dux on e2
/// fails. Reconstructed.
#[test]
fn xxi_d25_phalanx_attacks() {
    // sc7 sd7 se7 sd6 se6 sa6 Sf6 | Si1 Sh4 Sh5 Si5 si6 | de2 Sc3 Sd3 Sd2 Sa2 | Dj8
    let board = "9D/2sss5/s2ssS2s1/7SS1/7S2/2SS6/S2Sd5/8S1";
    let mut b = pos("xxi", &format!("{board} b"));
    play(&mut b, "a6-c6xf6");
    let mut w = pos("xxi", &format!("{board} w"));
    assert_eq!(would_capture(&w, "a2-c2"), Vec::<String>::new(), "a phalanx never captures a Dux");
    play(&mut w, "i1-i4xi6");
}

/// Seed 001 diagram 55: the directional phalanx `a1-e1xg1` (e1 completes the e2-f2-f1-e1
/// testudo) captures g1 whatever stands behind it (h1, a white soldier); against a white
/// Dux on g1 it captures nothing. Reconstructed.
#[test]
fn xxi_d55_phalanx_against_the_fortress() {
    // sa1 se2 sf2 sf1 Sg1 Sh1 Sg2 Dj2 da8
    let mut p = pos("xxi", "d9/10/10/10/10/10/4ssS2D/s4sSS2 b");
    play(&mut p, "a1-e1xg1");
    // sa1 se2 sf2 sf1 Dg1 Sh1 Sg2 da8
    let mut p = pos("xxi", "d9/10/10/10/10/10/4ssS3/s4sDS2 b");
    play(&mut p, "a1-e1");
    assert!(is(&p, "g1", 'D'));
}

/// Seed 001 diagram 21: `g5-c5xa5xc4`, a push and crush against the wall combined with a
/// custodial capture. Reconstructed.
#[test]
fn xxi_d21_push_and_crush_with_custodial() {
    // sg5 sb5 Sa5 Sc4 sc3 Dj1 dj8
    let mut p = pos("xxi", "9d/10/10/Ss4s3/2S7/2s7/10/9D b");
    play(&mut p, "g5-c5xa5xc4");
}

/// Seed 001 diagram 44: `7.e1-e4xe6xd4`, a phalanx attack and a custodial capture.
/// Reconstructed (the testudo partner is f4-f5).
#[test]
fn xxi_d44_phalanx_with_custodial() {
    // Se1 Se5 Sf4 Sf5 Sc4 se6 sd4 Dj1 da8
    let mut p = pos("xxi", "d9/10/4s5/4SS4/2Ss1S4/10/10/4S4D w");
    play(&mut p, "e1-e4xe6xd4");
}

/// Seed 001 diagram 38: `d5-f5xh5xf6`, a phalanx attack and a custodial capture.
/// Reconstructed.
#[test]
fn xxi_d38_phalanx_with_custodial() {
    // Sd5 Sg5 Sf4 Sg4 Sf7 sh5 sf6 Dj1 da8
    let mut p = pos("xxi", "d9/5S4/5s4/3S2Ss2/5SS3/10/10/9D w");
    play(&mut p, "d5-f5xh5xf6");
}

// ----- rules 16-19: the Dux -----

/// Seed 001 diagram 29 (rule 16): the Dux at b7 in combat with the white b8 soldier "can
/// only play to either a7 or b6 (not to c7 which is occupied by a friendly soldier)".
#[test]
fn xxi_rule16_dux_in_one_combat_moves_one_square() {
    // db7 Sb8 sc7 Dj1 sh2
    let p = pos("xxi", "1S8/1ds7/10/10/10/10/7s2/9D b");
    assert_eq!(dests(&p, "b7"), strs(&["a7", "b6"]));
}

/// Seed 001 diagram 30 (rules 16, 19, 18): the white j6 Dux (in combat with j7) may go
/// one square to i6 or j5, or hit with `Dj6-b6#`, immobilising the a6 Dux; the black a6
/// Dux (one open side, in combat) cannot move at all, although a6-i6 would hit j6.
#[test]
fn xxi_rule16_19_dux_hit_allows_a_longer_move() {
    // Dj6 sj7 da6 sa7 Sa5
    let mut p = pos("xxi", "10/s8s/d8D/S9/10/10/10/10 w");
    assert_eq!(dests(&p, "j6"), strs(&["b6", "i6", "j5"]));
    let b = p.with_turn_passed();
    assert_eq!(dests(&b, "a6"), Vec::<String>::new(), "rule 19 does not override rule 18");
    play(&mut p, "Dj6-b6#");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

/// Seed 001 diagram 29 (rule 17): the Dux at d2 in combat with c2 and d1 can only make
/// offensive moves (here a capture, `Dd2-d5xd6`). Reconstructed.
#[test]
fn xxi_rule17_dux_in_two_combats_offensive_only() {
    // Dd2 sc2 sd1 sd6 Sd7 dj8
    let mut p = pos("xxi", "9d/3S6/3s6/10/10/10/2sD6/3s6 w");
    assert_eq!(dests(&p, "d2"), strs(&["d5"]));
    play(&mut p, "Dd2-d5xd6");
}

/// Seed 001 diagram 29 (rules 17, 18): the black b4 Dux (two combats) "cannot freely move
/// anywhere but to h4 ... as this move hits an enemy Dux and actually checkmates it"; the
/// white i4 Dux (in combat with i5, own soldiers on two sides) "has no legal moves", even
/// though Di4-c4 would hit the b4 Dux. Reconstructed.
#[test]
fn xxi_rule17_18_frozen_dux_and_the_mating_hit() {
    // db4 Sb3 Sb5 Di4 si5 Si3 Sj4
    let w = pos("xxi", "10/10/10/1S6s1/1d6DS/1S6S1/10/10 w");
    assert_eq!(dests(&w, "i4"), Vec::<String>::new());
    let mut b = w.with_turn_passed();
    assert_eq!(dests(&b, "b4"), strs(&["h4"]));
    play(&mut b, "Db4-h4#");
    assert_eq!(b.outcome(), win(Color::Black, Reason::Immobilized));
}

/// Seed 001 diagram 29: corollary 18i (the g2 Dux surrounded only by its own soldiers,
/// one side open, moves freely along it) and rule 12 (the i7 Dux fights j7, which stays
/// in combat with j8, so the Dux is free).
#[test]
fn xxi_rule12_18i_free_duxes() {
    // Dg2 Sf2 Sh2 Sg1 di7 Sj7 sj8
    let mut p = pos("xxi", "9s/8dS/10/10/10/10/5SDS2/6S3 w");
    assert!(legal(&p, "Dg2-g6"));
    play(&mut p, "Dg2-g6");
    play(&mut p, "Di7-i3");
}

/// Seed 001 diagram 34 (rules 10, 12): the white e6 soldier fights the black e7 Dux alone
/// and cannot move, though its fight with f6 is shared with the white f5 Dux; the f5 Dux
/// may move anywhere because f6 stays in combat with e6. For Black, f6 (sole attacker of
/// the f5 Dux) cannot move but the e7 Dux can. Reconstructed (the text's "f7" is f6).
#[test]
fn xxi_d34_melee_with_duxes() {
    // Se6 Df5 de7 sf6
    let w = pos("xxi", "10/4d5/4Ss4/5D4/10/10/10/10 w");
    assert_eq!(dests(&w, "e6"), Vec::<String>::new());
    assert!(legal(&w, "Df5-b5") && legal(&w, "Df5-f1"));
    let b = w.with_turn_passed();
    assert_eq!(dests(&b, "f6"), Vec::<String>::new());
    assert!(legal(&b, "De7-b7"));
}

/// Seed 001 diagram 41 (pin): the locked c5 soldier "has only the following legal moves:
/// c5-c7* and c5-c4xc3"; after either, `b5-f5#` wins for Black. Reconstructed.
#[test]
fn xxi_d41_pin() {
    // Sc5 Sc2 Se4 Sg4 Sf3 Df4 sb5 sc3 dc8
    let fen = "2d7/10/10/1sS7/4SDS3/2s2S4/2S7/10 w";
    let p = pos("xxi", fen);
    assert_eq!(dests(&p, "c5"), strs(&["c4", "c7"]));
    for first in ["c5-c7*", "c5-c4xc3"] {
        let mut p = pos("xxi", fen);
        play(&mut p, first);
        play(&mut p, "b5-f5#");
        assert_eq!(p.outcome(), win(Color::Black, Reason::Immobilized));
    }
}

/// Seed 001 diagram 42 (skewer): once the white Dux has left f4, Black captures f5 and g4
/// with `c4-f4xf5xg4` or `Df1-f4xf5xg4`. Reconstructed.
#[test]
fn xxi_d42_skewer_dual_capture() {
    // Sf5 Sg4 Da1 sf6 sh4 sc4 df1
    let fen = "10/10/5s4/5S4/2s3Ss2/10/10/D4d4 b";
    let p = pos("xxi", fen);
    assert_eq!(would_capture(&p, "Df1-f4"), strs(&["f5", "g4"]));
    let mut p = pos("xxi", fen);
    play(&mut p, "c4-f4xf5xg4");
    let mut p = pos("xxi", fen);
    play(&mut p, "Df1-f4xf5xg4");
}

/// Seed 001 diagram 12: `16.f6-f4#`, the black Dux on f3 between the g3 Dux, e3, f2 and
/// now f4. Reconstructed.
#[test]
fn xxi_d12_mate() {
    // Dg3 Se3 Sf2 Sf6 Sd4 df3 sa8
    let mut p = pos("xxi", "s9/10/5S4/10/3S6/4SdD3/5S4/10 w");
    play(&mut p, "f6-f4#");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

/// Seed 001 diagrams 4 and 5: soldiers on the first rank, the Dux "on the right square of
/// the two middle squares in his 2nd rank", reverse symmetry (f2/e7 on 10 × 8, g2/f7 on
/// 12 × 8, e2/d7 on 8 × 8).
#[test]
fn xxi_d4_d5_opening_setups() {
    let rs = ruleset("xxi");
    for (w, white, black) in [(10u8, "f2", "e7"), (12, "g2", "f7"), (8, "e2", "d7")] {
        let p = Position::new(&rs.with_board(w, 8).expect("board"));
        assert!(is(&p, white, 'D') && is(&p, black, 'd'), "{w}x8: {}", fen(&p));
        assert_eq!(p.soldiers_on_board(Color::White), w as u32);
        assert_eq!(p.soldiers_on_board(Color::Black), w as u32);
        assert_eq!(p.side_to_move(), Color::White);
    }
}

/// Seed 001 diagram 30 (rule 19): the locked b3 soldier cannot move, but `b3-d3*` hits
/// the enemy Dux on e3 and is allowed. Reconstructed.
#[test]
fn xxi_rule19_locked_soldier_may_hit_the_dux() {
    // Sb3 sb2 de3 Dj8
    let mut p = pos("xxi", "9D/10/10/10/10/1S2d5/1s8/10 w");
    assert_eq!(dests(&p, "b3"), strs(&["d3"]));
    play(&mut p, "b3-d3*");
}

// ----- rules 1c, 20: self-immobilisation -----

/// Seed 001 diagram 31, first example (rule 20): `h1-h3xh5(+)`; the white Dux on h4 has
/// only h3 open, but the phalanx captures h5 and opens a new side. Diagram 52 (b): without
/// a capture the same move immobilises the own Dux and is illegal (rule 1c).
#[test]
fn xxi_rule20_capture_precedes_self_immobilisation() {
    // Dh4 Sg4 Sg3 Sh1 Si4 sh5 sc8 da8
    let mut p = pos("xxi", "d1s7/10/10/7s2/6SDS1/6S3/10/7S2 w");
    play(&mut p, "h1-h3xh5(+)");
    assert_eq!(p.outcome(), None);
    // Without g3 there is no phalanx: Dh4 Sg4 Sh1 Si4 sh5 sc8 da8.
    let p = pos("xxi", "d1s7/10/10/7s2/6SDS1/10/10/7S2 w");
    assert_eq!(would_capture(&p, "h1-h3"), Vec::<String>::new());
    assert!(!legal(&p, "h1-h3"), "self-immobilisation is illegal");
    assert!(legal(&p, "h1-h2"));
}

/// Seed 001 diagram 31, second example (rules 13a, 20): `b6-b3xb1(+)`. Reconstructed.
#[test]
fn xxi_rule20_push_and_crush_against_the_wall_opens_a_side() {
    // db2 sb6 sa2 Sb1 Sc2 Dj8
    let mut p = pos("xxi", "9D/10/1s8/10/10/10/sdS7/1S8 b");
    play(&mut p, "b6-b3xb1(+)");
    assert_eq!(p.outcome(), None);
}

/// Seed 001 diagram 31, third example (rules 13b, 20): `b6-d6xf6(+)`. Reconstructed.
#[test]
fn xxi_rule20_push_and_crush_against_a_friend_opens_a_side() {
    // de6 sb6 se7 sg6 Sf6 Se5 Dj1
    let mut p = pos("xxi", "10/4s5/1s2dSs3/4S5/10/10/10/9D b");
    play(&mut p, "b6-d6xf6(+)");
    assert_eq!(p.outcome(), None);
}

// ----- whole games from the start and the end rules -----

/// Seed 001 diagram 53: `1.e1-e6* b8-b4 2.Df2-f7+ g8-g7(+)?? 3.d1-d7#`.
#[test]
fn xxi_d53_fools_mate() {
    let mut p = Position::new(&ruleset("xxi"));
    for m in ["e1-e6*", "b8-b4", "Df2-f7+", "g8-g7(+)??"] {
        play(&mut p, m);
        assert_eq!(p.outcome(), None, "after {m}");
    }
    play(&mut p, "d1-d7#");
    assert_eq!(p.outcome(), win(Color::White, Reason::Immobilized));
}

/// Seed 001 diagram 54: `1.Df2-j2? j8-j3+ 2.e1-e4?? i8-i2#`.
#[test]
fn xxi_d54_two_move_fools_mate() {
    let mut p = Position::new(&ruleset("xxi"));
    for m in ["Df2-j2?", "j8-j3+", "e1-e4??"] {
        play(&mut p, m);
        assert_eq!(p.outcome(), None, "after {m}");
    }
    // After j8-j3+ the white Dux (one open side, in combat) is frozen (rule 18).
    assert_eq!(dests(&p.with_turn_passed(), "j2"), Vec::<String>::new());
    play(&mut p, "i8-i2#");
    assert_eq!(p.outcome(), win(Color::Black, Reason::Immobilized));
}

const REPEAT: [&str; 8] = ["Da1-b1", "Dj8-i8", "Db1-a1", "Di8-j8", "Da1-b1", "Dj8-i8", "Db1-a1", "Di8-j8"];

/// Seed 001 rules: "the Threefold Repetition rule gives a loss for the player forcing the
/// 3rd repetition".
#[test]
fn xxi_third_repetition_loses_for_the_mover() {
    // Da1 dj8 Sc3 sh6
    let mut p = pos("xxi", "9d/10/7s2/10/10/2S7/10/D9 w");
    for m in &REPEAT[..7] {
        play(&mut p, m);
        assert_eq!(p.outcome(), None, "after {m}");
    }
    play(&mut p, REPEAT[7]);
    assert_eq!(p.outcome(), win(Color::White, Reason::Repetition));
}

/// docs/rules.md classical: threefold repetition is a draw [assumed].
#[test]
fn classical_third_repetition_is_a_draw() {
    let mut p = pos("classical", "9d/10/7s2/10/10/2S7/10/D9 w");
    for m in &REPEAT[..7] {
        play(&mut p, m);
        assert_eq!(p.outcome(), None, "after {m}");
    }
    play(&mut p, REPEAT[7]);
    assert_eq!(p.outcome(), draw(Reason::Repetition));
}

/// Seed 001: "A player left with a lone Dux loses the game."
#[test]
fn xxi_lone_dux_loses() {
    // dj8 se5 Sd5 Sf1 Da1
    let mut p = pos("xxi", "9d/10/10/3Ss5/10/10/10/D4S4 w");
    play(&mut p, "f1-f5xe5");
    assert_eq!(p.outcome(), win(Color::White, Reason::Bare));
}

/// Seed 001: "If the game goes for 50 moves without a capture, the game is automatically a
/// draw" (100 plies).
#[test]
fn xxi_hundred_plies_without_capture_draw() {
    // Da1 dj8 Sc3 sh6, 99 plies since the last capture
    let mut p = pos("xxi", "9d/10/7s2/10/10/2S7/10/D9 w - 99 150");
    play(&mut p, "Da1-b1");
    assert_eq!(p.outcome(), draw(Reason::NoCaptureLimit));
}

/// Seed 001 diagram 48 (Single Stone XXI, 12 × 8): after `30...g3-h3?! 31.i7-i3! 1-0`
/// every black soldier is locked in a skirmish with nothing to capture: Black is
/// stalemated and loses. Reconstructed (g5, l3 as the text's threats require).
#[test]
fn single_stone_d48_stalemate_by_locking() {
    // Sg5 Sl3 Si7 sg4 sl4 sh3
    let rs = ruleset("single-stone-xxi").with_board(12, 8).expect("12x8 single stone");
    let mut p = pos_with(&rs, "12/8S3/12/6S5/6s4s/7s3S/12/12 w");
    play(&mut p, "i7-i3!");
    assert_eq!(list(&p), Vec::<String>::new());
    assert_eq!(p.outcome(), win(Color::White, Reason::Stalemate));
}

/// Seed 001 Petteia XXI: "annihilate the opponent's army and bring it down to either one
/// or no soldiers".
#[test]
fn petteia_down_to_one_soldier_loses() {
    // Sc4 sd4 sh8 Se1 Sa1
    let mut p = pos("petteia-xxi", "7s/8/8/8/2Ss4/8/8/S3S3 w");
    play(&mut p, "e1-e4xd4");
    assert_eq!(p.outcome(), win(Color::White, Reason::Annihilated));
}

// =====================================================================================
// schadler (seed 004)
// =====================================================================================

/// Seed 004, game play 1: counters are placed one at a time, alternately, starting with
/// White (docs/rules.md); "In this phase, no captures are made."
#[test]
fn schadler_placement_one_at_a_time_traps_nothing() {
    let mut p = Position::new(&ruleset("schadler"));
    assert!(p.is_placement_phase());
    assert_eq!(p.legal_move_list().len(), 64);
    assert_eq!(p.side_to_move(), Color::White);
    play(&mut p, "@c3");
    assert_eq!(p.side_to_move(), Color::Black);
    play(&mut p, "@d3");
    assert_eq!(p.side_to_move(), Color::White);
    play(&mut p, "@e3");
    assert!(is(&p, "d3", 's'), "placing traps nothing");
}

/// Seed 004: the last placement (Black's 16th) traps nothing; then White moves first.
#[test]
fn schadler_last_placement_then_movement() {
    // sc4 Sd4 Sa1 sh8, Black to place its last counter
    let mut p = pos("schadler", "7s/8/8/8/2sS4/8/8/S7 b 0,0/1,0");
    assert!(p.is_placement_phase());
    play(&mut p, "@e4");
    assert!(is(&p, "d4", 'S'), "placing e4 does not trap d4 between c4 and e4");
    assert!(!p.is_placement_phase());
    assert_eq!(p.side_to_move(), Color::White);
}

/// Seed 004 rules 4-5 and the end: a counter flanked by two enemies becomes Alligatus
/// (trapped), cannot move, and is removed by the trapper as a whole ply; a player reduced
/// to one counter loses.
#[test]
fn schadler_trap_then_removal() {
    // Sc4 Sf4 sd4 sh8
    let mut p = pos("schadler", "7s/8/8/8/2Ss1S2/8/8/8 w");
    let fx = play(&mut p, "f4-e4");
    assert_eq!(names(&fx.trapped()), strs(&["d4"]));
    assert!(is(&p, "d4", 't'));
    assert_eq!(dests(&p, "d4"), Vec::<String>::new(), "a trapped counter cannot move");
    play(&mut p, "h8-h7");
    assert!(legal(&p, "xd4"));
    let fx = play(&mut p, "xd4");
    assert_eq!(names(&fx.captured()), strs(&["d4"]));
    assert!(empty(&p, "d4"));
    assert_eq!(p.outcome(), win(Color::White, Reason::Annihilated));
}

/// Seed 004 rule 5 (docs/rules.md release): the trapped counter is freed when one of its
/// holders is no longer there (here it moves away).
#[test]
fn schadler_release_when_a_holder_moves_away() {
    // Sc4 Se4 td4 sh8 Sa1
    let mut p = pos("schadler", "7s/8/8/8/2StS3/8/8/S7 w");
    assert!(is(&p, "d4", 't'));
    play(&mut p, "e4-e5");
    assert!(is(&p, "d4", 's'));
}

/// Seed 004 rule 6: "If the opponent surrounded one of the enemy counters trapping their
/// Alligatus, then their Alligatus is made free ..., whereas the enemy trapped counter
/// becomes Alligatus."
#[test]
fn schadler_rule6_trapping_a_holder_frees_the_alligatus() {
    // Sc4 Se4 td4 sc5 sc2 sh8
    let mut p = pos("schadler", "7s/8/8/2s5/2StS3/8/2s5/8 b");
    let fx = play(&mut p, "c2-c3");
    assert_eq!(names(&fx.trapped()), strs(&["c4"]));
    assert!(is(&p, "c4", 'T'));
    assert!(is(&p, "d4", 's'), "the black counter is free again");
}

/// docs/rules.md schadler: a trapped counter cannot trap (it is no anvil).
#[test]
fn schadler_trapped_counter_cannot_trap() {
    // Tb4 sa4 sc4 Se4 sh8
    let mut p = pos("schadler", "7s/8/8/8/sTs1S3/8/8/8 w");
    let fx = play(&mut p, "e4-d4");
    assert!(fx.is_empty());
    assert!(is(&p, "c4", 's'));
}

/// Seed 004 rule 7: "A player can move their own counter between two enemy counters only
/// if by doing such a move will trap one of the enemy counters."
#[test]
fn schadler_rule7_no_entering_between_enemies_unless_trapping() {
    // sc4 se4 Sd3 Sh1 sa8
    let p = pos("schadler", "s7/8/8/8/2s1s3/3S4/8/7S w");
    assert!(!legal(&p, "d3-d4"));
    // sc4 se4 Sd3 Sf4 Sh1 sa8: now d4 traps e4 against f4.
    let mut p = pos("schadler", "s7/8/8/8/2s1sS2/3S4/8/7S w");
    let fx = play(&mut p, "d3-d4");
    assert_eq!(names(&fx.trapped()), strs(&["e4"]));
}

/// Seed 004 example A: "White captures Black in the corner." Then it is removed.
/// Reconstructed.
#[test]
fn schadler_example_a_corner_trap() {
    // sa1 sh8 Sb1 Sa3
    let mut p = pos("schadler", "7s/8/8/8/8/S7/8/sS6 w");
    let fx = play(&mut p, "a3-a2");
    assert_eq!(names(&fx.trapped()), strs(&["a1"]));
    assert_eq!(dests(&p, "a1"), Vec::<String>::new());
    play(&mut p, "h8-g8");
    play(&mut p, "xa1");
    assert!(empty(&p, "a1"));
}

/// Seed 004 example B: "Black captures two white corners in one move." One reading
/// (the diagram is not in the text): Black steps to b1 and traps a1 in the corner (with
/// a2) and c1 (with d1) at once; b1 lies between two white counters, which rule 7 allows
/// because the move traps.
#[test]
fn schadler_example_b_two_traps_in_one_move() {
    // Sa1 Sc1 sa2 sd1 sb2 Sh8
    let mut p = pos("schadler", "7S/8/8/8/8/8/ss6/S1Ss4 b");
    let fx = play(&mut p, "b2-b1");
    assert_eq!(names(&fx.trapped()), strs(&["a1", "c1"]));
}

/// Seed 004 example C: "With a leap over its neighbouring counter, Black captures a white
/// corner." Black hops h4 over h3 to h2 and traps h1 against g1 (landing between h1 and
/// h3 is allowed because it traps). Without g1 the same hop would end between two white
/// counters without trapping: illegal by rule 7. Reconstructed.
#[test]
fn schadler_example_c_hop_into_a_corner_trap() {
    // Sh1 Sh3 sg1 sh4 sa8 Sa1
    let mut p = pos("schadler", "s7/8/8/8/7s/7S/8/S5sS b");
    let fx = play(&mut p, "h4-h2");
    assert_eq!(names(&fx.trapped()), strs(&["h1"]));
    assert!(is(&p, "h3", 'S'), "a jump never captures the piece jumped");
    // Sh1 Sh3 sh4 sa8 Sa1
    let p = pos("schadler", "s7/8/8/8/7s/7S/8/S6S b");
    assert!(!legal(&p, "h4-h2"));
}

/// Seed 004 rule 3: "Several jumps can be made in one move, just like in checkers", over
/// counters of either colour (a trapped one included), stopping after any jump.
#[test]
fn schadler_hop_chain() {
    // Sc1 Sd3 Sd4 Sf4 sc2 te4 sh8
    let mut p = pos("schadler", "7s/8/8/8/3StS2/3S4/2s5/2S5 w");
    assert_eq!(dests(&p, "c1"), strs(&["b1", "c3", "d1", "e3", "e5"]));
    let fx = play(&mut p, "c1-e5");
    assert!(fx.is_empty());
    assert!(is(&p, "c2", 's') && is(&p, "d3", 'S') && is(&p, "e4", 't'));
}

// =====================================================================================
// savard (seed 002)
// =====================================================================================

/// Seed 002 (Savard): "if a man moves between two men on the edge of the board, when a
/// third man of the opponent moves to cause it to become surrounded on a third side, it
/// can be captured"; the edge alone is never an anvil.
#[test]
fn savard_man_on_the_edge_enclosed_by_three() {
    // sa4 Sa5 Sa3 Sc4 Dh1 dh8
    let mut p = pos("savard", "7d/8/8/S7/s1S5/S7/8/7D w");
    play(&mut p, "c4-b4xa4");
    // sa4 Sc4 Dh1 dh8
    let mut p = pos("savard", "7d/8/8/8/s1S5/8/8/7D w");
    play(&mut p, "c4-b4");
    assert!(is(&p, "a4", 's'));
}

/// Seed 002 (Savard): "The opponent's Dux can only be captured by being surrounded on all
/// available sides; in the corner, this requires only two men"; capturing it wins.
#[test]
fn savard_dux_in_the_corner_captured_by_two() {
    // da8 Sb8 Sa6 se7 Dh1
    let mut p = pos("savard", "dS6/4s3/S7/8/8/8/8/7D w");
    play(&mut p, "a6-a7xa8");
    assert_eq!(p.outcome(), win(Color::White, Reason::DuxCaptured));
}

/// Seed 002 (Savard): "on the edge of the board, only three are required" to capture the
/// Dux.
#[test]
fn savard_dux_on_the_edge_captured_by_three() {
    // da4 Sa5 Sa3 Sc4 Dh1 se8
    let mut p = pos("savard", "4s3/8/8/S7/d1S5/S7/8/7D w");
    play(&mut p, "c4-b4xa4");
    assert_eq!(p.outcome(), win(Color::White, Reason::DuxCaptured));
}

/// Seed 002 (Savard): "A Man can move one space forwards or sideways, but not backwards,
/// but may still jump in all directions."
#[test]
fn savard_men_step_forward_or_sideways_but_hop_backward() {
    // Sd5 sd4 Dh1 dh8
    let p = pos("savard", "7d/8/8/3S4/3s4/8/8/7D w");
    assert_eq!(dests(&p, "d5"), strs(&["c5", "d3", "d6", "e5"]));
    let b = p.with_turn_passed();
    assert_eq!(dests(&b, "d4"), strs(&["c4", "d3", "d6", "e4"]), "Black steps down or sideways, hops up");
}

/// Seed 002 (Savard): "by moving a second man so that the opponent's man is flanked" —
/// only men capture (docs/rules.md parameter `dux_captures = false`).
#[test]
fn savard_only_men_capture() {
    // sd5 Sd4 De6 Se3 dh8: the Dux steps to d6, no capture.
    let mut p = pos("savard", "7d/8/4D3/3s4/3S4/4S3/8/8 w");
    play(&mut p, "De6-d6");
    assert!(is(&p, "d5", 's'));
    // sd5 Sd4 Se6 Dh1 dh8: a man does capture.
    let mut p = pos("savard", "7d/8/4S3/3s4/3S4/8/8/7D w");
    play(&mut p, "e6-d6xd5");
}

/// docs/rules.md savard: "Only the landing square of the whole move triggers captures": a hop
/// chain through d4 (where a stop would capture c4) that ends on d6 captures nothing.
#[test]
fn savard_only_the_landing_square_of_a_chain_captures() {
    // Sd2 Sd3 sd5 sc4 Sb4 Dh1 dh8
    let fen = "7d/8/8/3s4/1Ss5/3S4/3S4/7D w";
    let p = pos("savard", fen);
    assert_eq!(would_capture(&p, "d2-d4"), strs(&["c4"]));
    let mut p = pos("savard", fen);
    play(&mut p, "d2-d6");
    assert!(is(&p, "c4", 's') && is(&p, "d5", 's'));
}

// =====================================================================================
// falkener (seed 002)
// =====================================================================================

/// Seed 002 (Falkener): "Capture is by the normal custodian method, without an additional
/// delay, and along diagonal as well as orthogonal lines."
#[test]
fn falkener_diagonal_custodial_capture() {
    // Sc3 se5 Sf6 Sg8 Sg9 sh8 sj8 sh9 sa12
    let mut p = pos("falkener", "s11/12/12/6Ss4/6Ss1s2/12/5S6/4s7/12/2S9/12/12 w");
    play(&mut p, "c3-d4xe5");
}

/// Seed 002 (Falkener): "Pieces move and jump both orthogonally and diagonally ... A piece
/// can only jump an opponent's piece, although jumps are not captures." docs/rules.md: a single
/// hop [assumed].
#[test]
fn falkener_single_hop_over_an_enemy_only() {
    let fen = "s11/12/12/6Ss4/6Ss1s2/12/5S6/4s7/12/2S9/12/12 w";
    let p = pos("falkener", fen);
    assert!(legal(&p, "g8-i8"), "hop over the enemy h8");
    assert!(legal(&p, "g8-i10"), "diagonal hop over the enemy h9");
    assert!(!legal(&p, "g8-g10"), "no hop over the own g9");
    assert!(!legal(&p, "g8-k8"), "no second hop (over j8)");
    assert!(!legal(&p, "c3-c5"), "a step is one square");
    let mut p = pos("falkener", fen);
    play(&mut p, "g8-i8");
    assert!(is(&p, "h8", 's'));
}

// =====================================================================================
// bell (seed 002)
// =====================================================================================

/// Seed 002 (Bell): "The men are placed on the board alternately by the players, two at a
/// time, and then the Dux." White places plies 1-2, Black 3-4, ...; after the 32 men White
/// places its Dux, then Black; then White moves (Black placed last).
#[test]
fn bell_placement_two_at_a_time_then_the_dux() {
    let mut p = Position::new(&ruleset("bell"));
    for i in 0..34u32 {
        assert!(p.is_placement_phase(), "placement {i}");
        let want = if i < 32 {
            if (i / 2) % 2 == 0 { Color::White } else { Color::Black }
        } else if i == 32 {
            Color::White
        } else {
            Color::Black
        };
        assert_eq!(p.side_to_move(), want, "placer of placement {i}");
        let moves = p.legal_move_list();
        let kind = if i < 32 { PieceKind::Soldier } else { PieceKind::Dux };
        assert!(
            !moves.is_empty() && moves.iter().all(|m| m.kind == MoveKind::Place(kind)),
            "placement {i} places a {kind:?}"
        );
        let fx = p.play(moves[0]);
        assert!(fx.is_empty(), "placements capture nothing");
    }
    assert!(!p.is_placement_phase());
    assert_eq!(p.side_to_move(), Color::White);
    assert!(p.legal_move_list().iter().all(|m| m.kind == MoveKind::Move));
}

/// docs/rules.md bell: no captures while placing.
#[test]
fn bell_no_capture_while_placing() {
    let mut p = Position::new(&ruleset("bell"));
    for m in ["@c4", "@a1", "@d4", "@h8", "@e4"] {
        play(&mut p, m);
    }
    assert!(is(&p, "d4", 's'));
}

/// Seed 002 (Bell): "the Dux can only be captured when surrounded on all four sides" (so
/// never on an edge, and never by two).
#[test]
fn bell_dux_captured_only_on_four_sides() {
    // dd4 Sc4 Se4 Sd5 Sd1 sh8
    let mut p = pos("bell", "7s/8/8/3S4/2SdS3/8/8/3S4 w");
    play(&mut p, "d1-d3xd4");
    assert_eq!(p.dux_square(Color::Black), None);
    assert_eq!(p.outcome(), None, "Bell's objective is the men (win_by_dux_capture = false)");
    // da4 Sa5 Sa3 Sc4 sh8: three sides on the edge are not enough.
    let mut p = pos("bell", "7s/8/8/S7/d1S5/S7/8/8 w");
    play(&mut p, "c4-b4");
    assert!(is(&p, "a4", 'd'));
    // dd4 Sc4 Se1 sh8: custodial flanking does not capture the Dux.
    let mut p = pos("bell", "7s/8/8/8/2Sd4/8/8/4S3 w");
    play(&mut p, "e1-e4");
    assert!(is(&p, "d4", 'd'));
}

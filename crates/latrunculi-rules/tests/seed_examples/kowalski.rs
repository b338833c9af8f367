//! Worked examples of the seed documents: kowalski.

use crate::helpers::*;

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

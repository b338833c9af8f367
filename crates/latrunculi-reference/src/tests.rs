//! Hand-made situations for the reference engine, and random games on every ruleset.

use std::collections::BTreeSet;

use latrunculi_rules::ruleset::{Layout, Placement, SetupSpec};
use latrunculi_rules::{Color, Move, MoveKind, Outcome, PieceKind, Reason, Ruleset, Square};

use crate::RefGame;

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|e| panic!("{e}"))
}

fn mv(from: &str, to: &str) -> Move {
    Move::movement(sq(from), sq(to))
}

fn squares(names: &[&str]) -> Vec<Square> {
    let mut v: Vec<Square> = names.iter().map(|n| sq(n)).collect();
    v.sort();
    v
}

/// The built-in ruleset `id` with an explicit position (`D` prefix marks a Dux).
fn position(id: &str, white: &[&str], black: &[&str]) -> Ruleset {
    with_squares(Ruleset::builtin(id).unwrap(), white, black)
}

/// `rs` with its setup replaced by an explicit position (`D` prefix marks a Dux).
fn with_squares(mut rs: Ruleset, white: &[&str], black: &[&str]) -> Ruleset {
    rs.setup = SetupSpec {
        layout: Layout::Squares,
        white: white.iter().map(|s| s.to_string()).collect(),
        black: black.iter().map(|s| s.to_string()).collect(),
        ..SetupSpec::default()
    };
    rs.validate().unwrap();
    rs
}

fn is_legal(g: &RefGame, m: Move) -> bool {
    g.legal_moves().contains(&m)
}

fn color_at(g: &RefGame, name: &str) -> Option<Color> {
    g.piece_at(sq(name)).map(|p| p.color)
}

// ---------------------------------------------------------------------------------
// Custodial and corner capture (Kowalski)
// ---------------------------------------------------------------------------------

#[test]
fn double_custodial_strike() {
    // Seed 000: E5 between D5/F5 with anvils C5/G5.
    let rs = position("kowalski", &["e1", "c5", "g5", "Dk2"], &["d5", "f5", "h8", "Dk7"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("e1", "e5")), squares(&["d5", "f5"]));
    assert_eq!(g.piece_at(sq("d5")), None);
    assert_eq!(g.piece_at(sq("f5")), None);
    assert_eq!(color_at(&g, "e5"), Some(Color::White));
    assert_eq!(g.outcome(), None);
    assert_eq!(g.side_to_move(), Color::Black);
}

#[test]
fn moving_between_two_enemies_is_safe() {
    let rs = position("kowalski", &["e1", "Dk2"], &["d5", "f5", "h8", "Dk7"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("e1", "e5")), vec![]);
    assert_eq!(color_at(&g, "e5"), Some(Color::White));
    // Black may not capture it by doing nothing: only the moved piece is a hammer.
    assert_eq!(g.play(mv("h8", "h7")), vec![]);
    assert_eq!(color_at(&g, "e5"), Some(Color::White));
}

#[test]
fn dux_with_anvil_is_still_not_captured() {
    let rs = position("kowalski", &["c1", "f8", "Dk2"], &["e6", "a5", "De8"]);
    let mut g = RefGame::new(&rs);
    // d8 hammer, e8 black Dux, f8 white anvil: the Dux is never captured.
    assert_eq!(g.play(mv("c1", "c8")), vec![]);
    g.play(mv("a5", "a4"));
    assert_eq!(g.play(mv("c8", "d8")), vec![]);
    assert!(g.piece_at(sq("e8")).is_some());
}

#[test]
fn active_corner_capture() {
    let rs = position("kowalski", &["a1", "b8", "Dk2"], &["a8", "h7", "Dk7"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("a1", "a7")), squares(&["a8"]));
    assert_eq!(g.piece_at(sq("a8")), None);
}

#[test]
fn passive_corner_capture_happens_wherever_the_mover_lands() {
    let rs = position("kowalski-parcae", &["a7", "b8", "l1", "Df1"], &["a8", "h5", "Df8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("l1", "l2")), squares(&["a8"]));
}

#[test]
fn self_immobilisation_is_judged_after_captures_are_removed() {
    // The white Dux on a1 is already boxed in (b1 white, a2 black). c3-a3 captures a2
    // against the Dux and so frees it; an unrelated move leaves it immobilised.
    let rs = position("kowalski", &["b1", "c3", "h5", "Da1"], &["a2", "h8", "Dk7"]);
    let mut g = RefGame::new(&rs);
    assert!(!is_legal(&g, mv("h5", "h6")));
    assert!(is_legal(&g, mv("b1", "c1")));
    assert_eq!(g.play(mv("c3", "a3")), squares(&["a2"]));
}

#[test]
fn self_immobilisation_is_illegal_in_kowalski() {
    // The white Dux on a1 has one open side (a2); a soldier may not close it.
    let rs = position("kowalski", &["b1", "c2", "Da1"], &["h8", "g7", "Dk7"]);
    let g = RefGame::new(&rs);
    assert!(!is_legal(&g, mv("c2", "a2")));
    assert!(is_legal(&g, mv("c2", "b2")));
}

// ---------------------------------------------------------------------------------
// Latrunculi XXI
// ---------------------------------------------------------------------------------

#[test]
fn xxi_push_and_crush_against_the_wall() {
    // g4-h4xj4 on 10 × 8.
    let rs = position("xxi", &["g4", "i4", "Da1"], &["j4", "a8", "Dh8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("g4", "h4")), squares(&["j4"]));
}

#[test]
fn xxi_push_and_crush_against_a_friend() {
    // d5-f5xh5.
    let rs = position("xxi", &["d5", "g5", "i5", "Da1"], &["h5", "a8", "Dh8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("d5", "f5")), squares(&["h5"]));
}

#[test]
fn xxi_flank_attack() {
    // h4-g4xf4: f4, e4 black, d4 white.
    let rs = position("xxi", &["h4", "d4", "Da1"], &["f4", "e4", "a8", "Dh8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("h4", "g4")), squares(&["f4"]));
    assert_eq!(color_at(&g, "e4"), Some(Color::Black));
}

#[test]
fn xxi_flank_from_the_side_is_not_a_flank() {
    // g5-g4 lands next to f4 but travels south: no flank, no capture.
    let rs = position("xxi", &["g5", "d4", "Da1"], &["f4", "e4", "a8", "Dh8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("g5", "g4")), vec![]);
}

#[test]
fn xxi_phalanx() {
    // a1-e1xg1: f1 white, testudo e2 f2 above, g1 black (h1 black behind it).
    let rs = position("xxi", &["a1", "f1", "e2", "f2", "Dj3"], &["g1", "h1", "a8", "Dh8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("a1", "e1")), squares(&["g1"]));
    assert_eq!(color_at(&g, "h1"), Some(Color::Black));
}

#[test]
fn xxi_locked_soldier_may_only_make_offensive_plies() {
    let rs = position("xxi", &["e4", "a1", "Dj1"], &["e5", "a8", "Dh8"]);
    let g = RefGame::new(&rs);
    let from_e4: Vec<Move> = g.legal_moves().into_iter().filter(|m| m.from == sq("e4")).collect();
    assert_eq!(from_e4, vec![]);
    // With a second attacker on e5 (d5), e4 is no longer the sole attacker.
    let rs = position("xxi", &["e4", "d5", "a1", "Dj1"], &["e5", "a8", "Dh8"]);
    let g = RefGame::new(&rs);
    assert!(is_legal(&g, mv("e4", "e3")));
}

#[test]
fn xxi_dux_limits() {
    // The white Dux on e4 is the sole attacker of e5: a non-offensive ply goes one
    // square only.
    let rs = position("xxi", &["a1", "De4"], &["e5", "a8", "Dh8"]);
    let g = RefGame::new(&rs);
    assert!(is_legal(&g, mv("e4", "e3")));
    assert!(!is_legal(&g, mv("e4", "e2")));
    // One side open and an enemy adjacent: the Dux cannot move at all.
    let rs = position("xxi", &["a1", "d4", "e3", "De4"], &["e5", "a8", "Dh8"]);
    let g = RefGame::new(&rs);
    assert!(g.legal_moves().iter().all(|m| m.from != sq("e4")));
}

#[test]
fn xxi_immobilising_the_enemy_dux_wins() {
    // Black Dux on a8 with a black soldier on b8; white closes a7.
    let rs = position("xxi", &["a1", "Dj1"], &["b8", "Da8", "h8"]);
    let mut g = RefGame::new(&rs);
    g.play(mv("a1", "a7"));
    assert_eq!(g.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Immobilized }));
    assert!(g.legal_moves().is_empty());
}

// ---------------------------------------------------------------------------------
// Repetition
// ---------------------------------------------------------------------------------

fn shuffle(g: &mut RefGame, plies: &[(&str, &str)]) {
    for &(f, t) in plies {
        assert_eq!(g.outcome(), None, "before {f}-{t}");
        g.play(mv(f, t));
    }
}

const SHUFFLE: [(&str, &str); 4] = [("a1", "a2"), ("a8", "a7"), ("a2", "a1"), ("a7", "a8")];

#[test]
fn classical_threefold_repetition_draws() {
    let mut g = RefGame::new(&Ruleset::builtin("classical").unwrap());
    shuffle(&mut g, &SHUFFLE);
    assert_eq!(g.outcome(), None); // second occurrence
    shuffle(&mut g, &SHUFFLE);
    assert_eq!(g.outcome(), Some(Outcome { winner: None, reason: Reason::Repetition }));
    assert_eq!(g.plies(), 8);
}

#[test]
fn xxi_threefold_repetition_loses_for_the_mover() {
    let mut g = RefGame::new(&Ruleset::builtin("xxi").unwrap());
    shuffle(&mut g, &SHUFFLE);
    shuffle(&mut g, &SHUFFLE);
    assert_eq!(g.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Repetition }));
}

#[test]
fn common_third_occurrence_is_illegal() {
    let mut g = RefGame::new(&Ruleset::builtin("common").unwrap());
    shuffle(&mut g, &SHUFFLE);
    shuffle(&mut g, &SHUFFLE[..3]);
    assert!(!is_legal(&g, mv("a7", "a8")));
    assert!(is_legal(&g, mv("a7", "a6")));
}

// ---------------------------------------------------------------------------------
// Common: line capture
// ---------------------------------------------------------------------------------

#[test]
fn line_capture_takes_the_whole_run() {
    let rs = position("common", &["b1", "f5", "Dl1"], &["c5", "d5", "e5", "h8", "Dl8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("b1", "b5")), squares(&["c5", "d5", "e5"]));
}

#[test]
fn line_capture_is_stopped_by_a_king() {
    let rs = position("common", &["b1", "f5", "Dl1"], &["c5", "Dd5", "e5", "h8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("b1", "b5")), vec![]);
}

// ---------------------------------------------------------------------------------
// Savard: enclosure of the Dux
// ---------------------------------------------------------------------------------

#[test]
fn savard_dux_captured_by_enclosure() {
    let rs = position("savard", &["a7", "b7", "h1", "Dd1"], &["Da8", "h8", "g8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("b7", "b8")), squares(&["a8"]));
    assert_eq!(g.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::DuxCaptured }));
}

#[test]
fn savard_men_do_not_step_backward_but_hop_chains() {
    let rs = position("savard", &["d4", "h1", "Da1"], &["d5", "d7", "h8", "Dh6"]);
    let g = RefGame::new(&rs);
    assert!(!is_legal(&g, mv("d4", "d3")));
    assert!(is_legal(&g, mv("d4", "c4")));
    // Hop over d5 to d6, then over d7 to d8: both ends are moves.
    assert!(is_legal(&g, mv("d4", "d6")));
    assert!(is_legal(&g, mv("d4", "d8")));
}

// ---------------------------------------------------------------------------------
// Schädler: trap, rule 7, removal and release
// ---------------------------------------------------------------------------------

#[test]
fn schadler_trap_removal_and_release() {
    let rs = position("schadler", &["c4", "e5", "h1", "g1"], &["d4", "c3", "c6", "h8", "g8"]);
    let mut g = RefGame::new(&rs);
    // e5-e4 traps d4 between e4 and c4.
    assert_eq!(g.play(mv("e5", "e4")), squares(&["d4"]));
    let d4 = g.piece_at(sq("d4")).unwrap();
    assert!(d4.trapped && d4.color == Color::Black);
    // A trapped counter cannot move.
    assert!(g.legal_moves().iter().all(|m| m.from != sq("d4")));
    // Black traps c4, one of d4's holders: d4 is freed.
    assert_eq!(g.play(mv("c6", "c5")), squares(&["c4"]));
    assert!(g.piece_at(sq("c4")).unwrap().trapped);
    assert!(!g.piece_at(sq("d4")).unwrap().trapped);
    // White cannot remove its own counter; Black can, next turn.
    assert!(g.legal_moves().iter().all(|m| m.kind != MoveKind::Remove));
    g.play(mv("h1", "h2"));
    assert!(is_legal(&g, Move::remove(sq("c4"))));
    assert_eq!(g.play(Move::remove(sq("c4"))), squares(&["c4"]));
    assert_eq!(g.piece_at(sq("c4")), None);
}

#[test]
fn schadler_release_when_a_holder_moves_away() {
    let rs = position("schadler", &["c4", "e5", "h1", "g1"], &["d4", "h8", "g8"]);
    let mut g = RefGame::new(&rs);
    g.play(mv("e5", "e4"));
    assert!(g.piece_at(sq("d4")).unwrap().trapped);
    g.play(mv("h8", "h7"));
    assert_eq!(g.play(mv("c4", "c3")), vec![]);
    assert!(!g.piece_at(sq("d4")).unwrap().trapped);
}

#[test]
fn schadler_corner_trap() {
    let rs = position("schadler", &["b8", "a6", "h1", "g1"], &["a8", "h5", "g5"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("a6", "a7")), squares(&["a8"]));
    assert!(g.piece_at(sq("a8")).unwrap().trapped);
}

#[test]
fn schadler_rule7_no_entering_between_enemies() {
    let rs = position("schadler", &["b6", "h1", "g1"], &["a5", "c5", "h8", "g8"]);
    let g = RefGame::new(&rs);
    assert!(!is_legal(&g, mv("b6", "b5")));
    assert!(is_legal(&g, mv("b6", "b7")));
}

// ---------------------------------------------------------------------------------
// Placement schedules
// ---------------------------------------------------------------------------------

/// Plays the whole placement phase (first legal placement each time) and returns who
/// placed what: `W`/`B` for soldiers, `X`/`Y` for White's / Black's Dux.
fn placement_sequence(rs: &Ruleset) -> (String, RefGame) {
    let mut g = RefGame::new(rs);
    let mut seq = String::new();
    while let Some(m) = g.legal_moves().first().copied() {
        let MoveKind::Place(kind) = m.kind else { break };
        let c = match (g.side_to_move(), kind) {
            (Color::White, PieceKind::Soldier) => 'W',
            (Color::Black, PieceKind::Soldier) => 'B',
            (Color::White, PieceKind::Dux) => 'X',
            (Color::Black, PieceKind::Dux) => 'Y',
        };
        seq.push(c);
        assert_eq!(g.play(m), vec![]);
    }
    (seq, g)
}

#[test]
fn placement_one_each() {
    let (seq, g) = placement_sequence(&Ruleset::builtin("schadler").unwrap());
    assert_eq!(seq, "WB".repeat(16));
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(g.in_hand(Color::White), (0, 0));
    assert_eq!(g.plies(), 32);
}

#[test]
fn placement_two_each_then_duxes() {
    let (seq, g) = placement_sequence(&Ruleset::builtin("bell").unwrap());
    assert_eq!(seq, "WWBB".repeat(8) + "XY");
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(g.in_hand(Color::Black), (0, 0));
}

#[test]
fn placement_one_two_one() {
    let mut rs = Ruleset::builtin("bell").unwrap();
    rs.setup.placement = Placement::OneTwoOne;
    let (seq, g) = placement_sequence(&rs);
    assert_eq!(seq, "W".to_string() + &"BBWW".repeat(7) + "BB" + "W" + "XY");
    assert_eq!(g.side_to_move(), Color::White);

    // Without Duxes the last placement is White's: Black moves first.
    rs.setup.dux_in_hand = false;
    let (seq, g) = placement_sequence(&rs);
    assert!(seq.ends_with("BBW"));
    assert_eq!(g.side_to_move(), Color::Black);
}

#[test]
fn placement_sides_during_the_phase() {
    let g = RefGame::new(&Ruleset::builtin("bell").unwrap());
    assert_eq!(g.in_hand(Color::White), (16, 1));
    assert_eq!(g.side_to_move(), Color::White);
    assert!(g.legal_moves().iter().all(|m| m.kind == MoveKind::Place(PieceKind::Soldier)));
    assert_eq!(g.legal_moves().len(), 64);
}

// ---------------------------------------------------------------------------------
// Random games
// ---------------------------------------------------------------------------------

fn random_game(rs: &Ruleset, seed: u64) -> RefGame {
    let mut rng = latrunculi_rules::FastRng::new(seed);
    let mut g = RefGame::new(rs);
    while g.outcome().is_none() {
        let moves = g.legal_moves();
        let unique: BTreeSet<Move> = moves.iter().copied().collect();
        assert_eq!(unique.len(), moves.len(), "{}: duplicate moves", rs.id);
        assert!(!moves.is_empty(), "{}: no moves and no outcome at ply {}", rs.id, g.plies());
        let before = g.plies();
        g.play(moves[rng.below(moves.len())]);
        assert_eq!(g.plies(), before + 1);
        assert!(g.plies() <= 1000);
    }
    assert!(g.legal_moves().is_empty());
    g
}

#[test]
fn random_games_on_every_builtin_ruleset_end() {
    for rs in Ruleset::all_builtin() {
        for seed in 1..=2 {
            let g = random_game(&rs, seed);
            let o = g.outcome().unwrap();
            eprintln!("{} seed {seed}: {o} after {} plies", rs.id, g.plies());
        }
    }
}

#[test]
fn random_games_on_other_boards_end() {
    for (id, w, h) in
        [("xxi", 12, 8), ("xxi", 8, 8), ("petteia-xxi", 10, 8), ("single-stone-xxi", 8, 8), ("kowalski", 16, 16)]
    {
        let rs = Ruleset::builtin(id).unwrap().with_board(w, h).unwrap();
        random_game(&rs, 7).outcome().unwrap();
    }
}

/// Kowalski on a `w`×`h` board with an explicit position (`D` prefix marks a Dux).
fn wide_position(w: u8, h: u8, white: &[&str], black: &[&str]) -> Ruleset {
    let mut rs = Ruleset::builtin("kowalski").unwrap();
    rs.width = w;
    rs.height = h;
    with_squares(rs, white, black)
}

fn targets_from(g: &RefGame, from: &str) -> Vec<String> {
    let mut v: Vec<String> =
        g.legal_moves().into_iter().filter(|m| m.from == sq(from)).map(|m| m.to.to_string()).collect();
    v.sort();
    v
}

#[test]
fn sixteen_wide_slides_reach_the_edge() {
    let g = RefGame::new(&wide_position(16, 16, &["a1", "Dh8"], &["c3", "Dk12"]));
    let mut want: Vec<String> = (2..=16).map(|r| format!("a{r}")).collect();
    want.extend((b'b'..=b'p').map(|f| format!("{}1", f as char)));
    want.sort();
    assert_eq!(targets_from(&g, "a1"), want);
    // 16 files by 11 ranks: file p ends at p11.
    let g = RefGame::new(&wide_position(16, 11, &["p1", "Dh5"], &["c3", "Dk9"]));
    let t = targets_from(&g, "p1");
    assert_eq!(t.len(), 25, "{t:?}");
    assert!(t.contains(&"p11".to_string()) && t.contains(&"a1".to_string()));
}

#[test]
fn sixteen_wide_custodial_and_corner_captures_at_the_far_edges() {
    // File p: a16-p16 (the whole top rank) takes p15 against p14.
    let mut g = RefGame::new(&wide_position(16, 16, &["a16", "p14", "Dh8"], &["p15", "c3", "Dk12"]));
    assert_eq!(g.play(mv("a16", "p16")), squares(&["p15"]));
    // Rank 16: i1-i16 (the whole i-file) takes h16 against g16, not j16 (no anvil on k16).
    let mut g = RefGame::new(&wide_position(16, 16, &["i1", "g16", "Dh8"], &["h16", "j16", "p16", "c3", "Dk12"]));
    assert_eq!(g.play(mv("i1", "i16")), squares(&["h16"]));
    // The p16 corner: p1-p15 takes p16 against o16.
    let mut g = RefGame::new(&wide_position(16, 16, &["p1", "o16", "Dh8"], &["p16", "c3", "Dk12"]));
    assert_eq!(g.play(mv("p1", "p15")), squares(&["p16"]));
    assert_eq!(g.piece_at(sq("p16")), None);
}

#[test]
fn boards_over_sixteen_are_refused() {
    let mut rs = Ruleset::builtin("kowalski").unwrap();
    rs.width = 17;
    let e = rs.validate().unwrap_err();
    assert!(e.contains("17x8") && e.contains("3 to 16"), "{e}");
}

#[test]
fn ply_cap_ends_the_game() {
    let mut g = RefGame::new(&Ruleset::builtin("back-rank").unwrap());
    g.set_ply_cap(3);
    shuffle(&mut g, &SHUFFLE[..3]);
    assert_eq!(g.outcome(), Some(Outcome { winner: None, reason: Reason::PlyCap }));
}

// ---------------------------------------------------------------------------------
// Falkener and Bell
// ---------------------------------------------------------------------------------

#[test]
fn falkener_diagonal_custodial_and_single_hop() {
    let rs = position("falkener", &["b2", "e5", "a12"], &["d4", "l12", "k11", "f6"]);
    let mut g = RefGame::new(&rs);
    // e5 may hop over the adjacent enemy f6 to g7, but not chain further.
    assert!(is_legal(&g, mv("e5", "g7")));
    assert!(!is_legal(&g, mv("e5", "e7")));
    assert_eq!(g.play(mv("b2", "c3")), squares(&["d4"]));
}

#[test]
fn bell_dux_captured_on_four_sides_without_winning() {
    let rs = position("bell", &["c4", "e4", "d3", "d8", "Da1"], &["Dd4", "h8", "h7"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("d8", "d5")), squares(&["d4"]));
    assert_eq!(g.piece_at(sq("d4")), None);
    assert_eq!(g.outcome(), None);
}

#[test]
fn bell_dux_on_an_edge_is_never_captured() {
    let rs = position("bell", &["a3", "b4", "h5", "Dh1"], &["Da4", "h8", "g8"]);
    let mut g = RefGame::new(&rs);
    assert_eq!(g.play(mv("h5", "a5")), vec![]);
    assert!(g.piece_at(sq("a4")).is_some());
}

// ---------------------------------------------------------------------------------
// Ludii's mechanics: a capture that grants a further ply (Bell), the Dux captured like
// a man, remove-then-move (Seneca). Each situation is played on both engines.
// ---------------------------------------------------------------------------------

/// Plays `plies` on the reference and the fast engine, checking after each that the
/// side to move, the legal moves and the outcome agree; returns both.
fn both(rs: &Ruleset, plies: &[Move]) -> (RefGame, latrunculi_rules::Position) {
    let mut g = RefGame::new(rs);
    let mut p = latrunculi_rules::Position::new(rs);
    for &m in plies {
        let mut fast: Vec<Move> = p.legal_move_list();
        fast.sort();
        let mut slow = g.legal_moves();
        slow.sort();
        assert_eq!(fast, slow, "legal moves before {m:?}");
        g.play(m);
        p.play(m);
        assert_eq!(p.side_to_move(), g.side_to_move(), "side to move after {m:?}");
        assert_eq!(p.outcome(), g.outcome(), "outcome after {m:?}");
    }
    (g, p)
}

#[test]
fn bell_ludii_a_capture_grants_the_capturer_another_ply() {
    let rs = position("ludii-bell-8x8", &["b3", "d4", "d5", "h1"], &["c4", "c5", "h8", "g8"]);
    // b3-b4 takes c4 (anvil d4): White moves again, with the b4 piece only.
    let (g, p) = both(&rs, &[mv("b3", "b4")]);
    assert_eq!(g.piece_at(sq("c4")), None);
    assert_eq!(g.side_to_move(), Color::White);
    assert_eq!(p.pending(), Some(sq("b4")));
    assert!(g.legal_moves().iter().all(|m| m.from == sq("b4")), "{:?}", g.legal_moves());
    assert!(!is_legal(&g, mv("h1", "h2")));
    // b4-b5 takes c5 (anvil d5): a second capture, and so a third ply.
    let (g, p) = both(&rs, &[mv("b3", "b4"), mv("b4", "b5")]);
    assert_eq!(g.piece_at(sq("c5")), None);
    assert_eq!((g.side_to_move(), p.pending()), (Color::White, Some(sq("b5"))));
    // A ply that takes nothing ends the turn.
    let (g, p) = both(&rs, &[mv("b3", "b4"), mv("b4", "b5"), mv("b5", "b6")]);
    assert_eq!((g.side_to_move(), p.pending()), (Color::Black, None));
    // The continuing turn is written in the FEN and read back.
    let (_, p) = both(&rs, &[mv("b3", "b4")]);
    let fen = p.to_setup().to_fen();
    assert!(fen.contains(" w:b4"), "{fen}");
    let back = latrunculi_rules::Position::from_setup(&rs, &latrunculi_rules::Setup::from_fen(&fen).unwrap()).unwrap();
    assert_eq!(back.legal_move_list(), p.legal_move_list());
    assert_eq!(back.hash(), p.hash());
}

#[test]
fn a_continuing_turn_is_refused_where_the_rules_grant_none() {
    let rs = position("kowalski", &["b3", "Da1"], &["h8", "Dg8"]);
    let mut s = latrunculi_rules::Position::new(&rs).to_setup();
    s.pending = Some(sq("b3"));
    let err = latrunculi_rules::Position::from_setup(&rs, &s).unwrap_err();
    assert!(err.to_string().contains("grants no further ply"), "{err}");
    let bell = position("ludii-bell-8x8", &["b3"], &["h8"]);
    let mut s = latrunculi_rules::Position::new(&bell).to_setup();
    s.pending = Some(sq("h8"));
    assert!(latrunculi_rules::Position::from_setup(&bell, &s).is_err(), "a piece of the side not to move");
}

#[test]
fn bell_ludii_dux_is_captured_like_a_man_and_no_pieces_loses() {
    // The black Dux on c4 between b4 and d4; it is Black's last piece.
    let rs = position("ludii-bell-8x8", &["b3", "d4", "h1"], &["Dc4"]);
    let (g, p) = both(&rs, &[mv("b3", "b4")]);
    assert_eq!(g.piece_at(sq("c4")), None);
    assert_eq!(g.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Bare }));
    assert_eq!(p.outcome(), g.outcome());
    // With a man left the game goes on (the Dux counts, the men too).
    let rs = position("ludii-bell-8x8", &["b3", "d4", "h1"], &["Dc4", "h8"]);
    let (g, _) = both(&rs, &[mv("b3", "b4")]);
    assert_eq!(g.outcome(), None);
    // A Dux alone still keeps its side in the game.
    let rs = position("ludii-bell-8x8", &["b3", "d4", "h1"], &["c4", "Dh8"]);
    let (g, _) = both(&rs, &[mv("b3", "b4")]);
    assert_eq!(g.outcome(), None);
}

#[test]
fn seneca_removes_then_moves_in_the_same_turn() {
    let rs = position("ludii-seneca", &["c4", "e5", "h1", "g1"], &["d4", "a8", "h8", "g8"]);
    // e5-e4 traps d4; Black moves; White removes d4 and then, in the same turn, moves.
    let first = [mv("e5", "e4"), mv("a8", "a7")];
    let (g, _) = both(&rs, &first);
    assert!(g.piece_at(sq("d4")).unwrap().trapped);
    assert!(is_legal(&g, Move::remove(sq("d4"))));
    let mut plies = first.to_vec();
    plies.push(Move::remove(sq("d4")));
    let (g, p) = both(&rs, &plies);
    assert_eq!(g.piece_at(sq("d4")), None);
    assert_eq!((g.side_to_move(), p.side_to_move()), (Color::White, Color::White));
    assert!(g.legal_moves().iter().all(|m| m.kind == MoveKind::Move));
    plies.push(mv("h1", "h2"));
    let (g, _) = both(&rs, &plies);
    assert_eq!(g.side_to_move(), Color::Black);
    // Schädler's removal is the whole turn.
    let rs = position("ludii-schadler-1994", &["c4", "e5", "h1", "g1"], &["d4", "a8", "h8", "g8"]);
    let (g, _) = both(&rs, &[mv("e5", "e4"), mv("a8", "a7"), Move::remove(sq("d4"))]);
    assert_eq!(g.side_to_move(), Color::Black);
}

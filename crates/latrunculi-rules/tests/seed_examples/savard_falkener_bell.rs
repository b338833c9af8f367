//! Worked examples of the seed documents: savard, falkener, bell.

use crate::helpers::*;

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

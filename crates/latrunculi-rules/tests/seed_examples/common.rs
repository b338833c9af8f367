//! Worked examples of the seed documents: common.

use crate::helpers::*;

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

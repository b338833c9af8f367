//! Worked examples of the seed documents: xxi.

use crate::helpers::*;

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

//! Worked examples of the seed documents: schadler.

use crate::helpers::*;

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

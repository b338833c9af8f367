use super::*;

fn sq(s: &str) -> Square {
    s.parse().expect("test square")
}

fn xxi() -> Ruleset {
    Ruleset::builtin("xxi").expect("xxi")
}

fn at(rs: &Ruleset, fen: &str) -> Position {
    Position::from_setup(rs, &Setup::from_fen(fen).expect("test FEN")).expect("test position")
}

/// Flips the case of the square letters and the `D` of a token.
fn shout(t: &str) -> String {
    t.to_ascii_uppercase()
}

#[test]
fn print_parse_round_trip_on_random_games_of_every_ruleset() {
    for rs in Ruleset::all_builtin() {
        let mut rng = crate::FastRng::new(rs.params_hash());
        let mut kinds = [0usize; 3];
        let (mut suffixes, mut captures, mut traps) = (0, 0, 0);
        for _game in 0..3 {
            let mut pos = Position::new(&rs);
            // 90 plies of play after any placement phase.
            let (hs, hd) = rs.in_hand();
            for _ply in 0..90 + 2 * (hs as usize + hd as usize) {
                let moves = pos.legal_move_list();
                if moves.is_empty() {
                    break;
                }
                for k in 0..moves.len().min(6) {
                    let mv = if k == 0 { moves[moves.len() - 1] } else { moves[rng.below(moves.len())] };
                    let text = move_text(&pos, mv).expect("legal move has a text");
                    let s = text.to_string();
                    kinds[match mv.kind {
                        MoveKind::Move => 0,
                        MoveKind::Place(_) => 1,
                        MoveKind::Remove => 2,
                    }] += 1;
                    suffixes += text.suffix.is_some() as usize;
                    captures += text.captures.len();
                    traps += text.traps.len();
                    assert_eq!(pos.move_to_string(mv).as_deref(), Some(s.as_str()));
                    for variant in [s.clone(), shout(&s), format!("{s}!?")] {
                        let parsed = parse_move(&rs, &pos, &variant)
                            .unwrap_or_else(|e| panic!("{}: '{variant}' does not parse back: {e}", rs.id));
                        assert_eq!(parsed.mv, mv, "{}: {variant}", rs.id);
                        assert!(parsed.warnings.is_empty(), "{}: {variant}: {:?}", rs.id, parsed.warnings);
                        assert_eq!(parsed.text, text);
                    }
                    // Captures in any order on input.
                    if text.captures.len() > 1 {
                        let mut t2 = text.clone();
                        t2.captures.reverse();
                        assert_eq!(parse_move(&rs, &pos, &t2.to_string()).expect("reversed").warnings, vec![]);
                    }
                    // Without the suffix, nothing to check: no warning either.
                    assert!(parse_move(&rs, &pos, &text.body()).expect("body").warnings.is_empty());
                }
                pos.play(moves[rng.below(moves.len())]);
                if pos.is_over() {
                    break;
                }
            }
        }
        assert!(kinds.iter().sum::<usize>() > 0, "{}: no move tested", rs.id);
        if rs.in_hand().0 > 0 {
            assert!(kinds[1] > 0, "{}: no placement tested", rs.id);
        }
        if rs.capture.removal_move {
            assert!(kinds[2] > 0 && traps > 0, "{}: no removal or trap tested", rs.id);
        }
        if rs.has_dux() && rs.end.dux_immobilized != Immobilization::Off {
            assert!(suffixes > 0, "{}: no suffix tested", rs.id);
        }
        if !rs.capture.removal_move {
            assert!(captures > 0, "{}: no capture tested", rs.id);
        }
    }
}

#[test]
fn printing_uses_board_order_d_prefix_and_traps() {
    let t = MoveText {
        mv: Move::movement(sq("h3"), sq("g3")),
        dux: false,
        captures: vec![sq("f3"), sq("g4")],
        traps: vec![],
        suffix: None,
    };
    assert_eq!(t.to_string(), "h3-g3xf3xg4");
    let t = MoveText {
        mv: Move::movement(sq("e6"), sq("i6")),
        dux: true,
        captures: vec![sq("i7")],
        traps: vec![sq("a1")],
        suffix: Some(Suffix::QuasiCheck),
    };
    assert_eq!(t.to_string(), "De6-i6xi7^a1(+)");
    let p = MoveText {
        mv: Move::place(PieceKind::Dux, sq("e4")),
        dux: true,
        captures: vec![],
        traps: vec![],
        suffix: None,
    };
    assert_eq!(p.to_string(), "D@e4");
    let r = MoveText { mv: Move::remove(sq("e4")), dux: false, captures: vec![], traps: vec![], suffix: None };
    assert_eq!(r.to_string(), "xe4");
}

#[test]
fn token_syntax() {
    let w = parse_token("De6-I6xi7X h7#!?".replace(' ', "").as_str()).expect("parses");
    assert!(w.dux);
    assert_eq!(w.kind, WrittenKind::Move { from: sq("e6"), to: sq("i6") });
    assert_eq!(w.captures, vec![sq("i7"), sq("h7")]);
    assert_eq!(w.suffix, Some(Suffix::Mate));
    assert_eq!(w.quality.as_deref(), Some("!?"));
    assert!(!parse_token("d1-d5").expect("soldier").dux);
    assert_eq!(parse_token("g8-g5(+)!!").expect("qc").suffix, Some(Suffix::QuasiCheck));
    assert_eq!(parse_token("h5-h4+!").expect("check").suffix, Some(Suffix::Check));
    assert_eq!(parse_token("e1-e5*?").expect("hit").suffix, Some(Suffix::Hit));
    assert_eq!(parse_token("a1-a12").expect("12 ranks").kind, WrittenKind::Move { from: sq("a1"), to: sq("a12") });
    assert_eq!(parse_token("@e4").expect("place").kind, WrittenKind::Place { to: sq("e4") });
    assert!(parse_token("D@e4").expect("place dux").dux);
    assert_eq!(parse_token("xe4").expect("remove").kind, WrittenKind::Remove { at: sq("e4") });
    assert_eq!(parse_token("b2-b6^c6").expect("trap").traps, vec![sq("c6")]);
    for bad in [
        "",
        "e4",
        "e4-",
        "-e4",
        "e4e5",
        "e4-e4",
        "e4-e5x",
        "e4-e5xz9",
        "q1-q2",
        "a17-a16",
        "a0-a1",
        "e4-e5!!!",
        "e4-e5?!?",
        "e4-e5#x",
        "Dxe4",
        "xe4xe5",
        "e4-e5 junk",
        "e4–e5",
        "e4-e5+#",
        "@",
        "S@e4",
    ] {
        match parse_token(bad) {
            Err(MoveError::Malformed { .. }) => {}
            other => panic!("'{bad}' should be malformed, got {other:?}"),
        }
    }
}

#[test]
fn bad_tokens_in_a_position_say_why() {
    let rs = xxi();
    let pos = Position::new(&rs);
    let err = |t: &str| parse_move(&rs, &pos, t).expect_err(t);
    assert_eq!(err("e4-e5"), MoveError::NoPiece(sq("e4")));
    assert!(matches!(err("a8-a5"), MoveError::WrongSide { owner: Color::Black, to_move: Color::White, .. }));
    assert_eq!(err("f2-f5"), MoveError::MissingDux(sq("f2")));
    assert_eq!(err("Dd1-d5"), MoveError::ExtraDux(sq("d1")));
    assert!(matches!(err("l1-l2"), MoveError::OffBoard { width: 10, height: 8, .. }));
    assert!(err("d1-e2").to_string().contains("not on the same rank or file"), "{}", err("d1-e2"));
    assert!(err("d1-e1").to_string().contains("occupied"));
    assert!(matches!(err("@e4"), MoveError::BadPlacement { .. }));
    assert!(matches!(err("xe8"), MoveError::BadRemoval { .. }));
    // Path blocked: the white Dux on f2 cannot pass its own soldier.
    let p2 = at(&rs, "ssssssssss/4d5/10/10/10/5S4/5D4/SSSSS1SSSS w");
    let e = parse_move(&rs, &p2, "Df2-f5").expect_err("blocked");
    assert!(e.to_string().contains("path is blocked at f3"), "{e}");
}

#[test]
fn illegal_moves_name_the_rule() {
    let rs = xxi();
    // Rule 10: the white soldier on e5 is the sole attacker of the black one on e6.
    let p = at(&rs, "ssss1sssss/4d5/4s5/4S5/10/10/5D4/SSSS1SSSSS w");
    let e = parse_move(&rs, &p, "e5-a5").expect_err("locked");
    assert!(
        matches!(&e, MoveError::Illegal { breaches, .. } if breaches == &[RuleBreach::LockedSoldier { soldier: sq("e5"), enemy: sq("e6") }]),
        "{e}"
    );
    assert!(e.to_string().contains("rule 10"));
    // Rule 16: the white Dux on d4 is the sole attacker of e4 and may go one square only.
    let p = at(&rs, "ssssssssss/4d5/10/10/3Ds5/10/10/SSSSSSSSSS w");
    let e = parse_move(&rs, &p, "Dd4-d2").expect_err("rule 16");
    assert!(e.to_string().contains("rule 16"), "{e}");
    assert!(parse_move(&rs, &p, "Dd4-d3").is_ok());
    // Rule 17: sole attacker of two enemies: offensive moves only.
    let p = at(&rs, "ssssssssss/4d5/10/10/2sDs5/10/10/SSSSSSSSSS w");
    let e = parse_move(&rs, &p, "Dd4-d3").expect_err("rule 17");
    assert!(e.to_string().contains("rule 17"), "{e}");
    // Rule 18: one open side and an enemy next to it: no move at all.
    let p = at(&rs, "ssssssssss/4d5/10/10/2SDs5/3S6/10/SSSSSSSS2 w");
    let e = parse_move(&rs, &p, "Dd4-d5").expect_err("rule 18");
    assert!(e.to_string().contains("rule 18"), "{e}");
    // Self-immobilisation: the white Dux on a1 would be shut in by its own soldier.
    let p = at(&rs, "ssssssssss/4d5/10/10/10/10/S9/D1SSSSSSSS w");
    let e = parse_move(&rs, &p, "c1-b1").expect_err("self-immobilisation");
    assert!(matches!(&e, MoveError::Illegal { breaches, .. } if breaches == &[RuleBreach::SelfImmobilization]), "{e}");
    assert!(e.to_string().contains("self-immobilisation"));
}

#[test]
fn suffixes_of_the_fools_mate() {
    // Seed 001, diagram 53: 1.e1-e6* b8-b4 2.Df2-f7+ g8-g7(+)?? 3.d1-d7#
    let rs = xxi();
    let mut pos = Position::new(&rs);
    for t in ["e1-e6*", "b8-b4", "Df2-f7+", "g8-g7(+)??", "d1-d7#"] {
        let p = parse_move(&rs, &pos, t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(p.warnings.is_empty(), "{t}: {:?}", p.warnings);
        assert_eq!(p.written.suffix, p.text.suffix, "{t}");
        pos.play(p.mv);
    }
    assert_eq!(pos.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Immobilized }));
    // A wrong suffix or capture list is a warning, not an error.
    let pos = Position::new(&rs);
    let p = parse_move(&rs, &pos, "e1-e6xe7+").expect("legal");
    assert_eq!(
        p.warnings,
        vec![
            NotationWarning::Captures { written: vec![sq("e7")], engine: vec![] },
            NotationWarning::Suffix { written: Suffix::Check, engine: Some(Suffix::Hit) }
        ]
    );
}

use super::*;

/// Carrillo–Cetina before 9...Df5-f2 (12x8): the move breaks rule 16 only.
fn before_illegal_dux_move() -> (Ruleset, Position, Move) {
    let rs = Ruleset::builtin("xxi").unwrap().with_board(12, 8).unwrap();
    let setup = Setup::from_fen("2s2sssssss/12/1SS1s7/3s1dD5/3S8/12/12/S3S1SSSSSS b - 1 17").unwrap();
    let pos = Position::from_setup(&rs, &setup).unwrap();
    let mv = Move::movement("f5".parse().unwrap(), "f2".parse().unwrap());
    (rs, pos, mv)
}

/// A 5x5 game of stepping soldiers whose stuck side passes (`no_moves = "pass"`).
fn crowded_pass_rules() -> Ruleset {
    Ruleset::from_toml_str(
        "id = \"crowded\"\nname = \"t\"\nsource = \"test\"\nwidth = 5\nheight = 5\n\
         [setup]\nlayout = \"ranks\"\nsoldier_ranks = 2\n[movement]\nsoldier = \"step\"\n\
         [capture]\ncustodial = true\ncorner = \"none\"\n\
         [end]\ndux_immobilized = \"off\"\nself_immobilization = \"allowed\"\nno_moves = \"pass\"\n\
         repetition = \"illegal\"\nrepetition_count = 2\n",
        "crowded.toml",
    )
    .unwrap()
}

#[test]
fn a_side_without_a_legal_ply_passes_and_two_stuck_sides_draw() {
    let rs = crowded_pass_rules();
    // Black's a5 is shut in by b5 and a4; after White's e1-e2 Black cannot move.
    let mut pos = Position::from_setup(&rs, &Setup::from_fen("sS3/S4/5/5/4S w").unwrap()).unwrap();
    pos.play(Move::movement("e1".parse().unwrap(), "e2".parse().unwrap()));
    assert_eq!(pos.outcome(), None);
    assert_eq!(pos.side_to_move(), Color::White, "Black passed");
    assert_eq!((pos.ply(), pos.plies_since_capture()), (1, 1), "a pass is not a ply");
    assert!(pos.has_legal_move());
    // Under the other rules the same ply ends the game.
    let mut loses = rs.clone();
    loses.end.no_moves = NoMoves::Loses;
    let mut p = Position::from_setup(&loses, &Setup::from_fen("sS3/S4/5/5/4S w").unwrap()).unwrap();
    p.play(Move::movement("e1".parse().unwrap(), "e2".parse().unwrap()));
    assert_eq!(p.outcome(), Some(Outcome { winner: Some(Color::White), reason: Reason::Stalemate }));
    // A full board: neither side can move, a draw.
    let full = Ruleset::from_toml_str(
        &rs.to_toml()
            .replace("width = 5", "width = 3")
            .replace("height = 5", "height = 3")
            .replace("soldier_ranks = 2", "soldier_ranks = 1"),
        "full.toml",
    )
    .unwrap();
    let p = Position::from_setup(&full, &Setup::from_fen("sSs/SsS/sSs w").unwrap()).unwrap();
    assert_eq!(p.outcome(), Some(Outcome { winner: None, reason: Reason::Stalemate }));
    // A setup whose side to move is stuck starts with the other side to move.
    let p = Position::from_setup(&rs, &Setup::from_fen("sS3/S4/5/5/4S b").unwrap()).unwrap();
    assert_eq!((p.side_to_move(), p.outcome()), (Color::White, None));
}

#[test]
fn seega_placement_skips_the_centre_and_leaves_two_squares() {
    for id in ["ludii-seega-6x6", "ludii-kharebga-6x7", "ludii-seega-11x16", "ludii-kharebga-11x16"] {
        let rs = Ruleset::builtin(id).unwrap();
        let n = rs.width as usize * rs.height as usize;
        assert_eq!(2 * rs.in_hand().0 as usize, n - 2, "{id}: all squares but two are filled");
        let centre = Square::new(rs.width / 2, rs.height / 2).unwrap();
        let mut pos = Position::new(&rs);
        let mut rng = crate::FastRng::new(3);
        let mut placers = Vec::new();
        while pos.is_placement_phase() {
            let moves = pos.legal_move_list();
            assert!(moves.iter().all(|m| m.to != centre), "{id}: the centre is offered");
            placers.push(pos.side_to_move());
            pos.play(moves[rng.below(moves.len())]);
        }
        let empty: Vec<Square> = (0..rs.height)
            .flat_map(|r| (0..rs.width).map(move |f| Square::new(f, r).unwrap()))
            .filter(|&s| pos.piece_at(s).is_none())
            .collect();
        assert_eq!(empty.len(), 2, "{id}: all squares but two are filled");
        assert!(empty.contains(&centre), "{id}");
        // Two per turn (W W B B ...), and White moves first once all is placed.
        assert_eq!(&placers[..4], [Color::White, Color::White, Color::Black, Color::Black]);
        assert_eq!(pos.side_to_move(), Color::White, "{id}");
    }
}

#[test]
fn a_ply_that_traps_can_repeat_a_position() {
    // Found by the differential test on ludii-schadler-1994 (traps, no repeated state):
    // Black's d4 trapped d5 (with d6), left (releasing it) and may not come back to
    // trap it again, which recreates the position after f8-e8. The engine skipped the
    // repetition check for any ply with effects, traps included.
    let rs = Ruleset::builtin("ludii-schadler-1994").unwrap();
    let moves = "g6g6 a8a8 e4e4 b4b4 f2f2 d7d7 f3f3 e3e3 b3b3 a7a7 g7g7 b2b2 b8b8 h8h8 d5d5 d6d6 f7f7 h4h4 \
                 g1g1 b1b1 b7b7 c2c2 a3a3 c3c3 c8c8 h7h7 h5h5 f8f8 d3d3 a5a5 b5b5 a4a4 g6g5 e3e5 h5h3 e5e6 \
                 h3g3 b2f4 f3h1 f4f5 g5e5 a4a6 h1h2 h8h6 e5g5 a5c7 g5g6 c3c4 e4e3 c2c1 d3d2 a7e5 d2d1 b4d4 \
                 g3g4 f8e8 g7g5 d4e4 g5g7";
    let mut pos = Position::new(&rs);
    for t in moves.split_whitespace() {
        let (from, to): (Square, Square) = (t[..2].parse().unwrap(), t[2..].parse().unwrap());
        let mv = if from == to { Move::place(PieceKind::Soldier, to) } else { Move::movement(from, to) };
        assert!(pos.try_play(mv).is_some(), "{t} is legal");
    }
    let back = Move::movement("e4".parse().unwrap(), "d4".parse().unwrap());
    assert!(!pos.is_legal(back), "e4-d4 would repeat the position after f8-e8");
    assert!(pos.effects(back).trapped() == vec!["d5".parse::<Square>().unwrap()], "it would trap d5");
}

#[test]
fn hops_over_own_pieces_or_trapped_enemies_only() {
    // Schädler's rules (step, hop chains, trapping) with Seneca's hop restriction:
    // White's d4 may hop its own d5 and Black's trapped c4, not Black's free e4.
    let mut rs = Ruleset::builtin("schadler").unwrap();
    let hops = |rs: &Ruleset| {
        let setup = Setup::from_fen("8/8/8/2SS4/2tSs3/2S5/8/7s w").unwrap();
        let p = Position::from_setup(rs, &setup).unwrap();
        let from: Square = "d4".parse().unwrap();
        let mut to: Vec<String> = p
            .legal_move_list()
            .into_iter()
            .filter(|m| m.from == from && m.kind == MoveKind::Move)
            .filter(|m| m.from.file().abs_diff(m.to.file()) + m.from.rank().abs_diff(m.to.rank()) > 1)
            .map(|m| m.to.to_string())
            .collect();
        to.sort();
        to
    };
    assert_eq!(hops(&rs), ["b4", "d6", "f4"], "any piece");
    rs.movement.hop_over = HopOver::OwnOrTrapped;
    assert_eq!(hops(&rs), ["b4", "d6"], "own d5 and trapped c4, not free e4");
    rs.movement.hop_over = HopOver::Enemy;
    assert_eq!(hops(&rs), ["b4", "f4"], "enemies only");
}

#[test]
fn an_empty_corner_is_an_anvil_with_corner_anvil() {
    let rules = |anvil: bool| {
        Ruleset::from_toml_str(
            &format!(
                "id = \"t\"\nname = \"t\"\nsource = \"t\"\nwidth = 5\nheight = 5\n[setup]\nlayout = \"ranks\"\n\
                 soldier_ranks = 1\n[capture]\ncorner = \"none\"\ncorner_anvil = {anvil}\n[end]\n\
                 dux_immobilized = \"off\"\nself_immobilization = \"allowed\"\n"
            ),
            "t.toml",
        )
        .unwrap()
    };
    // d1-c1: b1 lies between c1 and the corner a1.
    let mv = Move::movement("d1".parse().unwrap(), "c1".parse().unwrap());
    let captured = |anvil: bool, fen: &str| {
        let mut p = Position::from_setup(&rules(anvil), &Setup::from_fen(fen).unwrap()).unwrap();
        p.play(mv).captured()
    };
    let b1: Vec<Square> = vec!["b1".parse().unwrap()];
    assert_eq!(captured(true, "s4/5/5/5/1s1S1 w"), b1, "the empty corner a1 is the anvil");
    assert!(captured(false, "s4/5/5/5/1s1S1 w").is_empty(), "without the parameter it is not");
    assert_eq!(captured(true, "s4/5/5/5/Ss1S1 w"), b1, "a white piece on a1 is an anvil anyway");
    assert!(captured(true, "s4/5/5/5/ss1S1 w").is_empty(), "a black piece on a1 is no anvil");
    // The default keeps the canonical TOML; trap effects are refused.
    assert!(!rules(false).to_toml().contains("corner_anvil"));
    let mut bad = rules(true);
    bad.capture.effect = CaptureEffect::Trap;
    assert!(bad.validate().unwrap_err().contains("corner_anvil"));
}

#[test]
fn a_level_material_count_goes_where_material_tie_says() {
    // Kowalski's no-capture limit decides by material; 12+D against 12+D is level.
    let mut rs = Ruleset::builtin("kowalski").unwrap();
    rs.end.no_capture_limit = 2;
    let mut outcomes = Vec::new();
    for tie in [MaterialTie::Draw, MaterialTie::White, MaterialTie::Black] {
        rs.end.material_tie = tie;
        let mut pos = Position::new(&rs);
        for mv in ["a1-a2", "a8-a7"] {
            let m = crate::notation::parse_move(&rs, &pos, mv).unwrap().mv;
            pos.play(m);
        }
        outcomes.push(pos.outcome().expect("the limit ends the game"));
    }
    assert_eq!(outcomes[0], Outcome { winner: None, reason: Reason::NoCaptureLimit });
    assert_eq!(outcomes[1], Outcome { winner: Some(Color::White), reason: Reason::Material });
    assert_eq!(outcomes[2], Outcome { winner: Some(Color::Black), reason: Reason::Material });
    // The default leaves the canonical TOML, and so params_hash, as it was.
    let plain = Ruleset::builtin("kowalski").unwrap();
    assert!(!plain.to_toml().contains("material_tie"));
    rs.end.no_capture_limit = plain.end.no_capture_limit;
    assert!(rs.to_toml().contains("material_tie = \"black\""));
    assert_ne!(rs.params_hash(), plain.params_hash());
    let back = Ruleset::from_toml_str(&rs.to_toml(), "tie.toml").unwrap();
    assert_eq!(back.end.material_tie, MaterialTie::Black);
}

/// The rulesets whose end rules decide games by a piece count.
const COUNTING_RULESETS: [&str; 7] =
    ["kowalski", "common", "back-rank", "ludii-bell-8x7", "ludii-bell-8x8", "ludii-piso", "ludii-seneca"];

#[test]
fn adjudication_off_is_a_parameter_that_leaves_the_builtin_rulesets_as_they_were() {
    for rs in Ruleset::all_builtin() {
        assert_eq!(rs.end.adjudication, Adjudication::Count, "{}", rs.id);
        assert!(!rs.to_toml().contains("adjudication"), "{}: the canonical TOML (params_hash) changed", rs.id);
        assert_eq!(rs.end.adjudicates(), COUNTING_RULESETS.contains(&rs.id.as_str()), "{}", rs.id);
    }
    let on = Ruleset::builtin("kowalski").unwrap();
    let off = on.with_param("end.adjudication", "draw").unwrap();
    assert_eq!(off.end.adjudication, Adjudication::Draw);
    assert!(off.to_toml().contains("adjudication = \"draw\""));
    assert_ne!(off.params_hash(), on.params_hash());
    assert_eq!(Ruleset::from_toml_str(&off.to_toml(), "off.toml").unwrap(), off);
    assert!(!off.end.adjudicates() && !off.end.counts_at_limit() && !off.end.counts_at_no_moves());
    assert!(on.end.counts_at_limit() && on.end.counts_at_no_moves());
    assert!(on.with_param("end.adjudication", "never").is_err());
}

/// A 4x5 board of stepping soldiers, 8 White against 7 Black, that capture nothing and
/// may not repeat a position: sides get stuck, and then the piece count decides
/// (`no_moves = "material"`), which random play on the built-in rulesets rarely reaches.
fn crowded_count_rules() -> Ruleset {
    Ruleset::from_toml_str(
        "id = \"crowded-count\"\nname = \"t\"\nsource = \"test\"\nwidth = 4\nheight = 5\n\
         [setup]\nlayout = \"squares\"\nwhite = [\"a1\", \"b1\", \"c1\", \"d1\", \"a2\", \"b2\", \"c2\", \"d2\"]\n\
         black = [\"a5\", \"b5\", \"c5\", \"d5\", \"a4\", \"b4\", \"c4\"]\n\
         [movement]\nsoldier = \"step\"\n[capture]\ncustodial = false\ncorner = \"none\"\n\
         [end]\ndux_immobilized = \"off\"\nself_immobilization = \"allowed\"\nno_moves = \"material\"\n\
         lose_at_soldiers = -1\nrepetition = \"illegal\"\nrepetition_count = 2\n",
        "crowded-count.toml",
    )
    .unwrap()
}

#[test]
fn adjudication_off_turns_every_count_win_into_a_draw_and_changes_nothing_else() {
    // Random games of each counting ruleset with and without adjudication, from the same
    // seeds: the same moves and effects at every ply, the same last ply, the same outcome,
    // except that a win by count is a draw with the reason of the rule that counted.
    let (mut at_limit, mut at_no_moves) = (0, 0);
    let rulesets = COUNTING_RULESETS.iter().map(|id| Ruleset::builtin(id).unwrap()).chain([crowded_count_rules()]);
    for on in rulesets {
        let id = on.id.as_str();
        let off = on.with_param("end.adjudication", "draw").unwrap();
        for seed in 0..16 {
            let (mut a, mut b) = (Position::new(&on), Position::new(&off));
            a.set_ply_cap(400);
            b.set_ply_cap(400);
            let mut rng = crate::FastRng::new(seed);
            let (mut moves_a, mut moves_b) = (Vec::new(), Vec::new());
            while !a.is_over() {
                assert!(!b.is_over(), "{id} seed {seed}: ended early at ply {}", b.ply());
                a.legal_moves(&mut moves_a);
                b.legal_moves(&mut moves_b);
                assert_eq!(moves_a, moves_b, "{id} seed {seed} ply {}", a.ply());
                let mv = moves_a[rng.below(moves_a.len())];
                assert_eq!(a.play(mv), b.play(mv), "{id} seed {seed} ply {}", a.ply());
                assert_eq!(a.to_setup(), b.to_setup(), "{id} seed {seed} ply {}", a.ply());
            }
            assert!(b.is_over() && b.ply() == a.ply(), "{id} seed {seed}: the game without counts went on");
            let (counted, drawn) = (a.outcome().unwrap(), b.outcome().unwrap());
            if counted.reason == Reason::Material {
                let by_limit = on.end.counts_at_limit() && a.plies_since_capture() >= on.end.no_capture_limit;
                let reason = if by_limit { Reason::NoCaptureLimit } else { Reason::Stalemate };
                *(if by_limit { &mut at_limit } else { &mut at_no_moves }) += 1;
                assert!(counted.winner.is_some(), "{id} seed {seed}");
                assert_eq!(drawn, Outcome { winner: None, reason }, "{id} seed {seed}");
            } else {
                assert_eq!(counted, drawn, "{id} seed {seed}");
            }
        }
    }
    // Both counts happened, so both were turned into draws.
    assert!(at_limit > 0 && at_no_moves > 0, "count wins at the limit {at_limit}, with no legal ply {at_no_moves}");
}

#[test]
fn hands_larger_than_the_rulesets_are_refused() {
    // Found by fuzzing: a setup with seven Duxes in hand used to be accepted and
    // panicked at the second Dux placement.
    let rs = Ruleset::builtin("bell").unwrap();
    let setup = |fen: &str| Setup::from_fen(fen).unwrap();
    let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 0,7/1,0")).unwrap_err();
    assert!(matches!(e, PositionError::BadHand { color: Color::White, count: 7, max: 1, .. }), "{e}");
    assert!(e.to_string().contains("7 Duxes in hand") && e.to_string().contains("bell"), "{e}");
    let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 17,0/1,0")).unwrap_err();
    assert!(matches!(e, PositionError::BadHand { count: 17, max: 16, .. }), "{e}");
    // Found by fuzzing too: hands within the ruleset's that the placement order never
    // reaches (here White still holds 2 soldiers after Black ran out).
    let e = Position::from_setup(&rs, &setup("7s/8/8/8/2sS4/8/8/S7 b 2,0/1,0")).unwrap_err();
    assert!(matches!(e, PositionError::BadPlacement { done: 31, .. }), "{e}");
    assert!(e.to_string().contains("never reaches"), "{e}");
    // Every position the placement order reaches is accepted back from its setup.
    let mut pos = Position::new(&rs);
    let mut rng = crate::FastRng::new(5);
    while pos.is_placement_phase() {
        let back = Position::from_setup(&rs, &pos.to_setup()).expect("a reached placement position");
        assert_eq!(back.legal_move_list(), pos.legal_move_list());
        let moves = pos.legal_move_list();
        pos.play(moves[rng.below(moves.len())]);
    }
}

/// The counted moves are the listed ones, on every built-in ruleset (placement,
/// removal, passes, finished games), for the side to move and for the other side.
#[test]
fn legal_move_count_is_the_length_of_the_list() {
    for rs in Ruleset::all_builtin() {
        let mut rng = crate::FastRng::new(9);
        for _game in 0..3 {
            let mut pos = Position::new(&rs);
            pos.set_ply_cap(150);
            loop {
                assert_eq!(pos.legal_move_count(), pos.legal_move_list().len(), "{} ply {}", rs.id, pos.ply());
                let passed = pos.with_turn_passed();
                assert_eq!(passed.legal_move_count(), passed.legal_move_list().len(), "{} ply {}", rs.id, pos.ply());
                if pos.is_over() {
                    break;
                }
                let moves = pos.legal_move_list();
                pos.play(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn with_rules_switches_one_filter_and_keeps_the_state() {
    let (rs, pos, mv) = before_illegal_dux_move();
    assert!(!pos.is_legal(mv));
    let mut relaxed = rs.rules();
    relaxed.combat.dux_limits = false;
    let p = pos.with_rules(relaxed).unwrap();
    assert!(p.is_legal(mv));
    assert_eq!((p.hash(), p.ply(), p.plies_since_capture()), (pos.hash(), pos.ply(), pos.plies_since_capture()));
    assert_eq!(p.to_setup(), pos.to_setup());
    let other_board = Ruleset::builtin("xxi").unwrap().rules();
    assert!(matches!(pos.with_rules(other_board), Err(PositionError::BoardSize { .. })));
}

#[test]
fn history_counts_equal_a_plain_scan_with_and_without_the_filter() {
    let mut rng = crate::FastRng::new(11);
    let mut h = History::default();
    let mut plain: Vec<u64> = Vec::new();
    // Few distinct values, so that repeats, pops and filter hits all happen.
    let pool: Vec<u64> = (0..300).map(|_| rng.next_u64()).collect();
    for step in 0..5000 {
        let x = pool[rng.below(pool.len())];
        match step % 97 {
            0 => {
                h.clear();
                plain.clear();
            }
            1..=5 => {
                let last = plain.last().copied().unwrap_or(x);
                h.pop_if_last(last);
                if plain.last() == Some(&last) {
                    plain.pop();
                }
            }
            _ => {
                h.push(x);
                plain.push(x);
            }
        }
        assert_eq!(h.hashes, plain);
        if plain.len() > History::FILTER_FROM {
            assert!(h.filter.is_some(), "a long history has its filter");
        }
        for &y in pool.iter().take(40).chain([x, rng.next_u64()].iter()) {
            let n = plain.iter().filter(|&&z| z == y).count();
            assert_eq!(h.count(y), n, "step {step}");
            assert_eq!(h.at_most_once(y), n <= 1, "step {step}");
        }
        let mut twice: Vec<u64> = h.twice.clone();
        twice.sort_unstable();
        let mut expected: Vec<u64> =
            pool.iter().copied().filter(|&y| plain.iter().filter(|&&z| z == y).count() >= 2).collect();
        expected.sort_unstable();
        expected.dedup();
        assert_eq!(twice, expected, "step {step}: the hashes occurring twice or more");
    }
}

#[test]
fn with_rules_keeps_the_repetition_history() {
    let rs = Ruleset::builtin("xxi").unwrap();
    let mut pos = Position::new(&rs);
    // Shuffle two soldiers back and forth: the start position occurs again.
    for m in ["a1-a2", "a8-a7", "a2-a1", "a7-a8"] {
        let (f, t) = m.split_once('-').unwrap();
        pos.play(Move::movement(f.parse().unwrap(), t.parse().unwrap()));
    }
    let same = pos.with_rules(rs.rules()).unwrap();
    assert_eq!(same.history, pos.history);
    assert_eq!(same.repetition_count(), 2);
}

/// Kowalski (slide, custodial and corner capture, Dux) on a `w`×`h` board with the
/// given pieces (`D` prefix: a Dux).
fn wide(w: u8, h: u8, white: &[&str], black: &[&str]) -> (Ruleset, Position) {
    let mut rs = Ruleset::builtin("kowalski").unwrap();
    rs.width = w;
    rs.height = h;
    rs.setup = crate::ruleset::SetupSpec {
        layout: crate::ruleset::Layout::Squares,
        white: white.iter().map(|s| s.to_string()).collect(),
        black: black.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    rs.validate().unwrap();
    let pos = Position::new(&rs);
    (rs, pos)
}

fn sq(s: &str) -> Square {
    s.parse().unwrap()
}

fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let mut v: Vec<String> =
        pos.legal_move_list().into_iter().filter(|m| m.from == sq(from)).map(|m| m.to.to_string()).collect();
    v.sort();
    v
}

#[test]
fn a_slide_runs_the_full_sixteen_squares_and_stops_at_the_edge() {
    let (_, pos) = wide(16, 16, &["a1", "Dh8"], &["c3", "Dk12"]);
    let mut want: Vec<String> = (2..=16).map(|r| format!("a{r}")).collect();
    want.extend((b'b'..=b'p').map(|f| format!("{}1", f as char)));
    want.sort();
    assert_eq!(moves_from(&pos, "a1"), want, "15 squares up the a-file and 15 along rank 1");
    // From the middle, every way to the edge; along the top rank up to the corner.
    let (_, pos) = wide(16, 16, &["h16", "Dc3"], &["b9", "Dk12"]);
    let along: Vec<String> = moves_from(&pos, "h16").into_iter().filter(|s| s.ends_with("16")).collect();
    assert_eq!(along.len(), 15, "{along:?}");
    assert!(along.contains(&"p16".to_string()) && along.contains(&"a16".to_string()));
    // On 16 files by 11 ranks the file ends at rank 11.
    let (_, pos) = wide(16, 11, &["p1", "Dh5"], &["c3", "Dk9"]);
    let up: Vec<String> = moves_from(&pos, "p1").into_iter().filter(|s| s.starts_with('p')).collect();
    assert_eq!(up.len(), 10, "{up:?}");
    assert!(up.contains(&"p11".to_string()) && !up.contains(&"p12".to_string()));
    assert_eq!(moves_from(&pos, "p1").len(), 10 + 15);
}

#[test]
fn custodial_captures_on_file_p_and_rank_16() {
    // a16-p16 slides the whole top rank and takes p15 against p14 (file p).
    let (_, mut pos) = wide(16, 16, &["a16", "p14", "Dh8"], &["p15", "c3", "Dk12"]);
    let fx = pos.play(Move::movement(sq("a16"), sq("p16")));
    assert_eq!(fx.captured(), vec![sq("p15")]);
    assert_eq!(pos.piece_at(sq("p15")), None);
    assert_eq!(pos.piece_at(sq("p16")).map(|p| p.color), Some(Color::White));
    // i1-i16 slides the whole i-file and takes h16 against g16 (rank 16); j16 has
    // no anvil on k16.
    let (rs, mut pos) = wide(16, 16, &["i1", "g16", "Dh8"], &["h16", "j16", "p16", "c3", "Dk12"]);
    let fx = pos.play(Move::movement(sq("i1"), sq("i16")));
    assert_eq!(fx.captured(), vec![sq("h16")]);
    // FEN round trip on a 16 x 16 board, and the incremental hash is the recomputed one.
    let fen = pos.to_setup().to_fen();
    assert_eq!(fen, "6S1Ss5s/16/16/16/10d5/16/16/16/7D8/16/16/16/16/2s13/16/16 b - 0 1");
    let back = Position::from_setup(&rs, &Setup::from_fen(&fen).unwrap()).unwrap();
    assert_eq!(back, pos);
    assert_eq!(back.hash(), pos.hash());
    assert_eq!(back.legal_move_list(), pos.legal_move_list());
    // The diagram (files a to p, ranks to 16) reads back too; it carries no counters.
    let mut setup = pos.to_setup();
    setup.ply = 0;
    let diagram = setup.diagram();
    assert!(diagram.contains("16  . . . . . . S . S s . . . . . s"), "{diagram}");
    assert!(diagram.contains("a b c d e f g h i j k l m n o p"), "{diagram}");
    assert_eq!(Setup::parse(&diagram).unwrap(), setup);
}

#[test]
fn a_corner_capture_in_the_p16_corner() {
    // p1-p15 slides up file p (stopping below the occupied corner) and takes p16
    // against o16.
    let (_, mut pos) = wide(16, 16, &["p1", "o16", "Dh8"], &["p16", "c3", "Dk12"]);
    assert_eq!(moves_from(&pos, "p1").iter().filter(|s| s.starts_with('p')).count(), 14);
    let fx = pos.play(Move::movement(sq("p1"), sq("p15")));
    assert_eq!(fx.captured(), vec![sq("p16")]);
    assert_eq!(pos.piece_at(sq("p16")), None);
    // The same on 16 files by 11 ranks: the corner is p11.
    let (_, mut pos) = wide(16, 11, &["p1", "o11", "Dh5"], &["p11", "c3", "Dk9"]);
    assert_eq!(pos.play(Move::movement(sq("p1"), sq("p10"))).captured(), vec![sq("p11")]);
}

#[test]
fn moves_on_file_p_and_rank_16_print_and_parse_back() {
    let (rs, pos) = wide(16, 16, &["p1", "o16", "a16", "Dh8"], &["p16", "c3", "Dk12"]);
    let mv = Move::movement(sq("p1"), sq("p15"));
    let text = pos.move_to_string(mv).unwrap();
    assert_eq!(text, "p1-p15xp16");
    assert_eq!(crate::notation::parse_move(&rs, &pos, &text).unwrap().mv, mv);
    let mv = Move::movement(sq("a16"), sq("n16"));
    assert_eq!(pos.move_to_string(mv).unwrap(), "a16-n16");
    assert_eq!(crate::notation::parse_move(&rs, &pos, "A16-N16").unwrap().mv, mv);
    assert!(crate::notation::parse_move(&rs, &pos, "p1-q1").is_err());
}

#[test]
fn raising_the_ply_cap_reopens_a_game_ended_by_it() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    let mut pos = Position::new(&rs);
    pos.set_ply_cap(0);
    assert_eq!(pos.outcome().map(|o| o.reason), Some(Reason::PlyCap));
    pos.set_ply_cap(10);
    assert_eq!(pos.outcome(), None);
}

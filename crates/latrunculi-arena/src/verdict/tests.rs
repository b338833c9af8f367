use super::*;
use latrunculi_rules::ruleset::End;

/// Kowalski (a Dux; counts at the limit and with no legal ply) with other end parameters.
fn kowalski(change: impl FnOnce(&mut End)) -> Ruleset {
    let mut rs = Ruleset::builtin("kowalski").unwrap();
    change(&mut rs.end);
    rs
}

/// Falkener (no Dux) with other end parameters.
fn falkener(change: impl FnOnce(&mut End)) -> Ruleset {
    let mut rs = Ruleset::builtin("falkener").unwrap();
    assert!(!rs.has_dux());
    change(&mut rs.end);
    rs
}

const WHITE: Option<Color> = Some(Color::White);
const BLACK: Option<Color> = Some(Color::Black);

fn class(winner: Option<Color>, reason: Reason, rs: &Ruleset) -> Ending {
    classify(winner, reason, rs).unwrap_or_else(|e| panic!("{winner:?} {reason}: {e}"))
}

fn refused(winner: Option<Color>, reason: Reason, rs: &Ruleset) -> String {
    match classify(winner, reason, rs) {
        Err(e @ VerdictError::Impossible { .. }) => e.to_string(),
        other => panic!("{winner:?} {reason} under {}: expected an error, got {other:?}", rs.id),
    }
}

#[test]
fn wins_on_the_board_are_won_by_play() {
    let rs = kowalski(|e| e.lose_at_soldiers = 0);
    for reason in [Reason::Immobilized, Reason::Bare, Reason::DuxCaptured] {
        assert_eq!(class(WHITE, reason, &rs), Ending::WonByPlay(reason));
        assert_eq!(class(BLACK, reason, &rs), Ending::WonByPlay(reason));
    }
    let no_dux = falkener(|e| e.lose_at_soldiers = 1);
    assert_eq!(class(BLACK, Reason::Annihilated, &no_dux), Ending::WonByPlay(Reason::Annihilated));
    // Stalemate and repetition are wins by play where the rules make them a loss.
    let stuck_loses = kowalski(|e| e.no_moves = NoMoves::Loses);
    assert_eq!(class(WHITE, Reason::Stalemate, &stuck_loses), Ending::WonByPlay(Reason::Stalemate));
    let repeater_loses = kowalski(|e| e.repetition = Repetition::MoverLoses);
    assert_eq!(class(BLACK, Reason::Repetition, &repeater_loses), Ending::WonByPlay(Reason::Repetition));
}

#[test]
fn wins_on_the_board_need_the_rule_that_makes_them() {
    assert!(
        refused(WHITE, Reason::Immobilized, &kowalski(|e| e.dux_immobilized = Immobilization::Off)).contains("off")
    );
    assert!(refused(WHITE, Reason::Bare, &kowalski(|e| e.lose_at_soldiers = -1)).contains("lose_at_soldiers"));
    assert!(refused(WHITE, Reason::Annihilated, &kowalski(|e| e.lose_at_soldiers = 0)).contains("has a Dux"));
    assert!(refused(WHITE, Reason::Bare, &falkener(|e| e.lose_at_soldiers = 0)).contains("no Dux"));
    assert!(refused(BLACK, Reason::DuxCaptured, &kowalski(|e| e.win_by_dux_capture = false)).contains("win_by_dux"));
    assert!(refused(WHITE, Reason::Stalemate, &kowalski(|e| e.no_moves = NoMoves::Pass)).contains("loses"));
    assert!(refused(WHITE, Reason::Stalemate, &kowalski(|_| {})).contains("loses"), "material: a count decides");
    assert!(refused(WHITE, Reason::Repetition, &kowalski(|e| e.repetition = Repetition::Draw)).contains("mover-loses"));
    // None of them is ever a draw.
    let all_on = kowalski(|e| e.lose_at_soldiers = 0);
    for reason in [Reason::Immobilized, Reason::Bare, Reason::DuxCaptured] {
        refused(None, reason, &all_on);
    }
    refused(None, Reason::Annihilated, &falkener(|e| e.lose_at_soldiers = 0));
}

#[test]
fn a_win_by_count_is_adjudicated_where_a_rule_counts() {
    // Kowalski counts at the limit and with no legal ply.
    assert_eq!(class(WHITE, Reason::Material, &kowalski(|_| {})), Ending::Adjudicated);
    // Only at the limit, or only with no legal ply.
    let at_limit = kowalski(|e| e.no_moves = NoMoves::Loses);
    assert_eq!(class(BLACK, Reason::Material, &at_limit), Ending::Adjudicated);
    let no_moves = kowalski(|e| {
        e.no_capture_result = LimitResult::Draw;
    });
    assert_eq!(class(BLACK, Reason::Material, &no_moves), Ending::Adjudicated);
    // A level count given to Black (Ludii's Seneca, Piso, Bell) is a count too.
    let piso = Ruleset::builtin("ludii-piso").unwrap();
    assert_eq!(piso.end.material_tie, MaterialTie::Black);
    assert_eq!(class(BLACK, Reason::Material, &piso), Ending::Adjudicated);
    // No rule counts: a material win cannot happen.
    let none = kowalski(|e| {
        e.no_moves = NoMoves::Loses;
        e.no_capture_result = LimitResult::Draw;
    });
    assert!(refused(WHITE, Reason::Material, &none).contains("no end rule counts"));
    // Nor with adjudication off, nor with a limit of 0 and no count with no legal ply.
    let off = kowalski(|e| e.adjudication = Adjudication::Draw);
    refused(WHITE, Reason::Material, &off);
    let no_limit = kowalski(|e| {
        e.no_capture_limit = 0;
        e.no_moves = NoMoves::Loses;
    });
    refused(WHITE, Reason::Material, &no_limit);
    // A material "draw" is never written: a level count draws by the counting rule's reason.
    refused(None, Reason::Material, &kowalski(|_| {}));
}

#[test]
fn draws_are_split_by_kind() {
    // The limit as a draw (bell, classical: no_capture_result = "draw").
    let limit_draws = kowalski(|e| e.no_capture_result = LimitResult::Draw);
    assert_eq!(class(None, Reason::NoCaptureLimit, &limit_draws), Ending::Drawn(DrawKind::NoCaptureLimit));
    // The limit with a count that came out level.
    assert_eq!(class(None, Reason::NoCaptureLimit, &kowalski(|_| {})), Ending::Drawn(DrawKind::LevelCount));
    // The same with adjudication off: no count was made.
    let off = kowalski(|e| e.adjudication = Adjudication::Draw);
    assert_eq!(class(None, Reason::NoCaptureLimit, &off), Ending::Drawn(DrawKind::NoCaptureLimit));
    // No legal ply: a level count, no count with adjudication off, or both sides stuck.
    assert_eq!(class(None, Reason::Stalemate, &kowalski(|_| {})), Ending::Drawn(DrawKind::LevelCount));
    assert_eq!(class(None, Reason::Stalemate, &off), Ending::Drawn(DrawKind::NoMoves));
    let pass = Ruleset::builtin("ludii-kharebga-8x8").unwrap();
    assert_eq!(pass.end.no_moves, NoMoves::Pass);
    assert_eq!(class(None, Reason::Stalemate, &pass), Ending::Drawn(DrawKind::NoMoves));
    let repetition_draws = kowalski(|e| e.repetition = Repetition::Draw);
    assert_eq!(class(None, Reason::Repetition, &repetition_draws), Ending::Drawn(DrawKind::Repetition));
    for rs in [kowalski(|_| {}), pass.clone(), off.clone()] {
        assert_eq!(class(None, Reason::PlyCap, &rs), Ending::Drawn(DrawKind::PlyCap));
    }
}

#[test]
fn draws_need_the_rule_that_makes_them() {
    refused(WHITE, Reason::PlyCap, &kowalski(|_| {}));
    refused(BLACK, Reason::NoCaptureLimit, &kowalski(|_| {}));
    assert!(refused(None, Reason::NoCaptureLimit, &kowalski(|e| e.no_capture_limit = 0)).contains("no limit"));
    // A level count that goes to Black is never a draw (Ludii's Piso, Bell).
    let piso = Ruleset::builtin("ludii-piso").unwrap();
    assert!(refused(None, Reason::Stalemate, &piso).contains("material_tie"));
    let bell = Ruleset::builtin("ludii-bell-8x8").unwrap();
    assert!(refused(None, Reason::NoCaptureLimit, &bell).contains("material_tie"));
    // ... unless adjudication is off.
    let piso_off = piso.with_param("end.adjudication", "draw").unwrap();
    assert_eq!(class(None, Reason::Stalemate, &piso_off), Ending::Drawn(DrawKind::NoMoves));
    let bell_off = bell.with_param("end.adjudication", "draw").unwrap();
    assert_eq!(class(None, Reason::NoCaptureLimit, &bell_off), Ending::Drawn(DrawKind::NoCaptureLimit));
    // A stuck side that loses, and repetitions that lose or are off, draw nothing.
    refused(None, Reason::Stalemate, &kowalski(|e| e.no_moves = NoMoves::Loses));
    refused(None, Reason::Repetition, &kowalski(|e| e.repetition = Repetition::MoverLoses));
    refused(None, Reason::Repetition, &kowalski(|e| e.repetition = Repetition::Off));
}

#[test]
fn every_builtin_ruleset_classifies_a_ply_cap_draw_and_refuses_a_ply_cap_win() {
    for rs in Ruleset::all_builtin() {
        assert_eq!(class(None, Reason::PlyCap, &rs), Ending::Drawn(DrawKind::PlyCap), "{}", rs.id);
        refused(WHITE, Reason::PlyCap, &rs);
    }
}

/// A cell of `draws` drawn games of `games`, the rest split between play and counts.
fn cell(games: u64, draws: u64, adjudicated: u64) -> CellCounts {
    let mut endings = vec![Ending::Drawn(DrawKind::PlyCap); draws as usize];
    endings.extend(vec![Ending::Adjudicated; adjudicated as usize]);
    endings.extend(vec![Ending::WonByPlay(Reason::Bare); (games - draws - adjudicated) as usize]);
    CellCounts::of(endings)
}

#[test]
fn a_cell_counts_each_class_with_intervals() {
    let mut c = cell(40, 10, 6);
    c.add(Ending::Drawn(DrawKind::NoCaptureLimit));
    assert_eq!((c.games(), c.draws(), c.won_by_play, c.adjudicated), (41, 11, 24, 6));
    assert_eq!((c.draws_of(DrawKind::PlyCap), c.draws_of(DrawKind::NoCaptureLimit)), (10, 1));
    let (d, w, a) = (c.draw_rate().unwrap(), c.won_by_play_rate().unwrap(), c.adjudicated_rate().unwrap());
    assert!((d.rate + w.rate + a.rate - 1.0).abs() < 1e-12);
    assert_eq!((d.rate, w.rate, a.rate), (11.0 / 41.0, 24.0 / 41.0, 6.0 / 41.0));
    for (r, k) in [(d, 11.0), (w, 24.0), (a, 6.0)] {
        assert_eq!((r.lo, r.hi), wilson(k, 41, Z95));
        assert!(r.lo < r.rate && r.rate < r.hi);
    }
    // No games: no rates.
    let empty = CellCounts::default();
    assert_eq!(empty.games(), 0);
    assert!(empty.draw_rate().is_none() && empty.won_by_play_rate().is_none() && empty.adjudicated_rate().is_none());
}

#[test]
fn the_verdict_rule_gives_each_verdict() {
    // 300 of 400 draws at both budgets: [0.71, 0.79] lies above 0.5.
    assert_eq!(verdict(&cell(400, 290, 0), &cell(400, 300, 0)), Ok(Verdict::Drawish));
    // 40 of 400: [0.07, 0.13] below 0.5.
    assert_eq!(verdict(&cell(400, 50, 20), &cell(400, 40, 30)), Ok(Verdict::Decisive));
    // 200 of 400 holds 0.5.
    assert_eq!(verdict(&cell(400, 190, 0), &cell(400, 200, 0)), Ok(Verdict::Balanced));
    // Drawish at the stronger budget, but the weaker drew far less: strength still moves it.
    assert_eq!(verdict(&cell(400, 100, 0), &cell(400, 300, 0)), Ok(Verdict::Unsettled));
    // The other way round, and where the stronger is balanced.
    assert_eq!(verdict(&cell(400, 350, 0), &cell(400, 200, 0)), Ok(Verdict::Unsettled));
    // One budget: the level alone.
    assert_eq!(level_verdict(&cell(50, 50, 0)), Ok(Verdict::Drawish));
    assert_eq!(level_verdict(&cell(50, 0, 10)), Ok(Verdict::Decisive));
    assert_eq!(level_verdict(&cell(10, 5, 0)), Ok(Verdict::Balanced));
}

#[test]
fn the_verdict_rule_at_its_edges() {
    // Intervals that overlap by a little are not unsettled: 0 of 50 is [0, 0.0714], 5 of
    // 50 is [0.0435, 0.2136].
    let (none, five) = (cell(50, 0, 0), cell(50, 5, 0));
    assert!(!none.draw_rate().unwrap().disjoint(&five.draw_rate().unwrap()));
    assert_eq!(verdict(&none, &five), Ok(Verdict::Decisive));
    // 0 of 50 against 10 of 50 ([0.1124, 0.3304]) do not overlap.
    assert_eq!(verdict(&none, &cell(50, 10, 0)), Ok(Verdict::Unsettled));
    // One drawn game settles nothing: 1 of 1 is [0.2065, 1], which holds 0.5.
    assert_eq!(level_verdict(&cell(1, 1, 0)), Ok(Verdict::Balanced));
    // Few games widen the intervals until nothing is settled: 3 of 4 against 1 of 4.
    assert_eq!(verdict(&cell(4, 1, 0), &cell(4, 3, 0)), Ok(Verdict::Balanced));
    // No games: an error, never a panic or a verdict.
    let empty = CellCounts::default();
    assert!(matches!(verdict(&empty, &cell(50, 10, 0)), Err(VerdictError::NoGames { .. })));
    assert!(matches!(verdict(&cell(50, 10, 0), &empty), Err(VerdictError::NoGames { .. })));
    assert!(matches!(level_verdict(&empty), Err(VerdictError::NoGames { .. })));
    let e = verdict(&cell(50, 10, 0), &empty).unwrap_err().to_string();
    assert!(e.contains("stronger") && e.contains("no games"), "{e}");
}

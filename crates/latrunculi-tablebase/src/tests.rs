//! Tests of the tables against the engine: the retrograde values satisfy the game's
//! equations everywhere, agree with an exhaustive search to a fixed depth, replay as
//! stated, do not change under the left-right mirror, and give the values worked out by
//! hand for positions built for each mechanic.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use latrunculi_rules::{Color, FastRng, Position, Ruleset, RulesetSpec, Setup, Square};

use crate::material::Material;
use crate::table::TablebaseError;
use crate::tablebase::Tablebase;
use crate::value::{Score, Wdl, back, split, terminal};

/// Rulesets of different mechanics, on boards small enough for a test.
const LABELS: &[&str] = &[
    // Dux, XXI's combat limits, push/crush, flank and phalanx captures.
    "xxi@6x6",
    // Dux that is never captured, no bare rule, stalemate counted by material.
    "kowalski@6x6",
    // Pieces in hand at the start, steps, a stuck side passes.
    "ludii-seega-6x6",
    // Traps and removal plies.
    "schadler@6x6+end.lose_at_soldiers=0",
    // Further ply after a capture, Dux captured like a soldier, passes.
    "ludii-bell-8x7@6x6",
    // A bare rule that ends small material at once.
    "petteia-xxi@6x6",
    // Savard: step-forward-sideways men, enclosure of the Dux.
    "savard@6x6",
    // Seneca: traps, and a removal that leaves the turn with the remover.
    "ludii-seneca@7x6+end.lose_at_soldiers=0",
];

fn ruleset(label: &str) -> Ruleset {
    label.parse::<RulesetSpec>().unwrap().resolve(None).unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("latrunculi-tb-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// The tables of `label` up to 3 pieces, built once per test process.
fn tables(label: &str) -> Arc<Tablebase> {
    static BUILT: OnceLock<Mutex<HashMap<String, Arc<Tablebase>>>> = OnceLock::new();
    let map = BUILT.get_or_init(|| Mutex::new(HashMap::new()));
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    map.entry(label.to_string())
        .or_insert_with(|| {
            let dir = scratch(&label.replace(['@', '+', '=', '.'], "_"));
            Arc::new(crate::build(&dir, &ruleset(label), label, 3, None, &mut |_| {}).unwrap())
        })
        .clone()
}

/// Every valid position of every built material, once per number.
fn positions(tb: &Tablebase, mut f: impl FnMut(u64, Position, &crate::Table)) {
    for m in Material::all_up_to(3, tb.ruleset.has_dux()) {
        let t = tb.table(m).unwrap().unwrap();
        for i in 0..t.indexer.size() {
            if t.wdl[i as usize] == crate::table::INVALID {
                continue;
            }
            let setup = t.indexer.setup(i).unwrap();
            f(i, Position::from_setup(&tb.ruleset, &setup).unwrap(), &t);
        }
    }
}

/// Exact score when the game is decided within `depth` plies, by full-width search.
fn search(pos: &Position, depth: u32) -> Option<Score> {
    if let Some(o) = pos.outcome() {
        return Some(terminal(o, pos.side_to_move()));
    }
    if depth == 0 {
        return None;
    }
    let mut best = Score::MIN;
    let mut all_known = true;
    for mv in pos.legal_move_list() {
        let mut child = pos.clone();
        child.play(mv);
        match search(&child, depth - 1) {
            Some(s) => best = best.max(back(s, child.side_to_move() == pos.side_to_move())),
            None => all_known = false,
        }
    }
    // A win found is the fastest (any other is further than `depth`); a loss or a draw
    // needs every move known.
    (best > 0 || (all_known && best < 0)).then_some(best)
}

#[test]
fn values_satisfy_the_game_equations_everywhere() {
    for label in LABELS {
        let tb = tables(label);
        let (mut n, mut wins) = (0u64, 0u64);
        positions(&tb, |i, pos, t| {
            let e = tb.eval(&pos).unwrap().unwrap();
            let (wdl, dtm) = split(e.dtm);
            let (zwdl, dtz) = split(e.dtz);
            assert_eq!(wdl, zwdl, "{label} {}", pos.to_setup().to_fen());
            assert!(dtz <= dtm, "{label} {}: dtz {dtz} > dtm {dtm}", pos.to_setup().to_fen());
            n += 1;
            wins += (wdl == Wdl::Win) as u64;
            if pos.is_over() {
                assert_eq!(dtm, 0);
                return;
            }
            let mut best = Score::MIN;
            for mv in pos.legal_move_list() {
                let mut child = pos.clone();
                child.play(mv);
                let c = tb.eval(&child).unwrap().unwrap();
                best = best.max(back(c.dtm, child.side_to_move() == pos.side_to_move()));
            }
            assert_eq!(e.dtm, best, "{label} #{i} of {}: {}", t.header.material, pos.to_setup().to_fen());
        });
        assert!(n > 10_000, "{label}: {n} positions");
        assert!(wins > 0, "{label}: no win at all");
    }
}

#[test]
fn tables_agree_with_exhaustive_search() {
    for (k, label) in LABELS.iter().enumerate() {
        let tb = tables(label);
        let depth = if tb.ruleset.movement.soldier == latrunculi_rules::ruleset::SoldierMove::Slide { 3 } else { 5 };
        let mut all = Vec::new();
        let mut short = Vec::new();
        positions(&tb, |_, pos, _| {
            let d = split(tb.eval(&pos).unwrap().unwrap().dtm);
            if d.0 != Wdl::Draw && d.1 <= depth && d.1 > 0 {
                short.push(pos.clone());
            }
            all.push(pos);
        });
        let mut rng = FastRng::new(k as u64 + 7);
        let (mut decided, mut checked) = (0, 0);
        for round in 0..1200 {
            let pool = if round % 2 == 0 && !short.is_empty() { &short } else { &all };
            let pos = &pool[rng.below(pool.len())];
            let p = tb.probe(pos).unwrap().unwrap();
            let s = search(pos, depth);
            let table_decided = p.wdl != Wdl::Draw && p.distance <= depth;
            let fen = pos.to_setup().to_fen();
            match s {
                Some(s) if s != 0 => {
                    assert!(table_decided, "{label} {fen}: search {:?}, table {p:?}", split(s));
                    assert_eq!(split(s), (p.wdl, p.distance), "{label} {fen}");
                    decided += 1;
                }
                _ => assert!(!table_decided, "{label} {fen}: table {p:?}, search undecided at depth {depth}"),
            }
            checked += 1;
        }
        assert!(checked == 1200 && decided > 100, "{label}: {decided} decided of {checked}");
    }
}

#[test]
fn winning_lines_replay_to_the_stated_distance() {
    for label in LABELS {
        let tb = tables(label);
        let mut lines = 0;
        let mut rng = FastRng::new(3);
        positions(&tb, |_, pos, _| {
            if rng.below(40) != 0 {
                return;
            }
            let p = tb.probe(&pos).unwrap().unwrap();
            if p.wdl == Wdl::Draw {
                return;
            }
            let line = tb.line(&pos, 500).unwrap();
            assert_eq!(line.len() as u32, p.distance, "{label} {}", pos.to_setup().to_fen());
            let mut q = pos.clone();
            for mv in &line {
                assert!(q.try_play(*mv).is_some(), "{label}: {mv:?} illegal");
            }
            let o = q.outcome().expect("the line ends the game");
            let winner = if p.wdl == Wdl::Win { pos.side_to_move() } else { pos.side_to_move().opponent() };
            assert_eq!(o.winner, Some(winner), "{label} {}", pos.to_setup().to_fen());
            lines += 1;
        });
        assert!(lines > 20, "{label}: {lines} lines");
    }
}

fn mirror(s: &Setup) -> Setup {
    let mut m = s.clone();
    for r in 0..s.height {
        for f in 0..s.width {
            let to = Square::new(s.width - 1 - f, r).unwrap();
            m.set(to, s.piece_at(Square::new(f, r).unwrap()));
        }
    }
    m
}

#[test]
fn mirrored_positions_have_the_same_value() {
    for label in LABELS {
        let tb = tables(label);
        let mut n = 0;
        positions(&tb, |_, pos, _| {
            let s = pos.to_setup();
            let m = Position::from_setup(&tb.ruleset, &mirror(&s)).unwrap();
            let (a, b) = (tb.eval(&pos).unwrap().unwrap(), tb.eval(&m).unwrap().unwrap());
            assert_eq!(a, b, "{label}: {} and its mirror", s.to_fen());
            n += 1;
        });
        assert!(n > 10_000);
    }
}

fn probe(label: &str, fen: &str) -> crate::Probe {
    let tb = tables(label);
    let rs = ruleset(label);
    let pos = Position::from_setup(&rs, &Setup::from_fen(fen).unwrap()).unwrap();
    tb.probe(&pos).unwrap().unwrap()
}

#[test]
fn hand_built_positions() {
    // Bare rule (petteia-xxi: a side with at most one soldier after the opponent's ply
    // loses): with one soldier each, whoever moves wins at once, whatever the move.
    let p = probe("petteia-xxi@6x6", "6/6/3s2/6/1S4/6 w");
    assert_eq!((p.wdl, p.distance), (Wdl::Win, 1));
    // A side with no piece at all and the move has no legal ply: it has lost (0 plies).
    let p = probe("petteia-xxi@6x6", "6/6/3s2/6/6/6 w");
    assert_eq!((p.wdl, p.distance), (Wdl::Loss, 0));
    // Custodial capture of the last soldier (back-rank: bare rule at 0 soldiers):
    // White's c4 is the anvil, e1-e4 takes d4 and leaves Black bare. Win in 1 ply, and
    // the only one (no other move captures).
    let p = probe("back-rank@6x6", "6/6/2Ss2/6/6/4S1 w");
    assert_eq!((p.wdl, p.distance, p.dtz), (Wdl::Win, 1, 1));
    assert_eq!(p.best_move, Some(latrunculi_rules::Move::movement("e1".parse().unwrap(), "e4".parse().unwrap())));
    // Dux in a corner (kowalski: immobilising the enemy Dux wins): Black's Dux on a1,
    // White on a2; c1-b1 closes its last free neighbour. Win in 1 ply.
    let p = probe("kowalski@6x6", "6/6/6/6/S5/d1S3 w");
    assert_eq!((p.wdl, p.distance), (Wdl::Win, 1));
    assert_eq!(p.best_move, Some(latrunculi_rules::Move::movement("c1".parse().unwrap(), "b1".parse().unwrap())));
    // The same with Black to move: a2 and c1 leave the Dux a single move, a1-b1 (it
    // slides along rank 1 and c1 stops it), so that is the best move whatever the value.
    let p = probe("kowalski@6x6", "6/6/6/6/S5/d1S3 b");
    assert_eq!(p.best_move, Some(latrunculi_rules::Move::movement("a1".parse().unwrap(), "b1".parse().unwrap())));
    // XXI's locked soldiers: Black's d4 is the sole attacker of White's c4, so it may
    // make only offensive plies and has none; any White move that keeps c4 in place
    // leaves Black without a ply, which loses. Win in 1.
    let p = probe("xxi@6x6", "6/6/2Ss2/6/6/4S1 w");
    assert_eq!((p.wdl, p.distance), (Wdl::Win, 1));
    // A game already over keeps its outcome: e1-e4 takes Black's last soldier (c4 the
    // anvil) and leaves Black bare; Black, to move, has lost (0 plies), although the same
    // pieces set up afresh would not be over (the bare rule is checked after a ply).
    let rs = ruleset("xxi@6x6");
    let mut pos = Position::from_setup(&rs, &Setup::from_fen("6/6/2Ss2/6/6/d3S1 w").unwrap()).unwrap();
    pos.play(latrunculi_rules::Move::movement("e1".parse().unwrap(), "e4".parse().unwrap()));
    assert_eq!(pos.outcome().map(|o| o.winner), Some(Some(Color::White)));
    let p = tables("xxi@6x6").probe(&pos).unwrap().unwrap();
    assert_eq!((p.wdl, p.distance, p.best_move), (Wdl::Loss, 0, None));
    // A trapped piece removed (schadler): Black's last soldier b2 is trapped between a2
    // and c2; White spends its ply removing it and Black has no soldier left. Win in 1.
    let schadler = "schadler@6x6+end.lose_at_soldiers=0";
    let p = probe(schadler, "6/6/6/6/StS3/6 w");
    assert_eq!((p.wdl, p.distance), (Wdl::Win, 1));
    assert_eq!(p.best_move, Some(latrunculi_rules::Move::remove("b2".parse().unwrap())));
    // Black to move there: its only piece is trapped, no legal ply, and in schadler a
    // side without a ply loses (0 plies).
    let p = probe(schadler, "6/6/6/6/StS3/6 b");
    assert_eq!((p.wdl, p.distance), (Wdl::Loss, 0));
    // Pieces still in hand (placement phase) are not in the tables.
    let rs = ruleset("ludii-seega-6x6");
    let start = Position::new(&rs);
    assert!(tables("ludii-seega-6x6").probe(&start).unwrap().is_none());
}

#[test]
fn files_are_checked_and_builds_resume() {
    let label = "petteia-xxi@6x6";
    let dir = scratch("files");
    let rs = ruleset(label);
    let mut built = 0;
    crate::build(&dir, &rs, label, 2, None, &mut |e| {
        if let crate::BuildEvent::Done { skipped: false, .. } = e {
            built += 1
        }
    })
    .unwrap();
    assert_eq!(built, 5); // 1v0 0v1 2v0 1v1 0v2
    // A second build skips every material already written.
    let mut skipped = 0;
    crate::build(&dir, &rs, label, 2, None, &mut |e| {
        if let crate::BuildEvent::Done { skipped: true, .. } = e {
            skipped += 1
        }
    })
    .unwrap();
    assert_eq!(skipped, 5);
    let tb = Tablebase::open(&dir, &rs, label);
    let path = tb.path_of("1v1".parse().unwrap());
    // Another ruleset's tables are refused, naming the file.
    let other = ruleset("xxi@6x6");
    let t = crate::Table::read(
        &path,
        "xxi@6x6",
        crate::table_ruleset(&other).params_hash(),
        (6, 6),
        "1v1".parse().unwrap(),
    );
    let e = t.unwrap_err();
    assert!(matches!(e, TablebaseError::WrongRuleset { .. }), "{e}");
    assert!(e.to_string().contains("1v1.lttb"), "{e}");
    // A truncated file is refused.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(&path, &bytes[..bytes.len() - 3]).unwrap();
    let e = Tablebase::open(&dir, &rs, label).table("1v1".parse().unwrap()).unwrap_err();
    assert!(matches!(e, TablebaseError::Truncated { .. }), "{e}");
    // A damaged byte is refused.
    let mut bad = bytes.clone();
    let last = bad.len() - 1;
    bad[last] ^= 0x55;
    std::fs::write(&path, &bad).unwrap();
    let e = Tablebase::open(&dir, &rs, label).table("1v1".parse().unwrap()).unwrap_err();
    assert!(matches!(e, TablebaseError::Checksum { .. }), "{e}");
    // Not a table at all.
    std::fs::write(&path, b"hello").unwrap();
    let e = Tablebase::open(&dir, &rs, label).table("1v1".parse().unwrap()).unwrap_err();
    assert!(matches!(e, TablebaseError::NotATable { .. }), "{e}");
    // Rulesets that differ only in the no-capture limit or repetition share tables.
    let looser = rs.with_param("end.no_capture_limit", "30").unwrap();
    assert_eq!(crate::dir_name(&looser), crate::dir_name(&rs));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn shards_split_each_size() {
    let label = "back-rank@4x4";
    let rs = ruleset(label);
    let (dir, whole) = (scratch("shards"), scratch("whole"));
    let open = || Tablebase::open(&dir, &rs, label);
    // Shard 1 of 2 alone: its 2v2 needs 1v2 (a capture), which shard 2 builds.
    let e = open().build(4, Some("1/2".parse().unwrap()), &mut |_| {}).unwrap_err();
    assert!(matches!(e, TablebaseError::Missing { .. }), "{e}");
    let mut mine = Vec::new();
    for pieces in 1..=4 {
        for k in 1..=2 {
            let shard = format!("{k}/2").parse().unwrap();
            mine.extend(open().build(pieces, Some(shard), &mut |_| {}).unwrap());
        }
    }
    let full = crate::build(&whole, &rs, label, 4, None, &mut |_| {}).unwrap();
    let all = Material::all_up_to(4, false);
    assert_eq!(all.len(), 14);
    for m in all {
        assert!(mine.contains(&m), "{m}");
        let a = std::fs::read(open().path_of(m)).unwrap();
        let b = std::fs::read(full.path_of(m)).unwrap();
        assert!(a == b, "{m}: the sharded build differs from the whole one");
    }
    assert!("0/2".parse::<crate::Shard>().is_err() && "3/2".parse::<crate::Shard>().is_err());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&whole);
}

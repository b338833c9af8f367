//! Tests of the dataset writer: the files, their consistency, resumption.

use super::samples::winner_color;
use super::*;
use latrunculi_rules::notation::parse_move;
use latrunculi_rules::record::GameRecord;
use latrunculi_rules::replay::{ReplayOptions, replay};
use latrunculi_rules::{Color, Position};
use latrunculi_sim::{ActionSpace, ObservationEncoder, PLANES};
use ndarray::{Array1, Array2, Array4};
use ndarray_npy::read_npy;

/// [`super::run_dataset`] with the kinds of `latrunculi-agents`.
fn run_dataset(args: &DatasetSpec) -> Result<DatasetOutcome> {
    super::run_dataset(args, &Players::baseline())
}

/// A fresh scratch directory (not created) for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn args(ruleset: &str, board: Option<&str>, white: &str, black: &str, games: u32, out: &Path) -> DatasetSpec {
    DatasetSpec {
        ruleset: RulesetChoice {
            ruleset: ruleset.parse().expect("a ruleset label"),
            board: board.map(|b| b.parse().expect("a board")),
            rules_dir: PathBuf::from(latrunculi_rules::DEFAULT_RULES_DIR),
        },
        white: white.to_string(),
        black: black.to_string(),
        games,
        out: out.to_path_buf(),
        seed: 5,
        swap: true,
        ply_cap: latrunculi_rules::DEFAULT_PLY_CAP,
        light: false,
        resume: false,
    }
}

fn read_games(dir: &Path) -> Vec<GameLine> {
    let text = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("games.jsonl");
    text.lines().map(|l| serde_json::from_str(l).expect("a JSON game line")).collect()
}

/// Every array of a dataset, read back with ndarray-npy only.
struct Arrays {
    obs: Array4<f32>,
    masks: Array2<bool>,
    policy: Array2<f32>,
    value: Array1<f32>,
    actions: Array1<i32>,
    plies: Array1<i32>,
    games: Array1<i32>,
    players: Array1<i8>,
    policy_offsets: Array1<i64>,
    policy_actions: Array1<i32>,
    policy_probs: Array1<f32>,
    search_values: Array1<f32>,
}

fn read_arrays(dir: &Path) -> Arrays {
    Arrays {
        obs: read_npy(dir.join(OBSERVATIONS_FILE)).expect("observations"),
        masks: read_npy(dir.join(LEGAL_MASKS_FILE)).expect("masks"),
        policy: read_npy(dir.join(POLICY_FILE)).expect("policy"),
        value: read_npy(dir.join(VALUE_FILE)).expect("value"),
        actions: read_npy(dir.join(ACTIONS_FILE)).expect("actions"),
        plies: read_npy(dir.join(PLIES_FILE)).expect("plies"),
        games: read_npy(dir.join(GAMES_NPY_FILE)).expect("games"),
        players: read_npy(dir.join(PLAYERS_FILE)).expect("players"),
        policy_offsets: read_npy(dir.join(POLICY_OFFSETS_FILE)).expect("policy offsets"),
        policy_actions: read_npy(dir.join(POLICY_ACTIONS_FILE)).expect("policy actions"),
        policy_probs: read_npy(dir.join(POLICY_PROBS_FILE)).expect("policy probabilities"),
        search_values: read_npy(dir.join(SEARCH_VALUES_FILE)).expect("search values"),
    }
}

fn error_of(a: &DatasetSpec) -> String {
    match run_dataset(a) {
        Ok(_) => String::new(),
        Err(e) => crate::error::full_message(&e),
    }
}

/// Checks what holds for every dataset: shapes, per-game ranges, masks, policy rows,
/// value targets, and that the moves replay to the stated result. Returns (games, S).
fn check_consistent(dir: &Path, rs: &Ruleset) -> (Vec<GameLine>, Arrays) {
    let games = read_games(dir);
    let a = read_arrays(dir);
    let s: u64 = games.iter().map(|g| g.samples).sum();
    let s = s as usize;
    let actions = ActionSpace::for_rules(&rs.rules()).size();
    let (w, h) = (rs.width as usize, rs.height as usize);
    assert_eq!(a.obs.shape(), &[s, PLANES.len(), h, w]);
    assert_eq!(a.masks.shape(), &[s, actions]);
    assert_eq!(a.policy.shape(), &[s, actions]);
    for len in [a.value.len(), a.actions.len(), a.plies.len(), a.games.len(), a.players.len(), a.search_values.len()] {
        assert_eq!(len, s);
    }
    assert_eq!(a.policy_offsets.len(), s + 1);
    assert_eq!((a.policy_offsets[0], a.policy_offsets[s] as usize), (0, a.policy_actions.len()));
    assert_eq!(a.policy_actions.len(), a.policy_probs.len());
    for r in 0..s {
        // The sparse rows are the dense policy's non-zero entries, in action order.
        let (from, to) = (a.policy_offsets[r] as usize, a.policy_offsets[r + 1] as usize);
        let sparse: Vec<(usize, f32)> = (from..to).map(|k| (a.policy_actions[k] as usize, a.policy_probs[k])).collect();
        let dense: Vec<(usize, f32)> =
            (0..actions).filter(|&x| a.policy[[r, x]] != 0.0).map(|x| (x, a.policy[[r, x]])).collect();
        assert_eq!(sparse, dense, "row {r}");
        let v = a.search_values[r];
        assert!(v.is_nan() || (-1.0..=1.0).contains(&v), "row {r}: search value {v}");
    }
    let mut next = 0u64;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.game as usize, i, "games in order");
        assert_eq!(g.first_sample, next, "game {i}: rows are contiguous");
        assert_eq!(g.samples, g.plies as u64);
        assert_eq!(g.moves.len(), g.plies as usize);
        assert_eq!(g.board, [rs.width, rs.height]);
        assert_eq!(g.params, serde_json::to_value(rs).unwrap());
        next += g.samples;
        let winner = winner_color(&g.winner).expect("a known winner");
        for (k, r) in (g.first_sample as usize..next as usize).enumerate() {
            assert_eq!(a.games[r], g.game as i32);
            assert_eq!(a.plies[r], k as i32, "game {i}: plies count up from 0");
            let player = if a.players[r] == 0 { Color::White } else { Color::Black };
            assert!(a.players[r] == 0 || a.players[r] == 1);
            let expected = match winner {
                None => 0.0,
                Some(c) if c == player => 1.0,
                Some(_) => -1.0,
            };
            assert_eq!(a.value[r], expected, "row {r}");
            let act = usize::try_from(a.actions[r]).expect("a non-negative action");
            assert!(a.masks[[r, act]], "row {r}: the played action is legal");
            assert!(a.policy[[r, act]] > 0.0, "row {r}: the played move has policy mass");
            let row = a.policy.row(r);
            let sum: f32 = row.sum();
            assert!((sum - 1.0).abs() < 1e-5, "row {r} sums to {sum}");
            for (x, (&p, &legal)) in row.iter().zip(a.masks.row(r)).enumerate() {
                assert!(p >= 0.0);
                assert!(legal || p == 0.0, "row {r}: policy {p} on illegal action {x}");
            }
        }
        // The moves replay through the rules engine to the stated result.
        let record =
            format!("[Ruleset \"{}\"]\n[Board \"{}x{}\"]\n\n{} *\n", rs.id, rs.width, rs.height, g.moves.join(" "));
        let report = replay(&GameRecord::parse(&record).unwrap(), ReplayOptions::default()).unwrap();
        assert_eq!(report.illegal_moves().count(), 0, "game {i}");
        assert_eq!(report.warnings().count(), 0, "game {i}");
        if g.reason == "ply-cap" && g.plies < latrunculi_rules::DEFAULT_PLY_CAP {
            // A game cut by a lower ply cap than the replay's goes on there.
            assert_eq!((report.outcome, g.winner.as_str()), (None, "draw"), "game {i}");
        } else {
            let outcome = report.outcome.expect("the replayed game ends");
            assert_eq!((outcome.winner_text(), outcome.reason.name()), (g.winner.as_str(), g.reason.as_str()));
        }
    }
    assert_eq!(next as usize, s);
    (games, a)
}

#[test]
fn a_sixteen_file_board_makes_a_consistent_dataset() {
    // 16 files by 11 ranks (Ludii's largest Seega board): 176 squares, 31,504 actions.
    let dir = scratch("wide");
    let mut a = args("kowalski", Some("16x11"), "random", "greedy", 2, &dir);
    a.ply_cap = 40;
    run_dataset(&a).unwrap();
    let plan = DatasetPlan::from_spec(&a, &Players::baseline()).unwrap();
    let (games, arr) = check_consistent(&dir, &plan.ruleset);
    assert_eq!(games.len(), 2);
    assert_eq!(arr.masks.ncols(), 176 * 176 + 3 * 176);
    assert_eq!(arr.obs.shape()[2..], [11, 16]);
    // Moves on file p are written and replayed.
    assert!(games.iter().flat_map(|g| &g.moves).any(|m| m.contains('p')), "no move touches file p");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(META_FILE)).unwrap()).expect("meta.json is JSON");
    assert_eq!(meta["board"], serde_json::json!([16, 11]));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn round_trip_arrays_hold_what_was_played() {
    let dir = scratch("round-trip");
    let a = args("kowalski", Some("6x6"), "random", "mcts:sims=20", 3, &dir);
    run_dataset(&a).unwrap();
    let plan = DatasetPlan::from_spec(&a, &Players::baseline()).unwrap();
    let (games, arr) = check_consistent(&dir, &plan.ruleset);
    // What the writer computed, played again: the same games and rows.
    let replay_dir = scratch("round-trip-replay");
    let played = plan.play_into(&replay_dir, false).unwrap();
    assert_eq!(played.len(), 3);
    // The journal of that run rebuilds exactly the same samples (what a resume keeps).
    let rebuilt = plan.read_journal(&replay_dir.join(PARTIAL_FILE)).unwrap();
    let mut rebuilt_sorted = rebuilt;
    rebuilt_sorted.sort_by_key(|g| g.row.game);
    for (a, b) in played.iter().zip(&rebuilt_sorted) {
        assert_eq!((&a.row, a.winner, &a.samples), (&b.row, b.winner, &b.samples));
    }
    let _ = std::fs::remove_dir_all(&replay_dir);
    let mut searched_rows = 0;
    for (g, line) in played.iter().zip(&games) {
        assert_eq!(line.moves.join(" "), g.row.moves);
        assert_eq!((line.white.as_str(), line.black.as_str()), (g.row.white.as_str(), g.row.black.as_str()));
        for (k, s) in g.samples.iter().enumerate() {
            let r = line.first_sample as usize + k;
            assert_eq!(arr.obs.slice(ndarray::s![r, .., .., ..]).iter().copied().collect::<Vec<f32>>(), s.observation);
            let mask: Vec<u32> = (0..arr.masks.ncols()).filter(|&x| arr.masks[[r, x]]).map(|x| x as u32).collect();
            assert_eq!(mask, s.legal);
            assert_eq!(arr.actions[r] as u32, s.action);
            assert!(arr.masks[[r, s.action as usize]], "row {r}: the played action is legal");
            let policy: Vec<(u32, f32)> = (0..arr.policy.ncols())
                .filter(|&x| arr.policy[[r, x]] != 0.0)
                .map(|x| (x as u32, arr.policy[[r, x]]))
                .collect();
            assert_eq!(policy, s.policy);
            let spec = if s.player == Color::White { &line.white } else { &line.black };
            if spec == "random" {
                assert_eq!(policy, vec![(s.action, 1.0)], "row {r}: one-hot on the move played");
            } else if policy.len() > 1 {
                searched_rows += 1;
                // A visit distribution: the move played is a most visited one.
                let best = policy.iter().map(|&(_, p)| p).fold(0.0, f32::max);
                assert_eq!(arr.policy[[r, s.action as usize]], best, "row {r}");
            }
        }
    }
    assert!(searched_rows > 10, "mcts rows hold visit distributions ({searched_rows})");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(META_FILE)).unwrap()).expect("meta.json is JSON");
    assert_eq!(meta["samples"], serde_json::json!(arr.value.len()));
    assert_eq!(meta["action_space_size"], serde_json::json!(arr.policy.ncols()));
    assert_eq!(meta["planes"][0], "own_soldiers");
    assert_eq!(meta["board"], serde_json::json!([6, 6]));
    // No temporary file is left behind.
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 14, "{names:?}");
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn observations_equal_the_encoder_on_replayed_positions() {
    let dir = scratch("replayed");
    let mut a = args("petteia-xxi", None, "greedy", "mcts:sims=10", 2, &dir);
    a.ply_cap = 150;
    run_dataset(&a).unwrap();
    let rs = Ruleset::builtin("petteia-xxi").unwrap();
    let encoder = ObservationEncoder::new(&rs);
    let space = ActionSpace::for_rules(&rs.rules());
    let games = read_games(&dir);
    let arr = read_arrays(&dir);
    for g in &games {
        let mut pos = Position::new(&rs);
        pos.set_ply_cap(a.ply_cap);
        for (k, token) in g.moves.iter().enumerate() {
            let r = g.first_sample as usize + k;
            let mut obs = ndarray::Array3::<f32>::zeros(encoder.shape());
            encoder.write(&pos, obs.view_mut()).unwrap();
            assert_eq!(arr.obs.slice(ndarray::s![r, .., .., ..]), obs, "game {} ply {k}", g.game);
            assert_eq!(arr.players[r] as usize, pos.side_to_move().index());
            let mut legal: Vec<usize> = pos.legal_move_list().into_iter().map(|m| space.encode(m)).collect();
            legal.sort_unstable();
            let mask: Vec<usize> = (0..arr.masks.ncols()).filter(|&x| arr.masks[[r, x]]).collect();
            assert_eq!(mask, legal, "game {} ply {k}", g.game);
            let mv = parse_move(&rs, &pos, token).unwrap().mv;
            assert_eq!(arr.actions[r] as usize, space.encode(mv), "game {} ply {k}: the move played", g.game);
            assert!(arr.masks[[r, space.encode(mv)]]);
            if (pos.side_to_move() == Color::White) == (g.white == "greedy") {
                assert_eq!(arr.policy[[r, space.encode(mv)]], 1.0, "greedy rows are one-hot");
            }
            pos.play(mv);
        }
        let outcome = pos.outcome().expect("the game is over after its moves");
        assert_eq!((outcome.winner_text(), outcome.reason.name()), (g.winner.as_str(), g.reason.as_str()));
    }
    check_consistent(&dir, &rs);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_teacher_writes_soft_policy_rows_and_its_values() {
    let dir = scratch("teacher");
    let teacher = "alphabeta:nodes=300,soft=300";
    let mut a = args("kowalski", Some("6x6"), teacher, "greedy", 2, &dir);
    a.ply_cap = 60;
    a.light = true;
    run_dataset(&a).unwrap();
    let games = read_games(&dir);
    let read = |name: &str| dir.join(name);
    let offsets: Array1<i64> = read_npy(read(POLICY_OFFSETS_FILE)).unwrap();
    let acts: Array1<i32> = read_npy(read(POLICY_ACTIONS_FILE)).unwrap();
    let probs: Array1<f32> = read_npy(read(POLICY_PROBS_FILE)).unwrap();
    let values: Array1<f32> = read_npy(read(SEARCH_VALUES_FILE)).unwrap();
    let played: Array1<i32> = read_npy(read(ACTIONS_FILE)).unwrap();
    let players: Array1<i8> = read_npy(read(PLAYERS_FILE)).unwrap();
    assert!(!read(POLICY_FILE).exists(), "a light dataset has no dense policy");
    let (mut soft, mut teacher_rows) = (0, 0);
    for g in &games {
        for r in g.first_sample as usize..(g.first_sample + g.samples) as usize {
            let row: Vec<(i32, f32)> =
                (offsets[r] as usize..offsets[r + 1] as usize).map(|k| (acts[k], probs[k])).collect();
            let sum: f32 = row.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-5, "row {r} sums to {sum}");
            let by_teacher = (players[r] == 0) == (g.white == teacher);
            if by_teacher {
                teacher_rows += 1;
                assert!((-1.0..=1.0).contains(&values[r]), "row {r}: the teacher's value {}", values[r]);
                let best = row.iter().map(|&(_, p)| p).fold(0.0, f32::max);
                let mine = row.iter().find(|&&(x, _)| x == played[r]).map(|&(_, p)| p);
                assert_eq!(mine, Some(best), "row {r}: the move played has the most weight");
                soft += usize::from(row.len() > 1);
            } else {
                assert!(values[r].is_nan(), "row {r}: greedy gives no value");
                assert_eq!(row, vec![(played[r], 1.0)], "row {r}: one-hot");
            }
        }
    }
    assert!(teacher_rows > 10 && soft * 2 > teacher_rows, "{soft} soft rows of {teacher_rows}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn refuses_a_directory_that_holds_a_dataset() {
    let dir = scratch("refuse");
    let a = args("kowalski", Some("6x6"), "random", "greedy", 1, &dir);
    run_dataset(&a).unwrap();
    let before = std::fs::read(dir.join(GAMES_FILE)).unwrap();
    let e = run_dataset(&a).unwrap_err();
    assert!(matches!(e, ArenaError::Finished { .. }), "{e}");
    let e = e.to_string();
    assert!(
        e.contains("already holds a dataset") && e.contains("games.jsonl") && e.contains("another output folder"),
        "{e}"
    );
    assert_eq!(std::fs::read(dir.join(GAMES_FILE)).unwrap(), before, "the dataset is untouched");
    // An output path that is a file.
    let file = dir.join("meta.json");
    let e = error_of(&args("kowalski", Some("6x6"), "random", "greedy", 1, &file));
    assert!(e.contains("not a directory"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn same_arguments_give_the_same_files() {
    let (d1, d2, d3) = (scratch("same-1"), scratch("same-2"), scratch("same-3"));
    run_dataset(&args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d1)).unwrap();
    run_dataset(&args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d2)).unwrap();
    let mut other = args("kowalski", Some("6x6"), "greedy", "mcts:sims=8", 2, &d3);
    other.seed = 6;
    run_dataset(&other).unwrap();
    for name in [GAMES_FILE, OBSERVATIONS_FILE, LEGAL_MASKS_FILE, POLICY_FILE, VALUE_FILE, ACTIONS_FILE, PLIES_FILE] {
        assert_eq!(std::fs::read(d1.join(name)).unwrap(), std::fs::read(d2.join(name)).unwrap(), "{name}");
    }
    assert_ne!(std::fs::read(d1.join(GAMES_FILE)).unwrap(), std::fs::read(d3.join(GAMES_FILE)).unwrap());
    for d in [d1, d2, d3] {
        std::fs::remove_dir_all(&d).ok();
    }
}

#[test]
fn bad_inputs_are_clear_errors_and_write_nothing() {
    let out = scratch("bad-out");
    let cases = [
        ("alphazero", 1, vec!["white", "unknown agent 'alphazero'", "valid agents"]),
        ("mcts:sims=0", 1, vec!["white", "sims", "positive integer"]),
        ("mcts", 1, vec!["missing key 'sims'"]),
        ("random", 0, vec!["games must be at least 1"]),
    ];
    for (spec, games, needles) in cases {
        let e = error_of(&args("kowalski", Some("6x6"), spec, "random", games, &out));
        for n in needles {
            assert!(e.contains(n), "{spec}: '{e}' lacks '{n}'");
        }
        assert!(!out.exists(), "{spec}: nothing is written");
    }
    let e = error_of(&args("kowalski", Some("6x6"), "random", "greedy:x=1", 1, &out));
    assert!(e.starts_with("black: ") && e.contains("takes no parameters"), "{e}");
    let e = error_of(&args("no-such-ruleset", None, "random", "random", 1, &out));
    assert!(e.contains("no-such-ruleset"), "{e}");
}

#[test]
fn resuming_a_finished_dataset_checks_its_seed_and_ply_cap() {
    let dir = scratch("resume-finished");
    let mut a = args("kowalski", Some("6x6"), "random", "greedy", 2, &dir);
    a.ply_cap = 40;
    run_dataset(&a).unwrap();
    let before = std::fs::read(dir.join(GAMES_FILE)).unwrap();
    a.resume = true;
    assert!(matches!(run_dataset(&a).unwrap(), DatasetOutcome::Finished { games: 2 }));
    let mut other_cap = a.clone();
    other_cap.ply_cap = 80;
    let e = error_of(&other_cap);
    assert!(e.contains("meta.json") && e.contains("ply_cap 40") && e.contains("asks for 80"), "{e}");
    let mut other_seed = a.clone();
    other_seed.seed = 6;
    let e = error_of(&other_seed);
    assert!(e.contains("seed 5") && e.contains("asks for 6"), "{e}");
    assert_eq!(std::fs::read(dir.join(GAMES_FILE)).unwrap(), before, "the dataset is untouched");
    std::fs::remove_dir_all(&dir).ok();
}

//! Datasets of games of the `az` network player, through the arena with the player
//! factory of this program (the arena itself has no `az` kind).

use std::path::{Path, PathBuf};

use latrunculi_arena::dataset::{
    DatasetSpec, GAMES_FILE, GameLine, PLAYERS_FILE, POLICY_FILE, POLICY_OFFSETS_FILE, run_dataset,
};
use latrunculi_arena::game::RulesetChoice;
use latrunculi_rules::Ruleset;
use ndarray::{Array1, Array2};
use ndarray_npy::read_npy;

/// A fresh scratch directory (not created) for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-az-dataset-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn args(white: &str, black: &str, games: u32, out: &Path) -> DatasetSpec {
    DatasetSpec {
        ruleset: RulesetChoice {
            ruleset: "kowalski".parse().expect("a ruleset label"),
            board: Some("6x6".parse().expect("a board")),
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

/// Saves an untrained tiny network for `rs`'s board into `dir` and returns its path.
fn tiny_model(rs: &Ruleset, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let cfg = latrunculi_az::TrainConfig::default().network_config(rs).with_blocks(1).with_channels(4);
    let net = cfg.init(&latrunculi_az::device::inference());
    let meta = latrunculi_az::CheckpointMeta::new(&cfg, &rs.id, rs.params_hash(), 0);
    let path = dir.join(format!("tiny-{}x{}.az", rs.width, rs.height));
    latrunculi_az::checkpoint::save(&path, &net, &meta).unwrap();
    path
}

#[test]
fn bad_models_are_clear_errors_and_write_nothing() {
    let models = scratch("models");
    let small = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let model = tiny_model(&small, &models);
    let out = scratch("bad-model-out");
    let cases = [
        ("az:model=/nonexistent/x.az".to_string(), vec!["white", "/nonexistent/x.az"]),
        (format!("az:model={}", model.display()), vec!["5x5", "6x6", "board sizes must match"]),
    ];
    for (spec, needles) in cases {
        let e = run_dataset(&args(&spec, "random", 1, &out), &latrunculi_az::players()).expect_err("refused");
        let e = latrunculi_arena::error::full_message(&e);
        for n in needles {
            assert!(e.contains(n), "{spec}: '{e}' lacks '{n}'");
        }
        assert!(!out.exists(), "{spec}: nothing is written");
    }
    let e = run_dataset(&args("az:model=x.az", "random", 1, &out), &latrunculi_agents::Players::baseline())
        .expect_err("no az kind");
    assert!(latrunculi_arena::error::full_message(&e).contains("no networks"), "{e}");
    std::fs::remove_dir_all(&models).ok();
}

#[test]
fn az_rows_hold_visit_distributions() {
    let dir = scratch("az");
    let models = scratch("az-models");
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
    let model = tiny_model(&rs, &models);
    let spec = format!("az:model={},sims=12,leaves=4", model.display());
    run_dataset(&args(&spec, "random", 1, &dir), &latrunculi_az::players()).unwrap();
    let text = std::fs::read_to_string(dir.join(GAMES_FILE)).expect("games.jsonl");
    let games: Vec<GameLine> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON game line")).collect();
    let policy: Array2<f32> = read_npy(dir.join(POLICY_FILE)).expect("policy");
    let players: Array1<i8> = read_npy(dir.join(PLAYERS_FILE)).expect("players");
    let offsets: Array1<i64> = read_npy(dir.join(POLICY_OFFSETS_FILE)).expect("policy offsets");
    let g = &games[0];
    assert_eq!(g.white, spec);
    assert_eq!(offsets.len(), policy.nrows() + 1);
    let mut spread = 0;
    for r in g.first_sample as usize..(g.first_sample + g.samples) as usize {
        let row = policy.row(r);
        if players[r] == 0 && row.iter().filter(|&&p| p > 0.0).count() > 1 {
            spread += 1;
            assert!((row.sum() - 1.0).abs() < 1e-4, "row {r} sums to {}", row.sum());
        }
    }
    assert!(spread > 3, "az rows hold visit distributions ({spread})");
    std::fs::remove_dir_all(&dir).ok();
    std::fs::remove_dir_all(&models).ok();
}

//! The pieces added to make training work: the spatial policy head's action map on every
//! ruleset and board, the masked policy loss, the warm start's targets, the fixed ply
//! plane, and old checkpoints still loading.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use burn::prelude::*;
use latrunculi_az::policy::{HeadKind, PolicyMap};
use latrunculi_az::selfplay::Sample;
use latrunculi_az::train::{LossConfig, minibatch, policy_loss};
use latrunculi_az::{BoardTables, TrainConfig};
use latrunculi_rules::{Color, FastRng, Move, Position, Ruleset, Square};
use latrunculi_sim::ActionSpace;

/// Every board a ruleset offers: its own and its alternatives.
fn boards(rs: &Ruleset) -> Vec<Ruleset> {
    let mut out = vec![rs.clone()];
    for b in &rs.other_boards {
        let (w, h) = b.split_once('x').expect("WxH");
        out.push(rs.with_board(w.parse().unwrap(), h.parse().unwrap()).expect("an offered board"));
    }
    out
}

#[test]
fn the_spatial_head_maps_every_legal_action_to_one_logit_and_back() {
    let mut rng = FastRng::new(11);
    let mut checked = 0u64;
    for base in Ruleset::all_builtin() {
        for rs in boards(&base) {
            let space = ActionSpace::for_rules(&rs.rules());
            let tables = BoardTables::with(&rs, HeadKind::Spatial, 0);
            // The inverse map: logit -> relative action.
            let mut back: HashMap<usize, usize> = HashMap::new();
            for a in 0..space.size() {
                if let Some(l) = tables.policy.logit(a) {
                    assert!(back.insert(l, a).is_none(), "{}: logit {l} has two actions", rs.id);
                }
            }
            let mut seen_colour = [false; 2];
            for game in 0..6 {
                let mut pos = Position::new(&rs);
                pos.set_ply_cap(120 + game);
                while !pos.is_over() {
                    let me = pos.side_to_move();
                    seen_colour[me.index()] = true;
                    let legal = pos.legal_move_list();
                    let mut logits = Vec::new();
                    for &mv in &legal {
                        let rel = tables.relative(mv, me) as usize;
                        let l = tables
                            .logit(mv, me)
                            .unwrap_or_else(|| panic!("{}: move {mv:?} ({me:?}) has no logit", rs.id));
                        assert_eq!(back[&l], rel, "{}: logit {l} does not map back to {mv:?}", rs.id);
                        let abs = tables.frame.relative(back[&l], me);
                        assert_eq!(space.decode(abs).unwrap(), mv, "{}: round trip of {mv:?}", rs.id);
                        logits.push(l);
                        checked += 1;
                    }
                    logits.sort_unstable();
                    logits.dedup();
                    assert_eq!(logits.len(), legal.len(), "{}: two legal moves share a logit", rs.id);
                    pos.play(legal[rng.below(legal.len())]);
                }
            }
            assert_eq!(seen_colour, [true, true], "{}: both colours moved", rs.id);
        }
    }
    assert!(checked > 100_000, "only {checked} moves checked");
}

fn sample(obs_len: usize, policy: Vec<(u32, f32)>, legal: Vec<u32>) -> Sample {
    Sample {
        obs: (0..obs_len).map(|i| (i % 7) as f32 / 7.0).collect(),
        policy,
        value: 0.5,
        ply: 3,
        legal,
        score: 0.1,
        root_q: 0.0,
        policy_valid: true,
    }
}

#[test]
fn the_masked_loss_equals_the_plain_loss_when_every_output_is_legal() {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let device = latrunculi_az::device::inference();
    for kind in [HeadKind::Dense, HeadKind::Spatial] {
        let tables = BoardTables::with(&rs, kind, 0);
        let outputs = tables.outputs();
        let n = tables.actions();
        let logits: Vec<f32> = (0..2 * outputs).map(|i| ((i * 31) % 17) as f32 / 5.0 - 1.5).collect();
        let logits = || Tensor::<2>::from_data(TensorData::new(logits.clone(), [2, outputs]), &device);
        // Dense: "every output legal" is every action; spatial: a sample without a legal
        // list (every output counts).
        let all: Vec<u32> = if kind == HeadKind::Dense { (0..n as u32).collect() } else { Vec::new() };
        let samples = [
            sample(tables.obs_len(), vec![(5, 0.75), (40, 0.25)], all.clone()),
            sample(tables.obs_len(), vec![(7, 1.0)], all),
        ];
        let refs: Vec<&Sample> = samples.iter().collect();
        let base = LossConfig {
            batch_size: 2,
            learning_rate: 1e-3,
            mirror: false,
            masked_policy: false,
            score_weight: 1.0,
            value_q_mix: 0.0,
        };
        let plain = minibatch(&refs, &[0, 1], &tables, &[false, false], &base, &device);
        let masked_cfg = LossConfig { masked_policy: true, ..base };
        let masked = minibatch(&refs, &[0, 1], &tables, &[false, false], &masked_cfg, &device);
        let (lp, _) = policy_loss(logits(), &plain);
        let (lm, _) = policy_loss(logits(), &masked);
        let (lp, lm) = (lp.into_scalar::<f32>(), lm.into_scalar::<f32>());
        assert!((lp - lm).abs() < 1e-4, "{kind:?}: plain {lp} vs masked {lm}");
        // A real mask (two legal moves) gives a smaller loss: the softmax is over fewer.
        let few = [sample(tables.obs_len(), vec![(5, 1.0)], vec![5, 2])];
        let refs: Vec<&Sample> = few.iter().collect();
        let one = |cfg: &LossConfig| {
            let b = minibatch(&refs, &[0], &tables, &[false], cfg, &device);
            let row = Tensor::<2>::from_data(TensorData::new(vec![0.0f32; outputs], [1, outputs]), &device);
            policy_loss(row, &b).0.into_scalar::<f32>()
        };
        assert!((one(&masked_cfg) - 2f32.ln()).abs() < 1e-4, "{kind:?}: uniform over 2 legal moves");
        assert!((one(&base) - (outputs as f32).ln()).abs() < 1e-3, "{kind:?}: uniform over every output");
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-strength-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a two-file dataset (`games.jsonl`, `actions.npy`) of one game.
fn write_dataset(dir: &Path, rs: &Ruleset, moves: &[Move], winner: &str, hash: Option<String>) {
    let space = ActionSpace::for_rules(&rs.rules());
    let actions: Vec<i32> = moves.iter().map(|&m| space.encode(m) as i32).collect();
    ndarray_npy::write_npy(dir.join("actions.npy"), &ndarray::Array1::from(actions)).unwrap();
    let line = serde_json::json!({
        "game": 0, "params_hash": hash.unwrap_or_else(|| format!("{:016x}", rs.params_hash())),
        "board": [rs.width, rs.height], "winner": winner, "plies": moves.len(),
        "first_sample": 0, "samples": moves.len(), "moves": [], "ruleset": rs.id,
    });
    fs::write(dir.join("games.jsonl"), format!("{line}\n")).unwrap();
}

#[test]
fn warm_start_targets_land_on_the_relative_actions_of_each_side() {
    let rs = Ruleset::builtin("xxi").unwrap();
    let cfg = TrainConfig::default();
    let tables = BoardTables::with(&rs, HeadKind::Spatial, 0);
    let sq = |s: &str| s.parse::<Square>().unwrap();
    // White a1-a3, then Black b8-b5 (8 ranks): for Black, ranks are flipped, so the
    // network sees b1-b4.
    let moves = [Move::movement(sq("a1"), sq("a3")), Move::movement(sq("b8"), sq("b5"))];
    let dir = scratch("warm");
    write_dataset(&dir, &rs, &moves, "black", None);
    let games = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap();
    assert_eq!(games.len(), 1);
    let (winner, samples) = &games[0];
    assert_eq!(*winner, Some(Color::Black));
    assert_eq!(samples.len(), 2);
    let space = ActionSpace::for_rules(&rs.rules());
    let white = space.encode(moves[0]) as u32;
    let black_seen = space.encode(Move::movement(sq("b1"), sq("b4"))) as u32;
    assert_eq!(samples[0].policy, vec![(white, 1.0)]);
    assert_eq!(samples[1].policy, vec![(black_seen, 1.0)]);
    assert_eq!((samples[0].value, samples[1].value), (-1.0, 1.0), "Black won");
    for s in samples {
        assert!(s.legal.contains(&s.policy[0].0));
        assert!(tables.policy.logit(s.policy[0].0 as usize).is_some());
    }
    let mut p = Position::new(&rs);
    p.set_ply_cap(cfg.selfplay.ply_cap);
    p.play(moves[0]);
    assert_eq!(samples[1].obs, tables.observation(&p).unwrap());
    assert_eq!(samples[1].legal.len(), p.legal_move_list().len());

    // A move that is not legal, and a dataset of another ruleset, are errors naming them.
    write_dataset(&dir, &rs, &[moves[0], Move::movement(sq("a1"), sq("a2"))], "draw", None);
    let err = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap_err().to_string();
    assert!(err.contains("games.jsonl") && err.contains("move 2") && err.contains("not a legal move"), "{err}");
    write_dataset(&dir, &rs, &moves, "draw", Some("0123456789abcdef".into()));
    let err = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap_err().to_string();
    assert!(err.contains("another ruleset"), "{err}");
    fs::remove_dir_all(&dir).ok();
}

/// Adds a format-2 dataset's teacher files: sparse policy rows and the movers' values.
fn write_teacher_rows(dir: &Path, rs: &Ruleset, rows: &[Vec<(Move, f32)>], values: &[f32]) {
    let space = ActionSpace::for_rules(&rs.rules());
    let mut offsets = vec![0i64];
    let (mut acts, mut probs) = (Vec::new(), Vec::new());
    for row in rows {
        for &(m, p) in row {
            acts.push(space.encode(m) as i32);
            probs.push(p);
        }
        offsets.push(acts.len() as i64);
    }
    ndarray_npy::write_npy(dir.join("policy_offsets.npy"), &ndarray::Array1::from(offsets)).unwrap();
    ndarray_npy::write_npy(dir.join("policy_actions.npy"), &ndarray::Array1::from(acts)).unwrap();
    ndarray_npy::write_npy(dir.join("policy_probs.npy"), &ndarray::Array1::from(probs)).unwrap();
    ndarray_npy::write_npy(dir.join("search_values.npy"), &ndarray::Array1::from(values.to_vec())).unwrap();
}

#[test]
fn warm_start_learns_a_teachers_soft_policy_and_mixes_in_its_values() {
    let rs = Ruleset::builtin("xxi").unwrap();
    let tables = BoardTables::with(&rs, HeadKind::Spatial, 0);
    let space = ActionSpace::for_rules(&rs.rules());
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let m = |a: &str, b: &str| Move::movement(sq(a), sq(b));
    let moves = [m("a1", "a3"), m("b8", "b5")];
    let dir = scratch("teacher");
    write_dataset(&dir, &rs, &moves, "black", None);
    // White's row: a soft policy over two moves; Black's: one-hot, and no value (NaN).
    let rows = vec![vec![(m("a1", "a3"), 0.75), (m("c1", "c4"), 0.25)], vec![(m("b8", "b5"), 1.0)]];
    write_teacher_rows(&dir, &rs, &rows, &[0.5, f32::NAN]);
    let mut cfg = TrainConfig::default();
    cfg.warmstart.search_value_mix = 0.5;
    let games = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap();
    let samples = &games[0].1;
    let enc = |mv: Move| space.encode(mv) as u32;
    let mut white = samples[0].policy.clone();
    white.sort_by_key(|&(a, _)| a);
    let mut want = vec![(enc(m("a1", "a3")), 0.75), (enc(m("c1", "c4")), 0.25)];
    want.sort_by_key(|&(a, _)| a);
    assert_eq!(white, want, "White's soft row, in White's frame (unchanged)");
    assert_eq!(samples[1].policy, vec![(enc(m("b1", "b4")), 1.0)], "Black's row, ranks flipped");
    // White lost (-1) but its search said 0.5: mixed half and half; Black has no value.
    assert_eq!((samples[0].value, samples[1].value), (-0.25, 1.0));

    // Without the mix and without soft policies: the move played and the result only.
    cfg.warmstart.search_value_mix = 0.0;
    cfg.warmstart.soft_policy = false;
    let plain = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap();
    assert_eq!(plain[0].1[0].policy, vec![(enc(m("a1", "a3")), 1.0)]);
    assert_eq!((plain[0].1[0].value, plain[0].1[1].value), (-1.0, 1.0));

    // A row naming a move that is not legal, or not summing to 1, is an error naming it.
    cfg.warmstart.soft_policy = true;
    let bad = vec![vec![(m("a1", "a3"), 0.5), (m("a8", "a7"), 0.5)], vec![(m("b8", "b5"), 1.0)]];
    write_teacher_rows(&dir, &rs, &bad, &[0.0, 0.0]);
    let err = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap_err().to_string();
    assert!(err.contains("move 1") && err.contains("not a legal move"), "{err}");
    let bad = vec![vec![(m("a1", "a3"), 0.5)], vec![(m("b8", "b5"), 1.0)]];
    write_teacher_rows(&dir, &rs, &bad, &[0.0, 0.0]);
    let err = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).unwrap_err().to_string();
    assert!(err.contains("sums to 0.5"), "{err}");
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_fixed_ply_scale_makes_the_observation_independent_of_the_game_cap() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    let fixed = BoardTables::with(&rs, HeadKind::Spatial, 200);
    let per_game = BoardTables::with(&rs, HeadKind::Spatial, 0);
    let mut a = Position::new(&rs);
    let mut rng = FastRng::new(3);
    for _ in 0..30 {
        let legal = a.legal_move_list();
        a.play(legal[rng.below(legal.len())]);
    }
    let mut b = a.clone();
    a.set_ply_cap(200);
    b.set_ply_cap(1000);
    assert_eq!(fixed.observation(&a).unwrap(), fixed.observation(&b).unwrap());
    assert_eq!(per_game.observation(&a).unwrap(), fixed.observation(&a).unwrap());
    assert_ne!(per_game.observation(&b).unwrap(), fixed.observation(&b).unwrap());
}

#[test]
fn checkpoints_of_the_first_networks_still_load_and_play() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments/archive/az-kowalski/latest.az");
    let meta = latrunculi_az::checkpoint::read_meta(&path).unwrap();
    assert_eq!((meta.policy_planes, meta.score_head, meta.ply_scale), (0, false, 0), "a dense first network");
    let mut agent = az_agent(&format!("az:model={},sims=16", path.display()), &rs);
    agent.new_game(1);
    let pos = Position::new(&rs);
    assert!(pos.legal_move_list().contains(&agent.select(&pos)));
    // A spatial map has another number of outputs than the dense network.
    let space = ActionSpace::for_rules(&rs.rules());
    assert_ne!(PolicyMap::spatial(space).outputs(), meta.actions);
}

#[test]
fn a_network_with_tactical_planes_reads_them_saves_and_plays() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    let cfg = TrainConfig::from_toml_str(
        "ruleset = \"kowalski\"\n[network]\nblocks = 1\nchannels = 8\npolicy_head = \"spatial\"\ntactical_planes = true\n",
        "test",
    )
    .unwrap();
    let net_cfg = cfg.network_config(&rs);
    let extra = latrunculi_sim::NUM_TACTICAL_PLANES;
    assert_eq!(net_cfg.planes, latrunculi_sim::NUM_PLANES + extra);
    let tables = BoardTables::for_network(&rs, &net_cfg);
    assert_eq!(tables.shape[0], net_cfg.planes);
    // After a few random plies the tactical planes are those of the simulator's encoder.
    let mut pos = Position::new(&rs);
    let mut rng = FastRng::new(8);
    for _ in 0..40 {
        let legal = pos.legal_move_list();
        pos.play(legal[rng.below(legal.len())]);
    }
    let obs = tables.observation(&pos).unwrap();
    let enc = latrunculi_sim::ObservationEncoder::new(&rs).with_tactical(true);
    let mut want = ndarray::Array3::<f32>::zeros(enc.shape());
    enc.write(&pos, want.view_mut()).unwrap();
    assert_eq!(obs, want.into_raw_vec_and_offset().0);
    // Saved and loaded, the network is recognised as tactical and plays.
    let dir = scratch("tactical");
    let path = dir.join("t.az");
    let net = net_cfg.init(&latrunculi_az::device::training());
    let meta = latrunculi_az::checkpoint::CheckpointMeta::new(&net_cfg, &rs.id, rs.params_hash(), 0);
    latrunculi_az::checkpoint::save(&path, &net, &meta).unwrap();
    let mut agent = az_agent(&format!("az:model={},sims=8", path.display()), &rs);
    agent.new_game(1);
    assert!(pos.legal_move_list().contains(&agent.select(&pos)));
    fs::remove_dir_all(&dir).ok();
}

/// The agent of an `az` spec for games of `rs`.
fn az_agent(spec: &str, rs: &Ruleset) -> Box<dyn latrunculi_agents::Agent> {
    latrunculi_az::players().parse(spec).and_then(|s| s.build(Some(rs))).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

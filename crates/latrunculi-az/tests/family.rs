//! One network for a family of rulesets (`family = [...]` in a training configuration):
//! its rule planes, its policy over each member's moves, a tiny run end to end, and the
//! rulesets it refuses.

use std::fs;
use std::path::PathBuf;

use latrunculi_az::train::{RunOptions, run};
use latrunculi_az::{BoardTables, Evaluator, TrainConfig};
use latrunculi_rules::{Color, FastRng, Position, Ruleset};
use latrunculi_sim::ActionSpace;

mod common;
use common::write_dataset;

const XXI_FAMILY: [&str; 3] = ["classical", "single-stone-xxi", "petteia-xxi"];

fn family_config(board: &str) -> TrainConfig {
    let mut cfg = TrainConfig {
        ruleset: "xxi".into(),
        board: board.into(),
        family: XXI_FAMILY.iter().map(|s| s.to_string()).collect(),
        ..TrainConfig::default()
    };
    cfg.network.policy_head = "spatial".into();
    cfg.network.tactical_planes = true;
    cfg
}

#[test]
fn the_rule_planes_differ_between_rulesets_and_the_policy_maps_every_legal_action_of_each() {
    let cfg = family_config("10x8");
    let members = cfg.load_family(None).expect("the XXI family on 10x8");
    assert_eq!(members.len(), 4);
    let net_cfg = cfg.family_network_config(&members).unwrap();
    let features = net_cfg.rule_features.clone();
    assert!(!features.is_empty());
    let single = cfg.network_config(&members[0]);
    assert_eq!(net_cfg.planes, single.planes + features.len(), "one plane per rule feature");
    let tables: Vec<BoardTables> = members.iter().map(|r| BoardTables::for_network(r, &net_cfg)).collect();
    let mut planes_of = Vec::new();
    for (r, t) in members.iter().zip(&tables) {
        assert_eq!(t.shape, tables[0].shape, "{}: one input shape for the family", r.id);
        assert_eq!(t.outputs(), net_cfg.actions, "{}: one policy head", r.id);
        let space = ActionSpace::for_rules(&r.rules());
        let [p, h, w] = t.shape;
        let rule_from = p - features.len();
        let mut rng = FastRng::new(11);
        let mut seen = [false; 2];
        let mut rule_planes = None;
        for game in 0..3 {
            let mut pos = Position::new(r);
            pos.set_ply_cap(60);
            while !pos.is_over() {
                let me = pos.side_to_move();
                seen[me.index()] = true;
                let obs = t.observation(&pos).unwrap();
                // The rule planes: constant, the same at every position of the ruleset.
                let planes: Vec<f32> = (rule_from..p).map(|k| obs[k * h * w]).collect();
                for k in rule_from..p {
                    assert!(obs[k * h * w..(k + 1) * h * w].iter().all(|&v| v == obs[k * h * w]), "{} plane {k}", r.id);
                }
                assert_eq!(*rule_planes.get_or_insert_with(|| planes.clone()), planes, "{}", r.id);
                // Every legal action has its own logit, whichever side moves.
                let legal = pos.legal_move_list();
                let mut logits: Vec<usize> = legal
                    .iter()
                    .map(|&m| {
                        t.logit(m, me).unwrap_or_else(|| {
                            panic!("{} game {game}: {m:?} (action {}) has no logit", r.id, space.encode(m))
                        })
                    })
                    .collect();
                logits.sort_unstable();
                logits.dedup();
                assert_eq!(logits.len(), legal.len(), "{}: two legal moves share a logit", r.id);
                let mv = legal[rng.below(legal.len())];
                pos.play(mv);
            }
        }
        assert_eq!(seen, [true, true], "{}: both colours moved", r.id);
        planes_of.push(rule_planes.expect("positions were seen"));
    }
    for i in 0..planes_of.len() {
        for j in i + 1..planes_of.len() {
            assert_ne!(planes_of[i], planes_of[j], "{} and {} read the same rule planes", members[i].id, members[j].id);
        }
    }
    // A network of the family evaluates every member's observations.
    let net = net_cfg.clone().with_blocks(1).with_channels(4).init(&latrunculi_az::device::inference());
    for (r, t) in members.iter().zip(&tables) {
        let obs = t.observation(&Position::new(r)).unwrap();
        net.evaluate(obs, 1, t.shape).unwrap_or_else(|e| panic!("{}: {e}", r.id));
    }
}

#[test]
fn a_family_member_that_repeats_another_or_does_not_fit_is_a_clear_error() {
    let mut cfg = family_config("10x8");
    cfg.family.push("xxi".into());
    let e = cfg.load_family(None).unwrap_err().to_string();
    assert!(e.contains("family: xxi has the same rules as xxi"), "{e}");
    let mut cfg = family_config("10x8");
    cfg.family = vec!["no-such-ruleset".into()];
    let e = cfg.load_family(None).unwrap_err().to_string();
    assert!(e.contains("family: no-such-ruleset"), "{e}");
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-family-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_family_run_trains_one_network_that_plays_each_member_and_refuses_other_rules() {
    let dir = scratch("run");
    let data = scratch("data");
    let base = family_config("10x8");
    let members = base.load_family(None).unwrap();
    // A warm-start dataset of the second member goes to that member.
    write_dataset(&data.join("classical"), &members[1], members[1].params_hash(), 12);
    let config = format!(
        r#"
ruleset = "xxi"
board = "10x8"
family = ["classical", "single-stone-xxi", "petteia-xxi"]
seed = 3
iterations = 1

[network]
blocks = 1
channels = 4
policy_head = "spatial"

[selfplay]
games_per_iteration = 5
parallel_games = 5
sims = 4
ply_cap = 24

[training]
batch_size = 8
steps_per_iteration = 2

[evaluation]
games = 0

[warmstart]
datasets = ["{}"]
steps = 2
batch_size = 8
"#,
        data.join("classical").display()
    );
    let opts = RunOptions { resume: false, rules_dir: None, quiet: true };
    let state = run(&config, "family.toml", &dir, &opts).expect("a family run");
    assert_eq!(state.iteration, 1);
    // Warm start (1 game), then 5 self-play games shared out among the 4 rulesets.
    assert_eq!(state.games, 1 + 5);
    let model = dir.join("latest.az");
    let meta = latrunculi_az::checkpoint::read_meta(&model).unwrap();
    assert_eq!(meta.family.len(), 4);
    assert!(!meta.rule_features.is_empty());
    let players = latrunculi_az::players();
    let spec = format!("az:model={},sims=4", model.display());
    for r in &members {
        let mut agent = players.parse(&spec).unwrap().build(Some(r)).unwrap_or_else(|e| panic!("{}: {e}", r.id));
        agent.new_game(1);
        let mut pos = Position::new(r);
        for _ in 0..4 {
            if pos.is_over() {
                break;
            }
            let mv = agent.select(&pos);
            assert!(pos.legal_move_list().contains(&mv), "{}", r.id);
            pos.play(mv);
        }
        assert!(matches!(pos.side_to_move(), Color::White | Color::Black));
    }
    // Rules outside the family, on the same board: refused, naming the family.
    let other = Ruleset::builtin("kowalski").unwrap().with_board(10, 8).unwrap();
    let e = players.parse(&spec).unwrap().build(Some(&other)).err().expect("refused").to_string();
    assert!(e.contains("family") && e.contains("classical") && e.contains("anyrules=1"), "{e}");

    // A dataset of rules outside the family is an error naming it.
    let foreign = scratch("foreign");
    let stray = scratch("stray-run");
    write_dataset(&foreign, &members[1], other.params_hash(), 4);
    let bad = config.replace(&data.join("classical").display().to_string(), &foreign.display().to_string());
    let e = run(&bad, "family.toml", &stray, &opts).unwrap_err().to_string();
    assert!(e.contains("games.jsonl") && e.contains("none of the rulesets trained"), "{e}");
    for d in [dir, data, foreign, stray] {
        fs::remove_dir_all(&d).ok();
    }
}

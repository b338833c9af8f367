//! A tiny training run end to end (seconds), resuming a stopped run, and the errors a
//! user meets: an occupied run folder, a changed config, bad agent specs and models.

use std::fs;
use std::path::PathBuf;

use latrunculi_agents::{Agent, AgentError};
use latrunculi_az::train::{LOG_HEADER, RunOptions, run};
use latrunculi_rules::{Position, Ruleset};

mod common;

/// Builds an agent from its spec, `az` included, for games of `rs`.
fn parse_agent(spec: &str, rs: &Ruleset) -> Result<Box<dyn Agent>, AgentError> {
    latrunculi_az::players().parse(spec)?.build(Some(rs))
}

const TINY: &str = r#"
ruleset = "kowalski"
board = "5x5"
seed = 7
iterations = 2

[network]
blocks = 1
channels = 8

[selfplay]
games_per_iteration = 4
parallel_games = 4
sims = 8
ply_cap = 60

[training]
batch_size = 16
steps_per_iteration = 3

[evaluation]
games = 2
sims = 8
"#;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-az-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

fn quiet(resume: bool) -> RunOptions {
    RunOptions { resume, rules_dir: None, quiet: true }
}

fn log_iterations(dir: &std::path::Path) -> Vec<u32> {
    let text = fs::read_to_string(dir.join("train_log.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(LOG_HEADER));
    lines.map(|l| l.split(',').next().unwrap().parse().unwrap()).collect()
}

#[test]
fn a_tiny_run_trains_checkpoints_and_resumes() {
    let dir = scratch("run");
    let state = run(TINY, "tiny.toml", &dir, &quiet(false)).unwrap();
    assert_eq!(state.iteration, 2);
    assert_eq!(state.games, 8);
    assert_eq!(log_iterations(&dir), vec![1, 2]);
    for f in ["config.toml", "latest.az", "optimizer-0002.bin", "buffer-0002.bin", "state.toml"] {
        assert!(dir.join(f).is_file(), "{f}");
    }
    // Only the committed iteration's optimizer and buffer are kept.
    assert!(!dir.join("optimizer-0001.bin").exists() && !dir.join("buffer-0001.bin").exists());
    for it in 0..=2 {
        assert!(dir.join(format!("checkpoints/iter-{it:04}.az")).is_file());
    }
    // Every row is complete; losses are numbers; the match ran at the last iteration.
    let text = fs::read_to_string(dir.join("train_log.csv")).unwrap();
    let last: Vec<&str> = text.lines().last().unwrap().split(',').collect();
    assert_eq!(last.len(), LOG_HEADER.split(',').count());
    assert!(last[4].parse::<f64>().unwrap() > 0.0, "policy loss");
    let score: f64 = last[11].parse().unwrap();
    assert!((0.0..=1.0).contains(&score));

    // The trained network plays through the agent spec.
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let spec = format!("az:model={},sims=8", dir.join("latest.az").display());
    let mut agent = parse_agent(&spec, &rs).unwrap();
    agent.new_game(1);
    let p = Position::new(&rs);
    assert!(p.is_legal(agent.select(&p)));

    // A second start without --resume refuses to touch the run.
    let err = run(TINY, "tiny.toml", &dir, &quiet(false)).unwrap_err().to_string();
    assert!(err.contains("--resume"), "{err}");
    // A changed configuration is refused on resume.
    let changed = TINY.replace("iterations = 2", "iterations = 2\ntime_limit_s = 5");
    let err = run(&changed, "other.toml", &dir, &quiet(true)).unwrap_err().to_string();
    assert!(err.contains("differs"), "{err}");

    // Simulate a crash during iteration 2, after its files were written but before its
    // commit: the commit point says 1, iteration 1's optimizer and buffer are there
    // (taken from a one-iteration run of the same seed), a half-written row.
    let one = scratch("run-one");
    run(&TINY.replace("iterations = 2", "iterations = 1"), "one.toml", &one, &quiet(true)).unwrap();
    for f in ["optimizer-0001.bin", "buffer-0001.bin"] {
        fs::copy(one.join(f), dir.join(f)).unwrap();
    }
    fs::remove_dir_all(&one).ok();
    fs::write(
        dir.join("state.toml"),
        fs::read_to_string(dir.join("state.toml")).unwrap().replace("iteration = 2", "iteration = 1"),
    )
    .unwrap();
    let mut log = fs::read_to_string(dir.join("train_log.csv")).unwrap();
    log.push_str("3,12,4");
    fs::write(dir.join("train_log.csv"), log).unwrap();
    let state = run(TINY, "tiny.toml", &dir, &quiet(true)).unwrap();
    assert_eq!(state.iteration, 2);
    assert_eq!(log_iterations(&dir), vec![1, 2]);
    assert!(!dir.join("buffer-0001.bin").exists(), "the older buffer is removed after the commit");
    // Resuming a finished run does nothing more.
    let again = run(TINY, "tiny.toml", &dir, &quiet(true)).unwrap();
    assert_eq!(again.iteration, 2);
    assert_eq!(log_iterations(&dir), vec![1, 2]);
    fs::remove_dir_all(&dir).ok();
}

#[test]
fn bad_az_specs_and_models_are_clear_errors() {
    let rs = Ruleset::builtin("kowalski").unwrap();
    let err = |spec: &str| parse_agent(spec, &rs).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err("az:model=/nonexistent/x.az").contains("/nonexistent/x.az"));
    assert!(err("az:sims=10").contains("model"));
    assert!(err("az").contains("model"));
    assert!(err("az:model=a.az,speed=3").contains("speed"));
    assert!(err("az:model=a.az,sims=0").contains("sims"));
    let unknown = err("alphazero");
    assert!(unknown.contains("unknown agent") && unknown.contains("az:model=PATH[,sims=N]"), "{unknown}");
    assert!(parse_agent("mcts:sims=10", &rs).is_ok());

    // A model made for another board size.
    let dir = scratch("board");
    fs::create_dir_all(&dir).unwrap();
    let small = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let cfg = latrunculi_az::TrainConfig::default().network_config(&small).with_blocks(1).with_channels(4);
    let net = cfg.init(&latrunculi_az::device::inference());
    let meta = latrunculi_az::CheckpointMeta::new(&cfg, "kowalski", small.params_hash(), 0);
    let path = dir.join("small.az");
    latrunculi_az::checkpoint::save(&path, &net, &meta).unwrap();
    let e = err(&format!("az:model={}", path.display()));
    assert!(e.contains("5x5") && e.contains("12x8"), "{e}");
    // A truncated model file.
    let bytes = fs::read(&path).unwrap();
    fs::write(&path, &bytes[..bytes.len() / 3]).unwrap();
    let e = parse_agent(&format!("az:model={}", path.display()), &small).err().unwrap().to_string();
    assert!(e.contains("truncated") && e.contains("small.az"), "{e}");
    fs::remove_dir_all(&dir).ok();
}

/// A warm-start-only run of kowalski on 5×5 (`iterations = 0`): `steps` at most, and
/// `limit_s` seconds of warm start (0: none).
fn warm_start_only(data: &std::path::Path, steps: u32, limit_s: u64) -> String {
    format!(
        r#"
ruleset = "kowalski"
board = "5x5"
seed = 2
iterations = 0

[network]
blocks = 1
channels = 4

[selfplay]
ply_cap = 40

[warmstart]
datasets = ["{}"]
steps = {steps}
time_limit_s = {limit_s}
batch_size = 8
"#,
        data.display()
    )
}

/// The `steps` column of a run's log, row by row.
fn logged_steps(dir: &std::path::Path) -> Vec<u64> {
    let text = fs::read_to_string(dir.join("train_log.csv")).unwrap();
    text.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect()
}

#[test]
fn a_warm_start_alone_takes_its_steps_or_stops_at_its_time_limit() {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let data = scratch("warm-data");
    common::write_dataset(&data, &rs, rs.params_hash(), 30);
    // All its steps without a time limit; no self-play; the warm start is the network.
    let dir = scratch("warm-steps");
    let state = run(&warm_start_only(&data, 7, 0), "warm.toml", &dir, &quiet(false)).unwrap();
    assert_eq!((state.iteration, state.games), (0, 1));
    assert_eq!(log_iterations(&dir), vec![0]);
    assert_eq!(logged_steps(&dir), vec![7]);
    assert!(dir.join("latest.az").is_file() && dir.join("checkpoints/iter-0000.az").is_file());
    assert!(!dir.join("checkpoints/iter-0001.az").exists(), "no self-play iteration");
    // Resuming it does nothing more.
    let again = run(&warm_start_only(&data, 7, 0), "warm.toml", &dir, &quiet(true)).unwrap();
    assert_eq!((again.iteration, logged_steps(&dir)), (0, vec![7]));
    // Far more steps than a second holds: the time limit stops it, and the log says
    // how many were taken.
    let timed = scratch("warm-timed");
    let state = run(&warm_start_only(&data, 100_000_000, 1), "warm.toml", &timed, &quiet(true)).unwrap();
    assert_eq!(state.iteration, 0);
    let steps = logged_steps(&timed);
    assert!(steps.len() == 1 && steps[0] >= 1 && steps[0] < 100_000_000, "{steps:?}");
    // No iterations and no warm start: nothing to do, which the configuration says.
    let none = warm_start_only(&data, 7, 0).replace("[warmstart]", "[unused]");
    let none = none.split("[unused]").next().unwrap().to_string();
    let err = run(&none, "none.toml", &scratch("warm-none"), &quiet(true)).unwrap_err().to_string();
    assert!(err.contains("iterations must be at least 1") && err.contains("none.toml"), "{err}");
    for d in [data, dir, timed] {
        fs::remove_dir_all(&d).ok();
    }
}

/// The outputs of the network in `path` on one observation of ones.
fn outputs_on_ones(path: &std::path::Path) -> Vec<f32> {
    let (meta, net) = latrunculi_az::checkpoint::load(path, &latrunculi_az::device::inference()).unwrap();
    let shape = [meta.planes, meta.height, meta.width];
    let e = net.infer(vec![1.0; shape.iter().product()], 1, shape).unwrap();
    e.logits.into_iter().chain(e.values).chain(e.scores).collect()
}

#[test]
fn a_run_starts_from_a_trained_network_of_its_shape_and_rules_only() {
    let first = scratch("init-first");
    run(&TINY.replace("iterations = 2", "iterations = 1"), "first.toml", &first, &quiet(true)).unwrap();
    let trained = first.join("latest.az");
    // A second run from it: its iteration 0 is that network, not an untrained one.
    let from = |path: &std::path::Path, config: &str| {
        config.replace("seed = 7\n", &format!("seed = 7\ninit_network = \"{}\"\n", path.display()))
    };
    let second = scratch("init-second");
    let state = run(&from(&trained, TINY), "second.toml", &second, &quiet(true)).unwrap();
    assert_eq!(state.iteration, 2);
    let start = outputs_on_ones(&second.join("checkpoints/iter-0000.az"));
    assert_eq!(start, outputs_on_ones(&trained), "iteration 0 is the network it started from");
    let fresh = scratch("init-fresh");
    run(&TINY.replace("iterations = 2", "iterations = 1"), "fresh.toml", &fresh, &quiet(true)).unwrap();
    let untrained = outputs_on_ones(&fresh.join("checkpoints/iter-0000.az"));
    assert_ne!(start, untrained, "an untrained network of the same seed differs from the trained one");
    // Another ruleset with the same shape (kowalski-parcae has kowalski's board and
    // pieces), another network shape and a missing file are refused, naming the file.
    for (config, words) in [
        (
            from(&trained, TINY).replace("ruleset = \"kowalski\"", "ruleset = \"kowalski-parcae\""),
            "trained on kowalski",
        ),
        (from(&trained, TINY).replace("channels = 8", "channels = 4"), "is not the one"),
        (from(&first.join("missing.az"), TINY), "missing.az"),
    ] {
        let refused = scratch("init-refused");
        let e = run(&config, "other.toml", &refused, &quiet(true)).unwrap_err().to_string();
        assert!(e.contains(words) && (e.contains("latest.az") || e.contains("missing.az")), "{e}");
        assert!(!refused.exists(), "nothing is written for a refused start");
    }
    for d in [first, second, fresh, scratch("init-refused")] {
        fs::remove_dir_all(&d).ok();
    }
}

//! Killed runs lose nothing: `survey`, `eval --resume` and `ladder --resume` are started,
//! killed with SIGKILL at several moments, resumed (and killed again), and their final
//! files must equal those of an uninterrupted run byte for byte.
//!
//! The kill moments are spread over the uninterrupted run's wall-clock time, so some land
//! before the first write, some between writes and some after the end.
//! `LATRUNCULI_KILLS` (default 4) sets the kills per command.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn scratch_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("kill-resume").join(name)
}

fn kills() -> u32 {
    std::env::var("LATRUNCULI_KILLS").ok().and_then(|v| v.parse().ok()).unwrap_or(4)
}

fn scratch(name: &str) -> PathBuf {
    let dir = scratch_path(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs the binary with `args` to the end; its wall-clock time.
fn run_to_end(args: &[String]) -> Duration {
    let t = Instant::now();
    let o = Command::new(env!("CARGO_BIN_EXE_latrunculi")).args(args).output().expect("the binary runs");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    t.elapsed()
}

/// Starts the binary and kills it (SIGKILL) after `after`, unless it ended before.
fn run_and_kill(args: &[String], after: Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_latrunculi"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let t = Instant::now();
    while t.elapsed() < after {
        if child.try_wait().expect("wait").is_some() {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// For each kill moment: a fresh folder, a run killed at that moment, a second run
/// (with `resume` arguments) killed at half of it, then a resumed run to the end; the
/// files must equal the uninterrupted run's.
/// `progress` is the file whose lines grow as the run goes (to count the kills that
/// interrupted it half-way).
fn check(name: &str, make_args: &dyn Fn(&Path, bool) -> Vec<String>, files: &[&str], progress: &str) {
    let dir = scratch(name);
    let whole = dir.join("whole");
    let took = run_to_end(&make_args(&whole, false));
    let kills = kills();
    let mut state = 0x9E37_79B9_7F4A_7C15u64 ^ name.len() as u64;
    let mut partial = 0;
    for k in 0..kills {
        // Spread over [0, 1.2 × the whole run], jittered.
        state = latrunculi_rules::splitmix64(state);
        let frac = (k as f64 + (state % 1000) as f64 / 1000.0) / kills as f64 * 1.2;
        let at = took.mul_f64(frac);
        let out = dir.join(format!("kill-{k}"));
        run_and_kill(&make_args(&out, false), at);
        // What the kill left: nothing, a part, or everything (by the lines of the file
        // that grows with the run).
        let lines = |d: &Path| std::fs::read_to_string(d.join(progress)).map(|t| t.lines().count()).ok();
        // (A progress file the finished run removes, like dataset's journal, counts by
        // its presence.)
        partial += usize::from(match (lines(&out), lines(&whole)) {
            (Some(n), Some(m)) => n < m,
            (Some(_), None) => true,
            _ => false,
        });
        run_and_kill(&make_args(&out, true), at / 2);
        run_to_end(&make_args(&out, true));
        if files.is_empty() {
            continue;
        }
        for f in files {
            // A file that names its own folder (dataset's meta.json) is compared with
            // that name put back.
            let name_back = |b: Vec<u8>| match String::from_utf8(b) {
                Ok(t) => t.replace(out.to_str().unwrap(), whole.to_str().unwrap()).into_bytes(),
                Err(e) => e.into_bytes(),
            };
            let (a, b) = (std::fs::read(whole.join(f)).unwrap(), std::fs::read(out.join(f)).map(name_back));
            assert_eq!(Some(a), b.ok(), "{name}: {f} differs after a kill at {at:?} (run took {took:?})");
        }
    }
    eprintln!("{name}: {kills} kills over a {took:?} run, {partial} left partial files");
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn killed_survey_resumes_to_identical_files() {
    let dir = scratch("survey-config");
    let config = dir.join("survey.toml");
    std::fs::write(
        &config,
        "rulesets = [\"kowalski@6x6\", \"xxi@6x6\"]\npairings = [[\"greedy\", \"mcts:sims=30\"], [\"random\", \"greedy\"]]\n\
         games = 16\nseed = 3\nswap = true\nply_cap = 200\n",
    )
    .unwrap();
    let make = |out: &Path, _resume: bool| {
        s(&["survey", "--config", config.to_str().unwrap(), "--out", out.to_str().unwrap()])
    };
    check("survey", &make, &["games.csv", "summary.csv"], "games.csv");
}

#[test]
fn killed_eval_resumes_to_identical_files() {
    let make = |out: &Path, resume: bool| {
        let mut a = s(&[
            "eval",
            "-r",
            "kowalski",
            "--board",
            "6x6",
            "--agent",
            "mcts:sims=30",
            "--vs",
            "greedy,random",
            "--games",
            "40",
            "--ply-cap",
            "200",
            "--seed",
            "4",
        ]);
        a.extend(s(&["--out", out.join("eval.csv").to_str().unwrap(), "--games-out"]));
        a.push(out.join("games.csv").to_str().unwrap().to_string());
        if resume {
            a.push("--resume".into());
        }
        a
    };
    check("eval", &make, &["eval.csv", "games.csv"], "games.csv");
}

#[test]
fn killed_ladder_resumes_to_identical_files() {
    let dir = scratch("ladder-agents");
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\nmcts:sims=20\nalphabeta:depth=1\n").unwrap();
    let make = |out: &Path, resume: bool| {
        let mut a = s(&[
            "ladder",
            "-r",
            "kowalski",
            "--board",
            "6x6",
            "--agents",
            agents.to_str().unwrap(),
            "--games",
            "8",
            "--ply-cap",
            "200",
            "--out",
            out.to_str().unwrap(),
        ]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    check("ladder", &make, &["games.csv", "pairings.csv", "ratings.csv", "ratings.svg"], "games.csv");
}

/// `train_log.csv` without its timing columns (throughput and elapsed seconds).
fn log_without_timings(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let keep: Vec<usize> =
        (0..header.len()).filter(|&i| !header[i].ends_with("_per_s") && header[i] != "elapsed_s").collect();
    text.lines()
        .map(|l| keep.iter().map(|&i| l.split(',').nth(i).unwrap_or("?")).collect::<Vec<_>>().join(","))
        .collect()
}

#[test]
fn killed_training_resumes_to_the_same_network() {
    let dir = scratch("train-config");
    let config = dir.join("tiny.toml");
    std::fs::write(
        &config,
        "ruleset = \"kowalski\"\nboard = \"5x5\"\nseed = 7\niterations = 3\n\n[network]\nblocks = 1\nchannels = 8\n\n\
         [selfplay]\ngames_per_iteration = 6\nparallel_games = 6\nsims = 8\nply_cap = 60\n\n\
         [training]\nbatch_size = 16\nsteps_per_iteration = 4\n\n[evaluation]\ngames = 2\nsims = 8\n",
    )
    .unwrap();
    let make = |out: &Path, resume: bool| {
        let mut a = s(&["train", "--config", config.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    // Checkpoint bytes hold burn's random parameter ids, and the log and state.toml hold
    // timings, so what must be equal is checked below: the log's other columns (losses,
    // games, samples: the same self-play games and minibatches, no iteration lost or
    // repeated) and the final network's outputs.
    check("train", &make, &[], "train_log.csv");
    let dir = scratch_path("train");
    let whole = log_without_timings(&dir.join("whole/train_log.csv"));
    assert_eq!(whole.len(), 4, "header and three iterations");
    let rs = latrunculi_rules::Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let outputs = |run: &Path| {
        let device = latrunculi_az::device::inference();
        let (meta, net) = latrunculi_az::checkpoint::load(&run.join("latest.az"), &device).expect("latest.az loads");
        assert_eq!(meta.iteration, 3);
        let tables = latrunculi_az::BoardTables::for_network(&rs, &meta.network_config());
        let obs = tables.observation(&latrunculi_rules::Position::new(&rs)).unwrap();
        let e = net.infer(obs, 1, tables.shape).unwrap();
        (e.logits, e.values)
    };
    let reference = outputs(&dir.join("whole"));
    for k in 0..kills() {
        let run = dir.join(format!("kill-{k}"));
        assert_eq!(log_without_timings(&run.join("train_log.csv")), whole, "kill {k}: train_log.csv");
        assert_eq!(outputs(&run), reference, "kill {k}: the final network");
    }
}

#[test]
fn killed_dataset_resumes_to_identical_files() {
    let make = |out: &Path, resume: bool| {
        let mut a = s(&[
            "dataset",
            "-r",
            "kowalski",
            "--board",
            "6x6",
            "--white",
            "mcts:sims=30",
            "--black",
            "greedy",
            "--games",
            "24",
            "--swap",
            "--ply-cap",
            "150",
            "--seed",
            "8",
            "--out",
            out.to_str().unwrap(),
        ]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    let files = [
        "games.jsonl",
        "meta.json",
        "observations.npy",
        "legal_masks.npy",
        "policy_targets.npy",
        "value_targets.npy",
        "actions.npy",
        "plies.npy",
        "games.npy",
        "players.npy",
    ];
    check("dataset", &make, &files, "partial.jsonl");
    // The journal is gone once the dataset is complete.
    assert!(!scratch_path("dataset").join("whole/partial.jsonl").exists());
}

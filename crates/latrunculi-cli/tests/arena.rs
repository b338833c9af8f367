//! End-to-end tests of `latrunculi eval` and `latrunculi ladder` through the binary:
//! the files they write, a small AlphaZero model in a ladder, and the errors a user meets
//! (unknown agent, missing model, a model for another board, existing output).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use latrunculi_rules::Ruleset;

fn latrunculi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_latrunculi")).args(args).output().expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("arena-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn rows(path: &Path) -> Vec<Vec<String>> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(|x| x.unwrap().iter().map(String::from).collect()).collect()
}

/// Saves an untrained 1-block network for `ruleset` (resized to `board`) to `path`.
fn tiny_model(path: &Path, board: (u8, u8)) {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(board.0, board.1).unwrap();
    let cfg = latrunculi_az::TrainConfig::default().network_config(&rs).with_blocks(1).with_channels(4);
    let net = cfg.init(&latrunculi_az::device::inference());
    let meta = latrunculi_az::CheckpointMeta::new(&cfg, "kowalski", rs.params_hash(), 0);
    latrunculi_az::checkpoint::save(path, &net, &meta).unwrap();
}

#[test]
fn eval_writes_one_row_per_opponent_and_the_games() {
    let dir = scratch("eval");
    let out = dir.join("eval.csv");
    let games = dir.join("games.csv");
    let args = [
        "eval",
        "--ruleset",
        "petteia-xxi",
        "--agent",
        "greedy",
        "--vs",
        "random,mcts:sims=10,depth=30",
        "--games",
        "6",
        "--seed",
        "3",
        "--ply-cap",
        "300",
    ];
    let o =
        latrunculi(&[&args[..], &["--out", out.to_str().unwrap(), "--games-out", games.to_str().unwrap()]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let r = rows(&out);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0][2], "random");
    assert_eq!(r[1][2], "mcts:sims=10,depth=30");
    for row in &r {
        let (g, w, d, l): (u32, u32, u32, u32) =
            (row[3].parse().unwrap(), row[4].parse().unwrap(), row[5].parse().unwrap(), row[6].parse().unwrap());
        assert_eq!((g, w + d + l), (6, 6));
        let score: f64 = row[7].parse().unwrap();
        assert!((score - (w as f64 + d as f64 / 2.0) / 6.0).abs() < 1e-4);
        let (lo, hi): (f64, f64) = (row[8].parse().unwrap(), row[9].parse().unwrap());
        assert!(lo <= score && score <= hi);
    }
    let g = rows(&games);
    assert_eq!(g.len(), 12);
    // The evaluated agent alternates colours.
    assert_eq!((g[0][4].as_str(), g[1][5].as_str()), ("greedy", "greedy"));
    // The same command again refuses to replace the results; --force replaces them identically.
    let again = latrunculi(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
    assert!(!again.status.success());
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    let first = std::fs::read_to_string(&out).unwrap();
    let forced = latrunculi(
        &[&args[..], &["--out", out.to_str().unwrap(), "--games-out", games.to_str().unwrap(), "--force"]].concat(),
    );
    assert!(forced.status.success(), "{}", stderr(&forced));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), first);
}

#[test]
fn eval_errors_name_the_agent_model_or_board() {
    let dir = scratch("eval-errors");
    let out = dir.join("e.csv");
    let o = out.to_str().unwrap();
    let run = |agent: &str, vs: &str| {
        latrunculi(&["eval", "--ruleset", "kowalski", "--agent", agent, "--vs", vs, "--out", o])
    };
    let e = run("greedy", "random,alphazero");
    assert!(
        !e.status.success() && stderr(&e).contains("alphazero") && stderr(&e).contains("unknown agent"),
        "{}",
        stderr(&e)
    );
    let e = run("az:model=/nonexistent/net.az", "random");
    assert!(stderr(&e).contains("/nonexistent/net.az"), "{}", stderr(&e));
    let small = dir.join("small.az");
    tiny_model(&small, (5, 5));
    let e = run(&format!("az:model={}", small.display()), "random");
    assert!(stderr(&e).contains("5x5") && stderr(&e).contains("12x8"), "{}", stderr(&e));
    let e = latrunculi(&[
        "eval",
        "--ruleset",
        "kowalski",
        "--agent",
        "greedy",
        "--vs",
        "random",
        "--sprt",
        "50,0",
        "--out",
        o,
    ]);
    assert!(stderr(&e).contains("--sprt"), "{}", stderr(&e));
    // Nothing was written by the failed runs.
    assert!(!out.exists());
}

#[test]
fn ladder_rates_a_round_robin_with_a_model() {
    let dir = scratch("ladder");
    let model = dir.join("net.az");
    tiny_model(&model, (6, 6));
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, format!("# a small ladder\nrandom\ngreedy\naz:model={},sims=8\n", model.display()))
        .unwrap();
    let out = dir.join("ladder");
    // Seed 1 is the default seed.
    let run = |extra: &[&str]| ladder_on_kowalski_6x6(&agents, 4, 120, "1", &out, extra);
    let o = run(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let ratings = rows(&out.join("ratings.csv"));
    assert_eq!(ratings.len(), 3);
    let random = ratings.iter().find(|r| r[1] == "random").unwrap();
    assert_eq!(random[2], "0.0");
    // Every agent played 2 pairings of 4 games.
    assert!(ratings.iter().all(|r| r[6] == "8"));
    // Ranks follow the ratings.
    let elo: Vec<f64> = ratings.iter().map(|r| r[2].parse().unwrap()).collect();
    assert!(elo.windows(2).all(|w| w[0] >= w[1]));
    assert_eq!(rows(&out.join("pairings.csv")).len(), 3);
    assert_eq!(rows(&out.join("games.csv")).len(), 12);
    let svg = std::fs::read_to_string(out.join("ratings.svg")).unwrap();
    assert_eq!(svg.matches("<circle").count(), 3);
    // Refitting from pairings.csv gives the same ratings; another prior changes them.
    let first = std::fs::read_to_string(out.join("ratings.csv")).unwrap();
    let refit = run(&["--rate-only"]);
    assert!(refit.status.success(), "{}", stderr(&refit));
    assert_eq!(std::fs::read_to_string(out.join("ratings.csv")).unwrap(), first);
    let refit = run(&["--rate-only", "--prior-draws", "5"]);
    assert!(refit.status.success(), "{}", stderr(&refit));
    assert_ne!(std::fs::read_to_string(out.join("ratings.csv")).unwrap(), first);
    // A second run into the same folder is refused; a repeated agent names its line.
    let again = run(&[]);
    assert!(stderr(&again).contains("already exists"), "{}", stderr(&again));
    // A ladder on kowalski from `list` into a fresh folder: its error message.
    let ladder_error = |list: &str, name: &str| {
        std::fs::write(&agents, list).unwrap();
        let out = dir.join(name);
        let o = latrunculi(&[
            "ladder",
            "-r",
            "kowalski",
            "--agents",
            agents.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(!o.status.success());
        stderr(&o)
    };
    let dup = ladder_error("random\ngreedy\n\nrandom\n", "l2");
    assert!(dup.contains("line 4"), "{dup}");
    let no_anchor = ladder_error("greedy\nmcts:sims=5\n", "l3");
    assert!(no_anchor.contains("anchor"), "{no_anchor}");
}

/// The files a ladder folder ends with.
const LADDER_FILES: [&str; 4] = ["games.csv", "pairings.csv", "ratings.csv", "ratings.svg"];

/// The bytes of file `f` of folder `d`.
fn read_file(d: &Path, f: &str) -> Vec<u8> {
    std::fs::read(d.join(f)).unwrap()
}

/// Asserts that ladder folder `got` holds the same [`LADDER_FILES`], byte for byte, as
/// `want` (the folder of an uninterrupted, unsharded run).
fn assert_same_ladder_files(got: &Path, want: &Path) {
    for f in LADDER_FILES {
        assert!(read_file(got, f) == read_file(want, f), "{f} of {} differs from {}'s", got.display(), want.display());
    }
}

/// The text of file `f` of folder `d`.
fn text_of(d: &Path, f: &str) -> String {
    String::from_utf8(read_file(d, f)).unwrap()
}

/// Writes the folder a ladder killed at some moment leaves: the first lines of its
/// pairings.csv and games.csv (headers included).
fn write_cut(cut: &Path, pairings: &[&str], games: &[&str]) {
    std::fs::create_dir_all(cut).unwrap();
    std::fs::write(cut.join("pairings.csv"), format!("{}\n", pairings.join("\n"))).unwrap();
    std::fs::write(cut.join("games.csv"), format!("{}\n", games.join("\n"))).unwrap();
}

/// Runs `latrunculi ladder` on kowalski 6×6 with the agents file `agents`, `--games`,
/// `--ply-cap`, `--seed` and `--out`, and the `extra` arguments.
fn ladder_on_kowalski_6x6(agents: &Path, games: u32, cap: u32, seed: &str, out: &Path, extra: &[&str]) -> Output {
    let (games, cap) = (games.to_string(), cap.to_string());
    let mut args = vec![
        "ladder",
        "-r",
        "kowalski",
        "--board",
        "6x6",
        "--agents",
        agents.to_str().unwrap(),
        "--games",
        &games,
        "--ply-cap",
        &cap,
        "--seed",
        seed,
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    latrunculi(&args)
}

#[test]
fn interrupted_ladder_resumes_to_identical_files() {
    let dir = scratch("ladder-resume");
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\nmcts:sims=8\nalphabeta:depth=1\n").unwrap();
    let run_seed = |out: &Path, seed: &str, extra: &[&str]| ladder_on_kowalski_6x6(&agents, 3, 60, seed, out, extra);
    let run = |out: &Path, extra: &[&str]| run_seed(out, "5", extra);
    let whole = dir.join("whole");
    let o = run(&whole, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let (pairings, games) = (text_of(&whole, "pairings.csv"), text_of(&whole, "games.csv"));
    let (plines, glines): (Vec<&str>, Vec<&str>) = (pairings.lines().collect(), games.lines().collect());
    assert_eq!((plines.len(), glines.len()), (7, 19));
    // A run killed after two pairings, between the games and the pairings of the third.
    let cut = dir.join("cut");
    write_cut(&cut, &plines[..3], &glines[..11]);
    // Without --resume the folder is refused; with it the run ends as the whole one.
    assert!(stderr(&run(&cut, &[])).contains("already exists"));
    let o = run(&cut, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("resuming: 2 of 6 pairings"), "{}", stderr(&o));
    assert_same_ladder_files(&cut, &whole);
    // Resuming a finished ladder plays nothing and changes nothing.
    let o = run(&cut, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_ladder_files(&cut, &whole);
    // Another seed, or an agents file in another order, is refused, naming the line.
    let e = stderr(&run_seed(&cut, "6", &["--resume"]));
    assert!(e.contains("pairings.csv line 2") && e.contains("seed 5"), "{e}");
    std::fs::write(&agents, "greedy\nrandom\nmcts:sims=8\nalphabeta:depth=1\n").unwrap();
    let e = stderr(&run(&cut, &["--resume"]));
    assert!(e.contains("pairings.csv line 2") && e.contains("agents file"), "{e}");
    // Missing games of a finished pairing are an error, not a silent replay.
    std::fs::write(&agents, "random\ngreedy\nmcts:sims=8\nalphabeta:depth=1\n").unwrap();
    std::fs::write(cut.join("games.csv"), format!("{}\n", glines[..5].join("\n"))).unwrap();
    let e = stderr(&run(&cut, &["--resume"]));
    assert!(e.contains("holds 4 games") && e.contains("need 18"), "{e}");
}

#[test]
fn a_ladder_killed_inside_a_pairing_keeps_its_finished_games() {
    let dir = scratch("ladder-pending");
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\nalphabeta:depth=1\n").unwrap();
    let run = |out: &Path, extra: &[&str]| ladder_on_kowalski_6x6(&agents, 4, 60, "9", out, extra);
    let whole = dir.join("whole");
    let o = run(&whole, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!whole.join("pending.csv").exists(), "a finished ladder leaves no pending file");
    let (pairings, games) = (text_of(&whole, "pairings.csv"), text_of(&whole, "games.csv"));
    let (plines, glines): (Vec<&str>, Vec<&str>) = (pairings.lines().collect(), games.lines().collect());
    assert_eq!((plines.len(), glines.len()), (4, 13));
    // Killed in the third pairing (greedy vs alphabeta:depth=1, games.csv lines 10-13)
    // with games 3 and 1 finished, in that order, and game 0 cut short mid-line.
    let cut = dir.join("cut");
    write_cut(&cut, &plines[..3], &glines[..9]);
    let half = &glines[9][..glines[9].len() / 2];
    let pending = format!("{}\n{}\n{}\n{half}", glines[0], glines[12], glines[10]);
    std::fs::write(cut.join("pending.csv"), &pending).unwrap();
    // Without --resume the folder is refused.
    assert!(stderr(&run(&cut, &[])).contains("already exists"));
    // A row of another pairing is refused, naming the file and line.
    std::fs::write(cut.join("pending.csv"), format!("{}\n{}\n{}\n", glines[0], glines[12], glines[1])).unwrap();
    let e = stderr(&run(&cut, &["--resume"]));
    assert!(e.contains("pending.csv line 3") && e.contains("greedy vs alphabeta:depth=1"), "{e}");
    std::fs::write(cut.join("pending.csv"), &pending).unwrap();
    let o = run(&cut, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 of 4 games of the next pairing"), "{}", stderr(&o));
    assert_same_ladder_files(&cut, &whole);
    assert!(!cut.join("pending.csv").exists());
    // A pending file of the pairing already written (a kill before it was removed) is
    // left out, and removed.
    write_cut(&cut, &plines[..3], &glines[..9]);
    std::fs::write(cut.join("pending.csv"), format!("{}\n{}\n{}\n", glines[0], glines[6], glines[5])).unwrap();
    let o = run(&cut, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("of the next pairing"), "{}", stderr(&o));
    assert_same_ladder_files(&cut, &whole);
    assert!(!cut.join("pending.csv").exists());
}

#[test]
fn interrupted_eval_resumes_to_identical_files() {
    let dir = scratch("eval-resume");
    let run_seed = |name: &str, seed: &str, extra: &[&str]| {
        let (out, games) = (dir.join(name).join("eval.csv"), dir.join(name).join("games.csv"));
        let mut args = vec![
            "eval",
            "-r",
            "kowalski",
            "--board",
            "6x6",
            "--agent",
            "greedy",
            "--vs",
            "random,mcts:sims=8",
            "--games",
            "7",
            "--ply-cap",
            "60",
            "--seed",
            seed,
        ];
        let (o, g) = (out.to_str().unwrap().to_string(), games.to_str().unwrap().to_string());
        args.extend_from_slice(&["--out", &o, "--games-out", &g]);
        args.extend_from_slice(extra);
        latrunculi(&args)
    };
    let run = |name: &str, extra: &[&str]| run_seed(name, "9", extra);
    let o = run("whole", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let read = |name: &str, f: &str| std::fs::read(dir.join(name).join(f)).unwrap();
    let games = String::from_utf8(read("whole", "games.csv")).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    assert_eq!(lines.len(), 15);
    // Killed inside the first pairing, and between the pairings (the eval CSV may hold
    // anything: it is rebuilt from the games).
    for (name, keep) in [("cut-3", 3), ("cut-7", 7), ("cut-9", 9), ("cut-0", 0)] {
        std::fs::create_dir_all(dir.join(name)).unwrap();
        std::fs::write(dir.join(name).join("games.csv"), format!("{}\n", lines[..=keep].join("\n"))).unwrap();
        std::fs::write(dir.join(name).join("eval.csv"), "partial\n").unwrap();
        let o = run(name, &["--resume"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("resuming: {keep} games")), "{}", stderr(&o));
        assert_eq!(read(name, "games.csv"), read("whole", "games.csv"), "{name}");
        assert_eq!(read(name, "eval.csv"), read("whole", "eval.csv"), "{name}");
    }
    // Games of another seed, or --resume without --games-out, are refused.
    let e = stderr(&run_seed("cut-3", "10", &["--resume"]));
    assert!(e.contains("line 2") && e.contains("cannot resume"), "{e}");
    let o =
        latrunculi(&["eval", "-r", "kowalski", "--agent", "greedy", "--vs", "random", "--out", "x.csv", "--resume"]);
    assert!(stderr(&o).contains("--resume needs --games-out"), "{}", stderr(&o));
}

#[test]
fn three_ladder_shards_merge_into_the_files_of_one_run() {
    let dir = scratch("ladder-shards");
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\nalphabeta:depth=1\nmcts:sims=8\n").unwrap();
    let ladder = |out: &Path, extra: &[&str]| ladder_on_kowalski_6x6(&agents, 2, 80, "9", out, extra);
    let whole = dir.join("whole");
    let o = ladder(&whole, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Six pairings in three shards of two; shard 2 interrupted after its first pairing
    // (its pairings.csv cut to one row) and resumed.
    let shards: Vec<PathBuf> = (1..=3).map(|k| dir.join(format!("shard{k}"))).collect();
    for (k, s) in shards.iter().enumerate() {
        let spec = format!("{}/3", k + 1);
        let o = ladder(s, &["--shard", &spec]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(!s.join("ratings.csv").exists(), "a shard is not rated");
        assert_eq!(rows(&s.join("pairings.csv")).len(), 2);
    }
    let p2 = shards[1].join("pairings.csv");
    let text = std::fs::read_to_string(&p2).unwrap();
    let cut: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(&p2, cut.join("\n") + "\n").unwrap();
    // Merging an unfinished shard is refused and names it; so is a missing shard.
    let merged = dir.join("merged");
    let merge = |list: &[&PathBuf]| {
        let mut extra: Vec<&str> = vec!["--merge"];
        extra.extend(list.iter().map(|p| p.to_str().unwrap()));
        ladder(&merged, &extra)
    };
    let e = stderr(&merge(&[&shards[0], &shards[1], &shards[2]]));
    assert!(e.contains("shard2") && e.contains("1 of its 2 pairings"), "{e}");
    let e = stderr(&merge(&[&shards[0], &shards[2]]));
    assert!(e.contains("shards 2/3 are missing"), "{e}");
    // Resuming the shard without its --shard is refused; with it, it finishes.
    let e = stderr(&ladder(&shards[1], &["--resume"]));
    assert!(e.contains("holds shard 2/3"), "{e}");
    let o = ladder(&shards[1], &["--resume", "--shard", "2/3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Shards given in any order merge into the unsharded run's files, byte for byte.
    let o = merge(&[&shards[2], &shards[0], &shards[1]]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_same_ladder_files(&merged, &whole);
}

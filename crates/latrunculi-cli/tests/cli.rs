//! End-to-end tests of `latrunculi play` and `latrunculi survey` through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const HEADER: &str = "ruleset,params_hash,game,seed,white,black,winner,reason,plies,captures_white,captures_black,pieces_white,pieces_black,first_capture_ply,moves";

fn latrunculi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_latrunculi")).args(args).output().expect("the binary runs")
}

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn play(out: &Path, seed: &str) -> Output {
    latrunculi(&[
        "play",
        "--ruleset",
        "petteia-xxi",
        "--white",
        "random",
        "--black",
        "random",
        "--games",
        "6",
        "--seed",
        seed,
        "--swap",
        "--ply-cap",
        "400",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn play_writes_header_and_rows_reproducibly() {
    let dir = scratch("play");
    let (a, b, c) = (dir.join("a.csv"), dir.join("b.csv"), dir.join("c.csv"));
    for (path, seed) in [(&a, "7"), (&b, "7"), (&c, "8")] {
        let o = play(path, seed);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let text = std::fs::read_to_string(&a).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], HEADER);
    assert_eq!(lines.len(), 1 + 6);
    for (i, line) in lines[1..].iter().enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), 15, "{line}");
        assert_eq!(f[0], "petteia-xxi");
        assert_eq!(f[1].len(), 16);
        assert_eq!(f[2], i.to_string());
        assert!(["white", "black", "draw"].contains(&f[6]));
        assert_eq!(f[14].split(' ').count().to_string(), f[8], "moves vs plies in {line}");
    }
    assert_eq!(text, std::fs::read_to_string(&b).unwrap(), "same seed, same file");
    assert_ne!(text, std::fs::read_to_string(&c).unwrap(), "another seed, other games");
}

#[test]
fn play_rejects_a_bad_agent_spec() {
    let dir = scratch("play-bad");
    let o = latrunculi(&[
        "play",
        "-r",
        "kowalski",
        "--white",
        "wizard",
        "--black",
        "random",
        "--out",
        dir.join("x.csv").to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("wizard"), "{}", stderr(&o));
}

const SURVEY: &str = r#"rulesets = ["petteia-xxi", "kowalski"]
pairings = [["random", "random"]]
games = 12
seed = 5
swap = true
ply_cap = 300
"#;

fn survey(config: &Path, out: &Path) -> Output {
    latrunculi(&["survey", "--config", config.to_str().unwrap(), "--out", out.to_str().unwrap()])
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn interrupted_survey_resumes_to_identical_files() {
    let dir = scratch("resume");
    let config = dir.join("survey.toml");
    std::fs::write(&config, SURVEY).unwrap();
    let (full, cut) = (dir.join("full"), dir.join("cut"));
    let o = survey(&config, &full);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = read(&full.join("games.csv"));
    let summary = read(&full.join("summary.csv"));
    assert_eq!(games.lines().count(), 1 + 2 * 12);
    assert_eq!(summary.lines().count(), 1 + 2);
    assert!(summary.starts_with("ruleset,pairing,games,white_wins,black_wins,draws,draw_rate,draw_lo,draw_hi,"));

    // A crashed run: some complete rows in completion (not sorted) order, then half a row.
    let o = survey(&config, &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows: Vec<&str> = games.lines().skip(1).collect();
    let mut partial = format!("{HEADER}\n");
    for i in [13, 2, 7, 0, 20, 5] {
        partial += rows[i];
        partial.push('\n');
    }
    partial += &rows[9][..rows[9].len() / 2];
    std::fs::write(cut.join("games.csv"), partial).unwrap();
    std::fs::remove_file(cut.join("summary.csv")).unwrap();
    let o = survey(&config, &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
    assert_eq!(read(&cut.join("games.csv")), games);
    assert_eq!(read(&cut.join("summary.csv")), summary);

    // Running a finished survey again changes nothing.
    let o = survey(&config, &full);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&full.join("games.csv")), games);

    // A changed configuration is refused and the results are left alone.
    std::fs::write(&config, SURVEY.replace("seed = 5", "seed = 6")).unwrap();
    let o = survey(&config, &full);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("different experiment configuration") && e.contains("seed = 6"), "{e}");
    assert_eq!(read(&full.join("games.csv")), games);
}

#[test]
fn bad_experiment_files_are_explained() {
    let dir = scratch("bad-config");
    let config = dir.join("bad.toml");
    for (text, needle) in [
        (format!("{SURVEY}colour = \"white\"\n"), "colour"),
        (SURVEY.replace("kowalski", "kowalsky"), "kowalsky"),
        (SURVEY.replace("[\"random\", \"random\"]", "[\"random\", \"wizard\"]"), "wizard"),
    ] {
        std::fs::write(&config, &text).unwrap();
        let o = survey(&config, &dir.join("out"));
        assert!(!o.status.success());
        let e = stderr(&o);
        assert!(e.contains(needle) && e.contains("bad.toml"), "{needle}: {e}");
    }
}

fn dataset(out: &Path, white: &str) -> Output {
    latrunculi(&[
        "dataset",
        "--ruleset",
        "kowalski",
        "--board",
        "6x6",
        "--white",
        white,
        "--black",
        "random",
        "--games",
        "2",
        "--swap",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ])
}

#[test]
fn dataset_writes_readable_files_and_refuses_to_overwrite() {
    let dir = scratch("dataset");
    let out = dir.join("ds");
    let o = dataset(&out, "mcts:sims=10");
    assert!(o.status.success(), "{}", stderr(&o));
    let meta: serde_json::Value = serde_json::from_str(&read(&out.join("meta.json"))).expect("meta.json is JSON");
    let lines: Vec<serde_json::Value> =
        read(&out.join("games.jsonl")).lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len(), 2);
    let samples: u64 = lines.iter().map(|l| l["samples"].as_u64().unwrap()).sum();
    assert_eq!(meta["samples"].as_u64(), Some(samples));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("{samples} samples")));
    let actions = meta["action_space_size"].as_u64().unwrap() as usize;
    assert_eq!(actions, 36 * 36 + 3 * 36);
    let policy: ndarray::Array2<f32> = ndarray_npy::read_npy(out.join("policy_targets.npy")).unwrap();
    assert_eq!(policy.shape(), &[samples as usize, actions]);
    let players: ndarray::Array1<i8> = ndarray_npy::read_npy(out.join("players.npy")).unwrap();
    assert_eq!(players.len(), samples as usize);

    // A second run into the same directory is refused, and the dataset is kept.
    let o = dataset(&out, "mcts:sims=10");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("games.jsonl") && stderr(&o).contains("another --out"), "{}", stderr(&o));
    assert_eq!(read(&out.join("games.jsonl")).lines().count(), 2);

    let o = dataset(&dir.join("bad"), "wizard");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown agent 'wizard'"), "{}", stderr(&o));
    assert!(!dir.join("bad").exists());
}

#[test]
fn metrics_replays_the_games_and_names_a_bad_row() {
    let dir = scratch("metrics");
    let games = dir.join("games.csv");
    let o = play(&games, "3");
    assert!(o.status.success(), "{}", stderr(&o));
    let o = latrunculi(&["metrics", "--games", games.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = read(&dir.join("metrics.csv"));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "one cell (random vs random, both colours): {text}");
    let cols: Vec<&str> = lines[0].split(',').collect();
    let f: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(cols.len(), f.len());
    let get = |name: &str| f[cols.iter().position(|c| *c == name).unwrap()];
    assert_eq!((get("ruleset"), get("pairing"), get("games")), ("petteia-xxi", "random vs random", "6"));
    // The plies and reasons agree with the games file.
    let rows: Vec<Vec<String>> =
        read(&games).lines().skip(1).map(|l| l.split(',').map(str::to_string).collect()).collect();
    let mean = rows.iter().map(|r| r[8].parse::<f64>().unwrap()).sum::<f64>() / 6.0;
    assert_eq!(get("plies"), format!("{mean:.4}"));
    let branching: f64 = get("branching").parse().unwrap();
    assert!(branching > 1.0, "random games of petteia-xxi have choices: {branching}");
    // A move that does not replay is named with its line.
    let mut bad = read(&games);
    let first_move = rows[0][14].split(' ').next().unwrap().to_string();
    bad = bad.replacen(&format!(",{first_move} "), ",a1-a1 ", 1);
    let broken = dir.join("broken.csv");
    std::fs::write(&broken, bad).unwrap();
    let o =
        latrunculi(&["metrics", "--games", broken.to_str().unwrap(), "--out", dir.join("m2.csv").to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 2") && stderr(&o).contains("ply 1"), "{}", stderr(&o));
    assert!(!dir.join("m2.csv").exists(), "nothing written on an error");
}

/// An adaptive survey with four cells: 4 games first, 4 more per round, at most 16, until
/// the draw rate's interval is ±0.3 wide.
const ADAPTIVE: &str = r#"rulesets = ["petteia-xxi", "kowalski"]
pairings = [["random", "random"], ["greedy", "random"]]
games = 16
min_games = 4
batch = 4
half_width = 0.3
seed = 5
ply_cap = 200
"#;

/// The adaptive survey (`ADAPTIVE`) run whole into `NAME/whole`: the scratch folder, the
/// config file, the output folder, its games.csv and summary.csv and each cell's games.
fn adaptive_run(name: &str) -> (PathBuf, PathBuf, PathBuf, String, String, Vec<usize>) {
    let dir = scratch(name);
    let config = dir.join("survey.toml");
    std::fs::write(&config, ADAPTIVE).unwrap();
    let whole = dir.join("whole");
    let o = survey(&config, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let (games, summary) = (read(&whole.join("games.csv")), read(&whole.join("summary.csv")));
    let counts: Vec<usize> = summary.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    (dir, config, whole, games, summary, counts)
}

/// An adaptive survey resumed from games of an interrupted run (its longest cell cut
/// inside its second round, the rows out of order, a half-written row) and from surplus
/// games (every cell's games up to the cap, as a run with a fixed 16 games and the same
/// seed writes them) ends with the files of one uninterrupted run: each cell stops at the
/// same round boundary, and games past it are left out.
#[test]
fn adaptive_survey_resumed_from_partial_or_surplus_games_equals_one_run() {
    let (dir, config, _whole, games, summary, counts) = adaptive_run("adaptive-resume");
    assert_eq!(counts.len(), 4);
    assert!(counts.iter().any(|&n| n < 16), "a cell that stops early is needed: {counts:?}");
    assert!(counts.iter().any(|&n| n > 4), "a cell with a second round is needed: {counts:?}");

    // Surplus: the fixed run's 16 games of every cell (same seeds, so the same games).
    let fixed_config = dir.join("fixed.toml");
    let adaptive_keys = ["min_games", "batch", "half_width"];
    let fixed_text: String = ADAPTIVE
        .lines()
        .filter(|l| !adaptive_keys.iter().any(|k| l.starts_with(k)))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&fixed_config, fixed_text).unwrap();
    let fixed = dir.join("fixed");
    let o = survey(&fixed_config, &fixed);
    assert!(o.status.success(), "{}", stderr(&o));
    let fixed_games = read(&fixed.join("games.csv"));
    assert_eq!(fixed_games.lines().count(), 1 + 4 * 16);
    let surplus = dir.join("surplus");
    assert!(survey(&config, &surplus).status.success());
    std::fs::write(surplus.join("games.csv"), &fixed_games).unwrap();
    std::fs::remove_file(surplus.join("summary.csv")).unwrap();
    let o = survey(&config, &surplus);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("later games are left out"), "{}", stderr(&o));
    assert_eq!(read(&surplus.join("games.csv")), games);
    assert_eq!(read(&surplus.join("summary.csv")), summary);

    // Interrupted: the longest cell's games beyond its first 6 dropped (inside its
    // second round), the rows in reverse order, and half a row at the end.
    let cut = dir.join("cut");
    assert!(survey(&config, &cut).status.success());
    let rows: Vec<&str> = games.lines().skip(1).collect();
    let longest = (0..4).max_by_key(|&c| counts[c]).unwrap();
    let start: usize = counts[..longest].iter().sum();
    let dropped = start + 6..start + counts[longest];
    let mut partial = format!("{HEADER}\n");
    for (i, r) in rows.iter().enumerate().rev() {
        if !dropped.contains(&i) {
            partial += r;
            partial.push('\n');
        }
    }
    partial += &rows[start][..rows[start].len() / 2];
    std::fs::write(cut.join("games.csv"), partial).unwrap();
    std::fs::remove_file(cut.join("summary.csv")).unwrap();
    let o = survey(&config, &cut);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&cut.join("games.csv")), games);
    assert_eq!(read(&cut.join("summary.csv")), summary);
}

/// The stopping rule changed between runs on one folder: a raised cap plays on and ends
/// with the bytes of a run under the new rule alone; a lowered cap or a `[[cap]]` that
/// would leave played games out is refused and the files are left alone; a `[[cap]]`
/// stops its pairing's cells early and leaves the other pairing's cells as they were.
#[test]
fn a_changed_stopping_rule_keeps_the_games_played() {
    let (dir, config, whole, games, summary, counts) = adaptive_run("stop-rule");
    let longest = (0..4).max_by_key(|&c| counts[c]).unwrap();
    assert!(counts[longest] > 4, "a cell beyond 4 games is needed: {counts:?}");

    // Cap raised from 4 to 16.
    let grow = dir.join("grow");
    std::fs::write(&config, ADAPTIVE.replace("games = 16", "games = 4")).unwrap();
    let o = survey(&config, &grow);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(read(&grow.join("games.csv")).lines().count() < games.lines().count());
    std::fs::write(&config, ADAPTIVE).unwrap();
    let o = survey(&config, &grow);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("stopping rule changed") && stderr(&o).contains("games = 4"), "{}", stderr(&o));
    assert_eq!(read(&grow.join("games.csv")), games);
    assert_eq!(read(&grow.join("summary.csv")), summary);
    assert_eq!(read(&grow.join("fingerprint.txt")), read(&whole.join("fingerprint.txt")));

    // Cap lowered below games already played: refused, nothing touched.
    std::fs::write(&config, ADAPTIVE.replace("games = 16", "games = 4")).unwrap();
    let o = survey(&config, &grow);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("stopping rule changed"), "{}", stderr(&o));
    assert_eq!(read(&grow.join("games.csv")), games);
    assert_eq!(read(&grow.join("fingerprint.txt")), read(&whole.join("fingerprint.txt")));

    // A [[cap]] on the longest cell's pairing below its games: refused, naming the cell.
    let pairing = if longest % 2 == 0 { r#"["random", "random"]"# } else { r#"["greedy", "random"]"# };
    let capped = format!("{ADAPTIVE}[[cap]]\npairing = {pairing}\ngames = 4\n");
    std::fs::write(&config, &capped).unwrap();
    let o = survey(&config, &grow);
    assert!(!o.status.success());
    let ruleset = if longest < 2 { "petteia-xxi" } else { "kowalski" };
    assert!(stderr(&o).contains(&format!("cell {ruleset} /")), "{}", stderr(&o));
    assert_eq!(read(&grow.join("games.csv")), games);

    // The same [[cap]] in a fresh folder: that pairing's cells stop at 4, the others
    // are the whole run's.
    let fresh = dir.join("capped");
    let o = survey(&config, &fresh);
    assert!(o.status.success(), "{}", stderr(&o));
    let capped_summary = read(&fresh.join("summary.csv"));
    for (c, (a, b)) in capped_summary.lines().skip(1).zip(summary.lines().skip(1)).enumerate() {
        if c % 2 == longest % 2 {
            assert_eq!(a.split(',').nth(2), Some("4"), "{a}");
        } else {
            assert_eq!(a, b);
        }
    }
    assert!(read(&fresh.join("fingerprint.txt")).contains(": 4\n"));
}

/// `latrunculi survey --progress` watches a folder without touching it: on a partial
/// games.csv (the first cell whole, the second cell's first round but one game, a
/// half-written last line) it reports each cell's state and the games left, and leaves
/// the file byte for byte as it was, with no lock taken; on an empty folder every cell
/// is "not started"; another experiment's folder is refused.
#[test]
fn survey_progress_reports_cells_and_writes_nothing() {
    let (dir, config, _whole, games, _summary, counts) = adaptive_run("progress");
    let rows: Vec<&str> = games.lines().skip(1).collect();
    let watch = dir.join("watch");
    assert!(survey(&config, &watch).status.success());
    // Cell 0 whole, then cell 1's games 0..3 (its first round lacks game 3), half a row.
    let mut partial = format!("{HEADER}\n");
    for r in rows.iter().take(counts[0] + 3) {
        partial += r;
        partial.push('\n');
    }
    partial += &rows[counts[0] + 3][..10];
    std::fs::write(watch.join("games.csv"), &partial).unwrap();
    std::fs::remove_file(watch.join(".latrunculi.lock")).unwrap();
    let o =
        latrunculi(&["survey", "--config", config.to_str().unwrap(), "--out", watch.to_str().unwrap(), "--progress"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1 + 4 + 1, "{out}");
    assert!(lines[1].ends_with("finished") && lines[1].contains(&format!(" {} ", counts[0])), "{out}");
    assert!(lines[2].ends_with("open"), "{out}");
    assert!(lines[3].ends_with("not started") && lines[4].ends_with("not started"), "{out}");
    // Left: game 3 of cell 1, and the first rounds (4 games) of cells 2 and 3.
    assert!(lines[5].starts_with(&format!("1 of 4 cells finished; {} games played; 9 more", counts[0] + 3)), "{out}");
    assert_eq!(read(&watch.join("games.csv")), partial, "--progress must not write");
    assert!(!watch.join(".latrunculi.lock").exists());

    let empty = dir.join("empty");
    let o =
        latrunculi(&["survey", "--config", config.to_str().unwrap(), "--out", empty.to_str().unwrap(), "--progress"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).matches("not started").count(), 4);
    assert!(!empty.exists(), "--progress must not create the folder");

    std::fs::write(&config, ADAPTIVE.replace("seed = 5", "seed = 6")).unwrap();
    let o =
        latrunculi(&["survey", "--config", config.to_str().unwrap(), "--out", watch.to_str().unwrap(), "--progress"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("different experiment configuration"), "{}", stderr(&o));
}

#[test]
fn three_shards_merge_into_the_files_of_one_run() {
    let dir = scratch("shards");
    let config = dir.join("survey.toml");
    std::fs::write(&config, ADAPTIVE).unwrap();
    let cfg = config.to_str().unwrap();
    let whole = dir.join("whole");
    let o = survey(&config, &whole);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = read(&whole.join("summary.csv"));
    // Adaptive: every cell stopped at a round boundary, and not all at the same one
    // (random and greedy games differ in how drawish they are).
    let counts: Vec<u32> = summary.lines().skip(1).map(|l| l.split(',').nth(2).unwrap().parse().unwrap()).collect();
    assert_eq!(counts.len(), 4);
    assert!(counts.iter().all(|n| n % 4 == 0 && (4..=16).contains(n)), "{counts:?}");
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("shard{k}"));
        let o = latrunculi(&["survey", "--config", cfg, "--out", out.to_str().unwrap(), "--shard", &format!("{k}/3")]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(read(&out.join("fingerprint.txt")).contains(&format!("shard = {k}/3")));
        shards.push(out);
    }
    let merged = dir.join("merged");
    let mut args = vec!["survey", "--config", cfg, "--out", merged.to_str().unwrap(), "--merge"];
    let names: Vec<String> = shards.iter().map(|p| p.to_str().unwrap().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let o = latrunculi(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["games.csv", "summary.csv", "fingerprint.txt"] {
        assert_eq!(read(&merged.join(f)), read(&whole.join(f)), "{f}");
    }
    // A missing shard, or a shard of another configuration, is refused.
    let o = latrunculi(&[
        "survey",
        "--config",
        cfg,
        "--out",
        dir.join("m2").to_str().unwrap(),
        "--merge",
        &names[0],
        &names[2],
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("shards missing from the merge: 2/3"), "{}", stderr(&o));
    std::fs::write(&config, ADAPTIVE.replace("seed = 5", "seed = 6")).unwrap();
    let o = latrunculi(&[
        "survey",
        "--config",
        cfg,
        "--out",
        dir.join("m3").to_str().unwrap(),
        "--merge",
        &names[0],
        &names[1],
        &names[2],
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("different experiment configuration"), "{}", stderr(&o));
}

#[test]
fn bench_az_measures_self_play_without_and_with_the_win_check() {
    let o = latrunculi(&[
        "bench-az",
        "--ruleset",
        "kowalski",
        "--heads",
        "dense",
        "--seconds",
        "0.01",
        "--sims",
        "4",
        "--parallel",
        "2",
        "--leaves",
        "1",
        "--games",
        "2",
        "--ply-cap",
        "6",
    ]);
    assert!(o.status.success(), "bench-az failed: {}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let block = text
        .split("\n\n")
        .find(|b| b.starts_with("ruleset,network,sims,parallel,leaves,win_check,"))
        .unwrap_or_else(|| panic!("no self-play block in:\n{text}"));
    let rows: Vec<Vec<&str>> = block.lines().skip(1).map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 2, "one row without and one with the win check:\n{block}");
    assert_eq!((rows[0][5], rows[1][5]), ("0", "1"), "{block}");
    for r in &rows {
        assert_eq!(r[..5], ["kowalski", "4x32-dense", "4", "2", "1"], "{block}");
        let positions: f64 = r[8].parse().unwrap();
        assert!(positions > 0.0, "positions per second must be positive:\n{block}");
    }
}

/// A second run into a folder that a run is still writing (here: a lock the test holds, as
/// a running survey or ladder would) stops with an error naming the folder and touches
/// nothing in it; once the first run is over, the same command runs.
#[test]
fn a_second_run_into_a_busy_folder_is_refused() {
    let dir = scratch("busy");
    let config = dir.join("survey.toml");
    std::fs::write(&config, SURVEY).unwrap();
    let out = dir.join("out");
    let o = survey(&config, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = read(&out.join("games.csv"));
    let claim = latrunculi_arena::io::lock_folder(&out).expect("the test claims the folder");
    let o = survey(&config, &out);
    assert!(!o.status.success());
    let e = stderr(&o);
    assert!(e.contains("another latrunculi run is writing into") && e.contains("out"), "{e}");
    assert_eq!(read(&out.join("games.csv")), games);

    std::fs::write(dir.join("agents.txt"), "random\ngreedy\n").unwrap();
    let ladder_out = dir.join("ladder");
    let _ladder_claim = latrunculi_arena::io::lock_folder(&ladder_out).unwrap();
    let o = latrunculi(&[
        "ladder",
        "--ruleset",
        "petteia-xxi",
        "--agents",
        dir.join("agents.txt").to_str().unwrap(),
        "--games",
        "2",
        "--out",
        ladder_out.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("another latrunculi run is writing into"), "{}", stderr(&o));
    assert!(!ladder_out.join("games.csv").exists());

    drop(claim);
    let o = survey(&config, &out);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&out.join("games.csv")), games);
}

#[test]
fn a_device_this_build_lacks_is_an_error_before_anything_is_written() {
    let dir = scratch("device");
    let out = dir.join("games.csv");
    let run = |device: &str| {
        Command::new(env!("CARGO_BIN_EXE_latrunculi"))
            .env("LATRUNCULI_DEVICE", device)
            .args(["play", "--ruleset", "petteia-xxi", "--white", "random", "--black", "random", "--games", "1"])
            .args(["--out", out.to_str().unwrap()])
            .output()
            .expect("the binary runs")
    };
    let o = run("tpu");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("LATRUNCULI_DEVICE=\"tpu\" names no backend"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is written");
    if !cfg!(feature = "cuda") {
        let o = run("cuda");
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("built without the `cuda` feature"), "{}", stderr(&o));
    }
    // The CPU by name, and commands that run no network, are unaffected.
    let o = run("cpu");
    assert!(o.status.success(), "{}", stderr(&o));
    let rules =
        Command::new(env!("CARGO_BIN_EXE_latrunculi")).env("LATRUNCULI_DEVICE", "tpu").arg("rules").output().unwrap();
    assert!(rules.status.success(), "{}", stderr(&rules));
}

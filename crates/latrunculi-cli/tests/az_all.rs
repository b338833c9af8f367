//! `experiments/az-all/run.sh` end to end at toy size: the teacher's games (with their
//! soft policies), training, the evaluations, the learning curve and the tables; and a
//! second run that finds everything done and changes nothing; `imitate.sh` on the same
//! teacher games (the warm start alone), `tune.sh` starting from its network, and
//! `twelve.sh` dispatching to the imitation; then
//! `moonshot.sh`'s
//! equal-time match on the network it trained, and `experiments/verdicts/run.sh
//! networks`'s self-play of it into verdicts.csv.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{TINY, repo, toy_dir, toy_script};

/// `bash SCRIPT kowalski` with the binary under test and toy-size matches (2 games each,
/// the search player at 5 ms).
fn az_all_script(script: &str) -> Command {
    let mut command = toy_script(&format!("experiments/az-all/{script}"));
    command.arg("kowalski");
    command
}

/// The script on kowalski at toy size, every game at ply cap `ply_cap` (`PLY_CAP`; unset
/// for `None`, where kowalski's cap is 200).
fn run_script(dir: &Path, ply_cap: Option<&str>) -> std::process::Output {
    let mut command = az_all_script("run.sh");
    if let Some(cap) = ply_cap {
        command.env("PLY_CAP", cap);
    }
    command
        .env("RUNS", dir.join("runs"))
        .env("OUT", dir.join("out"))
        .env("TEMPLATE", dir.join("tiny.toml"))
        .env("TEACHER_GAMES", "2")
        // A teacher budget far beyond 2 games' time: the fill stops at TEACHER_MAX.
        .env("TEACHER_S", "100000")
        .env("TEACHER_MAX", "3")
        .env("TEACHER", "alphabeta:nodes=100,soft=250,noise=20")
        .env("CURVE_GAMES", "1")
        .output()
        .expect("bash runs")
}

fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((p.clone(), fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_one_command_trains_evaluates_and_resumes_to_nothing_new() {
    let dir = toy_dir("az-all");
    let o = run_script(&dir, Some("60"));
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let out = dir.join("out/kowalski");
    // The teacher's games carry its soft policies and values, and the warm start used them.
    let teacher = dir.join("runs/kowalski/teacher");
    for f in ["games.jsonl", "policy_offsets.npy", "policy_probs.npy", "search_values.npy"] {
        assert!(teacher.join(f).is_file(), "{f}");
    }
    // The first 2 games timed, then the budget filled up to TEACHER_MAX: 1 more (seed 2).
    let more = dir.join("runs/kowalski/teacher-more");
    assert_eq!(fs::read_to_string(dir.join("runs/kowalski/teacher-more.games")).unwrap().trim(), "1");
    assert_eq!(fs::read_to_string(more.join("games.jsonl")).unwrap().lines().count(), 1);
    let config = fs::read_to_string(dir.join("runs/kowalski/config.toml")).unwrap();
    let datasets = format!("datasets = [\"{}\", \"{}\"]", teacher.display(), more.display());
    assert!(config.contains("ruleset = \"kowalski\"") && config.contains(&datasets), "{config}");
    // PLY_CAP reached the training's config (not the template's comments) and every game.
    assert!(config.contains("\nply_cap = 60\n"), "{config}");
    assert!(config.starts_with("# A comment naming @RULESET@ and @PLY_CAP@, left as it is.\n"), "{config}");
    let meta = fs::read_to_string(teacher.join("meta.json")).unwrap();
    assert!(meta.contains("\"ply_cap\": 60,"), "the teacher's games at the cap: {meta}");
    for games in ["vs-ab3-games.csv", "vs-ms100-games.csv", "curve/teacher-games.csv"] {
        let mut reader = csv::Reader::from_path(out.join(games)).unwrap();
        let plies = reader.headers().unwrap().iter().position(|c| c == "plies").expect("a plies column");
        let mut played = 0;
        for row in reader.records() {
            let n: u32 = row.unwrap()[plies].parse().expect("plies");
            assert!(n <= 60, "{games}: a game of {n} plies past the cap of 60");
            played += 1;
        }
        assert!(played > 0, "{games} has games");
    }
    let times = fs::read_to_string(out.join("times.csv")).unwrap();
    assert!(times.starts_with("step,seconds\nteacher,") && times.contains("\ntrain,"), "{times}");
    assert_eq!(times.lines().filter(|l| l.starts_with("teacher,")).count(), 2, "{times}");
    let log = fs::read_to_string(out.join("train_log.csv")).unwrap();
    assert_eq!(log.lines().count(), 1 + 3, "the warm start and 2 iterations: {log}");
    for f in ["latest.az", "vs-ab3.csv", "vs-ab3-games.csv", "vs-ms100.csv", "curve/teacher.csv", "curve/iter-0000.csv"]
    {
        assert!(out.join(f).is_file(), "{f}");
    }
    let vs = fs::read_to_string(out.join("vs-ab3.csv")).unwrap();
    assert!(vs.lines().nth(1).is_some_and(|l| l.contains("alphabeta:depth=3,2,")), "{vs}");
    // The tables.
    let table = Command::new("python3").arg(repo().join("experiments/az-all/table.py")).arg(dir.join("out")).output();
    let table = table.expect("python3 runs");
    assert!(table.status.success(), "{}", String::from_utf8_lossy(&table.stderr));
    let text = String::from_utf8_lossy(&table.stdout);
    assert!(text.lines().any(|l| l.starts_with("| kowalski |")), "{text}");
    let csv = fs::read_to_string(dir.join("out/table.csv")).unwrap();
    assert!(
        csv.starts_with("ruleset,ply_cap,teacher_s,teacher_games,train_s,iterations,teacher_draw_rate,games_ab3,"),
        "{csv}"
    );
    let row = csv.lines().nth(1);
    assert!(
        row.is_some_and(|l| l.starts_with("kowalski,60,") && l.split(',').nth(3) == Some("3")),
        "the cap of 60 and the warm start's 3 teacher games: {csv}"
    );
    let curve = Command::new("python3").arg(repo().join("experiments/az-all/curve.py")).arg(dir.join("out")).output();
    let curve = curve.expect("python3 runs");
    assert!(curve.status.success(), "{}", String::from_utf8_lossy(&curve.stderr));
    assert!(fs::read_to_string(dir.join("out/curve.csv")).unwrap().lines().count() >= 3);

    // Run again: everything is done, so nothing changes but the tables' own files.
    let before: Vec<_> = files(&dir.join("runs")).into_iter().chain(files(&out)).collect();
    let o = run_script(&dir, Some("60"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let after: Vec<_> = files(&dir.join("runs")).into_iter().chain(files(&out)).collect();
    assert_eq!(before.len(), after.len());
    for ((p, a), (_, b)) in before.iter().zip(&after) {
        assert!(a == b, "{} changed on the second run", p.display());
    }
    // A fresh clone has no checkpoints (they are not committed): the curve's points are
    // found played, the last one not replayed under latest.az, and nothing else changes.
    fs::remove_dir_all(out.join("checkpoints")).unwrap();
    let before = files(&out);
    let o = run_script(&dir, Some("60"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(files(&out) == before, "a run without checkpoints changed files");
    let after: Vec<_> = files(&dir.join("runs")).into_iter().chain(files(&out)).collect();
    // At another cap (kowalski's own 200) the run is refused, naming the cap its games
    // were played at, and nothing changes.
    let o = run_script(&dir, None);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("at ply cap 60, not 200"), "{err}");
    let again: Vec<_> = files(&dir.join("runs")).into_iter().chain(files(&out)).collect();
    assert!(again == after, "a refused run changed files");

    // The imitation recipe: a template without a warm start's steps is refused, naming
    // it, before anything is written.
    let no_warm_start = TINY.replace("steps = 2\n", "");
    fs::write(dir.join("no-warm-start.toml"), no_warm_start).unwrap();
    let o = az_all_script("imitate.sh")
        .env("RUNS", dir.join("refused-runs"))
        .env("OUT", dir.join("refused-out"))
        .env("TEMPLATE", dir.join("no-warm-start.toml"))
        .output()
        .expect("bash runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no-warm-start.toml has no 'steps = N' line in its [warmstart] section"), "{err}");
    assert!(!dir.join("refused-runs").exists() && !dir.join("refused-out").exists(), "a refused run wrote files");
    // On the same teacher games as run.sh: linked, not played again, their seconds counted
    // in the hour; run.sh's template with the warm start alone (3 steps here, and the
    // rest of the hour as its time limit), then the same evaluations.
    // imitate.sh's settings here (also for twelve.sh, which passes them on).
    let imitating = |script: &str| {
        let mut command = az_all_script(script);
        command
            .env("FIRST_RUNS", dir.join("runs"))
            .env("FIRST_OUT", dir.join("out"))
            .env("RUNS", dir.join("imitate-runs"))
            .env("OUT", dir.join("out/imitate"))
            .env("TEMPLATE", dir.join("tiny.toml"))
            .env("IMITATE_STEPS", "3")
            .env("PLY_CAP", "60")
            .env("HOUR", "1000");
        command
    };
    let o = imitating("imitate.sh").output().expect("bash runs");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let imitated = dir.join("out/imitate/kowalski");
    assert!(fs::symlink_metadata(dir.join("imitate-runs/kowalski/teacher")).unwrap().file_type().is_symlink());
    let taught: Vec<String> = times.lines().filter(|l| l.starts_with("teacher,")).map(String::from).collect();
    let imitate_times = fs::read_to_string(imitated.join("times.csv")).unwrap();
    let imitate_taught: Vec<String> =
        imitate_times.lines().filter(|l| l.starts_with("teacher,")).map(String::from).collect();
    assert_eq!(taught, imitate_taught, "the first run's teacher seconds, and no teacher games played again");
    let spent: u64 = taught.iter().map(|l| l["teacher,".len()..].parse::<u64>().unwrap()).sum();
    let limit = (1000 - spent).max(60);
    let config = fs::read_to_string(dir.join("imitate-runs/kowalski/config.toml")).unwrap();
    assert!(config.contains("\niterations = 0  # imitation"), "{config}");
    assert!(config.contains("\nsteps = 3  # imitation"), "{config}");
    // Otherwise the template's own recipe, line for line.
    let kept = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("iterations") && !l.starts_with("steps = "))
            .filter(|l| !l.starts_with("time_limit_s"))
            .map(String::from)
            .collect()
    };
    let trained = fs::read_to_string(dir.join("runs/kowalski/config.toml")).unwrap();
    // (The teacher's folders are named through imitate-runs' links.)
    let linked = config.replace("/imitate-runs/", "/runs/");
    assert_eq!(kept(&linked), kept(&trained), "only iterations, steps and the time limit differ");
    assert_eq!(config.matches(&format!("time_limit_s = {limit}\n")).count(), 2, "the rest of the hour: {config}");
    let log = fs::read_to_string(imitated.join("train_log.csv")).unwrap();
    let rows: Vec<&str> = log.lines().collect();
    assert_eq!(rows.len(), 2, "the warm start alone: {log}");
    assert!(rows[0].ends_with(",steps") && rows[1].starts_with("0,3,") && rows[1].ends_with(",3"), "{log}");
    for f in ["latest.az", "vs-ab3.csv", "vs-ms100.csv"] {
        assert!(imitated.join(f).is_file(), "{f}");
    }
    assert!(!imitated.join("curve").exists(), "no learning curve");

    // tune.sh: the imitation recipe started from a trained network (here the imitation's
    // own, whose rules are kowalski's) for TUNE_STEPS steps on the same teacher games.
    let tuning = |ruleset: &str| {
        let mut command = toy_script("experiments/az-all/tune.sh");
        command
            .arg(ruleset)
            .env("INIT", imitated.join("latest.az"))
            .env("FIRST_RUNS", dir.join("runs"))
            .env("FIRST_OUT", dir.join("out"))
            .env("RUNS", dir.join("tune-runs"))
            .env("OUT", dir.join("out/tune"))
            .env("TEMPLATE", dir.join("tiny.toml"))
            .env("TUNE_STEPS", "2")
            .env("PLY_CAP", "60")
            .env("HOUR", "1000");
        command.output().expect("bash runs")
    };
    let o = tuning("kowalski-parcae");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("kowalski-parcae is not one of the rulesets"), "{err}");
    assert!(!dir.join("out/tune").exists(), "a refused run wrote files");
    let o = tuning("kowalski");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let tuned = dir.join("out/tune/kowalski");
    let config = fs::read_to_string(tuned.join("config.toml")).unwrap();
    let init_line = format!("\ninit_network = \"{}\"\n", imitated.join("latest.az").display());
    assert!(config.contains(&init_line) && config.contains("\nsteps = 2  # imitation"), "{config}");
    let log = fs::read_to_string(tuned.join("train_log.csv")).unwrap();
    assert!(log.lines().nth(1).is_some_and(|row| row.starts_with("0,3,") && row.ends_with(",2")), "{log}");
    for f in ["latest.az", "vs-ab3.csv", "vs-ms100.csv"] {
        assert!(tuned.join(f).is_file(), "{f}");
    }
    assert_ne!(fs::read(tuned.join("latest.az")).unwrap(), fs::read(imitated.join("latest.az")).unwrap());

    // twelve.sh runs a ruleset by the recipe its table records: here imitation, found
    // done, so nothing changes; a recipe it does not know is refused, naming it.
    let imitation_files =
        || -> Vec<_> { files(&dir.join("imitate-runs")).into_iter().chain(files(&dir.join("out/imitate"))).collect() };
    let before = imitation_files();
    let twelve = |recipe: &str| {
        let recipes = dir.join(format!("recipes-{}.csv", recipe.replace(|c: char| !c.is_ascii_alphanumeric(), "-")));
        fs::write(&recipes, format!("ruleset,recipe,score_ab3\nxxi,selfplay,0.77\nkowalski,{recipe},0.5\n")).unwrap();
        imitating("twelve.sh").env("RECIPES", &recipes).output().expect("bash runs")
    };
    let o = twelve("imitation");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("twelve.sh: kowalski by the imitation recipe"), "{err}");
    assert!(imitation_files() == before, "twelve.sh changed a finished imitation run");
    let o = twelve("both");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("gives kowalski the recipe 'both' (selfplay, imitation, family:FOLDER or tune:FOLDER)"),
        "{err}"
    );
    // A tuning names a folder whose config says which network it started from.
    let o = twelve(&format!("tune:{}", dir.join("no-tune").display()));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no-tune, whose kowalski/config.toml names no init_network and ply_cap"), "{err}");
    // A family recipe names a folder that must exist, and its run.env may set only the
    // family's own settings (checked before anything runs).
    let o = twelve(&format!("family:{}", dir.join("no-family").display()));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no-family, which is not a folder"), "{err}");
    fs::create_dir_all(dir.join("a-family/family")).unwrap();
    fs::write(dir.join("a-family/family/run.env"), "FAMILY=kowalski common\nHOUR=1\n").unwrap();
    let o = twelve(&format!("family:{}", dir.join("a-family").display()));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("a-family/family/run.env sets 'HOUR' (FAMILY, RECIPE or SEPARATE)"), "{err}");
    assert!(!dir.join("a-family/family.toml").exists(), "nothing was run");

    // The equal-time match: the network timed at 200 visits and at the visits that take
    // EVAL_MS, then played at those visits against the search player at EVAL_MS.
    let o = Command::new("bash")
        .arg(repo().join("experiments/az-all/moonshot.sh"))
        .arg("kowalski")
        .env("LATRUNCULI", env!("CARGO_BIN_EXE_latrunculi"))
        .env("OUT", dir.join("out"))
        .env("EVAL_MS", "5")
        .env("TIMING_GAMES", "1")
        .env("GAMES", "2")
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let timing = fs::read_to_string(out.join("moonshot/timing.csv")).unwrap();
    let rows: Vec<&str> = timing.lines().collect();
    assert_eq!(rows.len(), 3, "{timing}");
    assert_eq!(rows[0], "visits,games,plies,cpu_s,ms_per_move");
    assert!(rows[1].starts_with("200,1,"), "{timing}");
    let visits = rows[2].split(',').next().unwrap();
    let vs = fs::read_to_string(out.join("moonshot/vs-ms.csv")).unwrap();
    assert!(vs.contains(&format!("sims={visits},wincheck=1\",\"alphabeta:ms=5,cpu=1\",2,")), "{vs}");

    // The verdicts' networks survey: the network in self-play (2 games at 2 visits), its
    // cell in verdicts.csv as the player without its budget.
    let verdicts = dir.join("verdicts");
    let networks_into = |out: &Path, args: &[&str]| {
        Command::new("bash")
            .arg(repo().join("experiments/verdicts/run.sh"))
            .arg("networks")
            .args(args)
            .env("LATRUNCULI", env!("CARGO_BIN_EXE_latrunculi"))
            .env("OUT", out)
            .env("NETS", dir.join("out"))
            .env("NET_GAMES", "2")
            .env("NET_SIMS", "2")
            .output()
            .expect("bash runs")
    };
    let networks = |args: &[&str]| networks_into(&verdicts, args);
    let o = networks(&[]);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let config = fs::read_to_string(verdicts.join("networks/kowalski.toml")).unwrap();
    assert!(config.contains("games = 2\nmin_games = 2\n"), "{config}");
    let table = fs::read_to_string(verdicts.join("verdicts.csv")).unwrap();
    let model = dir.join("out/kowalski/latest.az");
    let row = table.lines().nth(1).unwrap_or_default();
    assert!(row.starts_with(&format!("kowalski,\"az:model={},wincheck=1\",sims=2,2,", model.display())), "{table}");
    assert_eq!(table.lines().count(), 2, "one cell: {table}");
    // Where the table of the twelve gives kowalski the imitation recipe, its network is
    // the imitation run's.
    fs::write(dir.join("out/twelve.csv"), "ruleset,recipe\nkowalski,imitation\n").unwrap();
    let o = networks_into(&dir.join("verdicts-imitation"), &["kowalski"]);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let config = fs::read_to_string(dir.join("verdicts-imitation/networks/kowalski.toml")).unwrap();
    let imitation = dir.join("out/imitate/kowalski/latest.az");
    assert!(config.contains(&format!("az:model={},sims=2", imitation.display())), "{config}");
    // Where it gives kowalski a family's network (family:FOLDER), the network is
    // FOLDER/family/latest.az (here a copy of kowalski's own).
    fs::copy(dir.join("out/kowalski/latest.az"), dir.join("a-family/family/latest.az")).unwrap();
    fs::write(
        dir.join("out/twelve.csv"),
        format!("ruleset,recipe\nkowalski,family:{}\n", dir.join("a-family").display()),
    )
    .unwrap();
    let o = networks_into(&dir.join("verdicts-family"), &["kowalski"]);
    assert!(o.status.success(), "{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let config = fs::read_to_string(dir.join("verdicts-family/networks/kowalski.toml")).unwrap();
    let family = dir.join("a-family/family/latest.az");
    assert!(config.contains(&format!("az:model={},sims=2", family.display())), "{config}");
    // A ruleset without a network is an error that names the file it looked for.
    let o = networks(&["xxi"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no network") && err.contains("xxi/latest.az"), "{err}");
    let _ = fs::remove_dir_all(&dir);
}

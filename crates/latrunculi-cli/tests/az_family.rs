//! `experiments/az-family/run.sh` at toy size on a two-member family other than the
//! default (xxi and single-stone-xxi, both 10x8) with the imitation recipe: the family's
//! configuration names its members and board, the network is trained and evaluated
//! (against the search player too, both members being on their own board), `run.env`
//! records the settings, `table.py`'s members come from `members.txt`; `run.sh teachers`
//! plays a removed teacher set again byte for byte and trains nothing; bad settings are
//! refused before anything is written.

use std::fs;
use std::path::Path;
use std::process::Command;

mod common;
use common::{repo, toy_dir, toy_script};

/// `bash experiments/az-family/run.sh ARGS` on the toy family in DIR.
fn family_script(dir: &Path, args: &[&str]) -> Command {
    let mut command = toy_script("experiments/az-family/run.sh");
    command
        .args(args)
        .env("FAMILY", "xxi single-stone-xxi")
        .env("RECIPE", "imitation")
        .env("IMITATE_STEPS", "3")
        .env("SEPARATE", "best")
        .env("RUNS", dir.join("runs"))
        .env("ALL", dir.join("all"))
        .env("OUT", dir.join("out"))
        .env("TEMPLATE", dir.join("tiny.toml"))
        .env("TEACHER_GAMES", "1")
        .env("TEACHER_S", "0")
        .env("TEACHER", "alphabeta:nodes=50,soft=250,noise=20")
        .env("HOUR", "20")
        .env("CURVE", "0");
    command
}

#[test]
fn a_family_of_two_trains_evaluates_and_replays_its_teachers() {
    let dir = toy_dir("az-family");

    // Refused settings write nothing.
    for (key, value, message) in [
        ("FAMILY", "xxi", "FAMILY must name at least two rulesets"),
        ("RECIPE", "bogus", "RECIPE must be selfplay or imitation"),
        ("SEPARATE", "bogus", "SEPARATE must be selfplay or best"),
    ] {
        let o = family_script(&dir, &[]).env(key, value).output().expect("bash runs");
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{key}={value}: {err}");
        assert!(err.contains(message), "{key}={value}: {err}");
        for d in ["runs", "all", "out"] {
            assert!(!dir.join(d).exists(), "{key}={value} wrote {d}");
        }
    }
    let o = family_script(&dir, &["bogus"]).output().expect("bash runs");
    assert_eq!(o.status.code(), Some(2));

    let o = family_script(&dir, &[]).output().expect("bash runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let config = fs::read_to_string(dir.join("out/family.toml")).unwrap();
    for line in [
        "ruleset = \"xxi\"",
        "family = [\"single-stone-xxi\"]",
        "board = \"10x8\"",
        "iterations = 0  # imitation: the warm start alone",
        "window_games = 20",
    ] {
        assert!(config.lines().any(|l| l == line), "family.toml lacks {line:?}:\n{config}");
    }
    assert!(
        config.lines().all(|l| l.starts_with('#') || !l.contains('@')),
        "a placeholder left in family.toml:\n{config}"
    );
    assert_eq!(fs::read_to_string(dir.join("out/family/members.txt")).unwrap(), "xxi\nsingle-stone-xxi\n");
    assert_eq!(
        fs::read_to_string(dir.join("out/family/run.env")).unwrap(),
        "FAMILY=xxi single-stone-xxi\nRECIPE=imitation\nSEPARATE=best\n"
    );
    assert!(dir.join("out/family/latest.az").is_file());
    // Both members are on their own board, so both also meet the search player at ms=5.
    for m in ["xxi", "single-stone-xxi"] {
        for vs in ["ab3", "separate", "ms100"] {
            let games = fs::read_to_string(dir.join(format!("out/family/{m}-vs-{vs}-games.csv"))).unwrap();
            assert_eq!(games.lines().count(), 3, "{m}-vs-{vs}: a header and 2 games");
        }
    }
    let table = Command::new("python3")
        .arg(repo().join("experiments/az-family/table.py"))
        .arg(dir.join("out"))
        .arg(dir.join("all"))
        .output()
        .expect("python3 runs");
    assert!(table.status.success(), "{}", String::from_utf8_lossy(&table.stderr));
    let csv = fs::read_to_string(dir.join("out/table.csv")).unwrap();
    let rulesets: Vec<&str> = csv.lines().skip(1).map(|l| l.split(',').next().unwrap()).collect();
    assert_eq!(rulesets, ["xxi", "single-stone-xxi"]);
    assert!(csv.lines().skip(1).all(|l| l.split(',').all(|c| !c.is_empty())), "an empty cell:\n{csv}");

    // A removed teacher set is played again, the same bytes, and nothing is trained.
    let teacher = dir.join("runs/single-stone-xxi/teacher/games.jsonl");
    let before = fs::read(&teacher).unwrap();
    let trained = fs::read(dir.join("out/family/latest.az")).unwrap();
    fs::remove_dir_all(dir.join("runs/single-stone-xxi/teacher")).unwrap();
    let o = family_script(&dir, &["teachers"]).output().expect("bash runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(err.contains("single-stone-xxi's teacher games are gone; playing them again"), "{err}");
    assert_eq!(fs::read(&teacher).unwrap(), before);
    assert_eq!(fs::read(dir.join("out/family/latest.az")).unwrap(), trained);
}

//! Tests of surveys: experiment files, resumption, shards, summaries.

use super::folder::*;
use super::run::*;
use super::*;
use std::path::{Path, PathBuf};

use crate::io::games;

fn rules_dir() -> PathBuf {
    PathBuf::from("/nonexistent")
}

/// Byte-mutation fuzzing of experiment files and agents files (as the rules crate's
/// `tests/fuzz.rs`): no panic, every rejection an error with a message.
#[test]
fn fuzzed_experiment_and_agents_files_are_refused_or_accepted_never_panic() {
    use latrunculi_rules::FastRng;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut seeds: Vec<String> = ["experiments/draw-survey.toml", "experiments/smoke-survey.toml"]
        .iter()
        .map(|f| std::fs::read_to_string(root.join(f)).expect("experiment file"))
        .collect();
    seeds.push(std::fs::read_to_string(root.join("experiments/az-v2-kowalski/curve/agents.txt")).unwrap());
    const DICT: &[&str] = &["[", "]", "\"", ",", "=", "\n", "#", "0", "-1", "99999999999", "@99x2", "mcts:", "az:"];
    let cases: u64 = std::env::var("LATRUNCULI_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
    let mut rng = FastRng::new(11);
    let agents = std::env::temp_dir().join(format!("latrunculi-fuzz-agents-{}.txt", std::process::id()));
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut crashes = Vec::new();
    for _ in 0..cases {
        let mut b = seeds[rng.below(seeds.len())].clone().into_bytes();
        for _ in 0..1 + rng.below(3) {
            let at = rng.below(b.len() + 1);
            match rng.below(3) {
                0 if !b.is_empty() => {
                    let i = rng.below(b.len());
                    b[i] = rng.below(128) as u8;
                }
                1 => b.truncate(at),
                _ => {
                    let w = DICT[rng.below(DICT.len())].as_bytes();
                    b.splice(at..at, w.iter().copied());
                }
            }
        }
        let text = String::from_utf8_lossy(&b).into_owned();
        let r = std::panic::catch_unwind(|| {
            if let Err(e) = Survey::from_toml_str(&text, &rules_dir(), &Players::baseline()) {
                assert!(!crate::error::full_message(&e).trim().is_empty());
            }
            std::fs::write(&agents, &text).unwrap();
            if let Err(e) = crate::ladder::read_agents(&agents) {
                assert!(e.to_string().contains("latrunculi-fuzz-agents"), "{e}");
            }
        });
        if r.is_err() {
            crashes.push(text);
        }
    }
    std::panic::set_hook(prev);
    let _ = std::fs::remove_file(&agents);
    assert!(crashes.is_empty(), "{} of {cases} inputs panicked, e.g. {:?}", crashes.len(), crashes.first());
}

#[test]
fn config_errors_name_the_problem() {
    let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"]]\ngames = 2\n";
    assert!(Survey::from_toml_str(base, &rules_dir(), &Players::baseline()).is_ok());
    let e = crate::error::full_message(
        &Survey::from_toml_str(&format!("{base}colour = 1\n"), &rules_dir(), &Players::baseline()).unwrap_err(),
    );
    assert!(e.contains("colour"), "{e}");
    let e = crate::error::full_message(
        &Survey::from_toml_str(&base.replace("kowalski", "nosuch"), &rules_dir(), &Players::baseline()).unwrap_err(),
    );
    assert!(e.contains("nosuch"), "{e}");
    let e = crate::error::full_message(
        &Survey::from_toml_str(&base.replace("\"random\"]", "\"wizard\"]"), &rules_dir(), &Players::baseline())
            .unwrap_err(),
    );
    assert!(e.contains("wizard"), "{e}");
    let e = crate::error::full_message(
        &Survey::from_toml_str(&base.replace("kowalski", "kowalski@99x2"), &rules_dir(), &Players::baseline())
            .unwrap_err(),
    );
    assert!(e.contains("kowalski@99x2"), "{e}");
}

#[test]
fn fingerprint_tracks_settings() {
    let base = "rulesets = [\"kowalski\", \"xxi@12x8\"]\npairings = [[\"random\", \"random\"]]\ngames = 2\n";
    let a = Survey::from_toml_str(base, &rules_dir(), &Players::baseline()).unwrap();
    assert_eq!(a.rulesets[1].0, "xxi@12x8");
    let b = Survey::from_toml_str(&format!("{base}out = \"elsewhere\"\n"), &rules_dir(), &Players::baseline()).unwrap();
    assert_eq!(a.fingerprint(), b.fingerprint());
    let c = Survey::from_toml_str(&format!("{base}seed = 2\n"), &rules_dir(), &Players::baseline()).unwrap();
    assert_ne!(a.fingerprint(), c.fingerprint());
}

#[test]
fn adaptive_cells_stop_at_the_first_narrow_enough_boundary() {
    let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"]]\ngames = 400\n";
    let fixed = Survey::from_toml_str(base, &rules_dir(), &Players::baseline()).unwrap();
    assert_eq!(fixed.games_needed(0, |_| None), 400, "without min_games every game is needed");
    let s = Survey::from_toml_str(&format!("{base}min_games = 100\nbatch = 50\n"), &rules_dir(), &Players::baseline())
        .unwrap();
    assert_eq!(s.adaptive(), Some(Adaptive { min_games: 100, batch: 50, half_width: 0.05 }));
    // Nothing played: the first round.
    assert_eq!(s.games_needed(0, |_| None), 100);
    // All draws: the interval at 100 games is [0.963, 1], half-width 0.018: stop.
    assert_eq!(s.games_needed(0, |_| Some(true)), 100);
    // Half draws: half-width 0.05 needs about 384 games; the boundaries are 100, 150,
    // …, 350, 400: Wilson's half-width at 350 is 0.052, so 400 (the cap).
    assert_eq!(s.games_needed(0, |g| Some(g % 2 == 0)), 400);
    // 10% draws: half-width at 150 is 0.049 (at 100: 0.060).
    assert_eq!(s.games_needed(0, |g| Some(g % 10 == 0)), 150);
    // Games missing inside a round: that round is needed.
    assert_eq!(s.games_needed(0, |g| if g < 120 { Some(g % 2 == 0) } else { None }), 150);
    // The settings are part of the fingerprint; without them it is unchanged.
    assert_ne!(s.fingerprint(), fixed.fingerprint());
    assert!(!fixed.fingerprint().contains("adaptive"));
    for bad in ["min_games = 0\n", "min_games = 401\n", "batch = 5\n", "min_games = 10\nhalf_width = 0\n"] {
        assert!(Survey::from_toml_str(&format!("{base}{bad}"), &rules_dir(), &Players::baseline()).is_err(), "{bad}");
    }
}

#[test]
fn pairing_caps_stop_one_pairing_early_and_are_checked() {
    let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"], [\"greedy\", \"random\"]]\ngames = 400\nmin_games = 50\n";
    let plain = Survey::from_toml_str(base, &rules_dir(), &Players::baseline()).unwrap();
    assert_eq!(plain.caps, vec![400, 400]);
    let s = Survey::from_toml_str(
        &format!("{base}[[cap]]\npairing = [\"greedy\", \"random\"]\ngames = 100\n"),
        &rules_dir(),
        &Players::baseline(),
    )
    .unwrap();
    assert_eq!(s.caps, vec![400, 100]);
    // Half draws: pairing 0 runs to 400, the capped pairing stops at 100.
    assert_eq!(s.games_needed(0, |g| Some(g % 2 == 0)), 400);
    assert_eq!(s.games_needed(1, |g| Some(g % 2 == 0)), 100);
    assert!(s.fingerprint().contains("cap = greedy vs random: 100\n"), "{}", s.fingerprint());
    assert!(!plain.fingerprint().lines().any(|l| l.starts_with("cap = ")));
    // Only the stopping-rule lines differ.
    let (fs, fp) = (s.fingerprint(), plain.fingerprint());
    let differ: Vec<&str> = fs.lines().filter(|l| !fp.lines().any(|x| x == *l)).collect();
    assert!(differ.iter().all(|l| is_stop_rule_line(l)), "{differ:?}");
    for (bad, needle) in [
        ("[[cap]]\npairing = [\"mcts:sims=10\", \"random\"]\ngames = 100\n", "not in `pairings`"),
        ("[[cap]]\npairing = [\"random\", \"greedy\"]\ngames = 100\n", "not in `pairings`"),
        ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 401\n", "must be 1 to"),
        ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 0\n", "must be 1 to"),
        (
            "[[cap]]\npairing = [\"random\", \"random\"]\ngames = 9\n[[cap]]\npairing = [\"random\", \"random\"]\ngames = 8\n",
            "two [[cap]]",
        ),
        ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 9\ncolour = 1\n", "colour"),
    ] {
        let e = crate::error::full_message(
            &Survey::from_toml_str(&format!("{base}{bad}"), &rules_dir(), &Players::baseline()).unwrap_err(),
        );
        assert!(e.contains(needle), "{bad}: {e}");
    }
}

#[test]
fn shards_are_read_as_k_of_n() {
    assert_eq!(parse_shard("2/3"), Ok((2, 3)));
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        assert!(parse_shard(bad).is_err(), "{bad}");
    }
    assert!((0..7).filter(|&c| in_shard(c, Some((2, 3)))).eq([1, 4]));
}

#[test]
fn summary_columns_end_with_reasons() {
    let cols = summary_columns();
    assert_eq!(cols.len(), 16 + 9);
    assert_eq!(cols[16], "reason_immobilized");
    assert_eq!(cols[24], "reason_ply_cap");
}

/// A fresh scratch folder (not created) for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("latrunculi-survey-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A small survey: two rulesets on small boards, two pairings, four games a cell.
const SMALL: &str = "rulesets = [\"kowalski@6x6\", \"xxi@6x6\"]\n\
                     pairings = [[\"random\", \"greedy\"], [\"greedy\", \"greedy\"]]\n\
                     games = 4\nply_cap = 200\n";

fn read(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

#[test]
fn an_interrupted_survey_resumes_to_the_files_of_one_run() {
    let survey = Survey::from_toml_str(SMALL, &rules_dir(), &Players::baseline()).unwrap();
    let whole = scratch("whole");
    run_survey(&survey, SMALL, &whole, None).unwrap();
    let games = String::from_utf8(read(&whole, "games.csv")).unwrap();
    assert_eq!(games.lines().count(), 1 + 16);

    // A run killed after some games: every fifth row kept, in another order, and a last
    // row cut short.
    let cut = scratch("cut");
    std::fs::create_dir_all(&cut).unwrap();
    let lines: Vec<&str> = games.lines().collect();
    let mut text = format!("{}\n", lines[0]);
    for l in lines[1..].iter().rev().step_by(5) {
        text += &format!("{l}\n");
    }
    text += &lines[3][..lines[3].len() / 2];
    std::fs::write(cut.join("games.csv"), &text).unwrap();
    std::fs::write(cut.join("fingerprint.txt"), survey.fingerprint()).unwrap();
    let progress = survey_progress(&survey, &cut, None).unwrap();
    let kept: u32 = progress.iter().map(|c| c.played).sum();
    assert_eq!(kept, 4, "the cut row is not counted");
    assert_eq!(progress.iter().map(|c| c.missing).sum::<u32>(), 12);
    assert!(progress.iter().all(|c| c.needed == 4 && c.cap == 4));

    run_survey(&survey, SMALL, &cut, None).unwrap();
    for f in ["games.csv", "summary.csv", "fingerprint.txt", "config.toml"] {
        assert_eq!(read(&cut, f), read(&whole, f), "{f}");
    }
    assert!(survey_progress(&survey, &cut, None).unwrap().iter().all(CellProgress::is_finished));

    // Another experiment in the same folder is refused, naming the difference.
    let other =
        Survey::from_toml_str(&SMALL.replace("games = 4", "games = 4\nseed = 9"), &rules_dir(), &Players::baseline())
            .unwrap();
    let e = run_survey(&other, SMALL, &cut, None).unwrap_err();
    assert!(matches!(e, ArenaError::OtherExperiment { ref diff, .. } if diff.contains("seed = 9")), "{e}");
    for d in [whole, cut] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn shards_merge_into_the_files_of_one_run() {
    let survey = Survey::from_toml_str(SMALL, &rules_dir(), &Players::baseline()).unwrap();
    let whole = scratch("shards-whole");
    run_survey(&survey, SMALL, &whole, None).unwrap();
    let shards: Vec<PathBuf> = (1..=3).map(|k| scratch(&format!("shard-{k}"))).collect();
    for (k, dir) in shards.iter().enumerate() {
        let cells = run_survey(&survey, SMALL, dir, Some((k as u32 + 1, 3))).unwrap();
        // Cells 0..4 in experiment order: shard k holds those with index k-1 modulo 3.
        assert_eq!(cells.len(), [2, 1, 1][k], "shard {}", k + 1);
    }
    let e = merge_shards(&survey, SMALL, &scratch("shards-partial"), &shards[..2]).unwrap_err();
    assert!(e.to_string().contains("3/3"), "{e}");
    let merged = scratch("shards-merged");
    merge_shards(&survey, SMALL, &merged, &shards).unwrap();
    for f in ["games.csv", "summary.csv", "fingerprint.txt"] {
        assert_eq!(read(&merged, f), read(&whole, f), "{f}");
    }
    for d in shards.into_iter().chain([whole, merged, scratch("shards-partial")]) {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn a_cut_games_file_is_read_up_to_its_last_whole_line() {
    let dir = scratch("lines");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.csv");
    let (bytes, cut) = complete_lines(&path).unwrap();
    assert_eq!((bytes, cut), (games::header().into_bytes(), 0), "a missing file reads as the header");
    std::fs::write(&path, format!("{}kowalski,00", games::header())).unwrap();
    let (bytes, cut) = complete_lines(&path).unwrap();
    assert_eq!((bytes.len(), cut), (games::header().len(), 11));
    std::fs::write(&path, "ruleset,game\n").unwrap();
    assert!(complete_lines(&path).is_err(), "another header is refused");
    std::fs::remove_dir_all(&dir).unwrap();
}

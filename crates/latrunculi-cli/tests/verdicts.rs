//! End-to-end tests of `latrunculi verdicts` through the binary: games played by `play`
//! with and without adjudication, hand-made cells giving verdicts, and bad input.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn latrunculi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_latrunculi")).args(args).output().expect("the binary runs")
}

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("verdicts-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// A CSV file as one map of column to value per row (quoted fields, such as a network's
/// agent spec, read whole).
fn read_csv(path: &Path) -> Vec<HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(path).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(str::to_string).collect();
    reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            assert_eq!(r.len(), header.len(), "{r:?}");
            header.iter().cloned().zip(r.iter().map(str::to_string)).collect()
        })
        .collect()
}

/// `games` random self-play games of `ruleset` written to `out` by `latrunculi play`.
fn play_random(ruleset: &str, games: &str, out: &Path) {
    let o = latrunculi(&[
        "play",
        "-r",
        ruleset,
        "--white",
        "random",
        "--black",
        "random",
        "--games",
        games,
        "--seed",
        "3",
        "--swap",
        "--ply-cap",
        "300",
        "--out",
        p(out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn played_games_are_split_and_adjudication_off_draws_every_count() {
    let dir = scratch("played");
    let (counted, off) = (dir.join("counted.csv"), dir.join("off.csv"));
    play_random("kowalski", "12", &counted);
    play_random("kowalski+end.adjudication=draw", "12", &off);
    let out = dir.join("verdicts.csv");
    let o = latrunculi(&["verdicts", "--games", p(&counted), p(&off), "--out", p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("kowalski+end.adjudication=draw"));
    let games = read_csv(&counted);
    let material = games.iter().filter(|g| g["reason"] == "material").count();
    let drawn = games.iter().filter(|g| g["winner"] == "draw").count();
    assert!(material > 0, "the random games reached no count: the test tests nothing");
    let rows = read_csv(&out);
    assert_eq!(rows.len(), 2);
    let (a, b) = (&rows[0], &rows[1]);
    assert_eq!((a["ruleset"].as_str(), a["player"].as_str(), a["budget"].as_str()), ("kowalski", "random", ""));
    assert_eq!(b["ruleset"], "kowalski+end.adjudication=draw");
    let n = |r: &HashMap<String, String>, c: &str| r[c].parse::<u64>().unwrap();
    assert_eq!((n(a, "games"), n(a, "adjudicated"), n(a, "draws")), (12, material as u64, drawn as u64));
    assert_eq!(n(a, "won_by_play") + n(a, "adjudicated") + n(a, "draws"), 12);
    // The same games without counts: every count win is a draw, nothing else changed.
    assert_eq!((n(b, "games"), n(b, "adjudicated"), n(b, "draws")), (12, 0, (drawn + material) as u64));
    assert_eq!(n(b, "won_by_play"), n(a, "won_by_play"));
    // Kowalski's limit draws are level counts; without counts they are plain limit draws.
    assert_eq!(n(b, "draws_no_capture_limit") + n(b, "draws_no_moves"), n(a, "draws_level_count") + material as u64);
    assert_eq!((n(a, "draws_no_capture_limit"), n(b, "draws_level_count")), (0, 0));
    assert_eq!(n(b, "draws_ply_cap"), n(a, "draws_ply_cap"));
    // A self-play player without a budget gets the level verdict alone.
    assert!(["drawish", "decisive", "balanced"].contains(&a["verdict"].as_str()), "{a:?}");
    assert_eq!(a["compared_with"], "");
}

#[test]
fn hand_made_cells_get_the_verdict_of_the_stated_rule() {
    let dir = scratch("hand-made");
    // The params_hash of both rulesets, from a game of each.
    let (one, one_off) = (dir.join("one.csv"), dir.join("one-off.csv"));
    play_random("kowalski", "1", &one);
    play_random("kowalski+end.adjudication=draw", "1", &one_off);
    let hash = |path: &Path| read_csv(path)[0]["params_hash"].clone();
    let (h, h_off) = (hash(&one), hash(&one_off));
    let header = "ruleset,params_hash,game,seed,white,black,winner,reason,plies";
    let mut lines = vec![header.to_string()];
    let mut add = |label: &str, hash: &str, spec: &str, n: u32, end: &dyn Fn(u32) -> (&'static str, &'static str)| {
        for g in 0..n {
            let (winner, reason) = end(g);
            lines.push(format!("{label},{hash},{g},{g},{spec},{spec},{winner},{reason},100"));
        }
    };
    let (weak, strong) = ("alphabeta:nodes=2500", "alphabeta:nodes=10000");
    // kowalski: 10 of 40 draws, then 45 of 50: unsettled.
    add("kowalski", &h, weak, 40, &|g| if g % 4 == 0 { ("draw", "ply-cap") } else { ("white", "material") });
    add("kowalski", &h, strong, 50, &|g| if g < 45 { ("draw", "no-capture-limit") } else { ("black", "immobilized") });
    // Without counts: 48 of 50, then 50 of 50: drawish.
    add("kowalski+end.adjudication=draw", &h_off, weak, 50, &|g| {
        if g < 48 { ("draw", "no-capture-limit") } else { ("white", "dux-captured") }
    });
    add("kowalski+end.adjudication=draw", &h_off, strong, 50, &|_| ("draw", "ply-cap"));
    let games = dir.join("games.csv");
    std::fs::write(&games, lines.join("\n") + "\n").unwrap();
    let dlp = dir.join("dlp.csv");
    std::fs::write(&dlp, "ruleset,draws,trials\nkowalski,27,30\n").unwrap();
    let out = dir.join("out/verdicts.csv");
    let o = latrunculi(&["verdicts", "--games", p(&games), "--dlp", p(&dlp), "--out", p(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rows = read_csv(&out);
    let found: Vec<(&str, &str, &str, &str)> = rows
        .iter()
        .map(|r| (r["ruleset"].as_str(), r["budget"].as_str(), r["verdict"].as_str(), r["compared_with"].as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("kowalski", "nodes=2500", "", ""),
            ("kowalski", "nodes=10000", "unsettled", "nodes=2500"),
            ("kowalski+end.adjudication=draw", "nodes=2500", "", ""),
            ("kowalski+end.adjudication=draw", "nodes=10000", "drawish", "nodes=2500"),
        ]
    );
    assert!(rows.iter().all(|r| r["player"] == "alphabeta"));
    let k = &rows[0];
    assert_eq!(
        (k["draw_rate"].as_str(), k["adjudicated_rate"].as_str(), k["won_by_play_rate"].as_str()),
        ("0.2500", "0.7500", "0.0000")
    );
    let lo: f64 = k["draw_lo"].parse().unwrap();
    let hi: f64 = k["draw_hi"].parse().unwrap();
    assert!(0.1 < lo && lo < 0.25 && 0.25 < hi && hi < 0.45, "{lo} {hi}");
    assert_eq!((rows[1]["dlp_draw_rate"].as_str(), rows[1]["dlp_trials"].as_str()), ("0.9000", "30"));
    assert_eq!((rows[1]["draws_level_count"].as_str(), rows[3]["draws_ply_cap"].as_str()), ("45", "50"));
    assert_eq!(rows[3]["dlp_draw_rate"], "");
}

#[test]
fn bad_input_is_an_error_naming_file_and_line_never_a_panic() {
    let dir = scratch("bad");
    let one = dir.join("one.csv");
    play_random("kowalski", "2", &one);
    let text = std::fs::read_to_string(&one).unwrap();
    let cases: [(&str, String, &str); 4] = [
        ("no-reason.csv", text.replacen(",reason,", ",why,", 1), "line 1: no column 'reason'"),
        (
            "unknown-reason.csv",
            {
                let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
                let fields: Vec<&str> = lines[2].split(',').collect();
                let bad = lines[2].replacen(&format!(",{},", fields[7]), ",resigned,", 1);
                lines[2] = bad;
                lines.join("\n") + "\n"
            },
            "line 3: unknown result reason 'resigned'",
        ),
        ("not-csv.csv", format!("{text}{{\"json\": true}}\n"), "line 4: not a CSV row"),
        ("empty.csv", String::new(), "empty.csv"),
    ];
    for (name, contents, want) in cases {
        let path = dir.join(name);
        std::fs::write(&path, contents).unwrap();
        let o = latrunculi(&["verdicts", "--games", p(&path), "--out", p(&dir.join("v.csv"))]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(name) && e.contains(want), "{name}: {e}");
        assert!(!e.contains("panicked"), "{e}");
    }
    assert!(!dir.join("v.csv").exists(), "nothing written on an error");
    // The help documents the rule and every column.
    let o = latrunculi(&["verdicts", "--help"]);
    let help = String::from_utf8_lossy(&o.stdout);
    for word in [
        "unsettled",
        "drawish",
        "draw_lo",
        "won_by_play_hi",
        "adjudicated_rate",
        "compared_with",
        "dlp_trials",
        "draws_ply_cap",
        "nodes, ms, sims, depth",
    ] {
        assert!(help.contains(word), "{word} missing from the help:\n{help}");
    }
}

#[test]
fn rules_adjudicating_lists_the_rulesets_whose_end_rules_count_pieces() {
    let o = latrunculi(&["rules", "--adjudicating"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .map(String::from)
        .collect();
    // Every ruleset's parameters, from `rules --verbose`: it counts where no_moves is
    // "material", or no_capture_result is "material" with a limit.
    let o = latrunculi(&["rules", "--verbose"]);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut counting = Vec::new();
    for part in text.split("\nid = \"").skip(1) {
        let id = part.split('"').next().unwrap().to_string();
        let value = |key: &str| {
            part.lines()
                .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                .unwrap_or_default()
                .trim_matches('"')
                .to_string()
        };
        let limit: u32 = value("no_capture_limit").parse().unwrap();
        if value("no_moves") == "material" || (value("no_capture_result") == "material" && limit > 0) {
            counting.push(id);
        }
    }
    assert!(counting.contains(&"kowalski".to_string()) && counting.contains(&"ludii-piso".to_string()), "{counting:?}");
    assert_eq!(listed, counting);
}

/// `experiments/verdicts/run.sh` end to end on two rulesets at tiny budgets, in two
/// shards and a merge: the three surveys (self-play, the adjudication-off rerun of the
/// ruleset that counts pieces, a rule variant), and verdicts.csv, from the shards' games
/// before the merge and from the merged files after it.
#[test]
fn the_experiment_script_runs_in_shards_and_merges_into_verdicts() {
    let dir = scratch("run-sh");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let run = |args: &[&str]| {
        let o = Command::new("bash")
            .arg(root.join("experiments/verdicts/run.sh"))
            .args(args)
            .env("LATRUNCULI", env!("CARGO_BIN_EXE_latrunculi"))
            .env("OUT", &dir)
            .env("RULESETS", "xxi ludii-bell-8x7")
            // The second variant's ruleset is not in RULESETS, so it is left out.
            .env("SENSITIVITY", "xxi@8x8 kowalski+end.no_capture_limit=30")
            .env("WEAK", "1")
            .env("STRONG", "4")
            .output()
            .expect("bash runs");
        assert!(o.status.success(), "run.sh {args:?}: {}", stderr(&o));
    };
    run(&["0/2"]);
    run(&["1/2"]);
    assert!(!dir.join("verdicts.csv").exists(), "no verdicts before the merge");
    // Before the merge, `run.sh verdicts` reads the shards' games: the same games, so the
    // same rows as after it (in another order: rulesets as the files first meet them).
    run(&["verdicts"]);
    let sorted_lines = |path: &Path| {
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        lines.sort_unstable();
        lines
    };
    let from_shards = sorted_lines(&dir.join("verdicts.csv"));
    run(&["merge", "2"]);
    assert_eq!(sorted_lines(&dir.join("verdicts.csv")), from_shards, "the shards' verdicts are the merged run's");
    let off = std::fs::read_to_string(dir.join("adjudication-off.toml")).unwrap();
    assert!(off.contains(r#"rulesets = ["ludii-bell-8x7+end.adjudication=draw"]"#), "{off}");
    let rows = read_csv(&dir.join("verdicts.csv"));
    let found: Vec<(&str, &str, &str)> =
        rows.iter().map(|r| (r["ruleset"].as_str(), r["budget"].as_str(), r["verdict"].as_str())).collect();
    let sensitivity = std::fs::read_to_string(dir.join("sensitivity.toml")).unwrap();
    assert!(sensitivity.contains(r#"rulesets = ["xxi@8x8"]"#), "{sensitivity}");
    assert_eq!(found.len(), 6, "{found:?}");
    assert_eq!(&found[..2], [("xxi", "nodes=1", ""), ("xxi", "nodes=4", found[1].2)]);
    assert_eq!(found[4].0, "ludii-bell-8x7+end.adjudication=draw");
    assert_eq!((found[5].0, found[5].1), ("xxi@8x8", "nodes=4"));
    assert!(["drawish", "decisive", "balanced"].contains(&found[5].2), "one budget: step 2 alone: {found:?}");
    // Every cell has at least the first 50 games, and nothing was adjudicated without counts.
    assert!(rows.iter().all(|r| r["games"].parse::<u32>().unwrap() >= 50), "{rows:?}");
    assert_eq!(rows[4]["adjudicated"], "0");
    // The three surveys' merged files are what verdicts read.
    for s in ["selfplay", "adjudication-off", "sensitivity"] {
        assert!(dir.join(s).join("summary.csv").is_file(), "{s}");
    }

    // A third budget (4 x STRONG) on a named ruleset: its verdict moves to that row and
    // compares it with STRONG; the other rows are unchanged.
    run(&["settle", "xxi"]);
    let settle = std::fs::read_to_string(dir.join("settle/xxi.toml")).unwrap();
    assert!(settle.contains(r#"rulesets = ["xxi"]"#) && settle.contains("alphabeta:nodes=16"), "{settle}");
    let after = read_csv(&dir.join("verdicts.csv"));
    assert_eq!(after.len(), 7, "{after:?}");
    let xxi: Vec<(&str, &str, &str)> = after
        .iter()
        .filter(|r| r["ruleset"] == "xxi")
        .map(|r| (r["budget"].as_str(), r["verdict"].as_str(), r["compared_with"].as_str()))
        .collect();
    assert_eq!(xxi.len(), 3, "{xxi:?}");
    assert_eq!((xxi[1].1, xxi[2].0, xxi[2].2), ("", "nodes=16", "nodes=4"), "{xxi:?}");
    assert!(!xxi[2].1.is_empty());
    assert_eq!(&after[3..], &rows[2..], "the other cells keep their rows");
}

/// The header and the seed rulesets' rows (every ruleset but Ludii's) of a games file, as
/// the README's `awk -F, 'NR == 1 || $1 !~ /^ludii-/'` keeps them.
fn seed_rows(games: &Path) -> String {
    std::fs::read_to_string(games)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || !l.starts_with("ludii-"))
        .map(|(_, l)| format!("{l}\n"))
        .collect()
}

/// The committed `experiments/verdicts/seed/verdicts.csv` is what `verdicts` makes of the
/// seed rulesets' rows of the committed `selfplay/games.csv` and `adjudication-off/games.csv`
/// and the third budget of `settle/` on the three seed rulesets (the README's command),
/// byte for byte: the published table can be recomputed from the published games.
#[test]
fn the_committed_seed_verdicts_follow_from_the_committed_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let seed = seed_rows(&root.join("experiments/verdicts/selfplay/games.csv"));
    assert!(seed.lines().count() > 3000, "the seed rulesets' games are committed");
    let dir = scratch("seed");
    std::fs::write(dir.join("seed-games.csv"), seed).unwrap();
    let out = dir.join("verdicts.csv");
    let dlp = root.join("experiments/ludii/dlp.csv");
    let rules = root.join("configs/rulesets");
    // The seed rulesets' adjudication-off cells: their rows of the merged adjudication-off/.
    let off_seed = seed_rows(&root.join("experiments/verdicts/adjudication-off/games.csv"));
    std::fs::write(dir.join("seed-off.csv"), off_seed).unwrap();
    let settle: Vec<PathBuf> = ["kowalski-parcae", "classical", "back-rank"]
        .iter()
        .map(|r| root.join(format!("experiments/verdicts/settle/{r}/games.csv")))
        .collect();
    let o = latrunculi(&[
        "verdicts",
        "--games",
        p(&dir.join("seed-games.csv")),
        p(&dir.join("seed-off.csv")),
        p(&settle[0]),
        p(&settle[1]),
        p(&settle[2]),
        "--dlp",
        p(&dlp),
        "--rules-dir",
        p(&rules),
        "--out",
        p(&out),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let committed = std::fs::read_to_string(root.join("experiments/verdicts/seed/verdicts.csv")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), committed);
    // Twelve rulesets, two budgets each and a third on the three of settle.toml, a verdict
    // on each largest budget; then the three that count pieces with adjudication off, one
    // budget each.
    let rows = read_csv(&out);
    assert_eq!(rows.len(), 30);
    assert_eq!(rows.iter().filter(|r| !r["verdict"].is_empty()).count(), 15);
    let mut third: Vec<&str> =
        rows.iter().filter(|r| r["budget"] == "nodes=16000").map(|r| r["ruleset"].as_str()).collect();
    third.sort_unstable();
    assert_eq!(third, ["back-rank", "classical", "kowalski-parcae"]);
    assert!(rows.iter().filter(|r| r["budget"] == "nodes=16000").all(|r| !r["verdict"].is_empty()));
    let off_rows: Vec<&str> = rows[27..].iter().map(|r| r["ruleset"].as_str()).collect();
    assert_eq!(
        off_rows,
        ["kowalski+end.adjudication=draw", "common+end.adjudication=draw", "back-rank+end.adjudication=draw"]
    );
    assert!(rows[27..].iter().all(|r| r["adjudicated"] == "0"), "adjudication off counts nothing");
}

/// The committed `experiments/verdicts/verdicts.csv` (all 42 rulesets, from the games
/// played so far) is what `bash experiments/verdicts/run.sh verdicts` makes of the
/// committed games, byte for byte: the script runs on a scratch folder holding links to
/// the committed survey folders, so it reads them as it reads its own (merged surveys,
/// or the shards of one not merged yet).
#[test]
fn the_committed_verdicts_follow_from_the_committed_games() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let dir = root.join("experiments/verdicts");
    let linked = scratch("all");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            std::os::unix::fs::symlink(&path, linked.join(path.file_name().unwrap())).unwrap();
        }
    }
    let o = Command::new("bash")
        .arg(root.join("experiments/verdicts/run.sh"))
        .arg("verdicts")
        .env("LATRUNCULI", env!("CARGO_BIN_EXE_latrunculi"))
        .env("OUT", &linked)
        .output()
        .expect("bash runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = linked.join("verdicts.csv");
    let committed = std::fs::read_to_string(dir.join("verdicts.csv")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), committed);
    // Every ruleset of selfplay/ has one verdict of the search player, on its largest
    // budget, once its cells have begun; the seed rulesets' rows are seed/verdicts.csv's.
    let rows = read_csv(&out);
    let played: std::collections::BTreeSet<String> = std::fs::read_to_string(dir.join("selfplay/games.csv"))
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_owned())
        .collect();
    let judged: Vec<&str> = rows
        .iter()
        .filter(|r| r["player"] == "alphabeta" && !r["verdict"].is_empty() && played.contains(&r["ruleset"]))
        .map(|r| r["ruleset"].as_str())
        .collect();
    assert_eq!(judged.len(), played.len(), "one verdict per ruleset: {judged:?}");
    let seed = read_csv(&dir.join("seed/verdicts.csv"));
    for s in &seed {
        assert!(rows.contains(s), "the seed row {s:?} is in verdicts.csv");
    }
}

//! Every ruleset label that a committed result file holds (the `ruleset` column of the
//! CSVs under `experiments/` and `data/`) is read back: it parses, resolves and writes
//! itself again ([`RulesetSpec`]), every command that takes a ruleset accepts it through
//! the library (`eval`, `ladder`, `dataset`, `train`'s configuration, `survey`), and the
//! binary's `show`, `play` and `eval` accept it on the command line.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use latrunculi_arena::dataset::{DatasetPlan, DatasetSpec};
use latrunculi_arena::eval::EvalPlan;
use latrunculi_arena::game::RulesetChoice;
use latrunculi_arena::ladder::LadderPlan;
use latrunculi_arena::survey::Survey;
use latrunculi_rules::RulesetSpec;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn rules_dir() -> PathBuf {
    root().join("configs/rulesets")
}

fn csv_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            csv_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "csv") {
            out.push(path);
        }
    }
}

/// The distinct cells of every `ruleset` column of the CSVs under `experiments/` and
/// `data/`. A row holding a `ruleset` cell is a header (files of several blocks, such as
/// `bench-az` output, repeat it), and the column is the one it names.
fn committed_labels() -> BTreeSet<String> {
    let mut files = Vec::new();
    for dir in ["experiments", "data"] {
        csv_files(&root().join(dir), &mut files);
    }
    let mut labels = BTreeSet::new();
    for file in &files {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_path(file).unwrap();
        let mut column = None;
        for record in reader.byte_records() {
            let record = record.unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            if let Some(i) = record.iter().position(|c| c == b"ruleset") {
                column = Some(i);
            } else if let Some(cell) = column.and_then(|i| record.get(i)) {
                labels.insert(String::from_utf8(cell.to_vec()).unwrap());
            }
        }
    }
    labels
}

fn latrunculi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_latrunculi")).current_dir(root()).args(args).output().expect("the binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("ruleset-labels").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The labels to try on the command line: plain ids, boards and parameter changes.
fn sample(labels: &BTreeSet<String>) -> Vec<&String> {
    let pick = |f: fn(&str) -> bool| labels.iter().filter(move |l| f(l)).take(2);
    let mut out: Vec<&String> = pick(|l| !l.contains(['@', '+'])).collect();
    out.extend(pick(|l| l.contains('@')));
    out.extend(pick(|l| l.contains('+')));
    out
}

#[test]
fn every_committed_label_parses_resolves_and_writes_itself_again() {
    let labels = committed_labels();
    assert!(labels.len() >= 50, "only {} labels found", labels.len());
    for must in ["xxi@12x8", "kowalski+end.no_capture_limit=120", "kowalski", "ludii-seega-11x16"] {
        assert!(labels.contains(must), "{must} is not among the committed labels");
    }
    for label in &labels {
        let spec: RulesetSpec = label.parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&spec.to_string(), label);
        let rs = spec.resolve(Some(&rules_dir())).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(&spec.label_for(&rs).to_string(), label);
        if let Some(b) = spec.board {
            assert_eq!((rs.width, rs.height), (b.width, b.height), "{label}");
        }
    }
}

#[test]
fn every_command_accepts_every_committed_label_through_the_library() {
    let labels = committed_labels();
    let dir = scratch("library");
    let agents = dir.join("agents.txt");
    std::fs::write(&agents, "random\ngreedy\n").unwrap();
    for label in &labels {
        let spec: RulesetSpec = label.parse().unwrap();
        let choice = RulesetChoice { ruleset: spec.clone(), board: None, rules_dir: rules_dir() };
        let eval =
            EvalPlan::new(&latrunculi_az::players(), &choice, "random", &["greedy".into()], 1, 1, 10, None, 0.05, 0.05)
                .unwrap_or_else(|e| panic!("eval, {label}: {e:#}"));
        assert_eq!(&eval.label, label);
        let ladder = LadderPlan::new(&latrunculi_az::players(), &choice, &agents, 1, 1, 10, 0.0, "random")
            .unwrap_or_else(|e| panic!("ladder, {label}: {e:#}"));
        assert_eq!(&ladder.label, label);
        let dataset = DatasetSpec {
            ruleset: choice.clone(),
            white: "random".into(),
            black: "greedy".into(),
            games: 1,
            out: dir.join("dataset"),
            seed: 1,
            swap: true,
            ply_cap: 10,
            light: true,
            resume: false,
        };
        let plan = DatasetPlan::from_spec(&dataset, &latrunculi_az::players())
            .unwrap_or_else(|e| panic!("dataset, {label}: {e:#}"));
        assert_eq!(&plan.label, label);
        let config = latrunculi_az::TrainConfig::from_toml_str(
            &format!("ruleset = \"{}\"\n", label.replace('"', "\\\"")),
            "t.toml",
        )
        .unwrap_or_else(|e| panic!("train, {label}: {e}"));
        let rs = config.load_ruleset(Some(&rules_dir())).unwrap_or_else(|e| panic!("train, {label}: {e}"));
        assert_eq!(rs, eval.ruleset, "{label}");
    }
    let quoted: Vec<String> = labels.iter().map(|l| format!("'{l}'")).collect();
    let experiment = format!("rulesets = [{}]\npairings = [[\"random\", \"greedy\"]]\ngames = 1\n", quoted.join(", "));
    let survey = Survey::from_toml_str(&experiment, &rules_dir(), &latrunculi_az::players())
        .unwrap_or_else(|e| panic!("survey: {e:#}"));
    let written: BTreeSet<String> = survey.rulesets.iter().map(|(l, _)| l.clone()).collect();
    assert_eq!(written, labels);
}

#[test]
fn show_play_and_eval_accept_committed_labels_on_the_command_line() {
    let labels = committed_labels();
    let dir = scratch("binary");
    for label in labels.iter() {
        let o = latrunculi(&["show", "--ruleset", label]);
        assert!(o.status.success(), "show {label}: {}", String::from_utf8_lossy(&o.stderr));
    }
    for (i, label) in sample(&labels).into_iter().enumerate() {
        let out = dir.join(format!("play-{i}.csv"));
        let args = ["play", "-r", label, "--white", "random", "--black", "random", "--ply-cap", "12", "--out"];
        let o = latrunculi(&[&args[..], &[out.to_str().unwrap()]].concat());
        assert!(o.status.success(), "play {label}: {}", String::from_utf8_lossy(&o.stderr));
        let mut rows = csv::Reader::from_path(&out).unwrap();
        let row = rows.records().next().expect("one game").unwrap();
        assert_eq!(&row[0], label.as_str(), "the ruleset column of `play`");
        let out = dir.join(format!("eval-{i}.csv"));
        let args = ["eval", "-r", label, "--agent", "random", "--vs", "greedy", "--games", "1", "--ply-cap", "12"];
        let o = latrunculi(&[&args[..], &["--out", out.to_str().unwrap()]].concat());
        assert!(o.status.success(), "eval {label}: {}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.lines().nth(1).is_some_and(|l| l.starts_with(&format!("{label},"))), "eval {label}: {text}");
    }
    // `--board` still gives the board, and a second board is refused.
    let out = dir.join("board.csv");
    let o = latrunculi(
        &["play", "-r", "xxi", "--board", "12x8", "--white", "random", "--black", "random"]
            .iter()
            .copied()
            .chain(["--ply-cap", "12", "--out", out.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read_to_string(&out).unwrap().lines().nth(1).unwrap().starts_with("xxi@12x8,"));
    let o = latrunculi(&["show", "-r", "xxi@12x8", "--board", "10x8"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("xxi@12x8") && e.contains("10x8"), "{e}");
    let o = latrunculi(&["show", "-r", "xxi@12y8"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && e.contains("'12y8'") && e.contains("WxH"), "{e}");
}

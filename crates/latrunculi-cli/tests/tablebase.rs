//! End-to-end tests of `latrunculi tablebase` (build, probe, summary) through the binary,
//! on kowalski's rules on a 6x6 board (tables of up to two pieces build in a moment).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn latrunculi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_latrunculi")).args(args).output().expect("the binary runs")
}

/// A fresh, empty scratch folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tablebase-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const RULESET: &str = "kowalski@6x6";

fn build(dir: &Path, pieces: &str) -> Output {
    latrunculi(&["tablebase", "build", "--ruleset", RULESET, "--pieces", pieces, "--out", dir.to_str().unwrap()])
}

fn probe(dir: &Path, fen: &str) -> Output {
    latrunculi(&["tablebase", "probe", "--dir", dir.to_str().unwrap(), "--ruleset", RULESET, "--fen", fen])
}

#[test]
fn tables_build_resume_and_summarise_as_csv() {
    let dir = scratch("build");
    let first = build(&dir, "2");
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(text(&first.stderr).contains("12 materials built"), "{}", text(&first.stderr));
    // A second build keeps every table.
    let again = build(&dir, "2");
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(text(&again.stderr).contains("0 materials built") && text(&again.stderr).contains("12 kept"));
    let summary = latrunculi(&["tablebase", "summary", "--dir", dir.to_str().unwrap()]);
    assert!(summary.status.success(), "{}", text(&summary.stderr));
    let out = text(&summary.stdout);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("ruleset,material,pieces,positions,white_wins,draws,white_losses,longest_win"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 12, "{out}");
    let row = |material: &str| rows.iter().find(|r| r[1] == material).unwrap_or_else(|| panic!("{material}: {out}"));
    // One soldier against one can never be captured on an open board (a capture needs
    // two flankers): every position is drawn. 36 * 35 placements, White to move.
    assert_eq!(row("1v1")[2..], ["2", "1260", "0", "1260", "0", "0"]);
    // Two soldiers against nothing: White has won (the game ends at White's next move).
    assert_eq!(row("2v0")[2..], ["2", "630", "630", "0", "0", "1"]);
    // White without a piece has lost, in every position.
    assert_eq!(row("0v2")[6], "630");
}

#[test]
fn probe_prints_the_value_and_refuses_what_the_tables_do_not_hold() {
    let dir = scratch("probe");
    assert!(build(&dir, "2").status.success());
    let lost = probe(&dir, "6/6/6/6/6/2S3 b");
    assert!(lost.status.success(), "{}", text(&lost.stderr));
    let out = text(&lost.stdout);
    assert!(out.contains("material 1v0") && out.contains("loss for black"), "{out}");
    let drawn = probe(&dir, "6/6/6/6/6/2S2s w");
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    assert!(text(&drawn.stdout).contains("value: draw"), "{}", text(&drawn.stdout));
    // Three pieces with tables of two: an error that says which build makes it.
    let missing = probe(&dir, "6/6/6/6/s5/S1S3 w");
    assert_eq!(missing.status.code(), Some(2));
    let e = text(&missing.stderr);
    assert!(e.contains("no table for material 2v1") && e.contains("--pieces 3"), "{e}");
    // A position of another board size is refused, naming both sizes.
    let other = latrunculi(&[
        "tablebase",
        "probe",
        "--dir",
        dir.to_str().unwrap(),
        "--ruleset",
        "xxi",
        "--fen",
        "6/6/6/6/6/2S3 w",
    ]);
    assert!(!other.status.success());
    assert!(text(&other.stderr).contains("6x6") && text(&other.stderr).contains("10x8"), "{}", text(&other.stderr));
}

#[test]
fn a_damaged_table_is_refused_naming_the_file() {
    let dir = scratch("damaged");
    assert!(build(&dir, "2").status.success());
    let table = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .find(|e| e.path().is_dir())
        .map(|e| e.path().join("1v1.lttb"))
        .unwrap();
    let bytes = std::fs::read(&table).unwrap();
    std::fs::write(&table, &bytes[..bytes.len() / 2]).unwrap();
    let out = probe(&dir, "6/6/6/6/6/2S2s w");
    assert!(!out.status.success(), "a truncated table must not be read");
    let e = text(&out.stderr);
    assert!(e.contains("1v1.lttb"), "{e}");
}

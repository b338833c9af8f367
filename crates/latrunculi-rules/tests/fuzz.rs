//! Byte-mutation fuzzing of every parser of the rules crate (stable Rust, no nightly
//! `cargo fuzz`): FEN and diagram setups, move tokens (alone and in a position), game
//! records (parsed and replayed) and ruleset TOML (loaded and played), plus `Position`
//! fed random legal and illegal actions.
//!
//! Each target starts from a committed seed corpus (`tests/fuzz-corpus/`, the ruleset
//! files of `configs/rulesets/` and the records of `data/games/`), applies random
//! mutations (byte changes, inserts of notation characters, deletions, duplicated or
//! spliced chunks, truncation) and feeds the result to the parser. The property: no
//! panic, and every rejection is an error with a message. Whatever a parser accepts is
//! used further (a setup becomes a position of every ruleset and is played; a record is
//! replayed; a ruleset plays a game), so bad input that slips through a parser is caught
//! by the code after it.
//!
//! `LATRUNCULI_FUZZ_CASES` (default 1500) sets the cases per target and
//! `LATRUNCULI_FUZZ_SEED` (default 1) the seed. Inputs that panicked are printed and
//! written to `target/tmp/fuzz-crashes/`; a fixed crash is kept as a regression file in
//! `tests/fuzz-corpus/regressions/TARGET-*.txt`, which every run feeds first.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use latrunculi_rules::notation::{parse_move, parse_token};
use latrunculi_rules::{FastRng, GameRecord, Move, PieceKind, Position, ReplayOptions, Ruleset, Setup, Square, replay};

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz-corpus")
}

/// Non-empty lines of a corpus file (`#` lines are comments).
fn corpus_lines(name: &str) -> Vec<String> {
    let text = std::fs::read_to_string(corpus_dir().join(name)).expect("corpus file");
    text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).map(String::from).collect()
}

/// The text of every file with extension `ext` in `dir`, sorted by name.
fn files_in(dir: &Path, ext: &str) -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("corpus folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some(ext))
        .collect();
    paths.sort();
    paths.iter().map(|p| std::fs::read_to_string(p).expect("corpus text")).collect()
}

/// Regression inputs of `target` (files `regressions/TARGET-*.txt`).
fn regressions(target: &str) -> Vec<String> {
    let dir = corpus_dir().join("regressions");
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with(&format!("{target}-")) {
                out.push(std::fs::read_to_string(&p).expect("regression text"));
            }
        }
    }
    out
}

/// Characters a mutation inserts: the notation's own, separators, and some that no
/// parser expects.
const DICT: &[&str] = &[
    "/",
    "-",
    "x",
    "@",
    "D",
    "d",
    "S",
    "s",
    "T",
    "t",
    "w",
    "b",
    "#",
    "+",
    "(+)",
    "*",
    "!",
    "?",
    "1",
    "0",
    "9",
    "12",
    "16",
    "17",
    "99",
    "4294967296",
    " ",
    "\n",
    "\t",
    "[",
    "]",
    "{",
    "}",
    "(",
    ")",
    ";",
    ".",
    "...",
    "1-0",
    "0-1",
    "1/2-1/2",
    "½",
    "=",
    "\"",
    "'",
    ",",
    "é",
    "\u{0}",
    "🂡",
    "^",
    "a",
    "l",
    "m",
    "p",
    "q",
    "z",
    "[end]",
    "width",
    "height",
    "true",
    "-1",
];

/// One random mutation of `input` (a UTF-8 string), maybe splicing in `other`.
fn mutate(rng: &mut FastRng, input: &str, other: &str) -> String {
    let mut b: Vec<u8> = input.as_bytes().to_vec();
    let rounds = 1 + rng.below(4);
    for _ in 0..rounds {
        let at = if b.is_empty() { 0 } else { rng.below(b.len() + 1) };
        match rng.below(8) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.below(256) as u8;
            }
            1 | 2 => {
                let w = DICT[rng.below(DICT.len())].as_bytes();
                b.splice(at..at, w.iter().copied());
            }
            3 if !b.is_empty() => {
                let len = 1 + rng.below(8.min(b.len()));
                let s = rng.below(b.len() - len + 1);
                b.drain(s..s + len);
            }
            4 if !b.is_empty() => {
                let len = 1 + rng.below(16.min(b.len()));
                let s = rng.below(b.len() - len + 1);
                let chunk: Vec<u8> = b[s..s + len].to_vec();
                b.splice(at..at, chunk);
            }
            5 if !other.is_empty() => {
                let o = other.as_bytes();
                let s = rng.below(o.len());
                let len = 1 + rng.below((o.len() - s).min(40));
                b.splice(at..at, o[s..s + len].iter().copied());
            }
            6 => b.truncate(at),
            _ if !b.is_empty() => {
                // A digit changed into another number: sizes, counts, ranks.
                let i = rng.below(b.len());
                if b[i].is_ascii_digit() {
                    let n = ["0", "13", "255", "65536", "7"][rng.below(5)];
                    b.splice(i..i + 1, n.bytes());
                }
            }
            _ => b.push(rng.below(128) as u8),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs `check` on the regression inputs and `cases` mutants of `seeds`; returns the
/// inputs that panicked (with the panic message), writing them under target/tmp.
fn fuzz(target: &str, seeds: &[String], check: impl Fn(&str)) -> usize {
    assert!(!seeds.is_empty(), "{target}: empty corpus");
    let cases = env_or("LATRUNCULI_FUZZ_CASES", 1500);
    let mut rng = FastRng::new(env_or("LATRUNCULI_FUZZ_SEED", 1) ^ latrunculi_rules::fnv1a(target.as_bytes()));
    let mut inputs: Vec<String> = regressions(target);
    inputs.extend(seeds.iter().cloned());
    let fixed = inputs.len();
    let mut crashes: Vec<(String, String)> = Vec::new();
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    for k in 0..fixed as u64 + cases {
        let input = if (k as usize) < fixed {
            inputs[k as usize].clone()
        } else {
            let a = &seeds[rng.below(seeds.len())];
            let b = &seeds[rng.below(seeds.len())];
            mutate(&mut rng, a, b)
        };
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| check(&input))) {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            crashes.push((input, msg));
        }
    }
    std::panic::set_hook(prev);
    if !crashes.is_empty() {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-crashes");
        let _ = std::fs::create_dir_all(&dir);
        for (i, (input, msg)) in crashes.iter().enumerate().take(20) {
            let _ = std::fs::write(dir.join(format!("{target}-{i}.txt")), input);
            eprintln!("{target} crash {i}: {msg}\n  input: {input:?}");
        }
    }
    eprintln!("{target}: {} inputs, {} panics", fixed as u64 + cases, crashes.len());
    crashes.len()
}

/// An error must say what is wrong.
fn explained<E: std::fmt::Display>(e: E) {
    assert!(!e.to_string().trim().is_empty(), "an error without a message");
}

/// Plays up to `plies` random legal moves, checking the engine's own invariants, and
/// tries random actions that are not legal: each is refused and changes nothing.
fn play_randomly(pos: &mut Position, rng: &mut FastRng, plies: usize) {
    let mut moves = Vec::new();
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        pos.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "a game that is not over has a legal move");
        let (file, rank) = (rng.below(17) as u8, rng.below(17) as u8);
        let probe = match (Square::new(file, rank), Square::new(rng.below(16) as u8, rng.below(16) as u8)) {
            (Some(a), Some(b)) => match rng.below(3) {
                0 => Some(Move::movement(a, b)),
                1 => Some(Move::place(if rng.below(2) == 0 { PieceKind::Soldier } else { PieceKind::Dux }, a)),
                _ => Some(Move::remove(a)),
            },
            _ => None,
        };
        if let Some(mv) = probe.filter(|m| !moves.contains(m)) {
            let before = pos.clone();
            assert!(pos.try_play(mv).is_none(), "an illegal action was played");
            assert!(*pos == before && pos.hash() == before.hash(), "a refused action changed the position");
        }
        let mv = moves[rng.below(moves.len())];
        let hash = pos.hash();
        pos.play(mv);
        assert!(pos.ply() > 0);
        let _ = hash;
        // The position survives its own FEN.
        let fen = pos.to_setup().to_fen();
        let back = Setup::from_fen(&fen).unwrap_or_else(|e| panic!("own FEN {fen} refused: {e}"));
        assert_eq!(back.to_fen(), fen);
    }
}

fn rulesets() -> Vec<Ruleset> {
    Ruleset::all_builtin()
}

#[test]
fn fen_and_diagram_setups() {
    let all = rulesets();
    let mut seeds = corpus_lines("fen.txt");
    // The start positions of every ruleset, as FEN and as diagram.
    for rs in &all {
        let setup = Position::new(rs).to_setup();
        seeds.push(setup.to_fen());
        seeds.push(setup.diagram());
    }
    let crashes = fuzz("setup", &seeds, |text| {
        let mut rng = FastRng::new(latrunculi_rules::fnv1a(text.as_bytes()));
        for parsed in [Setup::from_fen(text), Setup::parse(text)] {
            match parsed {
                Err(e) => explained(e),
                Ok(setup) => {
                    for rs in &all {
                        match Position::from_setup(rs, &setup) {
                            Err(e) => explained(e),
                            Ok(mut pos) => play_randomly(&mut pos, &mut rng, 6),
                        }
                    }
                }
            }
        }
    });
    assert_eq!(crashes, 0);
}

#[test]
fn move_tokens_alone_and_in_positions() {
    let all = rulesets();
    let mut seeds = corpus_lines("tokens.txt");
    let mut starts = Vec::new();
    for rs in &all {
        let mut pos = Position::new(rs);
        let mut rng = FastRng::new(3);
        // A position a few plies in, and its legal moves' notation as seeds.
        for _ in 0..8 {
            let moves = pos.legal_move_list();
            if pos.is_over() || moves.is_empty() {
                break;
            }
            for &m in moves.iter().take(3) {
                if let Some(t) = latrunculi_rules::move_text(&pos, m) {
                    seeds.push(t.to_string());
                }
            }
            pos.play(moves[rng.below(moves.len())]);
        }
        starts.push((rs.clone(), Position::new(rs), pos));
    }
    let crashes = fuzz("token", &seeds, |token| {
        match parse_token(token) {
            Err(e) => explained(e),
            Ok(w) => {
                let _ = format!("{w:?}");
            }
        }
        for (rs, start, later) in &starts {
            for pos in [start, later] {
                match parse_move(rs, pos, token) {
                    Err(e) => explained(e),
                    Ok(parsed) => {
                        let mut p = pos.clone();
                        assert!(p.try_play(parsed.mv).is_some(), "parse_move returned an illegal move");
                    }
                }
            }
        }
    });
    assert_eq!(crashes, 0);
}

#[test]
fn game_records_parsed_and_replayed() {
    let mut seeds = files_in(&repo().join("data/games/xxi"), "txt");
    seeds.extend(files_in(&corpus_dir().join("records"), "txt"));
    let crashes = fuzz("record", &seeds, |text| match GameRecord::parse(text) {
        Err(e) => explained(e),
        Ok(record) => {
            for continue_on_illegal in [false, true] {
                match replay(&record, ReplayOptions { continue_on_illegal }) {
                    Err(e) => explained(e),
                    Ok(report) => {
                        let _ = report.final_result();
                        for m in report.illegal_moves() {
                            if let Some(e) = m.error() {
                                explained(e);
                            }
                        }
                    }
                }
            }
        }
    });
    assert_eq!(crashes, 0);
}

#[test]
fn ruleset_files_loaded_and_played() {
    let seeds = files_in(&repo().join("configs/rulesets"), "toml");
    assert_eq!(seeds.len(), Ruleset::builtin_ids().count(), "one file per built-in ruleset");
    let crashes = fuzz("ruleset", &seeds, |text| match Ruleset::from_toml_str(text, "fuzz.toml") {
        Err(e) => {
            explained(&e);
            assert!(e.to_string().contains("fuzz.toml"), "the error names the file: {e}");
        }
        Ok(rs) => {
            // An accepted ruleset round-trips and plays.
            let again = Ruleset::from_toml_str(&rs.to_toml(), "again.toml").expect("its own TOML");
            assert_eq!(again.params_hash(), rs.params_hash());
            let mut pos = Position::new(&rs);
            let mut rng = FastRng::new(rs.params_hash());
            play_randomly(&mut pos, &mut rng, 40);
        }
    });
    assert_eq!(crashes, 0);
}

#[test]
fn the_fuzzer_reports_a_panicking_parser() {
    // A parser that panics on one character is caught, counted and not fatal.
    let seeds = vec!["abc".to_string(), "a/b/c".to_string()];
    let crashes = fuzz("probe", &seeds, |s| {
        if s.contains('#') {
            panic!("found #");
        }
    });
    assert!(crashes > 0, "the mutations insert '#' sometimes");
}

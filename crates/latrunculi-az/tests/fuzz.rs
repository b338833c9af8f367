//! Byte-mutation fuzzing of the AlphaZero crate's inputs: training configurations
//! (`configs/train/*.toml`) and checkpoint files, both raw (the checksum must catch every
//! change) and re-framed with a valid checksum around a mutated metadata text or network
//! record (the parser and the loader must then refuse or load, never panic nor allocate
//! without bound). `LATRUNCULI_FUZZ_CASES` (default 300) sets the cases per target.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use latrunculi_az::checkpoint::{self, CheckpointMeta};
use latrunculi_az::{BoardTables, TrainConfig};
use latrunculi_rules::{FastRng, Position, Ruleset, fnv1a};

fn cases() -> u64 {
    std::env::var("LATRUNCULI_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

fn rng(target: &str) -> FastRng {
    let seed: u64 = std::env::var("LATRUNCULI_FUZZ_SEED").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    FastRng::new(seed ^ fnv1a(target.as_bytes()))
}

const DICT: &[&str] = &[
    "0",
    "1",
    "-1",
    "999999999",
    "4294967296",
    "1e30",
    "nan",
    "inf",
    "true",
    "\"x\"",
    "[",
    "]",
    "=",
    "\n",
    "#",
    ".",
    "blocks",
    "channels",
    "planes",
    "width",
    "height",
    "actions",
];

fn mutate(rng: &mut FastRng, input: &[u8]) -> Vec<u8> {
    let mut b = input.to_vec();
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(b.len() + 1);
        match rng.below(6) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = rng.below(256) as u8;
            }
            1 if !b.is_empty() => {
                let len = 1 + rng.below(8.min(b.len()));
                let s = rng.below(b.len() - len + 1);
                b.drain(s..s + len);
            }
            2 => b.truncate(at),
            3 if !b.is_empty() => {
                // A number replaced by another (sizes and counts are where loaders allocate).
                let i = rng.below(b.len());
                if b[i].is_ascii_digit() {
                    let n = DICT[rng.below(5)].as_bytes();
                    b.splice(i..i + 1, n.iter().copied());
                }
            }
            _ => {
                let w = DICT[rng.below(DICT.len())].as_bytes();
                b.splice(at..at, w.iter().copied());
            }
        }
    }
    b
}

/// Runs `check` on `n` inputs made by `make`, catching panics; returns the panics.
fn fuzz(target: &str, mut make: impl FnMut(&mut FastRng) -> Vec<u8>, check: impl Fn(&[u8])) -> Vec<String> {
    let mut r = rng(target);
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut crashes = Vec::new();
    let n = cases();
    for _ in 0..n {
        let input = make(&mut r);
        if let Err(p) = catch_unwind(AssertUnwindSafe(|| check(&input))) {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            crashes.push(format!("{msg}: {:?}", String::from_utf8_lossy(&input[..input.len().min(400)])));
        }
    }
    std::panic::set_hook(prev);
    eprintln!("{target}: {n} inputs, {} panics", crashes.len());
    crashes
}

#[test]
fn training_configurations() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train");
    let mut seeds: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("configs/train")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| std::fs::read(p).expect("config"))
        .collect();
    seeds.sort();
    assert!(seeds.len() >= 5);
    let crashes = fuzz(
        "train-config",
        |r| {
            let k = r.below(seeds.len());
            mutate(r, &seeds[k])
        },
        |bytes| {
            let text = String::from_utf8_lossy(bytes);
            match TrainConfig::from_toml_str(&text, "fuzz.toml") {
                Err(e) => assert!(e.to_string().contains("fuzz.toml"), "the error names the file: {e}"),
                Ok(cfg) => {
                    // An accepted configuration gives its settings without panicking.
                    let _ = (cfg.search_config(), cfg.selfplay_config(0), cfg.search_defaults());
                    if let Ok(rs) = cfg.load_ruleset(None) {
                        let _ = cfg.network_config(&rs);
                    }
                }
            }
        },
    );
    assert!(crashes.is_empty(), "{crashes:#?}");
}

/// A checkpoint frame around `meta` text and `record` bytes, with a valid checksum.
fn frame(meta: &[u8], record: &[u8]) -> Vec<u8> {
    let mut out = b"LATAZ-CKPT\n".to_vec();
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&(meta.len() as u64).to_le_bytes());
    out.extend_from_slice(meta);
    out.extend_from_slice(&(record.len() as u64).to_le_bytes());
    out.extend_from_slice(record);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

#[test]
fn checkpoint_files() {
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let cfg = TrainConfig::default().network_config(&rs).with_blocks(1).with_channels(4);
    let device = latrunculi_az::device::inference();
    let net = cfg.init(&device);
    let meta = CheckpointMeta::new(&cfg, "kowalski", rs.params_hash(), 0);
    let good = checkpoint::to_bytes(&net, &meta).unwrap();
    // The frame is understood: re-framing the parts gives the same bytes.
    let meta_len = u64::from_le_bytes(good[15..23].try_into().unwrap()) as usize;
    let meta_text = good[23..23 + meta_len].to_vec();
    let rec_at = 23 + meta_len + 8;
    let record = good[rec_at..good.len() - 8].to_vec();
    assert_eq!(frame(&meta_text, &record), good);
    let tables = BoardTables::for_network(&rs, &cfg);
    let obs = tables.observation(&Position::new(&rs)).unwrap();
    let path = Path::new("fuzz.az");
    let check = |bytes: &[u8]| match checkpoint::from_bytes(path, bytes, &device) {
        Err(e) => assert!(e.to_string().contains("fuzz.az"), "the error names the file: {e}"),
        Ok((m, loaded)) => {
            // Whatever loads evaluates a position of its own shape (a changed weight may
            // change the values, even to NaN; the checksum guards saved files).
            if m.network_config() == cfg {
                let out = loaded.infer(obs.clone(), 1, tables.shape).expect("a loaded network evaluates");
                assert_eq!((out.values.len(), out.logits.len()), (1, tables.outputs()));
            }
        }
    };
    let mut crashes = fuzz(
        "checkpoint-raw",
        |r| mutate(r, &good),
        |b| {
            // Any change to a saved file is refused (the checksum), never loaded.
            if b != good.as_slice() {
                assert!(checkpoint::from_bytes(path, b, &device).is_err(), "a changed file loaded");
            }
            check(b)
        },
    );
    crashes.extend(fuzz("checkpoint-meta", |r| frame(&mutate(r, &meta_text), &record), check));
    crashes.extend(fuzz("checkpoint-record", |r| frame(&meta_text, &mutate(r, &record)), check));
    assert!(crashes.is_empty(), "{crashes:#?}");
}

#[test]
fn oversized_networks_are_refused_before_allocation() {
    // Found by fuzzing: a checkpoint whose metadata asked for a huge layer aborted the
    // process allocating it; a configuration could do the same.
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
    let cfg = TrainConfig::default().network_config(&rs).with_blocks(1).with_channels(4);
    let device = latrunculi_az::device::inference();
    let meta = CheckpointMeta::new(&cfg, "kowalski", rs.params_hash(), 0);
    let good = checkpoint::to_bytes(&cfg.init(&device), &meta).unwrap();
    let meta_len = u64::from_le_bytes(good[15..23].try_into().unwrap()) as usize;
    let text = String::from_utf8(good[23..23 + meta_len].to_vec()).unwrap();
    let record = &good[23 + meta_len + 8..good.len() - 8];
    for (from, to, says) in [
        ("channels = 4", "channels = 999999999", "channels = 999999999 is too large"),
        ("value_hidden = 64", "value_hidden = 2239999998880", "value_hidden = 2239999998880 is too large"),
        ("blocks = 1", "blocks = 41", "blocks = 41 is too large"),
    ] {
        assert!(text.contains(from), "{from}");
        let bytes = frame(text.replace(from, to).as_bytes(), record);
        let e = checkpoint::from_bytes(Path::new("big.az"), &bytes, &device).unwrap_err().to_string();
        assert!(e.contains("big.az") && e.contains(says), "{e}");
    }
    let e = TrainConfig::from_toml_str("[network]\nvalue_hidden = 100000\n", "big.toml").unwrap_err().to_string();
    assert!(e.contains("big.toml") && e.contains("network.value_hidden = 100000 is too large"), "{e}");
    let e = TrainConfig::from_toml_str("[training]\nbatch_size = 1000000\n", "big.toml").unwrap_err().to_string();
    assert!(e.contains("training.batch_size = 1000000 is too large"), "{e}");
}

#[test]
fn dataset_game_lines() {
    // The 4-game sample of data/sample (kowalski on 6x6) with its games.jsonl mutated;
    // actions.npy is kept, so accepted lines are replayed against real rows.
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/sample");
    let jsonl = std::fs::read(sample.join("games.jsonl")).unwrap();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-dataset");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(sample.join("actions.npy"), dir.join("actions.npy")).unwrap();
    let rs = Ruleset::builtin("kowalski").unwrap().with_board(6, 6).unwrap();
    let cfg = TrainConfig::default();
    let tables = BoardTables::for_network(&rs, &cfg.network_config(&rs));
    std::fs::write(dir.join("games.jsonl"), &jsonl).unwrap();
    let games = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg).expect("the sample loads");
    assert_eq!(games.len(), 4);
    let crashes = fuzz(
        "dataset",
        |r| mutate(r, &jsonl),
        |bytes| {
            std::fs::write(dir.join("games.jsonl"), bytes).unwrap();
            if let Err(e) = latrunculi_az::warmstart::load_dataset(&dir, &rs, &tables, &cfg) {
                assert!(e.to_string().contains("games.jsonl"), "the error names the file: {e}");
            }
        },
    );
    assert!(crashes.is_empty(), "{crashes:#?}");
}

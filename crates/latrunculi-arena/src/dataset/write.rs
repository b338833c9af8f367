//! Writing a played dataset: the `.npy` arrays (streamed row by row), `meta.json`, then
//! `games.jsonl`, each atomically.

use std::io::{BufWriter, Seek as _, SeekFrom, Write as _};
use std::path::Path;

use latrunculi_sim::{ActionSpace, ObservationEncoder, PLANES};
use ndarray_npy::WritableElement;

use super::samples::{GameSamples, Sample};
use super::*;
use crate::game::tally;

/// Refuses a directory that already holds a dataset or is not a directory.
pub fn check_out_dir(dir: &Path) -> Result<()> {
    let games = dir.join(GAMES_FILE);
    if games.exists() {
        return Err(ArenaError::Finished { dir: dir.to_path_buf(), marker: games });
    }
    if dir.exists() && !dir.is_dir() {
        return Err(ArenaError::NotADirectory { dir: dir.to_path_buf() });
    }
    Ok(())
}

/// Writes an `.npy` array of `shape` (C order) atomically without holding it in
/// memory: the header comes from `ndarray-npy`, then each of the `shape[0]` rows (of
/// `shape[1..]` elements, 1 for a 1-D array) is filled by `fill(row, buf)` into a
/// buffer reset to `zero`.
fn write_npy_rows<T: WritableElement + Clone>(
    path: &Path,
    shape: &[usize],
    zero: T,
    mut fill: impl FnMut(usize, &mut [T]) -> Result<()>,
) -> Result<()> {
    let rows = shape.first().copied().unwrap_or(0);
    let row_len: usize = shape.iter().skip(1).product();
    let data_bytes = (rows * row_len * std::mem::size_of::<T>()) as u64;
    let io = ArenaError::io("write", path);
    let mut filled: Result<()> = Ok(());
    latrunculi_files::write_atomic_with(path, |file| {
        ndarray_npy::write_zeroed_npy::<T, _>(&*file, ndarray::IxDyn(shape)).map_err(std::io::Error::other)?;
        let len = file.metadata()?.len();
        file.seek(SeekFrom::Start(len - data_bytes))?;
        let mut out = BufWriter::new(&*file);
        let mut buf = vec![zero.clone(); row_len];
        for r in 0..rows {
            buf.fill(zero.clone());
            if let Err(e) = fill(r, &mut buf) {
                filled = Err(e);
                return Err(std::io::Error::other("a row could not be filled"));
            }
            T::write_slice(&buf, &mut out).map_err(std::io::Error::other)?;
        }
        out.flush()
    })
    .map_err(|e| match std::mem::replace(&mut filled, Ok(())) {
        Err(row) => row,
        Ok(()) => io(e),
    })
}

/// A value of an int32 column, or an error naming it.
fn int32(value: impl TryInto<i32> + Copy + std::fmt::Display) -> Result<i32> {
    value.try_into().map_err(|_| ArenaError::Game(format!("{value} does not fit an int32 column")))
}

/// Quotes a word for a POSIX shell when it needs it.
fn shell_word(text: &str) -> String {
    if !text.is_empty() && text.chars().all(|c| c.is_ascii_alphanumeric() || "_./:=,@+-".contains(c)) {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// The command line that makes this dataset (without the binary's path).
fn command_line(args: &DatasetSpec) -> String {
    let mut words = vec![
        "latrunculi".to_string(),
        "dataset".into(),
        "--ruleset".into(),
        shell_word(&args.ruleset.ruleset.to_string()),
    ];
    if let Some(b) = &args.ruleset.board {
        words.extend(["--board".into(), b.to_string()]);
    }
    if args.ruleset.rules_dir != Path::new(latrunculi_rules::DEFAULT_RULES_DIR) {
        words.extend(["--rules-dir".into(), shell_word(&args.ruleset.rules_dir.display().to_string())]);
    }
    words.extend([
        "--white".into(),
        shell_word(&args.white),
        "--black".into(),
        shell_word(&args.black),
        "--games".into(),
        args.games.to_string(),
        "--seed".into(),
        args.seed.to_string(),
    ]);
    if args.swap {
        words.push("--swap".into());
    }
    if args.light {
        words.push("--light".into());
    }
    words.extend([
        "--ply-cap".into(),
        args.ply_cap.to_string(),
        "--out".into(),
        shell_word(&args.out.display().to_string()),
    ]);
    words.join(" ")
}

/// Writes a played dataset into `dir` (which [`check_out_dir`] accepts): the arrays,
/// `meta.json`, then `games.jsonl`. Returns the number of samples.
pub fn write_dataset(dir: &Path, args: &DatasetSpec, plan: &DatasetPlan, games: &[GameSamples]) -> Result<u64> {
    check_out_dir(dir)?;
    std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
    let rs = &plan.ruleset;
    let shape = ObservationEncoder::new(rs).shape();
    let actions = ActionSpace::for_rules(&rs.rules()).size();
    let rows: Vec<(&GameSamples, &Sample)> = games.iter().flat_map(|g| g.samples.iter().map(move |s| (g, s))).collect();
    let s = rows.len();

    if !args.light {
        write_npy_rows(&dir.join(OBSERVATIONS_FILE), &[s, shape[0], shape[1], shape[2]], 0f32, |i, out| {
            out.copy_from_slice(&rows[i].1.observation);
            Ok(())
        })?;
        write_npy_rows(&dir.join(LEGAL_MASKS_FILE), &[s, actions], false, |i, out| {
            for &a in &rows[i].1.legal {
                out[a as usize] = true;
            }
            Ok(())
        })?;
        write_npy_rows(&dir.join(POLICY_FILE), &[s, actions], 0f32, |i, out| {
            for &(a, p) in &rows[i].1.policy {
                out[a as usize] = p;
            }
            Ok(())
        })?;
    }
    // The policy targets as sparse rows (small, so light datasets carry them too).
    let mut offsets = Vec::with_capacity(s + 1);
    offsets.push(0i64);
    let entries: Vec<(u32, f32)> = rows.iter().flat_map(|(_, r)| r.policy.iter().copied()).collect();
    for (_, r) in &rows {
        offsets.push(offsets.last().copied().unwrap_or(0) + r.policy.len() as i64);
    }
    let k = entries.len();
    write_npy_rows(&dir.join(POLICY_OFFSETS_FILE), &[s + 1], 0i64, |i, out| {
        out[0] = offsets[i];
        Ok(())
    })?;
    write_npy_rows(&dir.join(POLICY_ACTIONS_FILE), &[k], 0i32, |i, out| {
        out[0] = int32(entries[i].0)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(POLICY_PROBS_FILE), &[k], 0f32, |i, out| {
        out[0] = entries[i].1;
        Ok(())
    })?;
    write_npy_rows(&dir.join(SEARCH_VALUES_FILE), &[s], 0f32, |i, out| {
        out[0] = rows[i].1.search_value.unwrap_or(f32::NAN);
        Ok(())
    })?;
    write_npy_rows(&dir.join(ACTIONS_FILE), &[s], 0i32, |i, out| {
        out[0] = int32(rows[i].1.action)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(VALUE_FILE), &[s], 0f32, |i, out| {
        out[0] = rows[i].0.value_for(rows[i].1.player);
        Ok(())
    })?;
    write_npy_rows(&dir.join(PLIES_FILE), &[s], 0i32, |i, out| {
        out[0] = int32(rows[i].1.ply)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(GAMES_NPY_FILE), &[s], 0i32, |i, out| {
        out[0] = int32(rows[i].0.row.game)?;
        Ok(())
    })?;
    write_npy_rows(&dir.join(PLAYERS_FILE), &[s], 0i8, |i, out| {
        out[0] = rows[i].1.player.index() as i8;
        Ok(())
    })?;

    let params = serde_json::to_value(rs)?;
    let board = [rs.width, rs.height];
    let rows_of = games.iter().map(|g| g.samples.len() as u64);
    let mut lines = Vec::new();
    let mut first = 0u64;
    for (g, n) in games.iter().zip(rows_of) {
        let r = &g.row;
        let line = GameLine {
            game: r.game,
            ruleset: r.ruleset.clone(),
            params_hash: r.params_hash.clone(),
            board,
            params: params.clone(),
            white: r.white.clone(),
            black: r.black.clone(),
            seed: r.seed,
            moves: if r.moves.is_empty() { Vec::new() } else { r.moves.split(' ').map(str::to_string).collect() },
            winner: r.winner.clone(),
            reason: r.reason.clone(),
            plies: r.plies,
            first_sample: first,
            samples: n,
        };
        first += n;
        latrunculi_files::dataset::write_game_line(&mut lines, &line)?;
    }

    let all_rows: Vec<GameRow> = games.iter().map(|g| g.row.clone()).collect();
    let (w, b, d, mean) = tally(&all_rows);
    let npy = |dtype: &str, shape: Vec<usize>| serde_json::json!({ "dtype": dtype, "shape": shape });
    let mut meta = serde_json::json!({
        "format": "latrunculi-dataset",
        "format_version": FORMAT_VERSION,
        "latrunculi_version": env!("CARGO_PKG_VERSION"),
        "ruleset": plan.label,
        "ruleset_id": rs.id,
        "params_hash": format!("{:016x}", rs.params_hash()),
        "board": board,
        "planes": PLANES.iter().map(|p| p.name).collect::<Vec<_>>(),
        "plane_docs": PLANES.iter().map(|p| p.doc).collect::<Vec<_>>(),
        "observation_shape": shape,
        "action_space_size": actions,
        "games": games.len(),
        "samples": s,
        "results": { "white": w, "black": b, "draw": d, "mean_plies": mean },
        "files": {
            OBSERVATIONS_FILE: npy("float32", vec![s, shape[0], shape[1], shape[2]]),
            LEGAL_MASKS_FILE: npy("bool", vec![s, actions]),
            POLICY_FILE: npy("float32", vec![s, actions]),
            ACTIONS_FILE: npy("int32", vec![s]),
            VALUE_FILE: npy("float32", vec![s]),
            PLIES_FILE: npy("int32", vec![s]),
            GAMES_NPY_FILE: npy("int32", vec![s]),
            PLAYERS_FILE: npy("int8", vec![s]),
            POLICY_OFFSETS_FILE: npy("int64", vec![s + 1]),
            POLICY_ACTIONS_FILE: npy("int32", vec![k]),
            POLICY_PROBS_FILE: npy("float32", vec![k]),
            SEARCH_VALUES_FILE: npy("float32", vec![s]),
        },
        "args": {
            "ruleset": args.ruleset.ruleset.to_string(),
            "board": args.ruleset.board.map(|b| b.to_string()),
            "rules_dir": args.ruleset.rules_dir.display().to_string(),
            "white": args.white,
            "black": args.black,
            "white_canonical": plan.a.to_string(),
            "black_canonical": plan.b.to_string(),
            "games": args.games,
            "seed": args.seed,
            "swap": args.swap,
            "ply_cap": args.ply_cap,
            "out": args.out.display().to_string(),
        },
        "command": command_line(args),
    });
    if args.light {
        meta["light"] = serde_json::Value::Bool(true);
        if let Some(files) = meta["files"].as_object_mut() {
            for f in HEAVY_FILES {
                files.remove(f);
            }
        }
    }
    let mut meta_bytes = serde_json::to_vec_pretty(&meta)?;
    meta_bytes.push(b'\n');
    crate::io::write_atomic(&dir.join(META_FILE), &meta_bytes)?;
    // Last: games.jsonl marks the dataset as complete.
    check_out_dir(dir)?;
    crate::io::write_atomic(&dir.join(GAMES_FILE), &lines)?;
    Ok(s as u64)
}

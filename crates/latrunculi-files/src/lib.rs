//! # latrunculi-files
//!
//! What the writers and the readers of latrunculi's files share, defined once:
//!
//! - [`write_atomic`]: every result file, checkpoint and run state is written to a
//!   temporary file beside its target, synced and renamed over it, so that a reader (or a
//!   run killed half-way) never sees a file cut short;
//! - [`GameLine`]: one line of a dataset's `games.jsonl`, written by `latrunculi dataset`
//!   (the arena) and read by the warm start of training (the az crate). The layout is
//!   documented in `data/README.md`.

#![warn(missing_docs)]

use std::fs;
use std::io::Write as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// Writes `bytes` to `path` atomically ([`write_atomic_with`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Writes `path` atomically with `write`, which fills a fresh temporary file in the same
/// folder (for files too large to hold in memory); the file is then synced and renamed
/// over `path`, and the folder synced. The temporary file is removed if any step fails.
/// The folder must exist. An error of `write` is returned as it is.
pub fn write_atomic_with<E: From<std::io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut fs::File) -> Result<(), E>,
) -> Result<(), E> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = (|| {
        let mut f = fs::File::create(&tmp)?;
        write(&mut f)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(&tmp);
        return written;
    }
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// One line of a dataset's `games.jsonl`: one game, with the range of its rows in the
/// `.npy` arrays. Fields are written in this order. A reader needs the game, its
/// parameters hash, board, winner, plies and rows; the descriptive fields (ruleset label,
/// parameters, players, seed, moves, reason) may be missing from a line and read as empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// 0-based game index.
    pub game: u32,
    /// Ruleset label: its id, or `id@WxH` when the board was changed.
    #[serde(default)]
    pub ruleset: String,
    /// `Ruleset::params_hash` as 16 hex digits.
    pub params_hash: String,
    /// Board `[width, height]`.
    pub board: [u8; 2],
    /// Every parameter of the ruleset (the fields of its TOML file).
    #[serde(default)]
    pub params: serde_json::Value,
    /// Canonical spec of the White agent.
    #[serde(default)]
    pub white: String,
    /// Canonical spec of the Black agent.
    #[serde(default)]
    pub black: String,
    /// The game's seed.
    #[serde(default)]
    pub seed: u64,
    /// The moves in the notation of docs/rules.md §2, as `play`'s `moves` column writes them.
    #[serde(default)]
    pub moves: Vec<String>,
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// The result reason, e.g. `immobilized`.
    #[serde(default)]
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// First row of this game's positions in the `.npy` arrays.
    pub first_sample: u64,
    /// Number of rows (one per ply).
    pub samples: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("latrunculi-files-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.txt");
        write_atomic(&path, b"first").unwrap();
        write_atomic(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        let names: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("a.txt")]);
        assert!(write_atomic(&dir.join("missing/b.txt"), b"x").is_err(), "the folder must exist");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_game_line_reads_back_with_its_fields_in_order() {
        let line = r#"{"game":0,"ruleset":"kowalski","params_hash":"00ff","board":[12,8],"params":{},"white":"random","black":"greedy","seed":5,"moves":["a1-a2"],"winner":"draw","reason":"ply-cap","plies":1,"first_sample":0,"samples":1}"#;
        let g: GameLine = serde_json::from_str(line).unwrap();
        assert_eq!(serde_json::to_string(&g).unwrap(), line);
        let short =
            r#"{"game":1,"params_hash":"00ff","board":[5,5],"winner":"white","plies":2,"first_sample":1,"samples":2}"#;
        let g: GameLine = serde_json::from_str(short).unwrap();
        assert_eq!((g.game, g.plies, g.white.as_str()), (1, 2, ""));
        assert!(serde_json::from_str::<GameLine>(r#"{"game":1,"board":[5,5]}"#).is_err(), "the rows are needed");
    }
}

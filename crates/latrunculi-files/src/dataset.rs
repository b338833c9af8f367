//! The layout of a dataset folder, written by `latrunculi dataset` (the arena) and read
//! by the warm start of training (the az crate): the names of its files, the version of
//! the layout, and the lines of its `games.jsonl` ([`GameLine`], with
//! [`write_game_line`] and [`read_game_lines`]). `data/README.md` documents every file
//! and field for users.
//!
//! `games.jsonl` is written last, so a folder that holds it holds a complete dataset.
//! Its lines, one per game in game order, are JSON objects with the fields of
//! [`GameLine`] in that order: `game`, `ruleset`, `params_hash`, `board`, `params`,
//! `white`, `black`, `seed`, `moves`, `winner`, `reason`, `plies`, `first_sample`,
//! `samples`.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::FileError;

/// The games file; its presence marks a finished dataset.
pub const GAMES_FILE: &str = "games.jsonl";
/// The metadata file (the manifest: format, ruleset, arrays and their shapes, the run's
/// arguments).
pub const META_FILE: &str = "meta.json";
/// Observations, float32 `[S, planes, H, W]`.
pub const OBSERVATIONS_FILE: &str = "observations.npy";
/// Legal-action masks, bool `[S, A]`.
pub const LEGAL_MASKS_FILE: &str = "legal_masks.npy";
/// Policy targets, float32 `[S, A]`.
pub const POLICY_FILE: &str = "policy_targets.npy";
/// Value targets, float32 `[S]`.
pub const VALUE_FILE: &str = "value_targets.npy";
/// The action played in each position, int32 `[S]`.
pub const ACTIONS_FILE: &str = "actions.npy";
/// Plies before each position, int32 `[S]`.
pub const PLIES_FILE: &str = "plies.npy";
/// Game index of each row, int32 `[S]`.
pub const GAMES_NPY_FILE: &str = "games.npy";
/// Player to move, int8 `[S]` (0 White, 1 Black).
pub const PLAYERS_FILE: &str = "players.npy";
/// Row offsets of the sparse policy targets, int64 `[S + 1]`.
pub const POLICY_OFFSETS_FILE: &str = "policy_offsets.npy";
/// Actions of the sparse policy targets, int32 `[K]`.
pub const POLICY_ACTIONS_FILE: &str = "policy_actions.npy";
/// Probabilities of the sparse policy targets, float32 `[K]`.
pub const POLICY_PROBS_FILE: &str = "policy_probs.npy";
/// The mover's own value of each position, float32 `[S]` (NaN where none).
pub const SEARCH_VALUES_FILE: &str = "search_values.npy";
/// The three large arrays, left out of a light dataset (`--light`).
pub const HEAVY_FILES: [&str; 3] = [OBSERVATIONS_FILE, LEGAL_MASKS_FILE, POLICY_FILE];
/// Version of the dataset layout, in `meta.json` (2: the sparse policy targets and the
/// search values, written in light datasets too).
pub const FORMAT_VERSION: u32 = 2;

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

/// Appends `game` to `out` as one line of `games.jsonl`, newline included.
pub fn write_game_line(out: &mut Vec<u8>, game: &GameLine) -> Result<(), serde_json::Error> {
    out.extend(serde_json::to_vec(game)?);
    out.push(b'\n');
    Ok(())
}

/// Reads the `games.jsonl` at `path`: each game with its 1-based line. Blank lines are
/// skipped. Errors name the file, and the line with what is wrong there (a field missing
/// or of the wrong type is named).
pub fn read_game_lines(path: &Path) -> Result<Vec<(usize, GameLine)>, FileError> {
    let text = std::fs::read_to_string(path).map_err(|source| FileError::Io { path: path.to_path_buf(), source })?;
    parse_game_lines(path, &text)
}

/// Reads the text of a `games.jsonl` (named `path` in errors), as [`read_game_lines`].
pub fn parse_game_lines(path: &Path, text: &str) -> Result<Vec<(usize, GameLine)>, FileError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            serde_json::from_str(l).map(|g| (n + 1, g)).map_err(|e| FileError::Line {
                path: path.to_path_buf(),
                line: n + 1,
                message: format!("not a game line: {e}"),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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

    fn game(game: u32) -> GameLine {
        GameLine {
            game,
            ruleset: "kowalski@8x8".into(),
            params_hash: "00ff00ff00ff00ff".into(),
            board: [8, 8],
            params: serde_json::json!({ "id": "kowalski" }),
            white: "alphabeta:depth=2".into(),
            black: "random".into(),
            seed: 7,
            moves: vec!["a1-a2".into(), "b8-b7".into()],
            winner: "draw".into(),
            reason: "ply-cap".into(),
            plies: 2,
            first_sample: 2 * u64::from(game),
            samples: 2,
        }
    }

    #[test]
    fn game_lines_written_read_back_the_same() {
        let games = [game(0), game(1)];
        let mut text = Vec::new();
        for g in &games {
            write_game_line(&mut text, g).unwrap();
        }
        let dir = std::env::temp_dir().join(format!("latrunculi-dataset-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(GAMES_FILE);
        crate::write_atomic(&path, &text).unwrap();
        let read = read_game_lines(&path).unwrap();
        assert_eq!(read, vec![(1, games[0].clone()), (2, games[1].clone())]);
        std::fs::remove_dir_all(&dir).unwrap();
        let e = read_game_lines(&dir.join(GAMES_FILE)).unwrap_err().to_string();
        assert!(e.starts_with("cannot read ") && e.contains("games.jsonl"), "{e}");
    }

    #[test]
    fn a_bad_line_is_named_with_its_file_and_what_is_wrong() {
        let mut text = Vec::new();
        write_game_line(&mut text, &game(0)).unwrap();
        let good = String::from_utf8(text).unwrap();
        let path = Path::new("ds/games.jsonl");
        let e = parse_game_lines(path, &format!("{good}\n{{\"game\": 1,")).unwrap_err().to_string();
        assert!(e.starts_with("ds/games.jsonl line 3: not a game line"), "{e}");
        let missing = good.replace("\"params_hash\":\"00ff00ff00ff00ff\",", "");
        let e = parse_game_lines(path, &missing).unwrap_err().to_string();
        assert!(e.starts_with("ds/games.jsonl line 1:") && e.contains("missing field `params_hash`"), "{e}");
    }
}

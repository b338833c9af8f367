//! The games CSV (`games.csv`): one row per game, written by `play`, `survey`, `eval`,
//! `ladder` and `dataset`, read by `survey`/`ladder`/`eval` when they resume, `metrics`,
//! `tune`, `verdicts` and the web app's study view. This module alone writes and reads it.
//!
//! Columns, in order ([`COLUMNS`]; `experiments/README.md` documents them for users):
//!
//! | column | meaning |
//! |---|---|
//! | `ruleset` | ruleset label: its id, `@WxH` when the board was changed, `+key=value` per changed parameter |
//! | `params_hash` | `Ruleset::params_hash` as 16 hex digits |
//! | `game` | 0-based game index within the run (or survey cell) |
//! | `seed` | the game's seed |
//! | `white`, `black` | canonical specs of the two agents |
//! | `winner` | `white`, `black` or `draw` |
//! | `reason` | the result reason (docs/rules.md §1), e.g. `immobilized` |
//! | `plies` | plies played |
//! | `captures_white`, `captures_black` | enemy pieces each side removed |
//! | `pieces_white`, `pieces_black` | each side's pieces on the board at the end |
//! | `first_capture_ply` | 1-based ply of the first capture; empty if none |
//! | `moves` | the whole game in the notation of docs/rules.md §2, space-separated |
//!
//! Readers take the columns by name from the header line. [`GamesReader::rows`] needs
//! every column; readers that need fewer (`tune`, `verdicts`) ask for theirs with
//! [`GamesReader::rows_of`] or [`GamesReader::columns`]. Every error names the file, and the line where one is at
//! fault.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{ArenaError, Result};

/// The usual name of a games CSV in an output folder.
pub const FILE: &str = "games.csv";

/// The columns of a games CSV, in order.
pub const COLUMNS: [&str; 15] = [
    "ruleset",
    "params_hash",
    "game",
    "seed",
    "white",
    "black",
    "winner",
    "reason",
    "plies",
    "captures_white",
    "captures_black",
    "pieces_white",
    "pieces_black",
    "first_capture_ply",
    "moves",
];

/// The header line of a games CSV, newline included.
pub fn header() -> String {
    format!("{}\n", COLUMNS.join(","))
}

/// One game as a CSV row (columns as in [`COLUMNS`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// Ruleset label ([`latrunculi_rules::RulesetSpec`] as written): its id, `@WxH` when
    /// the board was changed, `+key=value` for each changed parameter.
    pub ruleset: String,
    /// [`latrunculi_rules::Ruleset::params_hash`] as 16 hex digits.
    pub params_hash: String,
    /// 0-based game index within the run (or survey cell).
    pub game: u32,
    /// The game's seed.
    pub seed: u64,
    /// Canonical spec of the White agent.
    pub white: String,
    /// Canonical spec of the Black agent.
    pub black: String,
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// The result reason (docs/rules.md §1), e.g. `immobilized`.
    pub reason: String,
    /// Plies played.
    pub plies: u32,
    /// Enemy pieces White removed.
    pub captures_white: u32,
    /// Enemy pieces Black removed.
    pub captures_black: u32,
    /// White pieces on the board at the end.
    pub pieces_white: u32,
    /// Black pieces on the board at the end.
    pub pieces_black: u32,
    /// 1-based ply of the first capture, if any.
    pub first_capture_ply: Option<u32>,
    /// The whole game in the notation of docs/rules.md §2, space-separated.
    pub moves: String,
}

impl GameRow {
    /// The row as one CSV line, newline included (no header).
    pub fn to_csv_line(&self) -> Result<Vec<u8>> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        w.serialize(self)?;
        w.into_inner().map_err(|e| ArenaError::Game(format!("cannot write a CSV row: {e}")))
    }
}

/// The text of a games CSV holding `rows`: the header, then one line per row.
pub fn to_bytes<'a>(rows: impl IntoIterator<Item = &'a GameRow>) -> Result<Vec<u8>> {
    let mut out = header().into_bytes();
    for r in rows {
        out.extend(r.to_csv_line()?);
    }
    Ok(out)
}

/// Writes `rows` (with the header) to `path`, replacing it atomically
/// ([`crate::io::write_atomic`]).
pub fn write(path: &Path, rows: &[GameRow]) -> Result<()> {
    crate::io::write_atomic(path, to_bytes(rows)?)
}

/// Reads every row of the games CSV at `path` ([`GamesReader::rows`]).
pub fn read(path: &Path) -> Result<Vec<GameRow>> {
    GamesReader::open(path)?.rows()?.map(|r| r.map(|l| l.value)).collect()
}

/// The complete lines of `bytes`: all of it up to its last newline (a last line cut
/// short by a killed writer is left out).
pub fn complete_lines(bytes: &[u8]) -> &[u8] {
    &bytes[..bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)]
}

/// A value read from a line of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located<T> {
    /// The 1-based line it starts on.
    pub line: usize,
    /// The byte offset just past its line (where the next row starts).
    pub end: usize,
    /// The value.
    pub value: T,
}

/// A reader of a games CSV: the header is read when it is opened.
pub struct GamesReader<R> {
    path: PathBuf,
    csv: csv::Reader<R>,
    header: csv::StringRecord,
}

impl GamesReader<std::fs::File> {
    /// Opens the games CSV at `path` and reads its header.
    pub fn open(path: &Path) -> Result<Self> {
        let file = std::fs::File::open(path).map_err(ArenaError::io("read", path))?;
        GamesReader::new(path, file)
    }
}

impl<'a> GamesReader<&'a [u8]> {
    /// Reads the text of a games CSV (named `path` in errors).
    pub fn from_bytes(path: &Path, bytes: &'a [u8]) -> Result<Self> {
        GamesReader::new(path, bytes)
    }
}

impl<R: std::io::Read> GamesReader<R> {
    /// Reads a games CSV from `input` (named `path` in errors), starting with its header.
    pub fn new(path: &Path, input: R) -> Result<Self> {
        let mut csv = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(input);
        let header = csv
            .headers()
            .map_err(|e| ArenaError::content(path, Some(1), format!("not a CSV header line: {e}")))?
            .clone();
        Ok(GamesReader { path: path.to_path_buf(), csv, header })
    }

    /// The file's header.
    pub fn header(&self) -> &csv::StringRecord {
        &self.header
    }

    /// Whether the header is exactly [`COLUMNS`], in order.
    pub fn has_all_columns_in_order(&self) -> bool {
        self.header.iter().eq(COLUMNS)
    }

    /// The indices of the `wanted` columns in the header (names compared without
    /// surrounding spaces), or an error naming the first one missing.
    pub fn columns(&self, wanted: &[&str]) -> Result<Vec<usize>> {
        wanted
            .iter()
            .map(|w| {
                self.header.iter().position(|h| h.trim() == *w).ok_or_else(|| {
                    ArenaError::content(
                        &self.path,
                        Some(1),
                        format!("no column '{w}' in the header: a games CSV needs the columns {}", wanted.join(", ")),
                    )
                })
            })
            .collect()
    }

    /// The records after the header, each with its line, as text.
    pub fn records(self) -> impl Iterator<Item = Result<Located<csv::StringRecord>>> {
        let GamesReader { path, mut csv, header } = self;
        let mut record = csv::StringRecord::new();
        std::iter::from_fn(move || match csv.read_record(&mut record) {
            Ok(false) => None,
            Ok(true) => {
                let line = record.position().map_or(0, |p| p.line() as usize);
                let end = csv.position().byte() as usize;
                if record.len() != header.len() {
                    let message =
                        format!("not a CSV row: {} fields, but the header has {}", record.len(), header.len());
                    return Some(Err(ArenaError::content(&path, Some(line), message)));
                }
                Some(Ok(Located { line, end, value: record.clone() }))
            }
            Err(e) => {
                let line = e.position().map(|p| p.line() as usize);
                Some(Err(ArenaError::content(&path, line, format!("not a CSV row: {e}"))))
            }
        })
    }

    /// The rows after the header, each with its line; an error first if a column is
    /// missing (naming it), then for each row that cannot be read (naming its line, the
    /// column and what is wrong).
    pub fn rows(self) -> Result<impl Iterator<Item = Result<Located<GameRow>>>> {
        self.rows_of::<GameRow>(&COLUMNS)
    }

    /// The rows after the header read as `T` (a struct of some of the columns, taken by
    /// name), each with its line; an error first if one of the `wanted` columns is
    /// missing, then for each row that cannot be read, as [`GamesReader::rows`].
    pub fn rows_of<T: serde::de::DeserializeOwned>(
        self,
        wanted: &[&str],
    ) -> Result<impl Iterator<Item = Result<Located<T>>>> {
        self.columns(wanted)?;
        let (path, header) = (self.path.clone(), self.header.clone());
        Ok(self.records().map(move |r| {
            let Located { line, end, value } = r?;
            let row = value
                .deserialize::<T>(Some(&header))
                .map_err(|e| ArenaError::content(&path, Some(line), row_message(&e, &header)))?;
            Ok(Located { line, end, value: row })
        }))
    }
}

/// What is wrong with a row that cannot be read, naming the column at fault.
fn row_message(e: &csv::Error, header: &csv::StringRecord) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => match err.field().and_then(|f| header.get(f as usize)) {
            Some(column) => format!("column '{column}': {}", err.kind()),
            None => err.kind().to_string(),
        },
        _ => e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(game: u32, first_capture_ply: Option<u32>) -> GameRow {
        GameRow {
            ruleset: "kowalski@8x8".into(),
            params_hash: "00ff00ff00ff00ff".into(),
            game,
            seed: 12_345_678_901_234,
            white: "alphabeta:depth=2,eval=material".into(),
            black: "random".into(),
            winner: "draw".into(),
            reason: "ply-cap".into(),
            plies: 2,
            captures_white: 1,
            captures_black: 0,
            pieces_white: 16,
            pieces_black: 15,
            first_capture_ply,
            moves: "a1-a2 b8-b7".into(),
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("latrunculi-games-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn rows_written_read_back_the_same() {
        let dir = scratch("round-trip");
        let path = dir.join(FILE);
        let rows = vec![row(0, Some(1)), row(1, None)];
        write(&path, &rows).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(&header()), "{text}");
        assert!(text.contains(",\"alphabeta:depth=2,eval=material\","), "a comma in a spec is quoted: {text}");
        assert_eq!(read(&path).unwrap(), rows);
        let located: Vec<_> =
            GamesReader::from_bytes(&path, text.as_bytes()).unwrap().rows().unwrap().map(|r| r.unwrap()).collect();
        assert_eq!(located.iter().map(|l| l.line).collect::<Vec<_>>(), [2, 3]);
        assert_eq!(located[1].end, text.len(), "the last row ends the file");
        assert_eq!(&text[located[0].end..], String::from_utf8(rows[1].to_csv_line().unwrap()).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_malformed_row_is_named_by_file_line_and_column() {
        let path = Path::new("some/games.csv");
        let mut text = String::from_utf8(to_bytes(&[row(0, None)]).unwrap()).unwrap();
        text += &String::from_utf8(row(1, None).to_csv_line().unwrap()).unwrap().replace(",2,1,0,", ",two,1,0,");
        let rows: Vec<_> = GamesReader::from_bytes(path, text.as_bytes()).unwrap().rows().unwrap().collect();
        assert!(rows[0].is_ok());
        let e = rows[1].as_ref().unwrap_err().to_string();
        assert!(e.starts_with("some/games.csv line 3: column 'plies'"), "{e}");
        let short = format!("{}kowalski,00,0\n", header());
        let e = GamesReader::from_bytes(path, short.as_bytes()).unwrap().rows().unwrap().next().unwrap();
        let e = e.unwrap_err().to_string();
        assert!(e.contains("some/games.csv line 2") && e.contains("3 fields, but the header has 15"), "{e}");
    }

    #[test]
    fn a_missing_column_is_named() {
        let path = Path::new("g.csv");
        let text = "ruleset,params_hash,game,seed,white,black,winner,plies,moves\n";
        let reader = GamesReader::from_bytes(path, text.as_bytes()).unwrap();
        assert!(!reader.has_all_columns_in_order());
        assert_eq!(reader.columns(&["seed", "ruleset"]).unwrap(), [3, 0]);
        let e = reader.rows().err().expect("a column is missing").to_string();
        assert!(e.starts_with("g.csv line 1: no column 'reason'"), "{e}");
    }

    #[test]
    fn complete_lines_drop_a_cut_last_line() {
        assert_eq!(complete_lines(b"a\nb\nc"), b"a\nb\n");
        assert_eq!(complete_lines(b"a\n"), b"a\n");
        assert_eq!(complete_lines(b"abc"), b"");
    }
}

//! Files the web app reads: only games CSVs, game records and models under the
//! repository's `data/` and `experiments/` folders (paths canonicalised and checked to
//! stay inside them; `..` refused), or text the page uploads.

use std::path::{Component, Path, PathBuf};

use latrunculi_arena::ArenaError;
use latrunculi_arena::game::{GAME_COLUMNS, GameRow};
use latrunculi_arena::io::games::GamesReader;
use serde::Serialize;

use crate::error::ServeError;

/// The folders of the repository files may be read from.
pub const FOLDERS: [&str; 2] = ["data", "experiments"];

/// The largest file read (games CSVs of long surveys are tens of megabytes).
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// The allowed folders of one repository.
#[derive(Clone, Debug)]
pub struct Folders {
    root: PathBuf,
    allowed: Vec<PathBuf>,
}

impl Folders {
    /// The `data/` and `experiments/` folders of the repository at `root` (those that
    /// exist).
    pub fn new(root: impl Into<PathBuf>) -> Folders {
        let root = root.into();
        let allowed = FOLDERS.iter().filter_map(|f| root.join(f).canonicalize().ok()).collect();
        Folders { root, allowed }
    }

    /// The repository root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The canonical path of `path` (relative to the root, e.g.
    /// `experiments/smoke/games.csv`, or absolute) if it names a file inside an allowed
    /// folder; `..`, links out of the folders and anything else are refused.
    pub fn resolve(&self, path: &str) -> Result<PathBuf, ServeError> {
        let refuse = |message: &str| ServeError::Path { path: path.to_string(), message: message.to_string() };
        let p = Path::new(path.trim());
        if path.trim().is_empty() {
            return Err(refuse("empty path"));
        }
        if p.components().any(|c| matches!(c, Component::ParentDir)) {
            return Err(refuse("'..' is not allowed"));
        }
        let joined = if p.is_absolute() { p.to_path_buf() } else { self.root.join(p) };
        let canonical = match joined.canonicalize() {
            Ok(c) => c,
            Err(_) if self.inside(&joined) || p.is_relative() => return Err(ServeError::NoFile(path.to_string())),
            Err(_) => return Err(refuse("only files in the repository's data/ and experiments/ folders are read")),
        };
        if !self.inside(&canonical) {
            return Err(refuse("only files in the repository's data/ and experiments/ folders are read"));
        }
        let meta = std::fs::metadata(&canonical).map_err(|_| ServeError::NoFile(path.to_string()))?;
        if !meta.is_file() {
            return Err(refuse("not a file"));
        }
        if meta.len() > MAX_FILE_BYTES {
            return Err(refuse(&format!("larger than {} MB", MAX_FILE_BYTES >> 20)));
        }
        Ok(canonical)
    }

    fn inside(&self, p: &Path) -> bool {
        self.allowed.iter().any(|a| p.starts_with(a))
    }

    /// The games CSVs (files whose header is that of a games CSV) and game records
    /// (`.txt` files under `data/games/`) in the allowed folders, as paths relative to
    /// the root, sorted.
    pub fn list(&self) -> Listing {
        let mut out = Listing::default();
        for folder in FOLDERS {
            let mut stack = vec![(self.root.join(folder), 0)];
            while let Some((dir, depth)) = stack.pop() {
                let Ok(entries) = std::fs::read_dir(&dir) else { continue };
                for e in entries.flatten() {
                    let path = e.path();
                    let Ok(kind) = e.file_type() else { continue };
                    if kind.is_dir() && depth < 6 {
                        stack.push((path, depth + 1));
                        continue;
                    }
                    if !kind.is_file() {
                        continue;
                    }
                    let rel = path.strip_prefix(&self.root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
                    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
                    if name.ends_with(".csv") && is_games_csv(&path) {
                        out.games_csvs.push(rel);
                    } else if name.ends_with(".txt") && rel.starts_with("data/games/") {
                        out.records.push(rel);
                    } else if name.ends_with(".az") {
                        out.models.push(rel);
                    }
                }
            }
        }
        out.games_csvs.sort();
        out.records.sort();
        out.models.sort();
        out.folders = group_by_folder(out.records.iter().chain(&out.games_csvs));
        out
    }
}

/// The files the page can open.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Listing {
    /// Games CSVs.
    pub games_csvs: Vec<String>,
    /// Game records.
    pub records: Vec<String>,
    /// Network checkpoints (`az:model=PATH`).
    pub models: Vec<String>,
    /// The games CSVs and records again, grouped by their folder (see [`group_by_folder`]),
    /// for the Study view's folder list.
    pub folders: Vec<FolderFiles>,
}

/// The files of one folder of the listing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FolderFiles {
    /// The folder: the first two parts of its files' paths (`experiments/strength`,
    /// `data/games`), or the first alone for a file directly in it.
    pub folder: String,
    /// The files' paths relative to the root, sorted.
    pub files: Vec<String>,
}

/// The folder a listed path belongs to: its first two parts, or its first alone for a
/// file directly under `data/` or `experiments/`.
fn folder_of(path: &str) -> &str {
    let mut slashes = path.match_indices('/').map(|(i, _)| i);
    match (slashes.next(), slashes.next()) {
        (Some(_), Some(second)) => &path[..second],
        (Some(first), None) => &path[..first],
        _ => "",
    }
}

/// Groups paths by their folder ([`folder_of`]): one entry per folder, folders sorted by
/// name and each folder's files sorted, every path in exactly one folder.
pub fn group_by_folder<'a>(paths: impl IntoIterator<Item = &'a String>) -> Vec<FolderFiles> {
    let mut groups: std::collections::BTreeMap<&str, Vec<String>> = std::collections::BTreeMap::new();
    for path in paths {
        groups.entry(folder_of(path)).or_default().push(path.clone());
    }
    groups
        .into_iter()
        .map(|(folder, mut files)| {
            files.sort();
            FolderFiles { folder: folder.to_string(), files }
        })
        .collect()
}

fn header() -> String {
    GAME_COLUMNS.join(",")
}

/// Whether the file's first line is the games CSV header.
fn is_games_csv(path: &Path) -> bool {
    use std::io::BufRead as _;
    let Ok(f) = std::fs::File::open(path) else { return false };
    let mut line = String::new();
    let mut reader = std::io::BufReader::new(std::io::Read::take(f, 4096));
    reader.read_line(&mut line).is_ok() && line.trim_end() == header()
}

/// One game of a games CSV, without its moves.
#[derive(Clone, Debug, Serialize)]
pub struct RowSummary {
    /// 0-based row index in the file (not the `game` column).
    pub row: usize,
    /// The ruleset label.
    pub ruleset: String,
    /// The `game` column.
    pub game: u32,
    /// White's agent.
    pub white: String,
    /// Black's agent.
    pub black: String,
    /// `white`, `black` or `draw`.
    pub winner: String,
    /// The result reason.
    pub reason: String,
    /// Plies.
    pub plies: u32,
}

/// A page of the games of a CSV.
#[derive(Clone, Debug, Serialize)]
pub struct CsvPage {
    /// The rows `offset..offset+rows.len()`.
    pub rows: Vec<RowSummary>,
    /// Rows in the file.
    pub total: usize,
    /// The first row listed.
    pub offset: usize,
}

/// A reader of a games CSV's text whose header is checked.
fn reader<'a>(source: &str, text: &'a [u8]) -> Result<GamesReader<&'a [u8]>, ServeError> {
    let bad = |message: String| ServeError::BadFile { source_name: source.to_string(), message };
    let r = GamesReader::from_bytes(Path::new(source), text).map_err(|e| match e {
        ArenaError::Content { message, .. } => bad(format!("cannot read the header: {message}")),
        e => bad(e.to_string()),
    })?;
    if !r.has_all_columns_in_order() {
        return Err(bad(format!("not a games CSV: the header must be {}", header())));
    }
    Ok(r)
}

/// The games of a CSV's text (row index and row), each row read when asked for; a row
/// that cannot be read is an error naming its row and line.
fn rows<'a>(
    source: &str,
    text: &'a [u8],
) -> Result<impl Iterator<Item = Result<(usize, GameRow), ServeError>> + use<'a>, ServeError> {
    let source = source.to_string();
    let rows = reader(&source, text)?
        .rows()
        .map_err(|e| ServeError::BadFile { source_name: source.clone(), message: e.to_string() })?;
    Ok(rows.enumerate().map(move |(i, row)| {
        row.map(|l| (i, l.value)).map_err(|e| {
            let message = match e {
                ArenaError::Content { line: Some(line), message, .. } => format!("row {i} (line {line}): {message}"),
                e => format!("row {i}: {e}"),
            };
            ServeError::BadFile { source_name: source.clone(), message }
        })
    }))
}

/// The games of a CSV's text, `limit` rows from `offset`; a row that cannot be read is
/// an error naming its line.
pub fn csv_page(source: &str, text: &[u8], offset: usize, limit: usize) -> Result<CsvPage, ServeError> {
    let mut rows = Vec::new();
    let mut total = 0;
    for row in self::rows(source, text)? {
        let (i, row) = row?;
        total += 1;
        if i >= offset && rows.len() < limit {
            rows.push(RowSummary {
                row: i,
                ruleset: row.ruleset,
                game: row.game,
                white: row.white,
                black: row.black,
                winner: row.winner,
                reason: row.reason,
                plies: row.plies,
            });
        }
    }
    Ok(CsvPage { rows, total, offset })
}

/// Row `index` (0-based) of a games CSV's text.
pub fn csv_row(source: &str, text: &[u8], index: usize) -> Result<GameRow, ServeError> {
    let mut count = 0;
    for row in rows(source, text)? {
        // A bad row before `index` does not matter here; only the row asked for is read.
        match row {
            Ok((i, row)) if i == index => return Ok(row),
            Err(e) if count == index => return Err(e),
            _ => {}
        }
        count += 1;
    }
    Err(ServeError::BadRequest(format!("{source} has {count} games; there is no row {index}")))
}

/// Reads an allowed file.
pub fn read(folders: &Folders, path: &str) -> Result<Vec<u8>, ServeError> {
    let p = folders.resolve(path)?;
    std::fs::read(&p)
        .map_err(|e| ServeError::BadFile { source_name: path.to_string(), message: format!("cannot read: {e}") })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folders() -> Folders {
        Folders::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."))
    }

    #[test]
    fn only_files_in_the_allowed_folders_resolve() {
        let f = folders();
        assert!(f.resolve("data/games/xxi/joyce-carrillo-2016-08.txt").is_ok());
        for bad in ["../Cargo.toml", "data/../Cargo.toml", "Cargo.toml", "/etc/passwd", "", "data/games"] {
            let e = f.resolve(bad).expect_err(bad);
            assert!(matches!(e, ServeError::Path { .. } | ServeError::NoFile(_)), "{bad}: {e}");
        }
        assert!(matches!(f.resolve("data/no-such-file.csv"), Err(ServeError::NoFile(_))));
        assert!(matches!(f.resolve("Cargo.toml"), Err(ServeError::Path { .. })));
    }

    #[test]
    fn the_listing_finds_games_csvs_and_records() {
        let l = folders().list();
        assert!(l.records.iter().any(|r| r == "data/games/xxi/joyce-carrillo-2016-08.txt"), "{l:?}");
        assert!(!l.games_csvs.is_empty() && l.games_csvs.iter().all(|p| p.ends_with(".csv")));
        assert!(!l.games_csvs.iter().any(|p| p.ends_with("summary.csv")));
    }

    #[test]
    fn the_listing_groups_its_files_by_folder() {
        let l = folders().list();
        let mut listed: Vec<&String> = l.folders.iter().flat_map(|f| &f.files).collect();
        let mut expected: Vec<&String> = l.records.iter().chain(&l.games_csvs).collect();
        listed.sort();
        expected.sort();
        assert_eq!(listed, expected, "every games CSV and record in exactly one folder");
        let names: Vec<&str> = l.folders.iter().map(|f| f.folder.as_str()).collect();
        assert!(names.windows(2).all(|w| w[0] < w[1]), "folders sorted and distinct: {names:?}");
        assert!(names.contains(&"data/games") && names.contains(&"experiments/verdicts"), "{names:?}");
        for f in &l.folders {
            assert!(f.files.windows(2).all(|w| w[0] < w[1]), "{}: files sorted", f.folder);
            assert!(f.files.iter().all(|p| p.starts_with(&format!("{}/", f.folder))), "{}: {:?}", f.folder, f.files);
        }
    }

    #[test]
    fn a_folder_is_the_first_two_parts_of_a_path() {
        let paths: Vec<String> = [
            "experiments/strength/all/xxi/games.csv",
            "data/games/xxi/a.txt",
            "experiments/smoke-survey/games.csv",
            "experiments/strength/ab/games.csv",
            "experiments/top.csv",
        ]
        .map(String::from)
        .to_vec();
        let groups = group_by_folder(&paths);
        let got: Vec<(&str, Vec<&str>)> =
            groups.iter().map(|g| (g.folder.as_str(), g.files.iter().map(String::as_str).collect())).collect();
        assert_eq!(
            got,
            vec![
                ("data/games", vec!["data/games/xxi/a.txt"]),
                ("experiments", vec!["experiments/top.csv"]),
                ("experiments/smoke-survey", vec!["experiments/smoke-survey/games.csv"]),
                (
                    "experiments/strength",
                    vec!["experiments/strength/ab/games.csv", "experiments/strength/all/xxi/games.csv"]
                ),
            ]
        );
    }

    #[test]
    fn csv_text_is_checked() {
        let e = csv_page("upload", b"a,b\n1,2\n", 0, 10).expect_err("not games").to_string();
        assert!(e.contains("not a games CSV"), "{e}");
        let text = format!("{}\nxxi,0,0,1,random,random,draw,ply-cap,notanumber,0,0,0,0,,a1-a2\n", header());
        let e = csv_page("upload", text.as_bytes(), 0, 10).expect_err("bad row").to_string();
        assert!(e.contains("line 2"), "{e}");
    }
}

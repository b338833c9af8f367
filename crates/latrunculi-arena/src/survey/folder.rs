//! A survey's output folder: its fingerprint and `config.toml`, the games already in
//! `games.csv` (a truncated last line dropped), and a stopping rule that changed between
//! runs.

use std::collections::BTreeMap;
use std::path::Path;

use super::run::cell_needed;
use super::{Key, Survey};
use crate::error::{ArenaError, Result, ResultExt as _};
use crate::game::GameRow;
use crate::io::{games, write_atomic};

/// Whether a fingerprint line belongs to the stopping rule (which may change between
/// runs on one folder) rather than to the games themselves.
pub(super) fn is_stop_rule_line(line: &str) -> bool {
    ["games = ", "cap = ", "adaptive = ", "hash = "].iter().any(|p| line.starts_with(p))
}

/// Whether two fingerprints describe the same games, whatever their stopping rules.
pub(super) fn same_games(a: &str, b: &str) -> bool {
    a.lines().filter(|l| !is_stop_rule_line(l)).eq(b.lines().filter(|l| !is_stop_rule_line(l)))
}

/// Writes `config.toml`, the copy of the experiment file of the last run.
pub(super) fn write_config(dir: &Path, config_text: &str) -> Result<()> {
    let cfg_path = dir.join("config.toml");
    write_atomic(&cfg_path, config_text)
}

/// Checks (or, in a fresh folder, writes) `fingerprint.txt` and `config.toml`. With
/// `stop_rule_may_change`, a folder whose fingerprint differs only in the stopping rule
/// is accepted: the old fingerprint is returned and neither file is written (the caller
/// checks the games against the new rule, then calls [`accept_stop_rule`]).
pub(super) fn check_fingerprint(
    dir: &Path,
    survey: &Survey,
    config_text: &str,
    shard: Option<(u32, u32)>,
    stop_rule_may_change: bool,
) -> Result<Option<String>> {
    let fp_path = dir.join("fingerprint.txt");
    let games_path = dir.join(games::FILE);
    let current = survey.shard_fingerprint(shard);
    match std::fs::read_to_string(&fp_path) {
        Ok(old) if old == current => {}
        Ok(old) if stop_rule_may_change && same_games(&old, &current) => {
            return Ok(Some(old));
        }
        Ok(old) => {
            let old_lines: Vec<&str> = old.lines().collect();
            let new_lines: Vec<&str> = current.lines().collect();
            let mut diff: Vec<String> = old_lines
                .iter()
                .filter(|l| !new_lines.contains(l) && !l.starts_with("hash"))
                .map(|l| format!("  was: {l}"))
                .collect();
            diff.extend(
                new_lines
                    .iter()
                    .filter(|l| !old_lines.contains(l) && !l.starts_with("hash"))
                    .map(|l| format!("  now: {l}")),
            );
            return Err(ArenaError::OtherExperiment { dir: dir.to_path_buf(), diff: diff.join("\n") });
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if games_path.exists() {
                return Err(ArenaError::Experiment(format!(
                    "{} exists but {} does not: cannot tell which experiment made it; refusing to append to it",
                    games_path.display(),
                    fp_path.display()
                )));
            }
            write_atomic(&fp_path, &current)?;
        }
        Err(e) => return Err(ArenaError::io("read", fp_path)(e)),
    }
    write_config(dir, config_text)?;
    Ok(None)
}

/// The lines of fingerprint `a` that `b` lacks (`nothing` if none), for messages.
pub(super) fn lines_not_in(a: &str, b: &str) -> String {
    let b: Vec<&str> = b.lines().collect();
    let lines: Vec<&str> = a.lines().filter(|l| !b.contains(l) && !l.starts_with("hash")).collect();
    if lines.is_empty() { "nothing".to_string() } else { lines.join("; ") }
}

/// Accepts a changed stopping rule (`change`, for messages) on a resumed folder (see
/// the module docs): every game already played by the cells of `cells` must still be
/// needed under the new rule; then `fingerprint.txt` and `config.toml` are rewritten.
pub(super) fn accept_stop_rule(
    dir: &Path,
    survey: &Survey,
    config_text: &str,
    shard: Option<(u32, u32)>,
    change: &str,
    rows: &BTreeMap<Key, GameRow>,
    cells: &[(usize, usize)],
) -> Result<()> {
    for &(r, p) in cells {
        let need = cell_needed(survey, rows, r, p);
        if let Some(((_, _, last), _)) = rows.range((r, p, 0)..=(r, p, u32::MAX)).next_back()
            && *last >= need
        {
            return Err(ArenaError::Experiment(format!(
                "{}: the stopping rule changed ({change}), and under the new rule cell {} / {} stops at {need} \
                 games, but {} holds its game {last}; refusing to drop played games (keep a cap of at least {}, \
                 or use another output folder)",
                dir.display(),
                survey.rulesets[r].0,
                survey.pairing_label(p),
                dir.join(games::FILE).display(),
                last + 1
            )));
        }
    }
    eprintln!(
        "note: {}: the stopping rule changed ({change}); the {} games played are kept",
        dir.display(),
        rows.len()
    );
    write_atomic(&dir.join("fingerprint.txt"), survey.shard_fingerprint(shard).as_bytes())?;
    write_config(dir, config_text)?;
    Ok(())
}

/// Reads the complete rows of `games.csv` (creating it with its header if missing or
/// empty, and cutting off a truncated last line), keyed by cell and game.
pub(super) fn load_games(path: &Path, survey: &Survey) -> Result<BTreeMap<Key, GameRow>> {
    let (bytes, truncated) = complete_lines(path)?;
    if truncated > 0 {
        eprintln!("note: dropping a truncated last line of {} ({truncated} bytes)", path.display());
    }
    write_atomic(path, &bytes)?;
    parse_games(path, &bytes, survey)
}

/// The complete lines of `games.csv` (the header alone if it is missing or empty) and the
/// length of a truncated last line left out; checks the header. Writes nothing.
pub(super) fn complete_lines(path: &Path) -> Result<(Vec<u8>, usize)> {
    let header = games::header();
    let mut bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(ArenaError::io("read", path)(e)),
    };
    let keep = games::complete_lines(&bytes).len();
    let truncated = bytes.len() - keep;
    bytes.truncate(keep);
    if bytes.is_empty() {
        bytes = header.clone().into_bytes();
    }
    if !bytes.starts_with(header.as_bytes()) {
        return Err(ArenaError::Experiment(format!(
            "{} does not start with the games header `{}`",
            path.display(),
            header.trim_end()
        )));
    }
    Ok((bytes, truncated))
}

/// The rows of `bytes` (complete lines of `path`), keyed by cell and game.
pub(super) fn parse_games(path: &Path, bytes: &[u8], survey: &Survey) -> Result<BTreeMap<Key, GameRow>> {
    let mut rows = BTreeMap::new();
    for row in games::GamesReader::from_bytes(path, bytes)?.rows()? {
        let games::Located { line, value: row, .. } = row?;
        let key = survey
            .key_of(&row)
            .context_with(|| format!("{} line {line}: row does not fit the experiment", path.display()))?;
        rows.entry(key).or_insert(row);
    }
    Ok(rows)
}

//! What an interrupted ladder (or shard) left in its folder: its finished pairings and
//! their games, and the finished games of the pairing in progress ([`PENDING_FILE`]),
//! each checked against the plan before a resumed run keeps them.

use std::path::{Path, PathBuf};

use super::{LadderPlan, read_pairings_text};
use crate::error::{ArenaError, Result};
use crate::eval::{EVAL_COLUMNS, PairingSummary};
use crate::game::{GameRow, colours, game_seed};
use crate::io::games::{self, GamesReader, Located, complete_lines};

/// The index of `seed` in [`EVAL_COLUMNS`] (its last column).
pub(super) const SEED_COLUMN: usize = EVAL_COLUMNS.len() - 1;

/// What an interrupted ladder (or shard) already played: its first pairings, with the
/// exact text of their rows in `pairings.csv` and `games.csv` (headers included), each
/// pairing's line and the byte range of its games in `games_text`.
#[derive(Default)]
pub(super) struct Finished {
    pub(super) pairings: Vec<(usize, usize, PairingSummary)>,
    pub(super) pairings_text: String,
    pub(super) games_text: Vec<u8>,
    pub(super) lines: Vec<String>,
    pub(super) game_ranges: Vec<std::ops::Range<usize>>,
}

/// Reads the pairings and games an interrupted ladder wrote, checking that they are the
/// first pairings of this round robin (same agents in the same order, games and seed).
/// Games written for a pairing whose row is missing (a kill between the two writes)
/// are dropped and played again.
pub(super) fn read_finished(plan: &LadderPlan, files: &[PathBuf; 4]) -> Result<Finished> {
    let label = plan.label.as_str();
    let names = plan.names();
    let agents = names.as_slice();
    let pairs = plan.pairs();
    let (pairings_path, games_path) = (&files[1], &files[0]);
    let text = std::fs::read_to_string(pairings_path).map_err(ArenaError::io("read", pairings_path))?;
    let header = EVAL_COLUMNS.join(",");
    let mut lines = text.lines();
    if lines.next() != Some(header.as_str()) {
        return Err(ArenaError::content(
            pairings_path,
            None,
            "the first line is not the pairings header; cannot resume",
        ));
    }
    let mut done = Finished { pairings_text: format!("{header}\n"), ..Finished::default() };
    let summaries = read_pairings_text(pairings_path, &text, agents)?;
    for (k, (line_text, (a, b, s, record))) in lines.zip(summaries).enumerate() {
        let line = k + 2;
        let bad = |message: String| ArenaError::content(pairings_path, Some(line), message);
        let expected = pairs.get(k).ok_or_else(|| bad("more pairings than the agents file makes".to_string()))?;
        if (a, b) != *expected {
            return Err(bad(format!(
                "pairing '{}' vs '{}', but this agents file's pairing {} is '{}' vs '{}'; \
                 resume with the agents file the ladder started with",
                agents[a],
                agents[b],
                k + 1,
                agents[expected.0],
                agents[expected.1]
            )));
        }
        let (ruleset, seed) = (record.get(0).unwrap_or(""), record.get(SEED_COLUMN).unwrap_or(""));
        if ruleset != label || seed != plan.seed.to_string() || s.wdl.games() != u64::from(plan.games) {
            return Err(bad(format!(
                "ruleset {ruleset}, {} games, seed {seed}; this run asks for {label}, {} games, seed {}",
                s.wdl.games(),
                plan.games,
                plan.seed
            )));
        }
        done.pairings_text.push_str(line_text);
        done.pairings_text.push('\n');
        done.lines.push(line_text.to_string());
        done.pairings.push((a, b, s));
    }
    // The games of the finished pairings: the first pairings × games rows of games.csv.
    let want = done.pairings.len() * plan.games as usize;
    let bytes = std::fs::read(games_path).map_err(ArenaError::io("read", games_path))?;
    let games_header = games::header();
    if !bytes.starts_with(games_header.as_bytes()) {
        return Err(ArenaError::content(games_path, None, "the first line is not the games header; cannot resume"));
    }
    let mut reader = GamesReader::from_bytes(games_path, &bytes)?.rows()?;
    let mut end = games_header.len();
    let mut pairing_start = end;
    for n in 0..want {
        let (a, b, _) = &done.pairings[n / plan.games as usize];
        let g = (n % plan.games as usize) as u32;
        let Located { value: row, end: row_end, .. } = match reader.next() {
            Some(r) => r.map_err(cannot_resume)?,
            None => {
                return Err(ArenaError::content(
                    games_path,
                    None,
                    format!(
                        "holds {n} games, but its {} finished pairings need {want}; cannot resume",
                        done.pairings.len()
                    ),
                ));
            }
        };
        let (white, black) = if g % 2 == 0 { (&agents[*a], &agents[*b]) } else { (&agents[*b], &agents[*a]) };
        if row.game != g || row.white != *white || row.black != *black || row.plies > plan.ply_cap {
            return Err(ArenaError::content(
                games_path,
                None,
                format!(
                    "game row {}: game {} {} vs {} in {} plies, expected game {g} {white} vs {black} within the ply \
                     cap {}; cannot resume",
                    n + 1,
                    row.game,
                    row.white,
                    row.black,
                    row.plies,
                    plan.ply_cap
                ),
            ));
        }
        end = row_end;
        if g + 1 == plan.games {
            done.game_ranges.push(pairing_start..end);
            pairing_start = end;
        }
    }
    done.games_text = bytes[..end].to_vec();
    Ok(done)
}

/// The file of a ladder folder that holds the finished games of the pairing in progress
/// (the games header, then one row per game in the order the games ended); removed once
/// the pairing is written to games.csv and pairings.csv.
pub const PENDING_FILE: &str = "pending.csv";

/// The pending file of the folder of `files`.
pub(super) fn pending_file(files: &[PathBuf; 4]) -> PathBuf {
    files[0].with_file_name(PENDING_FILE)
}

/// Removes the pending file if it exists.
pub(super) fn remove_pending(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(ArenaError::io("remove", path)(e)),
    }
}

/// A games CSV that cannot be read, as a reason not to resume.
fn cannot_resume(e: ArenaError) -> ArenaError {
    match e {
        ArenaError::Content { path, line, message } => {
            ArenaError::Content { path, line, message: format!("{message}; cannot resume") }
        }
        e => e,
    }
}

/// Why a pending game row is not a game of pairing `pair` of `plan`, if it is not.
pub(super) fn pending_mismatch(plan: &LadderPlan, pair: (usize, usize), row: &GameRow) -> Option<String> {
    let (a, b) = (plan.agents[pair.0].to_string(), plan.agents[pair.1].to_string());
    let (white, black) = colours(a.as_str(), b.as_str(), row.game, true);
    if row.game >= plan.games {
        Some(format!("game {} of a pairing of {} games", row.game, plan.games))
    } else if row.ruleset != plan.label || row.white != white || row.black != black {
        Some(format!(
            "game {} {} vs {} on {}, expected {white} vs {black} on {}",
            row.game, row.white, row.black, row.ruleset, plan.label
        ))
    } else if row.seed != game_seed(plan.seed, row.game) {
        Some(format!("game {} has seed {}, not the seed of this run's game (seed {})", row.game, row.seed, plan.seed))
    } else if row.plies > plan.ply_cap {
        Some(format!("game {} lasts {} plies, beyond the ply cap {}", row.game, row.plies, plan.ply_cap))
    } else {
        None
    }
}

/// Reads the games an interrupted run finished of pairing `next` (an index into
/// [`LadderPlan::pairs`]) from the pending file at `path`: none if the file is missing,
/// or if it holds the games of the pairing before (a run killed between writing that
/// pairing and removing the file). A last line cut short by a kill is dropped; any
/// other row that is not a game of that pairing stops the run with an error naming the
/// line.
pub(super) fn read_pending(plan: &LadderPlan, path: &Path, next: usize) -> Result<Vec<GameRow>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(ArenaError::io("read", path)(e)),
    };
    let pairs = plan.pairs();
    let header = games::header();
    if !bytes.starts_with(header.as_bytes()) {
        // (A kill while the file was first written leaves at most an empty file.)
        if header.as_bytes().starts_with(&bytes) {
            return Ok(Vec::new());
        }
        return Err(ArenaError::content(path, None, "the first line is not the games header; cannot resume"));
    }
    let mut rows: Vec<GameRow> = Vec::new();
    for row in GamesReader::from_bytes(path, complete_lines(&bytes))?.rows().map_err(cannot_resume)? {
        let Located { line, value: row, .. } = row.map_err(cannot_resume)?;
        if rows.iter().any(|r| r.game == row.game) {
            return Err(ArenaError::content(
                path,
                Some(line),
                format!("game {} appears twice; cannot resume", row.game),
            ));
        }
        rows.push(row);
    }
    let Some(&pair) = pairs.get(next) else {
        return Ok(Vec::new());
    };
    let stale =
        next > 0 && !rows.is_empty() && rows.iter().all(|r| pending_mismatch(plan, pairs[next - 1], r).is_none());
    if stale {
        return Ok(Vec::new());
    }
    for (k, row) in rows.iter().enumerate() {
        if let Some(why) = pending_mismatch(plan, pair, row) {
            return Err(ArenaError::content(
                path,
                Some(k + 2),
                format!(
                    "{why} (pairing {} of the round robin is '{}' vs '{}'); cannot resume",
                    next + 1,
                    plan.agents[pair.0],
                    plan.agents[pair.1]
                ),
            ));
        }
    }
    Ok(rows)
}

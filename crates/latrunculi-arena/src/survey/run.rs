//! Playing a survey (or one shard of it) into its folder, its progress, and merging
//! the folders of its shards.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use super::folder::{
    accept_stop_rule, check_fingerprint, complete_lines, lines_not_in, load_games, parse_games, same_games,
};
use super::summary::{CellSummary, summary_columns};
use super::{Key, Survey, parse_shard};
use crate::error::{ArenaError, Result, ResultExt as _};
use crate::game::{GameJob, GameRow, colours, game_seed, play_game, progress_bar};
use crate::io::games;
use crate::io::write_atomic;

/// Whether cell `c` (index in experiment order) belongs to `shard` (all do without one).
pub(super) fn in_shard(c: usize, shard: Option<(u32, u32)>) -> bool {
    shard.is_none_or(|(k, n)| c % n as usize == (k - 1) as usize)
}

/// The games cell `(r, p)` needs given the rows played so far (see [`Survey::games_needed`]).
pub(super) fn cell_needed(survey: &Survey, rows: &BTreeMap<Key, GameRow>, r: usize, p: usize) -> u32 {
    survey.games_needed(p, |g| rows.get(&(r, p, g)).map(|row| row.winner == "draw"))
}

/// How far one cell of a survey has got (see [`survey_progress`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CellProgress {
    /// Ruleset label.
    pub ruleset: String,
    /// Pairing label (`first vs second`).
    pub pairing: String,
    /// Games of the cell in `games.csv`.
    pub played: u32,
    /// Games the cell needs: where it stops if `finished`, else the end of its current
    /// round (see [`Survey::games_needed`]).
    pub needed: u32,
    /// The cell's cap (`games`, or its pairing's `[[cap]]`).
    pub cap: u32,
    /// Games below `needed` not played yet.
    pub missing: u32,
}

impl CellProgress {
    /// Whether the cell has all the games it needs under the stopping rule.
    pub fn is_finished(&self) -> bool {
        self.missing == 0
    }
}

/// The progress of every cell of `survey` (or of one shard) in `dir`, under the
/// experiment file's stopping rule, read without claiming the folder or writing anything,
/// so that it can watch a run that is appending to `games.csv` (a half-written last line
/// is left out). A folder holding another experiment (a fingerprint that differs in more
/// than the stopping rule) is refused; a folder with no games gives cells with none.
pub fn survey_progress(survey: &Survey, dir: &Path, shard: Option<(u32, u32)>) -> Result<Vec<CellProgress>> {
    let fp_path = dir.join("fingerprint.txt");
    match std::fs::read_to_string(&fp_path) {
        Ok(old) => {
            let current = survey.shard_fingerprint(shard);
            if !same_games(&old, &current) {
                return Err(ArenaError::Experiment(format!(
                    "{} holds results of a different experiment configuration (was: {}; now: {})",
                    dir.display(),
                    lines_not_in(&old, &current),
                    lines_not_in(&current, &old)
                )));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(ArenaError::io("read", fp_path)(e)),
    }
    let games_path = dir.join(games::FILE);
    let (bytes, _) = complete_lines(&games_path)?;
    let rows = parse_games(&games_path, &bytes, survey)?;
    let npair = survey.pairings.len();
    Ok((0..survey.cells())
        .filter(|&c| in_shard(c, shard))
        .map(|c| {
            let (r, p) = (c / npair, c % npair);
            let needed = cell_needed(survey, &rows, r, p);
            let missing = (0..needed).filter(|&g| !rows.contains_key(&(r, p, g))).count() as u32;
            CellProgress {
                ruleset: survey.rulesets[r].0.clone(),
                pairing: survey.pairing_label(p),
                played: rows.range((r, p, 0)..=(r, p, u32::MAX)).count() as u32,
                needed,
                cap: survey.caps[p],
                missing,
            }
        })
        .collect())
}

/// Runs the survey (or one shard of it) into `dir`, resuming what is there, and returns
/// the summaries of its cells. The folder is claimed for the run
/// ([`crate::io::lock_folder`]): a second run into it stops with an error instead of
/// appending to the same `games.csv`.
pub fn run_survey(
    survey: &Survey,
    config_text: &str,
    dir: &Path,
    shard: Option<(u32, u32)>,
) -> Result<Vec<CellSummary>> {
    let _claim = crate::io::lock_folder(dir)?;
    let changed = check_fingerprint(dir, survey, config_text, shard, true)?;
    let games_path = dir.join(games::FILE);
    let npair = survey.pairings.len();
    let mine: Vec<(usize, usize)> =
        (0..survey.cells()).filter(|&c| in_shard(c, shard)).map(|c| (c / npair, c % npair)).collect();
    let cap_total: u64 = mine.iter().map(|&(_, p)| survey.caps[p] as u64).sum();
    let mut done = match &changed {
        None => load_games(&games_path, survey)?,
        Some(old) => {
            let current = survey.shard_fingerprint(shard);
            let change = format!("was: {}; now: {}", lines_not_in(old, &current), lines_not_in(&current, old));
            let rows = load_games(&games_path, survey).context_with(|| {
                format!(
                    "{}: the stopping rule changed ({change}); the games played must fit the new rule",
                    dir.display()
                )
            })?;
            accept_stop_rule(dir, survey, config_text, shard, &change, &rows, &mine)?;
            rows
        }
    };
    if !done.is_empty() {
        eprintln!("resuming: {} games already in {}", done.len(), games_path.display());
    }
    // Rounds: every cell short of the games it needs gets them, all cells in parallel;
    // without adaptive cells there is one round.
    loop {
        let mut jobs: Vec<Key> = Vec::new();
        for &(r, p) in &mine {
            let need = cell_needed(survey, &done, r, p);
            jobs.extend((0..need).map(|g| (r, p, g)).filter(|k| !done.contains_key(k)));
        }
        if jobs.is_empty() {
            break;
        }
        let file =
            std::fs::OpenOptions::new().append(true).open(&games_path).map_err(ArenaError::io("open", &games_path))?;
        let writer = Mutex::new(file);
        let bar = progress_bar(cap_total, done.len() as u64);
        let played: Vec<(Key, GameRow)> = jobs
            .par_iter()
            .map(|&(r, p, game)| -> Result<(Key, GameRow)> {
                let (label, rs) = &survey.rulesets[r];
                let (a, b) = &survey.pairings[p];
                let (white, black) = colours(a, b, game, survey.config.swap);
                let job = GameJob {
                    ruleset: rs,
                    label,
                    game,
                    seed: game_seed(survey.config.seed, game),
                    white,
                    black,
                    ply_cap: survey.config.ply_cap,
                };
                let row = play_game(&job)?;
                let line = row.to_csv_line()?;
                let mut f = writer.lock().map_err(|_| ArenaError::Game("a writer thread panicked".to_string()))?;
                f.write_all(&line).and_then(|()| f.flush()).map_err(ArenaError::io("append to", &games_path))?;
                bar.inc(1);
                Ok(((r, p, game), row))
            })
            .collect::<Result<_>>()?;
        bar.finish_and_clear();
        done.extend(played);
    }
    write_outputs(survey, dir, &done, &mine)
}

/// Rewrites `games.csv` (the games the cells need, sorted in experiment order) and
/// `summary.csv` of `cells` from `rows`.
pub(super) fn write_outputs(
    survey: &Survey,
    dir: &Path,
    rows: &BTreeMap<Key, GameRow>,
    cells: &[(usize, usize)],
) -> Result<Vec<CellSummary>> {
    let mut out = games::header().into_bytes();
    let mut summaries = Vec::new();
    let mut text = summary_columns().join(",") + "\n";
    for &(r, p) in cells {
        let need = cell_needed(survey, rows, r, p);
        let cell: Vec<&GameRow> = rows.range((r, p, 0)..(r, p, need)).map(|(_, v)| v).collect();
        if cell.len() != need as usize {
            return Err(ArenaError::Experiment(format!(
                "cell {} / {} has {} of the {need} games it needs",
                survey.rulesets[r].0,
                survey.pairing_label(p),
                cell.len()
            )));
        }
        let extra = rows.range((r, p, need)..=(r, p, u32::MAX)).count();
        if extra > 0 {
            eprintln!(
                "note: cell {} / {} stops at {need} games; {extra} later games are left out",
                survey.rulesets[r].0,
                survey.pairing_label(p)
            );
        }
        for row in &cell {
            out.extend(row.to_csv_line()?);
        }
        let s = CellSummary::new(survey.rulesets[r].0.clone(), survey.pairing_label(p), &cell)?;
        text += &s.csv_line();
        text.push('\n');
        summaries.push(s);
    }
    write_atomic(&dir.join(games::FILE), &out)?;
    write_atomic(&dir.join(super::summary::SUMMARY_FILE), text.as_bytes())?;
    Ok(summaries)
}

/// Merges the output folders of all shards of `survey` into `dir` (see the module docs).
pub fn merge_shards(survey: &Survey, config_text: &str, dir: &Path, shards: &[PathBuf]) -> Result<Vec<CellSummary>> {
    let _claim = crate::io::lock_folder(dir)?;
    let mut rows: BTreeMap<Key, GameRow> = BTreeMap::new();
    let mut seen: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut total = None;
    for sdir in shards {
        let fp_path = sdir.join("fingerprint.txt");
        let fp = std::fs::read_to_string(&fp_path).map_err(ArenaError::io("read", &fp_path))?;
        let shard =
            fp.lines().find_map(|l| l.strip_prefix("shard = ")).and_then(|t| parse_shard(t).ok()).ok_or_else(|| {
                ArenaError::Experiment(format!(
                    "{} is not the fingerprint of a shard (no `shard = K/N` line)",
                    fp_path.display()
                ))
            })?;
        if fp != survey.shard_fingerprint(Some(shard)) {
            return Err(ArenaError::Experiment(format!(
                "{} holds shard {}/{} of a different experiment configuration",
                sdir.display(),
                shard.0,
                shard.1
            )));
        }
        if *total.get_or_insert(shard.1) != shard.1 {
            return Err(ArenaError::Experiment(format!(
                "{} is a shard of {} parts, the others of {}",
                sdir.display(),
                shard.1,
                total.unwrap_or(0)
            )));
        }
        if let Some(other) = seen.insert(shard.0, sdir.clone()) {
            return Err(ArenaError::Experiment(format!(
                "shard {}/{} is given twice: {} and {}",
                shard.0,
                shard.1,
                other.display(),
                sdir.display()
            )));
        }
        let games = load_games(&sdir.join(games::FILE), survey)?;
        for (key, row) in games {
            let c = key.0 * survey.pairings.len() + key.1;
            if !in_shard(c, Some(shard)) {
                return Err(ArenaError::Experiment(format!(
                    "{}: a game of cell {c}, which is not in shard {}/{}",
                    sdir.display(),
                    shard.0,
                    shard.1
                )));
            }
            rows.insert(key, row);
        }
    }
    let n = total.unwrap_or(0);
    let missing: Vec<String> = (1..=n).filter(|k| !seen.contains_key(k)).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        return Err(ArenaError::Experiment(format!("shards missing from the merge: {}", missing.join(", "))));
    }
    std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
    check_fingerprint(dir, survey, config_text, None, false)?;
    let all: Vec<(usize, usize)> =
        (0..survey.cells()).map(|c| (c / survey.pairings.len(), c % survey.pairings.len())).collect();
    write_outputs(survey, dir, &rows, &all)
}

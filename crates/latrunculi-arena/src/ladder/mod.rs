//! Ladders (`latrunculi ladder`): a round robin between many agents (for example every
//! checkpoint of a training run and the baselines) and Elo ratings fitted to all its
//! results by maximum likelihood, anchored at `random` = 0.
//!
//! Output folder: `games.csv` (every game, the columns of `play`), `pairings.csv` (one
//! row per pairing, the columns of `eval`), `ratings.csv` and `ratings.svg`, and while a
//! pairing is played [`PENDING_FILE`] (its games so far, so that `--resume` after a kill
//! plays only the games it lacks). The columns are documented in `experiments/README.md`.
//! Pairing `(i, j)` (agents in file order, `i < j`) plays `--games` games with seeds
//! [`game_seed`]`(seed, g)`, agent `i` White in even games.
//!
//! # Shards
//!
//! A ladder with a shard `K/N` plays only the pairings whose index in play order (from
//! 0) is `K-1` modulo `N`, into its own folder (with a `shard.txt` naming the shard and
//! no ratings); [`merge_ladder`] combines the folders of all `N` shards into the
//! `games.csv` and `pairings.csv` one unsharded run writes, byte for byte, and rates
//! them. A SLURM job array runs shard `$SLURM_ARRAY_TASK_ID/N` per task.

//!
//! The module's parts: [`ratings`] (the fit, `ratings.csv`, `ratings.svg`) and
//! `resume` (what an interrupted run left in its folder).

use std::path::{Path, PathBuf};

use latrunculi_agents::{AgentSpec, Players};
use latrunculi_rules::Ruleset;
use rayon::prelude::*;

use crate::elo::Wdl;
use crate::error::{ArenaError, Result, Setting};
use crate::eval::{EVAL_COLUMNS, PairingSummary, check_new_file, summarise_games, summary_line};
use crate::game::{GameJob, GameRow, RulesetChoice, colours, game_seed, play_game, progress_bar};
use crate::io::games;
use crate::io::{Journal, write_atomic};

pub mod ratings;
mod resume;
#[cfg(test)]
mod tests;

pub use ratings::{RATING_COLUMNS, RATINGS_FILE, RATINGS_PLOT_FILE, RatingRow, rate, ratings_csv, ratings_svg};
pub use resume::PENDING_FILE;

/// The name of a ladder's pairings in its folder: one row per pairing, the columns of
/// `eval` ([`EVAL_COLUMNS`]).
pub const PAIRINGS_FILE: &str = "pairings.csv";
use resume::{Finished, pending_file, read_finished, read_pending, remove_pending};

/// Reads an agents file: the specs with their 1-based line numbers.
pub fn read_agents(path: &Path) -> Result<Vec<(usize, String)>> {
    let text = std::fs::read_to_string(path).map_err(ArenaError::io("read agents file", path))?;
    let specs: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim().to_string()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if specs.len() < 2 {
        return Err(ArenaError::content(
            path,
            None,
            format!("a ladder needs at least two agents, found {}", specs.len()),
        ));
    }
    Ok(specs)
}

/// What a ladder plays and how it rates: everything but its output folder.
#[derive(Clone, Debug)]
pub struct LadderPlan {
    /// The ruleset (board applied).
    pub ruleset: Ruleset,
    /// Its label.
    pub label: String,
    /// The agents, in the agents file's order.
    pub agents: Vec<AgentSpec>,
    /// Index in `agents` of the agent rated 0.
    pub anchor: usize,
    /// Games per pairing, colours alternated.
    pub games: u32,
    /// Base seed.
    pub seed: u64,
    /// Ply cap.
    pub ply_cap: u32,
    /// Virtual drawn games added to every pairing before fitting.
    pub prior_draws: f64,
    /// Play only shard `K` of `N` (`Some((K, N))`, 1 ≤ K ≤ N) of the round robin.
    pub shard: Option<(u32, u32)>,
}

impl LadderPlan {
    /// Checks the settings of `latrunculi ladder`: the ruleset loads, at least one game,
    /// `prior_draws` ≥ 0, every agent of the agents file ([`read_agents`]) builds for the
    /// ruleset and none repeats, and the `anchor` spec is one of them. The specs are read
    /// by `players`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        players: &Players,
        ruleset: &RulesetChoice,
        agents_file: &Path,
        games: u32,
        seed: u64,
        ply_cap: u32,
        prior_draws: f64,
        anchor: &str,
    ) -> Result<LadderPlan> {
        let rs = ruleset.load()?;
        let label = ruleset.label(&rs)?;
        if games == 0 {
            return Err(ArenaError::AtLeastOne { setting: Setting::Games });
        }
        if !(prior_draws >= 0.0 && prior_draws.is_finite()) {
            return Err(ArenaError::BadSetting {
                setting: Setting::PriorDraws,
                value: prior_draws.to_string(),
                message: "must be a number ≥ 0".to_string(),
            });
        }
        let mut agents: Vec<AgentSpec> = Vec::new();
        for (line, spec) in read_agents(agents_file)? {
            let canonical = crate::agents::spec_for(players, &spec, &rs)
                .map_err(|e| e.context(format!("{} line {line}", agents_file.display())))?;
            if let Some(k) = agents.iter().position(|a| *a == canonical) {
                return Err(ArenaError::content(
                    agents_file,
                    Some(line),
                    format!("'{spec}' repeats agent {} ('{}')", k + 1, agents[k]),
                ));
            }
            agents.push(canonical);
        }
        let anchor_spec = crate::agents::spec_for(players, anchor, &rs)
            .map_err(|e| ArenaError::SettingAgent { setting: Setting::Anchor, source: Box::new(e) })?;
        let anchor = agents.iter().position(|a| *a == anchor_spec).ok_or_else(|| ArenaError::AnchorNotListed {
            anchor: anchor_spec.to_string(),
            file: agents_file.to_path_buf(),
        })?;
        Ok(LadderPlan { ruleset: rs, label, agents, anchor, games, seed, ply_cap, prior_draws, shard: None })
    }

    /// The pairings this plan plays, in play order: the round robin `(i, j)`, `i < j`,
    /// or with a shard `K/N` those whose index is `K-1` modulo `N`.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let all = round_robin(self.agents.len());
        match self.shard {
            None => all,
            Some((k, n)) => all
                .into_iter()
                .enumerate()
                .filter(|(p, _)| p % n as usize == (k - 1) as usize)
                .map(|(_, x)| x)
                .collect(),
        }
    }

    /// The canonical specs of the agents, in order (as the result files write them).
    pub fn names(&self) -> Vec<String> {
        self.agents.iter().map(AgentSpec::to_string).collect()
    }

    /// The plan of shard `k` of `n` of this ladder.
    fn with_shard(&self, k: u32, n: u32) -> LadderPlan {
        LadderPlan { shard: Some((k, n)), ..self.clone() }
    }
}

/// The text of a shard folder's `shard.txt`.
fn shard_text(k: u32, n: u32) -> String {
    format!("shard = {k}/{n}\n")
}

/// The shard named by a folder's `shard.txt`, `None` if it has none.
fn read_shard(dir: &Path) -> Result<Option<(u32, u32)>> {
    let path = dir.join("shard.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let spec = text.trim().strip_prefix("shard = ").ok_or_else(|| {
                ArenaError::content(&path, None, format!("expected `shard = K/N`, found {:?}", text.trim()))
            })?;
            let shard = crate::survey::parse_shard(spec).map_err(|e| ArenaError::content(&path, None, e))?;
            Ok(Some(shard))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(ArenaError::io("read", &path)(e)),
    }
}

/// Checks that a ladder folder holds the shard the plan asks for (or, without one, no
/// shard), and writes `shard.txt` into a folder starting a shard.
fn check_shard_folder(plan: &LadderPlan, out: &Path, starting: bool) -> Result<()> {
    let found = read_shard(out)?;
    match (plan.shard, found) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (Some((k, n)), None) if starting || !out.join(PAIRINGS_FILE).exists() => {
            std::fs::create_dir_all(out).map_err(ArenaError::io("create", out))?;
            write_atomic(&out.join("shard.txt"), shard_text(k, n).as_bytes())
        }
        (None, None) => Ok(()),
        (want, found) => {
            let name =
                |s: Option<(u32, u32)>| s.map_or("the whole ladder".to_string(), |(k, n)| format!("shard {k}/{n}"));
            Err(ArenaError::OtherRun {
                path: out.to_path_buf(),
                line: None,
                message: format!("holds {}, but this run asks for {}", name(found), name(want)),
            })
        }
    }
}

/// What a ladder run does with its output folder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LadderMode {
    /// Play every pairing into a folder without results (existing files are replaced
    /// only with `force`).
    Fresh {
        /// Replace existing output files.
        force: bool,
    },
    /// Continue an interrupted ladder: keep the finished pairings (checked against the
    /// plan) and their games, and the finished games of the pairing in progress
    /// ([`PENDING_FILE`]); play the rest.
    Resume,
    /// Play nothing: refit the ratings from the folder's `pairings.csv`.
    RateOnly,
}

/// Runs a ladder into `out`: plays the round robin (or, with [`LadderMode::RateOnly`],
/// reads its pairings), writing `games.csv` and `pairings.csv` after every pairing (and
/// each game to [`PENDING_FILE`] as it ends, for [`LadderMode::Resume`]), then
/// fits the ratings and writes `ratings.csv` and `ratings.svg`. Returns the rating rows,
/// best first.
/// With a shard in the plan, only that shard's pairings are played and nothing is rated
/// (the rows returned are empty); see [`merge_ladder`]. A run that plays claims the folder
/// ([`crate::io::lock_folder`]): a second run into it stops with an error.
pub fn run_ladder(plan: &LadderPlan, out: &Path, mode: LadderMode) -> Result<Vec<RatingRow>> {
    // Rating only (a peek at a ladder still running, say) plays and appends nothing.
    let _claim = if mode == LadderMode::RateOnly { None } else { Some(crate::io::lock_folder(out)?) };
    let files = ladder_files(out);
    let pairings = match mode {
        LadderMode::RateOnly => {
            if plan.shard.is_some() || read_shard(out)?.is_some() {
                return Err(ArenaError::ShardHasNoRatings);
            }
            read_pairings(&files[1], &plan.names())?
        }
        LadderMode::Resume => {
            check_shard_folder(plan, out, false)?;
            let done = if files[1].exists() {
                let done = read_finished(plan, &files)?;
                eprintln!(
                    "resuming: {} of {} pairings already in {}",
                    done.pairings.len(),
                    plan.pairs().len(),
                    files[1].display()
                );
                done
            } else {
                // Nothing finished yet (a games.csv without pairings.csv holds no finished
                // pairing): start afresh in the folder.
                Finished::default()
            };
            let pending_path = pending_file(&files);
            let pending = read_pending(plan, &pending_path, done.pairings.len())?;
            if !pending.is_empty() {
                eprintln!(
                    "resuming: {} of {} games of the next pairing already in {}",
                    pending.len(),
                    plan.games,
                    pending_path.display()
                );
            }
            play_round_robin(plan, &files, done, pending)?
        }
        LadderMode::Fresh { force } => {
            for f in files.iter().chain([&pending_file(&files)]) {
                check_new_file(f, force)?;
            }
            check_shard_folder(plan, out, force)?;
            play_round_robin(plan, &files, Finished::default(), Vec::new())?
        }
    };
    if plan.shard.is_some() {
        return Ok(Vec::new());
    }
    rate_and_write(plan, &files, &pairings)
}

/// The four output files of a ladder folder: games, pairings, ratings, plot.
fn ladder_files(out: &Path) -> [PathBuf; 4] {
    [games::FILE, PAIRINGS_FILE, RATINGS_FILE, RATINGS_PLOT_FILE].map(|f| out.join(f))
}

/// Fits the ratings of a whole ladder's pairings and writes ratings.csv and ratings.svg.
fn rate_and_write(
    plan: &LadderPlan,
    files: &[PathBuf; 4],
    pairings: &[(usize, usize, PairingSummary)],
) -> Result<Vec<RatingRow>> {
    let agents = plan.names();
    let rows = rate(&agents, plan.anchor, pairings, plan.prior_draws)?;
    write_atomic(&files[2], ratings_csv(&rows)?.as_bytes())?;
    let games = pairings.first().map(|p| p.2.wdl.games()).unwrap_or(0);
    let title = format!("{}: {} agents, {games} games per pairing", plan.label, agents.len());
    write_atomic(&files[3], ratings_svg(&title, &rows).as_bytes())?;
    Ok(rows)
}

/// Merges the folders of all `N` shards of the ladder `plan` (each finished, as its
/// `shard.txt` names it, in any order) into `out`: the games.csv and pairings.csv of
/// one unsharded run, byte for byte, then the ratings. Existing output files in `out`
/// are replaced only with `force`.
pub fn merge_ladder(plan: &LadderPlan, out: &Path, shards: &[PathBuf], force: bool) -> Result<Vec<RatingRow>> {
    let _claim = crate::io::lock_folder(out)?;
    let mut parts: Vec<Option<(PathBuf, Finished)>> = Vec::new();
    let mut total = None;
    for dir in shards {
        let (k, n) = read_shard(dir)?.ok_or_else(|| ArenaError::NotAShard { dir: dir.clone() })?;
        if *total.get_or_insert(n) != n {
            return Err(ArenaError::content(
                dir,
                None,
                format!("is shard {k}/{n}, the others are shards of {} parts", total.unwrap_or(0)),
            ));
        }
        parts.resize_with(n as usize, || None);
        if let Some((other, _)) = &parts[(k - 1) as usize] {
            return Err(ArenaError::content(
                dir,
                None,
                format!("is shard {k}/{n}, which {} is too (a shard is given twice)", other.display()),
            ));
        }
        let sub = plan.with_shard(k, n);
        let files = ladder_files(dir);
        if !files[1].exists() {
            return Err(ArenaError::ShardUnfinished {
                dir: dir.clone(),
                k,
                n,
                state: "has no pairings.csv yet".to_string(),
            });
        }
        let done = read_finished(&sub, &files)?;
        let want = sub.pairs().len();
        if done.pairings.len() != want {
            return Err(ArenaError::ShardUnfinished {
                dir: dir.clone(),
                k,
                n,
                state: format!("holds {} of its {want} pairings", done.pairings.len()),
            });
        }
        parts[(k - 1) as usize] = Some((dir.clone(), done));
    }
    let n = total.ok_or(ArenaError::MergeNeedsShards)?;
    let missing: Vec<String> =
        parts.iter().enumerate().filter(|(_, p)| p.is_none()).map(|(k, _)| format!("{}/{n}", k + 1)).collect();
    if !missing.is_empty() {
        return Err(ArenaError::ShardsMissing { missing: missing.join(", ") });
    }
    let parts: Vec<Finished> = parts.into_iter().flatten().map(|(_, f)| f).collect();
    let files = ladder_files(out);
    for f in &files {
        check_new_file(f, force)?;
    }
    if read_shard(out)?.is_some() {
        return Err(ArenaError::content(out, None, "is a shard's folder; merge into another folder"));
    }
    let mut games_text = games::header().into_bytes();
    let mut pairings_text = format!("{}\n", EVAL_COLUMNS.join(","));
    let mut pairings = Vec::new();
    for p in 0..round_robin(plan.agents.len()).len() {
        let (s, q) = (p % n as usize, p / n as usize);
        let part = &parts[s];
        games_text.extend_from_slice(&part.games_text[part.game_ranges[q].clone()]);
        pairings_text.push_str(&part.lines[q]);
        pairings_text.push('\n');
        pairings.push(part.pairings[q].clone());
    }
    std::fs::create_dir_all(out).map_err(ArenaError::io("create", out))?;
    write_atomic(&files[0], &games_text)?;
    write_atomic(&files[1], pairings_text.as_bytes())?;
    rate_and_write(plan, &files, &pairings)
}

/// Reads the pairings of a finished ladder (`pairings.csv`) for the agents of the agents file.
pub fn read_pairings(path: &Path, agents: &[String]) -> Result<Vec<(usize, usize, PairingSummary)>> {
    let text = std::fs::read_to_string(path).map_err(ArenaError::io("read", path))?;
    let out: Vec<_> = read_pairings_text(path, &text, agents)?.into_iter().map(|(a, b, s, _)| (a, b, s)).collect();
    if out.is_empty() {
        return Err(ArenaError::content(path, None, "holds no pairings"));
    }
    Ok(out)
}

/// Parses the text of a `pairings.csv` (named `path` in errors): each row's agents, its
/// results and the row itself.
fn read_pairings_text(
    path: &Path,
    text: &str,
    agents: &[String],
) -> Result<Vec<(usize, usize, PairingSummary, csv::StringRecord)>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let line = k + 2;
        let bad = |message: String| ArenaError::content(path, Some(line), message);
        let r = record.map_err(|e| bad(e.to_string()))?;
        let cell = |i: usize| r.get(i).ok_or_else(|| bad("too few columns".to_string()));
        let index = |name: &str| {
            agents
                .iter()
                .position(|a| a == name)
                .ok_or_else(|| bad(format!("agent '{name}' is not in the agents file")))
        };
        let count =
            |i: usize| -> Result<u64> { cell(i)?.parse().map_err(|_| bad(format!("column {} is not a count", i + 1))) };
        let wdl = Wdl { wins: count(4)?, draws: count(5)?, losses: count(6)? };
        let summary = PairingSummary { opponent: cell(2)?.to_string(), wdl, mean_plies: 0.0, sprt: None };
        out.push((index(cell(1)?)?, index(cell(2)?)?, summary, r.clone()));
    }
    Ok(out)
}

/// The pairings of the round robin in play order: `(i, j)` with `i < j`.
fn round_robin(n: usize) -> Vec<(usize, usize)> {
    (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()
}

/// Plays every pairing of the round robin not yet in `done`, writing games.csv and
/// pairings.csv after each. `pending` holds the games of the next pairing that an
/// interrupted run finished ([`read_pending`]); only its other games are played. Every
/// game is appended to [`PENDING_FILE`] as it ends (so a run killed in a long pairing
/// keeps its finished games), and the file is removed once its pairing is written.
fn play_round_robin(
    plan: &LadderPlan,
    files: &[PathBuf; 4],
    done: Finished,
    mut pending: Vec<GameRow>,
) -> Result<Vec<(usize, usize, PairingSummary)>> {
    let (rs, label, specs) = (&plan.ruleset, plan.label.as_str(), plan.agents.as_slice());
    let names = plan.names();
    let agents = names.as_slice();
    let pairs = plan.pairs();
    let skip = done.pairings.len();
    let pending_path = pending_file(files);
    let bar = progress_bar(pairs.len() as u64 * plan.games as u64, (skip * plan.games as usize + pending.len()) as u64);
    let (mut games_text, mut pairings_text, mut pairings) = if skip == 0 {
        (games::header().into_bytes(), format!("{}\n", EVAL_COLUMNS.join(",")), Vec::new())
    } else {
        (done.games_text, done.pairings_text, done.pairings)
    };
    for &(i, j) in &pairs[skip..] {
        bar.set_message(format!("{} vs {}", agents[i], agents[j]));
        let resumed = std::mem::take(&mut pending);
        // The pending file rewritten with the resumed games only, then appended to.
        let text = games::to_bytes(&resumed)?;
        let journal = Journal::create(&pending_path, &text)?;
        let have: std::collections::BTreeSet<u32> = resumed.iter().map(|r| r.game).collect();
        let todo: Vec<u32> = (0..plan.games).filter(|g| !have.contains(g)).collect();
        let new = todo
            .into_par_iter()
            .map(|game| {
                let (white, black) = colours(&specs[i], &specs[j], game, true);
                let job = GameJob {
                    ruleset: rs,
                    label,
                    game,
                    seed: game_seed(plan.seed, game),
                    white,
                    black,
                    ply_cap: plan.ply_cap,
                };
                let row = play_game(&job)?;
                journal.append(&row.to_csv_line()?)?;
                bar.inc(1);
                Ok(row)
            })
            .collect::<Result<Vec<GameRow>>>()?;
        let mut rows = resumed;
        rows.extend(new);
        rows.sort_by_key(|r| r.game);
        let summary = summarise_games(&agents[j], &rows);
        for r in &rows {
            games_text.extend(r.to_csv_line()?);
        }
        pairings_text.push_str(&summary_line(label, &agents[i], plan.seed, &summary)?);
        pairings_text.push('\n');
        // Written after every pairing, so an interrupted ladder keeps its games.
        write_atomic(&files[0], &games_text)?;
        write_atomic(&files[1], pairings_text.as_bytes())?;
        remove_pending(&pending_path)?;
        pairings.push((i, j, summary));
    }
    // (A pending file left by a run killed just after writing its last pairing.)
    remove_pending(&pending_path)?;
    bar.finish_and_clear();
    Ok(pairings)
}

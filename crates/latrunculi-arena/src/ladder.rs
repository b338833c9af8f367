//! Ladders (`latrunculi ladder`): a round robin between many agents (for example every
//! checkpoint of a training run and the baselines) and Elo ratings fitted to all its
//! results by maximum likelihood, anchored at `random` = 0.
//!
//! Output folder: `games.csv` (every game, the columns of `play`), `pairings.csv` (one
//! row per pairing, the columns of `eval`), `ratings.csv` and `ratings.svg`, and while a
//! pairing is played [`PENDING_FILE`] (its games so far, so that `--resume` after a kill
//! plays only the games it lacks). The columns are documented in `experiments/README.md`.
//! Pairing `(i, j)` (agents in file order, `i < j`) plays `--games` games with seeds
//! [`game_seed`](crate::game::game_seed)`(seed, g)`, agent `i` White in even games.
//!
//! # Shards
//!
//! A ladder with a shard `K/N` plays only the pairings whose index in play order (from
//! 0) is `K-1` modulo `N`, into its own folder (with a `shard.txt` naming the shard and
//! no ratings); [`merge_ladder`] combines the folders of all `N` shards into the
//! `games.csv` and `pairings.csv` one unsharded run writes, byte for byte, and rates
//! them. A SLURM job array runs shard `$SLURM_ARRAY_TASK_ID/N` per task.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use latrunculi_rules::{Ruleset, RulesetSpec};
use rayon::prelude::*;

use crate::elo::{PairResult, Wdl, fit_ratings};
use crate::eval::{EVAL_COLUMNS, PairingSummary, check_new_file, num, summarise_games, summary_line};
use crate::game::{GameJob, GameRow, canonical_spec, colours, game_seed, games_header, play_game, progress_bar};
use crate::io::{Journal, write_atomic};
use crate::stats::Z95;

/// The columns of ratings.csv, in order.
pub const RATING_COLUMNS: [&str; 11] =
    ["rank", "agent", "elo", "elo_lo", "elo_hi", "std_err", "games", "wins", "draws", "losses", "score"];

/// Reads an agents file: the specs with their 1-based line numbers.
pub fn read_agents(path: &Path) -> anyhow::Result<Vec<(usize, String)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read agents file {}", path.display()))?;
    let specs: Vec<(usize, String)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim().to_string()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    if specs.len() < 2 {
        anyhow::bail!("{}: a ladder needs at least two agents, found {}", path.display(), specs.len());
    }
    Ok(specs)
}

/// One agent's line of ratings.csv and the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    /// Canonical spec.
    pub agent: String,
    /// Fitted Elo.
    pub elo: f64,
    /// Standard error of the rating.
    pub std_err: f64,
    /// The agent's results over all its games.
    pub wdl: Wdl,
}

/// Fits ratings to the pairings' results and returns the rows sorted best first.
pub fn rate(
    agents: &[String],
    anchor: usize,
    pairings: &[(usize, usize, PairingSummary)],
    prior_draws: f64,
) -> anyhow::Result<Vec<RatingRow>> {
    let results: Vec<PairResult> = pairings
        .iter()
        .map(|(a, b, s)| PairResult { a: *a, b: *b, games: s.wdl.games() as f64, points: s.wdl.points() })
        .collect();
    let fit = fit_ratings(agents.len(), anchor, &results, prior_draws).map_err(|e| match e {
        crate::elo::FitError::Disconnected(i) => anyhow::anyhow!("cannot rate '{}': {e}", agents[i]),
        e => anyhow::anyhow!("cannot fit ratings: {e}"),
    })?;
    let mut rows: Vec<RatingRow> = agents
        .iter()
        .enumerate()
        .map(|(i, agent)| {
            let mut wdl = Wdl::default();
            for (a, b, s) in pairings {
                let w = if *a == i {
                    s.wdl
                } else if *b == i {
                    s.wdl.flipped()
                } else {
                    continue;
                };
                wdl = wdl + w;
            }
            RatingRow { agent: agent.clone(), elo: fit.elo[i], std_err: fit.std_err[i], wdl }
        })
        .collect();
    rows.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(rows)
}

/// ratings.csv as text.
pub fn ratings_csv(rows: &[RatingRow]) -> anyhow::Result<String> {
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(vec![]);
    w.write_record(RATING_COLUMNS)?;
    for (k, r) in rows.iter().enumerate() {
        w.write_record([
            (k + 1).to_string(),
            r.agent.clone(),
            num(r.elo, 1),
            num(r.elo - Z95 * r.std_err, 1),
            num(r.elo + Z95 * r.std_err, 1),
            num(r.std_err, 1),
            r.wdl.games().to_string(),
            r.wdl.wins.to_string(),
            r.wdl.draws.to_string(),
            r.wdl.losses.to_string(),
            num(r.wdl.score(), 4),
        ])?;
    }
    let bytes = w.into_inner().map_err(|e| anyhow::anyhow!("cannot write ratings: {e}"))?;
    Ok(String::from_utf8(bytes)?)
}

/// Escapes text for SVG.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// A plot of the ratings (best at the top) with their 95% intervals, as SVG.
pub fn ratings_svg(title: &str, rows: &[RatingRow]) -> String {
    // Room for the longest label at about 7 px a character (12 px sans-serif).
    let longest = rows.iter().map(|r| r.agent.chars().count()).max().unwrap_or(0) as f64;
    let (label_w, plot_w, row_h, top) = ((20.0 + 7.0 * longest).max(120.0), 420.0, 24.0, 46.0);
    let lo = rows.iter().map(|r| r.elo - Z95 * r.std_err).fold(0.0f64, f64::min);
    let hi = rows.iter().map(|r| r.elo + Z95 * r.std_err).fold(0.0f64, f64::max);
    let span = (hi - lo).max(1.0);
    let (lo, hi) = (lo - 0.05 * span, hi + 0.05 * span);
    let x = |e: f64| label_w + (e - lo) / (hi - lo) * plot_w;
    let height = top + row_h * rows.len() as f64 + 40.0;
    let width = label_w + plot_w + 20.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(s, r#"<text x="10" y="20" font-size="14" font-weight="bold">{}</text>"#, esc(title));
    // Axis ticks every round step.
    let step =
        [25.0, 50.0, 100.0, 200.0, 250.0, 500.0, 1000.0].into_iter().find(|s| (hi - lo) / s <= 8.0).unwrap_or(2000.0);
    let mut t = (lo / step).ceil() * step;
    let axis_y = top + row_h * rows.len() as f64;
    while t <= hi {
        let _ = writeln!(
            s,
            r##"<line x1="{0:.1}" y1="{top}" x2="{0:.1}" y2="{axis_y}" stroke="#ddd"/><text x="{0:.1}" y="{1}" text-anchor="middle">{2}</text>"##,
            x(t),
            axis_y + 16.0,
            t + 0.0 // no "-0"
        );
        t += step;
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">Elo (random = 0), 95% intervals</text>"#,
        label_w + plot_w / 2.0,
        axis_y + 32.0
    );
    for (k, r) in rows.iter().enumerate() {
        let y = top + row_h * (k as f64 + 0.5);
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{:.1}" text-anchor="end">{}</text>"#,
            label_w - 10.0,
            y + 4.0,
            esc(&r.agent)
        );
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#1f77b4" stroke-width="2"/><circle cx="{:.1}" cy="{y:.1}" r="4" fill="#1f77b4"/>"##,
            x(r.elo - Z95 * r.std_err),
            x(r.elo + Z95 * r.std_err),
            x(r.elo)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// What a ladder plays and how it rates: everything but its output folder.
#[derive(Clone, Debug)]
pub struct LadderPlan {
    /// The ruleset (board applied).
    pub ruleset: Ruleset,
    /// Its label.
    pub label: String,
    /// Canonical specs of the agents, in the agents file's order.
    pub agents: Vec<String>,
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
    /// ruleset and none repeats, and the `anchor` spec is one of them.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        ruleset: &RulesetSpec,
        rules_dir: &Path,
        agents_file: &Path,
        games: u32,
        seed: u64,
        ply_cap: u32,
        prior_draws: f64,
        anchor: &str,
    ) -> anyhow::Result<LadderPlan> {
        let rs = ruleset.resolve(Some(rules_dir))?;
        let label = ruleset.label_for(&rs).to_string();
        if games == 0 {
            anyhow::bail!("--games must be at least 1");
        }
        if !(prior_draws >= 0.0 && prior_draws.is_finite()) {
            anyhow::bail!("--prior-draws must be a number ≥ 0");
        }
        let mut agents: Vec<String> = Vec::new();
        for (line, spec) in read_agents(agents_file)? {
            let canonical =
                canonical_spec(&spec, &rs).with_context(|| format!("{} line {line}", agents_file.display()))?;
            if let Some(k) = agents.iter().position(|a| *a == canonical) {
                anyhow::bail!(
                    "{} line {line}: '{spec}' repeats agent {} ('{}')",
                    agents_file.display(),
                    k + 1,
                    agents[k]
                );
            }
            agents.push(canonical);
        }
        let anchor_spec = canonical_spec(anchor, &rs).context("--anchor")?;
        let anchor = agents.iter().position(|a| *a == anchor_spec).ok_or_else(|| {
            anyhow::anyhow!(
                "the anchor '{anchor_spec}' is not in {}; add it or choose another with --anchor",
                agents_file.display()
            )
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
fn read_shard(dir: &Path) -> anyhow::Result<Option<(u32, u32)>> {
    let path = dir.join("shard.txt");
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            let spec = text.trim().strip_prefix("shard = ").ok_or_else(|| {
                anyhow::anyhow!("{}: expected `shard = K/N`, found {:?}", path.display(), text.trim())
            })?;
            let shard = crate::survey::parse_shard(spec).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            Ok(Some(shard))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// Checks that a ladder folder holds the shard the plan asks for (or, without one, no
/// shard), and writes `shard.txt` into a folder starting a shard.
fn check_shard_folder(plan: &LadderPlan, out: &Path, starting: bool) -> anyhow::Result<()> {
    let found = read_shard(out)?;
    match (plan.shard, found) {
        (Some(a), Some(b)) if a == b => Ok(()),
        (Some((k, n)), None) if starting || !out.join("pairings.csv").exists() => {
            std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
            write_atomic(&out.join("shard.txt"), shard_text(k, n).as_bytes())
        }
        (None, None) => Ok(()),
        (want, found) => {
            let name =
                |s: Option<(u32, u32)>| s.map_or("the whole ladder".to_string(), |(k, n)| format!("shard {k}/{n}"));
            anyhow::bail!("{} holds {}, but this run asks for {}", out.display(), name(found), name(want))
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
pub fn run_ladder(plan: &LadderPlan, out: &Path, mode: LadderMode) -> anyhow::Result<Vec<RatingRow>> {
    // Rating only (a peek at a ladder still running, say) plays and appends nothing.
    let _claim = if mode == LadderMode::RateOnly { None } else { Some(crate::io::lock_folder(out)?) };
    let files = ladder_files(out);
    let pairings = match mode {
        LadderMode::RateOnly => {
            if plan.shard.is_some() || read_shard(out)?.is_some() {
                anyhow::bail!("a shard has no ratings: merge the shards (`--merge`) and rate the merged folder");
            }
            read_pairings(&files[1], &plan.agents)?
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
    ["games.csv", "pairings.csv", "ratings.csv", "ratings.svg"].map(|f| out.join(f))
}

/// Fits the ratings of a whole ladder's pairings and writes ratings.csv and ratings.svg.
fn rate_and_write(
    plan: &LadderPlan,
    files: &[PathBuf; 4],
    pairings: &[(usize, usize, PairingSummary)],
) -> anyhow::Result<Vec<RatingRow>> {
    let agents = plan.agents.as_slice();
    let rows = rate(agents, plan.anchor, pairings, plan.prior_draws)?;
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
pub fn merge_ladder(plan: &LadderPlan, out: &Path, shards: &[PathBuf], force: bool) -> anyhow::Result<Vec<RatingRow>> {
    let _claim = crate::io::lock_folder(out)?;
    let mut parts: Vec<Option<(PathBuf, Finished)>> = Vec::new();
    let mut total = None;
    for dir in shards {
        let (k, n) = read_shard(dir)?.ok_or_else(|| {
            anyhow::anyhow!("{} is not a ladder shard (no shard.txt; run it with --shard K/N)", dir.display())
        })?;
        if *total.get_or_insert(n) != n {
            anyhow::bail!("{} is shard {k}/{n}, the others are shards of {} parts", dir.display(), total.unwrap_or(0));
        }
        parts.resize_with(n as usize, || None);
        if let Some((other, _)) = &parts[(k - 1) as usize] {
            anyhow::bail!("shard {k}/{n} is given twice: {} and {}", other.display(), dir.display());
        }
        let sub = plan.with_shard(k, n);
        let files = ladder_files(dir);
        if !files[1].exists() {
            anyhow::bail!("{} (shard {k}/{n}) has no pairings.csv yet; finish it with --resume", dir.display());
        }
        let done = read_finished(&sub, &files)?;
        let want = sub.pairs().len();
        if done.pairings.len() != want {
            anyhow::bail!(
                "{} (shard {k}/{n}) holds {} of its {want} pairings; finish it with --resume",
                dir.display(),
                done.pairings.len()
            );
        }
        parts[(k - 1) as usize] = Some((dir.clone(), done));
    }
    let n = total.ok_or_else(|| anyhow::anyhow!("--merge needs the folders of the shards"))?;
    let missing: Vec<String> =
        parts.iter().enumerate().filter(|(_, p)| p.is_none()).map(|(k, _)| format!("{}/{n}", k + 1)).collect();
    if !missing.is_empty() {
        anyhow::bail!("shards {} are missing from --merge", missing.join(", "));
    }
    let parts: Vec<Finished> = parts.into_iter().flatten().map(|(_, f)| f).collect();
    let files = ladder_files(out);
    for f in &files {
        check_new_file(f, force)?;
    }
    if read_shard(out)?.is_some() {
        anyhow::bail!("{} is a shard's folder; merge into another folder", out.display());
    }
    let mut games_text = games_header().into_bytes();
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
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    write_atomic(&files[0], &games_text)?;
    write_atomic(&files[1], pairings_text.as_bytes())?;
    rate_and_write(plan, &files, &pairings)
}

/// Reads the pairings of a finished ladder (`pairings.csv`) for the agents of the agents file.
pub fn read_pairings(path: &Path, agents: &[String]) -> anyhow::Result<Vec<(usize, usize, PairingSummary)>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let out: Vec<_> = read_pairings_text(path, &text, agents)?.into_iter().map(|(a, b, s, _)| (a, b, s)).collect();
    if out.is_empty() {
        anyhow::bail!("{} holds no pairings", path.display());
    }
    Ok(out)
}

/// Parses the text of a `pairings.csv` (named `path` in errors): each row's agents, its
/// results and the row itself.
fn read_pairings_text(
    path: &Path,
    text: &str,
    agents: &[String],
) -> anyhow::Result<Vec<(usize, usize, PairingSummary, csv::StringRecord)>> {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut out = Vec::new();
    for (k, record) in reader.records().enumerate() {
        let line = k + 2;
        let r = record.with_context(|| format!("{} line {line}", path.display()))?;
        let cell =
            |i: usize| r.get(i).ok_or_else(|| anyhow::anyhow!("{} line {line}: too few columns", path.display()));
        let index = |name: &str| {
            agents.iter().position(|a| a == name).ok_or_else(|| {
                anyhow::anyhow!("{} line {line}: agent '{name}' is not in the agents file", path.display())
            })
        };
        let count = |i: usize| -> anyhow::Result<u64> {
            cell(i)?.parse().with_context(|| format!("{} line {line}: column {} is not a count", path.display(), i + 1))
        };
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

/// The index of `seed` in [`EVAL_COLUMNS`] (its last column).
const SEED_COLUMN: usize = EVAL_COLUMNS.len() - 1;

/// What an interrupted ladder (or shard) already played: its first pairings, with the
/// exact text of their rows in `pairings.csv` and `games.csv` (headers included), each
/// pairing's line and the byte range of its games in `games_text`.
#[derive(Default)]
struct Finished {
    pairings: Vec<(usize, usize, PairingSummary)>,
    pairings_text: String,
    games_text: Vec<u8>,
    lines: Vec<String>,
    game_ranges: Vec<std::ops::Range<usize>>,
}

/// Reads the pairings and games an interrupted ladder wrote, checking that they are the
/// first pairings of this round robin (same agents in the same order, games and seed).
/// Games written for a pairing whose row is missing (a kill between the two writes)
/// are dropped and played again.
fn read_finished(plan: &LadderPlan, files: &[PathBuf; 4]) -> anyhow::Result<Finished> {
    let (label, agents) = (plan.label.as_str(), plan.agents.as_slice());
    let pairs = plan.pairs();
    let (pairings_path, games_path) = (&files[1], &files[0]);
    let text =
        std::fs::read_to_string(pairings_path).with_context(|| format!("cannot read {}", pairings_path.display()))?;
    let header = EVAL_COLUMNS.join(",");
    let mut lines = text.lines();
    if lines.next() != Some(header.as_str()) {
        anyhow::bail!("{}: the first line is not the pairings header; cannot resume", pairings_path.display());
    }
    let mut done = Finished { pairings_text: format!("{header}\n"), ..Finished::default() };
    let summaries = read_pairings_text(pairings_path, &text, agents)?;
    for (k, (line_text, (a, b, s, record))) in lines.zip(summaries).enumerate() {
        let line = k + 2;
        let expected = pairs.get(k).ok_or_else(|| {
            anyhow::anyhow!("{} line {line}: more pairings than the agents file makes", pairings_path.display())
        })?;
        if (a, b) != *expected {
            anyhow::bail!(
                "{} line {line}: pairing '{}' vs '{}', but this agents file's pairing {} is '{}' vs '{}'; \
                 resume with the agents file the ladder started with",
                pairings_path.display(),
                agents[a],
                agents[b],
                k + 1,
                agents[expected.0],
                agents[expected.1]
            );
        }
        let (ruleset, seed) = (record.get(0).unwrap_or(""), record.get(SEED_COLUMN).unwrap_or(""));
        if ruleset != label || seed != plan.seed.to_string() || s.wdl.games() != u64::from(plan.games) {
            anyhow::bail!(
                "{} line {line}: ruleset {ruleset}, {} games, seed {seed}; this run asks for {label}, {} games, seed {}",
                pairings_path.display(),
                s.wdl.games(),
                plan.games,
                plan.seed
            );
        }
        done.pairings_text.push_str(line_text);
        done.pairings_text.push('\n');
        done.lines.push(line_text.to_string());
        done.pairings.push((a, b, s));
    }
    // The games of the finished pairings: the first pairings × games rows of games.csv.
    let want = done.pairings.len() * plan.games as usize;
    let bytes = std::fs::read(games_path).with_context(|| format!("cannot read {}", games_path.display()))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let games_header = games_header();
    if !bytes.starts_with(games_header.as_bytes()) {
        anyhow::bail!("{}: the first line is not the games header; cannot resume", games_path.display());
    }
    let mut end = games_header.len();
    let mut pairing_start = end;
    for n in 0..want {
        let (a, b, _) = &done.pairings[n / plan.games as usize];
        let g = (n % plan.games as usize) as u32;
        let row: GameRow = match reader.deserialize().next() {
            Some(r) => r.with_context(|| format!("{} game row {}", games_path.display(), n + 1))?,
            None => anyhow::bail!(
                "{} holds {n} games, but its {} finished pairings need {want}; cannot resume",
                games_path.display(),
                done.pairings.len()
            ),
        };
        let (white, black) = if g % 2 == 0 { (&agents[*a], &agents[*b]) } else { (&agents[*b], &agents[*a]) };
        if row.game != g || row.white != *white || row.black != *black || row.plies > plan.ply_cap {
            anyhow::bail!(
                "{} game row {}: game {} {} vs {} in {} plies, expected game {g} {white} vs {black} within the ply \
                 cap {}; cannot resume",
                games_path.display(),
                n + 1,
                row.game,
                row.white,
                row.black,
                row.plies,
                plan.ply_cap
            );
        }
        end = reader.position().byte() as usize;
        if g + 1 == plan.games {
            done.game_ranges.push(pairing_start..end);
            pairing_start = end;
        }
    }
    done.games_text = bytes[..end].to_vec();
    Ok(done)
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
) -> anyhow::Result<Vec<(usize, usize, PairingSummary)>> {
    let (rs, label, agents) = (&plan.ruleset, plan.label.as_str(), plan.agents.as_slice());
    let pairs = plan.pairs();
    let skip = done.pairings.len();
    let pending_path = pending_file(files);
    let bar = progress_bar(pairs.len() as u64 * plan.games as u64, (skip * plan.games as usize + pending.len()) as u64);
    let (mut games_text, mut pairings_text, mut pairings) = if skip == 0 {
        (games_header().into_bytes(), format!("{}\n", EVAL_COLUMNS.join(",")), Vec::new())
    } else {
        (done.games_text, done.pairings_text, done.pairings)
    };
    for &(i, j) in &pairs[skip..] {
        bar.set_message(format!("{} vs {}", agents[i], agents[j]));
        let resumed = std::mem::take(&mut pending);
        // The pending file rewritten with the resumed games only, then appended to.
        let mut text = games_header().into_bytes();
        for r in &resumed {
            text.extend(r.to_csv_line()?);
        }
        let journal = Journal::create(&pending_path, &text)?;
        let have: std::collections::BTreeSet<u32> = resumed.iter().map(|r| r.game).collect();
        let todo: Vec<u32> = (0..plan.games).filter(|g| !have.contains(g)).collect();
        let new = todo
            .into_par_iter()
            .map(|game| {
                let (white, black) = colours(&agents[i], &agents[j], game, true);
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
            .collect::<anyhow::Result<Vec<GameRow>>>()?;
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

/// The file of a ladder folder that holds the finished games of the pairing in progress
/// (the games header, then one row per game in the order the games ended); removed once
/// the pairing is written to games.csv and pairings.csv.
pub const PENDING_FILE: &str = "pending.csv";

/// The pending file of the folder of `files`.
fn pending_file(files: &[PathBuf; 4]) -> PathBuf {
    files[0].with_file_name(PENDING_FILE)
}

/// Removes the pending file if it exists.
fn remove_pending(path: &Path) -> anyhow::Result<()> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// Why a pending game row is not a game of pairing `pair` of `plan`, if it is not.
fn pending_mismatch(plan: &LadderPlan, pair: (usize, usize), row: &GameRow) -> Option<String> {
    let (white, black) = colours(&plan.agents[pair.0], &plan.agents[pair.1], row.game, true);
    if row.game >= plan.games {
        Some(format!("game {} of a pairing of {} games", row.game, plan.games))
    } else if row.ruleset != plan.label || row.white != white || row.black != black {
        Some(format!(
            "game {} {} vs {} on {}, expected {white} vs {black} on {}",
            row.game, row.white, row.black, row.ruleset, plan.label
        ))
    } else if row.seed != game_seed(plan.seed, row.game) {
        Some(format!("game {} has seed {}, not the seed of this run's game (--seed {})", row.game, row.seed, plan.seed))
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
fn read_pending(plan: &LadderPlan, path: &Path, next: usize) -> anyhow::Result<Vec<GameRow>> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let pairs = plan.pairs();
    let header = games_header();
    if !bytes.starts_with(header.as_bytes()) {
        // (A kill while the file was first written leaves at most an empty file.)
        if header.as_bytes().starts_with(&bytes) {
            return Ok(Vec::new());
        }
        anyhow::bail!("{}: the first line is not the games header; cannot resume", path.display());
    }
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |k| k + 1);
    let mut reader = csv::Reader::from_reader(&bytes[..complete]);
    let mut rows: Vec<GameRow> = Vec::new();
    for (k, row) in reader.deserialize::<GameRow>().enumerate() {
        let line = k + 2;
        let row = row.with_context(|| format!("{} line {line}: not a game row; cannot resume", path.display()))?;
        if rows.iter().any(|r| r.game == row.game) {
            anyhow::bail!("{} line {line}: game {} appears twice; cannot resume", path.display(), row.game);
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
            anyhow::bail!(
                "{} line {}: {why} (pairing {} of the round robin is '{}' vs '{}'); cannot resume",
                path.display(),
                k + 2,
                next + 1,
                plan.agents[pair.0],
                plan.agents[pair.1]
            );
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(opponent: &str, wins: u64, draws: u64, losses: u64) -> PairingSummary {
        PairingSummary { opponent: opponent.into(), wdl: Wdl { wins, draws, losses }, mean_plies: 10.0, sprt: None }
    }

    #[test]
    fn ratings_follow_the_results_and_the_anchor() {
        let agents: Vec<String> = ["random", "greedy", "mcts:sims=100"].map(String::from).to_vec();
        // greedy scores 75% vs random, mcts 75% vs greedy, mcts 90% vs random.
        let pairings = vec![
            (0, 1, summary("greedy", 5, 0, 15)),
            (1, 2, summary("mcts", 5, 0, 15)),
            (0, 2, summary("mcts", 2, 0, 18)),
        ];
        let rows = rate(&agents, 0, &pairings, 0.0).unwrap();
        let names: Vec<&str> = rows.iter().map(|r| r.agent.as_str()).collect();
        assert_eq!(names, ["mcts:sims=100", "greedy", "random"]);
        let random = rows.iter().find(|r| r.agent == "random").unwrap();
        assert_eq!((random.elo, random.std_err), (0.0, 0.0));
        assert_eq!(random.wdl, Wdl { wins: 7, draws: 0, losses: 33 });
        // mcts lies between the direct (381.7) and the chained (2·190.8) estimates – here equal.
        assert!((rows[0].elo - 381.7).abs() < 1.0, "{:?}", rows);
        let csv = ratings_csv(&rows).unwrap();
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], RATING_COLUMNS.join(","));
        assert!(lines[3].starts_with("3,random,0.0,0.0,0.0,0.0,40,7,0,33,"), "{}", lines[3]);
        let svg = ratings_svg("test", &rows);
        assert_eq!(svg.matches("<circle").count(), 3);
        assert!(svg.contains("mcts:sims=100"));
    }

    #[test]
    fn agents_file_errors_name_the_file() {
        let dir = std::env::temp_dir().join(format!("latrunculi-ladder-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("agents.txt");
        std::fs::write(&f, "# baselines\nrandom\n\n greedy  # one ply\n").unwrap();
        assert_eq!(read_agents(&f).unwrap(), vec![(2, "random".to_string()), (4, "greedy".to_string())]);
        std::fs::write(&f, "random\n").unwrap();
        let e = read_agents(&f).unwrap_err().to_string();
        assert!(e.contains("agents.txt") && e.contains("at least two"), "{e}");
        let e = read_agents(&dir.join("missing.txt")).unwrap_err().to_string();
        assert!(e.contains("missing.txt"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

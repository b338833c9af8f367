//! Surveys (`latrunculi survey --config experiments/NAME.toml [--out DIR]`): every (ruleset,
//! pairing) cell of an experiment file played `games` times, all games of all cells in
//! parallel (rayon), written to `DIR/games.csv` (the columns of `latrunculi play`) and
//! summarised per cell in `DIR/summary.csv` (columns documented in
//! `experiments/README.md`).
//!
//! # Experiment file
//!
//! ```toml
//! rulesets = ["kowalski", "xxi@12x8"]      # ids or ruleset files, optionally "id@WxH"
//! pairings = [["random", "random"], ["greedy", "random"]]  # [first, second] agent specs
//! games = 200        # games per cell
//! seed = 1           # base seed (default 1)
//! swap = true        # odd-numbered games swap the two specs (default true)
//! ply_cap = 1000     # hard ply cap (default 1000)
//! out = "experiments/NAME"   # output folder (or --out)
//! # Adaptive sample sizes (optional): `games` becomes the cap of every cell.
//! min_games = 50     # first games of every cell
//! batch = 50         # games added to a cell per round (default: min_games)
//! half_width = 0.05  # a cell stops once its draw rate's 95% interval is this narrow
//! # Per-pairing caps (optional, after the keys above): this pairing's cells stop at
//! # 100 games instead of `games`.
//! [[cap]]
//! pairing = ["random", "random"]
//! games = 100
//! ```
//!
//! # Adaptive cells
//!
//! With `min_games`, a cell plays games `0..min_games`, then, round after round, `batch`
//! more, until the Wilson 95% interval of its draw rate is at most `±half_width` wide
//! or it reaches `games`. The decision looks only at a cell's own games `0..n` at the
//! round boundaries `n = min_games, min_games + batch, …, games`, and games are
//! deterministic, so a cell always stops at the same game count: an interrupted run,
//! a resumed one and a sharded one agree.
//!
//! # Shards
//!
//! `--shard K/N` plays only the cells whose index in experiment order (rulesets outer,
//! pairings inner, from 0) is `K-1` modulo `N`, into its own folder (its fingerprint
//! names the shard). `--merge DIR...` combines the folders of all `N` shards into `--out`
//! (a fresh folder, or one holding the same survey), checking each shard's fingerprint
//! and that every cell is complete, and writes the same `games.csv` and `summary.csv`,
//! byte for byte, as one unsharded run. A SLURM job array runs shard
//! `$SLURM_ARRAY_TASK_ID/N` per task (see experiments/README.md).
//!
//! Unknown keys are errors. Rulesets resolve like `--ruleset` of the other commands
//! (`configs/rulesets/<id>.toml` under the working directory first, then the built-in
//! ones). Game `i` of every cell has the seed `game_seed(seed, i)` (see `play`), so the
//! cells of one ruleset are played from the same seeds.
//!
//! # Resumption
//!
//! The output folder holds `config.toml` (a copy of the experiment file) and
//! `fingerprint.txt` (every setting that changes results: games, seed, swap, ply cap,
//! each ruleset with its `params_hash`, each pairing in canonical spec form, and a
//! 64-bit hash of all that). Each finished game is appended to `games.csv` and flushed
//! at once, in completion order. Started again on the same folder, the survey checks the
//! fingerprint (a different one is refused, naming the differing settings), drops a
//! truncated last line left by a crash, keeps every complete row and plays only the
//! missing games. At the end `games.csv` is rewritten sorted by (ruleset, pairing, game)
//! in the experiment file's order and `summary.csv` is regenerated from it, so an
//! interrupted and resumed run leaves the same bytes as an uninterrupted one.
//! `latrunculi survey --progress` ([`survey_progress`]) reports, without touching the
//! folder, how far each cell has got while a run goes on.
//!
//! # Changing the stopping rule
//!
//! The stopping rule (`games`, the `[[cap]]` tables and the adaptive settings) may change
//! between runs on one folder: game `i` of a cell is the same game whatever the rule, so
//! the games already played stay valid. The resumed run keeps them all and plays on
//! under the new rule, ending with the bytes a run under the new rule alone would write.
//! A change that would leave played games out (a cap lowered below a cell's games, or a
//! cell that would have stopped earlier) is refused, naming the cell: nothing played is
//! dropped. Every other setting (seed, swap, ply cap, rulesets, pairings) must match.

//!
//! # The module's parts
//!
//! This file reads experiment files ([`Survey`]); `folder` keeps an output folder
//! (its fingerprint, the games already played, a changed stopping rule), `run` plays
//! the games and merges shards, [`summary`] summarises each cell.

use std::path::{Path, PathBuf};

use latrunculi_agents::{AgentSpec, Players};
use latrunculi_rules::{Ruleset, RulesetError, RulesetSpec, fnv1a};
use serde::{Deserialize, Serialize};

use crate::error::{ArenaError, Result, ResultExt as _};
use crate::game::{GameRow, colours, game_seed};
use crate::stats::{Z95, wilson};

mod folder;
mod run;
pub mod summary;
#[cfg(test)]
mod tests;

pub use run::{CellProgress, merge_shards, run_survey, survey_progress};
pub(crate) use summary::csv_field;
pub use summary::{CellSummary, SUMMARY_FILE, summary_columns};

/// Reads `K/N` with 1 ≤ K ≤ N.
pub fn parse_shard(s: &str) -> Result<(u32, u32), String> {
    let bad = || format!("'{s}' is not a shard K/N with 1 <= K <= N (e.g. 2/3)");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (u32, u32) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if k == 0 || k > n { Err(bad()) } else { Ok((k, n)) }
}

/// An experiment file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SurveyConfig {
    /// Ruleset ids (or files), each optionally with a board: `id@WxH`.
    pub rulesets: Vec<String>,
    /// Agent pairings `[first, second]`; the first plays White in even-numbered games.
    pub pairings: Vec<[String; 2]>,
    /// Games per (ruleset, pairing) cell.
    pub games: u32,
    /// Base seed.
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Whether odd-numbered games swap the two specs.
    #[serde(default = "default_swap")]
    pub swap: bool,
    /// Hard ply cap.
    #[serde(default = "default_ply_cap")]
    pub ply_cap: u32,
    /// Output folder.
    #[serde(default)]
    pub out: Option<PathBuf>,
    /// Adaptive cells: the games every cell plays first (`games` is then the cap).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_games: Option<u32>,
    /// Adaptive cells: games added per round (default `min_games`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u32>,
    /// Adaptive cells: the largest half-width of the draw rate's 95% interval at which a
    /// cell stops (default 0.05).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub half_width: Option<f64>,
    /// Per-pairing caps (`[[cap]]` tables): the cells of a pairing stop at fewer games
    /// than `games`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cap: Vec<PairingCap>,
}

/// A `[[cap]]` table of an experiment file: the cells of one pairing stop at `games`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairingCap {
    /// The pairing `[first, second]`, as listed in `pairings`.
    pub pairing: [String; 2],
    /// The cap of its cells, 1 to the experiment's `games`.
    pub games: u32,
}

/// The stopping rule of adaptive cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Adaptive {
    /// Games played before the first look.
    pub min_games: u32,
    /// Games added per round.
    pub batch: u32,
    /// Target half-width of the draw rate's Wilson 95% interval.
    pub half_width: f64,
}

fn default_seed() -> u64 {
    1
}

fn default_swap() -> bool {
    true
}

fn default_ply_cap() -> u32 {
    latrunculi_rules::DEFAULT_PLY_CAP
}

/// A checked experiment: resolved rulesets, canonical pairings and the fingerprint.
#[derive(Clone, Debug)]
pub struct Survey {
    /// The file as read.
    pub config: SurveyConfig,
    /// (label, ruleset) in file order; the label is the id, or `id@WxH` with a board.
    pub rulesets: Vec<(String, Ruleset)>,
    /// (first, second) agent specs in file order.
    pub pairings: Vec<(AgentSpec, AgentSpec)>,
    /// The cap of each pairing's cells, in pairing order: `games`, or its `[[cap]]`.
    pub caps: Vec<u32>,
}

/// A ruleset entry of an experiment (a label: `id`, `id@WxH`, either with `+key=value`
/// changes, see [`RulesetSpec`]) and its label in the outputs
/// ([`RulesetSpec::label_for`]): the ruleset's id, `@WxH` when the board was given, then
/// the changes.
pub fn ruleset_label(entry: &str, rules_dir: &Path) -> Result<(String, Ruleset)> {
    let spec: RulesetSpec = entry.parse().map_err(RulesetError::from)?;
    let rs = spec.resolve(Some(rules_dir))?;
    Ok((spec.label_for(&rs).to_string(), rs))
}

/// The canonical specs of the pairing `[a, b]`, checked against every ruleset: every agent
/// must be able to play every ruleset's board (an `az` model is made for one board size).
/// `place` says where the pairing was written, for the error.
fn canonical_pairing(
    players: &Players,
    a: &str,
    b: &str,
    rulesets: &[(String, Ruleset)],
    place: &str,
) -> Result<(AgentSpec, AgentSpec)> {
    let spec = |text: &str| crate::agents::parse_spec(players, text).context_with(|| place.to_string());
    let p = (spec(a)?, spec(b)?);
    for (label, rs) in rulesets {
        let ctx = || format!("{place}, for ruleset '{label}'");
        crate::agents::check_plays(&p.0, rs).context_with(ctx)?;
        crate::agents::check_plays(&p.1, rs).context_with(ctx)?;
    }
    Ok(p)
}

/// A (ruleset index, pairing index, game) key in experiment-file order.
pub(crate) type Key = (usize, usize, u32);

impl Survey {
    /// Parses and checks the text of an experiment file, its agent specs by `players`.
    pub fn from_toml_str(text: &str, rules_dir: &Path, players: &Players) -> Result<Survey> {
        let config: SurveyConfig =
            toml::from_str(text).map_err(|e| ArenaError::Experiment(e.to_string().trim_end().to_string()))?;
        if config.rulesets.is_empty() {
            return Err(ArenaError::Experiment("`rulesets` is empty".to_string()));
        }
        if config.pairings.is_empty() {
            return Err(ArenaError::Experiment("`pairings` is empty".to_string()));
        }
        if config.games == 0 {
            return Err(ArenaError::Experiment("`games` must be at least 1".to_string()));
        }
        if config.ply_cap == 0 {
            return Err(ArenaError::Experiment("`ply_cap` must be at least 1".to_string()));
        }
        if config.min_games.is_none() && (config.batch.is_some() || config.half_width.is_some()) {
            return Err(ArenaError::Experiment(
                "`batch` and `half_width` need `min_games` (adaptive cells)".to_string(),
            ));
        }
        if let Some(m) = config.min_games
            && !(1..=config.games).contains(&m)
        {
            return Err(ArenaError::Experiment(format!("`min_games` = {m} must be 1 to `games` = {}", config.games)));
        }
        if config.batch == Some(0) {
            return Err(ArenaError::Experiment("`batch` must be at least 1".to_string()));
        }
        if let Some(h) = config.half_width
            && !(h > 0.0 && h <= 0.5)
        {
            return Err(ArenaError::Experiment(format!("`half_width` = {h} must be more than 0 and at most 0.5")));
        }
        let mut rulesets: Vec<(String, Ruleset)> = Vec::new();
        for entry in &config.rulesets {
            let (label, rs) =
                ruleset_label(entry, rules_dir).context_with(|| format!("ruleset '{entry}' in `rulesets`"))?;
            if rulesets.iter().any(|(l, _)| *l == label) {
                return Err(ArenaError::Experiment(format!("ruleset '{label}' is listed twice in `rulesets`")));
            }
            rulesets.push((label, rs));
        }
        let mut pairings: Vec<(AgentSpec, AgentSpec)> = Vec::new();
        for [a, b] in &config.pairings {
            let p = canonical_pairing(players, a, b, &rulesets, "in `pairings`")?;
            if pairings.contains(&p) {
                return Err(ArenaError::Experiment(format!(
                    "pairing [\"{}\", \"{}\"] is listed twice in `pairings`",
                    p.0, p.1
                )));
            }
            pairings.push(p);
        }
        let mut caps = vec![config.games; pairings.len()];
        let mut capped = vec![false; pairings.len()];
        for c in &config.cap {
            let [a, b] = &c.pairing;
            let what = || format!("[[cap]] pairing [\"{a}\", \"{b}\"]");
            let q = canonical_pairing(players, a, b, &rulesets, &what())?;
            let p = pairings
                .iter()
                .position(|x| *x == q)
                .ok_or_else(|| ArenaError::Experiment(format!("{} is not in `pairings`", what())))?;
            if std::mem::replace(&mut capped[p], true) {
                return Err(ArenaError::Experiment(format!("{} has two [[cap]] tables", what())));
            }
            if !(1..=config.games).contains(&c.games) {
                return Err(ArenaError::Experiment(format!(
                    "{}: games = {} must be 1 to `games` = {}",
                    what(),
                    c.games,
                    config.games
                )));
            }
            caps[p] = c.games;
        }
        Ok(Survey { config, rulesets, pairings, caps })
    }

    /// The stopping rule, when the cells are adaptive.
    pub fn adaptive(&self) -> Option<Adaptive> {
        let c = &self.config;
        c.min_games.map(|m| Adaptive {
            min_games: m,
            batch: c.batch.unwrap_or(m),
            half_width: c.half_width.unwrap_or(0.05),
        })
    }

    /// Number of (ruleset, pairing) cells.
    pub fn cells(&self) -> usize {
        self.rulesets.len() * self.pairings.len()
    }

    /// The games a cell of pairing `p` needs, judged from those of its games `0..n`
    /// already played (`draws_and_played(g)`: whether game `g` was drawn, `None` if not
    /// played): its cap (`games`, or the pairing's `[[cap]]`) without adaptive cells;
    /// otherwise the first round boundary at which the draw rate's interval is narrow
    /// enough, the cap, or the first boundary whose games are not all played yet.
    pub fn games_needed(&self, p: usize, draws_and_played: impl Fn(u32) -> Option<bool>) -> u32 {
        let cap = self.caps[p];
        let Some(a) = self.adaptive() else { return cap };
        let mut n = a.min_games.min(cap);
        let (mut draws, mut seen) = (0u32, 0u32);
        loop {
            while seen < n {
                match draws_and_played(seen) {
                    Some(d) => draws += u32::from(d),
                    None => return n,
                }
                seen += 1;
            }
            let (lo, hi) = wilson(draws as f64, n as u64, Z95);
            if n >= cap || (hi - lo) / 2.0 <= a.half_width {
                return n;
            }
            n = (n + a.batch).min(cap);
        }
    }

    /// The fingerprint of shard `k` of `n` (the whole survey's with a `shard` line).
    pub fn shard_fingerprint(&self, shard: Option<(u32, u32)>) -> String {
        let full = self.fingerprint();
        match shard {
            None => full,
            Some((k, n)) => {
                let body: String =
                    full.lines().filter(|l| !l.starts_with("hash = ")).map(|l| format!("{l}\n")).collect();
                let t = format!("{body}shard = {k}/{n}\n");
                format!("{t}hash = {:016x}\n", fnv1a(t.as_bytes()))
            }
        }
    }

    /// Every setting that changes the results, one per line, ending with their hash.
    pub fn fingerprint(&self) -> String {
        let mut t = String::from("latrunculi survey fingerprint v1\n");
        t += &format!(
            "games = {}\nseed = {}\nswap = {}\nply_cap = {}\n",
            self.config.games, self.config.seed, self.config.swap, self.config.ply_cap
        );
        for (label, rs) in &self.rulesets {
            t += &format!("ruleset = {label} {:016x}\n", rs.params_hash());
        }
        for (a, b) in &self.pairings {
            t += &format!("pairing = {a} vs {b}\n");
        }
        for (p, &cap) in self.caps.iter().enumerate() {
            if cap < self.config.games {
                t += &format!("cap = {}: {cap}\n", self.pairing_label(p));
            }
        }
        if let Some(a) = self.adaptive() {
            t += &format!("adaptive = min_games {}, batch {}, half_width {}\n", a.min_games, a.batch, a.half_width);
        }
        t += &format!("hash = {:016x}\n", fnv1a(t.as_bytes()));
        t
    }

    /// The label of a pairing in summary.csv: `first vs second`.
    pub fn pairing_label(&self, p: usize) -> String {
        format!("{} vs {}", self.pairings[p].0, self.pairings[p].1)
    }

    /// The key of a games.csv row, or an error if the row does not belong to this survey.
    pub(super) fn key_of(&self, row: &GameRow) -> Result<Key> {
        let r = self
            .rulesets
            .iter()
            .position(|(l, _)| *l == row.ruleset)
            .ok_or_else(|| ArenaError::Experiment(format!("ruleset '{}' is not in the experiment", row.ruleset)))?;
        if row.game >= self.config.games {
            return Err(ArenaError::Experiment(format!("game {} is beyond `games` = {}", row.game, self.config.games)));
        }
        let p = self
            .pairings
            .iter()
            .position(|(a, b)| {
                let (white, black) = colours(a, b, row.game, self.config.swap);
                white.to_string() == row.white && black.to_string() == row.black
            })
            .ok_or_else(|| {
                ArenaError::Experiment(format!(
                    "white '{}' / black '{}' is no pairing of the experiment",
                    row.white, row.black
                ))
            })?;
        if row.seed != game_seed(self.config.seed, row.game) {
            return Err(ArenaError::Experiment(format!("seed {} is not the seed of game {}", row.seed, row.game)));
        }
        let hash = format!("{:016x}", self.rulesets[r].1.params_hash());
        if row.params_hash != hash {
            return Err(ArenaError::Experiment(format!(
                "params_hash {} differs from the ruleset's {hash}",
                row.params_hash
            )));
        }
        Ok((r, p, row.game))
    }
}

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

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use anyhow::{Context as _, bail};
use latrunculi_rules::{Reason, Ruleset, RulesetSpec, fnv1a};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::game::{GameJob, GameRow, canonical_spec, colours, game_seed, games_header, play_game, progress_bar};
use crate::io::write_atomic;
use crate::stats::{Z95, median, nearest_rank, wilson};

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
    /// (label, ruleset) in file order; the label as [`ruleset_label`] writes it.
    pub rulesets: Vec<(String, Ruleset)>,
    /// (first, second) canonical agent specs in file order.
    pub pairings: Vec<(String, String)>,
    /// The cap of each pairing's cells, in pairing order: `games`, or its `[[cap]]`.
    pub caps: Vec<u32>,
}

/// A ruleset entry of an experiment (a label: `id`, `id@WxH`, either with `+key=value`
/// changes, see [`RulesetSpec`]) and its label in the outputs
/// ([`RulesetSpec::label_for`]): the ruleset's id, `@WxH` when the board was given, then
/// the changes.
pub fn ruleset_label(entry: &str, rules_dir: &Path) -> anyhow::Result<(String, Ruleset)> {
    let spec: RulesetSpec = entry.parse()?;
    let rs = spec.resolve(Some(rules_dir))?;
    Ok((spec.label_for(&rs).to_string(), rs))
}

/// The canonical specs of the pairing `[a, b]`, checked against every ruleset: every agent
/// must be able to play every ruleset's board (an `az` model is made for one board size).
/// `place` says where the pairing was written, for the error.
fn canonical_pairing(
    a: &str,
    b: &str,
    rulesets: &[(String, Ruleset)],
    place: &str,
) -> anyhow::Result<(String, String)> {
    let mut p = (String::new(), String::new());
    for (label, rs) in rulesets {
        let ctx = || format!("{place}, for ruleset '{label}'");
        p = (canonical_spec(a, rs).with_context(ctx)?, canonical_spec(b, rs).with_context(ctx)?);
    }
    Ok(p)
}

/// A (ruleset index, pairing index, game) key in experiment-file order.
type Key = (usize, usize, u32);

impl Survey {
    /// Parses and checks the text of an experiment file.
    pub fn from_toml_str(text: &str, rules_dir: &Path) -> anyhow::Result<Survey> {
        let config: SurveyConfig = toml::from_str(text).map_err(|e| anyhow::anyhow!("{}", e.to_string().trim_end()))?;
        if config.rulesets.is_empty() {
            bail!("`rulesets` is empty");
        }
        if config.pairings.is_empty() {
            bail!("`pairings` is empty");
        }
        if config.games == 0 {
            bail!("`games` must be at least 1");
        }
        if config.ply_cap == 0 {
            bail!("`ply_cap` must be at least 1");
        }
        if config.min_games.is_none() && (config.batch.is_some() || config.half_width.is_some()) {
            bail!("`batch` and `half_width` need `min_games` (adaptive cells)");
        }
        if let Some(m) = config.min_games
            && !(1..=config.games).contains(&m)
        {
            bail!("`min_games` = {m} must be 1 to `games` = {}", config.games);
        }
        if config.batch == Some(0) {
            bail!("`batch` must be at least 1");
        }
        if let Some(h) = config.half_width
            && !(h > 0.0 && h <= 0.5)
        {
            bail!("`half_width` = {h} must be more than 0 and at most 0.5");
        }
        let mut rulesets: Vec<(String, Ruleset)> = Vec::new();
        for entry in &config.rulesets {
            let (label, rs) =
                ruleset_label(entry, rules_dir).with_context(|| format!("ruleset '{entry}' in `rulesets`"))?;
            if rulesets.iter().any(|(l, _)| *l == label) {
                bail!("ruleset '{label}' is listed twice in `rulesets`");
            }
            rulesets.push((label, rs));
        }
        let mut pairings: Vec<(String, String)> = Vec::new();
        for [a, b] in &config.pairings {
            let p = canonical_pairing(a, b, &rulesets, "in `pairings`")?;
            if pairings.contains(&p) {
                bail!("pairing [\"{}\", \"{}\"] is listed twice in `pairings`", p.0, p.1);
            }
            pairings.push(p);
        }
        let mut caps = vec![config.games; pairings.len()];
        let mut capped = vec![false; pairings.len()];
        for c in &config.cap {
            let [a, b] = &c.pairing;
            let what = || format!("[[cap]] pairing [\"{a}\", \"{b}\"]");
            let q = canonical_pairing(a, b, &rulesets, &what())?;
            let p = pairings
                .iter()
                .position(|x| *x == q)
                .ok_or_else(|| anyhow::anyhow!("{} is not in `pairings`", what()))?;
            if std::mem::replace(&mut capped[p], true) {
                bail!("{} has two [[cap]] tables", what());
            }
            if !(1..=config.games).contains(&c.games) {
                bail!("{}: games = {} must be 1 to `games` = {}", what(), c.games, config.games);
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
    fn key_of(&self, row: &GameRow) -> anyhow::Result<Key> {
        let r = self
            .rulesets
            .iter()
            .position(|(l, _)| *l == row.ruleset)
            .ok_or_else(|| anyhow::anyhow!("ruleset '{}' is not in the experiment", row.ruleset))?;
        if row.game >= self.config.games {
            bail!("game {} is beyond `games` = {}", row.game, self.config.games);
        }
        let p = self
            .pairings
            .iter()
            .position(|(a, b)| colours(a, b, row.game, self.config.swap) == (row.white.as_str(), row.black.as_str()))
            .ok_or_else(|| {
                anyhow::anyhow!("white '{}' / black '{}' is no pairing of the experiment", row.white, row.black)
            })?;
        if row.seed != game_seed(self.config.seed, row.game) {
            bail!("seed {} is not the seed of game {}", row.seed, row.game);
        }
        let hash = format!("{:016x}", self.rulesets[r].1.params_hash());
        if row.params_hash != hash {
            bail!("params_hash {} differs from the ruleset's {hash}", row.params_hash);
        }
        Ok((r, p, row.game))
    }
}

/// Whether a fingerprint line belongs to the stopping rule (which may change between
/// runs on one folder) rather than to the games themselves.
fn is_stop_rule_line(line: &str) -> bool {
    ["games = ", "cap = ", "adaptive = ", "hash = "].iter().any(|p| line.starts_with(p))
}

/// Whether two fingerprints describe the same games, whatever their stopping rules.
fn same_games(a: &str, b: &str) -> bool {
    a.lines().filter(|l| !is_stop_rule_line(l)).eq(b.lines().filter(|l| !is_stop_rule_line(l)))
}

/// Writes `config.toml`, the copy of the experiment file of the last run.
fn write_config(dir: &Path, config_text: &str) -> anyhow::Result<()> {
    let cfg_path = dir.join("config.toml");
    std::fs::write(&cfg_path, config_text).with_context(|| format!("cannot write {}", cfg_path.display()))
}

/// Checks (or, in a fresh folder, writes) `fingerprint.txt` and `config.toml`. With
/// `stop_rule_may_change`, a folder whose fingerprint differs only in the stopping rule
/// is accepted: the old fingerprint is returned and neither file is written (the caller
/// checks the games against the new rule, then calls [`accept_stop_rule`]).
fn check_fingerprint(
    dir: &Path,
    survey: &Survey,
    config_text: &str,
    shard: Option<(u32, u32)>,
    stop_rule_may_change: bool,
) -> anyhow::Result<Option<String>> {
    let fp_path = dir.join("fingerprint.txt");
    let games_path = dir.join("games.csv");
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
            bail!(
                "{} holds results of a different experiment configuration; refusing to mix them \
                 (use another --out folder, or delete the folder to start over). Differences:\n{}",
                dir.display(),
                diff.join("\n")
            );
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if games_path.exists() {
                bail!(
                    "{} exists but {} does not: cannot tell which experiment made it; refusing to append to it",
                    games_path.display(),
                    fp_path.display()
                );
            }
            std::fs::write(&fp_path, &current).with_context(|| format!("cannot write {}", fp_path.display()))?;
        }
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", fp_path.display())),
    }
    write_config(dir, config_text)?;
    Ok(None)
}

/// The lines of fingerprint `a` that `b` lacks (`nothing` if none), for messages.
fn lines_not_in(a: &str, b: &str) -> String {
    let b: Vec<&str> = b.lines().collect();
    let lines: Vec<&str> = a.lines().filter(|l| !b.contains(l) && !l.starts_with("hash")).collect();
    if lines.is_empty() { "nothing".to_string() } else { lines.join("; ") }
}

/// Accepts a changed stopping rule (`change`, for messages) on a resumed folder (see
/// the module docs): every game already played by the cells of `cells` must still be
/// needed under the new rule; then `fingerprint.txt` and `config.toml` are rewritten.
fn accept_stop_rule(
    dir: &Path,
    survey: &Survey,
    config_text: &str,
    shard: Option<(u32, u32)>,
    change: &str,
    rows: &BTreeMap<Key, GameRow>,
    cells: &[(usize, usize)],
) -> anyhow::Result<()> {
    for &(r, p) in cells {
        let need = cell_needed(survey, rows, r, p);
        if let Some(((_, _, last), _)) = rows.range((r, p, 0)..=(r, p, u32::MAX)).next_back()
            && *last >= need
        {
            bail!(
                "{}: the stopping rule changed ({change}), and under the new rule cell {} / {} stops at {need} \
                 games, but {} holds its game {last}; refusing to drop played games (keep a cap of at least {}, \
                 or use another --out folder)",
                dir.display(),
                survey.rulesets[r].0,
                survey.pairing_label(p),
                dir.join("games.csv").display(),
                last + 1
            );
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
fn load_games(path: &Path, survey: &Survey) -> anyhow::Result<BTreeMap<Key, GameRow>> {
    let (bytes, truncated) = complete_lines(path)?;
    if truncated > 0 {
        eprintln!("note: dropping a truncated last line of {} ({truncated} bytes)", path.display());
    }
    std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;
    parse_games(path, &bytes, survey)
}

/// The complete lines of `games.csv` (the header alone if it is missing or empty) and the
/// length of a truncated last line left out; checks the header. Writes nothing.
fn complete_lines(path: &Path) -> anyhow::Result<(Vec<u8>, usize)> {
    let header = games_header();
    let mut bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut truncated = 0;
    if !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        truncated = bytes.len() - keep;
        bytes.truncate(keep);
    }
    if bytes.is_empty() {
        bytes = header.clone().into_bytes();
    }
    if !bytes.starts_with(header.as_bytes()) {
        bail!("{} does not start with the games header `{}`", path.display(), header.trim_end());
    }
    Ok((bytes, truncated))
}

/// The rows of `bytes` (complete lines of `path`), keyed by cell and game.
fn parse_games(path: &Path, bytes: &[u8], survey: &Survey) -> anyhow::Result<BTreeMap<Key, GameRow>> {
    let mut rows = BTreeMap::new();
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes);
    for (i, rec) in reader.deserialize::<GameRow>().enumerate() {
        let line = i + 2;
        let row = rec.with_context(|| format!("{} line {line}: unreadable row", path.display()))?;
        let key = survey
            .key_of(&row)
            .with_context(|| format!("{} line {line}: row does not fit the experiment", path.display()))?;
        rows.entry(key).or_insert(row);
    }
    Ok(rows)
}

/// The columns of summary.csv, in order.
pub fn summary_columns() -> Vec<String> {
    let mut cols: Vec<String> = [
        "ruleset",
        "pairing",
        "games",
        "white_wins",
        "black_wins",
        "draws",
        "draw_rate",
        "draw_lo",
        "draw_hi",
        "decisive_rate",
        "white_score",
        "white_score_lo",
        "white_score_hi",
        "mean_plies",
        "median_plies",
        "p90_plies",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cols.extend(Reason::ALL.iter().map(|r| format!("reason_{}", r.name().replace('-', "_"))));
    cols
}

/// Statistics of one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct CellSummary {
    /// Ruleset label.
    pub ruleset: String,
    /// Pairing label (`first vs second`).
    pub pairing: String,
    /// Games.
    pub games: usize,
    /// Games White won.
    pub white_wins: usize,
    /// Games Black won.
    pub black_wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Mean plies.
    pub mean_plies: f64,
    /// Median plies.
    pub median_plies: f64,
    /// 90th percentile of plies (nearest rank).
    pub p90_plies: u32,
    /// Games per result reason, in `Reason::ALL` order.
    pub reasons: [usize; 9],
}

impl CellSummary {
    /// Summarises the games of one cell.
    pub fn new(ruleset: String, pairing: String, rows: &[&GameRow]) -> anyhow::Result<CellSummary> {
        let count = |w: &str| rows.iter().filter(|r| r.winner == w).count();
        let mut plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
        plies.sort_unstable();
        let mut reasons = [0usize; 9];
        for r in rows {
            let reason: Reason = r.reason.parse().map_err(|e: String| anyhow::anyhow!("game {}: {e}", r.game))?;
            if let Some(i) = Reason::ALL.iter().position(|x| *x == reason) {
                reasons[i] += 1;
            }
        }
        let n = rows.len();
        Ok(CellSummary {
            ruleset,
            pairing,
            games: n,
            white_wins: count("white"),
            black_wins: count("black"),
            draws: count("draw"),
            mean_plies: if n == 0 { 0.0 } else { plies.iter().map(|&p| p as f64).sum::<f64>() / n as f64 },
            median_plies: median(&plies),
            p90_plies: nearest_rank(&plies, 0.9),
            reasons,
        })
    }

    /// Draws / games (0 with no games).
    pub fn draw_rate(&self) -> f64 {
        ratio(self.draws as f64, self.games)
    }

    /// (White wins + draws / 2) / games.
    pub fn white_score(&self) -> f64 {
        ratio(self.white_wins as f64 + self.draws as f64 / 2.0, self.games)
    }

    /// The summary.csv line (no newline).
    pub fn csv_line(&self) -> String {
        let n = self.games as u64;
        let (dlo, dhi) = wilson(self.draws as f64, n, Z95);
        let (wlo, whi) = wilson(self.white_wins as f64 + self.draws as f64 / 2.0, n, Z95);
        let mut f = vec![
            csv_field(&self.ruleset),
            csv_field(&self.pairing),
            self.games.to_string(),
            self.white_wins.to_string(),
            self.black_wins.to_string(),
            self.draws.to_string(),
            format!("{:.4}", self.draw_rate()),
            format!("{dlo:.4}"),
            format!("{dhi:.4}"),
            format!("{:.4}", ratio((self.white_wins + self.black_wins) as f64, self.games)),
            format!("{:.4}", self.white_score()),
            format!("{wlo:.4}"),
            format!("{whi:.4}"),
            format!("{:.1}", self.mean_plies),
            format!("{:.1}", self.median_plies),
            self.p90_plies.to_string(),
        ];
        f.extend(self.reasons.iter().map(|c| c.to_string()));
        f.join(",")
    }
}

fn ratio(x: f64, n: usize) -> f64 {
    if n == 0 { 0.0 } else { x / n as f64 }
}

/// Quotes a CSV field when it needs it.
pub(crate) fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Whether cell `c` (index in experiment order) belongs to `shard` (all do without one).
fn in_shard(c: usize, shard: Option<(u32, u32)>) -> bool {
    shard.is_none_or(|(k, n)| c % n as usize == (k - 1) as usize)
}

/// The games cell `(r, p)` needs given the rows played so far (see [`Survey::games_needed`]).
fn cell_needed(survey: &Survey, rows: &BTreeMap<Key, GameRow>, r: usize, p: usize) -> u32 {
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
pub fn survey_progress(survey: &Survey, dir: &Path, shard: Option<(u32, u32)>) -> anyhow::Result<Vec<CellProgress>> {
    let fp_path = dir.join("fingerprint.txt");
    match std::fs::read_to_string(&fp_path) {
        Ok(old) => {
            let current = survey.shard_fingerprint(shard);
            if !same_games(&old, &current) {
                bail!(
                    "{} holds results of a different experiment configuration (was: {}; now: {})",
                    dir.display(),
                    lines_not_in(&old, &current),
                    lines_not_in(&current, &old)
                );
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", fp_path.display())),
    }
    let games_path = dir.join("games.csv");
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
) -> anyhow::Result<Vec<CellSummary>> {
    let _claim = crate::io::lock_folder(dir)?;
    let changed = check_fingerprint(dir, survey, config_text, shard, true)?;
    let games_path = dir.join("games.csv");
    let npair = survey.pairings.len();
    let mine: Vec<(usize, usize)> =
        (0..survey.cells()).filter(|&c| in_shard(c, shard)).map(|c| (c / npair, c % npair)).collect();
    let cap_total: u64 = mine.iter().map(|&(_, p)| survey.caps[p] as u64).sum();
    let mut done = match &changed {
        None => load_games(&games_path, survey)?,
        Some(old) => {
            let current = survey.shard_fingerprint(shard);
            let change = format!("was: {}; now: {}", lines_not_in(old, &current), lines_not_in(&current, old));
            let rows = load_games(&games_path, survey).with_context(|| {
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
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&games_path)
            .with_context(|| format!("cannot open {}", games_path.display()))?;
        let writer = Mutex::new(file);
        let bar = progress_bar(cap_total, done.len() as u64);
        let played: Vec<(Key, GameRow)> = jobs
            .par_iter()
            .map(|&(r, p, game)| -> anyhow::Result<(Key, GameRow)> {
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
                let mut f = writer.lock().map_err(|_| anyhow::anyhow!("a writer thread panicked"))?;
                f.write_all(&line)
                    .and_then(|()| f.flush())
                    .with_context(|| format!("cannot append to {}", games_path.display()))?;
                bar.inc(1);
                Ok(((r, p, game), row))
            })
            .collect::<anyhow::Result<_>>()?;
        bar.finish_and_clear();
        done.extend(played);
    }
    write_outputs(survey, dir, &done, &mine)
}

/// Rewrites `games.csv` (the games the cells need, sorted in experiment order) and
/// `summary.csv` of `cells` from `rows`.
fn write_outputs(
    survey: &Survey,
    dir: &Path,
    rows: &BTreeMap<Key, GameRow>,
    cells: &[(usize, usize)],
) -> anyhow::Result<Vec<CellSummary>> {
    let mut out = games_header().into_bytes();
    let mut summaries = Vec::new();
    let mut text = summary_columns().join(",") + "\n";
    for &(r, p) in cells {
        let need = cell_needed(survey, rows, r, p);
        let cell: Vec<&GameRow> = rows.range((r, p, 0)..(r, p, need)).map(|(_, v)| v).collect();
        if cell.len() != need as usize {
            bail!(
                "cell {} / {} has {} of the {need} games it needs",
                survey.rulesets[r].0,
                survey.pairing_label(p),
                cell.len()
            );
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
    write_atomic(&dir.join("games.csv"), &out)?;
    write_atomic(&dir.join("summary.csv"), text.as_bytes())?;
    Ok(summaries)
}

/// Merges the output folders of all shards of `survey` into `dir` (see the module docs).
pub fn merge_shards(
    survey: &Survey,
    config_text: &str,
    dir: &Path,
    shards: &[PathBuf],
) -> anyhow::Result<Vec<CellSummary>> {
    let _claim = crate::io::lock_folder(dir)?;
    let mut rows: BTreeMap<Key, GameRow> = BTreeMap::new();
    let mut seen: BTreeMap<u32, PathBuf> = BTreeMap::new();
    let mut total = None;
    for sdir in shards {
        let fp_path = sdir.join("fingerprint.txt");
        let fp = std::fs::read_to_string(&fp_path).with_context(|| format!("cannot read {}", fp_path.display()))?;
        let shard =
            fp.lines().find_map(|l| l.strip_prefix("shard = ")).and_then(|t| parse_shard(t).ok()).ok_or_else(|| {
                anyhow::anyhow!("{} is not the fingerprint of a shard (no `shard = K/N` line)", fp_path.display())
            })?;
        if fp != survey.shard_fingerprint(Some(shard)) {
            bail!("{} holds shard {}/{} of a different experiment configuration", sdir.display(), shard.0, shard.1);
        }
        if *total.get_or_insert(shard.1) != shard.1 {
            bail!("{} is a shard of {} parts, the others of {}", sdir.display(), shard.1, total.unwrap_or(0));
        }
        if let Some(other) = seen.insert(shard.0, sdir.clone()) {
            bail!("shard {}/{} is given twice: {} and {}", shard.0, shard.1, other.display(), sdir.display());
        }
        let games = load_games(&sdir.join("games.csv"), survey)?;
        for (key, row) in games {
            let c = key.0 * survey.pairings.len() + key.1;
            if !in_shard(c, Some(shard)) {
                bail!("{}: a game of cell {c}, which is not in shard {}/{}", sdir.display(), shard.0, shard.1);
            }
            rows.insert(key, row);
        }
    }
    let n = total.unwrap_or(0);
    let missing: Vec<String> = (1..=n).filter(|k| !seen.contains_key(k)).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        bail!("shards missing from the merge: {}", missing.join(", "));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    check_fingerprint(dir, survey, config_text, None, false)?;
    let all: Vec<(usize, usize)> =
        (0..survey.cells()).map(|c| (c / survey.pairings.len(), c % survey.pairings.len())).collect();
    write_outputs(survey, dir, &rows, &all)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_dir() -> PathBuf {
        PathBuf::from("/nonexistent")
    }

    /// Byte-mutation fuzzing of experiment files and agents files (as the rules crate's
    /// `tests/fuzz.rs`): no panic, every rejection an error with a message.
    #[test]
    fn fuzzed_experiment_and_agents_files_are_refused_or_accepted_never_panic() {
        use latrunculi_rules::FastRng;
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut seeds: Vec<String> = ["experiments/draw-survey.toml", "experiments/smoke-survey.toml"]
            .iter()
            .map(|f| std::fs::read_to_string(root.join(f)).expect("experiment file"))
            .collect();
        seeds.push(std::fs::read_to_string(root.join("experiments/az-v2-kowalski/curve/agents.txt")).unwrap());
        const DICT: &[&str] = &["[", "]", "\"", ",", "=", "\n", "#", "0", "-1", "99999999999", "@99x2", "mcts:", "az:"];
        let cases: u64 = std::env::var("LATRUNCULI_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000);
        let mut rng = FastRng::new(11);
        let agents = std::env::temp_dir().join(format!("latrunculi-fuzz-agents-{}.txt", std::process::id()));
        let prev = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let mut crashes = Vec::new();
        for _ in 0..cases {
            let mut b = seeds[rng.below(seeds.len())].clone().into_bytes();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(b.len() + 1);
                match rng.below(3) {
                    0 if !b.is_empty() => {
                        let i = rng.below(b.len());
                        b[i] = rng.below(128) as u8;
                    }
                    1 => b.truncate(at),
                    _ => {
                        let w = DICT[rng.below(DICT.len())].as_bytes();
                        b.splice(at..at, w.iter().copied());
                    }
                }
            }
            let text = String::from_utf8_lossy(&b).into_owned();
            let r = std::panic::catch_unwind(|| {
                if let Err(e) = Survey::from_toml_str(&text, &rules_dir()) {
                    assert!(!format!("{e:#}").trim().is_empty());
                }
                std::fs::write(&agents, &text).unwrap();
                if let Err(e) = crate::ladder::read_agents(&agents) {
                    assert!(e.to_string().contains("latrunculi-fuzz-agents"), "{e}");
                }
            });
            if r.is_err() {
                crashes.push(text);
            }
        }
        std::panic::set_hook(prev);
        let _ = std::fs::remove_file(&agents);
        assert!(crashes.is_empty(), "{} of {cases} inputs panicked, e.g. {:?}", crashes.len(), crashes.first());
    }

    #[test]
    fn config_errors_name_the_problem() {
        let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"]]\ngames = 2\n";
        assert!(Survey::from_toml_str(base, &rules_dir()).is_ok());
        let e = format!("{:#}", Survey::from_toml_str(&format!("{base}colour = 1\n"), &rules_dir()).unwrap_err());
        assert!(e.contains("colour"), "{e}");
        let e = format!("{:#}", Survey::from_toml_str(&base.replace("kowalski", "nosuch"), &rules_dir()).unwrap_err());
        assert!(e.contains("nosuch"), "{e}");
        let e = format!(
            "{:#}",
            Survey::from_toml_str(&base.replace("\"random\"]", "\"wizard\"]"), &rules_dir()).unwrap_err()
        );
        assert!(e.contains("wizard"), "{e}");
        let e = format!(
            "{:#}",
            Survey::from_toml_str(&base.replace("kowalski", "kowalski@99x2"), &rules_dir()).unwrap_err()
        );
        assert!(e.contains("kowalski@99x2"), "{e}");
    }

    #[test]
    fn fingerprint_tracks_settings() {
        let base = "rulesets = [\"kowalski\", \"xxi@12x8\"]\npairings = [[\"random\", \"random\"]]\ngames = 2\n";
        let a = Survey::from_toml_str(base, &rules_dir()).unwrap();
        assert_eq!(a.rulesets[1].0, "xxi@12x8");
        let b = Survey::from_toml_str(&format!("{base}out = \"elsewhere\"\n"), &rules_dir()).unwrap();
        assert_eq!(a.fingerprint(), b.fingerprint());
        let c = Survey::from_toml_str(&format!("{base}seed = 2\n"), &rules_dir()).unwrap();
        assert_ne!(a.fingerprint(), c.fingerprint());
    }

    #[test]
    fn adaptive_cells_stop_at_the_first_narrow_enough_boundary() {
        let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"]]\ngames = 400\n";
        let fixed = Survey::from_toml_str(base, &rules_dir()).unwrap();
        assert_eq!(fixed.games_needed(0, |_| None), 400, "without min_games every game is needed");
        let s = Survey::from_toml_str(&format!("{base}min_games = 100\nbatch = 50\n"), &rules_dir()).unwrap();
        assert_eq!(s.adaptive(), Some(Adaptive { min_games: 100, batch: 50, half_width: 0.05 }));
        // Nothing played: the first round.
        assert_eq!(s.games_needed(0, |_| None), 100);
        // All draws: the interval at 100 games is [0.963, 1], half-width 0.018: stop.
        assert_eq!(s.games_needed(0, |_| Some(true)), 100);
        // Half draws: half-width 0.05 needs about 384 games; the boundaries are 100, 150,
        // …, 350, 400: Wilson's half-width at 350 is 0.052, so 400 (the cap).
        assert_eq!(s.games_needed(0, |g| Some(g % 2 == 0)), 400);
        // 10% draws: half-width at 150 is 0.049 (at 100: 0.060).
        assert_eq!(s.games_needed(0, |g| Some(g % 10 == 0)), 150);
        // Games missing inside a round: that round is needed.
        assert_eq!(s.games_needed(0, |g| if g < 120 { Some(g % 2 == 0) } else { None }), 150);
        // The settings are part of the fingerprint; without them it is unchanged.
        assert_ne!(s.fingerprint(), fixed.fingerprint());
        assert!(!fixed.fingerprint().contains("adaptive"));
        for bad in ["min_games = 0\n", "min_games = 401\n", "batch = 5\n", "min_games = 10\nhalf_width = 0\n"] {
            assert!(Survey::from_toml_str(&format!("{base}{bad}"), &rules_dir()).is_err(), "{bad}");
        }
    }

    #[test]
    fn pairing_caps_stop_one_pairing_early_and_are_checked() {
        let base = "rulesets = [\"kowalski\"]\npairings = [[\"random\", \"random\"], [\"greedy\", \"random\"]]\ngames = 400\nmin_games = 50\n";
        let plain = Survey::from_toml_str(base, &rules_dir()).unwrap();
        assert_eq!(plain.caps, vec![400, 400]);
        let s = Survey::from_toml_str(
            &format!("{base}[[cap]]\npairing = [\"greedy\", \"random\"]\ngames = 100\n"),
            &rules_dir(),
        )
        .unwrap();
        assert_eq!(s.caps, vec![400, 100]);
        // Half draws: pairing 0 runs to 400, the capped pairing stops at 100.
        assert_eq!(s.games_needed(0, |g| Some(g % 2 == 0)), 400);
        assert_eq!(s.games_needed(1, |g| Some(g % 2 == 0)), 100);
        assert!(s.fingerprint().contains("cap = greedy vs random: 100\n"), "{}", s.fingerprint());
        assert!(!plain.fingerprint().lines().any(|l| l.starts_with("cap = ")));
        // Only the stopping-rule lines differ.
        let (fs, fp) = (s.fingerprint(), plain.fingerprint());
        let differ: Vec<&str> = fs.lines().filter(|l| !fp.lines().any(|x| x == *l)).collect();
        assert!(differ.iter().all(|l| is_stop_rule_line(l)), "{differ:?}");
        for (bad, needle) in [
            ("[[cap]]\npairing = [\"mcts:sims=10\", \"random\"]\ngames = 100\n", "not in `pairings`"),
            ("[[cap]]\npairing = [\"random\", \"greedy\"]\ngames = 100\n", "not in `pairings`"),
            ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 401\n", "must be 1 to"),
            ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 0\n", "must be 1 to"),
            (
                "[[cap]]\npairing = [\"random\", \"random\"]\ngames = 9\n[[cap]]\npairing = [\"random\", \"random\"]\ngames = 8\n",
                "two [[cap]]",
            ),
            ("[[cap]]\npairing = [\"random\", \"random\"]\ngames = 9\ncolour = 1\n", "colour"),
        ] {
            let e = format!("{:#}", Survey::from_toml_str(&format!("{base}{bad}"), &rules_dir()).unwrap_err());
            assert!(e.contains(needle), "{bad}: {e}");
        }
    }

    #[test]
    fn shards_are_read_as_k_of_n() {
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        assert!((0..7).filter(|&c| in_shard(c, Some((2, 3)))).eq([1, 4]));
    }

    #[test]
    fn summary_columns_end_with_reasons() {
        let cols = summary_columns();
        assert_eq!(cols.len(), 16 + 9);
        assert_eq!(cols[16], "reason_immobilized");
        assert_eq!(cols[24], "reason_ply_cap");
    }
}

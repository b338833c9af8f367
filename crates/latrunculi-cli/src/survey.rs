//! `latrunculi survey --config experiments/NAME.toml [--out DIR]`: every (ruleset,
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
//! ```
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

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;

use anyhow::{Context as _, bail};
use latrunculi_rules::{Reason, Ruleset, fnv1a};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::play::{GameJob, GameRow, canonical_spec, colours, game_seed, games_header, play_game, progress_bar};
use crate::rules::write_atomic;
use crate::stats::{Z95, median, nearest_rank, wilson};

/// Arguments of `latrunculi survey`.
#[derive(clap::Args, Debug)]
pub struct SurveyArgs {
    /// The experiment file (TOML), e.g. experiments/draw-survey.toml.
    #[arg(long)]
    pub config: PathBuf,
    /// Output folder (default: the file's `out`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory of ruleset files consulted before the built-in ones.
    #[arg(long, default_value = "configs/rulesets")]
    pub rules_dir: PathBuf,
}

/// An experiment file as written.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
    /// (first, second) canonical agent specs in file order.
    pub pairings: Vec<(String, String)>,
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
        let mut rulesets: Vec<(String, Ruleset)> = Vec::new();
        for entry in &config.rulesets {
            let (name, board) = match entry.rsplit_once('@') {
                Some((n, b)) => (n, Some(b)),
                None => (entry.as_str(), None),
            };
            let mut rs = Ruleset::resolve(name.trim(), Some(rules_dir))
                .with_context(|| format!("ruleset '{entry}' in `rulesets`"))?;
            let label = match board {
                None => rs.id.clone(),
                Some(b) => {
                    let (w, h) = crate::parse_board(b).with_context(|| format!("ruleset '{entry}' in `rulesets`"))?;
                    rs = rs.with_board(w, h).with_context(|| format!("ruleset '{entry}' in `rulesets`"))?;
                    format!("{}@{w}x{h}", rs.id)
                }
            };
            if rulesets.iter().any(|(l, _)| *l == label) {
                bail!("ruleset '{label}' is listed twice in `rulesets`");
            }
            rulesets.push((label, rs));
        }
        let mut pairings: Vec<(String, String)> = Vec::new();
        for [a, b] in &config.pairings {
            // Every agent must be able to play every ruleset's board (an `az` model is
            // made for one board size).
            let mut p = (String::new(), String::new());
            for (label, rs) in &rulesets {
                let ctx = || format!("in `pairings`, for ruleset '{label}'");
                p = (canonical_spec(a, rs).with_context(ctx)?, canonical_spec(b, rs).with_context(ctx)?);
            }
            if pairings.contains(&p) {
                bail!("pairing [\"{}\", \"{}\"] is listed twice in `pairings`", p.0, p.1);
            }
            pairings.push(p);
        }
        Ok(Survey { config, rulesets, pairings })
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

/// Checks (or, in a fresh folder, writes) `fingerprint.txt` and `config.toml`.
fn check_fingerprint(dir: &Path, survey: &Survey, config_text: &str) -> anyhow::Result<()> {
    let fp_path = dir.join("fingerprint.txt");
    let games_path = dir.join("games.csv");
    let current = survey.fingerprint();
    match std::fs::read_to_string(&fp_path) {
        Ok(old) if old == current => {}
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
    let cfg_path = dir.join("config.toml");
    std::fs::write(&cfg_path, config_text).with_context(|| format!("cannot write {}", cfg_path.display()))?;
    Ok(())
}

/// Reads the complete rows of `games.csv` (creating it with its header if missing or
/// empty, and cutting off a truncated last line), keyed by cell and game.
fn load_games(path: &Path, survey: &Survey) -> anyhow::Result<BTreeMap<Key, GameRow>> {
    let header = games_header();
    let mut bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    if !bytes.ends_with(b"\n") {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        if keep < bytes.len() && !bytes.is_empty() {
            eprintln!("note: dropping a truncated last line of {} ({} bytes)", path.display(), bytes.len() - keep);
        }
        bytes.truncate(keep);
    }
    if bytes.is_empty() {
        bytes = header.clone().into_bytes();
    }
    if !bytes.starts_with(header.as_bytes()) {
        bail!("{} does not start with the games header `{}`", path.display(), header.trim_end());
    }
    std::fs::write(path, &bytes).with_context(|| format!("cannot write {}", path.display()))?;

    let mut rows = BTreeMap::new();
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(bytes.as_slice());
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
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_string() }
}

/// Runs the survey into `dir` (resuming what is there) and returns the cell summaries.
pub fn run_survey(survey: &Survey, config_text: &str, dir: &Path) -> anyhow::Result<Vec<CellSummary>> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    check_fingerprint(dir, survey, config_text)?;
    let games_path = dir.join("games.csv");
    let done = load_games(&games_path, survey)?;

    let games = survey.config.games;
    let mut jobs: Vec<Key> = Vec::new();
    for r in 0..survey.rulesets.len() {
        for p in 0..survey.pairings.len() {
            jobs.extend((0..games).map(|g| (r, p, g)).filter(|k| !done.contains_key(k)));
        }
    }
    let total = (survey.rulesets.len() * survey.pairings.len()) as u64 * games as u64;
    if !jobs.is_empty() {
        if !done.is_empty() {
            eprintln!("resuming: {} of {total} games already in {}", done.len(), games_path.display());
        }
        let file = std::fs::OpenOptions::new()
            .append(true)
            .open(&games_path)
            .with_context(|| format!("cannot open {}", games_path.display()))?;
        let writer = Mutex::new(file);
        let bar = progress_bar(total, done.len() as u64);
        jobs.par_iter().try_for_each(|&(r, p, game)| -> anyhow::Result<()> {
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
            let line = play_game(&job)?.to_csv_line()?;
            let mut f = writer.lock().map_err(|_| anyhow::anyhow!("a writer thread panicked"))?;
            f.write_all(&line)
                .and_then(|()| f.flush())
                .with_context(|| format!("cannot append to {}", games_path.display()))?;
            bar.inc(1);
            Ok(())
        })?;
        bar.finish_and_clear();
    }

    // Regenerate both files from games.csv, sorted in experiment order.
    let rows = load_games(&games_path, survey)?;
    let mut out = games_header().into_bytes();
    for row in rows.values() {
        out.extend(row.to_csv_line()?);
    }
    write_atomic(&games_path, &out)?;

    let mut summaries = Vec::new();
    let mut text = summary_columns().join(",") + "\n";
    for r in 0..survey.rulesets.len() {
        for p in 0..survey.pairings.len() {
            let cell: Vec<&GameRow> = rows.range((r, p, 0)..=(r, p, u32::MAX)).map(|(_, v)| v).collect();
            let s = CellSummary::new(survey.rulesets[r].0.clone(), survey.pairing_label(p), &cell)?;
            text += &s.csv_line();
            text.push('\n');
            summaries.push(s);
        }
    }
    write_atomic(&dir.join("summary.csv"), text.as_bytes())?;
    Ok(summaries)
}

/// Runs `latrunculi survey`.
pub fn run(args: &SurveyArgs) -> anyhow::Result<ExitCode> {
    let config_text =
        std::fs::read_to_string(&args.config).with_context(|| format!("cannot read {}", args.config.display()))?;
    let survey = Survey::from_toml_str(&config_text, &args.rules_dir)
        .with_context(|| format!("bad experiment file {}", args.config.display()))?;
    let dir = args
        .out
        .clone()
        .or_else(|| survey.config.out.clone())
        .ok_or_else(|| anyhow::anyhow!("no output folder: give --out or `out` in {}", args.config.display()))?;
    let summaries = run_survey(&survey, &config_text, &dir)?;
    println!(
        "{:<18} {:<40} {:>6} {:>6} {:>6} {:>6} {:>20} {:>8}",
        "ruleset", "pairing", "games", "white", "black", "draws", "draw rate [95% CI]", "plies"
    );
    for s in &summaries {
        let (lo, hi) = wilson(s.draws as f64, s.games as u64, Z95);
        println!(
            "{:<18} {:<40} {:>6} {:>6} {:>6} {:>6} {:>6.3} [{:.3},{:.3}] {:>8.1}",
            s.ruleset,
            s.pairing,
            s.games,
            s.white_wins,
            s.black_wins,
            s.draws,
            s.draw_rate(),
            lo,
            hi,
            s.mean_plies
        );
    }
    println!("-> {}, {}", dir.join("games.csv").display(), dir.join("summary.csv").display());
    Ok(ExitCode::SUCCESS)
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
    fn summary_columns_end_with_reasons() {
        let cols = summary_columns();
        assert_eq!(cols.len(), 16 + 9);
        assert_eq!(cols[16], "reason_immobilized");
        assert_eq!(cols[24], "reason_ply_cap");
    }
}

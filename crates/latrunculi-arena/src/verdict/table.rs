//! `verdicts.csv` (`latrunculi verdicts`): the games of one or more games CSVs (as
//! `play`, `survey` and `eval --games-out` write them) grouped into cells, each cell's
//! games split by how they ended ([`super::classify`]) with 95% intervals, and the
//! verdict of each self-play player ([`super::verdict`]).
//!
//! # Cells, players and budgets
//!
//! A cell is a ruleset label with an unordered pair of agent specs (both colours of a
//! pairing are one cell), in order of first appearance. In a self-play cell (both specs
//! the same) the spec is split into a **player** and a **budget**: the budget is the
//! spec's first option among `nodes`, `ms`, `sims` and `depth`, in that order, with a
//! whole-number value (`alphabeta:nodes=10000` is player `alphabeta` at budget
//! `nodes=10000`; `alphabeta:nodes=2500,pursuit=10` is `alphabeta:pursuit=10` at
//! `nodes=2500`; `mcts:sims=200,depth=40` is `mcts:depth=40` at `sims=200`; `greedy` has
//! no budget). The cells of one ruleset, one player and one budget key are that player's
//! budgets, compared by value. Any other cell is named `white vs black` (the specs of
//! its first game) and has no budget.
//!
//! # Verdicts
//!
//! Each self-play player on a ruleset gets one verdict, written on the row of its
//! largest budget: [`super::verdict`] of its two largest budgets (the smaller named in
//! `compared_with`), or, with one budget only, [`super::level_verdict`] (and
//! `compared_with` empty: the verdict could not be unsettled). Other rows have an empty
//! verdict.
//!
//! # Checks
//!
//! Every row's ruleset label is resolved (files in the rules directory first) and its
//! `params_hash` must be that ruleset's: the split by end reason depends on the
//! parameters. A game given twice (the same ruleset, players and seed, in one file or
//! two) is an error naming both lines, so that no game set is counted twice. Errors name
//! the file and line.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use latrunculi_rules::{Color, Reason, Ruleset, RulesetError, RulesetSpec};

use super::{CellCounts, DrawKind, Rate, Verdict, classify, level_verdict, verdict};
use crate::error::{ArenaError, Result};
use crate::io::games::{GamesReader, Located};
use crate::io::write_atomic;
use crate::survey::csv_field;

/// The options that set an agent's strength, in the order in which one is taken as the
/// budget of a spec.
pub const BUDGET_KEYS: [&str; 4] = ["nodes", "ms", "sims", "depth"];

/// The columns a games CSV must have for [`read_games_csv`].
pub const REQUIRED_GAME_COLUMNS: [&str; 7] = ["ruleset", "params_hash", "seed", "white", "black", "winner", "reason"];

/// The columns of verdicts.csv, in order (documented in `experiments/verdicts/README.md`).
pub fn verdict_columns() -> Vec<String> {
    let mut cols: Vec<String> = [
        "ruleset",
        "player",
        "budget",
        "games",
        "draw_rate",
        "draw_lo",
        "draw_hi",
        "won_by_play_rate",
        "won_by_play_lo",
        "won_by_play_hi",
        "adjudicated_rate",
        "adjudicated_lo",
        "adjudicated_hi",
        "verdict",
        "compared_with",
        "dlp_draw_rate",
        "dlp_trials",
        "draws",
        "won_by_play",
        "adjudicated",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cols.extend(DrawKind::ALL.iter().map(|k| format!("draws_{}", k.name())));
    cols
}

/// A budget option of an agent spec, e.g. `nodes=10000`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Budget {
    /// The option, one of [`BUDGET_KEYS`].
    pub key: String,
    /// Its value.
    pub value: u64,
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

/// Splits a canonical agent spec (`name:key=value,...`) into the player and its budget
/// (see the [module documentation](self)): `alphabeta:nodes=10000` gives `("alphabeta",
/// Some(nodes=10000))`, `greedy` gives `("greedy", None)`.
pub fn split_budget(spec: &str) -> (String, Option<Budget>) {
    let Some((name, options)) = spec.split_once(':') else { return (spec.to_string(), None) };
    let options: Vec<(&str, &str)> = options.split(',').filter_map(|o| o.split_once('=')).collect();
    let found = BUDGET_KEYS.iter().find_map(|key| {
        let (at, (_, value)) = options.iter().enumerate().find(|(_, (k, _))| k == key)?;
        value.parse::<u64>().ok().map(|value| (at, value))
    });
    let Some((at, value)) = found else { return (spec.to_string(), None) };
    let rest: Vec<String> =
        options.iter().enumerate().filter(|(i, _)| *i != at).map(|(_, (k, v))| format!("{k}={v}")).collect();
    let player = if rest.is_empty() { name.to_string() } else { format!("{name}:{}", rest.join(",")) };
    (player, Some(Budget { key: options[at].0.to_string(), value }))
}

/// The Digital Ludeme Project's figure for a ruleset: draws in its trials.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DlpFigure {
    /// Drawn trials.
    pub draws: u64,
    /// Trials.
    pub trials: u64,
}

/// Reads a CSV of the DLP's figures: columns `ruleset`, `draws`, `trials` (others are
/// ignored), one row per ruleset id.
pub fn read_dlp(path: &Path) -> Result<BTreeMap<String, DlpFigure>> {
    let mut reader = open_csv(path)?;
    let cols = columns(&mut reader, path, &["ruleset", "draws", "trials"], "a DLP figures file")?;
    let mut out = BTreeMap::new();
    for record in reader.records() {
        let (record, line) = record_line(record, path)?;
        let bad = |message: String| ArenaError::content(path, Some(line), message);
        let field = |i: usize| record.get(cols[i]).unwrap_or_default().trim();
        let number = |i: usize, name: &str| {
            field(i).parse::<u64>().map_err(|_| bad(format!("{name} '{}' is not a whole number", field(i))))
        };
        let (draws, trials) = (number(1, "draws")?, number(2, "trials")?);
        if trials == 0 || draws > trials {
            return Err(bad(format!("{draws} draws in {trials} trials")));
        }
        if out.insert(field(0).to_string(), DlpFigure { draws, trials }).is_some() {
            return Err(bad(format!("ruleset '{}' is given twice", field(0))));
        }
    }
    Ok(out)
}

/// One cell's games, as read.
#[derive(Clone, Debug)]
struct Cell {
    ruleset: String,
    /// The two specs of its first game, White first.
    first: (String, String),
    counts: CellCounts,
}

/// The cells of one player's budgets: ruleset, player, and the budget's key (or, for a
/// cell without a budget, a key of its own).
type GroupKey = (String, String, String);

/// Games read from games CSVs, grouped into cells.
#[derive(Debug)]
pub struct GameCells {
    rules_dir: PathBuf,
    rulesets: HashMap<String, Ruleset>,
    /// Where each game was read: (ruleset, white, black, seed) → (file, line).
    seen: HashMap<(String, String, String, String), (PathBuf, usize)>,
    cells: Vec<Cell>,
    index: HashMap<(String, [String; 2]), usize>,
}

/// Opens a CSV file, naming it in the error.
fn open_csv(path: &Path) -> Result<csv::Reader<std::fs::File>> {
    let file = std::fs::File::open(path).map_err(ArenaError::io("read", path))?;
    Ok(csv::ReaderBuilder::new().from_reader(file))
}

/// The indices of the `wanted` columns in the header, or an error naming the first one
/// missing.
fn columns(reader: &mut csv::Reader<std::fs::File>, path: &Path, wanted: &[&str], what: &str) -> Result<Vec<usize>> {
    let header = reader
        .headers()
        .map_err(|e| ArenaError::content(path, Some(1), format!("not a CSV header line: {e}")))?
        .clone();
    wanted
        .iter()
        .map(|w| {
            header.iter().position(|h| h.trim() == *w).ok_or_else(|| {
                ArenaError::content(
                    path,
                    Some(1),
                    format!("no column '{w}' in the header: {what} needs the columns {}", wanted.join(", ")),
                )
            })
        })
        .collect()
}

/// A record with its 1-based line, or an error naming the line.
fn record_line(record: csv::Result<csv::StringRecord>, path: &Path) -> Result<(csv::StringRecord, usize)> {
    match record {
        Ok(r) => {
            let line = r.position().map_or(0, |p| p.line() as usize);
            Ok((r, line))
        }
        Err(e) => {
            let line = e.position().map(|p| p.line() as usize);
            Err(ArenaError::content(path, line, format!("not a CSV row: {e}")))
        }
    }
}

impl GameCells {
    /// No games yet; ruleset labels will be resolved with files in `rules_dir` first.
    pub fn new(rules_dir: &Path) -> GameCells {
        GameCells {
            rules_dir: rules_dir.to_path_buf(),
            rulesets: HashMap::new(),
            seen: HashMap::new(),
            cells: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Reads every game of a games CSV into its cell (see the [module
    /// documentation](self) for the checks). Returns the number of games read.
    pub fn read_games_csv(&mut self, path: &Path) -> Result<usize> {
        let reader = GamesReader::open(path)?;
        let cols = reader.columns(&REQUIRED_GAME_COLUMNS)?;
        let mut games = 0;
        for record in reader.records() {
            let Located { line, value: record, .. } = record?;
            let field = |name: &str| {
                let i = REQUIRED_GAME_COLUMNS.iter().position(|c| *c == name).map_or(0, |i| cols[i]);
                record.get(i).unwrap_or_default().trim().to_string()
            };
            self.add_game(
                path,
                line,
                [field("ruleset"), field("params_hash"), field("seed"), field("white"), field("black")],
                &field("winner"),
                &field("reason"),
            )?;
            games += 1;
        }
        Ok(games)
    }

    /// Adds one game: `id` holds its ruleset label, params_hash, seed, White and Black
    /// specs.
    fn add_game(&mut self, path: &Path, line: usize, id: [String; 5], winner: &str, reason: &str) -> Result<()> {
        let [label, hash, seed, white, black] = id;
        let bad = |message: String| ArenaError::content(path, Some(line), message);
        if !self.rulesets.contains_key(&label) {
            let spec: RulesetSpec =
                label.parse().map_err(|e| bad(format!("ruleset '{label}': {}", RulesetError::from(e))))?;
            let rs = spec.resolve(Some(&self.rules_dir)).map_err(|e| bad(e.to_string()))?;
            self.rulesets.insert(label.clone(), rs);
        }
        let rs = &self.rulesets[&label];
        let want = format!("{:016x}", rs.params_hash());
        if hash != want {
            return Err(bad(format!(
                "params_hash {hash} is not that of ruleset '{label}' here ({want}): the rules changed since the game \
                 was played"
            )));
        }
        let winner = match winner {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            "draw" => None,
            w => return Err(bad(format!("winner '{w}' is not white, black or draw"))),
        };
        let reason: Reason = reason.parse().map_err(|e: String| bad(e))?;
        let ending = classify(winner, reason, rs).map_err(|e| bad(e.to_string()))?;
        let key = (label.clone(), white.clone(), black.clone(), seed.clone());
        if let Some((first_path, first_line)) = self.seen.get(&key) {
            return Err(bad(format!(
                "the game of {label}, {white} vs {black}, seed {seed} is already at {} line {first_line}: give each \
                 game once",
                first_path.display()
            )));
        }
        self.seen.insert(key, (path.to_path_buf(), line));
        let mut pair = [white.clone(), black.clone()];
        pair.sort();
        let at = match self.index.get(&(label.clone(), pair.clone())) {
            Some(&at) => at,
            None => {
                self.cells.push(Cell { ruleset: label.clone(), first: (white, black), counts: CellCounts::default() });
                self.index.insert((label, pair), self.cells.len() - 1);
                self.cells.len() - 1
            }
        };
        self.cells[at].counts.add(ending);
        Ok(())
    }

    /// The rows of verdicts.csv: rulesets in order of first appearance, then each
    /// player's cells (players in order of first appearance) by increasing budget, each
    /// self-play player's verdict on the row of its largest budget; `dlp` gives the DLP's
    /// figure by ruleset label.
    pub fn rows(&self, dlp: &BTreeMap<String, DlpFigure>) -> Result<Vec<VerdictRow>> {
        // Groups: (ruleset, player, budget key or, for a cell without a budget, its index).
        let mut groups: Vec<(GroupKey, Vec<(Option<Budget>, &Cell)>)> = Vec::new();
        for (i, cell) in self.cells.iter().enumerate() {
            let (white, black) = &cell.first;
            let (player, budget, group) = if white == black {
                let (player, budget) = split_budget(white);
                let group = budget.as_ref().map_or_else(|| format!("#{i}"), |b| b.key.clone());
                (player, budget, group)
            } else {
                (format!("{white} vs {black}"), None, format!("#{i}"))
            };
            let key = (cell.ruleset.clone(), player, group);
            match groups.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push((budget, cell)),
                None => groups.push((key, vec![(budget, cell)])),
            }
        }
        // Rulesets in order of first appearance.
        let mut ruleset_order: Vec<&str> = Vec::new();
        for cell in &self.cells {
            if !ruleset_order.contains(&cell.ruleset.as_str()) {
                ruleset_order.push(&cell.ruleset);
            }
        }
        let mut rows = Vec::new();
        for ruleset in ruleset_order {
            for ((_, player, _), members) in groups.iter_mut().filter(|((r, _, _), _)| r == ruleset) {
                members.sort_by(|a, b| a.0.cmp(&b.0));
                let self_play = members[0].1.first.0 == members[0].1.first.1;
                let n = members.len();
                let decided = match n {
                    _ if !self_play => None,
                    1 => Some((level_verdict(&members[0].1.counts), None)),
                    _ => Some((verdict(&members[n - 2].1.counts, &members[n - 1].1.counts), members[n - 2].0.clone())),
                };
                for (k, (budget, cell)) in members.iter().enumerate() {
                    let (verdict, compared_with) = match &decided {
                        Some((v, compared)) if k == n - 1 => {
                            let v =
                                v.clone().map_err(|e| ArenaError::from(e).context(format!("{ruleset}, {player}")))?;
                            (Some(v), compared.clone())
                        }
                        _ => (None, None),
                    };
                    rows.push(VerdictRow {
                        ruleset: ruleset.to_string(),
                        player: player.clone(),
                        budget: budget.clone(),
                        counts: cell.counts,
                        verdict,
                        compared_with,
                        dlp: dlp.get(ruleset).copied(),
                    });
                }
            }
        }
        Ok(rows)
    }
}

/// One row of verdicts.csv: a cell, and the verdict where it is a self-play player's
/// largest budget.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictRow {
    /// The ruleset label.
    pub ruleset: String,
    /// The player (a self-play spec without its budget) or the pairing `white vs black`.
    pub player: String,
    /// The budget of a self-play cell's spec, if it has one.
    pub budget: Option<Budget>,
    /// The cell's games by how they ended.
    pub counts: CellCounts,
    /// The player's verdict, on the row of its largest budget.
    pub verdict: Option<Verdict>,
    /// The budget the verdict compared this one with (the next largest).
    pub compared_with: Option<Budget>,
    /// The DLP's figure for the ruleset, where one is given.
    pub dlp: Option<DlpFigure>,
}

impl VerdictRow {
    /// The row as a line of verdicts.csv (no newline; columns of [`verdict_columns`]).
    pub fn csv_line(&self) -> String {
        let rate = |r: Option<Rate>| match r {
            Some(r) => vec![format!("{:.4}", r.rate), format!("{:.4}", r.lo), format!("{:.4}", r.hi)],
            None => vec![String::new(); 3],
        };
        let c = &self.counts;
        let mut fields = vec![
            csv_field(&self.ruleset),
            csv_field(&self.player),
            self.budget.as_ref().map(Budget::to_string).unwrap_or_default(),
            c.games().to_string(),
        ];
        fields.extend(rate(c.draw_rate()));
        fields.extend(rate(c.won_by_play_rate()));
        fields.extend(rate(c.adjudicated_rate()));
        fields.push(self.verdict.map(|v| v.name().to_string()).unwrap_or_default());
        fields.push(self.compared_with.as_ref().map(Budget::to_string).unwrap_or_default());
        fields.push(self.dlp.map(|d| format!("{:.4}", d.draws as f64 / d.trials as f64)).unwrap_or_default());
        fields.push(self.dlp.map(|d| d.trials.to_string()).unwrap_or_default());
        fields.extend([c.draws(), c.won_by_play, c.adjudicated].iter().map(u64::to_string));
        fields.extend(DrawKind::ALL.iter().map(|k| c.draws_of(*k).to_string()));
        fields.join(",")
    }
}

/// The verdicts.csv text (header included) of `rows`.
pub fn verdicts_csv(rows: &[VerdictRow]) -> String {
    let mut text = verdict_columns().join(",") + "\n";
    for r in rows {
        text += &r.csv_line();
        text.push('\n');
    }
    text
}

/// Reads the games CSVs `games` (rulesets from `rules_dir` first) and the DLP's figures
/// (`dlp`, if given), and writes verdicts.csv to `out`. Returns the rows written.
pub fn write_verdicts(games: &[PathBuf], dlp: Option<&Path>, rules_dir: &Path, out: &Path) -> Result<Vec<VerdictRow>> {
    let dlp = dlp.map(read_dlp).transpose()?.unwrap_or_default();
    let mut cells = GameCells::new(rules_dir);
    for path in games {
        if cells.read_games_csv(path)? == 0 {
            return Err(ArenaError::content(path, None, "has no games"));
        }
    }
    let rows = cells.rows(&dlp)?;
    write_atomic(out, verdicts_csv(&rows).as_bytes())?;
    Ok(rows)
}

#[cfg(test)]
mod tests;

//! Game-design metrics (`latrunculi metrics --games FILE [--out FILE]`) in the manner of
//! Browne's Ludi and the Ludii metrics, with 95% intervals, per (ruleset, pairing) cell
//! of a games CSV (as written by `play`, `survey` and `eval --games-out`). Every game is
//! replayed from its `moves` column, so the metrics that need the positions (branching
//! factor, lead changes, drama) come from the recorded games without playing them again.
//!
//! A cell is a ruleset label with an unordered pair of agent specs (the two colours of a
//! pairing played with `swap` are one cell), in order of first appearance in the file;
//! its label is `A vs B` with `A` the White agent of the cell's lowest-numbered game,
//! which for a survey's games.csv is the survey's own pairing label. Columns: see
//! [`metric_columns`] and `experiments/README.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::{ArenaError, Result, ResultExt as _};
use latrunculi_rules::{Color, Position, Reason, Ruleset, RulesetError, RulesetSpec, parse_move};
use rayon::prelude::*;

use crate::game::GameRow;
use crate::io::write_atomic;
use crate::stats::{Z95, median, nearest_rank, wilson};
use crate::survey::csv_field;

/// What one replayed game contributes to its cell's metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct GameStats {
    /// Plies played.
    pub plies: u32,
    /// `Some(colour)` of the winner, `None` for a draw.
    pub winner: Option<Color>,
    /// The ruleset's first player.
    pub first_player: Color,
    /// The result reason.
    pub reason: Reason,
    /// Enemy pieces removed by both sides.
    pub captures: u32,
    /// Mean number of legal plies over the positions in which a ply was chosen.
    pub branching: f64,
    /// Times the material leader (pieces on the board plus in hand) changed hands: a
    /// ply after which one side leads, when the last side to lead was the other.
    pub lead_changes: u32,
    /// The eventual winner trailed in material after some ply (`None` for a draw).
    pub winner_trailed: Option<bool>,
}

/// Replays `row` (which must be a game of `rs`) and measures it.
pub fn game_stats(rs: &Ruleset, row: &GameRow) -> Result<GameStats> {
    let mut pos = Position::new(rs);
    pos.set_ply_cap(u32::MAX);
    let material = |p: &Position, c: Color| {
        let (s, d) = p.in_hand(c);
        p.pieces_on_board(c) as i64 + s as i64 + d as i64
    };
    let lead = |p: &Position| (material(p, Color::White) - material(p, Color::Black)).signum();
    let mut legal = Vec::new();
    let (mut branching, mut plies) = (0u64, 0u32);
    let (mut captures, mut lead_changes) = (0u32, 0u32);
    let mut last_leader = 0i64;
    let mut trailed = [false; 2];
    for token in row.moves.split_whitespace() {
        pos.legal_moves(&mut legal);
        branching += legal.len() as u64;
        let pm =
            parse_move(rs, &pos, token).map_err(|e| ArenaError::Game(format!("ply {} ({token}): {e}", plies + 1)))?;
        captures += pos.play(pm.mv).captured().len() as u32;
        plies += 1;
        let l = lead(&pos);
        if l != 0 {
            if last_leader != 0 && l != last_leader {
                lead_changes += 1;
            }
            last_leader = l;
            trailed[if l > 0 { Color::Black.index() } else { Color::White.index() }] = true;
        }
    }
    if plies != row.plies {
        return Err(ArenaError::Game(format!("the moves column has {plies} plies, the plies column {}", row.plies)));
    }
    let winner = match row.winner.as_str() {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        "draw" => None,
        w => return Err(ArenaError::Game(format!("winner '{w}' is not white, black or draw"))),
    };
    let reason: Reason = row.reason.parse().map_err(|e: String| ArenaError::Game(e))?;
    Ok(GameStats {
        plies,
        winner,
        first_player: rs.first_player,
        reason,
        captures,
        branching: if plies == 0 { 0.0 } else { branching as f64 / plies as f64 },
        lead_changes,
        winner_trailed: winner.map(|w| trailed[w.index()]),
    })
}

/// The mean of `xs` with a normal-approximation 95% interval `mean ± 1.96·s/√n` (`s` the
/// sample standard deviation); the interval is `(NaN, NaN)` below two values.
pub fn mean_interval(xs: &[f64]) -> (f64, f64, f64) {
    let n = xs.len() as f64;
    if xs.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = Z95 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

/// `|2p − 1|` and its interval from an interval `(lo, hi)` of `p`.
fn imbalance(p: f64, lo: f64, hi: f64) -> (f64, f64, f64) {
    let f = |x: f64| (2.0 * x - 1.0).abs();
    let (a, b) = (f(lo), f(hi));
    let low = if lo <= 0.5 && hi >= 0.5 { 0.0 } else { a.min(b) };
    (f(p), low, a.max(b))
}

/// The columns of metrics.csv, in order.
pub fn metric_columns() -> Vec<String> {
    let mut cols: Vec<String> = ["ruleset", "pairing", "games"].iter().map(|s| s.to_string()).collect();
    for m in [
        "decisive",
        "draw",
        "timeout",
        "white_score",
        "imbalance",
        "first_player_advantage",
        "plies",
        "branching",
        "captures",
        "lead_changes",
        "drama",
    ] {
        cols.extend([m.to_string(), format!("{m}_lo"), format!("{m}_hi")]);
    }
    cols.extend(["median_plies", "p90_plies"].iter().map(|s| s.to_string()));
    cols.extend(Reason::ALL.iter().map(|r| format!("reason_{}", r.name().replace('-', "_"))));
    cols
}

/// One metrics.csv line (no newline) for a cell's games.
pub fn cell_line(ruleset: &str, pairing: &str, games: &[GameStats]) -> String {
    let n = games.len() as u64;
    let count = |f: &dyn Fn(&GameStats) -> bool| games.iter().filter(|g| f(g)).count() as f64;
    let prop = |k: f64| {
        let (lo, hi) = wilson(k, n, Z95);
        [if n == 0 { f64::NAN } else { k / n as f64 }, lo, hi]
    };
    let decisive = count(&|g| g.winner.is_some());
    let white = count(&|g| g.winner == Some(Color::White)) + (n as f64 - decisive) / 2.0;
    let first = games.iter().map(|g| match g.winner {
        None => 0.5,
        Some(w) if w == g.first_player => 1.0,
        Some(_) => 0.0,
    });
    let first_score: f64 = first.sum();
    let ws = prop(white);
    let fs = prop(first_score);
    let im = imbalance(ws[0], ws[1], ws[2]);
    let means = |f: &dyn Fn(&GameStats) -> f64| {
        let (m, lo, hi) = mean_interval(&games.iter().map(f).collect::<Vec<_>>());
        [m, lo, hi]
    };
    let decided: Vec<&GameStats> = games.iter().filter(|g| g.winner.is_some()).collect();
    let drama_k = decided.iter().filter(|g| g.winner_trailed == Some(true)).count() as f64;
    let (dlo, dhi) = wilson(drama_k, decided.len() as u64, Z95);
    let drama = [if decided.is_empty() { f64::NAN } else { drama_k / decided.len() as f64 }, dlo, dhi];
    let mut plies: Vec<u32> = games.iter().map(|g| g.plies).collect();
    plies.sort_unstable();
    let mut fields = vec![csv_field(ruleset), csv_field(pairing), n.to_string()];
    let groups: [[f64; 3]; 11] = [
        prop(decisive),
        prop(n as f64 - decisive),
        prop(count(&|g| g.reason == Reason::PlyCap)),
        ws,
        [im.0, im.1, im.2],
        [fs[0] - 0.5, fs[1] - 0.5, fs[2] - 0.5],
        means(&|g| g.plies as f64),
        means(&|g| g.branching),
        means(&|g| g.captures as f64),
        means(&|g| g.lead_changes as f64),
        drama,
    ];
    for g in groups {
        fields.extend(g.iter().map(|&x| if x.is_nan() { String::new() } else { format!("{x:.4}") }));
    }
    fields.push(format!("{:.1}", median(&plies)));
    fields.push(nearest_rank(&plies, 0.9).to_string());
    for r in Reason::ALL {
        fields.push(games.iter().filter(|g| g.reason == r).count().to_string());
    }
    fields.join(",")
}

/// The metrics.csv text (header included) of the games in `rows`: rulesets resolved by
/// label ([`RulesetSpec`]: `id`, `id@WxH`, `+key=value` changes; files in
/// `rules_dir` first) and checked against each row's
/// `params_hash`.
pub fn metrics_csv(rows: &[GameRow], rules_dir: &Path, source: &Path) -> Result<String> {
    // Cells in order of first appearance.
    let mut order: Vec<(String, [String; 2])> = Vec::new();
    let mut members: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut rulesets: BTreeMap<String, Ruleset> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let at = || format!("{}: line {} (game {})", source.display(), i + 2, row.game);
        if !rulesets.contains_key(&row.ruleset) {
            let spec: RulesetSpec = row.ruleset.parse().map_err(RulesetError::from).context_with(at)?;
            let rs = spec.resolve(Some(rules_dir)).context_with(at)?;
            rulesets.insert(row.ruleset.clone(), rs);
        }
        let hash = format!("{:016x}", rulesets[&row.ruleset].params_hash());
        if row.params_hash != hash {
            return Err(ArenaError::Game(format!(
                "{}: params_hash {} is not that of ruleset '{}' here ({hash}): the rules changed since the game was played",
                at(),
                row.params_hash,
                row.ruleset
            )));
        }
        let mut pair = [row.white.clone(), row.black.clone()];
        pair.sort();
        let key = (row.ruleset.clone(), pair);
        let c = match order.iter().position(|k| *k == key) {
            Some(c) => c,
            None => {
                order.push(key);
                order.len() - 1
            }
        };
        members.entry(c).or_default().push(i);
    }
    let stats: Vec<GameStats> = rows
        .par_iter()
        .enumerate()
        .map(|(i, row)| {
            game_stats(&rulesets[&row.ruleset], row)
                .context_with(|| format!("{}: line {} (game {})", source.display(), i + 2, row.game))
        })
        .collect::<Result<_>>()?;
    let mut text = metric_columns().join(",") + "\n";
    for (c, (ruleset, _)) in order.iter().enumerate() {
        let idx = &members[&c];
        let first = idx.iter().min_by_key(|&&i| rows[i].game).map(|&i| &rows[i]).expect("a cell has a game");
        let label = format!("{} vs {}", first.white, first.black);
        let games: Vec<GameStats> = idx.iter().map(|&i| stats[i].clone()).collect();
        text += &cell_line(ruleset, &label, &games);
        text.push('\n');
    }
    Ok(text)
}

/// Reads the games CSV `games`, computes its metrics ([`metrics_csv`], rulesets from
/// `rules_dir` first) and writes them to `out` (default: `metrics.csv` beside the games
/// file). Returns the number of games, the number of cells and the path written.
pub fn write_metrics(games: &Path, out: Option<&Path>, rules_dir: &Path) -> Result<(usize, usize, PathBuf)> {
    let rows = crate::io::games::read(games)?;
    if rows.is_empty() {
        return Err(ArenaError::content(games, None, "has no games"));
    }
    let text = metrics_csv(&rows, rules_dir, games)?;
    let out = out.map(Path::to_path_buf).unwrap_or_else(|| games.with_file_name("metrics.csv"));
    write_atomic(&out, text.as_bytes())?;
    Ok((rows.len(), text.lines().count() - 1, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(winner: Option<Color>, plies: u32, trailed: bool) -> GameStats {
        GameStats {
            plies,
            winner,
            first_player: Color::White,
            reason: if winner.is_some() { Reason::Bare } else { Reason::PlyCap },
            captures: 2,
            branching: 10.0,
            lead_changes: 1,
            winner_trailed: winner.map(|_| trailed),
        }
    }

    #[test]
    fn mean_interval_is_the_normal_one() {
        let (m, lo, hi) = mean_interval(&[1.0, 2.0, 3.0, 4.0]);
        // s = 1.29099, s/√4 = 0.645497, ×1.96 = 1.265174.
        assert!((m - 2.5).abs() < 1e-12 && (lo - 1.234826).abs() < 1e-5 && (hi - 3.765174).abs() < 1e-5);
        assert!(mean_interval(&[5.0]).1.is_nan());
    }

    #[test]
    fn imbalance_interval_folds_at_one_half() {
        assert_eq!(imbalance(0.5, 0.4, 0.6), (0.0, 0.0, 0.19999999999999996));
        let (v, lo, hi) = imbalance(0.8, 0.7, 0.9);
        assert!((v - 0.6).abs() < 1e-12 && (lo - 0.4).abs() < 1e-12 && (hi - 0.8).abs() < 1e-12);
        let (v, lo, hi) = imbalance(0.2, 0.1, 0.3);
        assert!((v - 0.6).abs() < 1e-12 && (lo - 0.4).abs() < 1e-12 && (hi - 0.8).abs() < 1e-12);
    }

    #[test]
    fn cell_line_counts_what_it_says() {
        let games = [
            stats(Some(Color::White), 10, true),
            stats(Some(Color::White), 20, false),
            stats(Some(Color::Black), 30, false),
            stats(None, 40, false),
        ];
        let line = cell_line("kowalski", "a vs b", &games);
        let cols = metric_columns();
        let f: Vec<&str> = line.split(',').collect();
        assert_eq!(f.len(), cols.len());
        let get = |name: &str| f[cols.iter().position(|c| c == name).unwrap()];
        assert_eq!(get("games"), "4");
        assert_eq!(get("decisive"), "0.7500");
        assert_eq!(get("draw"), "0.2500");
        assert_eq!(get("timeout"), "0.2500");
        // White: 2 wins + half a draw of 4 = 0.625; first player (White) the same.
        assert_eq!(get("white_score"), "0.6250");
        assert_eq!(get("first_player_advantage"), "0.1250");
        assert_eq!(get("imbalance"), "0.2500");
        assert_eq!(get("plies"), "25.0000");
        assert_eq!(get("median_plies"), "25.0");
        assert_eq!(get("p90_plies"), "40");
        // One of the three winners had trailed.
        assert_eq!(get("drama"), "0.3333");
        assert_eq!(get("reason_ply_cap"), "1");
        assert_eq!(get("reason_bare"), "3");
    }
}

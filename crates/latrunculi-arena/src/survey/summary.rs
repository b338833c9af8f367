//! Per-cell statistics of a survey (`summary.csv`).

use latrunculi_rules::Reason;

use crate::error::{ArenaError, Result};
use crate::game::GameRow;
use crate::stats::{Z95, median, nearest_rank, wilson};

/// The name of a survey's per-cell statistics in its folder.
pub const SUMMARY_FILE: &str = "summary.csv";

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
    pub fn new(ruleset: String, pairing: String, rows: &[&GameRow]) -> Result<CellSummary> {
        let count = |w: &str| rows.iter().filter(|r| r.winner == w).count();
        let mut plies: Vec<u32> = rows.iter().map(|r| r.plies).collect();
        plies.sort_unstable();
        let mut reasons = [0usize; 9];
        for r in rows {
            let reason: Reason =
                r.reason.parse().map_err(|e: String| ArenaError::Game(format!("game {}: {e}", r.game)))?;
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

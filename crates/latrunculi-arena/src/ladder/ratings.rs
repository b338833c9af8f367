//! A ladder's ratings: the maximum-likelihood fit, `ratings.csv` and `ratings.svg`.

use std::fmt::Write as _;

use crate::elo::{PairResult, Wdl, fit_ratings};
use crate::error::{ArenaError, Result};
use crate::eval::{PairingSummary, num};
use crate::stats::Z95;

/// The name of a ladder's ratings in its folder.
pub const RATINGS_FILE: &str = "ratings.csv";

/// The name of a ladder's plot of the ratings in its folder.
pub const RATINGS_PLOT_FILE: &str = "ratings.svg";

/// The columns of ratings.csv, in order.
pub const RATING_COLUMNS: [&str; 11] =
    ["rank", "agent", "elo", "elo_lo", "elo_hi", "std_err", "games", "wins", "draws", "losses", "score"];

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
) -> Result<Vec<RatingRow>> {
    let results: Vec<PairResult> = pairings
        .iter()
        .map(|(a, b, s)| PairResult { a: *a, b: *b, games: s.wdl.games() as f64, points: s.wdl.points() })
        .collect();
    let fit = fit_ratings(agents.len(), anchor, &results, prior_draws).map_err(|e| match e {
        crate::elo::FitError::Disconnected(i) => ArenaError::Unrated { agent: agents[i].clone(), source: e },
        e => ArenaError::Fit(e),
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
pub fn ratings_csv(rows: &[RatingRow]) -> Result<String> {
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
    let bytes = w.into_inner().map_err(|e| ArenaError::Game(format!("cannot write ratings: {e}")))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
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

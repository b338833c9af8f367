//! `train_log.csv`: one row per finished iteration, defined once as [`LogRow`] (its
//! fields are the columns, in order; documented in `experiments/README.md`).

use std::fs;
use std::io::Write as _;
use std::path::Path;

use latrunculi_files::write_atomic;
use serde::{Deserialize, Serialize, Serializer};

use crate::AzError;

/// The name of the training log in a run's folder.
pub const LOG_FILE: &str = "train_log.csv";

/// Columns of `train_log.csv`: the fields of [`LogRow`].
pub const LOG_HEADER: &str = "iteration,games,samples,buffer_samples,policy_loss,value_loss,policy_entropy,mean_plies,white_rate,black_rate,draw_rate,score_random,score_mcts100,selfplay_positions_per_s,selfplay_evals_per_s,elapsed_s,steps";

/// A number with 4 decimals; empty when missing or not finite.
fn four<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) if v.is_finite() => s.serialize_str(&format!("{v:.4}")),
        _ => s.serialize_str(""),
    }
}

/// A number with 1 decimal; empty when missing.
fn one<S: Serializer>(x: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
    match x {
        Some(v) => s.serialize_str(&format!("{v:.1}")),
        None => s.serialize_str(""),
    }
}

/// One row of `train_log.csv`: one finished iteration (iteration 0: the warm start).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    /// The iteration.
    pub iteration: u32,
    /// Self-play games so far.
    pub games: u64,
    /// Training samples made so far.
    pub samples: u64,
    /// Samples in the replay buffer.
    pub buffer_samples: u64,
    /// Mean policy loss of the iteration's steps.
    #[serde(serialize_with = "four")]
    pub policy_loss: Option<f64>,
    /// Mean value loss.
    #[serde(serialize_with = "four")]
    pub value_loss: Option<f64>,
    /// Mean entropy of the network's policy.
    #[serde(serialize_with = "four")]
    pub policy_entropy: Option<f64>,
    /// Mean plies of the iteration's games.
    #[serde(serialize_with = "four")]
    pub mean_plies: Option<f64>,
    /// Share of games White won.
    #[serde(serialize_with = "four")]
    pub white_rate: Option<f64>,
    /// Share of games Black won.
    #[serde(serialize_with = "four")]
    pub black_rate: Option<f64>,
    /// Share of drawn games.
    #[serde(serialize_with = "four")]
    pub draw_rate: Option<f64>,
    /// The network's score against `random` (when the match was played).
    #[serde(serialize_with = "four")]
    pub score_random: Option<f64>,
    /// The network's score against `mcts:sims=100`.
    #[serde(serialize_with = "four")]
    pub score_mcts100: Option<f64>,
    /// Self-play positions per second.
    #[serde(serialize_with = "one")]
    pub selfplay_positions_per_s: Option<f64>,
    /// Network evaluations per second in self-play.
    #[serde(serialize_with = "one")]
    pub selfplay_evals_per_s: Option<f64>,
    /// Seconds of the run so far.
    #[serde(serialize_with = "one")]
    pub elapsed_s: Option<f64>,
    /// Gradient steps of the iteration (of the warm start in row 0); empty in the rows
    /// of logs written before the column was added (2026-11-29), which a resumed run keeps.
    #[serde(default)]
    pub steps: Option<u64>,
}

impl LogRow {
    /// The row as a CSV line, newline included.
    pub fn to_line(&self) -> Result<String, csv::Error> {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .terminator(csv::Terminator::Any(b'\n'))
            .from_writer(Vec::new());
        w.serialize(self)?;
        let bytes = w.into_inner().map_err(|e| e.into_error())?;
        Ok(String::from_utf8_lossy(&bytes).into_owned())
    }

    /// Reads a CSV line (no header), `None` if it is not a whole row.
    pub fn from_line(line: &str) -> Option<LogRow> {
        csv::ReaderBuilder::new().has_headers(false).from_reader(line.as_bytes()).deserialize().next()?.ok()
    }

    /// Appends the row to the log at `path` and syncs it.
    pub fn append(&self, path: &Path) -> Result<(), AzError> {
        let line = self.to_line().map_err(|e| AzError::file(path, e))?;
        let mut f = fs::OpenOptions::new().append(true).open(path).map_err(|e| AzError::io(path, "cannot open", e))?;
        f.write_all(line.as_bytes()).and_then(|_| f.sync_all()).map_err(|e| AzError::io(path, "cannot write", e))
    }
}

/// Keeps the header and the whole rows of iterations `<= last` of `train_log.csv` (a
/// crash may have cut the last row short), written again as rows of today's columns (a
/// log of older columns gets the new ones, empty).
pub fn truncate_log(path: &Path, last: u32) -> Result<(), AzError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(AzError::io(path, "cannot read", e)),
    };
    let mut out = String::from(LOG_HEADER);
    out.push('\n');
    for line in text.lines().skip(1) {
        if let Some(row) = LogRow::from_line(line).filter(|row| row.iteration <= last) {
            out.push_str(&row.to_line().map_err(|e| AzError::file(path, e))?);
        }
    }
    write_atomic(path, out.as_bytes()).map_err(|e| AzError::io(path, "cannot write", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_the_fields_of_a_row() {
        let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
        w.serialize(LogRow::default()).unwrap();
        let text = String::from_utf8(w.into_inner().unwrap()).unwrap();
        assert_eq!(text.lines().next(), Some(LOG_HEADER));
    }

    #[test]
    fn rows_are_written_as_before_and_read_back() {
        let row = LogRow {
            iteration: 3,
            games: 24,
            samples: 900,
            buffer_samples: 800,
            policy_loss: Some(2.5),
            value_loss: Some(0.123456),
            policy_entropy: Some(1.0),
            mean_plies: Some(37.5),
            white_rate: Some(0.5),
            black_rate: Some(0.25),
            draw_rate: Some(0.25),
            score_random: Some(f64::NAN),
            score_mcts100: None,
            selfplay_positions_per_s: Some(1234.56),
            selfplay_evals_per_s: Some(99.0),
            elapsed_s: Some(12.34),
            steps: Some(200),
        };
        let line = row.to_line().unwrap();
        assert_eq!(line, "3,24,900,800,2.5000,0.1235,1.0000,37.5000,0.5000,0.2500,0.2500,,,1234.6,99.0,12.3,200\n");
        let back = LogRow::from_line(line.trim_end()).unwrap();
        assert_eq!((back.iteration, back.score_random, back.elapsed_s, back.steps), (3, None, Some(12.3), Some(200)));
        assert!(LogRow::from_line("3,24,900").is_none(), "a row cut short is no row");
    }

    #[test]
    fn truncating_keeps_whole_rows_up_to_the_iteration() {
        let path = std::env::temp_dir().join(format!("latrunculi-train-log-{}.csv", std::process::id()));
        let rows = "1,8,100,100,1.0000,1.0000,1.0000,10.0000,0.5000,0.5000,0.0000,,,1.0,1.0,1.0,200\n\
                    2,16,200,200,1.0000,1.0000,1.0000,10.0000,0.5000,0.5000,0.0000,,,1.0,1.0,2.0,200\n\
                    3,24,300,300,1.0000,1.0000,1.0000,10.0000,0.5000,0.5000,0.0000,,,1.0,1.0,3.0,200\n\
                    4,32,400";
        fs::write(&path, format!("{LOG_HEADER}\n{rows}")).unwrap();
        truncate_log(&path, 2).unwrap();
        let kept = fs::read_to_string(&path).unwrap();
        assert_eq!(kept.lines().count(), 3);
        assert!(kept.ends_with(",2.0,200\n"), "{kept}");
        fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_log_without_the_steps_column_is_kept_with_it_empty() {
        let path = std::env::temp_dir().join(format!("latrunculi-train-log-old-{}.csv", std::process::id()));
        let old_header = LOG_HEADER.strip_suffix(",steps").unwrap();
        let rows = "0,649,178622,178622,3.9037,0.1125,3.9057,275.2265,0.3775,0.4438,0.1787,,,,,617.7\n\
                    1,697,187181,187181,3.8313,0.1022,3.8333,178.3125,0.6250,0.3333,0.0417,,,42.8,1601.7,881.3\n";
        fs::write(&path, format!("{old_header}\n{rows}")).unwrap();
        truncate_log(&path, 1).unwrap();
        let kept = fs::read_to_string(&path).unwrap();
        let mut lines = kept.lines();
        assert_eq!(lines.next(), Some(LOG_HEADER));
        assert_eq!(
            lines.next(),
            Some("0,649,178622,178622,3.9037,0.1125,3.9057,275.2265,0.3775,0.4438,0.1787,,,,,617.7,")
        );
        assert_eq!(
            lines.next(),
            Some("1,697,187181,187181,3.8313,0.1022,3.8333,178.3125,0.6250,0.3333,0.0417,,,42.8,1601.7,881.3,")
        );
        assert_eq!(lines.next(), None);
        fs::remove_file(&path).unwrap();
    }
}

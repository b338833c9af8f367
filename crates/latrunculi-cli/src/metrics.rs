//! `latrunculi metrics --games FILE [--out FILE]`: game-design metrics with 95%
//! intervals per cell of a games CSV ([`latrunculi_arena::metrics`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::metrics::write_metrics;

/// Arguments of `latrunculi metrics`.
#[derive(clap::Args, Debug)]
pub struct MetricsArgs {
    /// A games CSV (`survey`'s games.csv, `play --out`, `eval --games-out`).
    #[arg(long)]
    pub games: PathBuf,
    /// Output CSV (default: `metrics.csv` beside the games file).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory of ruleset files consulted before the built-in ones.
    #[arg(long, default_value = "configs/rulesets")]
    pub rules_dir: PathBuf,
}

/// Runs `latrunculi metrics`.
pub fn run(args: &MetricsArgs) -> anyhow::Result<ExitCode> {
    let (games, cells, out) = write_metrics(&args.games, args.out.as_deref(), &args.rules_dir)?;
    eprintln!("{games} games, {cells} cells -> {}", out.display());
    Ok(ExitCode::SUCCESS)
}

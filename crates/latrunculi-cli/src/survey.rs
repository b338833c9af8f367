//! `latrunculi survey --config experiments/NAME.toml [--out DIR]`: every (ruleset,
//! pairing) cell of an experiment file, resumable, sharded or merged; the experiment
//! file, the outputs and the resumption are described in [`latrunculi_arena::survey`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use latrunculi_arena::stats::{Z95, wilson};
use latrunculi_arena::survey::{Survey, merge_shards, parse_shard, run_survey};

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
    /// Play only shard K of N (`K/N`, 1 ≤ K ≤ N): the cells whose index is K-1 modulo N.
    #[arg(long, value_parser = parse_shard)]
    pub shard: Option<(u32, u32)>,
    /// Merge the output folders of all shards of this survey into `--out` (plays nothing).
    #[arg(long, num_args = 1.., conflicts_with = "shard")]
    pub merge: Vec<PathBuf>,
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
    let summaries = if args.merge.is_empty() {
        run_survey(&survey, &config_text, &dir, args.shard)?
    } else {
        merge_shards(&survey, &config_text, &dir, &args.merge)?
    };
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

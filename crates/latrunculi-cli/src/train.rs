//! `latrunculi train`: AlphaZero training runs (see `latrunculi_az::train`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use latrunculi_az::train::{RunOptions, run};

/// Arguments of `latrunculi train`.
#[derive(clap::Args, Debug)]
pub struct TrainArgs {
    /// Training configuration (e.g. configs/train/smoke.toml).
    #[arg(long)]
    pub config: PathBuf,
    /// Run folder: checkpoints, train_log.csv, the config used [default: runs/<config name>].
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue the stopped run in the folder from its last finished iteration.
    #[arg(long)]
    pub resume: bool,
    /// Folder of extra ruleset TOMLs.
    #[arg(long, default_value = "configs/rulesets")]
    pub rules_dir: PathBuf,
    /// No progress bars or per-iteration lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `latrunculi train`.
pub fn run_train(args: &TrainArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&args.config).with_context(|| format!("{}", args.config.display()))?;
    let out = match &args.out {
        Some(o) => o.clone(),
        None => {
            let stem = args.config.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or("run".into());
            PathBuf::from("runs").join(stem)
        }
    };
    let opts = RunOptions {
        resume: args.resume,
        rules_dir: args.rules_dir.is_dir().then(|| args.rules_dir.clone()),
        quiet: args.quiet,
    };
    let state = run(&text, &args.config.display().to_string(), &out, &opts)?;
    eprintln!(
        "{}: {} iterations, {} games (self-play and warm-start datasets), {:.0} s; latest network: {}",
        out.display(),
        state.iteration,
        state.games,
        state.elapsed_s,
        out.join("latest.az").display()
    );
    Ok(ExitCode::SUCCESS)
}

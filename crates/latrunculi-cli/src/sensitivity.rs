//! `latrunculi sensitivity --rulesets ID,... --out FILE.toml`: writes the experiment file of
//! a rule-sensitivity study ([`latrunculi_arena::sensitivity`]); run it with
//! `latrunculi survey`.

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::io::write_atomic;
use latrunculi_arena::sensitivity::{SensitivityStudy, experiment};

/// Arguments of `latrunculi sensitivity`.
#[derive(clap::Args, Debug)]
pub struct SensitivityArgs {
    /// Ruleset ids, comma-separated (their files in `--rules-dir`, or the built-in ones).
    #[arg(long, value_delimiter = ',', required = true)]
    pub rulesets: Vec<String>,
    /// The agent pairing every variant is played with, `first,second`.
    #[arg(long, value_delimiter = ',', num_args = 2, default_values_t = ["alphabeta:depth=2".to_string(), "alphabeta:depth=2".to_string()])]
    pub pairing: Vec<String>,
    /// Games per variant at most (the cap of adaptive cells).
    #[arg(long, default_value_t = 400)]
    pub games: u32,
    /// Games every variant plays first; more in rounds of as many until the draw rate's
    /// 95% interval is ±0.05 wide (0: always `--games`).
    #[arg(long, default_value_t = 100)]
    pub min_games: u32,
    /// Hard ply cap of the games.
    #[arg(long, default_value_t = latrunculi_rules::DEFAULT_PLY_CAP)]
    pub ply_cap: u32,
    /// The experiment file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Directory of ruleset files consulted before the built-in ones.
    #[arg(long, default_value = "configs/rulesets")]
    pub rules_dir: PathBuf,
}

/// Runs `latrunculi sensitivity`.
pub fn run(args: &SensitivityArgs) -> anyhow::Result<ExitCode> {
    let study = SensitivityStudy {
        rulesets: args.rulesets.clone(),
        pairing: [args.pairing[0].clone(), args.pairing[1].clone()],
        games: args.games,
        min_games: args.min_games,
        ply_cap: args.ply_cap,
        out: args.out.clone(),
        rules_dir: args.rules_dir.clone(),
    };
    let text = experiment(&study)?;
    let variants = text.lines().filter(|l| l.trim_start().starts_with('"')).count();
    write_atomic(&args.out, text.as_bytes())?;
    eprintln!("{variants} rulesets and variants -> {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

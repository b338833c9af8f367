//! `latrunculi ladder`: a round robin between many agents and their maximum-likelihood
//! Elo ratings, anchored at `random` = 0 ([`latrunculi_arena::ladder`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::ladder::{LadderMode, LadderPlan, merge_ladder, run_ladder};
use latrunculi_arena::stats::Z95;
use latrunculi_arena::survey::parse_shard;

use crate::RulesetArg;

/// Arguments of `latrunculi ladder`.
#[derive(clap::Args, Debug)]
pub struct LadderArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Text file with one agent spec per line (`#` starts a comment; blank lines are skipped).
    #[arg(long)]
    pub agents: PathBuf,
    /// Games per pairing, colours alternated.
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// Base seed; game g of every pairing gets a seed derived from it and g.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hard ply cap: a game still running after this many plies is a draw.
    #[arg(long, default_value_t = latrunculi_rules::DEFAULT_PLY_CAP)]
    pub ply_cap: u32,
    /// Output folder: games.csv, pairings.csv, ratings.csv, ratings.svg.
    #[arg(long)]
    pub out: PathBuf,
    /// Virtual drawn games added to every pairing before fitting (0 = pure maximum
    /// likelihood, which has no solution when an agent won or lost all its games).
    #[arg(long, default_value_t = 1.0)]
    pub prior_draws: f64,
    /// The agent rated 0 (must be one of the listed agents).
    #[arg(long, default_value = "random")]
    pub anchor: String,
    /// Replace existing output files.
    #[arg(long)]
    pub force: bool,
    /// Continue an interrupted ladder in the same folder: the pairings already in
    /// `pairings.csv` (checked against the agents file, `--games` and `--seed`) and their
    /// games in `games.csv` are kept, and the finished games of the pairing in progress
    /// (`pending.csv`); the others are played. The files end as an uninterrupted run
    /// writes them.
    #[arg(long, conflicts_with_all = ["force", "rate_only"])]
    pub resume: bool,
    /// Play nothing: refit ratings.csv and ratings.svg from the folder's pairings.csv
    /// (e.g. with another `--prior-draws` or `--anchor`).
    #[arg(long)]
    pub rate_only: bool,
    /// Play only shard K of N (`K/N`, 1 ≤ K ≤ N): the pairings whose index in play order
    /// is K-1 modulo N, into a folder of its own (no ratings; `--resume` continues it).
    #[arg(long, value_parser = parse_shard, conflicts_with = "rate_only")]
    pub shard: Option<(u32, u32)>,
    /// Merge the finished folders of all shards of this ladder into `--out` (plays
    /// nothing): the files of one unsharded run, byte for byte, and the ratings.
    #[arg(long, num_args = 1.., conflicts_with_all = ["shard", "resume", "rate_only"])]
    pub merge: Vec<PathBuf>,
}

/// Runs `latrunculi ladder`.
pub fn run(args: &LadderArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    let mut plan = LadderPlan::new(
        players,
        &args.ruleset.choice(),
        &args.agents,
        args.games,
        args.seed,
        args.ply_cap,
        args.prior_draws,
        &args.anchor,
    )?;
    plan.shard = args.shard;
    let mode = if args.rate_only {
        LadderMode::RateOnly
    } else if args.resume {
        LadderMode::Resume
    } else {
        LadderMode::Fresh { force: args.force }
    };
    let rows = if args.merge.is_empty() {
        run_ladder(&plan, &args.out, mode)?
    } else {
        merge_ladder(&plan, &args.out, &args.merge, args.force)?
    };
    if let Some((k, n)) = args.shard {
        println!(
            "shard {k}/{n}: {} pairings -> {}; merge all {n} shards with --merge to rate them",
            plan.pairs().len(),
            args.out.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    println!("{:>4}  {:>8}  {:>17}  agent", "rank", "elo", "95% interval");
    for (k, r) in rows.iter().enumerate() {
        println!(
            "{:>4}  {:>8.1}  [{:>7.1}, {:>7.1}]  {}",
            k + 1,
            r.elo,
            r.elo - Z95 * r.std_err,
            r.elo + Z95 * r.std_err,
            r.agent
        );
    }
    println!("-> {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

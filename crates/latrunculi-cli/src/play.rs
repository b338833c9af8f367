//! `latrunculi play`: games between two agents, one CSV row per game, played in parallel
//! ([`latrunculi_arena::game`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::agents::spec_for;
use latrunculi_arena::game::{play_games, tally, write_games_csv};

use crate::RulesetArg;

/// Arguments of `latrunculi play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Agent playing White, e.g. `random`, `greedy`, `mcts:sims=200`, `alphabeta:depth=2`.
    #[arg(long)]
    pub white: String,
    /// Agent playing Black.
    #[arg(long)]
    pub black: String,
    /// Number of games.
    #[arg(long, default_value_t = 1)]
    pub games: u32,
    /// Base seed; game i gets a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output CSV file (one row per game).
    #[arg(long)]
    pub out: PathBuf,
    /// Alternate colours: odd-numbered games (1, 3, …; 0-based) swap the two specs.
    #[arg(long)]
    pub swap: bool,
    /// Hard ply cap: a game still running after this many plies is a draw (`ply-cap`).
    #[arg(long, default_value_t = latrunculi_rules::DEFAULT_PLY_CAP)]
    pub ply_cap: u32,
}

/// Runs `latrunculi play`.
pub fn run(args: &PlayArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    let choice = args.ruleset.choice();
    let rs = choice.load()?;
    let label = choice.label(&rs)?;
    let a = spec_for(players, &args.white, &rs)?;
    let b = spec_for(players, &args.black, &rs)?;
    if args.ply_cap == 0 {
        anyhow::bail!("--ply-cap must be at least 1");
    }
    let rows = play_games(&rs, &label, &a, &b, args.games, args.seed, args.swap, args.ply_cap)?;
    write_games_csv(&args.out, &rows)?;
    let (w, bl, d, mean) = tally(&rows);
    println!(
        "{} games of {label}: white wins {w}, black wins {bl}, draws {d}; mean plies {mean:.1} -> {}",
        rows.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

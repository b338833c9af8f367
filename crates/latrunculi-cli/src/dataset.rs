//! `latrunculi dataset`: games between two agents written as a training dataset
//! (`games.jsonl` and `.npy` arrays; schema in `data/README.md`), resumable
//! ([`latrunculi_arena::dataset`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::dataset::{DatasetOutcome, DatasetSpec, run_dataset};
use latrunculi_arena::game::tally;

use crate::RulesetArg;

/// Arguments of `latrunculi dataset`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatasetArgs {
    /// The ruleset and board (`--ruleset`, `--board`, `--rules-dir`).
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Agent playing White, e.g. `random`, `mcts:sims=200`, `az:model=PATH,sims=100`.
    #[arg(long)]
    pub white: String,
    /// Agent playing Black.
    #[arg(long)]
    pub black: String,
    /// Number of games (at least 1).
    #[arg(long)]
    pub games: u32,
    /// Output directory (created if missing; must not already hold games.jsonl).
    #[arg(long)]
    pub out: PathBuf,
    /// Base seed; game i gets a seed derived from it and i (as in `play`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Alternate colours: odd-numbered games (1, 3, …; 0-based) swap the two specs.
    #[arg(long)]
    pub swap: bool,
    /// Hard ply cap: a game still running after this many plies is a draw (`ply-cap`).
    #[arg(long, default_value_t = latrunculi_rules::DEFAULT_PLY_CAP)]
    pub ply_cap: u32,
    /// Leave out the three large arrays (observations, legal masks, policy targets; on a
    /// 12x8 board about 48 KB per position): enough for a warm start of `train`, which
    /// replays the games from `actions.npy`.
    #[arg(long)]
    pub light: bool,
    /// Continue an interrupted run in `--out`: the games in its `partial.jsonl` (written
    /// as each game finishes; checked against these arguments) are kept and the others
    /// played. The dataset is the one an uninterrupted run writes. On a finished dataset
    /// it does nothing, once that dataset's games, seed and ply cap are these arguments'.
    #[arg(long)]
    pub resume: bool,
}

impl DatasetArgs {
    /// The arguments as the library's [`DatasetSpec`].
    pub fn spec(&self) -> DatasetSpec {
        DatasetSpec {
            ruleset: self.ruleset.choice(),
            white: self.white.clone(),
            black: self.black.clone(),
            games: self.games,
            out: self.out.clone(),
            seed: self.seed,
            swap: self.swap,
            ply_cap: self.ply_cap,
            light: self.light,
            resume: self.resume,
        }
    }
}

/// Runs `latrunculi dataset`.
pub fn run(args: &DatasetArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    match run_dataset(&args.spec(), players)? {
        DatasetOutcome::Finished { games } => {
            println!("{} already holds the finished dataset ({games} games); nothing to do", args.out.display());
        }
        DatasetOutcome::Written { label, rows, samples } => {
            let (w, b, d, mean) = tally(&rows);
            println!(
                "{} games of {label}: white wins {w}, black wins {b}, draws {d}; mean plies {mean:.1}; {samples} samples -> {}",
                rows.len(),
                args.out.display()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

//! `latrunculi eval`: one agent against a list of opponents, with scores, Elo
//! differences and their 95% intervals per pairing, and an optional sequential test
//! ([`latrunculi_arena::eval`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::eval::{EvalPlan, num};

use crate::RulesetArg;

/// Arguments of `latrunculi eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// The agent under test, e.g. `az:model=run/latest.az,sims=200`.
    #[arg(long)]
    pub agent: String,
    /// Opponents: specs separated by commas (`greedy,mcts:sims=1000,alphabeta:depth=2`;
    /// a part without `:` that holds `=` continues the previous spec), or the option repeated.
    #[arg(long, required = true)]
    pub vs: Vec<String>,
    /// Games per pairing (the maximum, with `--sprt`).
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Base seed; game i of each pairing gets a seed derived from it and i.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Hard ply cap: a game still running after this many plies is a draw.
    #[arg(long, default_value_t = latrunculi_rules::DEFAULT_PLY_CAP)]
    pub ply_cap: u32,
    /// Output CSV: one row per pairing, rewritten after each pairing.
    #[arg(long)]
    pub out: PathBuf,
    /// Also write every game (the columns of `play`) to this CSV.
    #[arg(long)]
    pub games_out: Option<PathBuf>,
    /// Sequential test `ELO0,ELO1`: stop a pairing once H0 "the agent is ELO0 above the
    /// opponent" or H1 "it is ELO1 above" is accepted.
    #[arg(long)]
    pub sprt: Option<String>,
    /// SPRT type I error (accepting H1 when H0 holds).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error (accepting H0 when H1 holds).
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Replace existing output files.
    #[arg(long)]
    pub force: bool,
    /// Continue an interrupted evaluation: the games already in `--games-out` (checked
    /// against the agent, the opponents, `--seed` and `--ply-cap`) are kept and the
    /// others played; both files end as an uninterrupted run writes them.
    #[arg(long, conflicts_with = "force")]
    pub resume: bool,
}

/// Runs `latrunculi eval`.
pub fn run(args: &EvalArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    let plan = EvalPlan::new(
        players,
        &args.ruleset.choice(),
        &args.agent,
        &args.vs,
        args.games,
        args.seed,
        args.ply_cap,
        args.sprt.as_deref(),
        args.alpha,
        args.beta,
    )?;
    let games_out = args.games_out.as_deref();
    let resumed = plan.start(&args.out, games_out, args.force, args.resume)?;
    println!("{}: {}", plan.label, plan.agent);
    plan.play(&args.out, games_out, resumed, &mut |summary| {
        let (lo, hi) = summary.wdl.score_interval();
        let (elo_lo, elo_hi) = summary.wdl.elo_interval();
        println!(
            "  vs {}: {} games, +{} ={} -{}, score {:.3} [{lo:.3}, {hi:.3}], Elo {} [{}, {}], mean plies {:.1}{}",
            summary.opponent,
            summary.wdl.games(),
            summary.wdl.wins,
            summary.wdl.draws,
            summary.wdl.losses,
            summary.wdl.score(),
            num(summary.wdl.elo(), 0),
            num(elo_lo, 0),
            num(elo_hi, 0),
            summary.mean_plies,
            summary.sprt.map(|(d, l)| format!(", SPRT {} (LLR {l:.2})", d.name())).unwrap_or_default()
        );
    })?;
    println!("-> {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

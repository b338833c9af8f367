//! `latrunculi verdicts --games FILE... --out FILE [--dlp FILE]`: every game of the games
//! CSVs split by how it ended, per cell with 95% intervals, and a verdict per self-play
//! player and ruleset ([`latrunculi_arena::verdict`]).

use std::path::PathBuf;
use std::process::ExitCode;

use latrunculi_arena::verdict::table::write_verdicts;

/// The columns and the rule, for `--help`.
const AFTER_HELP: &str = "\
Cells: a ruleset label with an unordered pair of agent specs. In self-play the spec is a
player and a budget: the first of its options nodes, ms, sims, depth (alphabeta:nodes=10000
is player alphabeta at budget nodes=10000); a player's cells on a ruleset are its budgets.

How a game ended: won by play (immobilized, bare, annihilated, dux-captured, a stalemate or
repetition the rules make a loss); adjudicated (a win by piece count, reason material);
drawn (no-capture limit, level count, no legal ply, repetition, ply cap).

Verdict, on the row of a self-play player's largest budget: unsettled when the draw rate's
95% Wilson interval there and at the next largest budget do not overlap; otherwise, at the
largest budget, drawish when the interval's lower bound is above 0.5, decisive when its
upper bound is below 0.5, balanced when it holds 0.5. With one budget only the second
step applies (compared_with is empty).

Columns of verdicts.csv: ruleset, player, budget (empty: none), games; draw_rate, draw_lo,
draw_hi; won_by_play_rate, won_by_play_lo, won_by_play_hi; adjudicated_rate,
adjudicated_lo, adjudicated_hi (rates with 95% Wilson intervals); verdict, compared_with
(the budget the verdict compared with); dlp_draw_rate, dlp_trials (from --dlp, empty
elsewhere); draws, won_by_play, adjudicated (counts); draws_no_capture_limit,
draws_level_count, draws_no_moves, draws_repetition, draws_ply_cap (draws by kind).
See experiments/verdicts/README.md.";

/// Arguments of `latrunculi verdicts`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct VerdictsArgs {
    /// Games CSVs (`survey`'s games.csv, `eval --games-out`, `play --out`); a game may
    /// appear in only one of them, once.
    #[arg(long, required = true, num_args = 1..)]
    pub games: Vec<PathBuf>,
    /// Output CSV (verdicts.csv).
    #[arg(long)]
    pub out: PathBuf,
    /// The Digital Ludeme Project's figures: a CSV with columns ruleset, draws, trials
    /// (e.g. experiments/ludii/dlp.csv).
    #[arg(long)]
    pub dlp: Option<PathBuf>,
    /// Directory of ruleset files consulted before the built-in ones.
    #[arg(long, default_value = latrunculi_rules::DEFAULT_RULES_DIR)]
    pub rules_dir: PathBuf,
}

/// Runs `latrunculi verdicts`.
pub fn run(args: &VerdictsArgs) -> anyhow::Result<ExitCode> {
    let rows = write_verdicts(&args.games, args.dlp.as_deref(), &args.rules_dir, &args.out)?;
    let width = |f: &dyn Fn(&latrunculi_arena::verdict::table::VerdictRow) -> usize, min: usize| {
        rows.iter().map(f).max().unwrap_or(0).max(min)
    };
    let (rw, pw) = (width(&|r| r.ruleset.chars().count(), 7), width(&|r| r.player.chars().count(), 6));
    println!(
        "{:<rw$} {:<pw$} {:>12} {:>6} {:>20} {:>6} {:>6}  verdict",
        "ruleset", "player", "budget", "games", "draw rate [95% CI]", "play", "count"
    );
    for r in &rows {
        let rate = |x: Option<latrunculi_arena::verdict::Rate>| x.map_or(String::new(), |x| format!("{:.2}", x.rate));
        let draw = r.counts.draw_rate().map_or(String::new(), |d| format!("{:.2} [{:.2}, {:.2}]", d.rate, d.lo, d.hi));
        println!(
            "{:<rw$} {:<pw$} {:>12} {:>6} {:>20} {:>6} {:>6}  {}",
            r.ruleset,
            r.player,
            r.budget.as_ref().map(ToString::to_string).unwrap_or_default(),
            r.counts.games(),
            draw,
            rate(r.counts.won_by_play_rate()),
            rate(r.counts.adjudicated_rate()),
            r.verdict.map(|v| v.name()).unwrap_or_default()
        );
    }
    println!("-> {}", args.out.display());
    Ok(ExitCode::SUCCESS)
}

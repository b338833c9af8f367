//! `latrunculi survey --config experiments/NAME.toml [--out DIR]`: every (ruleset,
//! pairing) cell of an experiment file, resumable, sharded or merged; the experiment
//! file, the outputs and the resumption are described in [`latrunculi_arena::survey`].

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use latrunculi_arena::stats::{Z95, wilson};
use latrunculi_arena::survey::{Survey, merge_shards, parse_shard, run_survey, survey_progress};

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
    /// Only report how far each cell of the output folder (or of `--shard`'s part) has
    /// got, under the file's stopping rule: games played, games needed, finished or not,
    /// and the games left. Plays and writes nothing, so it can watch a running survey.
    #[arg(long, conflicts_with = "merge")]
    pub progress: bool,
}

/// Runs `latrunculi survey`.
pub fn run(args: &SurveyArgs, players: &latrunculi_agents::Players) -> anyhow::Result<ExitCode> {
    let config_text =
        std::fs::read_to_string(&args.config).with_context(|| format!("cannot read {}", args.config.display()))?;
    let survey = Survey::from_toml_str(&config_text, &args.rules_dir, players)
        .with_context(|| format!("bad experiment file {}", args.config.display()))?;
    let dir = args
        .out
        .clone()
        .or_else(|| survey.config.out.clone())
        .ok_or_else(|| anyhow::anyhow!("no output folder: give --out or `out` in {}", args.config.display()))?;
    if args.progress {
        return progress(&survey, &dir, args.shard);
    }
    let summaries = if args.merge.is_empty() {
        run_survey(&survey, &config_text, &dir, args.shard)?
    } else {
        merge_shards(&survey, &config_text, &dir, &args.merge)?
    };
    let (rw, pw) = column_widths(summaries.iter().map(|s| (s.ruleset.as_str(), s.pairing.as_str())));
    println!(
        "{:<rw$} {:<pw$} {:>6} {:>6} {:>6} {:>6} {:>20} {:>8}",
        "ruleset", "pairing", "games", "white", "black", "draws", "draw rate [95% CI]", "plies"
    );
    for s in &summaries {
        let (lo, hi) = wilson(s.draws as f64, s.games as u64, Z95);
        println!(
            "{:<rw$} {:<pw$} {:>6} {:>6} {:>6} {:>6} {:>6.3} [{:.3},{:.3}] {:>8.1}",
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
    println!(
        "-> {}, {}",
        dir.join(latrunculi_arena::io::games::FILE).display(),
        dir.join(latrunculi_arena::survey::SUMMARY_FILE).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The widths of a table's ruleset and pairing columns: the longest name in each, at least
/// 18 and 40 characters (the widths before any name was longer), so the columns stay aligned.
fn column_widths<'a>(rows: impl Iterator<Item = (&'a str, &'a str)>) -> (usize, usize) {
    rows.fold((18, 40), |(rw, pw), (r, p)| (rw.max(r.chars().count()), pw.max(p.chars().count())))
}

/// Prints `latrunculi survey --progress`: a line per cell, then the totals.
fn progress(survey: &Survey, dir: &std::path::Path, shard: Option<(u32, u32)>) -> anyhow::Result<ExitCode> {
    let cells = survey_progress(survey, dir, shard)?;
    let (rw, pw) = column_widths(cells.iter().map(|c| (c.ruleset.as_str(), c.pairing.as_str())));
    println!("{:<rw$} {:<pw$} {:>6} {:>6} {:>6}  state", "ruleset", "pairing", "played", "needed", "cap");
    let (mut finished, mut to_round, mut to_caps, mut played) = (0usize, 0u64, 0u64, 0u64);
    for c in &cells {
        let state = if c.is_finished() {
            finished += 1;
            "finished"
        } else if c.played == 0 {
            "not started"
        } else {
            "open"
        };
        if !c.is_finished() {
            to_round += u64::from(c.missing);
            to_caps += u64::from(c.cap.saturating_sub(c.played));
        }
        played += u64::from(c.played);
        println!("{:<rw$} {:<pw$} {:>6} {:>6} {:>6}  {state}", c.ruleset, c.pairing, c.played, c.needed, c.cap);
    }
    println!(
        "{} of {} cells finished; {played} games played; {to_round} more to the end of the open cells' current rounds, \
         at most {to_caps} more up to their caps ({})",
        finished,
        cells.len(),
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::column_widths;

    #[test]
    fn column_widths_fit_the_longest_name() {
        assert_eq!(column_widths([("kowalski", "greedy vs greedy")].into_iter()), (18, 40));
        let long = "az:model=experiments/az-v2-kowalski/latest.az,sims=200 vs random";
        assert_eq!(
            column_widths([("bell", "random vs random"), ("ludii-kowalski-10x11", long)].into_iter()),
            (20, long.len())
        );
    }
}

//! `latrunculi bench`: uniformly random playouts with full legal-move generation at
//! every ply, timed on one core and on all cores (rayon).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use latrunculi_rules::{FastRng, Position, Ruleset};
use rayon::prelude::*;

use crate::RulesetArg;

/// Arguments of `latrunculi bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// Seconds to run each measurement (one core, then all cores).
    #[arg(long, default_value_t = 5.0)]
    pub seconds: f64,
    /// Print CSV (`ruleset,threads,plies_per_s,games_per_s`) instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Seed of the random playouts.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One measurement.
#[derive(Debug, Clone, Copy)]
pub struct Throughput {
    /// Threads used.
    pub threads: usize,
    /// Plies per second.
    pub plies_per_s: f64,
    /// Finished games per second.
    pub games_per_s: f64,
}

/// Plays random games from the start for about `budget`; returns (plies, games).
pub fn random_playouts(rs: &Ruleset, budget: Duration, seed: u64) -> (u64, u64) {
    let start_pos = Position::new(rs);
    let mut rng = FastRng::new(seed);
    let mut moves = Vec::with_capacity(256);
    let (mut plies, mut games) = (0u64, 0u64);
    let t0 = Instant::now();
    while t0.elapsed() < budget {
        let mut pos = start_pos.clone();
        while !pos.is_over() {
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
            plies += 1;
        }
        games += 1;
    }
    (plies, games)
}

/// Measures random-playout throughput with `threads` workers for `seconds`.
pub fn measure(rs: &Ruleset, threads: usize, seconds: f64, seed: u64) -> anyhow::Result<Throughput> {
    let budget = Duration::from_secs_f64(seconds);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    let t0 = Instant::now();
    let results: Vec<(u64, u64)> = pool.install(|| {
        (0..threads).into_par_iter().map(|i| random_playouts(rs, budget, seed.wrapping_add(i as u64))).collect()
    });
    let secs = t0.elapsed().as_secs_f64();
    let plies: u64 = results.iter().map(|r| r.0).sum();
    let games: u64 = results.iter().map(|r| r.1).sum();
    Ok(Throughput { threads, plies_per_s: plies as f64 / secs, games_per_s: games as f64 / secs })
}

/// Runs `latrunculi bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let rs = args.ruleset.load()?;
    if !(args.seconds > 0.0 && args.seconds.is_finite()) {
        anyhow::bail!("--seconds must be a positive number, got {}", args.seconds);
    }
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut rows = vec![measure(&rs, 1, args.seconds, args.seed)?];
    if all > 1 {
        rows.push(measure(&rs, all, args.seconds, args.seed)?);
    }
    if args.csv {
        println!("ruleset,threads,plies_per_s,games_per_s");
        for r in &rows {
            println!("{},{},{:.0},{:.1}", rs.id, r.threads, r.plies_per_s, r.games_per_s);
        }
    } else {
        println!("random playouts, {} ({}x{}), {:.1} s each", rs.id, rs.width, rs.height, args.seconds);
        println!("{:>8} {:>14} {:>12}", "threads", "plies/s", "games/s");
        for r in &rows {
            println!("{:>8} {:>14.0} {:>12.1}", r.threads, r.plies_per_s, r.games_per_s);
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_finish_games() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let (plies, games) = random_playouts(&rs, Duration::from_millis(50), 3);
        assert!(games >= 1 && plies >= games);
    }
}

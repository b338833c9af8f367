//! `latrunculi bench`: uniformly random playouts with full legal-move generation at
//! every ply, timed on one core and on all cores (rayon); then the batched simulator
//! (`latrunculi_sim::BatchSim`, 256 games, random legal actions) on one thread and on
//! all threads; then UCT simulations per second of an `mcts:sims=200` search.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use latrunculi_rules::{FastRng, Position, Ruleset};
use latrunculi_sim::throughput::{SIM_BATCH, SimThroughput, measure_random_steps};
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
    /// Print CSV blocks instead of tables: `ruleset,threads,plies_per_s,games_per_s`, then
    /// `ruleset,threads,batch,sim_plies_per_s`, then `ruleset,uct_sims_per_s`, separated
    /// by empty lines.
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

/// One batched-simulator measurement of `batch` games with `threads` threads
/// ([`measure_random_steps`] in a pool of that size).
pub fn measure_batch(
    rs: &Ruleset,
    threads: usize,
    batch: usize,
    seconds: f64,
    seed: u64,
) -> anyhow::Result<SimThroughput> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build()?;
    Ok(pool.install(|| measure_random_steps(rs, batch, seconds, seed))?)
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
    let mut sim_rows = vec![measure_batch(&rs, 1, SIM_BATCH, args.seconds, args.seed)?];
    if all > 1 {
        sim_rows.push(measure_batch(&rs, all, SIM_BATCH, args.seconds, args.seed)?);
    }
    let uct = latrunculi_agents::uct_simulations_per_second(&rs, args.seconds);
    if args.csv {
        println!();
        println!("ruleset,threads,batch,sim_plies_per_s");
        for r in &sim_rows {
            println!("{},{},{},{:.0}", rs.id, r.threads, r.batch, r.sim_plies_per_s);
        }
        println!();
        println!("ruleset,uct_sims_per_s");
        println!("{},{:.0}", rs.id, uct);
    } else {
        println!();
        println!("batched simulator, {SIM_BATCH} games, random legal actions, {:.1} s each", args.seconds);
        println!("{:>8} {:>14}", "threads", "plies/s");
        for r in &sim_rows {
            println!("{:>8} {:>14.0}", r.threads, r.sim_plies_per_s);
        }
        println!();
        println!(
            "UCT search (mcts:sims=200, rollout depth 40) from the start position, 1 thread, {:.1} s",
            args.seconds
        );
        println!("{:>8} {:>14.0}", "sims/s", uct);
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

    #[test]
    fn batched_simulator_steps() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let r = measure_batch(&rs, 2, 8, 0.05, 1).unwrap();
        assert!(r.sim_plies_per_s > 0.0 && r.batch == 8 && r.threads == 2);
    }
}

/// Arguments of `latrunculi bench-az`.
#[derive(clap::Args, Debug)]
pub struct BenchAzArgs {
    #[command(flatten)]
    pub ruleset: RulesetArg,
    /// A checkpoint to measure; without it, a fresh network of --blocks x --channels.
    #[arg(long)]
    pub model: Option<std::path::PathBuf>,
    /// Residual blocks of the fresh network.
    #[arg(long, default_value_t = 4)]
    pub blocks: usize,
    /// Channels of the fresh network.
    #[arg(long, default_value_t = 32)]
    pub channels: usize,
    /// Seconds per batch-size measurement.
    #[arg(long, default_value_t = 3.0)]
    pub seconds: f64,
    /// Search visits per move in the self-play measurement.
    #[arg(long, default_value_t = 100)]
    pub sims: u32,
    /// Games played at once in the self-play measurement.
    #[arg(long, default_value_t = 64)]
    pub parallel: u32,
    /// Leaves per tree per batch in the self-play measurement.
    #[arg(long, default_value_t = 4)]
    pub leaves: u32,
    /// Games of the self-play measurement.
    #[arg(long, default_value_t = 64)]
    pub games: u32,
    /// Ply cap of the self-play games.
    #[arg(long, default_value_t = 120)]
    pub ply_cap: u32,
    /// Policy heads of the untrained networks measured without `--model`, comma-separated
    /// (`dense`, `spatial`; each gets its own rows).
    #[arg(long, default_value = "dense,spatial")]
    pub heads: String,
}

/// Runs `latrunculi bench-az`: network evaluations per second at batch 1, 32 and 256,
/// training steps per second at batch 128, then self-play (CSV blocks
/// `ruleset,network,batch,net_evals_per_s`, `ruleset,network,batch,train_steps_per_s,train_samples_per_s` and
/// `ruleset,network,sims,parallel,leaves,win_check,mean_batch,selfplay_evals_per_s,positions_per_s,ratio_to_raw`,
/// each network's self-play measured without and then with the search's win-in-one check;
/// `ratio_to_raw` is the self-play evaluation rate over the raw rate at the nearest
/// measured batch size at or above the mean self-play batch).
pub fn run_az(args: &BenchAzArgs) -> anyhow::Result<ExitCode> {
    use burn::module::Module;
    let rs = args.ruleset.load()?;
    let mut nets = Vec::new();
    match &args.model {
        Some(p) => {
            let (meta, net) = latrunculi_az::checkpoint::load(p, &latrunculi_az::device::inference())?;
            latrunculi_az::agent::check_board(&meta, &rs, &format!("model {}", p.display()))?;
            let head = if meta.policy_planes > 0 { "spatial" } else { "dense" };
            nets.push((net.valid(), meta.network_config(), format!("{}x{}-{head}", meta.blocks, meta.channels)));
        }
        None => {
            for head in args.heads.split(',').map(str::trim) {
                let cfg = latrunculi_az::TrainConfig {
                    network: latrunculi_az::config::NetworkSection {
                        blocks: args.blocks,
                        channels: args.channels,
                        policy_head: head.to_string(),
                        ..Default::default()
                    },
                    ..Default::default()
                };
                if !["dense", "spatial"].contains(&head) {
                    anyhow::bail!("--heads: unknown policy head '{head}' (dense or spatial)");
                }
                let net_cfg = cfg.network_config(&rs);
                let net = net_cfg.init(&latrunculi_az::device::inference()).valid();
                nets.push((net, net_cfg, format!("{}x{}-{head}", args.blocks, args.channels)));
            }
        }
    }
    let mut raw = Vec::new();
    println!("ruleset,network,batch,net_evals_per_s");
    for (net, net_cfg, label) in &nets {
        let mut rates = Vec::new();
        for batch in [1usize, 32, 256] {
            let r = latrunculi_az::bench::network_evals_per_second(net, net_cfg, &rs, batch, args.seconds)?;
            println!("{},{label},{batch},{r:.0}", rs.id);
            rates.push((batch, r));
        }
        raw.push(rates);
    }
    println!();
    println!("ruleset,network,batch,train_steps_per_s,train_samples_per_s");
    for (_, net_cfg, label) in &nets {
        let r = latrunculi_az::bench::training_steps_per_second(net_cfg, &rs, 128, args.seconds)?;
        println!("{},{label},128,{r:.2},{:.0}", rs.id, r * 128.0);
    }
    let search = latrunculi_az::SearchConfig {
        sims: args.sims,
        leaves_per_round: args.leaves,
        dirichlet_frac: 0.25,
        ..Default::default()
    };
    println!();
    println!(
        "ruleset,network,sims,parallel,leaves,win_check,mean_batch,selfplay_evals_per_s,positions_per_s,ratio_to_raw"
    );
    for ((net, net_cfg, label), rates) in nets.iter().zip(&raw) {
        for win_check in [false, true] {
            let (evals, positions, mean_batch) = latrunculi_az::bench::selfplay_throughput(
                net,
                net_cfg,
                &rs,
                latrunculi_az::SearchConfig { win_check, ..search },
                args.games,
                args.parallel,
                args.ply_cap,
            )?;
            let reference =
                rates.iter().find(|(b, _)| *b as f64 >= mean_batch).or(rates.last()).map_or(f64::NAN, |r| r.1);
            println!(
                "{},{label},{},{},{},{},{mean_batch:.1},{evals:.0},{positions:.1},{:.2}",
                rs.id,
                args.sims,
                args.parallel,
                args.leaves,
                u8::from(win_check),
                evals / reference
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

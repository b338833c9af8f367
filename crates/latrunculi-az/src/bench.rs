//! Throughput of the network and of search: network evaluations per second at given
//! batch sizes, and search simulations per second in self-play (where leaves of many
//! games share one batch), so that the search overhead is their ratio.

use std::time::{Duration, Instant};

use latrunculi_rules::Ruleset;

use crate::AzError;
use crate::model::{Network, NetworkConfig};
use crate::search::{BoardTables, Evaluator, SearchConfig};
use crate::selfplay::{SelfPlayConfig, self_play};

/// Network evaluations per second at `batch`, measured for about `seconds` (at least
/// two batches) on positions of `ruleset`'s start.
pub fn network_evals_per_second(
    net: &Network,
    net_cfg: &NetworkConfig,
    ruleset: &Ruleset,
    batch: usize,
    seconds: f64,
) -> Result<f64, AzError> {
    let tables = BoardTables::for_network(ruleset, net_cfg);
    let pos = latrunculi_rules::Position::new(ruleset);
    let one = tables.observation(&pos)?;
    let obs: Vec<f32> = one.iter().copied().cycle().take(one.len() * batch).collect();
    // Warm-up.
    net.evaluate(obs.clone(), batch, tables.shape)?;
    let budget = Duration::from_secs_f64(seconds);
    let start = Instant::now();
    let mut done = 0u64;
    while done < 2 || start.elapsed() < budget {
        net.evaluate(obs.clone(), batch, tables.shape)?;
        done += 1;
    }
    Ok(done as f64 * batch as f64 / start.elapsed().as_secs_f64())
}

/// Self-play throughput: (network evaluations per second, positions per second, mean
/// leaves per batch), playing `games` games `parallel` at a time with `search`.
pub fn selfplay_throughput(
    net: &Network,
    net_cfg: &NetworkConfig,
    ruleset: &Ruleset,
    search: SearchConfig,
    games: u32,
    parallel: u32,
    ply_cap: u32,
) -> Result<(f64, f64, f64), AzError> {
    let cfg = SelfPlayConfig {
        games,
        parallel,
        search,
        temperature_plies: 20,
        ply_cap,
        seed: 7,
        draw_material: 0.0,
        full_search_prob: 1.0,
        fast_sims: 1,
    };
    let tables = BoardTables::for_network(ruleset, net_cfg);
    let out = self_play(net, ruleset, &tables, &cfg, None)?;
    let s = out.seconds.max(1e-9);
    Ok((out.evaluations as f64 / s, out.positions as f64 / s, out.batch_mean()))
}

/// `n` training samples from uniformly random play of `ruleset` (a new game after each
/// one that ends), each with the move played as its policy target and zero values: work
/// of the right shape for timing gradient steps, not anything worth learning.
pub(crate) fn random_play_samples(
    ruleset: &Ruleset,
    tables: &BoardTables,
    n: usize,
    rng: &mut latrunculi_rules::FastRng,
) -> Result<Vec<crate::selfplay::Sample>, AzError> {
    let mut samples = Vec::with_capacity(n);
    let mut pos = latrunculi_rules::Position::new(ruleset);
    while samples.len() < n {
        if pos.is_over() {
            pos = latrunculi_rules::Position::new(ruleset);
        }
        let me = pos.side_to_move();
        let legal = pos.legal_move_list();
        let mv = legal[rng.below(legal.len())];
        samples.push(crate::selfplay::Sample {
            obs: tables.observation(&pos)?,
            policy: vec![(tables.relative(mv, me), 1.0)],
            value: 0.0,
            ply: pos.ply(),
            legal: legal.iter().map(|&m| tables.relative(m, me)).collect(),
            score: 0.0,
            root_q: 0.0,
            policy_valid: true,
        });
        pos.play(mv);
    }
    Ok(samples)
}

/// Gradient steps per second of the training loss (policy, value and, with a score head,
/// score) at minibatch `batch`, on samples of random legal positions of `ruleset`,
/// measured for about `seconds` (at least two steps after one warm-up step).
pub fn training_steps_per_second(
    net_cfg: &NetworkConfig,
    ruleset: &Ruleset,
    batch: usize,
    seconds: f64,
) -> Result<f64, AzError> {
    use burn::optim::AdamWConfig;
    let tables = BoardTables::for_network(ruleset, net_cfg);
    let mut rng = latrunculi_rules::FastRng::new(5);
    let samples = random_play_samples(ruleset, &tables, batch.max(64), &mut rng)?;
    let refs: Vec<&crate::selfplay::Sample> = samples.iter().collect();
    let loss = crate::train::LossConfig {
        batch_size: batch,
        learning_rate: 1e-3,
        mirror: true,
        masked_policy: true,
        score_weight: 1.0,
        value_q_mix: 0.0,
    };
    let mut model = net_cfg.init(&crate::device::training());
    let mut optim = AdamWConfig::new().init();
    (model, _) = crate::train::train_steps(model, &mut optim, &refs, &tables, &loss, 1, &mut rng, None);
    let start = Instant::now();
    let mut done = 0u32;
    while done < 2 || start.elapsed().as_secs_f64() < seconds {
        (model, _) = crate::train::train_steps(model, &mut optim, &refs, &tables, &loss, 1, &mut rng, None);
        done += 1;
    }
    Ok(done as f64 / start.elapsed().as_secs_f64())
}

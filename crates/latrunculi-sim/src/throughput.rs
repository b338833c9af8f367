//! Throughput of the batched simulator: [`BatchSim`] stepped with uniformly random legal
//! actions, as `latrunculi bench` and the Python package's benchmark measure it.

use std::time::{Duration, Instant};

use latrunculi_rules::{FastRng, Ruleset};
use rayon::prelude::*;

use crate::{BatchSim, SimError, StepResult};

/// Games in the standard batched-simulator measurement.
pub const SIM_BATCH: usize = 256;

/// One batched-simulator measurement.
#[derive(Debug, Clone, Copy)]
pub struct SimThroughput {
    /// Threads of the rayon pool the simulator ran in.
    pub threads: usize,
    /// Games in the batch.
    pub batch: usize,
    /// Game plies per second (batch steps × games per step).
    pub sim_plies_per_s: f64,
}

/// Steps a [`BatchSim`] of `batch` games of `rs` with uniformly random legal actions
/// (chosen in parallel, one generator per game, seeded from `seed`) for about
/// `seconds`, in the current rayon pool (wrap the call in `ThreadPool::install` to
/// choose the threads).
pub fn measure_random_steps(rs: &Ruleset, batch: usize, seconds: f64, seed: u64) -> Result<SimThroughput, SimError> {
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let mut sim = BatchSim::new(rs, batch, seed)?;
    let space = sim.action_space();
    let mut rngs: Vec<FastRng> =
        (0..batch as u64).map(|i| FastRng::new(seed.wrapping_mul(1_000_003).wrapping_add(i))).collect();
    let mut actions: Vec<usize> = Vec::with_capacity(batch);
    let mut result = StepResult::default();
    let t0 = Instant::now();
    let mut steps = 0u64;
    while t0.elapsed() < budget {
        let sim_ref = &sim;
        let chosen: Result<Vec<usize>, SimError> = rngs
            .par_iter_mut()
            .enumerate()
            .map(|(i, rng)| {
                let moves = sim_ref.legal_moves(i)?;
                // A live game always has a legal move (finished games are reset).
                let mv = moves.get(rng.below(moves.len().max(1))).copied();
                mv.map(|m| space.encode(m)).ok_or(SimError::GameIndex { index: i, len: batch })
            })
            .collect();
        actions.clear();
        actions.extend(chosen?);
        sim.step_into(&actions, &mut result)?;
        steps += 1;
    }
    let secs = t0.elapsed().as_secs_f64().max(f64::MIN_POSITIVE);
    Ok(SimThroughput {
        threads: rayon::current_num_threads(),
        batch,
        sim_plies_per_s: (steps * batch as u64) as f64 / secs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_steps_play_plies() {
        let rs = Ruleset::builtin("xxi").unwrap();
        let r = measure_random_steps(&rs, 8, 0.05, 1).unwrap();
        assert!(r.sim_plies_per_s > 0.0 && r.batch == 8);
    }
}

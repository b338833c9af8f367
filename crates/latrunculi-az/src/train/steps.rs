//! Gradient steps: minibatches of samples (mirrored at random) as tensors, the policy,
//! value and score losses, and AdamW steps on them.

use std::time::Instant;

use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;
use burn::tensor::activation::log_softmax;
use indicatif::ProgressBar;
use latrunculi_rules::FastRng;

use crate::config::TrainConfig;
use crate::frame::mirror_observation;
use crate::model::Network;
use crate::search::BoardTables;
use crate::selfplay::Sample;

/// Mean losses of one iteration's gradient steps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    /// Policy cross-entropy against the search distributions.
    pub policy_loss: f64,
    /// Mean squared error of the value head against game results.
    pub value_loss: f64,
    /// Mean entropy of the network's policy on the training batches.
    pub entropy: f64,
    /// Mean squared error of the score head (0 without one).
    pub score_loss: f64,
    /// Gradient steps taken.
    pub steps: u32,
}

/// The loss settings of [`train_steps`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossConfig {
    /// Minibatch size.
    pub batch_size: usize,
    /// Learning rate.
    pub learning_rate: f64,
    /// Left–right mirror augmentation.
    pub mirror: bool,
    /// Softmax over the legal moves only.
    pub masked_policy: bool,
    /// Weight of the score loss.
    pub score_weight: f32,
    /// Weight of the root value in the value target.
    pub value_q_mix: f32,
}

impl LossConfig {
    /// The loss settings of a training configuration.
    pub fn from_config(cfg: &TrainConfig) -> LossConfig {
        LossConfig {
            batch_size: cfg.training.batch_size,
            learning_rate: cfg.training.learning_rate,
            mirror: cfg.training.mirror,
            masked_policy: cfg.training.masked_policy,
            score_weight: cfg.training.score_weight,
            value_q_mix: cfg.training.value_q_mix,
        }
    }
}

/// Added to the logits of outputs that are not legal moves, so that the softmax is over
/// the legal moves alone (finite, so that `0 · log p` stays 0).
pub const ILLEGAL_LOGIT: f32 = -1e9;

/// One minibatch as tensors.
pub struct Minibatch {
    /// Observations `[B, planes, H, W]`.
    pub obs: Tensor<4>,
    /// Dense policy targets `[B, outputs]`.
    pub pi: Tensor<2>,
    /// 0 on legal outputs and [`ILLEGAL_LOGIT`] elsewhere `[B, outputs]` (`None`: no mask).
    pub mask: Option<Tensor<2>>,
    /// 1 where the policy target counts, else 0 `[B, 1]`.
    pub policy_weight: Tensor<2>,
    /// Number of rows whose policy target counts.
    pub policy_rows: usize,
    /// Value targets `[B]`.
    pub z: Tensor<1>,
    /// Score targets `[B]`.
    pub score: Tensor<1>,
}

/// Builds one minibatch of `samples[picks]`, mirrored where `mirror` says.
pub fn minibatch(
    samples: &[&Sample],
    picks: &[usize],
    tables: &BoardTables,
    mirror: &[bool],
    loss: &LossConfig,
    device: &Device,
) -> Minibatch {
    let b = picks.len();
    let (olen, outputs) = (tables.obs_len(), tables.outputs());
    let mut obs = Vec::with_capacity(b * olen);
    let mut pi = vec![0.0f32; b * outputs];
    let mut mask = if loss.masked_policy { vec![ILLEGAL_LOGIT; b * outputs] } else { Vec::new() };
    let (mut z, mut score, mut pw) = (Vec::with_capacity(b), Vec::with_capacity(b), Vec::with_capacity(b));
    let map = |a: u32, m: bool| {
        let a = if m { tables.frame.mirror(a as usize) } else { a as usize };
        tables.policy.logit(a)
    };
    for (k, (&i, &m)) in picks.iter().zip(mirror).enumerate() {
        let s = samples[i];
        let start = obs.len();
        obs.extend_from_slice(&s.obs);
        if m {
            mirror_observation(&mut obs[start..], tables.shape[2]);
        }
        for &(a, p) in &s.policy {
            if let Some(l) = map(a, m) {
                pi[k * outputs + l] += p;
            }
        }
        if loss.masked_policy {
            let row = &mut mask[k * outputs..(k + 1) * outputs];
            if s.legal.is_empty() {
                row.fill(0.0);
            }
            for &a in s.legal.iter().chain(s.policy.iter().map(|(a, _)| a)) {
                if let Some(l) = map(a, m) {
                    row[l] = 0.0;
                }
            }
        }
        z.push((1.0 - loss.value_q_mix) * s.value + loss.value_q_mix * s.root_q);
        score.push(s.score);
        pw.push(if s.policy_valid && !s.policy.is_empty() { 1.0f32 } else { 0.0 });
    }
    let [p, h, w] = tables.shape;
    let policy_rows = pw.iter().filter(|&&x| x > 0.0).count();
    Minibatch {
        obs: Tensor::from_data(TensorData::new(obs, [b, p, h, w]), device),
        pi: Tensor::from_data(TensorData::new(pi, [b, outputs]), device),
        mask: loss.masked_policy.then(|| Tensor::from_data(TensorData::new(mask, [b, outputs]), device)),
        policy_weight: Tensor::from_data(TensorData::new(pw, [b, 1]), device),
        policy_rows,
        z: Tensor::from_data(TensorData::new(z, [b]), device),
        score: Tensor::from_data(TensorData::new(score, [b]), device),
    }
}

/// The policy cross-entropy of `logits` against a minibatch's targets (masked as it
/// says; rows whose policy target does not count are left out), and the mean policy
/// entropy (detached).
pub fn policy_loss(logits: Tensor<2>, batch: &Minibatch) -> (Tensor<1>, Tensor<1>) {
    let logits = match &batch.mask {
        Some(m) => logits + m.clone(),
        None => logits,
    };
    let logp = log_softmax(logits, 1);
    let per_row = (batch.pi.clone() * logp.clone()).sum_dim(1) * batch.policy_weight.clone();
    let loss = per_row.sum().neg() / batch.policy_rows.max(1) as f32;
    let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg().detach();
    (loss, entropy)
}

/// Runs `steps` AdamW steps on minibatches drawn uniformly from `samples`.
#[allow(clippy::too_many_arguments)]
pub fn train_steps(
    model: Network,
    optim: &mut ModuleOptimizer,
    samples: &[&Sample],
    tables: &BoardTables,
    loss_cfg: &LossConfig,
    steps: u32,
    rng: &mut FastRng,
    progress: Option<&ProgressBar>,
) -> (Network, StepStats) {
    train_steps_until(model, optim, samples, tables, loss_cfg, steps, None, rng, progress)
}

/// Runs AdamW steps as [`train_steps`] does, at most `steps` of them, and no new one once
/// `deadline` (if any) has passed (at least one is taken); the stats say how many.
/// `progress` counts steps without a deadline; with one it counts seconds, its position
/// its length less the whole seconds left (so a bar as long as the time limit fills as
/// the deadline nears, whatever the step count).
#[allow(clippy::too_many_arguments)]
pub fn train_steps_until(
    mut model: Network,
    optim: &mut ModuleOptimizer,
    samples: &[&Sample],
    tables: &BoardTables,
    loss_cfg: &LossConfig,
    steps: u32,
    deadline: Option<Instant>,
    rng: &mut FastRng,
    progress: Option<&ProgressBar>,
) -> (Network, StepStats) {
    let mut stats = StepStats::default();
    if samples.is_empty() || steps == 0 {
        return (model, stats);
    }
    let device = crate::device::training();
    let b = loss_cfg.batch_size.min(samples.len()).max(1);
    for _ in 0..steps {
        if stats.steps > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        let picks: Vec<usize> = (0..b).map(|_| rng.below(samples.len())).collect();
        let mirror: Vec<bool> = (0..b).map(|_| loss_cfg.mirror && rng.below(2) == 1).collect();
        let batch = minibatch(samples, &picks, tables, &mirror, loss_cfg, &device);
        let out = model.forward(batch.obs.clone());
        let (policy_loss, entropy) = policy_loss(out.logits, &batch);
        let value_loss = (out.value - batch.z.clone()).powi_scalar(2).mean();
        let mut loss = policy_loss.clone() + value_loss.clone();
        if let Some(score) = out.score {
            let score_loss = (score - batch.score.clone()).powi_scalar(2).mean();
            stats.score_loss += score_loss.clone().detach().into_scalar::<f32>() as f64;
            loss = loss + score_loss * loss_cfg.score_weight;
        }
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(loss_cfg.learning_rate, model, grads);
        stats.policy_loss += policy_loss.into_scalar::<f32>() as f64;
        stats.value_loss += value_loss.into_scalar::<f32>() as f64;
        stats.entropy += entropy.into_scalar::<f32>() as f64;
        stats.steps += 1;
        if let Some(p) = progress {
            match deadline {
                // Seconds, counted down to the deadline (see the doc comment).
                Some(d) => p.set_position(
                    p.length().unwrap_or(0).saturating_sub(d.saturating_duration_since(Instant::now()).as_secs()),
                ),
                None => p.inc(1),
            }
        }
    }
    let n = stats.steps as f64;
    stats.policy_loss /= n;
    stats.value_loss /= n;
    stats.entropy /= n;
    stats.score_loss /= n;
    (model, stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::NetworkConfig;
    use burn::optim::AdamWConfig;
    use latrunculi_rules::Ruleset;
    use std::time::Duration;

    /// A one-block network, its tables and 32 samples of random kowalski play on 5 x 5.
    fn setup() -> (Network, BoardTables, Vec<Sample>, LossConfig) {
        let rs = Ruleset::builtin("kowalski").unwrap().with_board(5, 5).unwrap();
        let tables = BoardTables::new(&rs);
        let cfg = NetworkConfig::new(tables.shape[0], 5, 5, tables.actions()).with_blocks(1).with_channels(4);
        let samples = crate::bench::random_play_samples(&rs, &tables, 32, &mut FastRng::new(3)).unwrap();
        let loss = LossConfig {
            batch_size: 8,
            learning_rate: 1e-3,
            mirror: false,
            masked_policy: true,
            score_weight: 1.0,
            value_q_mix: 0.0,
        };
        (cfg.init(&crate::device::training()), tables, samples, loss)
    }

    #[test]
    fn the_progress_counts_steps_or_the_seconds_to_a_deadline() {
        let (model, tables, samples, loss) = setup();
        let refs: Vec<&Sample> = samples.iter().collect();
        let mut optim = AdamWConfig::new().init();
        let mut rng = FastRng::new(1);
        // No deadline: one per step.
        let steps = ProgressBar::hidden();
        steps.set_length(1000);
        let (model, stats) =
            train_steps_until(model, &mut optim, &refs, &tables, &loss, 3, None, &mut rng, Some(&steps));
        assert_eq!((stats.steps, steps.position()), (3, 3));
        // A deadline an hour away, the bar an hour long: the seconds gone, not the steps.
        let hour = ProgressBar::hidden();
        hour.set_length(3600);
        let deadline = Instant::now() + Duration::from_secs(3600);
        let (model, stats) =
            train_steps_until(model, &mut optim, &refs, &tables, &loss, 50, Some(deadline), &mut rng, Some(&hour));
        assert_eq!(stats.steps, 50);
        assert!((1..=60).contains(&hour.position()), "{} seconds of an hour", hour.position());
        // A deadline already passed: one step, and the bar full.
        let passed = ProgressBar::hidden();
        passed.set_length(60);
        let (_, stats) = train_steps_until(
            model,
            &mut optim,
            &refs,
            &tables,
            &loss,
            50,
            Some(Instant::now()),
            &mut rng,
            Some(&passed),
        );
        assert_eq!((stats.steps, passed.position()), (1, 60));
    }
}

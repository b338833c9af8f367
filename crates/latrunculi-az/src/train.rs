//! The training loop behind `latrunculi train`: self-play with the current network →
//! replay buffer (a window of recent games) → AdamW steps on policy cross-entropy +
//! value MSE (+ decoupled weight decay) with left–right mirror augmentation → new
//! checkpoint; repeated. One row per iteration goes to `train_log.csv`.
//!
//! **The run folder** (`--out DIR`):
//!
//! | file | content |
//! |---|---|
//! | `config.toml` | the configuration used (a resumed run must use the same) |
//! | `train_log.csv` | one row per finished iteration ([`LOG_HEADER`]) |
//! | `checkpoints/iter-NNNN.az` | the network after iteration N (`iter-0000.az`: untrained) |
//! | `latest.az` | a copy of the newest checkpoint |
//! | `optimizer-NNNN.bin` | AdamW state after iteration N |
//! | `buffer-NNNN.bin` | the replay buffer after iteration N |
//! | `state.toml` | the last finished iteration: the commit point of an iteration |
//!
//! Every file is written atomically (temporary file, fsync, rename), and `state.toml`
//! last, so a run stopped at any moment resumes (`--resume`) from its last finished
//! iteration N: it reads `iter-N.az`, `optimizer-N.bin` and `buffer-N.bin` (files of an
//! unfinished iteration carry its own number and are ignored), drops the rows of
//! `train_log.csv` past N and redoes the next iteration. After each commit the optimizer
//! and buffer files of other iterations are removed. (Runs made before the files were
//! numbered have `optimizer.bin` and `buffer.bin`; a resume reads those.)

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::optim::{AdamWConfig, GradientsParams, ModuleOptimizer, OptimizerRecord};
use burn::prelude::*;
use burn::tensor::Bytes;
use burn::tensor::activation::log_softmax;
use indicatif::{ProgressBar, ProgressStyle};
use latrunculi_agents::Agent;
use latrunculi_rules::{Color, FastRng, Position, Ruleset, fnv1a, splitmix64};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::AzError;
use crate::agent::AzAgent;
use crate::checkpoint::{self, CheckpointMeta, atomic_write};
use crate::config::TrainConfig;
use crate::frame::mirror_observation;
use crate::model::Network;
use crate::search::{BoardTables, SearchConfig};
use crate::selfplay::{Sample, self_play};

/// Columns of `train_log.csv` (documented in `experiments/README.md`).
pub const LOG_HEADER: &str = "iteration,games,samples,buffer_samples,policy_loss,value_loss,policy_entropy,mean_plies,white_rate,black_rate,draw_rate,score_random,score_mcts100,selfplay_positions_per_s,selfplay_evals_per_s,elapsed_s";

/// The commit record of a run: the last finished iteration and running totals.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunState {
    /// Last finished iteration (0: none).
    pub iteration: u32,
    /// Self-play games so far.
    pub games: u64,
    /// Training samples made so far.
    pub samples: u64,
    /// Seconds spent in finished iterations.
    pub elapsed_s: f64,
}

/// Options of a run beyond its configuration.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Continue a stopped run in the folder.
    pub resume: bool,
    /// Folder of extra ruleset TOMLs.
    pub rules_dir: Option<PathBuf>,
    /// Hide progress bars.
    pub quiet: bool,
}

/// The replay buffer: the samples of the most recent games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReplayBuffer {
    games: std::collections::VecDeque<Vec<Sample>>,
}

/// The first buffer format (observation, policy, value, ply); still read.
const BUFFER_MAGIC_V1: &[u8; 10] = b"LATAZ-BUF\n";
/// The current format: v1's fields plus legal moves, score, root value and policy flag.
const BUFFER_MAGIC: &[u8; 10] = b"LATAZ-BF2\n";

impl ReplayBuffer {
    /// Adds a game's samples, dropping the oldest games beyond `window`.
    pub fn push(&mut self, samples: Vec<Sample>, window: usize) {
        self.games.push_back(samples);
        while self.games.len() > window.max(1) {
            self.games.pop_front();
        }
    }

    /// Games held.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Samples held.
    pub fn len(&self) -> usize {
        self.games.iter().map(Vec::len).sum()
    }

    /// Whether the buffer holds no sample.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every sample held, oldest game first.
    pub fn flat(&self) -> Vec<&Sample> {
        self.games.iter().flatten().collect()
    }

    /// Serialises the buffer (see the module docs for the file).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(BUFFER_MAGIC);
        out.extend_from_slice(&(self.games.len() as u32).to_le_bytes());
        for g in &self.games {
            out.extend_from_slice(&(g.len() as u32).to_le_bytes());
            for s in g {
                out.extend_from_slice(&s.ply.to_le_bytes());
                out.extend_from_slice(&s.value.to_le_bytes());
                out.extend_from_slice(&(s.obs.len() as u32).to_le_bytes());
                for x in &s.obs {
                    out.extend_from_slice(&x.to_le_bytes());
                }
                out.extend_from_slice(&(s.policy.len() as u32).to_le_bytes());
                for (a, p) in &s.policy {
                    out.extend_from_slice(&a.to_le_bytes());
                    out.extend_from_slice(&p.to_le_bytes());
                }
                out.extend_from_slice(&(s.legal.len() as u32).to_le_bytes());
                for a in &s.legal {
                    out.extend_from_slice(&a.to_le_bytes());
                }
                out.extend_from_slice(&s.score.to_le_bytes());
                out.extend_from_slice(&s.root_q.to_le_bytes());
                out.extend_from_slice(&(s.policy_valid as u32).to_le_bytes());
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a buffer written by [`ReplayBuffer::to_bytes`]; `path` is named in errors.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<ReplayBuffer, AzError> {
        let err = |m: &str| AzError::Io { path: path.to_path_buf(), message: m.to_string() };
        if bytes.len() < BUFFER_MAGIC.len() + 12
            || (&bytes[..BUFFER_MAGIC.len()] != BUFFER_MAGIC && &bytes[..BUFFER_MAGIC.len()] != BUFFER_MAGIC_V1)
        {
            return Err(err("not a replay buffer file, or truncated"));
        }
        let v1 = &bytes[..BUFFER_MAGIC.len()] == BUFFER_MAGIC_V1;
        let body = &bytes[..bytes.len() - 8];
        let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().map_err(|_| err("truncated"))?);
        if fnv1a(body) != sum {
            return Err(err("replay buffer is truncated or corrupted (checksum mismatch)"));
        }
        let mut at = BUFFER_MAGIC.len();
        let mut u32_ = || -> Result<u32, AzError> {
            let s = body.get(at..at + 4).ok_or_else(|| err("truncated replay buffer"))?;
            at += 4;
            Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        };
        let mut buf = ReplayBuffer::default();
        let games = u32_()?;
        for _ in 0..games {
            let n = u32_()?;
            let mut g = Vec::with_capacity(n as usize);
            for _ in 0..n {
                let ply = u32_()?;
                let value = f32::from_bits(u32_()?);
                let obs_len = u32_()?;
                let obs = (0..obs_len).map(|_| u32_().map(f32::from_bits)).collect::<Result<Vec<_>, _>>()?;
                let np = u32_()?;
                let policy =
                    (0..np).map(|_| Ok((u32_()?, f32::from_bits(u32_()?)))).collect::<Result<Vec<_>, AzError>>()?;
                let mut s = Sample {
                    obs,
                    policy,
                    value,
                    ply,
                    legal: Vec::new(),
                    score: 0.0,
                    root_q: value,
                    policy_valid: true,
                };
                if !v1 {
                    let nl = u32_()?;
                    s.legal = (0..nl).map(|_| u32_()).collect::<Result<Vec<_>, _>>()?;
                    s.score = f32::from_bits(u32_()?);
                    s.root_q = f32::from_bits(u32_()?);
                    s.policy_valid = u32_()? != 0;
                }
                g.push(s);
            }
            buf.games.push_back(g);
        }
        Ok(buf)
    }
}

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
    mut model: Network,
    optim: &mut ModuleOptimizer,
    samples: &[&Sample],
    tables: &BoardTables,
    loss_cfg: &LossConfig,
    steps: u32,
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
        if let Some(p) = progress {
            p.inc(1);
        }
    }
    let n = steps as f64;
    stats.policy_loss /= n;
    stats.value_loss /= n;
    stats.entropy /= n;
    stats.score_loss /= n;
    (model, stats)
}

/// Plays `games` games between the network (colours alternated, White first) and the
/// baseline `opponent`; returns the network's score (win 1, draw ½) per game.
#[allow(clippy::too_many_arguments)]
pub fn match_score(
    net: &Network,
    net_cfg: &crate::model::NetworkConfig,
    ruleset: &Ruleset,
    search: SearchConfig,
    opponent: &str,
    games: u32,
    ply_cap: u32,
    seed: u64,
) -> Result<f64, AzError> {
    if games == 0 {
        return Ok(f64::NAN);
    }
    latrunculi_agents::parse_agent(opponent)?;
    let scores: Vec<f64> = (0..games)
        .into_par_iter()
        .map(|g| -> Result<f64, AzError> {
            let mut az = AzAgent::new("az", net.clone(), net_cfg, ruleset, search);
            let mut other = latrunculi_agents::parse_agent(opponent)?;
            let game_seed = splitmix64(seed ^ splitmix64(g as u64 + 1));
            az.new_game(game_seed);
            other.new_game(splitmix64(game_seed));
            let az_colour = if g % 2 == 0 { Color::White } else { Color::Black };
            let mut pos = Position::new(ruleset);
            pos.set_ply_cap(ply_cap);
            let (white, black): (&mut dyn Agent, &mut dyn Agent) =
                if az_colour == Color::White { (&mut az, &mut *other) } else { (&mut *other, &mut az) };
            latrunculi_agents::play_out(&mut pos, white, black, |_, _, _, _, _| Ok::<(), AzError>(())).map_err(
                |e| match e {
                    latrunculi_agents::PlayOutError::Observer(e) => e,
                    illegal => AzError::Mismatch(format!("{illegal} in the match")),
                },
            )?;
            Ok(match pos.outcome().and_then(|o| o.winner) {
                Some(c) if c == az_colour => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(scores.iter().sum::<f64>() / games as f64)
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> AzError {
    AzError::Io { path: path.to_path_buf(), message: e.to_string() }
}

fn fmt_f(x: f64) -> String {
    if x.is_finite() { format!("{x:.4}") } else { String::new() }
}

/// Keeps the header and the rows of iterations `<= last` of `train_log.csv`.
fn truncate_log(path: &Path, last: u32) -> Result<(), AzError> {
    let text = match fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(io_err(path, e)),
    };
    let mut out = String::from(LOG_HEADER);
    out.push('\n');
    for line in text.lines().skip(1) {
        let Some(it) = line.split(',').next().and_then(|f| f.parse::<u32>().ok()) else {
            continue;
        };
        // Only complete rows (a crash may have cut the last one short).
        if it <= last && line.split(',').count() == LOG_HEADER.split(',').count() {
            out.push_str(line);
            out.push('\n');
        }
    }
    atomic_write(path, out.as_bytes()).map_err(|e| io_err(path, e))
}

fn bar(len: u64, msg: String, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{msg:<28} [{elapsed_precise}] {wide_bar} {pos}/{len} (eta {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    pb.set_message(msg);
    pb
}

/// The optimizer or buffer file (`what`) of iteration `it`: `optimizer-NNNN.bin`.
pub fn state_file(out: &Path, what: &str, it: u32) -> PathBuf {
    out.join(format!("{what}-{it:04}.bin"))
}

/// Removes the optimizer and buffer files of iterations other than `it` (and the
/// unnumbered ones of older runs) once `it` is committed; failures are ignored (a file
/// left behind is removed after the next iteration).
fn remove_other_states(out: &Path, it: u32) {
    let keep = [state_file(out, "optimizer", it), state_file(out, "buffer", it)];
    let Ok(entries) = fs::read_dir(out) else { return };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = (name.starts_with("optimizer") || name.starts_with("buffer")) && name.ends_with(".bin");
        if ours && !keep.contains(&path) {
            let _ = fs::remove_file(&path);
        }
    }
}

/// Runs (or resumes) a training run in `out`; `config_text` is the configuration file's
/// text, `origin` its name. Returns the final run state.
pub fn run(config_text: &str, origin: &str, out: &Path, opts: &RunOptions) -> Result<RunState, AzError> {
    let cfg = TrainConfig::from_toml_str(config_text, origin)?;
    let ruleset = cfg.load_ruleset(opts.rules_dir.as_deref())?;
    let net_cfg = cfg.network_config(&ruleset);
    let tables = BoardTables::for_network(&ruleset, &net_cfg);
    let loss_cfg = LossConfig::from_config(&cfg);
    let state_path = out.join("state.toml");
    let saved_config = out.join("config.toml");
    let log_path = out.join("train_log.csv");
    let ckpt_dir = out.join("checkpoints");
    let device = crate::device::training();
    device.seed(cfg.seed);

    let mut state = RunState::default();
    let mut model: Network;
    let mut optim = AdamWConfig::new().with_weight_decay(cfg.training.weight_decay).init();
    let mut buffer = ReplayBuffer::default();
    let run_exists = saved_config.exists();
    if run_exists && !opts.resume {
        return Err(AzError::Config(format!(
            "{} already holds a run; pass --resume to continue it, or choose another --out",
            out.display()
        )));
    }
    if run_exists {
        let old = fs::read_to_string(&saved_config).map_err(|e| io_err(&saved_config, e))?;
        if TrainConfig::from_toml_str(&old, &saved_config.display().to_string())? != cfg {
            return Err(AzError::Config(format!(
                "{origin} differs from the configuration of the run in {} ({}); resume with the same configuration",
                out.display(),
                saved_config.display()
            )));
        }
    }
    if run_exists && state_path.exists() {
        let text = fs::read_to_string(&state_path).map_err(|e| io_err(&state_path, e))?;
        state = toml::from_str(&text).map_err(|e| io_err(&state_path, e))?;
        let ckpt = ckpt_dir.join(format!("iter-{:04}.az", state.iteration));
        let (meta, net) = checkpoint::load(&ckpt, &device)?;
        if meta.network_config() != net_cfg {
            return Err(AzError::Mismatch(format!("{}: network shape differs from the configuration", ckpt.display())));
        }
        model = net;
        let (mut opt_path, mut buf_path) =
            (state_file(out, "optimizer", state.iteration), state_file(out, "buffer", state.iteration));
        if !opt_path.exists() && out.join("optimizer.bin").exists() {
            // A run from before the files were numbered.
            (opt_path, buf_path) = (out.join("optimizer.bin"), out.join("buffer.bin"));
        }
        if state.iteration > 0 || opt_path.exists() {
            let bytes = fs::read(&opt_path).map_err(|e| io_err(&opt_path, e))?;
            let record = OptimizerRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| io_err(&opt_path, e))?;
            optim = optim.load_record(record);
            let bytes = fs::read(&buf_path).map_err(|e| io_err(&buf_path, e))?;
            buffer = ReplayBuffer::from_bytes(&bytes, &buf_path)?;
        }
        truncate_log(&log_path, state.iteration)?;
        if !opts.quiet {
            eprintln!("resuming {} after iteration {}", out.display(), state.iteration);
        }
    } else {
        fs::create_dir_all(&ckpt_dir).map_err(|e| io_err(&ckpt_dir, e))?;
        atomic_write(&saved_config, config_text.as_bytes()).map_err(|e| io_err(&saved_config, e))?;
        model = net_cfg.init(&device);
        truncate_log(&log_path, 0)?;
        if !cfg.warmstart.datasets.is_empty() {
            let started = Instant::now();
            let mut games = Vec::new();
            for dir in &cfg.warmstart.datasets {
                games.extend(crate::warmstart::load_dataset(Path::new(dir), &ruleset, &tables, &cfg)?);
            }
            let mut results = [0u32; 3];
            for (w, _) in &games {
                results[w.map_or(2, |c| c.index())] += 1;
            }
            let games: Vec<Vec<Sample>> = games.into_iter().map(|(_, g)| g).collect();
            let flat: Vec<&Sample> = games.iter().flatten().collect();
            if !opts.quiet {
                eprintln!(
                    "warm start: {} games, {} positions from {} dataset(s)",
                    games.len(),
                    flat.len(),
                    cfg.warmstart.datasets.len()
                );
            }
            let mut rng = FastRng::new(splitmix64(cfg.seed ^ 0x3A2B));
            let warm_loss = LossConfig {
                learning_rate: if cfg.warmstart.learning_rate > 0.0 {
                    cfg.warmstart.learning_rate
                } else {
                    cfg.training.learning_rate
                },
                batch_size: if cfg.warmstart.batch_size > 0 {
                    cfg.warmstart.batch_size
                } else {
                    cfg.training.batch_size
                },
                value_q_mix: 0.0,
                ..loss_cfg
            };
            let pb = bar(cfg.warmstart.steps as u64, "warm start".into(), opts.quiet);
            let (m, stats) =
                train_steps(model, &mut optim, &flat, &tables, &warm_loss, cfg.warmstart.steps, &mut rng, Some(&pb));
            model = m;
            pb.finish_and_clear();
            state.games = games.len() as u64;
            state.samples = flat.len() as u64;
            state.elapsed_s = started.elapsed().as_secs_f64();
            let plies: u64 = games.iter().map(|g| g.len() as u64).sum();
            let n = games.len().max(1) as f64;
            if cfg.warmstart.keep_in_buffer {
                for g in games.iter().cloned() {
                    buffer.push(g, cfg.training.window_games as usize);
                }
            }
            let row = [
                "0".to_string(),
                state.games.to_string(),
                state.samples.to_string(),
                buffer.len().to_string(),
                fmt_f(stats.policy_loss),
                fmt_f(stats.value_loss),
                fmt_f(stats.entropy),
                fmt_f(plies as f64 / n),
                fmt_f(results[Color::White.index()] as f64 / n),
                fmt_f(results[Color::Black.index()] as f64 / n),
                fmt_f(results[2] as f64 / n),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                format!("{:.1}", state.elapsed_s),
            ]
            .join(",");
            let mut f = fs::OpenOptions::new().append(true).open(&log_path).map_err(|e| io_err(&log_path, e))?;
            writeln!(f, "{row}").and_then(|_| f.sync_all()).map_err(|e| io_err(&log_path, e))?;
            if !opts.quiet {
                eprintln!(
                    "warm start: {} steps, policy loss {:.3}, value loss {:.3}, score loss {:.4} ({:.0} s)",
                    cfg.warmstart.steps, stats.policy_loss, stats.value_loss, stats.score_loss, state.elapsed_s
                );
            }
        }
        let mut meta = CheckpointMeta::new(&net_cfg, &ruleset.id, ruleset.params_hash(), 0);
        meta.search = cfg.search_defaults();
        checkpoint::save(&ckpt_dir.join("iter-0000.az"), &model.valid(), &meta)?;
        if state.games > 0 {
            // The warm start is the run's iteration 0: commit it, so a resume keeps it.
            let opt_path = state_file(out, "optimizer", 0);
            let opt_bytes = optim.to_record().into_bytes().map_err(|e| io_err(&opt_path, e))?;
            atomic_write(&opt_path, &opt_bytes).map_err(|e| io_err(&opt_path, e))?;
            let buf_path = state_file(out, "buffer", 0);
            atomic_write(&buf_path, &buffer.to_bytes()).map_err(|e| io_err(&buf_path, e))?;
            let text = toml::to_string(&state).map_err(|e| io_err(&state_path, e))?;
            atomic_write(&state_path, text.as_bytes()).map_err(|e| io_err(&state_path, e))?;
            remove_other_states(out, 0);
        }
    }

    let started = Instant::now();
    let elapsed_before = state.elapsed_s;
    while state.iteration < cfg.iterations {
        if cfg.time_limit_s > 0 && elapsed_before + started.elapsed().as_secs_f64() >= cfg.time_limit_s as f64 {
            if !opts.quiet {
                eprintln!("time limit of {} s reached after iteration {}", cfg.time_limit_s, state.iteration);
            }
            break;
        }
        let it = state.iteration + 1;
        let it_start = Instant::now();
        // Seeded per iteration, so a resumed run draws the same minibatches.
        let mut rng = FastRng::new(splitmix64(cfg.seed ^ 0xA11CE ^ it as u64));
        // Self-play with the current network.
        let sp_cfg = cfg.selfplay_config(it);
        let pb = bar(sp_cfg.games as u64, format!("iteration {it}: self-play"), opts.quiet);
        let inference = model.valid();
        let sp = self_play(&inference, &ruleset, &tables, &sp_cfg, Some(&pb))?;
        pb.finish_and_clear();
        let n_games = sp.games.len() as f64;
        let mut wins = [0u32; 2];
        let mut plies = 0u64;
        let mut new_samples = 0u64;
        for (summary, samples) in sp.games {
            plies += summary.plies as u64;
            if let Some(c) = summary.winner {
                wins[c.index()] += 1;
            }
            new_samples += samples.len() as u64;
            buffer.push(samples, cfg.training.window_games as usize);
        }
        // Gradient steps.
        let pb = bar(cfg.training.steps_per_iteration as u64, format!("iteration {it}: training"), opts.quiet);
        let flat = buffer.flat();
        let (m, stats) = train_steps(
            model,
            &mut optim,
            &flat,
            &tables,
            &loss_cfg,
            cfg.training.steps_per_iteration,
            &mut rng,
            Some(&pb),
        );
        model = m;
        pb.finish_and_clear();
        // Checkpoint, optimizer and buffer (atomic each).
        let inference = model.valid();
        let mut meta = CheckpointMeta::new(&net_cfg, &ruleset.id, ruleset.params_hash(), it);
        meta.search = cfg.search_defaults();
        let bytes = checkpoint::to_bytes(&inference, &meta)?;
        let ckpt = ckpt_dir.join(format!("iter-{it:04}.az"));
        atomic_write(&ckpt, &bytes).map_err(|e| io_err(&ckpt, e))?;
        let latest = out.join("latest.az");
        atomic_write(&latest, &bytes).map_err(|e| io_err(&latest, e))?;
        let opt_path = state_file(out, "optimizer", it);
        let opt_bytes = optim.to_record().into_bytes().map_err(|e| io_err(&opt_path, e))?;
        atomic_write(&opt_path, &opt_bytes).map_err(|e| io_err(&opt_path, e))?;
        let buf_path = state_file(out, "buffer", it);
        atomic_write(&buf_path, &buffer.to_bytes()).map_err(|e| io_err(&buf_path, e))?;
        // The small fixed match.
        let (mut score_random, mut score_mcts) = (f64::NAN, f64::NAN);
        if cfg.evaluation.games > 0 && (it % cfg.evaluation.every == 0 || it == cfg.iterations) {
            let search = SearchConfig { sims: cfg.evaluation.sims, dirichlet_frac: 0.0, ..cfg.search_config() };
            let net_cfg = &net_cfg;
            let seed = splitmix64(cfg.seed ^ 0xE7A1 ^ it as u64);
            if !opts.quiet {
                eprintln!("iteration {it}: evaluation match ({} games per opponent)", cfg.evaluation.games);
            }
            score_random = match_score(
                &inference,
                net_cfg,
                &ruleset,
                search,
                "random",
                cfg.evaluation.games,
                sp_cfg.ply_cap,
                seed,
            )?;
            score_mcts = match_score(
                &inference,
                net_cfg,
                &ruleset,
                search,
                "mcts:sims=100",
                cfg.evaluation.games,
                sp_cfg.ply_cap,
                seed,
            )?;
        }
        // Log row, then the commit point.
        state.iteration = it;
        state.games += n_games as u64;
        state.samples += new_samples;
        state.elapsed_s = elapsed_before + started.elapsed().as_secs_f64();
        let row = [
            it.to_string(),
            state.games.to_string(),
            state.samples.to_string(),
            buffer.len().to_string(),
            fmt_f(stats.policy_loss),
            fmt_f(stats.value_loss),
            fmt_f(stats.entropy),
            fmt_f(plies as f64 / n_games),
            fmt_f(wins[Color::White.index()] as f64 / n_games),
            fmt_f(wins[Color::Black.index()] as f64 / n_games),
            fmt_f((n_games - (wins[0] + wins[1]) as f64) / n_games),
            fmt_f(score_random),
            fmt_f(score_mcts),
            format!("{:.1}", sp.positions as f64 / sp.seconds.max(1e-9)),
            format!("{:.1}", sp.evaluations as f64 / sp.seconds.max(1e-9)),
            format!("{:.1}", state.elapsed_s),
        ]
        .join(",");
        let mut f = fs::OpenOptions::new().append(true).open(&log_path).map_err(|e| io_err(&log_path, e))?;
        writeln!(f, "{row}").and_then(|_| f.sync_all()).map_err(|e| io_err(&log_path, e))?;
        let text = toml::to_string(&state).map_err(|e| io_err(&state_path, e))?;
        atomic_write(&state_path, text.as_bytes()).map_err(|e| io_err(&state_path, e))?;
        remove_other_states(out, it);
        if !opts.quiet {
            eprintln!(
                "iteration {it}: {} games, {:.0} plies/game, policy loss {:.3}, value loss {:.3}, score loss {:.4}, score vs random {}, vs mcts:sims=100 {} ({:.0} s)",
                n_games,
                plies as f64 / n_games,
                stats.policy_loss,
                stats.value_loss,
                stats.score_loss,
                fmt_f(score_random),
                fmt_f(score_mcts),
                it_start.elapsed().as_secs_f64()
            );
        }
    }
    Ok(state)
}

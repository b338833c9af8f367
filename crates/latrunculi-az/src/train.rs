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
//! | `optimizer.bin` | AdamW state after the newest iteration |
//! | `buffer.bin` | the replay buffer after the newest iteration |
//! | `state.toml` | the last finished iteration: the commit point of an iteration |
//!
//! Every file is written atomically (temporary file, fsync, rename), and `state.toml`
//! last, so a run stopped at any moment resumes (`--resume`) from its last finished
//! iteration: rows of `train_log.csv` past it are dropped and that iteration is redone.

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

const BUFFER_MAGIC: &[u8; 10] = b"LATAZ-BUF\n";

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

    fn flat(&self) -> Vec<&Sample> {
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
            }
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a buffer written by [`ReplayBuffer::to_bytes`]; `path` is named in errors.
    pub fn from_bytes(bytes: &[u8], path: &Path) -> Result<ReplayBuffer, AzError> {
        let err = |m: &str| AzError::Io { path: path.to_path_buf(), message: m.to_string() };
        if bytes.len() < BUFFER_MAGIC.len() + 12 || &bytes[..BUFFER_MAGIC.len()] != BUFFER_MAGIC {
            return Err(err("not a replay buffer file, or truncated"));
        }
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
                g.push(Sample { obs, policy, value, ply });
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
}

/// Builds one minibatch as tensors: observations, dense policy targets, values.
fn minibatch(
    samples: &[&Sample],
    picks: &[usize],
    tables: &BoardTables,
    mirror: &[bool],
    device: &Device,
) -> (Tensor<4>, Tensor<2>, Tensor<1>) {
    let b = picks.len();
    let (olen, actions) = (tables.obs_len(), tables.actions());
    let mut obs = Vec::with_capacity(b * olen);
    let mut pi = vec![0.0f32; b * actions];
    let mut z = Vec::with_capacity(b);
    for (k, (&i, &m)) in picks.iter().zip(mirror).enumerate() {
        let s = samples[i];
        let start = obs.len();
        obs.extend_from_slice(&s.obs);
        if m {
            mirror_observation(&mut obs[start..], tables.shape[2]);
        }
        for &(a, p) in &s.policy {
            let a = if m { tables.frame.mirror(a as usize) } else { a as usize };
            pi[k * actions + a] += p;
        }
        z.push(s.value);
    }
    let [p, h, w] = tables.shape;
    (
        Tensor::from_data(TensorData::new(obs, [b, p, h, w]), device),
        Tensor::from_data(TensorData::new(pi, [b, actions]), device),
        Tensor::from_data(TensorData::new(z, [b]), device),
    )
}

/// Runs `steps` AdamW steps on minibatches drawn uniformly from the buffer.
#[allow(clippy::too_many_arguments)]
pub fn train_steps(
    mut model: Network,
    optim: &mut ModuleOptimizer,
    buffer: &ReplayBuffer,
    tables: &BoardTables,
    cfg: &TrainConfig,
    steps: u32,
    rng: &mut FastRng,
    progress: Option<&ProgressBar>,
) -> (Network, StepStats) {
    let samples = buffer.flat();
    let mut stats = StepStats::default();
    if samples.is_empty() || steps == 0 {
        return (model, stats);
    }
    let device = crate::device::training();
    let b = cfg.training.batch_size.min(samples.len()).max(1);
    for _ in 0..steps {
        let picks: Vec<usize> = (0..b).map(|_| rng.below(samples.len())).collect();
        let mirror: Vec<bool> = (0..b).map(|_| cfg.training.mirror && rng.below(2) == 1).collect();
        let (obs, pi, z) = minibatch(&samples, &picks, tables, &mirror, &device);
        let (logits, value) = model.forward(obs);
        let logp = log_softmax(logits, 1);
        let policy_loss = (pi * logp.clone()).sum_dim(1).mean().neg();
        let value_loss = (value - z).powi_scalar(2).mean();
        let entropy = (logp.clone().exp() * logp).sum_dim(1).mean().neg().detach();
        let loss = policy_loss.clone() + value_loss.clone();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(cfg.training.learning_rate, model, grads);
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
    (model, stats)
}

/// Plays `games` games between the network (colours alternated, White first) and the
/// baseline `opponent`; returns the network's score (win 1, draw ½) per game.
pub fn match_score(
    net: &Network,
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
            let mut az = AzAgent::new("az", net.clone(), ruleset, search);
            let mut other = latrunculi_agents::parse_agent(opponent)?;
            let game_seed = splitmix64(seed ^ splitmix64(g as u64 + 1));
            az.new_game(game_seed);
            other.new_game(splitmix64(game_seed));
            let az_colour = if g % 2 == 0 { Color::White } else { Color::Black };
            let mut pos = Position::new(ruleset);
            pos.set_ply_cap(ply_cap);
            while !pos.is_over() {
                let mv = if pos.side_to_move() == az_colour { az.select(&pos) } else { other.select(&pos) };
                if pos.try_play(mv).is_none() {
                    return Err(AzError::Mismatch(format!("an agent chose the illegal move {mv:?} in the match")));
                }
            }
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

/// Runs (or resumes) a training run in `out`; `config_text` is the configuration file's
/// text, `origin` its name. Returns the final run state.
pub fn run(config_text: &str, origin: &str, out: &Path, opts: &RunOptions) -> Result<RunState, AzError> {
    let cfg = TrainConfig::from_toml_str(config_text, origin)?;
    let ruleset = cfg.load_ruleset(opts.rules_dir.as_deref())?;
    let tables = BoardTables::new(&ruleset);
    let net_cfg = cfg.network_config(&ruleset);
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
        let opt_path = out.join("optimizer.bin");
        if state.iteration > 0 {
            let bytes = fs::read(&opt_path).map_err(|e| io_err(&opt_path, e))?;
            let record = OptimizerRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| io_err(&opt_path, e))?;
            optim = optim.load_record(record);
            let buf_path = out.join("buffer.bin");
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
        let meta = CheckpointMeta::new(&net_cfg, &ruleset.id, ruleset.params_hash(), 0);
        checkpoint::save(&ckpt_dir.join("iter-0000.az"), &model.valid(), &meta)?;
        truncate_log(&log_path, 0)?;
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
        let sp = self_play(&inference, &ruleset, &sp_cfg, Some(&pb))?;
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
        let (m, stats) = train_steps(
            model,
            &mut optim,
            &buffer,
            &tables,
            &cfg,
            cfg.training.steps_per_iteration,
            &mut rng,
            Some(&pb),
        );
        model = m;
        pb.finish_and_clear();
        // Checkpoint, optimizer and buffer (atomic each).
        let inference = model.valid();
        let meta = CheckpointMeta::new(&net_cfg, &ruleset.id, ruleset.params_hash(), it);
        let bytes = checkpoint::to_bytes(&inference, &meta)?;
        let ckpt = ckpt_dir.join(format!("iter-{it:04}.az"));
        atomic_write(&ckpt, &bytes).map_err(|e| io_err(&ckpt, e))?;
        let latest = out.join("latest.az");
        atomic_write(&latest, &bytes).map_err(|e| io_err(&latest, e))?;
        let opt_path = out.join("optimizer.bin");
        let opt_bytes = optim.to_record().into_bytes().map_err(|e| io_err(&opt_path, e))?;
        atomic_write(&opt_path, &opt_bytes).map_err(|e| io_err(&opt_path, e))?;
        let buf_path = out.join("buffer.bin");
        atomic_write(&buf_path, &buffer.to_bytes()).map_err(|e| io_err(&buf_path, e))?;
        // The small fixed match.
        let (mut score_random, mut score_mcts) = (f64::NAN, f64::NAN);
        if cfg.evaluation.games > 0 && (it % cfg.evaluation.every == 0 || it == cfg.iterations) {
            let search = SearchConfig { sims: cfg.evaluation.sims, dirichlet_frac: 0.0, ..cfg.search_config() };
            let seed = splitmix64(cfg.seed ^ 0xE7A1 ^ it as u64);
            if !opts.quiet {
                eprintln!("iteration {it}: evaluation match ({} games per opponent)", cfg.evaluation.games);
            }
            score_random =
                match_score(&inference, &ruleset, search, "random", cfg.evaluation.games, sp_cfg.ply_cap, seed)?;
            score_mcts =
                match_score(&inference, &ruleset, search, "mcts:sims=100", cfg.evaluation.games, sp_cfg.ply_cap, seed)?;
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
        if !opts.quiet {
            eprintln!(
                "iteration {it}: {} games, {:.0} plies/game, policy loss {:.3}, value loss {:.3}, score vs random {}, vs mcts:sims=100 {} ({:.0} s)",
                n_games,
                plies as f64 / n_games,
                stats.policy_loss,
                stats.value_loss,
                fmt_f(score_random),
                fmt_f(score_mcts),
                it_start.elapsed().as_secs_f64()
            );
        }
    }
    Ok(state)
}

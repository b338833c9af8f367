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
//!
//! The steps of a run, each in its own function: [`run`] opens the folder
//! (`Run::open`), starts it (`Run::start`, with the warm start of
//! `Run::warm_start`) or resumes it (`Run::resume`), then plays iterations
//! (`Run::iteration`), each ending in its commit (`Run::commit`). The replay buffer
//! is in [`buffer`], the gradient steps in [`steps`], the evaluation match in [`mod@matches`]
//! and `train_log.csv` in [`log`].

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use burn::module::Module;
use burn::optim::{AdamWConfig, ModuleOptimizer, OptimizerRecord};
use burn::tensor::Bytes;
use indicatif::{ProgressBar, ProgressStyle};
use latrunculi_files::{write_atomic, write_atomic_with};
use latrunculi_rules::{Color, FastRng, Ruleset, splitmix64};
use serde::{Deserialize, Serialize};

use crate::AzError;
use crate::checkpoint::{self, CheckpointMeta, FamilyMember};
use crate::config::TrainConfig;
use crate::model::{Network, NetworkConfig};
use crate::search::{BoardTables, SearchConfig};
use crate::selfplay::{Sample, SelfPlayConfig, SelfPlayOutput, self_play};

pub mod buffer;
mod folder;
pub mod log;
pub mod matches;
pub mod steps;

pub use folder::state_file;
use folder::{Folder, remove_other_states};

pub use buffer::ReplayBuffer;
pub use log::{LOG_HEADER, LogRow};
pub use matches::match_score;
pub use steps::{
    ILLEGAL_LOGIT, LossConfig, Minibatch, StepStats, minibatch, policy_loss, train_steps, train_steps_until,
};

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

/// What a run carries from one iteration to the next.
struct Progress {
    state: RunState,
    model: Network,
    optim: ModuleOptimizer,
    buffer: ReplayBuffer,
}

/// A run being trained: its configuration, ruleset (the first of its family), network
/// shape and folder.
struct Run<'a> {
    cfg: &'a TrainConfig,
    ruleset: &'a Ruleset,
    /// Every ruleset trained (the first is `ruleset`), with its tables.
    family: Vec<(&'a Ruleset, BoardTables)>,
    opts: &'a RunOptions,
    net_cfg: NetworkConfig,
    tables: BoardTables,
    loss: LossConfig,
    folder: Folder,
}

/// Runs (or resumes) a training run in `out`; `config_text` is the configuration file's
/// text, `origin` its name. Returns the final run state.
pub fn run(config_text: &str, origin: &str, out: &Path, opts: &RunOptions) -> Result<RunState, AzError> {
    crate::device::selected()?;
    let cfg = TrainConfig::from_toml_str(config_text, origin)?;
    let family = cfg.load_family(opts.rules_dir.as_deref())?;
    let run = Run::open(&cfg, &family, out, opts)?;
    let run_exists = run.check_folder(origin)?;
    let mut progress = if run_exists && run.folder.state.exists() { run.resume()? } else { run.start(config_text)? };
    let started = Instant::now();
    let elapsed_before = progress.state.elapsed_s;
    let mut last_iteration_s = None;
    while progress.state.iteration < cfg.iterations {
        let elapsed = elapsed_before + started.elapsed().as_secs_f64();
        if !time_for_an_iteration(cfg.time_limit_s, elapsed, last_iteration_s) {
            if !opts.quiet {
                eprintln!(
                    "time limit of {} s: {elapsed:.0} s spent, no room for iteration {}",
                    cfg.time_limit_s,
                    progress.state.iteration + 1
                );
            }
            break;
        }
        let before = started.elapsed().as_secs_f64();
        run.iteration(&mut progress, elapsed_before, started)?;
        last_iteration_s = Some(started.elapsed().as_secs_f64() - before);
    }
    Ok(progress.state)
}

/// Whether another iteration may start under a time limit of `limit_s` seconds (0: none)
/// with `elapsed_s` spent: only if it would end within the limit, supposing it takes as
/// long as the last one (`last_s`; before the first iteration of a process, only if any
/// time is left).
fn time_for_an_iteration(limit_s: u64, elapsed_s: f64, last_s: Option<f64>) -> bool {
    limit_s == 0 || elapsed_s + last_s.unwrap_or(0.0) < limit_s as f64
}

impl<'a> Run<'a> {
    /// The run of `cfg` in `out`; seeds the training device.
    fn open(
        cfg: &'a TrainConfig,
        members: &'a [Ruleset],
        out: &Path,
        opts: &'a RunOptions,
    ) -> Result<Run<'a>, AzError> {
        let net_cfg = cfg.family_network_config(members)?;
        let family: Vec<(&Ruleset, BoardTables)> =
            members.iter().map(|r| (r, BoardTables::for_network(r, &net_cfg))).collect();
        let (ruleset, tables) = family.first().cloned().ok_or_else(|| AzError::Config("no ruleset".into()))?;
        let loss = LossConfig::from_config(cfg);
        crate::device::training().seed(cfg.seed);
        Ok(Run { cfg, ruleset, family, opts, net_cfg, tables, loss, folder: Folder::new(out) })
    }

    /// Writes the network of iteration `it` as its checkpoint and as `latest.az`
    /// (serialised once, each file atomic).
    fn save_network(&self, net: &Network, it: u32) -> Result<(), AzError> {
        let bytes = checkpoint::to_bytes(net, &self.meta(it))?;
        for path in [self.folder.checkpoint(it), self.folder.out.join("latest.az")] {
            write_atomic(&path, &bytes).map_err(|e| AzError::io(&path, "cannot write", e))?;
        }
        Ok(())
    }

    /// The checkpoint metadata of iteration `it`: the network, the first ruleset, the
    /// family (when there is more than one ruleset) and the search defaults.
    fn meta(&self, it: u32) -> CheckpointMeta {
        let mut meta = CheckpointMeta::new(&self.net_cfg, &self.ruleset.id, self.ruleset.params_hash(), it);
        meta.search = self.cfg.search_defaults();
        if self.family.len() > 1 {
            meta.family = self
                .family
                .iter()
                .map(|(r, _)| FamilyMember { ruleset: r.id.clone(), params_hash: format!("{:016x}", r.params_hash()) })
                .collect();
        }
        meta
    }

    /// The family member whose rules a dataset's games were played under (its first
    /// game's `params_hash`); the first ruleset for a run of one (whose loader names any
    /// mismatch).
    fn member_of_dataset(&self, dir: &Path) -> Result<&(&'a Ruleset, BoardTables), AzError> {
        if self.family.len() == 1 {
            return Ok(&self.family[0]);
        }
        let hash = crate::warmstart::dataset_params_hash(dir)?;
        self.family.iter().find(|(r, _)| format!("{:016x}", r.params_hash()) == hash).ok_or_else(|| {
            let names: Vec<&str> = self.family.iter().map(|(r, _)| r.id.as_str()).collect();
            AzError::file(
                &dir.join(latrunculi_files::dataset::GAMES_FILE),
                format!("its games (parameters {hash}) are of none of the rulesets trained ({})", names.join(", ")),
            )
        })
    }

    /// A fresh optimizer.
    fn optimizer(&self) -> ModuleOptimizer {
        AdamWConfig::new().with_weight_decay(self.cfg.training.weight_decay).init()
    }

    /// Whether the folder holds a run, which may only be resumed, with the same
    /// configuration (`origin` names the new one in errors).
    fn check_folder(&self, origin: &str) -> Result<bool, AzError> {
        let (out, saved) = (&self.folder.out, &self.folder.config);
        let run_exists = saved.exists();
        if run_exists && !self.opts.resume {
            return Err(AzError::Config(format!(
                "{} already holds a run; pass --resume to continue it, or choose another --out",
                out.display()
            )));
        }
        if run_exists {
            let old = fs::read_to_string(saved).map_err(|e| AzError::io(saved, "cannot read", e))?;
            if TrainConfig::from_toml_str(&old, &saved.display().to_string())? != *self.cfg {
                return Err(AzError::Config(format!(
                    "{origin} differs from the configuration of the run in {} ({}); resume with the same configuration",
                    out.display(),
                    saved.display()
                )));
            }
        }
        Ok(run_exists)
    }

    /// Reads the state of the last finished iteration: its checkpoint, optimizer and
    /// buffer; drops the log rows past it.
    fn resume(&self) -> Result<Progress, AzError> {
        let (out, state_path) = (&self.folder.out, &self.folder.state);
        let device = crate::device::training();
        let text = fs::read_to_string(state_path).map_err(|e| AzError::io(state_path, "cannot read", e))?;
        let state: RunState = toml::from_str(&text).map_err(|e| AzError::file(state_path, e))?;
        let ckpt = self.folder.checkpoint(state.iteration);
        let (meta, model) = checkpoint::load(&ckpt, &device)?;
        if meta.network_config() != self.net_cfg {
            return Err(AzError::Mismatch(format!("{}: network shape differs from the configuration", ckpt.display())));
        }
        let mut optim = self.optimizer();
        let mut buffer = ReplayBuffer::default();
        let (mut opt_path, mut buf_path) =
            (state_file(out, "optimizer", state.iteration), state_file(out, "buffer", state.iteration));
        if !opt_path.exists() && out.join("optimizer.bin").exists() {
            // A run from before the files were numbered.
            (opt_path, buf_path) = (out.join("optimizer.bin"), out.join("buffer.bin"));
        }
        if state.iteration > 0 || opt_path.exists() {
            let bytes = fs::read(&opt_path).map_err(|e| AzError::io(&opt_path, "cannot read", e))?;
            let record =
                OptimizerRecord::from_bytes(Bytes::from_bytes_vec(bytes)).map_err(|e| AzError::file(&opt_path, e))?;
            optim = optim.load_record(record);
            let bytes = fs::read(&buf_path).map_err(|e| AzError::io(&buf_path, "cannot read", e))?;
            buffer = ReplayBuffer::from_bytes(&bytes, &buf_path)?;
        }
        log::truncate_log(&self.folder.log, state.iteration)?;
        if !self.opts.quiet {
            eprintln!("resuming {} after iteration {}", out.display(), state.iteration);
        }
        Ok(Progress { state, model, optim, buffer })
    }

    /// Starts the run: the folder, the saved configuration, the first network (untrained,
    /// or `init_network`'s; after the warm start, if any) as checkpoint 0, and the warm
    /// start's commit.
    fn start(&self, config_text: &str) -> Result<Progress, AzError> {
        // The network to start from, checked before anything is written.
        let model = match self.cfg.init_network.trim() {
            "" => self.net_cfg.init(&crate::device::training()),
            path => self.initial_network(Path::new(path))?,
        };
        let f = &self.folder;
        fs::create_dir_all(&f.checkpoints).map_err(|e| AzError::io(&f.checkpoints, "cannot create", e))?;
        write_atomic(&f.config, config_text.as_bytes()).map_err(|e| AzError::io(&f.config, "cannot write", e))?;
        let mut progress =
            Progress { state: RunState::default(), model, optim: self.optimizer(), buffer: ReplayBuffer::default() };
        log::truncate_log(&f.log, 0)?;
        if !self.cfg.warmstart.datasets.is_empty() {
            self.warm_start(&mut progress)?;
        }
        // Also as the latest network, so that a run stopped by its time limit after the
        // warm start has one where the summary says.
        self.save_network(&progress.model.valid(), 0)?;
        if progress.state.games > 0 {
            // The warm start is the run's iteration 0: commit it, so a resume keeps it.
            self.save_optimizer_and_buffer(&progress, 0)?;
            self.commit(&progress.state)?;
        }
        Ok(progress)
    }

    /// The network of `init_network`, checked against the run: the same network shape
    /// and the same rulesets (ids and parameters, the family's in order).
    fn initial_network(&self, path: &Path) -> Result<Network, AzError> {
        let (meta, model) = checkpoint::load(path, &crate::device::training())?;
        let describe = |c: &NetworkConfig| {
            format!(
                "{} blocks, {} channels, {} planes, {}x{}, {} actions, {} policy planes, score head {}, \
                 {} rule features, ply divisor {}",
                c.blocks,
                c.channels,
                c.planes,
                c.width,
                c.height,
                c.actions,
                c.policy_planes,
                c.score_head,
                c.rule_features.len(),
                match c.ply_scale {
                    0 => "each game's cap".to_string(),
                    n => n.to_string(),
                }
            )
        };
        if meta.network_config() != self.net_cfg {
            return Err(AzError::Mismatch(format!(
                "init_network {}: its network is not the one the configuration trains: {} against {} \
                 (a fixed ply divisor other than selfplay.ply_cap is set by network.ply_scale)",
                path.display(),
                describe(&meta.network_config()),
                describe(&self.net_cfg)
            )));
        }
        let ours = self.meta(meta.iteration);
        let rules = |m: &CheckpointMeta| -> Vec<(String, String)> {
            if m.family.is_empty() {
                vec![(m.ruleset.clone(), m.params_hash.clone())]
            } else {
                m.family.iter().map(|f| (f.ruleset.clone(), f.params_hash.clone())).collect()
            }
        };
        let (theirs, ours) = (rules(&meta), rules(&ours));
        if theirs != ours {
            let names = |v: &[(String, String)]| -> String {
                v.iter().map(|(id, hash)| format!("{id} ({hash})")).collect::<Vec<_>>().join(", ")
            };
            return Err(AzError::Mismatch(format!(
                "init_network {}: it was trained on {}, not on the run's rulesets {}",
                path.display(),
                names(&theirs),
                names(&ours)
            )));
        }
        if !self.opts.quiet {
            eprintln!("starting from {} (iteration {} of its run)", path.display(), meta.iteration);
        }
        Ok(model)
    }

    /// The warm start: gradient steps on the games of the configured datasets, logged as
    /// iteration 0.
    fn warm_start(&self, progress: &mut Progress) -> Result<(), AzError> {
        let (cfg, opts) = (self.cfg, self.opts);
        let started = Instant::now();
        let mut games = Vec::new();
        for dir in &cfg.warmstart.datasets {
            let (ruleset, tables) = self.member_of_dataset(Path::new(dir))?;
            games.extend(crate::warmstart::load_dataset(Path::new(dir), ruleset, tables, cfg)?);
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
            batch_size: if cfg.warmstart.batch_size > 0 { cfg.warmstart.batch_size } else { cfg.training.batch_size },
            value_q_mix: 0.0,
            ..self.loss
        };
        // Under a time limit the bar counts its seconds (the steps would give an ETA of
        // days when `steps` is set high for the limit to end them).
        let pb = if cfg.warmstart.time_limit_s > 0 {
            let pb = bar(cfg.warmstart.time_limit_s, "warm start (s)".into(), opts.quiet);
            pb.set_position(started.elapsed().as_secs().min(cfg.warmstart.time_limit_s));
            pb
        } else {
            bar(cfg.warmstart.steps as u64, "warm start".into(), opts.quiet)
        };
        let model = progress.model.clone();
        let deadline = (cfg.warmstart.time_limit_s > 0)
            .then(|| started + std::time::Duration::from_secs(cfg.warmstart.time_limit_s));
        let (m, stats) = train_steps_until(
            model,
            &mut progress.optim,
            &flat,
            &self.tables,
            &warm_loss,
            cfg.warmstart.steps,
            deadline,
            &mut rng,
            Some(&pb),
        );
        progress.model = m;
        pb.finish_and_clear();
        let state = &mut progress.state;
        state.games = games.len() as u64;
        state.samples = flat.len() as u64;
        state.elapsed_s = started.elapsed().as_secs_f64();
        let plies: u64 = games.iter().map(|g| g.len() as u64).sum();
        let n = games.len().max(1) as f64;
        if cfg.warmstart.keep_in_buffer {
            let window = cfg.training.window_games as usize;
            if games.len() > window {
                // Said even when quiet: the run then forgets most of what it was taught.
                eprintln!(
                    "warning: [warmstart] keep_in_buffer: only the last {window} of the warm start's {} games fit \
                     the replay window ([training] window_games = {window}); the other {} leave it at once",
                    games.len(),
                    games.len() - window
                );
            }
            for g in games.iter().cloned() {
                progress.buffer.push(g, cfg.training.window_games as usize);
            }
        }
        let row = LogRow {
            iteration: 0,
            games: state.games,
            samples: state.samples,
            buffer_samples: progress.buffer.len() as u64,
            policy_loss: Some(stats.policy_loss),
            value_loss: Some(stats.value_loss),
            policy_entropy: Some(stats.entropy),
            mean_plies: Some(plies as f64 / n),
            white_rate: Some(results[Color::White.index()] as f64 / n),
            black_rate: Some(results[Color::Black.index()] as f64 / n),
            draw_rate: Some(results[2] as f64 / n),
            score_random: None,
            score_mcts100: None,
            selfplay_positions_per_s: None,
            selfplay_evals_per_s: None,
            elapsed_s: Some(state.elapsed_s),
            steps: Some(stats.steps as u64),
        };
        row.append(&self.folder.log)?;
        if !opts.quiet {
            eprintln!(
                "warm start: {} steps, policy loss {:.3}, value loss {:.3}, score loss {:.4} ({:.0} s)",
                stats.steps, stats.policy_loss, stats.value_loss, stats.score_loss, state.elapsed_s
            );
        }
        Ok(())
    }

    /// One iteration: self-play with the current network, gradient steps, checkpoint,
    /// the evaluation match when due, the log row and the commit.
    fn iteration(&self, progress: &mut Progress, elapsed_before: f64, started: Instant) -> Result<(), AzError> {
        let (cfg, opts) = (self.cfg, self.opts);
        let it = progress.state.iteration + 1;
        let it_start = Instant::now();
        // Seeded per iteration, so a resumed run draws the same minibatches.
        let mut rng = FastRng::new(splitmix64(cfg.seed ^ 0xA11CE ^ it as u64));
        // Self-play with the current network.
        let sp_cfg = cfg.selfplay_config(it);
        let pb = bar(sp_cfg.games as u64, format!("iteration {it}: self-play"), opts.quiet);
        let inference = progress.model.valid();
        let sp = self.self_play(&inference, &sp_cfg, &pb)?;
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
            progress.buffer.push(samples, cfg.training.window_games as usize);
        }
        // Gradient steps.
        let pb = bar(cfg.training.steps_per_iteration as u64, format!("iteration {it}: training"), opts.quiet);
        let flat = progress.buffer.flat();
        let (m, stats) = train_steps(
            progress.model.clone(),
            &mut progress.optim,
            &flat,
            &self.tables,
            &self.loss,
            cfg.training.steps_per_iteration,
            &mut rng,
            Some(&pb),
        );
        progress.model = m;
        pb.finish_and_clear();
        // Checkpoint, optimizer and buffer (atomic each).
        let inference = progress.model.valid();
        self.save_network(&inference, it)?;
        self.save_optimizer_and_buffer(progress, it)?;
        // The small fixed match.
        let (score_random, score_mcts) = self.evaluation(&inference, it, sp_cfg.ply_cap)?;
        // Log row, then the commit point.
        let state = &mut progress.state;
        state.iteration = it;
        state.games += n_games as u64;
        state.samples += new_samples;
        state.elapsed_s = elapsed_before + started.elapsed().as_secs_f64();
        let row = LogRow {
            iteration: it,
            games: state.games,
            samples: state.samples,
            buffer_samples: progress.buffer.len() as u64,
            policy_loss: Some(stats.policy_loss),
            value_loss: Some(stats.value_loss),
            policy_entropy: Some(stats.entropy),
            mean_plies: Some(plies as f64 / n_games),
            white_rate: Some(wins[Color::White.index()] as f64 / n_games),
            black_rate: Some(wins[Color::Black.index()] as f64 / n_games),
            draw_rate: Some((n_games - (wins[0] + wins[1]) as f64) / n_games),
            score_random: Some(score_random),
            score_mcts100: Some(score_mcts),
            selfplay_positions_per_s: Some(sp.positions as f64 / sp.seconds.max(1e-9)),
            selfplay_evals_per_s: Some(sp.evaluations as f64 / sp.seconds.max(1e-9)),
            elapsed_s: Some(state.elapsed_s),
            steps: Some(stats.steps as u64),
        };
        row.append(&self.folder.log)?;
        self.commit(state)?;
        if !opts.quiet {
            let show = |x: f64| if x.is_finite() { format!("{x:.4}") } else { String::new() };
            eprintln!(
                "iteration {it}: {} games, {:.0} plies/game, policy loss {:.3}, value loss {:.3}, score loss {:.4}, score vs random {}, vs mcts:sims=100 {} ({:.0} s)",
                n_games,
                plies as f64 / n_games,
                stats.policy_loss,
                stats.value_loss,
                stats.score_loss,
                show(score_random),
                show(score_mcts),
                it_start.elapsed().as_secs_f64()
            );
        }
        Ok(())
    }

    /// Self-play of one iteration: all games on the one ruleset, or for a family, the
    /// games shared out among its rulesets in turn (the first ruleset gets the
    /// remainder; each plays with its own seed), their outputs joined.
    fn self_play(&self, net: &Network, sp_cfg: &SelfPlayConfig, pb: &ProgressBar) -> Result<SelfPlayOutput, AzError> {
        if self.family.len() == 1 {
            return self_play(net, self.ruleset, &self.tables, sp_cfg, Some(pb));
        }
        let k = self.family.len() as u32;
        let mut all = SelfPlayOutput { games: Vec::new(), evaluations: 0, batches: 0, positions: 0, seconds: 0.0 };
        for (i, (ruleset, tables)) in self.family.iter().enumerate() {
            let games = sp_cfg.games / k + if i == 0 { sp_cfg.games % k } else { 0 };
            if games == 0 {
                continue;
            }
            let cfg_i = SelfPlayConfig {
                games,
                parallel: sp_cfg.parallel.min(games).max(1),
                seed: if i == 0 { sp_cfg.seed } else { splitmix64(sp_cfg.seed ^ (0xFA31 + i as u64)) },
                ..*sp_cfg
            };
            let out = self_play(net, ruleset, tables, &cfg_i, Some(pb))?;
            all.games.extend(out.games);
            all.evaluations += out.evaluations;
            all.batches += out.batches;
            all.positions += out.positions;
            all.seconds += out.seconds;
        }
        Ok(all)
    }

    /// The network's scores against `random` and `mcts:sims=100` after iteration `it`
    /// (NaN when no match is due).
    fn evaluation(&self, inference: &Network, it: u32, ply_cap: u32) -> Result<(f64, f64), AzError> {
        let cfg = self.cfg;
        if cfg.evaluation.games == 0 || (!it.is_multiple_of(cfg.evaluation.every) && it != cfg.iterations) {
            return Ok((f64::NAN, f64::NAN));
        }
        let search = SearchConfig { sims: cfg.evaluation.sims, dirichlet_frac: 0.0, ..cfg.search_config() };
        let seed = splitmix64(cfg.seed ^ 0xE7A1 ^ it as u64);
        if !self.opts.quiet {
            eprintln!("iteration {it}: evaluation match ({} games per opponent)", cfg.evaluation.games);
        }
        let score = |opponent: &str| {
            match_score(inference, &self.net_cfg, self.ruleset, search, opponent, cfg.evaluation.games, ply_cap, seed)
        };
        Ok((score("random")?, score("mcts:sims=100")?))
    }

    /// Writes the optimizer and buffer files of iteration `it`.
    fn save_optimizer_and_buffer(&self, progress: &Progress, it: u32) -> Result<(), AzError> {
        let out = &self.folder.out;
        let opt_path = state_file(out, "optimizer", it);
        let opt_bytes = progress.optim.to_record().into_bytes().map_err(|e| AzError::file(&opt_path, e))?;
        write_atomic(&opt_path, &opt_bytes).map_err(|e| AzError::io(&opt_path, "cannot write", e))?;
        let buf_path = state_file(out, "buffer", it);
        write_atomic_with(&buf_path, |f| progress.buffer.write_to(f))
            .map_err(|e| AzError::io(&buf_path, "cannot write", e))
    }

    /// The commit point of an iteration: `state.toml`, then the other iterations'
    /// optimizer and buffer files are removed.
    fn commit(&self, state: &RunState) -> Result<(), AzError> {
        let path = &self.folder.state;
        let text = toml::to_string(state).map_err(|e| AzError::file(path, e))?;
        write_atomic(path, text.as_bytes()).map_err(|e| AzError::io(path, "cannot write", e))?;
        remove_other_states(&self.folder.out, state.iteration);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::time_for_an_iteration;

    #[test]
    fn an_iteration_starts_only_if_it_would_end_within_the_limit() {
        assert!(time_for_an_iteration(0, 1e9, Some(1e9)), "0 is no limit");
        assert!(time_for_an_iteration(3600, 3000.0, Some(500.0)));
        assert!(!time_for_an_iteration(3600, 3200.0, Some(500.0)), "it would end at 3,700 s");
        assert!(time_for_an_iteration(3600, 3599.0, None), "no iteration timed yet: any time left will do");
        assert!(!time_for_an_iteration(3600, 3600.0, None));
    }
}

//! The training configuration (`configs/train/*.toml`). Every key has a default;
//! unknown keys are errors naming the file and line.

use std::path::Path;

use latrunculi_rules::{BoardSize, LabelError, Ruleset, RulesetSpec};
use serde::{Deserialize, Serialize};

use crate::AzError;
use crate::model::{NetworkConfig, network_too_large};
use crate::search::SearchConfig;
use crate::selfplay::SelfPlayConfig;

/// A training run's configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Ruleset label ([`RulesetSpec`]): an id (built in or in the rules folder) or path
    /// to a ruleset TOML, optionally with `@WxH` and `+key=value` changes.
    pub ruleset: String,
    /// Board size `WxH` overriding the ruleset's (empty: the ruleset's own).
    pub board: String,
    /// Further rulesets trained at once, by one network told which rules it plays by
    /// rule planes ([`crate::conditioning`]): labels as `ruleset`, each played on the
    /// board of `ruleset` (after `board`). Self-play games are shared out among the
    /// rulesets in turn; warm-start datasets go to the ruleset whose parameters they
    /// record; the evaluation match plays `ruleset`. Empty: one ruleset.
    pub family: Vec<String>,
    /// Seed of everything random in the run.
    pub seed: u64,
    /// A trained network (`.az` file, relative to the working directory) to start from
    /// instead of an untrained one: fine-tuning, by the warm start, self-play or both.
    /// It must have the run's network shape and have been trained on the run's rulesets
    /// (the same `ruleset`, or the same family, by parameters); empty: an untrained
    /// network.
    pub init_network: String,
    /// Iterations (self-play → training → checkpoint) to run in all; 0 with a
    /// `[warmstart]`: the warm start alone.
    pub iterations: u32,
    /// Seconds of the run (warm start included) within which iterations must end (0: no
    /// limit): an iteration starts only if, taking as long as the last one, it would end
    /// within them (the first one a process runs, if any time is left).
    pub time_limit_s: u64,
    /// Network size.
    pub network: NetworkSection,
    /// Self-play.
    pub selfplay: SelfPlaySection,
    /// Gradient descent.
    pub training: TrainingSection,
    /// The small fixed match logged each iteration.
    pub evaluation: EvaluationSection,
    /// Supervised pre-training on datasets of other players' games (expert iteration).
    pub warmstart: WarmStartSection,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            ruleset: "kowalski".into(),
            board: String::new(),
            family: Vec::new(),
            seed: 1,
            init_network: String::new(),
            iterations: 10,
            time_limit_s: 0,
            network: NetworkSection::default(),
            selfplay: SelfPlaySection::default(),
            training: TrainingSection::default(),
            evaluation: EvaluationSection::default(),
            warmstart: WarmStartSection::default(),
        }
    }
}

/// `[warmstart]`: before the first self-play, train the untrained network on the games
/// of datasets written by `latrunculi dataset` (the dataset's policy rows, or the move
/// played, as policy target; the result, optionally mixed with the mover's own value, as
/// value target; the final material as score target).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WarmStartSection {
    /// Dataset folders (relative paths are taken from the working directory); empty: no
    /// warm start.
    pub datasets: Vec<String>,
    /// Gradient steps on the warm-start data (at most: see `time_limit_s`).
    pub steps: u32,
    /// Seconds of the warm start (loading the datasets included) after which it takes
    /// no more steps (0: no limit, all `steps` are taken); at least one step is taken.
    /// With `iterations = 0` and this the run's `time_limit_s`, the whole time goes to
    /// learning the datasets' games.
    pub time_limit_s: u64,
    /// Learning rate of the warm-start steps (0: `training.learning_rate`).
    pub learning_rate: f64,
    /// Minibatch size of the warm-start steps (0: `training.batch_size`).
    pub batch_size: usize,
    /// Keep the warm-start games in the replay window, as if they were the oldest
    /// self-play games (they leave it as self-play games arrive). The window holds
    /// `training.window_games` games, so only the last that many are kept (a warning
    /// says so when there are more).
    pub keep_in_buffer: bool,
    /// Learn the dataset's policy rows (a teacher's soft policy, a search's visit
    /// shares) where the dataset has them (`policy_offsets.npy`, format 2); `false`, or
    /// an older dataset: one-hot on the move played.
    pub soft_policy: bool,
    /// Weight of the mover's own value (`search_values.npy`) in the value target, 0 to
    /// 1: `(1 - w) · result + w · value` on rows that have one (the result elsewhere).
    pub search_value_mix: f32,
    /// Sharpen the dataset's policy rows: each probability raised to this power and the
    /// row renormalised, which divides a teacher's softmax temperature by it (1: the rows
    /// as written; 5 turns `soft=250` into 50). Only with `soft_policy`.
    pub soft_sharpen: f32,
}

impl Default for WarmStartSection {
    fn default() -> WarmStartSection {
        WarmStartSection {
            datasets: Vec::new(),
            steps: 2000,
            time_limit_s: 0,
            learning_rate: 0.0,
            batch_size: 0,
            keep_in_buffer: false,
            soft_policy: true,
            search_value_mix: 0.0,
            soft_sharpen: 1.0,
        }
    }
}

/// `[network]`: the size of the residual tower.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetworkSection {
    /// Residual blocks.
    pub blocks: usize,
    /// Channels.
    pub channels: usize,
    /// Policy-head channels.
    pub policy_channels: usize,
    /// Value-head hidden units.
    pub value_hidden: usize,
    /// `"dense"` (a `Linear` over every action; the first networks) or `"spatial"` (a
    /// convolution with one plane per move displacement, see `policy.rs`).
    pub policy_head: String,
    /// An auxiliary head predicting the final material difference.
    pub score_head: bool,
    /// Divide the ply plane by `selfplay.ply_cap` whatever cap a later game has (false:
    /// by the game's own cap, as the first networks did).
    pub fixed_ply_scale: bool,
    /// With `fixed_ply_scale`, the divisor of the ply plane in place of
    /// `selfplay.ply_cap` (0: `selfplay.ply_cap`): a network fine-tuned at another cap
    /// (`init_network`) keeps the divisor it was trained with.
    pub ply_scale: usize,
    /// Append the simulator's tactical planes (one-move capture threats of both sides)
    /// to the observation.
    pub tactical_planes: bool,
}

impl Default for NetworkSection {
    fn default() -> NetworkSection {
        NetworkSection {
            blocks: 4,
            channels: 32,
            policy_channels: 2,
            value_hidden: 64,
            policy_head: "dense".into(),
            score_head: false,
            fixed_ply_scale: false,
            ply_scale: 0,
            tactical_planes: false,
        }
    }
}

/// `[selfplay]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SelfPlaySection {
    /// Games per iteration.
    pub games_per_iteration: u32,
    /// Games played at once (their leaves share one network batch).
    pub parallel_games: u32,
    /// Search visits per move.
    pub sims: u32,
    /// Leaves per tree per batch (virtual loss above 1).
    pub leaves_per_round: u32,
    /// PUCT exploration constant.
    pub c_puct: f32,
    /// Dirichlet concentration of the root noise; 0: `10 / legal moves` at each root.
    pub dirichlet_alpha: f32,
    /// Weight of the root noise.
    pub dirichlet_frac: f32,
    /// Plies played with temperature 1 (then the most visited move).
    pub temperature_plies: u32,
    /// Ply cap of self-play games (reached: a draw).
    pub ply_cap: u32,
    /// Value target of drawn games: 0 = plain 0; `w > 0` = `w ·` material lead at the
    /// end over material at the start, clamped to ±1 (see `SelfPlayConfig::draw_material`).
    pub draw_material: f32,
    /// First-play urgency: the value of an unvisited child (used unless `fpu_reduction`).
    pub fpu: f32,
    /// First-play urgency as the parent's value minus this (overrides `fpu`).
    pub fpu_reduction: Option<f32>,
    /// Weight of the score head's prediction in leaf values (needs `network.score_head`).
    pub score_utility: f32,
    /// Playout-cap randomisation: probability of a full search (1: always).
    pub full_search_prob: f32,
    /// Visits of the other, fast searches.
    pub fast_sims: u32,
    /// Gumbel root search: moves sampled at the root (0: PUCT at the root, with
    /// Dirichlet noise). With it, policy targets are the improved policy.
    pub gumbel_considered: u32,
    /// Win-in-one check in the search (see `SearchConfig::win_check`); recorded in the
    /// checkpoints, so that agents playing them use it too.
    pub win_check: bool,
}

impl Default for SelfPlaySection {
    fn default() -> SelfPlaySection {
        SelfPlaySection {
            games_per_iteration: 64,
            parallel_games: 64,
            sims: 100,
            leaves_per_round: 4,
            c_puct: 1.5,
            dirichlet_alpha: 0.3,
            dirichlet_frac: 0.25,
            temperature_plies: 20,
            ply_cap: 300,
            draw_material: 0.0,
            fpu: 0.0,
            fpu_reduction: None,
            score_utility: 0.0,
            full_search_prob: 1.0,
            fast_sims: 16,
            gumbel_considered: 0,
            win_check: false,
        }
    }
}

/// `[training]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainingSection {
    /// Replay window: samples of the most recent this many games.
    pub window_games: u32,
    /// Minibatch size.
    pub batch_size: usize,
    /// Gradient steps per iteration.
    pub steps_per_iteration: u32,
    /// AdamW learning rate.
    pub learning_rate: f64,
    /// AdamW decoupled weight decay (the L2 term).
    pub weight_decay: f32,
    /// Left–right mirror augmentation (each sample mirrored with probability 1/2).
    pub mirror: bool,
    /// Softmax of the policy loss over the legal moves only (false: over every output).
    pub masked_policy: bool,
    /// Weight of the score head's loss.
    pub score_weight: f32,
    /// Value target = `(1 − q_mix) · result + q_mix · root value of the search`.
    pub value_q_mix: f32,
}

impl Default for TrainingSection {
    fn default() -> TrainingSection {
        TrainingSection {
            window_games: 500,
            batch_size: 128,
            steps_per_iteration: 100,
            learning_rate: 1e-3,
            weight_decay: 1e-4,
            mirror: true,
            masked_policy: true,
            score_weight: 1.0,
            value_q_mix: 0.0,
        }
    }
}

/// `[evaluation]`: the match against `random` and `mcts:sims=100` logged per iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EvaluationSection {
    /// Games against each opponent (colours alternated; 0: no match).
    pub games: u32,
    /// Search visits of the network's side.
    pub sims: u32,
    /// Play the match every this many iterations (and at the last).
    pub every: u32,
}

impl Default for EvaluationSection {
    fn default() -> EvaluationSection {
        EvaluationSection { games: 10, sims: 100, every: 1 }
    }
}

impl TrainConfig {
    /// Parses a configuration; `origin` (the file name) is named in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<TrainConfig, AzError> {
        let cfg: TrainConfig = toml::from_str(text).map_err(|e| AzError::Config(format!("{origin}: {e}")))?;
        cfg.validate().map_err(|m| AzError::Config(format!("{origin}: {m}")))?;
        Ok(cfg)
    }

    /// Reads a configuration file.
    pub fn from_file(path: &Path) -> Result<TrainConfig, AzError> {
        let text = std::fs::read_to_string(path).map_err(|e| AzError::io(path, "cannot read", e))?;
        TrainConfig::from_toml_str(&text, &path.display().to_string())
    }

    fn validate(&self) -> Result<(), String> {
        if self.iterations == 0 && self.warmstart.datasets.is_empty() {
            return Err(
                "iterations must be at least 1 (0 only with a [warmstart] that has datasets: the warm start alone)"
                    .into(),
            );
        }
        let positive = [
            ("network.blocks", self.network.blocks as u64),
            ("network.channels", self.network.channels as u64),
            ("network.policy_channels", self.network.policy_channels as u64),
            ("network.value_hidden", self.network.value_hidden as u64),
            ("selfplay.games_per_iteration", self.selfplay.games_per_iteration as u64),
            ("selfplay.parallel_games", self.selfplay.parallel_games as u64),
            ("selfplay.sims", self.selfplay.sims as u64),
            ("selfplay.leaves_per_round", self.selfplay.leaves_per_round as u64),
            ("selfplay.ply_cap", self.selfplay.ply_cap as u64),
            ("training.window_games", self.training.window_games as u64),
            ("training.batch_size", self.training.batch_size as u64),
            ("evaluation.sims", self.evaluation.sims as u64),
            ("evaluation.every", self.evaluation.every as u64),
        ];
        if let Some((k, _)) = positive.iter().find(|(_, v)| *v == 0) {
            return Err(format!("{k} must be at least 1"));
        }
        if let Some(m) = network_too_large(
            self.network.blocks,
            self.network.channels,
            self.network.policy_channels,
            self.network.value_hidden,
        ) {
            return Err(format!("network.{m}"));
        }
        for (k, v, max) in [
            ("training.batch_size", self.training.batch_size as u64, 65_536),
            ("selfplay.parallel_games", self.selfplay.parallel_games as u64, 65_536),
            ("warmstart.batch_size", self.warmstart.batch_size as u64, 65_536),
        ] {
            if v > max {
                return Err(format!("{k} = {v} is too large (at most {max})"));
            }
        }
        if !(self.training.learning_rate > 0.0 && self.training.learning_rate.is_finite()) {
            return Err("training.learning_rate must be a positive number".into());
        }
        if !(0.0..=1.0).contains(&self.selfplay.dirichlet_frac) {
            return Err("selfplay.dirichlet_frac must be between 0 and 1".into());
        }
        if self.selfplay.dirichlet_alpha < 0.0 || self.selfplay.c_puct < 0.0 {
            return Err("selfplay.dirichlet_alpha must be >= 0 (0: 10 / legal moves) and selfplay.c_puct >= 0".into());
        }
        if !(0.0..=10.0).contains(&self.selfplay.draw_material) {
            return Err("selfplay.draw_material must be between 0 and 10".into());
        }
        if !["dense", "spatial"].contains(&self.network.policy_head.as_str()) {
            return Err(format!(
                "network.policy_head must be \"dense\" or \"spatial\", not \"{}\"",
                self.network.policy_head
            ));
        }
        if !(0.0..=1.0).contains(&self.selfplay.full_search_prob) || self.selfplay.full_search_prob == 0.0 {
            return Err("selfplay.full_search_prob must be in (0, 1]".into());
        }
        if self.selfplay.gumbel_considered > 1024 {
            return Err("selfplay.gumbel_considered must be at most 1024 (0: PUCT at the root)".into());
        }
        if self.selfplay.fast_sims == 0 {
            return Err("selfplay.fast_sims must be at least 1".into());
        }
        if self.selfplay.score_utility != 0.0 && !self.network.score_head {
            return Err("selfplay.score_utility needs network.score_head = true".into());
        }
        if !(-1.0..=1.0).contains(&self.selfplay.score_utility) || !(-1.0..=1.0).contains(&self.selfplay.fpu) {
            return Err("selfplay.score_utility and selfplay.fpu must be between -1 and 1".into());
        }
        if self.selfplay.fpu_reduction.is_some_and(|r| !(0.0..=2.0).contains(&r)) {
            return Err("selfplay.fpu_reduction must be between 0 and 2".into());
        }
        if !(0.0..=1.0).contains(&self.training.value_q_mix) || !(0.0..=10.0).contains(&self.training.score_weight) {
            return Err("training.value_q_mix must be in [0, 1] and training.score_weight in [0, 10]".into());
        }
        if !self.warmstart.datasets.is_empty() && self.warmstart.steps == 0 {
            return Err("warmstart.steps must be at least 1 when warmstart.datasets is set".into());
        }
        if !(0.0..=1.0).contains(&self.warmstart.search_value_mix) {
            return Err("warmstart.search_value_mix must be in [0, 1]".into());
        }
        if !(self.warmstart.soft_sharpen > 0.0 && self.warmstart.soft_sharpen <= 100.0) {
            return Err("warmstart.soft_sharpen must be above 0 and at most 100".into());
        }
        if self.network.ply_scale > 0 && !self.network.fixed_ply_scale {
            return Err("network.ply_scale needs network.fixed_ply_scale = true".into());
        }
        if self.network.ply_scale > 1_000_000 {
            return Err("network.ply_scale must be at most 1000000".into());
        }
        if !(self.warmstart.learning_rate >= 0.0 && self.warmstart.learning_rate.is_finite()) {
            return Err("warmstart.learning_rate must be >= 0".into());
        }
        Ok(())
    }

    /// The ruleset label of the run: the `ruleset` key (any label: `xxi@12x8`,
    /// `kowalski+end.no_capture_limit=120`, a file) on the `board` key's board, if set.
    pub fn ruleset_spec(&self) -> Result<RulesetSpec, AzError> {
        let spec: RulesetSpec =
            self.ruleset.parse().map_err(|e: LabelError| AzError::Config(format!("ruleset: {e}")))?;
        let board = match self.board.trim() {
            "" => None,
            b => Some(b.parse::<BoardSize>().map_err(|e| AzError::Config(format!("board: {e}")))?),
        };
        spec.with_board(board).map_err(|e| AzError::Config(e.to_string()))
    }

    /// The ruleset of [`TrainConfig::ruleset_spec`], resolved against `rules_dir`.
    pub fn load_ruleset(&self, rules_dir: Option<&Path>) -> Result<Ruleset, AzError> {
        self.ruleset_spec()?.resolve(rules_dir).map_err(|e| AzError::Config(e.to_string()))
    }

    /// The rulesets of the run: `ruleset` (on `board`), then those of `family`, each
    /// moved to the first one's board. An error names a member that does not resolve,
    /// does not fit the board, or repeats another's rules.
    pub fn load_family(&self, rules_dir: Option<&Path>) -> Result<Vec<Ruleset>, AzError> {
        let first = self.load_ruleset(rules_dir)?;
        let mut members = vec![first.clone()];
        for label in &self.family {
            let spec: RulesetSpec =
                label.parse().map_err(|e: LabelError| AzError::Config(format!("family: {label}: {e}")))?;
            let r = spec.resolve(rules_dir).map_err(|e| AzError::Config(format!("family: {label}: {e}")))?;
            let r = r.with_board(first.width, first.height).map_err(|e| {
                AzError::Config(format!("family: {label} cannot be played on {}x{}: {e}", first.width, first.height))
            })?;
            if let Some(same) = members.iter().find(|m| m.params_hash() == r.params_hash()) {
                return Err(AzError::Config(format!("family: {label} has the same rules as {}", same.id)));
            }
            members.push(r);
        }
        Ok(members)
    }

    /// The network configuration for a family of rulesets on one board
    /// ([`TrainConfig::load_family`]): that of the first, plus one input plane per rule
    /// feature that tells the members apart (none for one ruleset). An error for no
    /// ruleset at all.
    pub fn family_network_config(&self, members: &[Ruleset]) -> Result<NetworkConfig, AzError> {
        let first = members.first().ok_or_else(|| AzError::Config("a family of no ruleset".into()))?;
        let cfg = self.network_config(first);
        let features = crate::conditioning::rule_features(members);
        Ok(NetworkConfig { planes: cfg.planes + features.len(), ..cfg }.with_rule_features(features))
    }

    /// The network configuration for a ruleset's board.
    pub fn network_config(&self, ruleset: &Ruleset) -> NetworkConfig {
        let tables = crate::search::BoardTables::new(ruleset).with_tactical(self.network.tactical_planes);
        let (w, h) = (ruleset.width as usize, ruleset.height as usize);
        let (outputs, planes) = if self.network.policy_head == "spatial" {
            let p = crate::policy::spatial_planes(w, h);
            (p * w * h, p)
        } else {
            (tables.actions(), 0)
        };
        NetworkConfig::new(tables.shape[0], w, h, outputs)
            .with_blocks(self.network.blocks)
            .with_channels(self.network.channels)
            .with_policy_channels(self.network.policy_channels)
            .with_value_hidden(self.network.value_hidden)
            .with_policy_planes(planes)
            .with_score_head(self.network.score_head)
            .with_ply_scale(match (self.network.fixed_ply_scale, self.network.ply_scale) {
                (false, _) => 0,
                (true, 0) => self.selfplay.ply_cap as usize,
                (true, scale) => scale,
            })
    }

    /// The search defaults recorded in this run's checkpoints.
    pub fn search_defaults(&self) -> crate::checkpoint::SearchDefaults {
        crate::checkpoint::SearchDefaults {
            score_utility: self.selfplay.score_utility,
            fpu_reduction: self.selfplay.fpu_reduction,
            gumbel_considered: self.selfplay.gumbel_considered,
            win_check: self.selfplay.win_check,
        }
    }

    /// Search settings of self-play.
    pub fn search_config(&self) -> SearchConfig {
        SearchConfig {
            sims: self.selfplay.sims,
            c_puct: self.selfplay.c_puct,
            leaves_per_round: self.selfplay.leaves_per_round,
            virtual_loss: 1.0,
            fpu: match self.selfplay.fpu_reduction {
                Some(r) => crate::search::Fpu::ParentMinus(r),
                None => crate::search::Fpu::Value(self.selfplay.fpu),
            },
            dirichlet_alpha: self.selfplay.dirichlet_alpha,
            dirichlet_frac: self.selfplay.dirichlet_frac,
            score_utility: self.selfplay.score_utility,
            gumbel: (self.selfplay.gumbel_considered > 0).then(|| crate::gumbel::GumbelConfig {
                considered: self.selfplay.gumbel_considered,
                ..Default::default()
            }),
            win_check: self.selfplay.win_check,
        }
    }

    /// Self-play settings of iteration `iteration`.
    pub fn selfplay_config(&self, iteration: u32) -> SelfPlayConfig {
        SelfPlayConfig {
            games: self.selfplay.games_per_iteration,
            parallel: self.selfplay.parallel_games,
            search: self.search_config(),
            temperature_plies: self.selfplay.temperature_plies,
            ply_cap: self.selfplay.ply_cap,
            draw_material: self.selfplay.draw_material,
            full_search_prob: self.selfplay.full_search_prob,
            fast_sims: self.selfplay.fast_sims,
            seed: latrunculi_rules::splitmix64(self.seed ^ (iteration as u64).wrapping_mul(0x9E37_79B9)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_fill_missing_keys_and_unknown_keys_are_errors() {
        let cfg = TrainConfig::from_toml_str("ruleset = \"xxi\"\n[selfplay]\nsims = 50\n", "a.toml").unwrap();
        assert_eq!(cfg.ruleset, "xxi");
        assert_eq!(cfg.selfplay.sims, 50);
        assert_eq!(cfg.selfplay.ply_cap, SelfPlaySection::default().ply_cap);
        let err = TrainConfig::from_toml_str("ruleset = \"xxi\"\n[selfplay]\nsimz = 50\n", "b.toml").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("b.toml") && text.contains("simz") && text.contains("line 3"), "{text}");
        let err = TrainConfig::from_toml_str("[training]\nbatch_size = 0\n", "c.toml").unwrap_err();
        assert!(err.to_string().contains("training.batch_size"), "{err}");
    }

    #[test]
    fn board_override_and_bad_rulesets() {
        let cfg = TrainConfig::from_toml_str("ruleset = \"kowalski\"\nboard = \"6x5\"\n", "a.toml").unwrap();
        let rs = cfg.load_ruleset(None).unwrap();
        assert_eq!((rs.width, rs.height), (6, 5));
        let cfg = TrainConfig::from_toml_str("ruleset = \"nonesuch\"\n", "a.toml").unwrap();
        assert!(cfg.load_ruleset(None).unwrap_err().to_string().contains("nonesuch"));
        let cfg = TrainConfig::from_toml_str("board = \"17x8\"\n", "a.toml").unwrap();
        let e = cfg.load_ruleset(None).unwrap_err().to_string();
        assert!(e.contains("17x8") && e.contains("3 to 16"), "{e}");
        let cfg = TrainConfig::from_toml_str("ruleset = \"kowalski\"\nboard = \"16x11\"\n", "a.toml").unwrap();
        assert_eq!(cfg.load_ruleset(None).map(|rs| (rs.width, rs.height)).unwrap(), (16, 11));
        // The `ruleset` key takes any label; a board in both places is an error.
        let cfg = TrainConfig::from_toml_str("ruleset = \"xxi@12x8+end.no_capture_limit=120\"\n", "a.toml").unwrap();
        let rs = cfg.load_ruleset(None).unwrap();
        assert_eq!((rs.width, rs.height, rs.end.no_capture_limit), (12, 8, 120));
        let cfg = TrainConfig::from_toml_str("ruleset = \"xxi@12x8\"\nboard = \"10x8\"\n", "a.toml").unwrap();
        let e = cfg.load_ruleset(None).unwrap_err().to_string();
        assert!(e.contains("xxi@12x8") && e.contains("10x8"), "{e}");
        let cfg = TrainConfig::from_toml_str("ruleset = \"xxi\"\nboard = \"12*8\"\n", "a.toml").unwrap();
        let e = cfg.load_ruleset(None).unwrap_err().to_string();
        assert!(e.contains("board") && e.contains("12*8") && e.contains("WxH"), "{e}");
    }

    #[test]
    fn the_ply_divisor_is_the_cap_or_the_one_set_and_needs_a_fixed_scale() {
        let rs = Ruleset::builtin("kowalski").unwrap();
        let scale = |text: &str| TrainConfig::from_toml_str(text, "a.toml").map(|c| c.network_config(&rs).ply_scale);
        assert_eq!(scale("[selfplay]\nply_cap = 1000\n").unwrap(), 0, "each game's own cap");
        assert_eq!(scale("[network]\nfixed_ply_scale = true\n[selfplay]\nply_cap = 1000\n").unwrap(), 1000);
        let kept = "[network]\nfixed_ply_scale = true\nply_scale = 400\n[selfplay]\nply_cap = 1000\n";
        assert_eq!(scale(kept).unwrap(), 400);
        let e = scale("[network]\nply_scale = 400\n").unwrap_err().to_string();
        assert!(e.contains("a.toml") && e.contains("network.ply_scale needs network.fixed_ply_scale"), "{e}");
    }

    #[test]
    fn every_shipped_training_config_is_valid() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/train");
        let mut seen = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "toml") {
                let cfg = TrainConfig::from_file(&path).unwrap();
                let rs = cfg.load_ruleset(None).unwrap();
                assert!(cfg.network_config(&rs).actions > 0, "{}", path.display());
                seen += 1;
            }
        }
        assert!(seen >= 5, "configs/train holds {seen} configs");
    }
}

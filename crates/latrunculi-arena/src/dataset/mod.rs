//! Datasets (`latrunculi dataset`): games between two agents written as a training
//! dataset, the games as JSON lines and every position where a move was chosen as rows
//! of `.npy` arrays (observations, legal masks, policy and value targets). The schema is
//! documented in `data/README.md`.
//!
//! The games are exactly those of `latrunculi play` with the same ruleset, specs,
//! `--seed`, `--swap` and `--ply-cap` (the same seeds and the same game loop,
//! [`crate::game::play_game_observed`]). Every file is written to a temporary name and renamed, and
//! `games.jsonl` last, so a directory with `games.jsonl` holds a complete dataset.

//!
//! The module's parts: [`samples`] (one game's positions as samples), `journal` (the
//! journal of a run in progress, so that a killed run resumes), `write` (the arrays,
//! `meta.json` and `games.jsonl`).

use std::path::{Path, PathBuf};

use latrunculi_agents::{AgentSpec, Players};
use latrunculi_files::FileError;
use latrunculi_rules::Ruleset;

use crate::error::{ArenaError, Result, Setting};
use crate::game::{GameRow, RulesetChoice, colours};

mod journal;
pub mod samples;
#[cfg(test)]
mod tests;
mod write;

/// The layout of the folder (file names, `games.jsonl` lines), defined with its reader in
/// `latrunculi-files` ([`latrunculi_files::dataset`]).
pub use latrunculi_files::dataset::{
    ACTIONS_FILE, FORMAT_VERSION, GAMES_FILE, GAMES_NPY_FILE, GameLine, HEAVY_FILES, LEGAL_MASKS_FILE, META_FILE,
    OBSERVATIONS_FILE, PLAYERS_FILE, PLIES_FILE, POLICY_ACTIONS_FILE, POLICY_FILE, POLICY_OFFSETS_FILE,
    POLICY_PROBS_FILE, SEARCH_VALUES_FILE, VALUE_FILE,
};
pub use samples::{GameSamples, Sample, play_game_samples, sample_of};
pub use write::{check_out_dir, write_dataset};

/// The settings of a dataset run (the options of `latrunculi dataset`).
#[derive(Clone, Debug)]
pub struct DatasetSpec {
    /// The ruleset and board (`--ruleset`, `--board`, `--rules-dir`).
    pub ruleset: RulesetChoice,
    /// Agent playing White, e.g. `random`, `mcts:sims=200`, `az:model=PATH,sims=100`.
    pub white: String,
    /// Agent playing Black.
    pub black: String,
    /// Number of games (at least 1).
    pub games: u32,
    /// Output directory (created if missing; must not already hold games.jsonl).
    pub out: PathBuf,
    /// Base seed; game i gets a seed derived from it and i (as in `play`).
    pub seed: u64,
    /// Alternate colours: odd-numbered games (1, 3, …; 0-based) swap the two specs.
    pub swap: bool,
    /// Hard ply cap: a game still running after this many plies is a draw (`ply-cap`).
    pub ply_cap: u32,
    /// Leave out the three large arrays (observations, legal masks, policy targets).
    pub light: bool,
    /// Continue an interrupted run in `out` from its [`PARTIAL_FILE`].
    pub resume: bool,
}

/// The journal of a run in progress: a header line naming the run, then one line per
/// finished game (in completion order) with what its samples need beyond a replay of
/// its moves (the search policies). Removed once the dataset is written.
pub const PARTIAL_FILE: &str = "partial.jsonl";

/// What a dataset run plays: everything but the output directory.
#[derive(Clone, Debug)]
pub struct DatasetPlan {
    /// The ruleset (board applied).
    pub ruleset: Ruleset,
    /// Its label.
    pub label: String,
    /// The first agent (White in even games).
    pub a: AgentSpec,
    /// The second agent.
    pub b: AgentSpec,
    /// Number of games.
    pub games: u32,
    /// Base seed.
    pub seed: u64,
    /// Alternate colours.
    pub swap: bool,
    /// Ply cap.
    pub ply_cap: u32,
}

impl DatasetPlan {
    /// Checks the arguments: the ruleset loads, both specs build agents for it (a model
    /// file exists and fits the board), at least one game, a positive ply cap. The specs
    /// are read by `players`.
    pub fn from_spec(args: &DatasetSpec, players: &Players) -> Result<DatasetPlan> {
        if args.games == 0 {
            return Err(ArenaError::AtLeastOne { setting: Setting::Games });
        }
        if args.ply_cap == 0 {
            return Err(ArenaError::AtLeastOne { setting: Setting::PlyCap });
        }
        let ruleset = args.ruleset.load()?;
        let label = args.ruleset.label(&ruleset)?;
        let agent = |text: &str, setting| {
            crate::agents::spec_for(players, text, &ruleset)
                .map_err(|e| ArenaError::SettingAgent { setting, source: Box::new(e) })
        };
        let a = agent(&args.white, Setting::White)?;
        let b = agent(&args.black, Setting::Black)?;
        Ok(DatasetPlan {
            ruleset,
            label,
            a,
            b,
            games: args.games,
            seed: args.seed,
            swap: args.swap,
            ply_cap: args.ply_cap,
        })
    }

    /// What identifies this run in its journal (every argument that changes the games).
    fn fingerprint(&self) -> String {
        format!(
            "{} {:016x} {} | {} games={} seed={} swap={} ply_cap={}",
            self.label,
            self.ruleset.params_hash(),
            self.a,
            self.b,
            self.games,
            self.seed,
            self.swap,
            self.ply_cap
        )
    }
}

/// `--resume` on a finished dataset: nothing to play, once its games are this run's (the
/// games' ruleset and players in `games.jsonl`, the seed and ply cap in `meta.json`).
fn finished_already(dir: &Path, plan: &DatasetPlan) -> Result<u32> {
    let meta_path = dir.join(META_FILE);
    let meta_text = std::fs::read_to_string(&meta_path).map_err(ArenaError::io("read", &meta_path))?;
    let meta: serde_json::Value = serde_json::from_str(&meta_text)
        .map_err(|e| ArenaError::content(&meta_path, None, format!("not a dataset's meta.json: {e}")))?;
    for (key, want) in [("seed", plan.seed), ("ply_cap", u64::from(plan.ply_cap))] {
        let had = meta["args"][key].as_u64();
        if had != Some(want) {
            let had = had.map_or_else(|| "none".to_string(), |v| v.to_string());
            return Err(ArenaError::OtherRun {
                path: meta_path,
                line: None,
                message: format!("the finished dataset there was played with {key} {had}, this run asks for {want}"),
            });
        }
    }
    let path = dir.join(GAMES_FILE);
    let lines = latrunculi_files::dataset::read_game_lines(&path).map_err(|e| match e {
        FileError::Io { path, source } => ArenaError::io("read", path)(source),
        FileError::Line { path, line, message } => ArenaError::content(path, Some(line), message),
    })?;
    let (a, b) = (plan.a.to_string(), plan.b.to_string());
    let hash = format!("{:016x}", plan.ruleset.params_hash());
    let mut n = 0u32;
    for (line, g) in lines {
        let (white, black) = colours(a.as_str(), b.as_str(), g.game, plan.swap);
        if g.game != n || g.ruleset != plan.label || g.params_hash != hash || g.white != white || g.black != black {
            return Err(ArenaError::OtherRun {
                path,
                line: Some(line),
                message: format!(
                    "the finished dataset there is not this run's (game {} of {} by {} vs {})",
                    g.game, g.ruleset, g.white, g.black
                ),
            });
        }
        n += 1;
    }
    if n != plan.games {
        return Err(ArenaError::OtherRun {
            path,
            line: None,
            message: format!("holds {n} games, this run asks for {}", plan.games),
        });
    }
    Ok(n)
}

/// What [`run_dataset`] did.
#[derive(Clone, Debug)]
pub enum DatasetOutcome {
    /// With `resume`, the directory already held this run's finished dataset of `games`
    /// games: nothing was played or written.
    Finished {
        /// The games of the finished dataset.
        games: u32,
    },
    /// The dataset was played (or its interrupted run completed) and written.
    Written {
        /// The ruleset's label.
        label: String,
        /// The games, in game order.
        rows: Vec<GameRow>,
        /// The number of samples (positions).
        samples: u64,
    },
}

/// Plays and writes the dataset of `spec` into `spec.out` (see the module docs): checks
/// the settings ([`DatasetPlan::from_spec`]) and the directory ([`check_out_dir`]) before
/// playing, resumes from the journal with `spec.resume`, and removes the journal once
/// the dataset is complete. The agent specs are read by `players`.
pub fn run_dataset(args: &DatasetSpec, players: &Players) -> Result<DatasetOutcome> {
    let plan = DatasetPlan::from_spec(args, players)?;
    if args.resume && args.out.join(GAMES_FILE).exists() {
        return Ok(DatasetOutcome::Finished { games: finished_already(&args.out, &plan)? });
    }
    // Refuse before playing, not after hours of games.
    check_out_dir(&args.out)?;
    let games = plan.play_into(&args.out, args.resume)?;
    let samples = write_dataset(&args.out, args, &plan, &games)?;
    // The dataset is complete (games.jsonl written last): the journal has served.
    let journal = args.out.join(PARTIAL_FILE);
    std::fs::remove_file(&journal).map_err(ArenaError::io("remove", &journal))?;
    let rows: Vec<GameRow> = games.into_iter().map(|g| g.row).collect();
    Ok(DatasetOutcome::Written { label: plan.label, rows, samples })
}

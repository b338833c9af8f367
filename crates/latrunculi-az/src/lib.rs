//! # latrunculi-az
//!
//! AlphaZero for every ruleset of `latrunculi-rules`, on burn:
//!
//! - [`model`]: the residual policy–value [`Network`] and its [`NetworkConfig`];
//! - [`policy`]: where each action's logit is in the dense or spatial policy head;
//! - [`frame`]: the network's side-relative action frame and the left–right mirror;
//! - [`search`]: PUCT search, gathered across many games into one batched evaluation;
//! - [`gumbel`]: Gumbel root search with sequential halving and the improved policy;
//! - [`agent`]: the `az:model=PATH,sims=N` player and its agent kind ([`AzKind`]),
//!   which a program adds to its player factory (`latrunculi_agents::Players`; [`players`]
//!   makes one with it);
//! - [`selfplay`]: many games played together by search, yielding training samples;
//! - [`config`] and [`train`]: the training loop behind `latrunculi train`;
//! - [`warmstart`]: training samples replayed from datasets of other players' games;
//! - [`checkpoint`]: atomic, self-describing checkpoint files;
//! - [`conditioning`]: rule planes, so that one network plays a family of rulesets;
//! - [`bench`]: network and search throughput;
//! - [`device`]: the one place where burn devices are chosen (CPU `flex` by default).

#![warn(missing_docs)]

pub mod agent;
pub mod bench;
pub mod checkpoint;
pub mod conditioning;
pub mod config;
pub mod device;
pub mod frame;
pub mod gumbel;
pub mod model;
pub mod policy;
pub mod search;
pub mod selfplay;
pub mod train;
pub mod warmstart;

pub use agent::{AzAgent, AzKind, players};
pub use checkpoint::{CheckpointError, CheckpointMeta};
pub use config::TrainConfig;
pub use model::{Network, NetworkConfig};
pub use search::{BoardTables, Evaluator, SearchConfig, Tree, UniformEvaluator};

/// Errors of the AlphaZero crate.
#[derive(Debug, thiserror::Error)]
pub enum AzError {
    /// A checkpoint could not be read or written.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// A tensor or buffer had an unexpected shape or could not be converted.
    #[error("tensor error: {0}")]
    Tensor(String),
    /// A bad agent spec.
    #[error(transparent)]
    Agent(#[from] latrunculi_agents::AgentError),
    /// A model does not fit the game it is asked to play.
    #[error("{0}")]
    Mismatch(String),
    /// A bad training configuration (names the file).
    #[error("{0}")]
    Config(String),
    /// `LATRUNCULI_DEVICE` names a backend this build cannot run.
    #[error(transparent)]
    Device(#[from] device::DeviceError),
    /// A file of a training run could not be read or written, or does not hold what it
    /// should.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong (what was being done, for an OS error).
        message: String,
        /// The OS error, if one caused it.
        #[source]
        source: Option<std::io::Error>,
    },
}

impl AzError {
    /// An OS error met while doing `action` (e.g. `cannot read`) with `path`.
    pub fn io(path: &std::path::Path, action: &str, source: std::io::Error) -> AzError {
        AzError::Io { path: path.to_path_buf(), message: action.to_string(), source: Some(source) }
    }

    /// A file that does not hold what it should (`message` says what is wrong).
    pub fn file(path: &std::path::Path, message: impl std::fmt::Display) -> AzError {
        AzError::Io { path: path.to_path_buf(), message: message.to_string(), source: None }
    }
}

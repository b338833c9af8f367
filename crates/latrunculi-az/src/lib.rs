//! # latrunculi-az
//!
//! AlphaZero for every ruleset of `latrunculi-rules`, on burn:
//!
//! - [`model`]: the residual policy–value [`Network`] and its [`NetworkConfig`];
//! - [`policy`]: where each action's logit is in the dense or spatial policy head;
//! - [`frame`]: the network's side-relative action frame and the left–right mirror;
//! - [`search`]: PUCT search, gathered across many games into one batched evaluation;
//! - [`gumbel`]: Gumbel root search with sequential halving and the improved policy;
//! - [`agent`]: the `az:model=PATH,sims=N` player, and [`agent::parse_agent`], which
//!   builds every agent spec (the baselines of `latrunculi-agents` too);
//! - [`selfplay`]: many games played together by search, yielding training samples;
//! - [`config`] and [`train`]: the training loop behind `latrunculi train`;
//! - [`warmstart`]: training samples replayed from datasets of other players' games;
//! - [`checkpoint`]: atomic, self-describing checkpoint files;
//! - [`bench`]: network and search throughput;
//! - [`device`]: the one place where burn devices are chosen (CPU `flex` by default).

#![warn(missing_docs)]

pub mod agent;
pub mod bench;
pub mod checkpoint;
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

pub use agent::{AzAgent, parse_agent};
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
    /// A file of a training run could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: std::path::PathBuf,
        /// What went wrong.
        message: String,
    },
}

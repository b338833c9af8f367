//! # latrunculi-sim
//!
//! A batched, parallel simulator of Ludus Latrunculorum games for reinforcement
//! learning, on top of the `latrunculi-rules` engine:
//!
//! - [`action`]: one fixed action encoding per board size ([`ActionSpace`]);
//! - [`observation`]: the observation planes, from the side to move's point of view
//!   ([`ObservationEncoder`], [`observation::PLANES`]);
//! - [`batch`]: [`BatchSim`], `N` games of one ruleset with observations
//!   `[N, planes, H, W]`, legal-action masks `[N, A]` and a `step` that plays one
//!   action per game, in parallel with rayon, resetting finished games;
//! - [`throughput`]: plies per second of a [`BatchSim`] stepped with random actions.
//!
//! See README.md for the encodings in one place.

#![warn(missing_docs)]

pub mod action;
pub mod batch;
pub mod observation;
pub mod throughput;

pub use action::ActionSpace;
pub use batch::{BatchSim, StepResult};
pub use observation::{NUM_PLANES, NUM_TACTICAL_PLANES, ObservationEncoder, PLANES, Plane, TACTICAL_PLANES};

use latrunculi_rules::Outcome;

/// Errors of the simulator. None of its functions panics on bad input.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SimError {
    /// A board side outside `1..=16`.
    #[error("a {width}x{height} board is not supported (each side must be 1 to 16)")]
    BoardSize {
        /// Requested files.
        width: u8,
        /// Requested ranks.
        height: u8,
    },
    /// An action index not below the action-space size.
    #[error("action {action} is out of range (the action space has {size} actions)")]
    ActionOutOfRange {
        /// The offending index.
        action: usize,
        /// The action-space size.
        size: usize,
    },
    /// An action that is not legal in its game.
    #[error("game {game}: action {action} is illegal: {reason}")]
    IllegalAction {
        /// Index of the game in the batch.
        game: usize,
        /// The action given for it.
        action: usize,
        /// Why it was refused.
        reason: String,
    },
    /// The number of actions differs from the number of games.
    #[error("expected one action per game ({expected}), got {got}")]
    ActionCount {
        /// Games in the batch.
        expected: usize,
        /// Actions given.
        got: usize,
    },
    /// A game index past the end of the batch.
    #[error("game index {index} is out of range (the batch has {len} games)")]
    GameIndex {
        /// The requested index.
        index: usize,
        /// Games in the batch.
        len: usize,
    },
    /// A batch of zero games.
    #[error("a batch needs at least one game")]
    NoGames,
    /// The ruleset's start position is already decided, so games could never be played.
    #[error("ruleset {id}: the start position is already decided ({outcome})")]
    StartIsOver {
        /// The ruleset id.
        id: String,
        /// Its outcome.
        outcome: Outcome,
    },
    /// An observation buffer of the wrong shape.
    #[error("observation buffer has shape {got:?}, expected {expected:?}")]
    ObservationShape {
        /// The shape needed.
        expected: Vec<usize>,
        /// The shape given.
        got: Vec<usize>,
    },
    /// A position of another board size than the encoder's.
    #[error("position is on a {}x{} board, the encoder on a {}x{} board", got.0, got.1, expected.0, expected.1)]
    BoardMismatch {
        /// The encoder's (width, height).
        expected: (u8, u8),
        /// The position's (width, height).
        got: (u8, u8),
    },
}

//! # latrunculi-arena
//!
//! Games between agents and the experiments built on them: the game loop, surveys,
//! evaluation, Elo ladders, datasets, metrics, SVG. The `latrunculi` binary parses
//! arguments, calls this crate and prints; everything that plays, measures or writes
//! result files is here:
//!
//! - [`agents`]: agent specs read once by the player factory the caller hands in
//!   (`latrunculi_agents::Players`; the `az` kind is added by the programs that have
//!   networks, so this crate compiles no burn);
//! - [`error`]: the crate's errors, which name files and values, never flags;
//! - [`game`]: one game between two agents built from their specs
//!   ([`game::play_game`], [`game::play_game_observed`]), its CSV row, the seeds and
//!   colours of a run, and the ruleset choice of the commands;
//! - [`survey`]: experiment files of (ruleset, pairing) cells, resumable, sharded,
//!   adaptive, with per-cell summaries;
//! - [`eval`]: one agent against opponents, with scores, Elo intervals and an optional
//!   sequential test, resumable;
//! - [`ladder`]: round robins between many agents and their maximum-likelihood ratings;
//! - [`elo`] and [`stats`]: Elo arithmetic, SPRT, rating fits, Wilson intervals and
//!   quantiles;
//! - [`dataset`]: games written as training datasets (`games.jsonl` and `.npy` arrays);
//! - [`metrics`]: game-design metrics of recorded games;
//! - [`sensitivity`]: the experiment file of a rule-sensitivity study;
//! - [`tune`]: evaluation weights of the search player fitted from recorded games;
//! - [`verdict`]: every game split by how it ended (won by play, by a piece count, drawn),
//!   cells with 95% intervals and the verdict of a ruleset at strong play;
//! - [`svg`]: SVG pictures of positions;
//! - [`io`]: atomic writing of result files.
//!
//! The CSV columns are documented in `experiments/README.md`, the dataset layout in
//! `data/README.md`.

#![warn(missing_docs)]

pub mod agents;
pub mod dataset;
pub mod elo;
pub mod error;
pub mod eval;
pub mod game;
pub mod io;
pub mod ladder;
pub mod metrics;
pub mod sensitivity;
pub mod stats;
pub mod survey;
pub mod svg;
pub mod tune;
pub mod verdict;

pub use error::{ArenaError, Setting};

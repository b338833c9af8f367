//! # latrunculi-rules
//!
//! The rules engine for every Ludus Latrunculorum reconstruction in docs/rules.md: rulesets
//! read from TOML ([`Ruleset`]) and named by labels ([`RulesetSpec`]: `xxi@12x8`,
//! `kowalski+end.no_capture_limit=120`), a fast position type ([`Position`]) with legal move
//! generation, move application, results and a 64-bit hash, and the notation of
//! docs/rules.md §2 for moves ([`notation`]), positions and game records ([`record`],
//! replayed by [`replay()`]).
//!
//! This crate has no heavy dependencies (no burn) so that it builds and tests in seconds.

#![warn(missing_docs)]

mod board;
pub mod notation;
pub mod position;
pub mod record;
pub mod replay;
pub mod rng;
pub mod ruleset;
pub mod setup;
pub mod spec;
pub mod types;

pub use notation::{
    MoveError, MoveText, NotationWarning, ParsedMove, RuleBreach, Suffix, WrittenKind, WrittenMove, move_text,
    parse_move, parse_token,
};
pub use position::{DEFAULT_PLY_CAP, EffectKind, Effects, Position, PositionError};
pub use record::{GameRecord, RecordError, RecordMove, RecordedResult};
pub use replay::{MoveStatus, ReplayOptions, ReplayReport, ReplayedMove, ResultVerdict, replay};
pub use rng::{FastRng, Fnv1a, fnv1a, splitmix64};
pub use ruleset::{ParamDescription, Rules, Ruleset, RulesetError};
pub use setup::{Setup, SetupError};
pub use spec::{BoardSize, DEFAULT_RULES_DIR, LabelError, ParamChange, RulesetBase, RulesetSpec};
pub use types::{Color, Move, MoveKind, Outcome, Piece, PieceKind, Reason, Square};

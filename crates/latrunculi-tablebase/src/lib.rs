//! # latrunculi-tablebase
//!
//! Endgame tablebases for every ruleset of the rules engine: the exact value (win, draw
//! or loss for the side to move) of every position with at most N pieces on the board,
//! with the distance to the end of the game (DTM, in plies) and the distance to the next
//! capture (DTZ). Tables are built material by material, fewest pieces first, with the
//! engine's own move generation and move application ([`latrunculi_rules::Position`]),
//! so every mechanic of a ruleset (captures, Dux, traps and removals, further plies,
//! immobilisation, bare and annihilation endings, stalemate and passes) is the engine's.
//!
//! The tables hold pure game-theoretic values: the no-capture limit and the repetition
//! rule are switched off ([`table_ruleset`]); the DTZ tells whether a win fits in the
//! no-capture limit. Pieces in hand are not covered (the tables hold the movement
//! phase). The file format and the treatment of game state are in docs/tablebase.md.
//!
//! ```no_run
//! use latrunculi_rules::{Position, Ruleset, Setup};
//! use latrunculi_tablebase::Tablebase;
//! let rs = Ruleset::builtin("xxi").unwrap();
//! let tb = Tablebase::open(std::path::Path::new("tables"), &rs, "xxi");
//! let pos = Position::from_setup(&rs, &Setup::from_fen("10/10/10/4s5/10/10/3S1S4/10 w").unwrap()).unwrap();
//! if let Some(p) = tb.probe(&pos).unwrap() {
//!     println!("{} in {} plies", p.wdl, p.distance);
//! }
//! ```

#![warn(missing_docs)]

mod build;
pub mod material;
mod table;
mod tablebase;
mod value;

#[cfg(test)]
mod tests;

pub use build::{BuildEvent, Shard, build};
pub use material::{Indexer, Material, MaterialError};
pub use table::{FORMAT_VERSION, Header, MAGIC, SideCounts, Table, TablebaseError};
pub use tablebase::{Probe, Tablebase, dir_name, table_ruleset};
pub use value::Wdl;

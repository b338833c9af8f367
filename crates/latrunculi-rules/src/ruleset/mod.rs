//! Rulesets: every reconstruction of docs/rules.md §3 as a set of parameters, read from TOML.
//!
//! A [`Ruleset`] is the whole description (id, source, board, setup and the rule
//! parameters). The parameters the engine consults while playing are the `Copy` struct
//! [`Rules`], which every [`crate::Position`] carries by value.
//!
//! Every table and key is optional except `id`; defaults are those of the plainest game
//! (rook moves, orthogonal custodial capture by any piece, no Dux rules). Unknown keys,
//! wrong types and impossible boards are errors that name the file and the key.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::types::{Color, MAX_SIDE, PieceKind, Square};

mod describe;
mod params;
#[cfg(test)]
mod tests;

pub use describe::ParamDescription;
pub use params::*;

/// The built-in rulesets, embedded from `configs/rulesets/` at compile time.
pub const BUILTIN: [(&str, &str); 42] = [
    ("kowalski", include_str!("../../../../configs/rulesets/kowalski.toml")),
    ("kowalski-parcae", include_str!("../../../../configs/rulesets/kowalski-parcae.toml")),
    ("classical", include_str!("../../../../configs/rulesets/classical.toml")),
    ("xxi", include_str!("../../../../configs/rulesets/xxi.toml")),
    ("single-stone-xxi", include_str!("../../../../configs/rulesets/single-stone-xxi.toml")),
    ("petteia-xxi", include_str!("../../../../configs/rulesets/petteia-xxi.toml")),
    ("common", include_str!("../../../../configs/rulesets/common.toml")),
    ("back-rank", include_str!("../../../../configs/rulesets/back-rank.toml")),
    ("savard", include_str!("../../../../configs/rulesets/savard.toml")),
    ("falkener", include_str!("../../../../configs/rulesets/falkener.toml")),
    ("bell", include_str!("../../../../configs/rulesets/bell.toml")),
    ("schadler", include_str!("../../../../configs/rulesets/schadler.toml")),
    // Ludii's rulesets (docs/rules.md §5), those the engine plays so far.
    ("ludii-schadler-1994", include_str!("../../../../configs/rulesets/ludii-schadler-1994.toml")),
    ("ludii-schadler-2001", include_str!("../../../../configs/rulesets/ludii-schadler-2001.toml")),
    ("ludii-seneca", include_str!("../../../../configs/rulesets/ludii-seneca.toml")),
    ("ludii-piso", include_str!("../../../../configs/rulesets/ludii-piso.toml")),
    ("ludii-quintana", include_str!("../../../../configs/rulesets/ludii-quintana.toml")),
    ("ludii-kowalski-10x11", include_str!("../../../../configs/rulesets/ludii-kowalski-10x11.toml")),
    ("ludii-kowalski-8x12", include_str!("../../../../configs/rulesets/ludii-kowalski-8x12.toml")),
    ("ludii-falkener", include_str!("../../../../configs/rulesets/ludii-falkener.toml")),
    ("ludii-bell-8x7", include_str!("../../../../configs/rulesets/ludii-bell-8x7.toml")),
    ("ludii-bell-8x8", include_str!("../../../../configs/rulesets/ludii-bell-8x8.toml")),
    ("ludii-seega-6x6", include_str!("../../../../configs/rulesets/ludii-seega-6x6.toml")),
    ("ludii-seega-6x7", include_str!("../../../../configs/rulesets/ludii-seega-6x7.toml")),
    ("ludii-seega-6x8", include_str!("../../../../configs/rulesets/ludii-seega-6x8.toml")),
    ("ludii-seega-7x8", include_str!("../../../../configs/rulesets/ludii-seega-7x8.toml")),
    ("ludii-seega-8x8", include_str!("../../../../configs/rulesets/ludii-seega-8x8.toml")),
    ("ludii-seega-8x9", include_str!("../../../../configs/rulesets/ludii-seega-8x9.toml")),
    ("ludii-seega-9x10", include_str!("../../../../configs/rulesets/ludii-seega-9x10.toml")),
    ("ludii-seega-10x10", include_str!("../../../../configs/rulesets/ludii-seega-10x10.toml")),
    ("ludii-seega-11x12", include_str!("../../../../configs/rulesets/ludii-seega-11x12.toml")),
    ("ludii-seega-11x16", include_str!("../../../../configs/rulesets/ludii-seega-11x16.toml")),
    ("ludii-kharebga-6x6", include_str!("../../../../configs/rulesets/ludii-kharebga-6x6.toml")),
    ("ludii-kharebga-6x7", include_str!("../../../../configs/rulesets/ludii-kharebga-6x7.toml")),
    ("ludii-kharebga-6x8", include_str!("../../../../configs/rulesets/ludii-kharebga-6x8.toml")),
    ("ludii-kharebga-7x8", include_str!("../../../../configs/rulesets/ludii-kharebga-7x8.toml")),
    ("ludii-kharebga-8x8", include_str!("../../../../configs/rulesets/ludii-kharebga-8x8.toml")),
    ("ludii-kharebga-8x9", include_str!("../../../../configs/rulesets/ludii-kharebga-8x9.toml")),
    ("ludii-kharebga-9x10", include_str!("../../../../configs/rulesets/ludii-kharebga-9x10.toml")),
    ("ludii-kharebga-10x10", include_str!("../../../../configs/rulesets/ludii-kharebga-10x10.toml")),
    ("ludii-kharebga-11x12", include_str!("../../../../configs/rulesets/ludii-kharebga-11x12.toml")),
    ("ludii-kharebga-11x16", include_str!("../../../../configs/rulesets/ludii-kharebga-11x16.toml")),
];

/// Errors in finding, reading or validating a ruleset.
#[derive(Debug, thiserror::Error)]
pub enum RulesetError {
    /// No built-in ruleset has this id and no such file exists.
    #[error("unknown ruleset '{id}' (known: {known}); or give a path to a .toml file")]
    UnknownId {
        /// The id asked for.
        id: String,
        /// The known ids, comma-separated.
        known: String,
    },
    /// The file could not be read.
    #[error("cannot read ruleset file {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The TOML is malformed, has an unknown key or a value of the wrong type.
    #[error("{origin}: {message}")]
    Parse {
        /// File name or `builtin:<id>`.
        origin: String,
        /// The TOML error, with line and column.
        message: String,
    },
    /// A ruleset label that cannot be read ([`crate::RulesetSpec`]).
    #[error(transparent)]
    Label(#[from] crate::spec::LabelError),
    /// The parameters are individually fine but do not make a playable game.
    #[error("{origin}: {message}")]
    Invalid {
        /// File name or `builtin:<id>`.
        origin: String,
        /// What is wrong, naming the key.
        message: String,
    },
}

/// The game parameters the engine consults during play: small and `Copy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Files (3..=16).
    pub width: u8,
    /// Ranks (3..=16).
    pub height: u8,
    /// Who moves first (and places first).
    pub first_player: Color,
    /// Whether the setup gives each side a Dux (decides `bare` versus `annihilated`).
    pub has_dux: bool,
    /// The placement order, when pieces start in hand.
    pub placement: Placement,
    /// The centre square (see [`SetupSpec::centre_empty`]) is closed to placements.
    pub centre_empty: bool,
    /// Movement parameters.
    pub movement: Movement,
    /// Capture parameters.
    pub capture: Capture,
    /// XXI movement limits.
    pub combat: Combat,
    /// End conditions.
    pub end: End,
}

/// A complete ruleset: names, board, setup and rule parameters.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// Short id, e.g. `xxi`.
    pub id: String,
    /// Human-readable name.
    #[serde(default)]
    pub name: String,
    /// Where the rules come from (seed documents, docs/rules.md section).
    #[serde(default)]
    pub source: String,
    /// Files (default 8).
    #[serde(default = "default_side")]
    pub width: u8,
    /// Ranks (default 8).
    #[serde(default = "default_side")]
    pub height: u8,
    /// Board sizes the source allows besides the default, as `WxH` strings (information
    /// for users; any size 3..=16 can be set).
    #[serde(default)]
    pub other_boards: Vec<String>,
    /// Who moves first (default white).
    #[serde(default = "default_first")]
    pub first_player: Color,
    /// The starting position.
    #[serde(default)]
    pub setup: SetupSpec,
    /// Movement parameters.
    #[serde(default)]
    pub movement: Movement,
    /// Capture parameters.
    #[serde(default)]
    pub capture: Capture,
    /// XXI movement limits.
    #[serde(default)]
    pub combat: Combat,
    /// End conditions.
    #[serde(default)]
    pub end: End,
}

fn default_side() -> u8 {
    8
}

fn default_first() -> Color {
    Color::White
}

/// One piece of a starting position: colour, kind and square.
pub type Placed = (Color, PieceKind, Square);

impl Ruleset {
    /// The ids of the built-in rulesets, in docs/rules.md order.
    pub fn builtin_ids() -> impl Iterator<Item = &'static str> {
        BUILTIN.iter().map(|(id, _)| *id)
    }

    /// A built-in ruleset by id.
    pub fn builtin(id: &str) -> Result<Ruleset, RulesetError> {
        let text = BUILTIN.iter().find(|(i, _)| *i == id).map(|(_, t)| *t).ok_or_else(|| RulesetError::UnknownId {
            id: id.to_string(),
            known: Ruleset::builtin_ids().collect::<Vec<_>>().join(", "),
        })?;
        Ruleset::from_toml_str(text, &format!("builtin:{id}"))
    }

    /// Every built-in ruleset.
    pub fn all_builtin() -> Vec<Ruleset> {
        Ruleset::builtin_ids().map(|id| Ruleset::builtin(id).expect("built-in rulesets are valid (tested)")).collect()
    }

    /// Reads and validates a ruleset file.
    pub fn from_file(path: &Path) -> Result<Ruleset, RulesetError> {
        let text =
            std::fs::read_to_string(path).map_err(|source| RulesetError::Io { path: path.to_path_buf(), source })?;
        Ruleset::from_toml_str(&text, &path.display().to_string())
    }

    /// Parses and validates TOML text; `origin` names it in errors.
    pub fn from_toml_str(text: &str, origin: &str) -> Result<Ruleset, RulesetError> {
        let rs: Ruleset = toml::from_str(text).map_err(|e| RulesetError::Parse {
            origin: origin.to_string(),
            message: e.to_string().trim_end().to_string(),
        })?;
        rs.validate().map_err(|message| RulesetError::Invalid { origin: origin.to_string(), message })?;
        Ok(rs)
    }

    /// The same ruleset on another board (e.g. XXI on 12 × 8), validated.
    pub fn with_board(&self, width: u8, height: u8) -> Result<Ruleset, RulesetError> {
        let mut rs = self.clone();
        rs.width = width;
        rs.height = height;
        rs.validate()
            .map_err(|message| RulesetError::Invalid { origin: format!("{} at {width}x{height}", self.id), message })?;
        Ok(rs)
    }

    /// The same ruleset with one parameter changed, validated: `key` is a dotted path of
    /// the ruleset file (`end.no_capture_limit`, `movement.hop_chain`, `width`), `value`
    /// a TOML value (`50`, `true`, `"pass"`; a bare word is read as a string). An unknown
    /// key, a wrong type or an unplayable result is an error naming the key.
    pub fn with_param(&self, key: &str, value: &str) -> Result<Ruleset, RulesetError> {
        let origin = format!("{} with {key} = {value}", self.id);
        let err = |message: String| RulesetError::Invalid { origin: origin.clone(), message };
        let parsed: toml::Value = toml::from_str::<toml::Table>(&format!("v = {value}"))
            .ok()
            .and_then(|mut t| t.remove("v"))
            .unwrap_or_else(|| toml::Value::String(value.trim().to_string()));
        let mut table: toml::Table =
            toml::from_str(&self.to_toml()).map_err(|e| err(format!("cannot re-read the ruleset: {e}")))?;
        let path: Vec<&str> = key.split('.').map(str::trim).collect();
        if path.iter().any(|p| p.is_empty()) || path.len() > 2 {
            return Err(err(format!("'{key}' is not a parameter (write section.key, e.g. end.no_capture_limit)")));
        }
        if matches!(path[0], "id" | "name" | "source" | "other_boards") {
            return Err(err(format!("'{key}' is not a rule parameter")));
        }
        let slot = if path.len() == 2 {
            let section = table.entry(path[0]).or_insert_with(|| toml::Value::Table(toml::Table::new()));
            match section {
                toml::Value::Table(t) => t,
                _ => return Err(err(format!("'{}' is not a section", path[0]))),
            }
        } else {
            &mut table
        };
        slot.insert(path[path.len() - 1].to_string(), parsed);
        let text = toml::to_string(&table).map_err(|e| err(e.to_string()))?;
        Ruleset::from_toml_str(&text, &origin)
    }

    /// The ruleset as TOML (every parameter written out).
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a ruleset always serialises")
    }

    /// A stable 64-bit hash of every parameter (not the id, name or source), for
    /// telling apart results of differently configured games. Printed as 16 hex digits.
    pub fn params_hash(&self) -> u64 {
        let mut clone = self.clone();
        clone.id.clear();
        clone.name.clear();
        clone.source.clear();
        clone.other_boards.clear();
        // FNV-1a over the canonical TOML text: stable across runs and platforms.
        crate::rng::fnv1a(clone.to_toml().as_bytes())
    }

    /// The engine parameters.
    pub fn rules(&self) -> Rules {
        Rules {
            width: self.width,
            height: self.height,
            first_player: self.first_player,
            has_dux: self.has_dux(),
            placement: self.setup.placement,
            centre_empty: self.setup.centre_empty,
            movement: self.movement,
            capture: self.capture,
            combat: self.combat,
            end: self.end,
        }
    }

    /// Whether the setup gives the sides a Dux.
    pub fn has_dux(&self) -> bool {
        match self.setup.layout {
            Layout::Ranks => self.setup.dux_rank > 0,
            Layout::Checkers => false,
            Layout::InHand => self.setup.dux_in_hand,
            Layout::Squares => self.setup.white.iter().chain(&self.setup.black).any(|s| s.starts_with('D')),
        }
    }

    /// Pieces each side starts with in hand: (soldiers, Duxes).
    pub fn in_hand(&self) -> (u8, u8) {
        match self.setup.layout {
            Layout::InHand => (self.setup.soldiers_in_hand, self.setup.dux_in_hand as u8),
            _ => (0, 0),
        }
    }

    /// The pieces on the board at the start (empty for `in-hand`).
    pub fn initial_pieces(&self) -> Result<Vec<Placed>, String> {
        let (w, h) = (self.width, self.height);
        let sq = |f: u8, r: u8| Square::new(f, r).expect("validated board");
        let mut out = Vec::new();
        match self.setup.layout {
            Layout::Ranks => {
                let s = &self.setup;
                let dux_white = (s.dux_rank > 0).then(|| {
                    let f = match s.dux_file {
                        DuxFile::LeftCentre => w / 2 - 1,
                        DuxFile::RightCentre => w / 2,
                    };
                    sq(f, s.dux_rank - 1)
                });
                let dux_black = dux_white.map(|d| match s.black_dux {
                    Symmetry::Mirror => sq(d.file(), h - 1 - d.rank()),
                    Symmetry::Point => sq(w - 1 - d.file(), h - 1 - d.rank()),
                });
                for (color, dux) in [(Color::White, dux_white), (Color::Black, dux_black)] {
                    for i in 0..s.soldier_ranks {
                        let r = if color == Color::White { i } else { h - 1 - i };
                        for f in 0..w {
                            if Some(sq(f, r)) != dux {
                                out.push((color, PieceKind::Soldier, sq(f, r)));
                            }
                        }
                    }
                    if let Some(d) = dux {
                        out.push((color, PieceKind::Dux, d));
                    }
                }
            }
            Layout::Checkers => {
                for i in 0..self.setup.soldier_ranks {
                    for f in 0..w {
                        let (rw, rb) = (i, h - 1 - i);
                        if (f + rw) % 2 == 0 {
                            out.push((Color::White, PieceKind::Soldier, sq(f, rw)));
                        }
                        if (f + rb) % 2 == 0 {
                            out.push((Color::Black, PieceKind::Soldier, sq(f, rb)));
                        }
                    }
                }
            }
            Layout::InHand => {}
            Layout::Squares => {
                for (color, list) in [(Color::White, &self.setup.white), (Color::Black, &self.setup.black)] {
                    for item in list {
                        let (kind, name) = match item.strip_prefix('D') {
                            Some(rest) => (PieceKind::Dux, rest),
                            None => (PieceKind::Soldier, item.as_str()),
                        };
                        let s: Square = name.parse().map_err(|e| format!("setup.{}: {e}", color.name()))?;
                        if s.file() >= w || s.rank() >= h {
                            return Err(format!("setup.{}: {s} is off the {w}x{h} board", color.name()));
                        }
                        out.push((color, kind, s));
                    }
                }
            }
        }
        Ok(out)
    }

    /// Checks that the parameters make a playable game; the message names the key.
    pub fn validate(&self) -> Result<(), String> {
        let (w, h) = (self.width, self.height);
        if !(3..=MAX_SIDE).contains(&w) || !(3..=MAX_SIDE).contains(&h) {
            return Err(format!("board {w}x{h} is impossible: width and height must be 3 to {MAX_SIDE}"));
        }
        if self.id.trim().is_empty() {
            return Err("id must not be empty".into());
        }
        let s = &self.setup;
        match s.layout {
            Layout::Ranks | Layout::Checkers => {
                if s.soldier_ranks == 0 || 2 * u32::from(s.soldier_ranks) > u32::from(h) {
                    return Err(format!(
                        "setup.soldier_ranks = {} does not fit a board {h} ranks high (1 to {})",
                        s.soldier_ranks,
                        h / 2
                    ));
                }
                if s.layout == Layout::Ranks && s.dux_rank > 0 && 2 * u32::from(s.dux_rank) > u32::from(h) {
                    return Err(format!(
                        "setup.dux_rank = {} is past the middle of a board {h} ranks high",
                        s.dux_rank
                    ));
                }
                if s.layout == Layout::Checkers && s.dux_rank > 0 {
                    return Err("setup.dux_rank is not supported with layout = \"checkers\"".into());
                }
            }
            Layout::InHand => {
                let total = 2 * (s.soldiers_in_hand as u32 + s.dux_in_hand as u32);
                if s.soldiers_in_hand == 0 {
                    return Err("setup.soldiers_in_hand must be at least 1 with layout = \"in-hand\"".into());
                }
                let room = w as u32 * h as u32 - u32::from(s.centre_empty);
                if total > room {
                    return Err(format!(
                        "setup: {total} pieces in hand do not fit the {room} squares open to them on a {w}x{h} board"
                    ));
                }
            }
            Layout::Squares => {}
        }
        let pieces = self.initial_pieces()?;
        let mut seen = BTreeSet::new();
        for (_, _, sq) in &pieces {
            if !seen.insert(*sq) {
                return Err(format!("setup: two pieces on {sq}"));
            }
        }
        for c in Color::ALL {
            let duxes = pieces.iter().filter(|(pc, k, _)| *pc == c && *k == PieceKind::Dux).count();
            if duxes > 1 {
                return Err(format!("setup: {c} has {duxes} Duxes (at most one)"));
            }
        }
        if self.capture.capture_by_displacement && self.capture.effect != CaptureEffect::Trap {
            return Err("capture.capture_by_displacement needs capture.effect = \"trap\"".into());
        }
        if self.capture.removal_move && self.capture.effect != CaptureEffect::Trap {
            return Err("capture.removal_move needs capture.effect = \"trap\"".into());
        }
        if self.capture.corner_anvil
            && (self.capture.effect != CaptureEffect::Remove || !self.capture.custodial || self.capture.line)
        {
            return Err("capture.corner_anvil needs custodial capture (custodial = true, line = false) and capture.effect = \"remove\" (an empty corner holds nothing that could be a trap's holder)".into());
        }
        if self.capture.removal_then_move && !self.capture.removal_move {
            return Err("capture.removal_then_move needs capture.removal_move = true".into());
        }
        if self.capture.capture_grants_ply && self.capture.effect != CaptureEffect::Remove {
            return Err("capture.capture_grants_ply needs capture.effect = \"remove\" (a trap is not a capture)".into());
        }
        if self.capture.dux == DuxCapture::LikeSoldier && self.capture.effect != CaptureEffect::Remove {
            return Err("capture.dux = \"like-soldier\" needs capture.effect = \"remove\"".into());
        }
        if self.capture.line && self.capture.effect == CaptureEffect::Trap {
            return Err("capture.line cannot be combined with capture.effect = \"trap\" (the holders of a trapped run are undefined)".into());
        }
        if self.end.repetition != Repetition::Off && self.end.repetition_count < 2 {
            return Err("end.repetition_count must be at least 2".into());
        }
        if self.end.lose_at_soldiers < -1 {
            return Err("end.lose_at_soldiers must be -1 (off) or more".into());
        }
        Ok(())
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}x{})", self.id, self.width, self.height)
    }
}

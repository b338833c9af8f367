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

/// The built-in rulesets, embedded from `configs/rulesets/` at compile time.
pub const BUILTIN: [(&str, &str); 42] = [
    ("kowalski", include_str!("../../../configs/rulesets/kowalski.toml")),
    ("kowalski-parcae", include_str!("../../../configs/rulesets/kowalski-parcae.toml")),
    ("classical", include_str!("../../../configs/rulesets/classical.toml")),
    ("xxi", include_str!("../../../configs/rulesets/xxi.toml")),
    ("single-stone-xxi", include_str!("../../../configs/rulesets/single-stone-xxi.toml")),
    ("petteia-xxi", include_str!("../../../configs/rulesets/petteia-xxi.toml")),
    ("common", include_str!("../../../configs/rulesets/common.toml")),
    ("back-rank", include_str!("../../../configs/rulesets/back-rank.toml")),
    ("savard", include_str!("../../../configs/rulesets/savard.toml")),
    ("falkener", include_str!("../../../configs/rulesets/falkener.toml")),
    ("bell", include_str!("../../../configs/rulesets/bell.toml")),
    ("schadler", include_str!("../../../configs/rulesets/schadler.toml")),
    // Ludii's rulesets (docs/rules.md §5), those the engine plays so far.
    ("ludii-schadler-1994", include_str!("../../../configs/rulesets/ludii-schadler-1994.toml")),
    ("ludii-schadler-2001", include_str!("../../../configs/rulesets/ludii-schadler-2001.toml")),
    ("ludii-seneca", include_str!("../../../configs/rulesets/ludii-seneca.toml")),
    ("ludii-piso", include_str!("../../../configs/rulesets/ludii-piso.toml")),
    ("ludii-quintana", include_str!("../../../configs/rulesets/ludii-quintana.toml")),
    ("ludii-kowalski-10x11", include_str!("../../../configs/rulesets/ludii-kowalski-10x11.toml")),
    ("ludii-kowalski-8x12", include_str!("../../../configs/rulesets/ludii-kowalski-8x12.toml")),
    ("ludii-falkener", include_str!("../../../configs/rulesets/ludii-falkener.toml")),
    ("ludii-bell-8x7", include_str!("../../../configs/rulesets/ludii-bell-8x7.toml")),
    ("ludii-bell-8x8", include_str!("../../../configs/rulesets/ludii-bell-8x8.toml")),
    ("ludii-seega-6x6", include_str!("../../../configs/rulesets/ludii-seega-6x6.toml")),
    ("ludii-seega-6x7", include_str!("../../../configs/rulesets/ludii-seega-6x7.toml")),
    ("ludii-seega-6x8", include_str!("../../../configs/rulesets/ludii-seega-6x8.toml")),
    ("ludii-seega-7x8", include_str!("../../../configs/rulesets/ludii-seega-7x8.toml")),
    ("ludii-seega-8x8", include_str!("../../../configs/rulesets/ludii-seega-8x8.toml")),
    ("ludii-seega-8x9", include_str!("../../../configs/rulesets/ludii-seega-8x9.toml")),
    ("ludii-seega-9x10", include_str!("../../../configs/rulesets/ludii-seega-9x10.toml")),
    ("ludii-seega-10x10", include_str!("../../../configs/rulesets/ludii-seega-10x10.toml")),
    ("ludii-seega-11x12", include_str!("../../../configs/rulesets/ludii-seega-11x12.toml")),
    ("ludii-seega-11x16", include_str!("../../../configs/rulesets/ludii-seega-11x16.toml")),
    ("ludii-kharebga-6x6", include_str!("../../../configs/rulesets/ludii-kharebga-6x6.toml")),
    ("ludii-kharebga-6x7", include_str!("../../../configs/rulesets/ludii-kharebga-6x7.toml")),
    ("ludii-kharebga-6x8", include_str!("../../../configs/rulesets/ludii-kharebga-6x8.toml")),
    ("ludii-kharebga-7x8", include_str!("../../../configs/rulesets/ludii-kharebga-7x8.toml")),
    ("ludii-kharebga-8x8", include_str!("../../../configs/rulesets/ludii-kharebga-8x8.toml")),
    ("ludii-kharebga-8x9", include_str!("../../../configs/rulesets/ludii-kharebga-8x9.toml")),
    ("ludii-kharebga-9x10", include_str!("../../../configs/rulesets/ludii-kharebga-9x10.toml")),
    ("ludii-kharebga-10x10", include_str!("../../../configs/rulesets/ludii-kharebga-10x10.toml")),
    ("ludii-kharebga-11x12", include_str!("../../../configs/rulesets/ludii-kharebga-11x12.toml")),
    ("ludii-kharebga-11x16", include_str!("../../../configs/rulesets/ludii-kharebga-11x16.toml")),
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

/// How soldiers move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SoldierMove {
    /// Any number of empty squares along a line (a rook move); no jumping.
    Slide,
    /// One square to an empty neighbour.
    Step,
    /// One square forward or sideways, never backward (Savard's men).
    StepForwardSideways,
}

/// How the Dux moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DuxMove {
    /// Any number of empty squares along a line.
    Slide,
    /// One square to an empty neighbour.
    Step,
}

/// Which pieces a hop may pass over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HopOver {
    /// Any piece, own or enemy (trapped pieces included).
    Any,
    /// Enemy pieces only.
    Enemy,
    /// The mover's own pieces, or trapped enemy pieces (Ludii's Seneca).
    OwnOrTrapped,
}

/// Movement parameters (`[movement]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Movement {
    /// How soldiers move (default `slide`).
    pub soldier: SoldierMove,
    /// How the Dux moves (default `slide`).
    pub dux: DuxMove,
    /// Steps, slides and hops also go along the 4 diagonals (Falkener). Default false.
    pub diagonal: bool,
    /// Soldiers may hop over an adjacent piece to the empty square beyond. Default false.
    pub soldier_hops: bool,
    /// The Dux may hop over an adjacent piece to the empty square beyond (docs/rules.md:
    /// `dux_jumps`). Default false.
    pub dux_jumps: bool,
    /// Hops may chain: several hops in one move, never revisiting a square (the start
    /// square included); the player may stop after any hop (docs/rules.md: `hop_chain`).
    pub hop_chain: bool,
    /// Which pieces may be hopped over (default `any`).
    pub hop_over: HopOver,
    /// No piece may hop over a Dux of either side (Savard's option). Default false.
    pub no_jump_over_dux: bool,
    /// Schädler's rule 7: a piece may end a move between two enemy pieces on a rank or
    /// file only if that move traps (or captures) at least one enemy piece. Default false.
    pub rule7_no_entering_between_enemies: bool,
}

impl Default for Movement {
    fn default() -> Movement {
        Movement {
            soldier: SoldierMove::Slide,
            dux: DuxMove::Slide,
            diagonal: false,
            soldier_hops: false,
            dux_jumps: false,
            hop_chain: false,
            hop_over: HopOver::Any,
            no_jump_over_dux: false,
            rule7_no_entering_between_enemies: false,
        }
    }
}

/// Corner capture of an enemy soldier standing on a corner square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CornerCapture {
    /// No corner capture.
    None,
    /// The mover lands on one of the corner's two orthogonal neighbours while the other
    /// neighbour holds a capturing piece of the mover.
    Active,
    /// After every ply, every enemy soldier on a corner whose on-board orthogonal
    /// neighbours all hold the mover's pieces is captured, whether or not this ply moved
    /// next to it (the parcae engine).
    Passive,
}

/// How a Dux can be captured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DuxCapture {
    /// Never.
    Never,
    /// When the mover lands next to it and every on-board orthogonal neighbour of the
    /// Dux holds a piece of the mover (Savard; 2 in a corner, 3 on an edge, 4 inside).
    Enclosure,
    /// When the mover lands next to it and all four orthogonal neighbours are on the
    /// board and hold pieces of the mover (Bell: never on an edge).
    FourSides,
    /// By the same flanks as a soldier (custodial and corner capture, and line capture's
    /// runs), as in Ludii's Bell rulesets. Needs `effect = "remove"`.
    LikeSoldier,
}

impl DuxCapture {
    /// The Dux is taken by its own enclosure rule (`enclosure` or `four-sides`).
    pub fn by_enclosure(self) -> bool {
        matches!(self, DuxCapture::Enclosure | DuxCapture::FourSides)
    }
}

/// What a custodial flank does to the flanked enemy soldier.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CaptureEffect {
    /// The soldier is removed at once.
    Remove,
    /// The soldier becomes trapped (cannot move, cannot trap or capture); it is freed
    /// when one of its two holders is no longer a free piece of the holding side on its
    /// square. Removing it costs a later ply (Schädler's removal, or Savard's
    /// displacement when `capture_by_displacement`).
    Trap,
}

/// Capture parameters (`[capture]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Capture {
    /// Custodial capture: the moved piece (hammer) lands on `s`, an enemy soldier stands
    /// on `s+d`, a capturing piece of the mover (anvil) on `s+2d`. Default true.
    pub custodial: bool,
    /// Custodial capture also along the 4 diagonals (Falkener). Default false.
    pub diagonal: bool,
    /// The Dux may act as hammer and anvil (docs/rules.md: `dux_captures`). Default true.
    /// When false only soldiers capture (and only soldiers make a move that captures).
    pub dux_captures: bool,
    /// Corner capture (default `active`).
    pub corner: CornerCapture,
    /// Line capture (`common`): a run `s+d … s+kd` (k ≥ 1) of enemy soldiers closed by a
    /// capturing piece of the mover on `s+(k+1)d` is captured whole; a run reaching an
    /// enemy Dux captures nothing. Replaces plain custodial capture when set.
    pub line: bool,
    /// XXI rules 13a/13b, push and crush (along the direction of travel). Default false.
    pub push_and_crush: bool,
    /// XXI rule 14, flank attack (along the direction of travel). Default false.
    pub flank: bool,
    /// XXI rule 15, phalanx attack (along the direction of travel). Default false.
    pub phalanx: bool,
    /// Savard's enclosure: an enemy piece next to the landing square whose every
    /// on-board orthogonal neighbour holds a piece of the mover (any piece, Dux
    /// included) is captured; a soldier so captured needs no other rule. Default false.
    pub enclosure: bool,
    /// How a Dux may be captured (default `never`).
    pub dux: DuxCapture,
    /// What custodial and corner flanks do (default `remove`).
    pub effect: CaptureEffect,
    /// The side to move may spend its ply removing one trapped enemy piece (Schädler).
    /// Default false.
    pub removal_move: bool,
    /// Savard's option: flanking only traps an enemy man (use with `effect = "trap"`);
    /// a trapped enemy man is captured by stepping onto it (docs/rules.md:
    /// `capture_by_displacement`). Default false.
    pub capture_by_displacement: bool,
    /// An empty corner square acts as an anvil of custodial capture (Ludii's Bell): an
    /// enemy soldier between the landing piece and an empty corner is taken. [assumed]
    /// A corner holding a piece is an anvil only if that piece is one (a capturer of the
    /// mover). Needs `effect = "remove"`. Default false, left out of the canonical TOML.
    #[serde(skip_serializing_if = "is_false")]
    pub corner_anvil: bool,
    /// A removal ply (`removal_move`) leaves the turn with the remover, who then removes
    /// another trapped enemy or moves (Ludii's Seneca: remove, then move). Default false:
    /// the removal is the whole turn (Schädler).
    #[serde(skip_serializing_if = "is_false")]
    pub removal_then_move: bool,
    /// A movement ply that removes at least one enemy piece grants the capturing piece a
    /// further ply in the same turn (which may capture again and so earn another); the
    /// turn passes when that piece has no legal ply (Ludii's Bell). The further ply is
    /// compulsory, as in Ludii. Needs `effect = "remove"`. Default false.
    #[serde(skip_serializing_if = "is_false")]
    pub capture_grants_ply: bool,
}

/// For `skip_serializing_if`: parameters added later leave the canonical TOML (and so
/// `params_hash`) of rulesets that do not use them unchanged.
fn is_false(b: &bool) -> bool {
    !*b
}

impl Default for Capture {
    fn default() -> Capture {
        Capture {
            custodial: true,
            diagonal: false,
            dux_captures: true,
            corner: CornerCapture::Active,
            line: false,
            push_and_crush: false,
            flank: false,
            phalanx: false,
            enclosure: false,
            dux: DuxCapture::Never,
            effect: CaptureEffect::Remove,
            removal_move: false,
            capture_by_displacement: false,
            corner_anvil: false,
            removal_then_move: false,
            capture_grants_ply: false,
        }
    }
}

/// Latrunculi XXI's movement limits (`[combat]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Combat {
    /// Rules 10–12: a soldier that is the sole attacker of at least one orthogonally
    /// adjacent enemy piece may make only offensive plies. Default false.
    pub locked_soldiers: bool,
    /// Rules 16–18: the Dux's moves are limited by the pieces around it. Default false.
    pub dux_limits: bool,
}

/// When a Dux counts as immobilised for the win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Immobilization {
    /// Immobilisation does not end the game.
    Off,
    /// No orthogonal neighbour is an empty on-board square, whoever blocks it.
    AnyBlockers,
    /// Every on-board orthogonal neighbour holds a piece of the Dux's enemy (parcae).
    EnemyOnly,
}

/// What happens when a ply leaves the mover's own Dux immobilised (after its captures).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelfImmobilization {
    /// Such a ply is not legal.
    Illegal,
    /// Such a ply loses (unless it also immobilises the enemy Dux: see
    /// [`End::both_immobilized_mover_wins`]).
    Loses,
    /// Nothing happens.
    Allowed,
}

/// What the side to move having no legal ply means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoMoves {
    /// It loses (`stalemate`).
    Loses,
    /// The side with more pieces wins (`material`); equal is a draw (`stalemate`).
    Material,
    /// It passes: the other side moves again (no ply is played: the ply and no-capture
    /// counters stay). When neither side can move, a draw (`stalemate`). Ludii's
    /// Kharebga.
    Pass,
}

/// Who a level material count goes to (see [`End::material_tie`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MaterialTie {
    /// Nobody: a draw.
    #[default]
    Draw,
    /// White wins (`material`).
    White,
    /// Black wins (`material`), as in Ludii's Seneca, Piso and Bell rulesets.
    Black,
}

impl MaterialTie {
    /// Whether this is the default (`draw`), which the canonical TOML leaves out so that
    /// rulesets written before the parameter keep their `params_hash`.
    pub fn is_draw(&self) -> bool {
        *self == MaterialTie::Draw
    }
}

/// What the no-capture limit leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LimitResult {
    /// A draw (`no-capture-limit`).
    Draw,
    /// The side with more pieces wins (`material`); equal is a draw (`no-capture-limit`).
    Material,
}

/// What a repeated position does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repetition {
    /// Nothing.
    Off,
    /// The ply that creates the n-th occurrence draws (`repetition`).
    Draw,
    /// The ply that creates the n-th occurrence loses for the mover (`repetition`).
    MoverLoses,
    /// A ply that would create the n-th occurrence is not legal.
    Illegal,
}

/// End-of-game parameters (`[end]`). After each legal ply the engine checks, in order:
/// Dux captured, immobilisation, bare/annihilated, repetition, no-capture limit, no
/// legal move for the side to move, then the experiment's ply cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct End {
    /// Immobilising the enemy Dux wins for the mover (`immobilized`). Default `any-blockers`.
    pub dux_immobilized: Immobilization,
    /// A ply leaving the mover's own Dux immobilised (docs/rules.md: `self_immobilization`).
    /// Default `illegal`. Uses the `dux_immobilized` definition of immobilised.
    pub self_immobilization: SelfImmobilization,
    /// With `self_immobilization = "loses"`: a ply that immobilises both Duxes wins for
    /// the mover (true, default) or loses (false).
    pub both_immobilized_mover_wins: bool,
    /// A side whose soldiers number at most this many after the opponent's ply loses
    /// (`bare` when the side has a Dux in the setup, `annihilated` otherwise). `-1`
    /// switches the rule off. Default 0.
    pub lose_at_soldiers: i32,
    /// Capturing the enemy Dux wins (`dux-captured`) (docs/rules.md: `win_by_dux_capture`).
    /// Default true; when false a captured Dux is simply removed.
    pub win_by_dux_capture: bool,
    /// The side to move with no legal ply (default `loses`).
    pub no_moves: NoMoves,
    /// Plies (both players' counted) without a capture after which the game ends; 0 is
    /// no limit. Placement plies do not count. Default 0.
    pub no_capture_limit: u32,
    /// What reaching the no-capture limit means (default `draw`).
    pub no_capture_result: LimitResult,
    /// What repeating a position does (default `off`).
    pub repetition: Repetition,
    /// Which occurrence of a position triggers `repetition` (default 3).
    pub repetition_count: u32,
    /// Check "no legal ply" before bare/annihilated (the parcae engine's order).
    /// Default false.
    pub stalemate_before_bare: bool,
    /// Who wins when a material count (`no_moves` or `no_capture_result` = `material`)
    /// is level: `draw` (default), `white` or `black`.
    #[serde(skip_serializing_if = "MaterialTie::is_draw")]
    pub material_tie: MaterialTie,
    /// `lose_at_soldiers` counts the Dux (on the board or in hand) as well as the
    /// soldiers: "a side with no pieces left loses" when the Dux can be captured
    /// (Ludii's Bell). Default false.
    #[serde(skip_serializing_if = "is_false")]
    pub bare_counts_dux: bool,
}

impl Default for End {
    fn default() -> End {
        End {
            dux_immobilized: Immobilization::AnyBlockers,
            self_immobilization: SelfImmobilization::Illegal,
            both_immobilized_mover_wins: true,
            lose_at_soldiers: 0,
            win_by_dux_capture: true,
            no_moves: NoMoves::Loses,
            no_capture_limit: 0,
            no_capture_result: LimitResult::Draw,
            repetition: Repetition::Off,
            repetition_count: 3,
            stalemate_before_bare: false,
            material_tie: MaterialTie::Draw,
            bare_counts_dux: false,
        }
    }
}

/// How the starting position is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// White soldiers fill its first `soldier_ranks` ranks, Black's the mirror ranks at
    /// the top; an optional Dux replaces or joins them (see `dux_rank`).
    Ranks,
    /// Soldiers on the dark squares (`a1` dark) of each side's first `soldier_ranks`
    /// ranks, as in Canadian checkers (Falkener).
    Checkers,
    /// Every piece starts in hand and is placed in a placement phase.
    InHand,
    /// Explicit square lists in `white` and `black`.
    Squares,
}

/// Which file the White Dux stands on, 0-based, for a board `W` files wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DuxFile {
    /// File index `W/2 − 1` (`f` on 12 files).
    LeftCentre,
    /// File index `W/2` (`g` on 12 files, `f` on 10).
    RightCentre,
}

/// Where Black's Dux stands relative to White's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Symmetry {
    /// Same file, mirrored rank (`f2` ↔ `f7` on 8 ranks).
    Mirror,
    /// Point symmetry through the centre (file `W−1−f`, rank `H−1−r`).
    Point,
}

/// The order of placements in a placement phase (docs/rules.md: `placement`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// First player one, then alternately one each.
    OneEach,
    /// Alternately two each, first player first.
    TwoEach,
    /// First player one, then two each alternately, the first player's last piece alone.
    OneTwoOne,
}

/// The starting position (`[setup]`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SetupSpec {
    /// How the position is made (default `ranks`).
    pub layout: Layout,
    /// `ranks` and `checkers`: how many ranks of soldiers each side has (default 1).
    pub soldier_ranks: u8,
    /// `ranks`: the rank (1-based, counted from the owner's edge) of the Dux; 0 means
    /// no Dux. A Dux on a soldier rank replaces the soldier on its square. Default 0.
    pub dux_rank: u8,
    /// `ranks`: which file White's Dux takes (default `right-centre`).
    pub dux_file: DuxFile,
    /// `ranks`: where Black's Dux stands relative to White's (default `point`).
    pub black_dux: Symmetry,
    /// `in-hand`: soldiers each side has in hand (default 0).
    pub soldiers_in_hand: u8,
    /// `in-hand`: each side also places one Dux, after all soldiers (default false).
    pub dux_in_hand: bool,
    /// `in-hand`: the placement order (default `one-each`).
    pub placement: Placement,
    /// `squares`: White's pieces, e.g. `["a1", "b1", "Df2"]` (a `D` prefix marks the Dux).
    pub white: Vec<String>,
    /// `squares`: Black's pieces, same form.
    pub black: Vec<String>,
    /// `in-hand`: no piece may be placed on the centre square, file `W/2` and rank `H/2`
    /// counted from 0 ([assumed] on an even side; Ludii's Seega and Kharebga). Default
    /// false, left out of the canonical TOML.
    #[serde(skip_serializing_if = "is_false")]
    pub centre_empty: bool,
}

impl Default for SetupSpec {
    fn default() -> SetupSpec {
        SetupSpec {
            layout: Layout::Ranks,
            soldier_ranks: 1,
            dux_rank: 0,
            dux_file: DuxFile::RightCentre,
            black_dux: Symmetry::Point,
            soldiers_in_hand: 0,
            dux_in_hand: false,
            placement: Placement::OneEach,
            white: Vec::new(),
            black: Vec::new(),
            centre_empty: false,
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_ruleset_round_trips_through_its_toml() {
        // `latrunculi rules --verbose` prints `to_toml`; reading it back gives the same rules.
        for rs in Ruleset::all_builtin() {
            let back = Ruleset::from_toml_str(&rs.to_toml(), &rs.id).unwrap_or_else(|e| panic!("{}: {e}", rs.id));
            assert_eq!(back, rs, "{}", rs.id);
            assert_eq!(back.params_hash(), rs.params_hash(), "{}", rs.id);
        }
    }

    #[test]
    fn every_builtin_ruleset_loads_and_matches_its_id() {
        for (id, _) in BUILTIN {
            let rs = Ruleset::builtin(id).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(rs.id, id);
            assert!(!rs.name.is_empty() && !rs.source.is_empty(), "{id} lacks name or source");
        }
    }

    #[test]
    fn builtin_files_match_the_configs_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../configs/rulesets");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().trim_end_matches(".toml").to_string())
            .collect();
        on_disk.sort();
        let mut builtin: Vec<String> = Ruleset::builtin_ids().map(String::from).collect();
        builtin.sort();
        assert_eq!(on_disk, builtin);
    }

    #[test]
    fn setups_have_the_documented_pieces() {
        let count = |id: &str| {
            let rs = Ruleset::builtin(id).unwrap();
            let p = rs.initial_pieces().unwrap();
            let n = |c: Color, k: PieceKind| p.iter().filter(|(pc, pk, _)| *pc == c && *pk == k).count();
            (
                n(Color::White, PieceKind::Soldier),
                n(Color::White, PieceKind::Dux),
                n(Color::Black, PieceKind::Soldier),
                n(Color::Black, PieceKind::Dux),
            )
        };
        assert_eq!(count("kowalski"), (12, 1, 12, 1));
        assert_eq!(count("kowalski-parcae"), (11, 1, 11, 1));
        assert_eq!(count("xxi"), (10, 1, 10, 1));
        assert_eq!(count("classical"), (10, 1, 10, 1));
        assert_eq!(count("common"), (12, 1, 12, 1));
        assert_eq!(count("single-stone-xxi"), (10, 0, 10, 0));
        assert_eq!(count("petteia-xxi"), (16, 0, 16, 0));
        assert_eq!(count("back-rank"), (12, 0, 12, 0));
        assert_eq!(count("savard"), (23, 1, 23, 1));
        assert_eq!(count("falkener"), (30, 0, 30, 0));
        assert_eq!(count("bell"), (0, 0, 0, 0));
        assert_eq!(count("schadler"), (0, 0, 0, 0));
    }

    #[test]
    fn dux_squares_follow_rules_md() {
        let dux = |id: &str, w: u8, h: u8| {
            let rs = Ruleset::builtin(id).unwrap().with_board(w, h).unwrap();
            let p = rs.initial_pieces().unwrap();
            let find = |c| p.iter().find(|(pc, k, _)| *pc == c && *k == PieceKind::Dux).unwrap().2.to_string();
            (find(Color::White), find(Color::Black))
        };
        let s = |a: &str, b: &str| (a.to_string(), b.to_string());
        assert_eq!(dux("kowalski", 12, 8), s("f2", "f7"));
        assert_eq!(dux("kowalski-parcae", 12, 8), s("f1", "f8"));
        assert_eq!(dux("xxi", 10, 8), s("f2", "e7"));
        assert_eq!(dux("xxi", 12, 8), s("g2", "f7"));
        assert_eq!(dux("xxi", 8, 8), s("e2", "d7"));
        assert_eq!(dux("common", 12, 8), s("g2", "f7"));
        assert_eq!(dux("savard", 8, 8), s("d3", "d6"));
    }

    #[test]
    fn unknown_key_is_an_error_naming_the_key() {
        let err = Ruleset::from_toml_str("id = \"x\"\n[capture]\ncustodail = true\n", "test.toml").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("test.toml") && msg.contains("custodail"), "{msg}");
    }

    #[test]
    fn wrong_type_is_an_error_naming_the_line() {
        let err = Ruleset::from_toml_str("id = \"x\"\nwidth = \"wide\"\n", "t.toml").unwrap_err();
        let msg = err.to_string();
        assert!(msg.contains("t.toml") && msg.contains("line 2"), "{msg}");
    }

    #[test]
    fn impossible_boards_are_errors() {
        for (w, h) in [(17, 8), (12, 17), (17, 17), (2, 8), (0, 0)] {
            let text = format!("id = \"x\"\nwidth = {w}\nheight = {h}\n");
            let msg = Ruleset::from_toml_str(&text, "b.toml").unwrap_err().to_string();
            assert!(
                msg.contains("impossible") && msg.contains(&format!("{w}x{h}")) && msg.contains("3 to 16"),
                "{w}x{h}: {msg}"
            );
        }
        for (w, h) in [(16, 16), (16, 11), (13, 8)] {
            let text = format!("id = \"x\"\nwidth = {w}\nheight = {h}\n");
            assert!(Ruleset::from_toml_str(&text, "b.toml").is_ok(), "{w}x{h}");
        }
        let msg = Ruleset::builtin("kowalski").unwrap().with_board(17, 8).unwrap_err().to_string();
        assert!(msg.contains("17x8") && msg.contains("3 to 16"), "{msg}");
        let msg = Ruleset::builtin("petteia-xxi").unwrap().with_board(8, 3).unwrap_err().to_string();
        assert!(msg.contains("soldier_ranks"), "{msg}");
    }

    #[test]
    fn unknown_id_lists_the_known_ones() {
        let msg = Ruleset::builtin("chess").unwrap_err().to_string();
        assert!(msg.contains("chess") && msg.contains("kowalski") && msg.contains("schadler"), "{msg}");
    }

    #[test]
    fn params_hash_depends_on_parameters_only() {
        let a = Ruleset::builtin("xxi").unwrap();
        let mut b = a.clone();
        b.name = "renamed".into();
        assert_eq!(a.params_hash(), b.params_hash());
        b.end.no_capture_limit += 2;
        assert_ne!(a.params_hash(), b.params_hash());
    }
}

//! The rule parameters of a ruleset file, one type per table (`[movement]`, `[capture]`,
//! `[combat]`, `[end]`, `[setup]`) with their defaults: those of the plainest game.

use serde::{Deserialize, Serialize};

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

/// Whether a piece count ends a game with a win (see [`End::adjudication`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Adjudication {
    /// The count decides: more pieces wins (`material`), a level count goes where
    /// `material_tie` says.
    #[default]
    Count,
    /// No count is made: the game is drawn, with the reason of the rule that called for
    /// the count (`no-capture-limit` or `stalemate`).
    Draw,
}

impl Adjudication {
    /// Whether this is the default (`count`), which the canonical TOML leaves out so that
    /// rulesets written before the parameter keep their `params_hash`.
    pub fn is_count(&self) -> bool {
        *self == Adjudication::Count
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
    /// What the piece counts of `no_capture_result = "material"` and `no_moves =
    /// "material"` decide: `count` (default) the count decides; `draw` turns every such
    /// count into a draw (adjudication off), `material_tie` then playing no part. No
    /// other end rule changes.
    #[serde(skip_serializing_if = "Adjudication::is_count")]
    pub adjudication: Adjudication,
}

impl End {
    /// Whether reaching the no-capture limit makes a piece count decide the game (a limit,
    /// `no_capture_result = "material"`, `adjudication = "count"`).
    pub fn counts_at_limit(&self) -> bool {
        self.no_capture_limit > 0 && self.no_capture_result == LimitResult::Material && self.adjudication.is_count()
    }

    /// Whether a side to move without a legal ply makes a piece count decide the game
    /// (`no_moves = "material"`, `adjudication = "count"`).
    pub fn counts_at_no_moves(&self) -> bool {
        self.no_moves == NoMoves::Material && self.adjudication.is_count()
    }

    /// Whether some end rule of these parameters decides a game by a piece count
    /// (reason `material`): [`End::counts_at_limit`] or [`End::counts_at_no_moves`].
    pub fn adjudicates(&self) -> bool {
        self.counts_at_limit() || self.counts_at_no_moves()
    }
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
            adjudication: Adjudication::Count,
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

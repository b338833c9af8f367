//! Observation planes: a position as a `[planes, H, W]` tensor of `f32`, always from
//! the point of view of the side to move.
//!
//! **Frame.** Row `y`, column `x` of a plane is the square on file `x` and rank `y`
//! when White is to move, and on file `x` and rank `H - 1 - y` when Black is to move:
//! ranks are flipped (files are not), so the side to move always advances towards
//! higher rows. Actions are *not* flipped (see [`crate::action`]): they always use the
//! absolute board frame.
//!
//! The planes, in order, are listed with their names and meanings in [`PLANES`]. Board
//! planes hold 1.0 on the squares they mark and 0.0 elsewhere; constant planes hold the
//! same value on every square.
//!
//! An encoder made with [`ObservationEncoder::with_tactical`] appends the
//! [`TACTICAL_PLANES`]: one-move capture threats of both sides, computed by the rules
//! engine (hand-made features in the spirit of KataGo's liberty and ladder planes, so a
//! small network need not learn the capture rules from scratch).

use latrunculi_rules::{Color, PieceKind, Position, Ruleset, Square};
use ndarray::ArrayViewMut3;

use crate::SimError;

/// One observation plane: its name and what it holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plane {
    /// Short machine-friendly name.
    pub name: &'static str,
    /// What the plane holds.
    pub doc: &'static str,
}

/// Index of the "own free soldiers" plane.
pub const OWN_SOLDIERS: usize = 0;
/// Index of the "own Dux" plane.
pub const OWN_DUX: usize = 1;
/// Index of the "enemy free soldiers" plane.
pub const ENEMY_SOLDIERS: usize = 2;
/// Index of the "enemy Dux" plane.
pub const ENEMY_DUX: usize = 3;
/// Index of the "own trapped soldiers" plane.
pub const OWN_TRAPPED: usize = 4;
/// Index of the "enemy trapped soldiers" plane.
pub const ENEMY_TRAPPED: usize = 5;
/// Index of the "own soldiers in hand" plane.
pub const OWN_IN_HAND: usize = 6;
/// Index of the "enemy soldiers in hand" plane.
pub const ENEMY_IN_HAND: usize = 7;
/// Index of the "placement phase" plane.
pub const PLACEMENT_PHASE: usize = 8;
/// Index of the "White to move" plane.
pub const WHITE_TO_MOVE: usize = 9;
/// Index of the "no-capture counter" plane.
pub const NO_CAPTURE: usize = 10;
/// Index of the "ply / ply cap" plane.
pub const PLY: usize = 11;

/// Number of planes.
pub const NUM_PLANES: usize = 12;

/// Number of tactical planes appended by [`ObservationEncoder::with_tactical`].
pub const NUM_TACTICAL_PLANES: usize = 4;

/// The tactical planes, in tensor order after [`PLANES`] (plane `NUM_PLANES + i`). A
/// "capture" here is anything [`Position::effects`] reports (captures, traps and
/// removals). The opponent's planes are those of the position with the turn passed
/// ([`Position::with_turn_passed`]); they are 0 during the placement phase. All four are 0
/// when the game is over.
pub const TACTICAL_PLANES: [Plane; NUM_TACTICAL_PLANES] = [
    Plane {
        name: "own_capture_to",
        doc: "1 where a legal move of the side to move ends and captures or traps something",
    },
    Plane {
        name: "enemy_en_prise",
        doc: "1 on each enemy piece that some legal move of the side to move would capture or trap",
    },
    Plane {
        name: "enemy_capture_to",
        doc: "1 where a move of the opponent, were it to move now, would end and capture or trap something",
    },
    Plane {
        name: "own_en_prise",
        doc: "1 on each own piece that some move of the opponent, were it to move now, would capture or trap",
    },
];

/// Divisor of the no-capture plane for rulesets without a no-capture limit.
pub const NO_CAPTURE_DEFAULT_SCALE: u32 = 100;

/// Every plane, in tensor order ("own" = the side to move).
pub const PLANES: [Plane; NUM_PLANES] = [
    Plane { name: "own_soldiers", doc: "1 where the side to move has a free (untrapped) soldier" },
    Plane { name: "own_dux", doc: "1 where the side to move has its Dux" },
    Plane { name: "enemy_soldiers", doc: "1 where the opponent has a free (untrapped) soldier" },
    Plane { name: "enemy_dux", doc: "1 where the opponent has its Dux" },
    Plane { name: "own_trapped", doc: "1 where the side to move has a trapped soldier" },
    Plane { name: "enemy_trapped", doc: "1 where the opponent has a trapped soldier" },
    Plane {
        name: "own_in_hand",
        doc: "constant: soldiers the side to move holds in hand / soldiers each side starts with in hand (0 if the ruleset starts with none)",
    },
    Plane { name: "enemy_in_hand", doc: "constant: the same for the opponent" },
    Plane { name: "placement_phase", doc: "constant: 1 while pieces are being placed, else 0" },
    Plane { name: "white_to_move", doc: "constant: 1 if White is to move, else 0" },
    Plane {
        name: "no_capture",
        doc: "constant: movement plies since the last capture / the ruleset's no_capture_limit (or / 100 without a limit), at most 1",
    },
    Plane { name: "ply", doc: "constant: plies played (placements included) / the ply cap, at most 1" },
];

/// Writes observations of positions of one ruleset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObservationEncoder {
    width: u8,
    height: u8,
    /// Soldiers each side starts with in hand (0 without a placement phase).
    initial_in_hand: u8,
    /// Divisor of the no-capture plane.
    no_capture_scale: u32,
    /// Divisor of the ply plane; 0: the position's own ply cap.
    ply_scale: u32,
    /// Whether the [`TACTICAL_PLANES`] follow the [`PLANES`].
    tactical: bool,
}

impl ObservationEncoder {
    /// The encoder of a ruleset's positions.
    pub fn new(ruleset: &Ruleset) -> ObservationEncoder {
        let limit = ruleset.end.no_capture_limit;
        ObservationEncoder {
            width: ruleset.width,
            height: ruleset.height,
            initial_in_hand: ruleset.in_hand().0,
            no_capture_scale: if limit > 0 { limit } else { NO_CAPTURE_DEFAULT_SCALE },
            ply_scale: 0,
            tactical: false,
        }
    }

    /// The same encoder with (or without) the [`TACTICAL_PLANES`] after the [`PLANES`].
    pub fn with_tactical(self, tactical: bool) -> ObservationEncoder {
        ObservationEncoder { tactical, ..self }
    }

    /// Whether the encoder writes the [`TACTICAL_PLANES`].
    pub fn is_tactical(&self) -> bool {
        self.tactical
    }

    /// Number of planes written: [`NUM_PLANES`], plus [`NUM_TACTICAL_PLANES`] when tactical.
    pub fn num_planes(&self) -> usize {
        NUM_PLANES + if self.tactical { NUM_TACTICAL_PLANES } else { 0 }
    }

    /// The same encoder with the ply plane divided by `scale` instead of the position's
    /// ply cap (0: the ply cap again). A network trained on games capped at `scale` plies
    /// then sees the same plane whatever cap a later game is played with.
    pub fn with_ply_scale(self, scale: u32) -> ObservationEncoder {
        ObservationEncoder { ply_scale: scale, ..self }
    }

    /// The shape of one observation, `[planes, height, width]` with
    /// [`ObservationEncoder::num_planes`] planes.
    pub fn shape(&self) -> [usize; 3] {
        [self.num_planes(), self.height as usize, self.width as usize]
    }

    /// Writes the observation of `pos` into `out` (shape [`ObservationEncoder::shape`]),
    /// overwriting every element; allocates nothing unless the encoder is tactical (the
    /// tactical planes need move lists and a copy of the position). An error if the shape is wrong or
    /// the position is of another board size.
    pub fn write(&self, pos: &Position, mut out: ArrayViewMut3<'_, f32>) -> Result<(), SimError> {
        let rules = pos.rules();
        if (rules.width, rules.height) != (self.width, self.height) {
            return Err(SimError::BoardMismatch {
                expected: (self.width, self.height),
                got: (rules.width, rules.height),
            });
        }
        if out.shape() != self.shape() {
            return Err(SimError::ObservationShape { expected: self.shape().to_vec(), got: out.shape().to_vec() });
        }
        out.fill(0.0);
        let me = pos.side_to_move();
        let flip = me == Color::Black;
        let h = self.height as usize;
        for color in Color::ALL {
            let own = color == me;
            for sq in pos.squares_of(color) {
                let Some(piece) = pos.piece_at(sq) else {
                    continue;
                };
                let plane = match (own, piece.kind, piece.trapped) {
                    (true, PieceKind::Dux, _) => OWN_DUX,
                    (true, PieceKind::Soldier, false) => OWN_SOLDIERS,
                    (true, PieceKind::Soldier, true) => OWN_TRAPPED,
                    (false, PieceKind::Dux, _) => ENEMY_DUX,
                    (false, PieceKind::Soldier, false) => ENEMY_SOLDIERS,
                    (false, PieceKind::Soldier, true) => ENEMY_TRAPPED,
                };
                let r = sq.rank() as usize;
                let row = if flip { h - 1 - r } else { r };
                out[[plane, row, sq.file() as usize]] = 1.0;
            }
        }
        let hand = |c: Color| {
            if self.initial_in_hand == 0 { 0.0 } else { pos.in_hand(c).0 as f32 / self.initial_in_hand as f32 }
        };
        let ratio = |a: u32, b: u32| {
            if b == 0 { 1.0 } else { (a as f32 / b as f32).min(1.0) }
        };
        let constants = [
            (OWN_IN_HAND, hand(me)),
            (ENEMY_IN_HAND, hand(me.opponent())),
            (PLACEMENT_PHASE, if pos.is_placement_phase() { 1.0 } else { 0.0 }),
            (WHITE_TO_MOVE, if me == Color::White { 1.0 } else { 0.0 }),
            (NO_CAPTURE, ratio(pos.plies_since_capture(), self.no_capture_scale)),
            (PLY, ratio(pos.ply(), if self.ply_scale > 0 { self.ply_scale } else { pos.ply_cap() })),
        ];
        for (plane, value) in constants {
            if value != 0.0 {
                out.index_axis_mut(ndarray::Axis(0), plane).fill(value);
            }
        }
        if self.tactical && !pos.is_over() {
            let mut moves = Vec::new();
            let mut mark_threats = |side: &Position, to_plane: usize| {
                if side.is_over() {
                    return;
                }
                let mut mark = |plane: usize, sq: Square| {
                    let r = sq.rank() as usize;
                    let row = if flip { h - 1 - r } else { r };
                    out[[NUM_PLANES + plane, row, sq.file() as usize]] = 1.0;
                };
                side.legal_moves(&mut moves);
                for &mv in &moves {
                    let fx = side.effects(mv);
                    if fx.is_empty() {
                        continue;
                    }
                    mark(to_plane, mv.to);
                    for (sq, _) in fx.iter() {
                        mark(to_plane + 1, sq);
                    }
                }
            };
            mark_threats(pos, 0);
            // While pieces are placed, a passed turn is not a position of the game.
            if !pos.is_placement_phase() {
                mark_threats(&pos.with_turn_passed(), 2);
            }
        }
        Ok(())
    }

    /// The square shown at row `row`, column `col` of an observation taken with `to_move`
    /// to move (the inverse of the rank flip described in the module docs).
    pub fn square_at(&self, to_move: Color, row: usize, col: usize) -> Option<Square> {
        if row >= self.height as usize || col >= self.width as usize {
            return None;
        }
        let rank = if to_move == Color::Black { self.height as usize - 1 - row } else { row };
        Square::new(col as u8, rank as u8)
    }
}

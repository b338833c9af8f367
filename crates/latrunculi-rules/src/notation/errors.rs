//! Errors and warnings of the notation: why a token names no legal move ([`MoveError`],
//! [`RuleBreach`]) and where a written move disagrees with the engine ([`NotationWarning`]).

use super::*;

/// A rule of the ruleset that forbids a move the pieces could physically make.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum RuleBreach {
    /// XXI rule 18: the Dux has one open side and an enemy next to it: it cannot move.
    DuxPartiallyImmobilized {
        /// The Dux's square.
        dux: Square,
    },
    /// XXI rule 17: the Dux is the sole attacker of two or more adjacent enemies: only
    /// offensive moves.
    DuxDoubleCombat {
        /// The Dux's square.
        dux: Square,
        /// The enemies it is the sole attacker of.
        enemies: Vec<Square>,
    },
    /// XXI rule 16: the Dux is in single combat: a non-offensive move goes one square.
    DuxSingleCombat {
        /// The Dux's square.
        dux: Square,
        /// The enemy it is the sole attacker of.
        enemy: Square,
    },
    /// XXI rule 10: a soldier that is the sole attacker of an adjacent enemy (locked)
    /// may make only offensive moves.
    LockedSoldier {
        /// The soldier's square.
        soldier: Square,
        /// The enemy it is the sole attacker of.
        enemy: Square,
    },
    /// XXI rules 1c/20 (`end.self_immobilization = "illegal"`): the move would leave
    /// the mover's own Dux immobilised after its captures are removed.
    SelfImmobilization,
    /// Schädler's rule 7: ending between two enemy pieces without trapping.
    BetweenEnemies,
    /// `end.repetition = "illegal"`: the move would repeat a position too often.
    Repetition,
}

impl fmt::Display for RuleBreach {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleBreach::DuxPartiallyImmobilized { dux } => write!(
                f,
                "rule 18: the Dux on {dux} has only one open side and an enemy next to it, so it cannot move at all"
            ),
            RuleBreach::DuxDoubleCombat { dux, enemies } => write!(
                f,
                "rule 17: the Dux on {dux} is the sole attacker of {} and may only make offensive moves",
                join_squares(enemies, " and ")
            ),
            RuleBreach::DuxSingleCombat { dux, enemy } => write!(
                f,
                "rule 16: the Dux on {dux} is in single combat with the piece on {enemy} and may only move one square non-offensively"
            ),
            RuleBreach::LockedSoldier { soldier, enemy } => write!(
                f,
                "rule 10: the soldier on {soldier} is the sole attacker of the piece on {enemy} (locked) and may only make offensive moves"
            ),
            RuleBreach::SelfImmobilization => {
                f.write_str("self-immobilisation (rule 1c/20): the move leaves the mover's own Dux immobilised")
            }
            RuleBreach::BetweenEnemies => {
                f.write_str("rule 7: a piece may end between two enemy pieces only if it traps one")
            }
            RuleBreach::Repetition => f.write_str("repetition: the move would repeat a position too often"),
        }
    }
}

pub(super) fn join_squares(v: &[Square], sep: &str) -> String {
    v.iter().map(|s| s.to_string()).collect::<Vec<_>>().join(sep)
}

pub(super) fn capture_list(v: &[Square], mark: char) -> String {
    if v.is_empty() { "nothing".to_string() } else { v.iter().map(|s| format!("{mark}{s}")).collect() }
}

/// Why a move token cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The token is not a move in the notation.
    #[error("malformed move '{token}': {reason}")]
    Malformed {
        /// The token.
        token: String,
        /// What is wrong.
        reason: String,
    },
    /// The game is already over.
    #[error("the game is already over ({0})")]
    GameOver(Outcome),
    /// The ruleset given does not belong to the position.
    #[error("the ruleset does not match the position's rules")]
    RulesetMismatch,
    /// A square outside the board.
    #[error("{square} is not on the {width}x{height} board")]
    OffBoard {
        /// The square.
        square: Square,
        /// Board width.
        width: u8,
        /// Board height.
        height: u8,
    },
    /// No piece on the start square.
    #[error("there is no piece on {0}")]
    NoPiece(Square),
    /// The piece belongs to the other side.
    #[error("not that side's turn: the piece on {square} is {owner}'s and {to_move} is to move")]
    WrongSide {
        /// The start square.
        square: Square,
        /// The piece's owner.
        owner: Color,
        /// The side to move.
        to_move: Color,
    },
    /// A Dux move written without `D`.
    #[error("the piece on {0} is a Dux: a Dux move is written with D (D{0}-...)")]
    MissingDux(Square),
    /// A soldier move (or placement) written with `D`.
    #[error("the piece on {0} is a soldier, not a Dux: drop the D")]
    ExtraDux(Square),
    /// A trapped piece cannot move.
    #[error("the piece on {0} is trapped and cannot move")]
    Trapped(Square),
    /// A movement while pieces are still being placed.
    #[error("pieces are still being placed: write a placement such as @e4")]
    PlacementPhase,
    /// A placement that cannot be made.
    #[error("cannot place on {square}: {reason}")]
    BadPlacement {
        /// The square.
        square: Square,
        /// Why not.
        reason: String,
    },
    /// A removal that cannot be made.
    #[error("cannot remove the piece on {square}: {reason}")]
    BadRemoval {
        /// The square.
        square: Square,
        /// Why not.
        reason: String,
    },
    /// The piece cannot physically get there (blocked path, wrong line, occupied …).
    #[error("{}{from}-{to} is impossible: {reason}", if *.dux { "D" } else { "" })]
    Unreachable {
        /// A Dux move.
        dux: bool,
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
        /// Why.
        reason: String,
    },
    /// The piece could get there but a rule forbids the move.
    #[error("{}{from}-{to} is illegal: {}", if *.dux { "D" } else { "" }, breaches_text(.breaches))]
    Illegal {
        /// A Dux move.
        dux: bool,
        /// Start square.
        from: Square,
        /// End square.
        to: Square,
        /// Every rule the move breaks (empty if the engine could not name one).
        breaches: Vec<RuleBreach>,
    },
}

pub(super) fn breaches_text(b: &[RuleBreach]) -> String {
    if b.is_empty() {
        "the engine does not allow it (no single rule could be named)".to_string()
    } else {
        b.iter().map(|r| r.to_string()).collect::<Vec<_>>().join("; and ")
    }
}

impl MoveError {
    /// Whether the move breaks a rule but the piece could physically make it (the case
    /// [`ReplayOptions::continue_on_illegal`](crate::replay::ReplayOptions::continue_on_illegal) plays through).
    pub fn is_rule_breach(&self) -> bool {
        matches!(self, MoveError::Illegal { .. })
    }
}

/// A disagreement between what a record writes and what the engine computes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NotationWarning {
    /// The written capture list differs from the captures the move makes.
    Captures {
        /// Written, in board order.
        written: Vec<Square>,
        /// Computed, in board order.
        engine: Vec<Square>,
    },
    /// The written trap list differs from the traps the move makes.
    Traps {
        /// Written, in board order.
        written: Vec<Square>,
        /// Computed, in board order.
        engine: Vec<Square>,
    },
    /// The written suffix differs from the computed one.
    Suffix {
        /// Written.
        written: Suffix,
        /// Computed.
        engine: Option<Suffix>,
    },
    /// The move number written before the move is not this move's number.
    MoveNumber {
        /// Written.
        written: u32,
        /// This move's number.
        expected: u32,
    },
    /// `N...` (a second-player move number) written before a first-player move, or the
    /// other way round.
    MoveSide {
        /// The side whose move the number announces.
        written: Color,
        /// The side actually to move.
        to_move: Color,
    },
}

impl fmt::Display for NotationWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationWarning::Captures { written, engine } => write!(
                f,
                "the record writes captures {} but the move captures {}",
                capture_list(written, 'x'),
                capture_list(engine, 'x')
            ),
            NotationWarning::Traps { written, engine } => write!(
                f,
                "the record writes traps {} but the move traps {}",
                capture_list(written, '^'),
                capture_list(engine, '^')
            ),
            NotationWarning::Suffix { written, engine } => match engine {
                Some(e) => write!(
                    f,
                    "the record writes '{written}' ({}) but the engine finds '{e}' ({})",
                    written.name(),
                    e.name()
                ),
                None => write!(f, "the record writes '{written}' ({}) but the engine finds no suffix", written.name()),
            },
            NotationWarning::MoveNumber { written, expected } => {
                write!(f, "move number {written} written, but this is move {expected}")
            }
            NotationWarning::MoveSide { written, to_move } => {
                write!(f, "the move number announces a {written} move, but {to_move} is to move")
            }
        }
    }
}

/// Compares a written token with the engine's text of the move: captures and traps
/// always (as sets), the suffix only when one is written.
pub fn compare_written(written: &WrittenMove, engine: &MoveText) -> Vec<NotationWarning> {
    let mut out = Vec::new();
    let sorted = |v: &[Square]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v
    };
    let wc = sorted(&written.captures);
    if wc != engine.captures {
        out.push(NotationWarning::Captures { written: wc, engine: engine.captures.clone() });
    }
    let wt = sorted(&written.traps);
    if wt != engine.traps {
        out.push(NotationWarning::Traps { written: wt, engine: engine.traps.clone() });
    }
    if let Some(s) = written.suffix
        && Some(s) != engine.suffix
    {
        out.push(NotationWarning::Suffix { written: s, engine: engine.suffix });
    }
    out
}

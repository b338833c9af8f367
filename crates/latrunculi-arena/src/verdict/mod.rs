//! Verdicts at strong play (`latrunculi verdicts`): every finished game split by how it
//! ended, cells of games counted with 95% intervals, and a ruleset's verdict (drawish,
//! decisive, balanced or unsettled) by one stated rule.
//!
//! # How a game ended
//!
//! [`classify`] reads a game's winner and reason (docs/rules.md §1) under the ruleset's
//! end parameters and puts it in one of three classes ([`Ending`]):
//!
//! - **won by play**: `immobilized`, `bare`, `annihilated`, `dux-captured`, and a
//!   `stalemate` or `repetition` that the rules make a loss (`end.no_moves = "loses"`,
//!   `end.repetition = "mover-loses"`);
//! - **adjudicated**: a win by a piece count (`material`: at the no-capture limit under
//!   `end.no_capture_result = "material"`, or with no legal ply under `end.no_moves =
//!   "material"`, a level count given to a side by `end.material_tie`);
//! - **drawn**, with the kind of draw ([`DrawKind`]): the no-capture limit, a level piece
//!   count, no legal ply (for either side under `no_moves = "pass"`, or for the side to
//!   move with adjudication off), repetition, or the experiment's ply cap.
//!
//! A winner and reason that the ruleset's parameters cannot produce (a `material` win
//! where no count is made, a `no-capture-limit` game with a winner, a drawn
//! `immobilized` game ...) is an error ([`VerdictError::Impossible`]), so that games
//! recorded under other rules are not counted under these.
//!
//! # The verdict rule
//!
//! [`verdict`] looks at the draw rate of one player in self-play at its two largest
//! budgets (say `alphabeta:nodes=2500` and `alphabeta:nodes=10000`), each with its Wilson
//! 95% interval `[lo, hi]`:
//!
//! 1. **unsettled** when the two intervals do not overlap (the weaker budget's `hi` is
//!    below the stronger's `lo`, or its `lo` above the stronger's `hi`): strength still
//!    moves the draw rate;
//! 2. otherwise, at the stronger budget, **drawish** when `lo > 0.5`, **decisive** when
//!    `hi < 0.5`, and **balanced** when the interval holds 0.5.
//!
//! With a single budget only step 2 applies ([`level_verdict`]). A cell without games
//! has no rates and no verdict: [`VerdictError::NoGames`].
//!
//! [`table`] reads games CSVs into cells and writes `verdicts.csv`.

use latrunculi_rules::ruleset::{Adjudication, Immobilization, LimitResult, MaterialTie, NoMoves, Repetition};
use latrunculi_rules::{Color, Reason, Ruleset};

use crate::stats::{Z95, wilson};

pub mod table;

/// Errors of the split by end reason and of the verdict rule.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VerdictError {
    /// A winner and reason that the ruleset's end parameters cannot produce.
    #[error("{result} by '{reason}' cannot happen under ruleset '{ruleset}': {why}")]
    Impossible {
        /// `a win` or `a draw`.
        result: &'static str,
        /// The reason.
        reason: Reason,
        /// The ruleset's id.
        ruleset: String,
        /// Which parameter rules it out.
        why: String,
    },
    /// A cell without games: no rate, no interval, no verdict.
    #[error("{cell} has no games")]
    NoGames {
        /// The cell (`the weaker budget's cell`, `ruleset x player`...).
        cell: String,
    },
}

/// The kinds of draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DrawKind {
    /// The no-capture limit, where the rules make it a draw (`no_capture_result =
    /// "draw"`, or adjudication off): reason `no-capture-limit`.
    NoCaptureLimit,
    /// A piece count that came out level (at the no-capture limit or with no legal ply,
    /// `material_tie = "draw"`): reason `no-capture-limit` or `stalemate`.
    LevelCount,
    /// No legal ply: for either side under `no_moves = "pass"`, or for the side to move
    /// under `no_moves = "material"` with adjudication off: reason `stalemate`.
    NoMoves,
    /// A repeated position under `repetition = "draw"`: reason `repetition`.
    Repetition,
    /// The experiment's hard ply cap: reason `ply-cap`.
    PlyCap,
}

impl DrawKind {
    /// Every kind, in the order of the columns of `verdicts.csv`.
    pub const ALL: [DrawKind; 5] =
        [DrawKind::NoCaptureLimit, DrawKind::LevelCount, DrawKind::NoMoves, DrawKind::Repetition, DrawKind::PlyCap];

    /// The kind's name in outputs, e.g. `no_capture_limit` (the column `draws_no_capture_limit`).
    pub fn name(self) -> &'static str {
        match self {
            DrawKind::NoCaptureLimit => "no_capture_limit",
            DrawKind::LevelCount => "level_count",
            DrawKind::NoMoves => "no_moves",
            DrawKind::Repetition => "repetition",
            DrawKind::PlyCap => "ply_cap",
        }
    }

    /// The kind's place in [`DrawKind::ALL`].
    fn index(self) -> usize {
        match self {
            DrawKind::NoCaptureLimit => 0,
            DrawKind::LevelCount => 1,
            DrawKind::NoMoves => 2,
            DrawKind::Repetition => 3,
            DrawKind::PlyCap => 4,
        }
    }
}

/// How a game ended, in the three classes of the [module documentation](self).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// Won on the board: the reason says how.
    WonByPlay(Reason),
    /// Won by a piece count (`material`).
    Adjudicated,
    /// Drawn, and how.
    Drawn(DrawKind),
}

/// The class of a game of `ruleset` that ended with `winner` (`None`: a draw) for
/// `reason`; an error where the ruleset's end parameters cannot end a game so (see the
/// [module documentation](self)).
pub fn classify(winner: Option<Color>, reason: Reason, ruleset: &Ruleset) -> Result<Ending, VerdictError> {
    let end = &ruleset.end;
    let impossible = |why: &str| VerdictError::Impossible {
        result: if winner.is_some() { "a win" } else { "a draw" },
        reason,
        ruleset: ruleset.id.clone(),
        why: why.to_string(),
    };
    let won = winner.is_some();
    // Whether a level count at the limit or with no legal ply is a draw.
    let level_count_draws = end.material_tie == MaterialTie::Draw;
    let counts_off = end.adjudication == Adjudication::Draw;
    match reason {
        Reason::Immobilized => {
            if !won {
                return Err(impossible("immobilising a Dux always decides the game"));
            }
            if end.dux_immobilized == Immobilization::Off {
                return Err(impossible("end.dux_immobilized is off"));
            }
            Ok(Ending::WonByPlay(reason))
        }
        Reason::Bare | Reason::Annihilated => {
            if !won {
                return Err(impossible("running out of soldiers always decides the game"));
            }
            if end.lose_at_soldiers < 0 {
                return Err(impossible("end.lose_at_soldiers is -1 (off)"));
            }
            match (reason, ruleset.has_dux()) {
                (Reason::Bare, false) => Err(impossible("the setup has no Dux, so running out is 'annihilated'")),
                (Reason::Annihilated, true) => Err(impossible("the setup has a Dux, so running out is 'bare'")),
                _ => Ok(Ending::WonByPlay(reason)),
            }
        }
        Reason::DuxCaptured => {
            if !won {
                return Err(impossible("capturing a Dux that ends the game decides it"));
            }
            if !end.win_by_dux_capture {
                return Err(impossible("end.win_by_dux_capture is false"));
            }
            Ok(Ending::WonByPlay(reason))
        }
        Reason::Stalemate => match (won, end.no_moves) {
            (true, NoMoves::Loses) => Ok(Ending::WonByPlay(reason)),
            (true, _) => Err(impossible("only end.no_moves = \"loses\" makes a stuck side lose by 'stalemate'")),
            (false, NoMoves::Pass) => Ok(Ending::Drawn(DrawKind::NoMoves)),
            (false, NoMoves::Material) if counts_off => Ok(Ending::Drawn(DrawKind::NoMoves)),
            (false, NoMoves::Material) if level_count_draws => Ok(Ending::Drawn(DrawKind::LevelCount)),
            (false, NoMoves::Material) => Err(impossible("end.material_tie gives a level count to a side")),
            (false, NoMoves::Loses) => Err(impossible("end.no_moves = \"loses\": a stuck side loses")),
        },
        Reason::Repetition => match (won, end.repetition) {
            (true, Repetition::MoverLoses) => Ok(Ending::WonByPlay(reason)),
            (false, Repetition::Draw) => Ok(Ending::Drawn(DrawKind::Repetition)),
            (true, _) => Err(impossible("only end.repetition = \"mover-loses\" makes a repetition lose")),
            (false, _) => Err(impossible("only end.repetition = \"draw\" makes a repetition a draw")),
        },
        Reason::NoCaptureLimit => {
            if won {
                return Err(impossible("the no-capture limit is a draw or, by count, a win by 'material'"));
            }
            if end.no_capture_limit == 0 {
                return Err(impossible("end.no_capture_limit is 0 (no limit)"));
            }
            match end.no_capture_result {
                LimitResult::Draw => Ok(Ending::Drawn(DrawKind::NoCaptureLimit)),
                LimitResult::Material if counts_off => Ok(Ending::Drawn(DrawKind::NoCaptureLimit)),
                LimitResult::Material if level_count_draws => Ok(Ending::Drawn(DrawKind::LevelCount)),
                LimitResult::Material => Err(impossible("end.material_tie gives a level count to a side")),
            }
        }
        Reason::Material => {
            if !won {
                return Err(impossible("a level count is a draw by the reason of the rule that counted"));
            }
            if !end.adjudicates() {
                return Err(impossible(
                    "no end rule counts pieces (end.no_capture_result and end.no_moves are not \"material\", \
                     or end.adjudication is \"draw\")",
                ));
            }
            Ok(Ending::Adjudicated)
        }
        Reason::PlyCap => {
            if won {
                return Err(impossible("the ply cap is always a draw"));
            }
            Ok(Ending::Drawn(DrawKind::PlyCap))
        }
    }
}

/// A proportion with its Wilson 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// The proportion.
    pub rate: f64,
    /// The interval's lower bound.
    pub lo: f64,
    /// The interval's upper bound.
    pub hi: f64,
}

impl Rate {
    /// `count` of `games` (at least one game) with its Wilson 95% interval.
    fn of(count: u64, games: u64) -> Rate {
        let (lo, hi) = wilson(count as f64, games, Z95);
        Rate { rate: count as f64 / games as f64, lo, hi }
    }

    /// Whether the two intervals share no point.
    pub fn disjoint(&self, other: &Rate) -> bool {
        self.hi < other.lo || other.hi < self.lo
    }
}

/// The games of one cell (one ruleset, one pair of players), counted by how they ended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CellCounts {
    /// Games won by play.
    pub won_by_play: u64,
    /// Games won by a piece count.
    pub adjudicated: u64,
    /// Draws, per [`DrawKind`] in the order of [`DrawKind::ALL`].
    pub draws_by_kind: [u64; 5],
}

impl CellCounts {
    /// Counts one more game.
    pub fn add(&mut self, ending: Ending) {
        match ending {
            Ending::WonByPlay(_) => self.won_by_play += 1,
            Ending::Adjudicated => self.adjudicated += 1,
            Ending::Drawn(kind) => self.draws_by_kind[kind.index()] += 1,
        }
    }

    /// The counts of these endings.
    pub fn of(endings: impl IntoIterator<Item = Ending>) -> CellCounts {
        let mut counts = CellCounts::default();
        for e in endings {
            counts.add(e);
        }
        counts
    }

    /// Games in the cell.
    pub fn games(&self) -> u64 {
        self.won_by_play + self.adjudicated + self.draws()
    }

    /// Drawn games, of every kind.
    pub fn draws(&self) -> u64 {
        self.draws_by_kind.iter().sum()
    }

    /// Draws of one kind.
    pub fn draws_of(&self, kind: DrawKind) -> u64 {
        self.draws_by_kind[kind.index()]
    }

    fn rate(&self, count: u64) -> Option<Rate> {
        (self.games() > 0).then(|| Rate::of(count, self.games()))
    }

    /// The draw rate with its interval; `None` without games.
    pub fn draw_rate(&self) -> Option<Rate> {
        self.rate(self.draws())
    }

    /// The rate of games won by play with its interval; `None` without games.
    pub fn won_by_play_rate(&self) -> Option<Rate> {
        self.rate(self.won_by_play)
    }

    /// The rate of games won by a piece count with its interval; `None` without games.
    pub fn adjudicated_rate(&self) -> Option<Rate> {
        self.rate(self.adjudicated)
    }
}

/// A ruleset's verdict at strong play (the rule is in the [module documentation](self)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The draw rate's interval lies above 0.5.
    Drawish,
    /// The draw rate's interval lies below 0.5.
    Decisive,
    /// The draw rate's interval holds 0.5.
    Balanced,
    /// The draw rates at the two budgets differ beyond their intervals.
    Unsettled,
}

impl Verdict {
    /// The verdict's name in outputs: `drawish`, `decisive`, `balanced`, `unsettled`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Drawish => "drawish",
            Verdict::Decisive => "decisive",
            Verdict::Balanced => "balanced",
            Verdict::Unsettled => "unsettled",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Step 2 of the rule alone: drawish, decisive or balanced by where the cell's draw
/// rate's interval lies against 0.5. A cell without games is an error.
pub fn level_verdict(cell: &CellCounts) -> Result<Verdict, VerdictError> {
    let draw = cell.draw_rate().ok_or_else(|| VerdictError::NoGames { cell: "the cell".into() })?;
    Ok(if draw.lo > 0.5 {
        Verdict::Drawish
    } else if draw.hi < 0.5 {
        Verdict::Decisive
    } else {
        Verdict::Balanced
    })
}

/// The verdict from the cells of one player at a weaker and a stronger budget: unsettled
/// when their draw rates' intervals do not overlap, otherwise [`level_verdict`] of the
/// stronger. A cell without games is an error.
pub fn verdict(weaker: &CellCounts, stronger: &CellCounts) -> Result<Verdict, VerdictError> {
    let no_games = |cell: &str| VerdictError::NoGames { cell: cell.into() };
    let weak = weaker.draw_rate().ok_or_else(|| no_games("the weaker budget's cell"))?;
    let strong = stronger.draw_rate().ok_or_else(|| no_games("the stronger budget's cell"))?;
    if weak.disjoint(&strong) {
        return Ok(Verdict::Unsettled);
    }
    level_verdict(stronger)
}

#[cfg(test)]
mod tests;

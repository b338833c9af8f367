//! Replaying a game record move by move under the rules, with a verdict on its result.
//!
//! [`replay`] plays a record move by move and returns a [`ReplayReport`]. With
//! [`ReplayOptions::continue_on_illegal`], a move that breaks a rule is still played as
//! written when the piece can physically get there: the position is copied into a
//! [`Setup`](crate::setup::Setup), the move is played under a copy of the ruleset with every legality filter
//! switched off (`combat.dux_limits`, `combat.locked_soldiers`,
//! `end.self_immobilization`, rule 7, repetition-illegal) — so the captures are those
//! the move really makes — and the replay continues from the result converted back under
//! the real ruleset with [`Position::from_setup`]. Consequences: the repetition history
//! restarts after such a move, and whether that move ended the game (immobilisation,
//! bare, …) is taken from the relaxed copy, whose end checks are otherwise the same.

use crate::notation::{MoveError, MoveText, NotationWarning, compare_written, parse_move, parse_token, relaxed};
use crate::position::Position;
use crate::record::{GameRecord, RecordError, RecordedResult};
use crate::ruleset::Ruleset;
use crate::types::{Color, Move, Outcome, Reason};

/// How to replay a record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    /// Play a move that breaks a rule as written when the piece can physically make it,
    /// and go on (see the module docs); otherwise stop at it.
    pub continue_on_illegal: bool,
}

/// What happened to one move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveStatus {
    /// A legal move, played.
    Legal,
    /// A move that breaks a rule, played as written (continue-on-illegal).
    PlayedIllegal(MoveError),
    /// A move that could not be played; the replay stopped here.
    Rejected(MoveError),
}

/// One move of a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayedMove {
    /// Move number (first player's and second player's plies share one).
    pub number: u32,
    /// The side that made (or should have made) the move.
    pub side: Color,
    /// 1-based line of the record.
    pub line: usize,
    /// The token as written (without the move number).
    pub written: String,
    /// Legal, played although illegal, or rejected.
    pub status: MoveStatus,
    /// The engine's notation of the move played (`None` if it was not played).
    pub text: Option<MoveText>,
    /// Disagreements between the record and the engine.
    pub warnings: Vec<NotationWarning>,
    /// The position before the move, as FEN.
    pub fen_before: String,
    /// The game's outcome after the move, if it ended the game.
    pub outcome: Option<Outcome>,
}

impl ReplayedMove {
    /// `9.` or `9...`, the number as a record would write it.
    pub fn number_text(&self) -> String {
        if self.side == Color::White { format!("{}.", self.number) } else { format!("{}...", self.number) }
    }

    /// The error of an illegal or rejected move.
    pub fn error(&self) -> Option<&MoveError> {
        match &self.status {
            MoveStatus::Legal => None,
            MoveStatus::PlayedIllegal(e) | MoveStatus::Rejected(e) => Some(e),
        }
    }
}

/// How the recorded result compares with the game the rules produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultVerdict {
    /// The rules ended the game and the record gives the same result.
    Confirmed(Outcome),
    /// The rules ended the game; the record gives no result.
    EndedUnrecorded(Outcome),
    /// The rules have not ended the game; the recorded win is accepted as a resignation
    /// by the loser.
    Resignation(RecordedResult),
    /// The rules have not ended the game; the recorded draw is accepted as agreed.
    Agreement,
    /// The rules ended the game differently from the record: an error.
    Contradicted {
        /// What the rules say.
        engine: Outcome,
        /// What the record says.
        recorded: RecordedResult,
    },
    /// Neither the rules nor the record end the game.
    Unfinished,
    /// The replay stopped at a move it could not play.
    NotReached,
}

/// The result of replaying a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// Ruleset id.
    pub ruleset: String,
    /// Board width.
    pub width: u8,
    /// Board height.
    pub height: u8,
    /// Every move replayed (the last one is the rejected move if the replay stopped).
    pub moves: Vec<ReplayedMove>,
    /// Whether the replay stopped at a move it could not play.
    pub stopped: bool,
    /// The game's outcome by the rules, if they ended it.
    pub outcome: Option<Outcome>,
    /// The recorded result.
    pub recorded: Option<RecordedResult>,
    /// The comparison of the two.
    pub verdict: ResultVerdict,
    /// The final position, as FEN.
    pub final_fen: String,
}

impl ReplayReport {
    /// Moves that broke a rule or could not be played.
    pub fn illegal_moves(&self) -> impl Iterator<Item = &ReplayedMove> {
        self.moves.iter().filter(|m| m.status != MoveStatus::Legal)
    }

    /// Every warning with its move.
    pub fn warnings(&self) -> impl Iterator<Item = (&ReplayedMove, &NotationWarning)> {
        self.moves.iter().flat_map(|m| m.warnings.iter().map(move |w| (m, w)))
    }

    /// No illegal move, and the result is confirmed or acceptable (not contradicted,
    /// not left unreached).
    pub fn is_ok(&self) -> bool {
        self.illegal_moves().next().is_none()
            && !matches!(self.verdict, ResultVerdict::Contradicted { .. } | ResultVerdict::NotReached)
    }

    /// The final result line's content: the score (`1-0`, `0-1`, `1/2-1/2`, or `*` when
    /// there is none) and its reason (a docs/rules.md reason, `resignation`, `agreement`, …).
    pub fn final_result(&self) -> (String, String) {
        match self.verdict {
            ResultVerdict::Confirmed(o) | ResultVerdict::EndedUnrecorded(o) => {
                (o.score_text().to_string(), o.reason.to_string())
            }
            ResultVerdict::Resignation(r) => (r.score_text().to_string(), "resignation".to_string()),
            ResultVerdict::Agreement => ("1/2-1/2".to_string(), "agreement".to_string()),
            ResultVerdict::Contradicted { engine, recorded } => {
                (engine.score_text().to_string(), format!("{}; the record's {recorded} contradicts it", engine.reason))
            }
            ResultVerdict::Unfinished => ("*".to_string(), "unfinished".to_string()),
            ResultVerdict::NotReached => ("*".to_string(), "replay stopped at an illegal move".to_string()),
        }
    }
}

/// Replays a record under the ruleset and start position its tags select.
pub fn replay(record: &GameRecord, options: ReplayOptions) -> Result<ReplayReport, RecordError> {
    let rs = record.ruleset()?;
    let start = record.start_position(&rs)?;
    Ok(replay_from(&rs, start, record, options))
}

/// Plays `mv` as written, ignoring the legality filters (see the module docs): returns
/// the position after it under the real ruleset, the engine's text of the move and the
/// game's outcome; `None` if the piece cannot physically make the move.
fn play_physical(ruleset: &Ruleset, pos: &Position, mv: Move) -> Option<(Position, MoveText, Option<Outcome>)> {
    let loose = relaxed(ruleset, None);
    let setup = pos.to_setup();
    let mut lp = Position::from_setup(&loose, &setup).ok()?;
    lp.set_ply_cap(u32::MAX);
    if !lp.is_legal(mv) {
        return None;
    }
    let fx = lp.play(mv);
    let mut after = Position::from_setup(ruleset, &lp.to_setup()).ok()?;
    after.set_ply_cap(u32::MAX);
    // The relaxed copy's end checks are the real ones except for "no legal move", which
    // must be judged under the real rules.
    let outcome = lp.outcome().filter(|o| o.reason != Reason::Stalemate).or(after.outcome());
    let text = MoveText::build(pos, &after, outcome, mv, &fx);
    Some((after, text, outcome))
}

/// Replays a record from `start` under `ruleset` (the record's own tags are not read).
pub fn replay_from(ruleset: &Ruleset, start: Position, record: &GameRecord, options: ReplayOptions) -> ReplayReport {
    let mut pos = start;
    pos.set_ply_cap(u32::MAX);
    let mut outcome = pos.outcome();
    let mut moves = Vec::new();
    let mut stopped = false;
    for rm in &record.moves {
        let number = pos.ply() / 2 + 1;
        let side = pos.side_to_move();
        let mut warnings = Vec::new();
        if let Some(n) = rm.number
            && n != number
        {
            warnings.push(NotationWarning::MoveNumber { written: n, expected: number });
        }
        if rm.number.is_some() {
            let written_side = if rm.second_player { Color::Black } else { Color::White };
            if written_side != side {
                warnings.push(NotationWarning::MoveSide { written: written_side, to_move: side });
            }
        }
        let mut entry = ReplayedMove {
            number,
            side,
            line: rm.line,
            written: rm.token.clone(),
            status: MoveStatus::Legal,
            text: None,
            warnings: Vec::new(),
            fen_before: pos.to_setup().to_fen(),
            outcome: None,
        };
        let result = match outcome {
            Some(o) => Err(MoveError::GameOver(o)),
            None => parse_move(ruleset, &pos, &rm.token),
        };
        match result {
            Ok(pm) => {
                pos.play(pm.mv);
                outcome = pos.outcome();
                warnings.extend(pm.warnings);
                entry.text = Some(pm.text);
            }
            Err(e) => {
                let forced = if options.continue_on_illegal && e.is_rule_breach() {
                    parse_token(&rm.token).ok().and_then(|w| {
                        play_physical(ruleset, &pos, w.to_move()).map(|(after, text, o)| (w, after, text, o))
                    })
                } else {
                    None
                };
                match forced {
                    Some((w, after, text, o)) => {
                        warnings.extend(compare_written(&w, &text));
                        pos = after;
                        outcome = o;
                        entry.text = Some(text);
                        entry.status = MoveStatus::PlayedIllegal(e);
                    }
                    None => {
                        entry.status = MoveStatus::Rejected(e);
                        entry.warnings = warnings;
                        moves.push(entry);
                        stopped = true;
                        break;
                    }
                }
            }
        }
        entry.warnings = warnings;
        entry.outcome = outcome;
        moves.push(entry);
    }
    let recorded = record.result;
    let verdict = if stopped {
        ResultVerdict::NotReached
    } else {
        match (outcome, recorded) {
            (Some(o), Some(r)) if o.winner == r.winner() => ResultVerdict::Confirmed(o),
            (Some(o), Some(r)) => ResultVerdict::Contradicted { engine: o, recorded: r },
            (Some(o), None) => ResultVerdict::EndedUnrecorded(o),
            (None, Some(RecordedResult::Draw)) => ResultVerdict::Agreement,
            (None, Some(r)) => ResultVerdict::Resignation(r),
            (None, None) => ResultVerdict::Unfinished,
        }
    };
    ReplayReport {
        ruleset: ruleset.id.clone(),
        width: ruleset.width,
        height: ruleset.height,
        moves,
        stopped,
        outcome,
        recorded,
        verdict,
        final_fen: pos.to_setup().to_fen(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replay_verdicts() {
        // A decisive result on an unfinished game is a resignation.
        let rec = GameRecord::parse("[Ruleset \"xxi\"]\n1.e1-e6 b8-b4 0-1").expect("parses");
        let r = replay(&rec, ReplayOptions::default()).expect("replays");
        assert_eq!(r.verdict, ResultVerdict::Resignation(RecordedResult::BlackWins));
        assert!(r.is_ok());
        // A result that contradicts a finished game is an error.
        let rec = GameRecord::parse("[Ruleset \"xxi\"]\n1.e1-e6 b8-b4 2.Df2-f7 g8-g7 3.d1-d7 0-1").expect("parses");
        let r = replay(&rec, ReplayOptions::default()).expect("replays");
        assert!(matches!(r.verdict, ResultVerdict::Contradicted { .. }));
        assert!(!r.is_ok());
        // Moves after the end are rejected.
        let rec = GameRecord::parse("[Ruleset \"xxi\"]\n1.e1-e6 b8-b4 2.Df2-f7 g8-g7 3.d1-d7 a8-a7").expect("parses");
        let r = replay(&rec, ReplayOptions { continue_on_illegal: true }).expect("replays");
        assert!(r.stopped);
        assert!(matches!(r.moves.last().and_then(|m| m.error()), Some(MoveError::GameOver(_))));
        // An impossible move stops the replay even when continuing past illegal ones.
        let rec = GameRecord::parse("[Ruleset \"xxi\"]\n1.e1-e6 b8-c7").expect("parses");
        let r = replay(&rec, ReplayOptions { continue_on_illegal: true }).expect("replays");
        assert!(r.stopped && r.verdict == ResultVerdict::NotReached);
    }
}

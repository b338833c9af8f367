//! A recorded game opened for study: every position of a game of a games CSV or of a
//! game record, replayed move by move by the rules engine, with the recorded result
//! checked against the engine's.

use latrunculi_arena::game::GameRow;
use latrunculi_rules::{GameRecord, MoveText, Position, ReplayOptions, Ruleset, parse_move, replay::replay_from};
use serde::Serialize;

use crate::error::{ServeError, full_message};
use crate::game::{BoardView, PlyView, board_view, outcome_text, ply_view};

/// A game opened for study.
#[derive(Clone, Debug, Serialize)]
pub struct StudyView {
    /// Where it comes from (`experiments/.../games.csv row 3`, a record path, `upload`).
    pub source: String,
    /// The ruleset label.
    pub ruleset: String,
    /// The ruleset's name.
    pub name: String,
    /// White's player.
    pub white: String,
    /// Black's player.
    pub black: String,
    /// The position before each ply and after the last (`positions[0]` the start).
    pub positions: Vec<BoardView>,
    /// The plies.
    pub moves: Vec<PlyView>,
    /// The result the file records, in words.
    pub recorded: String,
    /// The result by the rules after the last ply, in words.
    pub result: String,
    /// Whether the two agree.
    pub agrees: bool,
    /// The first move that could not be played, and why (the positions stop before it).
    pub stopped: Option<String>,
}

/// Resolves a label as the web app allows: built-in rulesets only (a label naming a
/// file is refused), with `@WxH` boards and `+key=value` changes.
pub fn resolve_label(label: &str) -> Result<(String, Ruleset), ServeError> {
    let bad = |message: String| ServeError::Ruleset { label: label.to_string(), message };
    let spec: latrunculi_rules::RulesetSpec = label.trim().parse().map_err(|e| bad(full_message(&e)))?;
    if matches!(spec.base, latrunculi_rules::RulesetBase::File(_)) {
        return Err(bad("ruleset files are not read here; give a built-in id (see the list)".to_string()));
    }
    let rs = spec.resolve(None).map_err(|e| bad(full_message(&e)))?;
    Ok((spec.label_for(&rs).to_string(), rs))
}

/// Plays `tokens` from `start`; stops at the first that cannot be played.
fn replay_tokens<'a>(
    rs: &Ruleset,
    start: Position,
    tokens: impl Iterator<Item = &'a str>,
) -> (Vec<Position>, Vec<PlyView>, Option<String>) {
    let mut positions = vec![start];
    let mut moves = Vec::new();
    for (i, token) in tokens.enumerate() {
        let pos = positions.last().expect("a start");
        let pm = match parse_move(rs, pos, token) {
            Ok(pm) => pm,
            Err(e) => return (positions, moves, Some(format!("ply {} '{token}' cannot be played: {e}", i + 1))),
        };
        let mut after = pos.clone();
        let fx = after.play(pm.mv);
        let text = MoveText::build(pos, &after, after.outcome(), pm.mv, &fx);
        moves.push(ply_view(pos, &text));
        positions.push(after);
    }
    (positions, moves, None)
}

/// A game of a games CSV.
pub fn from_row(source: String, row: &GameRow) -> Result<StudyView, ServeError> {
    let (label, rs) = resolve_label(&row.ruleset)?;
    let mut start = Position::new(&rs);
    // The run's own ply cap ended its games; replay to the end whatever it was.
    start.set_ply_cap(u32::MAX);
    let (positions, moves, stopped) = replay_tokens(&rs, start, row.moves.split_whitespace());
    let end = positions.last().expect("a start").outcome();
    let recorded = format!("{} ({})", row.winner, row.reason);
    let (result, agrees) = match end {
        Some(o) => (outcome_text(o), o.winner_text() == row.winner && o.reason.name() == row.reason),
        None if row.reason == "ply-cap" => (
            "the run's ply cap ended the game: a draw (ply-cap)".to_string(),
            row.winner == "draw" && stopped.is_none(),
        ),
        None => ("the rules have not ended the game".to_string(), false),
    };
    Ok(StudyView {
        source,
        ruleset: label,
        name: rs.name.clone(),
        white: row.white.clone(),
        black: row.black.clone(),
        positions: positions.iter().map(board_view).collect(),
        moves,
        recorded,
        result,
        agrees: agrees && stopped.is_none(),
        stopped,
    })
}

/// A game record (tags and movetext). A `Label` tag (as `latrunculi serve` writes)
/// selects the ruleset with its changes; otherwise the `Ruleset` and `Board` tags.
pub fn from_record(source: String, text: &str) -> Result<StudyView, ServeError> {
    let bad = |message: String| ServeError::BadFile { source_name: source.clone(), message };
    let record = GameRecord::parse(text).map_err(|e| bad(full_message(&e)))?;
    let (label, rs) = match record.tag("Label") {
        Some(l) => resolve_label(l)?,
        None => {
            let rs = record.ruleset().map_err(|e| bad(full_message(&e)))?;
            let board = if rs.width != Ruleset::builtin(&rs.id).map(|b| b.width).unwrap_or(rs.width)
                || rs.height != Ruleset::builtin(&rs.id).map(|b| b.height).unwrap_or(rs.height)
            {
                format!("@{}x{}", rs.width, rs.height)
            } else {
                String::new()
            };
            (format!("{}{board}", rs.id), rs)
        }
    };
    let start = record.start_position(&rs).map_err(|e| bad(full_message(&e)))?;
    let report = replay_from(&rs, start.clone(), &record, ReplayOptions::default());
    let (positions, moves, stopped) = replay_tokens(&rs, start, record.moves.iter().map(|m| m.token.as_str()));
    let (score, reason) = report.final_result();
    let recorded = record.result.map_or("no result".to_string(), |r| r.score_text().to_string());
    Ok(StudyView {
        source,
        ruleset: label,
        name: rs.name.clone(),
        white: record.tag("White").unwrap_or("?").to_string(),
        black: record.tag("Black").unwrap_or("?").to_string(),
        positions: positions.iter().map(board_view).collect(),
        moves,
        recorded,
        result: format!("{score} ({reason})"),
        agrees: report.is_ok() && stopped.is_none(),
        stopped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_committed_record_replays_to_its_result() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/xxi/joyce-carrillo-2016-08.txt");
        let text = std::fs::read_to_string(path).expect("committed");
        let s = from_record("joyce".into(), &text).expect("a study");
        assert!(s.agrees && s.stopped.is_none(), "{s:?}");
        assert_eq!(s.positions.len(), s.moves.len() + 1);
        assert_eq!(s.positions.last().and_then(|p| p.outcome.as_ref()).map(|o| o.score.as_str()), Some("0-1"));
        assert_eq!(s.ruleset, "xxi");
    }

    #[test]
    fn a_record_with_a_broken_rule_stops_there() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/games/xxi/carrillo-cetina-2016-07.txt");
        let text = std::fs::read_to_string(path).expect("committed");
        let s = from_record("carrillo".into(), &text).expect("a study");
        assert!(!s.agrees && s.stopped.as_deref().is_some_and(|m| m.contains("cannot be played")), "{s:?}");
    }

    #[test]
    fn labels_are_built_in_only() {
        assert_eq!(resolve_label("xxi@12x8").expect("ok").0, "xxi@12x8");
        assert!(resolve_label("kowalski+end.no_capture_limit=120").is_ok());
        for bad in ["/etc/passwd", "x.toml", "nosuch", "xxi@99x99", "xxi+end.nokey=1", ""] {
            assert!(matches!(resolve_label(bad), Err(ServeError::Ruleset { .. })), "{bad}");
        }
    }
}

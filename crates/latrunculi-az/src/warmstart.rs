//! Warm start (expert iteration): training samples from a dataset written by
//! `latrunculi dataset`, so that a network can first learn from the toolkit's own
//! search players before it plays itself.
//!
//! A dataset is read from `games.jsonl` (ruleset, result and row range of each game) and
//! `actions.npy` (the action played at each row, in the **absolute** frame). Each game is
//! replayed from the start: every row's move is checked to be legal, and the sample is
//! built with this run's own observation encoder and action frame, so the targets land
//! on the side-relative actions the network uses (ranks flipped for Black) whatever the
//! dataset's ply cap was (the ply plane reads as in self-play under `selfplay.ply_cap`;
//! only a dataset game longer than that cap is replayed under a cap of its own length).
//! The targets: the move played (one-hot), the final result for
//! the side to move (drawn games shaped by `selfplay.draw_material` as in self-play), and
//! the final material difference (the score target). Datasets written with `--light`
//! suffice.

use std::path::Path;

use latrunculi_files::GameLine;
use latrunculi_rules::{Color, Position, Ruleset};
use ndarray::Array1;
use ndarray_npy::ReadNpyExt;

use crate::AzError;
use crate::config::TrainConfig;
use crate::search::BoardTables;
use crate::selfplay::{Sample, score_target, start_material, target_value};

fn err(path: &Path, message: impl Into<String>) -> AzError {
    AzError::file(path, message.into())
}

/// Reads the games of the dataset in `dir` as training samples: per game, its winner
/// (`None`: a draw) and one sample per ply.
/// Errors name the file and the game, row or move at fault: a dataset of another ruleset
/// or board, a truncated array, or a move that is not legal when replayed.
pub fn load_dataset(
    dir: &Path,
    ruleset: &Ruleset,
    tables: &BoardTables,
    cfg: &TrainConfig,
) -> Result<Vec<(Option<Color>, Vec<Sample>)>, AzError> {
    let games_path = dir.join("games.jsonl");
    let text = std::fs::read_to_string(&games_path).map_err(|e| {
        AzError::io(
            &games_path,
            "cannot read (a dataset folder holds games.jsonl once `latrunculi dataset` has finished)",
            e,
        )
    })?;
    let actions_path = dir.join("actions.npy");
    let file = std::fs::File::open(&actions_path).map_err(|e| AzError::io(&actions_path, "cannot open", e))?;
    let actions: Array1<i32> =
        Array1::read_npy(file).map_err(|e| err(&actions_path, format!("not an int32 [S] array: {e}")))?;
    let want_hash = format!("{:016x}", ruleset.params_hash());
    let space = tables.frame.space();
    let start = start_material(ruleset);
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let at = |m: String| err(&games_path, format!("line {}: {m}", n + 1));
        let g: GameLine = serde_json::from_str(line).map_err(|e| at(format!("not a game line: {e}")))?;
        if g.params_hash != want_hash || g.board != [ruleset.width, ruleset.height] {
            return Err(at(format!(
                "game {} is of another ruleset or board ({}x{}, parameters {}); this run trains {} on {}x{} ({want_hash})",
                g.game, g.board[0], g.board[1], g.params_hash, ruleset.id, ruleset.width, ruleset.height
            )));
        }
        let winner = match g.winner.as_str() {
            "white" => Some(Color::White),
            "black" => Some(Color::Black),
            "draw" => None,
            other => return Err(at(format!("game {}: unknown winner '{other}'", g.game))),
        };
        let end_row =
            g.first_sample.checked_add(g.samples).filter(|&e| e <= actions.len() as u64).ok_or_else(|| {
                at(format!(
                    "game {}: rows {}..{}+{} lie beyond the {} rows of actions.npy",
                    g.game,
                    g.first_sample,
                    g.first_sample,
                    g.samples,
                    actions.len()
                ))
            })?;
        if g.samples != g.plies as u64 {
            return Err(at(format!("game {}: {} rows for {} plies", g.game, g.samples, g.plies)));
        }
        let mut pos = Position::new(ruleset);
        // The training games' cap, so that the ply plane reads as in self-play (a longer
        // dataset game raises it to its length, so that it can be replayed to the end).
        pos.set_ply_cap(cfg.selfplay.ply_cap.max(g.plies.saturating_add(1)));
        let mut samples: Vec<(Sample, Color)> = Vec::with_capacity(g.samples as usize);
        let mut legal_moves = Vec::new();
        for row in g.first_sample..end_row {
            let a = actions[row as usize];
            let mv = usize::try_from(a).ok().and_then(|a| space.decode(a).ok());
            legal_moves.clear();
            pos.legal_moves(&mut legal_moves);
            let Some(mv) = mv.filter(|m| legal_moves.contains(m)) else {
                return Err(at(format!(
                    "game {}, move {} (row {row}): action {a} is not a legal move when the game is replayed",
                    g.game,
                    row - g.first_sample + 1
                )));
            };
            let me = pos.side_to_move();
            let played = tables.relative(mv, me);
            let sample = Sample {
                obs: tables.observation(&pos)?,
                policy: vec![(played, 1.0)],
                value: 0.0,
                ply: pos.ply(),
                legal: legal_moves.iter().map(|&m| tables.relative(m, me)).collect(),
                score: 0.0,
                root_q: 0.0,
                policy_valid: true,
            };
            samples.push((sample, me));
            pos.play(mv);
        }
        let game = samples
            .into_iter()
            .map(|(mut s, c)| {
                s.value = target_value(&pos, winner, c, cfg.selfplay.draw_material, start);
                s.root_q = s.value;
                s.score = score_target(&pos, c, start);
                s
            })
            .collect();
        out.push((winner, game));
    }
    if out.is_empty() {
        return Err(err(&games_path, "the dataset holds no game"));
    }
    Ok(out)
}

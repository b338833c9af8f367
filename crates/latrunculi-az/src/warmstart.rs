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
//! The targets: the dataset's policy row (a teacher's soft policy, a search's visit
//! shares; `policy_offsets.npy`, `policy_actions.npy`, `policy_probs.npy`, format 2) when
//! `warmstart.soft_policy` is on and the dataset has them, else the move played
//! (one-hot); the final result for the side to move (drawn games shaped by
//! `selfplay.draw_material` as in self-play), mixed with the mover's own value
//! (`search_values.npy`) by `warmstart.search_value_mix`; and the final material
//! difference (the score target). Datasets written with `--light` suffice, and datasets
//! of format 1 (without the sparse rows and values) still load.

use std::path::{Path, PathBuf};

use latrunculi_files::FileError;
use latrunculi_files::dataset::{self, GameLine};
use latrunculi_rules::{Color, Move, Position, Ruleset};
use latrunculi_sim::ActionSpace;
use ndarray::Array1 as Column;
use ndarray_npy::ReadNpyExt;

use crate::AzError;
use crate::config::TrainConfig;
use crate::search::BoardTables;
use crate::selfplay::{Sample, score_target, start_material, target_value};

fn err(path: &Path, message: impl Into<String>) -> AzError {
    AzError::file(path, message.into())
}

/// The `params_hash` of the first game of the dataset in `dir` (which ruleset its games
/// were played under).
pub fn dataset_params_hash(dir: &Path) -> Result<String, AzError> {
    let (games_path, games) = read_games(dir)?;
    let (_, g) = games.into_iter().next().ok_or_else(|| err(&games_path, "the dataset holds no game"))?;
    Ok(g.params_hash)
}

/// The path of a dataset's `games.jsonl` and its games, each with its line.
fn read_games(dir: &Path) -> Result<(PathBuf, Vec<(usize, GameLine)>), AzError> {
    let games_path = dir.join(dataset::GAMES_FILE);
    let games = dataset::read_game_lines(&games_path).map_err(|e| match e {
        FileError::Io { path, source } => AzError::io(
            &path,
            "cannot read (a dataset folder holds games.jsonl once `latrunculi dataset` has finished)",
            source,
        ),
        FileError::Line { path, line, message } => err(&path, format!("line {line}: {message}")),
    })?;
    Ok((games_path, games))
}

/// A one-dimensional `.npy` array of a dataset; `what` describes it for errors.
fn column<T: ndarray_npy::ReadableElement>(path: &Path, what: &str) -> Result<Column<T>, AzError> {
    let file = std::fs::File::open(path).map_err(|e| AzError::io(path, "cannot open", e))?;
    Column::read_npy(file).map_err(|e| err(path, format!("not {what}: {e}")))
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
    let (games_path, games) = read_games(dir)?;
    let actions: Column<i32> = column(&dir.join(dataset::ACTIONS_FILE), "an int32 [S] array")?;
    let rows = actions.len();
    let teacher = TeacherRows::read(dir, rows, cfg)?;
    let want_hash = format!("{:016x}", ruleset.params_hash());
    let space = tables.frame.space();
    let start = start_material(ruleset);
    let mut out = Vec::new();
    for (line, g) in games {
        let at = |m: String| err(&games_path, format!("line {line}: {m}"));
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
        let mut samples: Vec<(Sample, Color, Option<f32>)> = Vec::with_capacity(g.samples as usize);
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
            let policy = match &teacher.policy {
                Some(p) => sharpen(
                    p.row(row as usize, &legal_moves, |m| tables.relative(m, me), &space).map_err(|m| {
                        at(format!("game {}, move {} (row {row}): {m}", g.game, row - g.first_sample + 1))
                    })?,
                    cfg.warmstart.soft_sharpen,
                ),
                None => vec![(played, 1.0)],
            };
            let sample = Sample {
                obs: tables.observation(&pos)?,
                policy,
                value: 0.0,
                ply: pos.ply(),
                legal: legal_moves.iter().map(|&m| tables.relative(m, me)).collect(),
                score: 0.0,
                root_q: 0.0,
                policy_valid: true,
            };
            let own = teacher.values.as_ref().map(|v| v[row as usize]).filter(|v| v.is_finite());
            samples.push((sample, me, own));
            pos.play(mv);
        }
        let mix = cfg.warmstart.search_value_mix;
        let game = samples
            .into_iter()
            .map(|(mut s, c, own)| {
                let result = target_value(&pos, winner, c, cfg.selfplay.draw_material, start);
                s.value = match own {
                    Some(v) => (1.0 - mix) * result + mix * v.clamp(-1.0, 1.0),
                    None => result,
                };
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

/// A policy row with every probability raised to `power` and renormalised (the row as
/// it is for a power of 1): a softmax at temperature `T` becomes the softmax of the same
/// scores at `T / power`.
fn sharpen(row: Vec<(u32, f32)>, power: f32) -> Vec<(u32, f32)> {
    if power == 1.0 {
        return row;
    }
    // In logs, shifted by the largest, so that no power underflows the whole row.
    let top = row.iter().map(|&(_, p)| p).fold(0.0f32, f32::max);
    if top <= 0.0 {
        return row;
    }
    let mut out: Vec<(u32, f32)> =
        row.into_iter().map(|(a, p)| (a, if p > 0.0 { ((p / top).ln() * power).exp() } else { 0.0 })).collect();
    let sum: f32 = out.iter().map(|&(_, p)| p).sum();
    for (_, p) in &mut out {
        *p /= sum;
    }
    out
}

/// The sparse policy rows of a format-2 dataset: row `r`'s entries are
/// `offsets[r]..offsets[r + 1]` of `actions` (absolute) and `probs`.
struct PolicyRows {
    path: PathBuf,
    offsets: Column<i64>,
    actions: Column<i32>,
    probs: Column<f32>,
}

impl PolicyRows {
    /// Row `r` in the network's frame (`relative`), checked: its actions legal, its
    /// probabilities finite, non-negative and summing to 1.
    fn row(
        &self,
        r: usize,
        legal: &[Move],
        relative: impl Fn(Move) -> u32,
        space: &ActionSpace,
    ) -> Result<Vec<(u32, f32)>, String> {
        let (from, to) = (self.offsets[r], self.offsets[r + 1]);
        if from < 0 || to < from || to as usize > self.actions.len() {
            return Err(format!("{}: offsets {from}..{to} out of range", self.path.display()));
        }
        let mut out = Vec::with_capacity((to - from) as usize);
        let mut sum = 0.0f32;
        for k in from as usize..to as usize {
            let (a, p) = (self.actions[k], self.probs[k]);
            let mv = usize::try_from(a).ok().and_then(|a| space.decode(a).ok()).filter(|m| legal.contains(m));
            let Some(mv) = mv else {
                return Err(format!("policy action {a} is not a legal move of the position"));
            };
            if !(p.is_finite() && p >= 0.0) {
                return Err(format!("policy probability {p} of action {a} is not a probability"));
            }
            sum += p;
            out.push((relative(mv), p));
        }
        if (sum - 1.0).abs() > 1e-3 {
            return Err(format!("the policy row sums to {sum}, not 1"));
        }
        Ok(out)
    }
}

/// What a format-2 dataset adds for a teacher's games: the policy rows (when
/// `warmstart.soft_policy` is on) and the movers' own values (when
/// `warmstart.search_value_mix` is above 0). Each is `None` where the dataset predates
/// them or the configuration does not use them.
struct TeacherRows {
    policy: Option<PolicyRows>,
    values: Option<Column<f32>>,
}

impl TeacherRows {
    fn read(dir: &Path, rows: usize, cfg: &TrainConfig) -> Result<TeacherRows, AzError> {
        let offsets_path = dir.join(dataset::POLICY_OFFSETS_FILE);
        let policy = if cfg.warmstart.soft_policy && offsets_path.exists() {
            let offsets: Column<i64> = column(&offsets_path, "an int64 [S + 1] array")?;
            if offsets.len() != rows + 1 {
                return Err(err(
                    &offsets_path,
                    format!("{} offsets for the {rows} rows of actions.npy (expected {})", offsets.len(), rows + 1),
                ));
            }
            let actions_path = dir.join(dataset::POLICY_ACTIONS_FILE);
            let probs_path = dir.join(dataset::POLICY_PROBS_FILE);
            let actions: Column<i32> = column(&actions_path, "an int32 [K] array")?;
            let probs: Column<f32> = column(&probs_path, "a float32 [K] array")?;
            if actions.len() != probs.len() {
                return Err(err(
                    &probs_path,
                    format!("{} probabilities for the {} actions of policy_actions.npy", probs.len(), actions.len()),
                ));
            }
            Some(PolicyRows { path: offsets_path, offsets, actions, probs })
        } else {
            None
        };
        let values_path = dir.join(dataset::SEARCH_VALUES_FILE);
        let values = if cfg.warmstart.search_value_mix > 0.0 && values_path.exists() {
            let v: Column<f32> = column(&values_path, "a float32 [S] array")?;
            if v.len() != rows {
                return Err(err(&values_path, format!("{} values for the {rows} rows of actions.npy", v.len())));
            }
            Some(v)
        } else {
            None
        };
        Ok(TeacherRows { policy, values })
    }
}

#[cfg(test)]
mod tests {
    use super::sharpen;

    /// The softmax of `scores` at temperature `t`, as the search player writes its rows.
    fn softmax(scores: &[f32], t: f32) -> Vec<(u32, f32)> {
        let top = scores.iter().cloned().fold(f32::MIN, f32::max);
        let e: Vec<f32> = scores.iter().map(|s| ((s - top) / t).exp()).collect();
        let sum: f32 = e.iter().sum();
        e.iter().enumerate().map(|(a, x)| (a as u32, x / sum)).collect()
    }

    #[test]
    fn sharpening_a_softmax_row_divides_its_temperature() {
        let scores = [0.0, -40.0, -250.0, -900.0, 10.0];
        let sharpened = sharpen(softmax(&scores, 250.0), 5.0);
        let expected = softmax(&scores, 50.0);
        let sum: f32 = sharpened.iter().map(|&(_, p)| p).sum();
        assert!((sum - 1.0).abs() < 1e-5, "{sum}");
        for ((a, p), (b, q)) in sharpened.iter().zip(&expected) {
            assert_eq!(a, b);
            assert!((p - q).abs() < 1e-5, "action {a}: {p} against {q}");
        }
        // The best-scored move gains the most; a power of 1 leaves the row as it is.
        assert!(sharpened[4].1 > softmax(&scores, 250.0)[4].1);
        assert_eq!(sharpen(softmax(&scores, 250.0), 1.0), softmax(&scores, 250.0));
        // Zero stays zero, and a one-hot row stays one-hot.
        assert_eq!(sharpen(vec![(3, 1.0), (7, 0.0)], 4.0), vec![(3, 1.0), (7, 0.0)]);
    }
}

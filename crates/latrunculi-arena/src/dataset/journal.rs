//! The journal of a dataset run in progress ([`PARTIAL_FILE`]): a header line naming the
//! run, then one line per finished game, so that a killed run resumes with the games it
//! finished (rebuilt by replaying their actions).

use std::path::Path;

use latrunculi_rules::Position;
use latrunculi_sim::{ActionSpace, ObservationEncoder};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::samples::{GameSamples, play_game_samples, position_sample, winner_color};
use super::{DatasetPlan, PARTIAL_FILE};
use crate::error::{ArenaError, Result};
use crate::game::{GameJob, GameRow, colours, game_seed, progress_bar};
use crate::io::Journal;

/// One finished game in [`PARTIAL_FILE`].
#[derive(Serialize, Deserialize)]
struct JournalGame {
    game: u32,
    row: GameRow,
    /// Per ply: the action played, the policy target and the mover's value (journals
    /// written before values were kept have none).
    actions: Vec<u32>,
    policies: Vec<Vec<(u32, f32)>>,
    #[serde(default)]
    values: Vec<Option<f32>>,
}

impl DatasetPlan {
    /// A journal game's samples, rebuilt by replaying its actions (observations and
    /// legal actions are functions of the positions; the policies come from the journal).
    fn rebuild(&self, j: JournalGame) -> Result<GameSamples> {
        let encoder = ObservationEncoder::new(&self.ruleset);
        let space = ActionSpace::for_rules(&self.ruleset.rules());
        let mut pos = Position::new(&self.ruleset);
        pos.set_ply_cap(self.ply_cap);
        let values_ok = j.values.is_empty() || j.values.len() == j.actions.len();
        if j.actions.len() != j.row.plies as usize || j.policies.len() != j.actions.len() || !values_ok {
            return Err(ArenaError::Game(format!(
                "game {}: {} actions, {} policies and {} values for {} plies",
                j.game,
                j.actions.len(),
                j.policies.len(),
                j.values.len(),
                j.row.plies
            )));
        }
        let mut samples = Vec::with_capacity(j.actions.len());
        let values = j.values.into_iter().chain(std::iter::repeat(None));
        for ((action, policy), value) in j.actions.into_iter().zip(j.policies).zip(values) {
            let mv = space
                .decode(action as usize)
                .map_err(|e| ArenaError::Game(format!("game {}: action {action}: {e}", j.game)))?;
            let mut sample = position_sample(&encoder, &space, &pos, mv)
                .map_err(|e| e.context(format!("game {}, ply {} of the replay", j.game, pos.ply() + 1)))?;
            sample.policy = policy;
            sample.search_value = value;
            samples.push(sample);
            pos.play(mv);
        }
        let winner = winner_color(&j.row.winner)?;
        Ok(GameSamples { row: j.row, winner, samples })
    }

    /// Reads the journal in `dir` (the games an interrupted run finished), checking it
    /// belongs to this run; a line cut short by the interruption is dropped.
    pub(super) fn read_journal(&self, path: &Path) -> Result<Vec<GameSamples>> {
        let text = std::fs::read_to_string(path).map_err(ArenaError::io("read", path))?;
        let mut lines = text.split_inclusive('\n');
        let header = lines.next().unwrap_or("").trim_end();
        let want = serde_json::to_string(&self.fingerprint())?;
        if header != want {
            return Err(ArenaError::content(
                path,
                None,
                format!(
                    "belongs to another run ({header}); this one is {want}: resume with the same arguments or remove it"
                ),
            ));
        }
        let mut out: Vec<GameSamples> = Vec::new();
        let mut seen = std::collections::BTreeSet::new();
        for (k, line) in lines.enumerate() {
            if !line.ends_with('\n') {
                eprintln!("{}: dropping a truncated last line", path.display());
                break;
            }
            let j: JournalGame = serde_json::from_str(line)
                .map_err(|e| ArenaError::content(path, Some(k + 2), format!("not a journal line: {e}")))?;
            if j.game >= self.games || !seen.insert(j.game) {
                return Err(ArenaError::content(
                    path,
                    Some(k + 2),
                    format!("game {} is out of range or repeated", j.game),
                ));
            }
            let g = self.rebuild(j).map_err(|e| e.context(format!("{} line {}", path.display(), k + 2)))?;
            out.push(g);
        }
        Ok(out)
    }

    /// Plays every game not yet in `dir`'s journal (all of them unless `resume`) in
    /// parallel (rayon), with a progress bar, appending each finished game to the
    /// journal; results in game order.
    pub fn play_into(&self, dir: &Path, resume: bool) -> Result<Vec<GameSamples>> {
        std::fs::create_dir_all(dir).map_err(ArenaError::io("create", dir))?;
        let journal = dir.join(PARTIAL_FILE);
        let mut done = Vec::new();
        if journal.exists() {
            if !resume {
                return Err(ArenaError::Interrupted { dir: dir.to_path_buf(), journal });
            }
            done = self.read_journal(&journal)?;
            eprintln!("resuming: {} of {} games already in {}", done.len(), self.games, journal.display());
        }
        // The journal rewritten with only its complete lines, then appended to.
        let mut text = serde_json::to_string(&self.fingerprint())?;
        text.push('\n');
        for g in &done {
            text.push_str(&journal_line(g)?);
        }
        let file = Journal::create(&journal, text.as_bytes())?;
        let have: std::collections::BTreeSet<u32> = done.iter().map(|g| g.row.game).collect();
        let bar = progress_bar(self.games as u64, have.len() as u64);
        let todo: Vec<u32> = (0..self.games).filter(|g| !have.contains(g)).collect();
        let new = todo
            .into_par_iter()
            .map(|game| {
                let (white, black) = colours(&self.a, &self.b, game, self.swap);
                let job = GameJob {
                    ruleset: &self.ruleset,
                    label: &self.label,
                    game,
                    seed: game_seed(self.seed, game),
                    white,
                    black,
                    ply_cap: self.ply_cap,
                };
                let out = play_game_samples(&job)?;
                file.append(journal_line(&out)?.as_bytes())?;
                bar.inc(1);
                Ok(out)
            })
            .collect::<Result<Vec<_>>>();
        bar.finish_and_clear();
        let mut games = done;
        games.extend(new?);
        games.sort_by_key(|g| g.row.game);
        Ok(games)
    }
}

/// A finished game as a journal line (newline included).
fn journal_line(g: &GameSamples) -> Result<String> {
    let j = JournalGame {
        game: g.row.game,
        row: g.row.clone(),
        actions: g.samples.iter().map(|s| s.action).collect(),
        policies: g.samples.iter().map(|s| s.policy.clone()).collect(),
        values: g.samples.iter().map(|s| s.search_value).collect(),
    };
    let mut line = serde_json::to_string(&j)?;
    line.push('\n');
    Ok(line)
}

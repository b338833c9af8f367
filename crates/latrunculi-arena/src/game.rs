//! The game loop: games between two agents built afresh from their specs
//! ([`AgentSpec::build`]), each described as one CSV row (the columns are
//! documented in `experiments/README.md`); `latrunculi play`, `survey`, `eval`,
//! `ladder` and `dataset` all play their games with [`play_game`] or
//! [`play_game_observed`].
//!
//! Reproducibility: game `i` (0-based) of a run with `--seed S` has the seed
//! [`game_seed`]`(S, i)`; the White agent starts its game with
//! [`agent_seed`]`(seed, White)` and the Black agent with [`agent_seed`]`(seed, Black)`,
//! so every game depends only on the ruleset, the two specs, its seed and the ply cap,
//! never on the thread that plays it.

use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use latrunculi_agents::{Agent, AgentSpec, PlayOutError, play_out};
use latrunculi_rules::{BoardSize, Color, Move, MoveText, Position, Ruleset, RulesetError, RulesetSpec, splitmix64};
use rayon::prelude::*;

use crate::error::{ArenaError, Result};

pub use crate::io::games::{COLUMNS as GAME_COLUMNS, GameRow, header as games_header};

/// What to play in one game.
#[derive(Clone, Debug)]
pub struct GameJob<'a> {
    /// The ruleset.
    pub ruleset: &'a Ruleset,
    /// Its label in the `ruleset` column.
    pub label: &'a str,
    /// 0-based game index.
    pub game: u32,
    /// The game's seed.
    pub seed: u64,
    /// Spec of the White agent.
    pub white: &'a AgentSpec,
    /// Spec of the Black agent.
    pub black: &'a AgentSpec,
    /// Hard ply cap.
    pub ply_cap: u32,
}

/// The seed of game `index` of a run with base seed `base`.
pub fn game_seed(base: u64, index: u32) -> u64 {
    splitmix64(splitmix64(base) ^ index as u64)
}

/// The seed the agent playing `color` starts a game with seed `seed` with.
pub fn agent_seed(seed: u64, color: Color) -> u64 {
    splitmix64(seed ^ (color.index() as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93))
}

/// The (White, Black) specs of game `game` of a pairing `(a, b)`: `a` is White unless
/// `swap` is set and the game index is odd.
pub fn colours<'a, T: ?Sized>(a: &'a T, b: &'a T, game: u32, swap: bool) -> (&'a T, &'a T) {
    if swap && game % 2 == 1 { (b, a) } else { (a, b) }
}

/// Plays one game between freshly built agents and describes it as a row.
pub fn play_game(job: &GameJob<'_>) -> Result<GameRow> {
    play_game_observed(job, &mut |_, _, _| Ok(()))
}

/// What [`play_game_observed`] calls after every ply: the position before the move,
/// the agent that chose it (right after its `select`, so [`Agent::report`]
/// describes this move's search) and the move. An error stops the game.
pub type PlyObserver<'o> = dyn FnMut(&Position, &dyn Agent, Move) -> Result<()> + 'o;

/// [`play_game`], calling `observe` after each legal move is played (before the next
/// agent is asked), in ply order. The game and the row are the same as `play_game`'s.
pub fn play_game_observed(job: &GameJob<'_>, observe: &mut PlyObserver<'_>) -> Result<GameRow> {
    let build = |spec: &AgentSpec| {
        spec.build(Some(job.ruleset)).map_err(|source| ArenaError::Agent { spec: spec.to_string(), source })
    };
    let (mut white, mut black) = (build(job.white)?, build(job.black)?);
    white.new_game(agent_seed(job.seed, Color::White));
    black.new_game(agent_seed(job.seed, Color::Black));
    let mut pos = Position::new(job.ruleset);
    pos.set_ply_cap(job.ply_cap);
    let mut moves = String::new();
    let mut captures = [0u32; 2];
    let mut first_capture_ply = None;
    let mut plies = 0u32;
    play_out(&mut pos, &mut *white, &mut *black, |before, after, agent, mv, fx| -> Result<()> {
        observe(before, agent, mv)
            .map_err(|e| e.context(format!("ply {} of game {} ({})", plies + 1, job.game, job.label)))?;
        plies += 1;
        let removed = fx.captured().len() as u32;
        captures[before.side_to_move().index()] += removed;
        if removed > 0 && first_capture_ply.is_none() {
            first_capture_ply = Some(plies);
        }
        if !moves.is_empty() {
            moves.push(' ');
        }
        moves.push_str(&MoveText::build(before, after, after.outcome(), mv, fx).to_string());
        Ok(())
    })
    .map_err(|e| match e {
        PlayOutError::IllegalMove { agent, mv, ply } => ArenaError::Game(format!(
            "agent '{agent}' chose an illegal move {mv:?} at ply {ply} of game {} ({})",
            job.game, job.label
        )),
        PlayOutError::Observer(e) => e,
    })?;
    let outcome =
        pos.outcome().ok_or_else(|| ArenaError::Game(format!("game {} ended without an outcome", job.game)))?;
    Ok(GameRow {
        ruleset: job.label.to_string(),
        params_hash: format!("{:016x}", job.ruleset.params_hash()),
        game: job.game,
        seed: job.seed,
        white: white.spec().to_string(),
        black: black.spec().to_string(),
        winner: outcome.winner_text().to_string(),
        reason: outcome.reason.name().to_string(),
        plies,
        captures_white: captures[0],
        captures_black: captures[1],
        pieces_white: pos.pieces_on_board(Color::White),
        pieces_black: pos.pieces_on_board(Color::Black),
        first_capture_ply,
        moves,
    })
}

/// A progress bar on stderr for `total` games (hidden when stderr is not a terminal).
pub fn progress_bar(total: u64, done: u64) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed_precise} (eta {eta})") {
        bar.set_style(style);
    }
    bar.set_position(done);
    bar
}

/// Plays games `0..games` between the canonical specs `a` and `b` in parallel (rayon),
/// with a progress bar: game `i` has the seed [`game_seed`]`(seed, i)` and the colours
/// of [`colours`]`(a, b, i, swap)`. The rows are in game order.
#[allow(clippy::too_many_arguments)]
pub fn play_games(
    ruleset: &Ruleset,
    label: &str,
    a: &AgentSpec,
    b: &AgentSpec,
    games: u32,
    seed: u64,
    swap: bool,
    ply_cap: u32,
) -> Result<Vec<GameRow>> {
    let bar = progress_bar(games as u64, 0);
    let rows: Vec<GameRow> = (0..games)
        .into_par_iter()
        .map(|game| {
            let (white, black) = colours(a, b, game, swap);
            let job = GameJob { ruleset, label, game, seed: game_seed(seed, game), white, black, ply_cap };
            let row = play_game(&job);
            bar.inc(1);
            row
        })
        .collect::<Result<_>>()?;
    bar.finish_and_clear();
    Ok(rows)
}

/// Writes rows (with the header) to `path`, replacing it atomically
/// ([`crate::io::games::write`]).
pub fn write_games_csv(path: &Path, rows: &[GameRow]) -> Result<()> {
    crate::io::games::write(path, rows)
}

/// Totals of a set of games: (white wins, black wins, draws, mean plies).
pub fn tally(rows: &[GameRow]) -> (usize, usize, usize, f64) {
    let count = |w: &str| rows.iter().filter(|r| r.winner == w).count();
    let mean = if rows.is_empty() { 0.0 } else { rows.iter().map(|r| r.plies as f64).sum::<f64>() / rows.len() as f64 };
    (count("white"), count("black"), count("draw"), mean)
}

/// The ruleset options of a command: a ruleset label, another board, and the folder of
/// ruleset files consulted before the built-in ones (`--ruleset`, `--board`,
/// `--rules-dir`). Labels are parsed and written by [`RulesetSpec`] alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesetChoice {
    /// The ruleset label (`--ruleset`): an id or a ruleset file, `@WxH`, `+key=value`.
    pub ruleset: RulesetSpec,
    /// Another board (`--board`), if the label has none.
    pub board: Option<BoardSize>,
    /// Directory of ruleset files consulted before the built-in ones.
    pub rules_dir: PathBuf,
}

impl RulesetChoice {
    /// The label with the board applied (an error if the label has a board already).
    pub fn spec(&self) -> Result<RulesetSpec> {
        Ok(self.ruleset.clone().with_board(self.board).map_err(RulesetError::from)?)
    }

    /// Resolves the ruleset ([`RulesetSpec::resolve`], files in `rules_dir` first).
    pub fn load(&self) -> Result<Ruleset> {
        Ok(self.spec()?.resolve(Some(&self.rules_dir))?)
    }

    /// The label of the loaded ruleset `rs` in results ([`RulesetSpec::label_for`]).
    pub fn label(&self, rs: &Ruleset) -> Result<String> {
        Ok(self.spec()?.label_for(rs).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_game_row_is_consistent_and_reproducible() {
        let rs = Ruleset::builtin("petteia-xxi").unwrap();
        let job = GameJob {
            ruleset: &rs,
            label: "petteia-xxi",
            game: 0,
            seed: 42,
            white: &"random".parse().unwrap(),
            black: &"random".parse().unwrap(),
            ply_cap: 300,
        };
        let row = play_game(&job).unwrap();
        assert_eq!(row, play_game(&job).unwrap());
        assert_eq!(row.moves.split(' ').count() as u32, row.plies);
        assert!(row.plies <= 300);
        assert_eq!(row.params_hash.len(), 16);
        // 16 pieces each at the start: the counts add up.
        assert_eq!(row.pieces_white + row.captures_black, 16);
        assert_eq!(row.pieces_black + row.captures_white, 16);
        assert_eq!(row.first_capture_ply.is_some(), row.captures_white + row.captures_black > 0);
    }

    #[test]
    fn moves_column_replays_to_the_same_result() {
        use latrunculi_rules::record::GameRecord;
        use latrunculi_rules::replay::{ReplayOptions, replay};
        for (id, white, black) in
            [("kowalski", "random", "greedy"), ("xxi", "greedy", "random"), ("schadler", "random", "random")]
        {
            let rs = Ruleset::builtin(id).unwrap();
            for game in 0..3 {
                let (white, black) = (white.parse().unwrap(), black.parse().unwrap());
                let job = GameJob {
                    ruleset: &rs,
                    label: id,
                    game,
                    seed: game_seed(9, game),
                    white: &white,
                    black: &black,
                    ply_cap: 1000,
                };
                let row = play_game(&job).unwrap();
                let record = GameRecord::parse(&format!("[Ruleset \"{id}\"]\n\n{} *\n", row.moves)).unwrap();
                let report = replay(&record, ReplayOptions::default()).unwrap();
                assert_eq!(report.illegal_moves().count(), 0, "{id} game {game}");
                assert_eq!(report.warnings().count(), 0, "{id} game {game}");
                let outcome = report.outcome.expect("the replayed game ends");
                assert_eq!((outcome.winner_text(), outcome.reason.name()), (row.winner.as_str(), row.reason.as_str()));
            }
        }
    }

    #[test]
    fn seeds_and_colours() {
        assert_ne!(game_seed(1, 0), game_seed(1, 1));
        assert_ne!(game_seed(1, 0), game_seed(2, 0));
        assert_ne!(agent_seed(5, Color::White), agent_seed(5, Color::Black));
        assert_eq!(colours("a", "b", 0, true), ("a", "b"));
        assert_eq!(colours("a", "b", 1, true), ("b", "a"));
        assert_eq!(colours("a", "b", 1, false), ("a", "b"));
    }
}

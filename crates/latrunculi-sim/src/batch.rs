//! [`BatchSim`]: many games of one ruleset stepped together, in parallel.
//!
//! The simulator keeps, per game, the [`Position`], its cached legal moves (recomputed
//! once after every ply, into a buffer that is reused), an episode seed and a capture
//! count. [`BatchSim::observations`] and [`BatchSim::legal_mask`] fill preallocated
//! arrays (rows in parallel); [`BatchSim::step_into`] plays one action in every game
//! (games in parallel) and resets finished games to the start position.
//!
//! Allocation: the arrays, move buffers and (with [`BatchSim::step_into`]) the result
//! vectors are reused, so a step allocates nothing, except when a finished game of a
//! ruleset with a repetition rule is reset (its position's repetition history is cloned
//! from the start position).

use latrunculi_rules::{Color, Move, Outcome, Position, Ruleset};
use ndarray::{Array2, Array4, Axis};
use rayon::prelude::*;

use crate::SimError;
use crate::action::ActionSpace;
use crate::observation::ObservationEncoder;

/// What one [`BatchSim::step`] did in each game (index `i` is game `i`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StepResult {
    /// Reward of the player who just moved: +1 if the ply won the game, -1 if it lost it,
    /// 0 otherwise (draws and unfinished games).
    pub rewards: Vec<f32>,
    /// Whether the ply ended the game (the game has since been reset to the start).
    pub done: Vec<bool>,
    /// The outcome of each game this ply ended, `None` where it goes on.
    pub outcomes: Vec<Option<Outcome>>,
    /// Plies played in the game after this action, before any reset: the final length
    /// of the games that ended.
    pub plies: Vec<u32>,
    /// Pieces captured (removed) in the game so far, after this action and before any
    /// reset: the final count of the games that ended.
    pub captures: Vec<u32>,
}

impl StepResult {
    /// Resizes every vector to `n` games, reusing their memory.
    fn resize(&mut self, n: usize) {
        self.rewards.resize(n, 0.0);
        self.done.resize(n, false);
        self.outcomes.resize(n, None);
        self.plies.resize(n, 0);
        self.captures.resize(n, 0);
    }
}

/// One game of the batch.
#[derive(Clone, Debug)]
struct Game {
    pos: Position,
    /// The legal moves of `pos` (empty never: finished games are reset at once).
    moves: Vec<Move>,
    /// The episode seed (see [`BatchSim::seed`]).
    seed: u64,
    /// Pieces captured in this episode.
    captures: u32,
}

/// A batch of games of one ruleset, stepped together. See the module docs.
#[derive(Clone, Debug)]
pub struct BatchSim {
    ruleset: Ruleset,
    start: Position,
    space: ActionSpace,
    encoder: ObservationEncoder,
    games: Vec<Game>,
    obs: Array4<f32>,
    mask: Array2<bool>,
    obs_fresh: bool,
    mask_fresh: bool,
    episodes_started: u64,
    base_seed: u64,
}

impl BatchSim {
    /// `num_games` games of `ruleset`, all at the start position, with the default ply
    /// cap. Game `i` starts with episode seed `seed + i`; each reset gives the game the
    /// next unused seed (`seed + num_games`, `seed + num_games + 1`, … in the order the
    /// games end, lower game index first within a step).
    pub fn new(ruleset: &Ruleset, num_games: usize, seed: u64) -> Result<BatchSim, SimError> {
        if num_games == 0 {
            return Err(SimError::NoGames);
        }
        let start = Position::new(ruleset);
        if let Some(outcome) = start.outcome() {
            return Err(SimError::StartIsOver { id: ruleset.id.clone(), outcome });
        }
        let space = ActionSpace::for_rules(start.rules());
        let encoder = ObservationEncoder::new(ruleset);
        let mut moves = Vec::with_capacity(256);
        start.legal_moves(&mut moves);
        let games = (0..num_games)
            .map(|i| Game { pos: start.clone(), moves: moves.clone(), seed: seed.wrapping_add(i as u64), captures: 0 })
            .collect();
        let [p, h, w] = encoder.shape();
        Ok(BatchSim {
            ruleset: ruleset.clone(),
            start,
            space,
            encoder,
            games,
            obs: Array4::zeros((num_games, p, h, w)),
            mask: Array2::from_elem((num_games, space.size()), false),
            obs_fresh: false,
            mask_fresh: false,
            episodes_started: num_games as u64,
            base_seed: seed,
        })
    }

    /// Sets the hard ply cap of every game (and of the start position used for resets).
    /// Games already at or past the new cap are reset to the start without being
    /// reported, so set the cap before stepping. An error (and nothing changed) if the
    /// start position itself would be decided.
    pub fn set_ply_cap(&mut self, cap: u32) -> Result<(), SimError> {
        let mut start = self.start.clone();
        start.set_ply_cap(cap);
        if let Some(outcome) = start.outcome() {
            return Err(SimError::StartIsOver { id: self.ruleset.id.clone(), outcome });
        }
        self.start = start;
        let start = &self.start;
        let base = self.base_seed;
        for g in &mut self.games {
            g.pos.set_ply_cap(cap);
            if g.pos.is_over() {
                g.pos = start.clone();
                g.captures = 0;
                g.seed = base.wrapping_add(self.episodes_started);
                self.episodes_started += 1;
            }
            g.pos.legal_moves(&mut g.moves);
        }
        self.obs_fresh = false;
        self.mask_fresh = false;
        Ok(())
    }

    /// The ruleset every game follows.
    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }

    /// The action encoding.
    pub fn action_space(&self) -> ActionSpace {
        self.space
    }

    /// The observation encoder.
    pub fn encoder(&self) -> &ObservationEncoder {
        &self.encoder
    }

    /// Number of games.
    pub fn num_games(&self) -> usize {
        self.games.len()
    }

    /// Number of observation planes.
    pub fn num_planes(&self) -> usize {
        self.encoder.num_planes()
    }

    fn game(&self, i: usize) -> Result<&Game, SimError> {
        self.games.get(i).ok_or(SimError::GameIndex { index: i, len: self.games.len() })
    }

    /// The current position of game `i`.
    pub fn position(&self, i: usize) -> Result<&Position, SimError> {
        Ok(&self.game(i)?.pos)
    }

    /// The side to move in game `i`.
    pub fn current_player(&self, i: usize) -> Result<Color, SimError> {
        Ok(self.game(i)?.pos.side_to_move())
    }

    /// The legal moves of game `i` (never empty: finished games are reset at once).
    pub fn legal_moves(&self, i: usize) -> Result<&[Move], SimError> {
        Ok(&self.game(i)?.moves)
    }

    /// The episode seed of game `i`: a number unique to the current episode of that game
    /// within this simulator, for callers that derive per-episode randomness. The
    /// simulator itself is deterministic.
    pub fn seed(&self, i: usize) -> Result<u64, SimError> {
        Ok(self.game(i)?.seed)
    }

    /// Plies played in the current episode of game `i` (placements included).
    pub fn ply(&self, i: usize) -> Result<u32, SimError> {
        Ok(self.game(i)?.pos.ply())
    }

    /// Pieces captured so far in the current episode of game `i`.
    pub fn captures(&self, i: usize) -> Result<u32, SimError> {
        Ok(self.game(i)?.captures)
    }

    /// Observations of every game, shape `[N, planes, H, W]` (see
    /// [`crate::observation`]); computed in parallel, only when something changed.
    pub fn observations(&mut self) -> &Array4<f32> {
        if !self.obs_fresh {
            let enc = self.encoder;
            self.obs.axis_iter_mut(Axis(0)).into_par_iter().zip(self.games.par_iter()).for_each(|(row, g)| {
                // Shapes match by construction; the error cannot occur.
                let _ = enc.write(&g.pos, row);
            });
            self.obs_fresh = true;
        }
        &self.obs
    }

    /// Legal-action masks of every game, shape `[N, A]`: `true` exactly at the encodings
    /// of the legal moves; computed in parallel, only when something changed.
    pub fn legal_mask(&mut self) -> &Array2<bool> {
        if !self.mask_fresh {
            let space = self.space;
            self.mask.axis_iter_mut(Axis(0)).into_par_iter().zip(self.games.par_iter()).for_each(|(mut row, g)| {
                row.fill(false);
                for &mv in &g.moves {
                    row[space.encode(mv)] = true;
                }
            });
            self.mask_fresh = true;
        }
        &self.mask
    }

    /// Plays `actions[i]` in game `i` for every game; returns a new [`StepResult`].
    /// See [`BatchSim::step_into`].
    pub fn step(&mut self, actions: &[usize]) -> Result<StepResult, SimError> {
        let mut out = StepResult::default();
        self.step_into(actions, &mut out)?;
        Ok(out)
    }

    /// Plays `actions[i]` in game `i` for every game (in parallel), writing the results
    /// into `out` (resized, its memory reused). Finished games are reset to the start
    /// position with a new episode seed.
    ///
    /// Every action is checked first: if one is out of range or not legal in its game,
    /// nothing is played and the error names the first such game and its action.
    pub fn step_into(&mut self, actions: &[usize], out: &mut StepResult) -> Result<(), SimError> {
        if actions.len() != self.games.len() {
            return Err(SimError::ActionCount { expected: self.games.len(), got: actions.len() });
        }
        let space = self.space;
        // Validate every action before playing any (first offending game reported).
        let bad = self
            .games
            .par_iter()
            .zip(actions.par_iter())
            .enumerate()
            .find_first(|(_, (g, a))| space.decode(**a).map_or(true, |mv| !g.moves.contains(&mv)));
        if let Some((game, (g, &action))) = bad {
            return Err(match space.decode(action) {
                Err(_) => SimError::IllegalAction {
                    game,
                    action,
                    reason: format!("out of range (action space size {})", space.size()),
                },
                Ok(mv) => SimError::IllegalAction {
                    game,
                    action,
                    reason: format!(
                        "{mv:?} is not legal ({} legal moves, {} to move)",
                        g.moves.len(),
                        g.pos.side_to_move()
                    ),
                },
            });
        }
        out.resize(self.games.len());
        let start = &self.start;
        self.games
            .par_iter_mut()
            .zip(actions.par_iter())
            .zip(out.rewards.par_iter_mut())
            .zip(out.done.par_iter_mut())
            .zip(out.outcomes.par_iter_mut())
            .zip(out.plies.par_iter_mut())
            .zip(out.captures.par_iter_mut())
            .for_each(|((((((g, &a), reward), done), outcome), plies), captures)| {
                // Validated above: decodes, and is one of the legal moves.
                let Ok(mv) = space.decode(a) else { return };
                let mover = g.pos.side_to_move();
                let enemy = mover.opponent();
                let before = g.pos.pieces_on_board(enemy);
                g.pos.play(mv);
                g.captures += before.saturating_sub(g.pos.pieces_on_board(enemy));
                *plies = g.pos.ply();
                *captures = g.captures;
                *outcome = g.pos.outcome();
                *done = outcome.is_some();
                *reward = match outcome.and_then(|o| o.winner) {
                    Some(w) if w == mover => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
                if *done {
                    g.pos.clone_from(start);
                    g.captures = 0;
                }
                g.pos.legal_moves(&mut g.moves);
            });
        // New episode seeds, in game order (sequential: cheap and deterministic).
        for (g, &done) in self.games.iter_mut().zip(&out.done) {
            if done {
                g.seed = self.base_seed.wrapping_add(self.episodes_started);
                self.episodes_started += 1;
            }
        }
        self.obs_fresh = false;
        self.mask_fresh = false;
        Ok(())
    }
}

//! One game's positions as training samples: the observation, the legal actions, the
//! policy target (the agent's search policy, or the move played), the move played and
//! the mover's own estimate of the position where its agent gives one.

use latrunculi_rules::{Color, Move, Position};
use latrunculi_sim::{ActionSpace, ObservationEncoder};
use ndarray::ArrayViewMut3;

use crate::error::{ArenaError, Result};
use crate::game::{GameJob, GameRow, play_game_observed};

/// One training position: the position before a move was chosen.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The observation, `[planes, H, W]` flattened in C order.
    pub observation: Vec<f32>,
    /// The legal actions (absolute encoding), ascending.
    pub legal: Vec<u32>,
    /// The policy target as `(action, probability)`, probabilities summing to 1.
    pub policy: Vec<(u32, f32)>,
    /// The action played.
    pub action: u32,
    /// Plies played before the position.
    pub ply: u32,
    /// The side to move.
    pub player: Color,
    /// The mover's own estimate of the position, from -1 (a sure loss) to 1 (a sure
    /// win) for the side to move, where its agent gives one ([`latrunculi_agents::Report::value`]).
    pub search_value: Option<f32>,
}

/// One game and its positions.
#[derive(Clone, Debug)]
pub struct GameSamples {
    /// The game as `play` describes it.
    pub row: GameRow,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// One sample per ply, in ply order.
    pub samples: Vec<Sample>,
}

impl GameSamples {
    /// The value target of a sample: the result from the mover's point of view.
    pub fn value_for(&self, player: Color) -> f32 {
        match self.winner {
            None => 0.0,
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
        }
    }
}

/// The winner named by a `winner` column, `None` for a draw.
pub(super) fn winner_color(text: &str) -> Result<Option<Color>> {
    match text {
        "white" => Ok(Some(Color::White)),
        "black" => Ok(Some(Color::Black)),
        "draw" => Ok(None),
        other => Err(ArenaError::Game(format!("unexpected winner '{other}' (expected white, black or draw)"))),
    }
}

/// The action of a move, or an error naming the move (it is off the board).
fn encode(space: &ActionSpace, mv: Move) -> Result<u32> {
    let a = space.try_encode(mv).ok_or_else(|| {
        ArenaError::Game(format!("move {mv:?} does not fit the {}x{} action space", space.width, space.height))
    })?;
    Ok(a as u32)
}

/// The sample of the position `before` where `mv` was played, its policy target still
/// empty; an error if `mv` is not legal there.
pub(super) fn position_sample(
    encoder: &ObservationEncoder,
    space: &ActionSpace,
    before: &Position,
    mv: Move,
) -> Result<Sample> {
    let shape = encoder.shape();
    let mut observation = vec![0.0f32; shape.iter().product()];
    let view = ArrayViewMut3::from_shape(shape, observation.as_mut_slice())
        .map_err(|e| ArenaError::Game(format!("observation buffer: {e}")))?;
    encoder.write(before, view).map_err(|e| ArenaError::Game(format!("cannot encode the position: {e}")))?;
    let mut legal = before.legal_move_list().into_iter().map(|m| encode(space, m)).collect::<Result<Vec<u32>>>()?;
    legal.sort_unstable();
    let action = encode(space, mv)?;
    if legal.binary_search(&action).is_err() {
        return Err(ArenaError::Game(format!("move {mv:?} (action {action}) is not among the legal moves")));
    }
    Ok(Sample {
        observation,
        legal,
        policy: Vec::new(),
        action,
        ply: before.ply(),
        player: before.side_to_move(),
        search_value: None,
    })
}

/// The sample of the position `before`, where `agent` chose `mv`.
pub fn sample_of(
    encoder: &ObservationEncoder,
    space: &ActionSpace,
    before: &Position,
    agent: &dyn latrunculi_agents::Agent,
    mv: Move,
) -> Result<Sample> {
    let mut sample = position_sample(encoder, space, before, mv)?;
    let (legal, action) = (&sample.legal, sample.action);
    let report = agent.report();
    sample.policy = match report.policy {
        Some(dist) => {
            let mut out = Vec::with_capacity(dist.len());
            for (m, p) in dist {
                let a = encode(space, m)?;
                if legal.binary_search(&a).is_err() || !p.is_finite() || p < 0.0 {
                    return Err(ArenaError::Game(format!(
                        "agent '{}' reported a search policy with an illegal move or bad probability: {m:?} {p}",
                        agent.spec()
                    )));
                }
                out.push((a, p));
            }
            out.sort_unstable_by_key(|&(a, _)| a);
            out
        }
        None => vec![(action, 1.0)],
    };
    sample.search_value = match report.value {
        Some(v) if v.is_finite() && (-1.0..=1.0).contains(&v) => Some(v),
        Some(v) => {
            return Err(ArenaError::Game(format!("agent '{}' reported a value {v} outside [-1, 1]", agent.spec())));
        }
        None => None,
    };
    Ok(sample)
}

/// Plays one game (exactly as `play` would) and collects a sample at every ply.
pub fn play_game_samples(job: &GameJob<'_>) -> Result<GameSamples> {
    let encoder = ObservationEncoder::new(job.ruleset);
    let space = ActionSpace::for_rules(&job.ruleset.rules());
    let mut samples = Vec::new();
    let row = play_game_observed(job, &mut |before, agent, mv| {
        samples.push(sample_of(&encoder, &space, before, agent, mv)?);
        Ok(())
    })?;
    if samples.len() != row.plies as usize {
        return Err(ArenaError::Game(format!("game {}: {} samples for {} plies", job.game, samples.len(), row.plies)));
    }
    let winner = winner_color(&row.winner)?;
    Ok(GameSamples { row, winner, samples })
}

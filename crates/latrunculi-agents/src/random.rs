//! [`RandomAgent`]: a uniformly random legal move.

use latrunculi_rules::{FastRng, Move, Position};

use crate::Agent;

/// Plays a uniformly random legal move (spec `random`).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    spec: String,
    rng: FastRng,
    moves: Vec<Move>,
}

impl RandomAgent {
    /// A random agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str) -> RandomAgent {
        RandomAgent { spec: spec.to_string(), rng: FastRng::new(0), moves: Vec::with_capacity(256) }
    }
}

impl Agent for RandomAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
    }

    fn select(&mut self, pos: &Position) -> Move {
        pos.legal_moves(&mut self.moves);
        assert!(!self.moves.is_empty(), "RandomAgent::select: no legal move (the game is over)");
        self.moves[self.rng.below(self.moves.len())]
    }
}

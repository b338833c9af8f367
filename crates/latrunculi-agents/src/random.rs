//! [`RandomAgent`]: a uniformly random legal move.

use latrunculi_rules::{FastRng, Move, Position};

use crate::{Agent, Report};

/// Plays a uniformly random legal move (spec `random`).
#[derive(Clone, Debug)]
pub struct RandomAgent {
    spec: String,
    rng: FastRng,
    moves: Vec<Move>,
    last: Option<Move>,
}

impl RandomAgent {
    /// A random agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str) -> RandomAgent {
        RandomAgent { spec: spec.to_string(), rng: FastRng::new(0), moves: Vec::with_capacity(256), last: None }
    }
}

impl Agent for RandomAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
        self.last = None;
    }

    fn select(&mut self, pos: &Position) -> Move {
        pos.legal_moves(&mut self.moves);
        assert!(!self.moves.is_empty(), "RandomAgent::select: no legal move (the game is over)");
        let mv = self.moves[self.rng.below(self.moves.len())];
        self.last = Some(mv);
        mv
    }

    fn report(&self) -> Report {
        Report { mv: self.last, ..Report::default() }
    }
}

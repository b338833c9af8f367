//! [`GreedyAgent`]: one ply of lookahead on captures, checking the opponent's replies.

use latrunculi_rules::{FastRng, Move, Position};

use crate::{Agent, Report};

/// A one-ply capture maximiser that looks at the opponent's replies (spec `greedy`).
///
/// For every legal move `m` the agent plays `m` on a copy of the position and then each
/// opponent reply on a copy of that. With `gain(m)` the number of pieces `m` captures or
/// traps (`pos.effects(m).len()`), `threat(m)` the most pieces one reply captures or
/// traps (0 if the game is over after `m`), and `unsafe(m)` true when some reply wins
/// for the opponent (or `m` itself loses), the choice is, in this order:
///
/// 1. a move that wins the game at once;
/// 2. among the moves that are not unsafe, one maximising `gain(m) - threat(m)`;
/// 3. if every move is unsafe, one maximising `gain(m) - threat(m)` among all moves.
///
/// Ties are broken uniformly at random with the game's seed. A move after which the game
/// is drawn at once counts as safe with `threat = 0`. Replies are considered only when
/// the opponent is to move after `m`; if the same player moves again (placement
/// schedules such as `two-each`), `threat(m)` is 0 and `m` is safe.
#[derive(Clone, Debug)]
pub struct GreedyAgent {
    spec: String,
    rng: FastRng,
    moves: Vec<Move>,
    replies: Vec<Move>,
    last: Option<Move>,
}

/// What one candidate move scores.
#[derive(Clone, Copy, Debug)]
struct Scored {
    wins: bool,
    unsafe_: bool,
    score: i32,
}

impl GreedyAgent {
    /// A greedy agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str) -> GreedyAgent {
        GreedyAgent { spec: spec.to_string(), rng: FastRng::new(0), moves: Vec::new(), replies: Vec::new(), last: None }
    }

    fn score(&mut self, pos: &Position, mv: Move) -> Scored {
        let me = pos.side_to_move();
        let mut after = pos.clone();
        let gain = after.play(mv).len() as i32;
        if let Some(o) = after.outcome() {
            return match o.winner {
                Some(w) if w == me => Scored { wins: true, unsafe_: false, score: gain },
                Some(_) => Scored { wins: false, unsafe_: true, score: gain },
                None => Scored { wins: false, unsafe_: false, score: gain },
            };
        }
        if after.side_to_move() == me {
            return Scored { wins: false, unsafe_: false, score: gain };
        }
        after.legal_moves(&mut self.replies);
        let (mut threat, mut opp_wins) = (0i32, false);
        for &r in &self.replies {
            let mut next = after.clone();
            let fx = next.play(r);
            threat = threat.max(fx.len() as i32);
            if next.outcome().is_some_and(|o| o.winner == Some(me.opponent())) {
                opp_wins = true;
            }
        }
        Scored { wins: false, unsafe_: opp_wins, score: gain - threat }
    }
}

impl Agent for GreedyAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
        self.last = None;
    }

    fn select(&mut self, pos: &Position) -> Move {
        let mut moves = std::mem::take(&mut self.moves);
        pos.legal_moves(&mut moves);
        assert!(!moves.is_empty(), "GreedyAgent::select: no legal move (the game is over)");
        let scored: Vec<Scored> = moves.iter().map(|&m| self.score(pos, m)).collect();
        let pick = |keep: &dyn Fn(&Scored) -> bool| -> Vec<usize> {
            let best = scored.iter().filter(|s| keep(s)).map(|s| s.score).max();
            match best {
                Some(b) => (0..scored.len()).filter(|&i| keep(&scored[i]) && scored[i].score == b).collect(),
                None => Vec::new(),
            }
        };
        let mut candidates: Vec<usize> = (0..scored.len()).filter(|&i| scored[i].wins).collect();
        if candidates.is_empty() {
            candidates = pick(&|s: &Scored| !s.unsafe_);
        }
        if candidates.is_empty() {
            candidates = pick(&|_: &Scored| true);
        }
        let mv = moves[candidates[self.rng.below(candidates.len())]];
        self.moves = moves;
        self.last = Some(mv);
        mv
    }

    fn report(&self) -> Report {
        Report { mv: self.last, ..Report::default() }
    }
}

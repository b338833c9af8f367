//! [`MctsAgent`]: UCT Monte-Carlo tree search with random rollouts cut at a fixed depth
//! and scored by material.

use std::time::{Duration, Instant};

use latrunculi_rules::{Color, FastRng, Move, Position, Ruleset};

use crate::{Agent, Report};

use crate::eval::{material_diff, result_for, squash};

/// Parameters of [`MctsAgent`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Simulations (tree descents, each expanding one node and running one rollout) per move.
    pub sims: u32,
    /// Rollout plies before the position is scored by material (0: score the new leaf at once).
    pub rollout_depth: u32,
    /// UCT exploration constant `c` in `Q + c·sqrt(ln N / n)`.
    pub c: f64,
}

impl Default for MctsConfig {
    /// `sims = 200`, `rollout_depth = 40`, `c = 1.4`.
    fn default() -> MctsConfig {
        MctsConfig { sims: 200, rollout_depth: 40, c: 1.4 }
    }
}

/// One tree node, in a `Vec` arena.
#[derive(Clone, Debug)]
struct Node {
    /// The move from the parent into this node (unused at the root).
    mv: Move,
    /// The player who made `mv` (the one this node's value is for).
    mover: Color,
    children: Vec<u32>,
    /// Moves not yet expanded into children.
    untried: Vec<Move>,
    visits: u32,
    /// Sum of simulation values from `mover`'s point of view.
    value: f64,
}

/// UCT search (spec `mcts:sims=N[,depth=D][,c=C]`).
///
/// Each simulation descends the tree from the current position by UCT
/// (`Q + c·sqrt(ln N_parent / n)`, `Q` the child's mean value for the player who made its
/// move), expands one untried move chosen at random, then plays uniformly random moves
/// from the new node for at most `depth` plies. A finished game scores +1 / −1 / 0 (win /
/// loss / draw); an unfinished one `tanh(material difference / 4)`, material being the
/// pieces on the board plus in hand. Values are kept per player, so placement schedules
/// in which one player moves twice in a row are handled. The move played is that of the
/// most visited root child (random among equals). Nothing is kept between moves.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    spec: String,
    cfg: MctsConfig,
    rng: FastRng,
    nodes: Vec<Node>,
    scratch: Vec<Move>,
    /// Root visit distribution of the last `select` (`None` if it did not search).
    last_policy: Option<Vec<(Move, f32)>>,
    /// The move of the last `select`.
    last_move: Option<Move>,
}

impl MctsAgent {
    /// An MCTS agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str, cfg: MctsConfig) -> MctsAgent {
        MctsAgent {
            spec: spec.to_string(),
            cfg,
            rng: FastRng::new(0),
            nodes: Vec::new(),
            scratch: Vec::new(),
            last_policy: None,
            last_move: None,
        }
    }

    /// The configuration.
    pub fn config(&self) -> MctsConfig {
        self.cfg
    }

    fn new_node(&mut self, mv: Move, mover: Color, pos: &Position) -> u32 {
        let mut untried = Vec::new();
        pos.legal_moves(&mut untried);
        self.nodes.push(Node { mv, mover, children: Vec::new(), untried, visits: 0, value: 0.0 });
        (self.nodes.len() - 1) as u32
    }

    /// Builds a fresh tree for `root` and runs `sims` simulations.
    fn search(&mut self, root: &Position, sims: u32) {
        self.nodes.clear();
        // The root's mover is never read; any colour will do.
        let dummy = Move::remove(latrunculi_rules::Square::new(0, 0).expect("a1 exists"));
        self.new_node(dummy, root.side_to_move().opponent(), root);
        let mut path: Vec<u32> = Vec::with_capacity(64);
        for _ in 0..sims {
            self.simulate(root, &mut path);
        }
    }

    fn simulate(&mut self, root: &Position, path: &mut Vec<u32>) {
        let mut pos = root.clone();
        path.clear();
        let mut node = 0u32;
        path.push(node);
        // Selection.
        while self.nodes[node as usize].untried.is_empty() && !self.nodes[node as usize].children.is_empty() {
            let n = &self.nodes[node as usize];
            let ln_n = (n.visits.max(1) as f64).ln();
            let mut best = (f64::NEG_INFINITY, 0u32);
            for &ch in &n.children {
                let c = &self.nodes[ch as usize];
                let u = if c.visits == 0 {
                    f64::INFINITY
                } else {
                    c.value / c.visits as f64 + self.cfg.c * (ln_n / c.visits as f64).sqrt()
                };
                if u > best.0 {
                    best = (u, ch);
                }
            }
            node = best.1;
            pos.play(self.nodes[node as usize].mv);
            path.push(node);
        }
        // Expansion of one untried move (none at a finished game).
        if !self.nodes[node as usize].untried.is_empty() {
            let k = self.nodes[node as usize].untried.len();
            let mv = self.nodes[node as usize].untried.swap_remove(self.rng.below(k));
            let mover = pos.side_to_move();
            pos.play(mv);
            let child = self.new_node(mv, mover, &pos);
            self.nodes[node as usize].children.push(child);
            path.push(child);
        }
        // Rollout, scored from White's point of view.
        let mut moves = std::mem::take(&mut self.scratch);
        let mut plies = 0;
        while !pos.is_over() && plies < self.cfg.rollout_depth {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.play(moves[self.rng.below(moves.len())]);
            plies += 1;
        }
        self.scratch = moves;
        let white = result_for(&pos, Color::White).unwrap_or_else(|| squash(material_diff(&pos, Color::White)));
        // Backpropagation.
        for &i in path.iter() {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.value += if n.mover == Color::White { white } else { -white };
        }
    }
}

impl Agent for MctsAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
        self.last_policy = None;
        self.last_move = None;
    }

    fn select(&mut self, pos: &Position) -> Move {
        let mv = self.choose(pos);
        self.last_move = Some(mv);
        mv
    }

    /// The move and the root children's visit shares of its search (`None` for a forced
    /// move, which is played without searching).
    fn report(&self) -> Report {
        Report { mv: self.last_move, policy: self.last_policy.clone(), ..Report::default() }
    }
}

impl MctsAgent {
    fn choose(&mut self, pos: &Position) -> Move {
        self.last_policy = None;
        let moves = pos.legal_move_list();
        assert!(!moves.is_empty(), "MctsAgent::select: no legal move (the game is over)");
        if moves.len() == 1 {
            return moves[0];
        }
        self.search(pos, self.cfg.sims);
        let root = &self.nodes[0];
        self.last_policy = crate::visit_distribution(
            root.children.iter().map(|&c| (self.nodes[c as usize].mv, self.nodes[c as usize].visits)),
        );
        let most = root.children.iter().map(|&c| self.nodes[c as usize].visits).max().unwrap_or(0);
        let best: Vec<Move> = root
            .children
            .iter()
            .filter(|&&c| self.nodes[c as usize].visits == most)
            .map(|&c| self.nodes[c as usize].mv)
            .collect();
        if best.is_empty() {
            // No simulation ran (cannot happen with sims >= 1); fall back to a random move.
            return moves[self.rng.below(moves.len())];
        }
        best[self.rng.below(best.len())]
    }
}

/// UCT simulations per second of an `mcts:sims=200` search (default rollout depth and
/// `c`) on the start position of `rs`, on one thread, measured for about `seconds`
/// (searches of 200 simulations are repeated until the time is up). Returns 0 when the
/// start position is already decided.
pub fn uct_simulations_per_second(rs: &Ruleset, seconds: f64) -> f64 {
    let pos = Position::new(rs);
    if pos.is_over() || !pos.has_legal_move() {
        return 0.0;
    }
    let mut agent = MctsAgent::new("mcts:sims=200", MctsConfig::default());
    agent.new_game(1);
    let budget = Duration::from_secs_f64(seconds.max(0.0));
    let t0 = Instant::now();
    let mut sims = 0u64;
    loop {
        agent.search(&pos, agent.cfg.sims);
        sims += agent.cfg.sims as u64;
        if t0.elapsed() >= budget {
            break;
        }
    }
    sims as f64 / t0.elapsed().as_secs_f64().max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reported_policy_is_the_root_visit_distribution_and_leaves_select_unchanged() {
        let rs = Ruleset::builtin("kowalski").and_then(|r| r.with_board(6, 6)).expect("kowalski at 6x6");
        let cfg = MctsConfig { sims: 60, ..MctsConfig::default() };
        let mut a = MctsAgent::new("mcts:sims=60", cfg);
        let mut b = MctsAgent::new("mcts:sims=60", cfg);
        a.new_game(7);
        b.new_game(7);
        assert_eq!(a.report().policy, None, "no search yet");
        let mut pos = Position::new(&rs);
        for _ in 0..6 {
            if pos.is_over() {
                break;
            }
            let legal = pos.legal_move_list();
            let mv = a.select(&pos);
            // Asking for the policy does not disturb the agent: b never asks and plays the same.
            assert_eq!(mv, b.select(&pos));
            assert_eq!(a.report().mv, Some(mv));
            let policy = a.report().policy.expect("a searched position");
            let sum: f32 = policy.iter().map(|&(_, p)| p).sum();
            assert!((sum - 1.0).abs() < 1e-5, "sum {sum}");
            assert!(policy.iter().all(|(m, p)| legal.contains(m) && *p > 0.0));
            // The move played is a most visited one.
            let best = policy.iter().map(|&(_, p)| p).fold(0.0f32, f32::max);
            let played = policy.iter().find(|(m, _)| *m == mv).map(|&(_, p)| p);
            assert_eq!(played, Some(best));
            // Visits are whole numbers out of the root children's total (= sims).
            for &(_, p) in &policy {
                let visits = p * cfg.sims as f32;
                assert!((visits - visits.round()).abs() < 1e-3, "{p}");
            }
            pos.play(mv);
        }
        a.new_game(8);
        assert_eq!(a.report(), Report::default(), "a new game forgets the last search");
    }
}

//! [`AlphaBetaAgent`]: negamax with alpha-beta pruning, iterative deepening, a
//! transposition table and a material + mobility evaluation.

use latrunculi_rules::{Color, FastRng, Move, Position};

use crate::eval::material_diff;
use crate::{Agent, Report};

/// The largest accepted search depth.
pub const MAX_DEPTH: u32 = 64;

/// The score of a won game at the root; a win `k` plies away scores `WIN - k`.
pub const WIN: i32 = 100_000;

/// Scores beyond this (in absolute value) are decided games.
const WIN_BOUND: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;

/// Parameters of [`AlphaBetaAgent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaConfig {
    /// Search depth in plies (iterative deepening from 1 to this).
    pub depth: u32,
    /// Transposition-table size in megabytes (0: no table).
    pub tt_mb: u32,
}

impl Default for AlphaBetaConfig {
    /// `depth = 2`, `tt_mb = 16`.
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig { depth: 2, tt_mb: 16 }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    score: i32,
    depth: u8,
    bound: Bound,
    best: Option<Move>,
}

/// Alpha-beta search (spec `alphabeta:depth=N[,tt=MB]`).
///
/// - Negamax with alpha-beta pruning and iterative deepening to `depth` plies (stopping
///   early once a forced win is found).
/// - Evaluation from the side to move's point of view: `100 × material difference`
///   (pieces on the board plus in hand) `+ mobility difference` (legal moves of the side
///   to move minus those of the opponent in the same position with the turn passed, via
///   `Position::with_turn_passed`).
/// - A finished game scores `±(100000 − plies from the root)` (0 for a draw), so faster
///   wins and slower losses are preferred.
/// - A transposition table of `tt` MB (default 16, always-replace) keyed by
///   `Position::hash`, kept for the whole game and cleared by [`Agent::new_game`].
/// - Move ordering: the table's best move first, then moves by pieces captured or
///   trapped, most first.
/// - At the root, all moves sharing the best score are found exactly and one is chosen
///   at random with the game's seed.
///
/// Placement schedules in which one player moves twice in a row are handled: a child in
/// which the same player is to move is searched without negation.
#[derive(Clone, Debug)]
pub struct AlphaBetaAgent {
    spec: String,
    cfg: AlphaBetaConfig,
    rng: FastRng,
    tt: Vec<Option<Entry>>,
    nodes: u64,
    report: Report,
}

impl AlphaBetaAgent {
    /// An alpha-beta agent; `spec` is returned by [`Agent::spec`].
    pub fn new(spec: &str, cfg: AlphaBetaConfig) -> AlphaBetaAgent {
        AlphaBetaAgent {
            spec: spec.to_string(),
            cfg,
            rng: FastRng::new(0),
            tt: Vec::new(),
            nodes: 0,
            report: Report::default(),
        }
    }

    /// The configuration.
    pub fn config(&self) -> AlphaBetaConfig {
        self.cfg
    }

    /// Positions searched since the agent was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    fn ensure_tt(&mut self) {
        if self.cfg.tt_mb == 0 || !self.tt.is_empty() {
            return;
        }
        let bytes = self.cfg.tt_mb as usize * (1 << 20);
        let n = (bytes / std::mem::size_of::<Option<Entry>>()).max(1);
        let n = if n.is_power_of_two() { n } else { n.next_power_of_two() / 2 };
        self.tt = vec![None; n];
    }

    fn tt_get(&self, key: u64) -> Option<Entry> {
        if self.tt.is_empty() {
            return None;
        }
        self.tt[key as usize & (self.tt.len() - 1)].filter(|e| e.key == key)
    }

    fn tt_put(&mut self, e: Entry) {
        if self.tt.is_empty() {
            return;
        }
        let i = e.key as usize & (self.tt.len() - 1);
        self.tt[i] = Some(e);
    }

    /// Legal-move count of the side to move.
    fn mobility(&mut self, pos: &Position) -> i32 {
        pos.legal_move_count() as i32
    }

    /// Static evaluation of an unfinished position for `persp`.
    fn evaluate(&mut self, pos: &Position, persp: Color) -> i32 {
        let passed = pos.with_turn_passed();
        let (to_move, other) = (self.mobility(pos), self.mobility(&passed));
        let mob = if pos.side_to_move() == persp { to_move - other } else { other - to_move };
        100 * material_diff(pos, persp) + mob
    }

    /// The value for `persp` of the position after a move of `persp` (`child`).
    fn child_value(&mut self, child: &Position, persp: Color, depth: u32, alpha: i32, beta: i32, ply: u32) -> i32 {
        if let Some(o) = child.outcome() {
            return match o.winner {
                Some(w) if w == persp => WIN - ply as i32,
                Some(_) => -(WIN - ply as i32),
                None => 0,
            };
        }
        if child.side_to_move() == persp {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        }
    }

    /// Moves in search order: `first` (if legal), then by pieces captured or trapped.
    fn ordered_moves(&self, pos: &Position, first: Option<Move>) -> Vec<Move> {
        let moves = pos.legal_move_list();
        let mut keyed: Vec<(i32, Move)> = moves
            .into_iter()
            .map(|m| {
                let k = if Some(m) == first { i32::MAX } else { pos.effects(m).len() as i32 };
                (k, m)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|(_, m)| m).collect()
    }

    /// Negamax value of the unfinished `pos` for its side to move.
    fn negamax(&mut self, pos: &Position, depth: u32, mut alpha: i32, mut beta: i32, ply: u32) -> i32 {
        self.nodes += 1;
        let persp = pos.side_to_move();
        if depth == 0 {
            return self.evaluate(pos, persp);
        }
        let key = pos.hash();
        let entry = self.tt_get(key);
        if let Some(e) = entry
            && e.depth as u32 >= depth
        {
            let s = from_tt(e.score, ply);
            match e.bound {
                Bound::Exact => return s,
                Bound::Lower => alpha = alpha.max(s),
                Bound::Upper => beta = beta.min(s),
            }
            if alpha >= beta {
                return s;
            }
        }
        let moves = self.ordered_moves(pos, entry.and_then(|e| e.best));
        if moves.is_empty() {
            // Not reached for positions the engine reports as unfinished; be safe.
            return self.evaluate(pos, persp);
        }
        let orig_alpha = alpha;
        let (mut best, mut best_move) = (-INF, moves[0]);
        for mv in moves {
            let mut child = pos.clone();
            child.play(mv);
            let s = self.child_value(&child, persp, depth - 1, alpha, beta, ply + 1);
            if s > best {
                best = s;
                best_move = mv;
            }
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best <= orig_alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt_put(Entry { key, score: to_tt(best, ply), depth: depth as u8, bound, best: Some(best_move) });
        best
    }
}

fn to_tt(s: i32, ply: u32) -> i32 {
    if s > WIN_BOUND {
        s + ply as i32
    } else if s < -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: u32) -> i32 {
    if s > WIN_BOUND {
        s - ply as i32
    } else if s < -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

impl Agent for AlphaBetaAgent {
    fn spec(&self) -> &str {
        &self.spec
    }

    fn new_game(&mut self, seed: u64) {
        self.rng = FastRng::new(seed);
        self.tt.iter_mut().for_each(|e| *e = None);
        self.report = Report::default();
    }

    fn select(&mut self, pos: &Position) -> Move {
        self.ensure_tt();
        let me = pos.side_to_move();
        let mut root = self.ordered_moves(pos, self.tt_get(pos.hash()).and_then(|e| e.best));
        assert!(!root.is_empty(), "AlphaBetaAgent::select: no legal move (the game is over)");
        if root.len() == 1 {
            self.report = Report { depth: Some(0), nodes: Some(0), ..Report::of_move(root[0]) };
            return root[0];
        }
        let nodes_before = self.nodes;
        let mut ties = vec![root[0]];
        let (mut reached, mut score) = (0, 0);
        for depth in 1..=self.cfg.depth {
            let mut best = -INF;
            let mut scored: Vec<(i32, Move)> = Vec::with_capacity(root.len());
            for &mv in &root {
                let mut child = pos.clone();
                child.play(mv);
                // A window just below the best so far finds every move equal to it exactly.
                let alpha = if best > -INF { best - 1 } else { -INF };
                let s = self.child_value(&child, me, depth - 1, alpha, INF, 1);
                best = best.max(s);
                scored.push((s, mv));
            }
            ties = scored.iter().filter(|(s, _)| *s == best).map(|(_, m)| *m).collect();
            scored.sort_by_key(|k| std::cmp::Reverse(k.0));
            root = scored.into_iter().map(|(_, m)| m).collect();
            (reached, score) = (depth, best);
            if !(-WIN_BOUND..=WIN_BOUND).contains(&best) {
                break;
            }
        }
        let mv = ties[self.rng.below(ties.len())];
        self.report = Report {
            score: Some(score),
            depth: Some(reached),
            nodes: Some(self.nodes - nodes_before),
            ..Report::of_move(mv)
        };
        mv
    }

    fn report(&self) -> Report {
        self.report.clone()
    }
}

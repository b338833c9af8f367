//! The budgeted search: iterative deepening with aspiration windows, principal-variation
//! search, a depth-preferred transposition table, killer and history move ordering,
//! late-move reductions, optional null-move pruning, and a quiescence search on the
//! moves that change the material or decide the game.

use latrunculi_rules::ruleset::Immobilization;
use latrunculi_rules::{Color, Move, MoveKind, Position, splitmix64};

use super::features::{
    Features, ScoredMove, dux_surroundings, features, hunt_distance, moves_with_effects, piece_totals,
};
use super::tt::{Bound, Entry, Table, WIN_BOUND, from_tt, to_tt};
use super::{SCORE_PER_LOGIT, SearchSpec, WIN};

const INF: i32 = WIN + 1;

/// The score for `persp` of a finished game `ply` plies from the root: a win
/// `WIN - ply` (sooner is better), a loss its negation, a draw 0; `None` while it goes on.
fn decided(pos: &Position, persp: Color, ply: u32) -> Option<i32> {
    pos.outcome().map(|o| match o.winner {
        Some(w) if w == persp => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    })
}
/// Deepest ply from the root the search tracks (killers, quiescence).
pub const MAX_PLY: usize = 128;
/// Largest number of quiescence plies below the main search's horizon.
const MAX_QPLY: u32 = 8;
/// How often (in nodes) the clock is read under a time budget.
const CLOCK_EVERY: u64 = 1024;

/// What one search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move chosen: the best move of the deepest finished iteration.
    pub best: Move,
    /// Its score for the side to move (1,000 a logit; decided games near ±100,000).
    pub score: i32,
    /// The deepest finished iteration (0 when the root had one legal move).
    pub depth: u32,
    /// Nodes searched (main search and quiescence).
    pub nodes: u64,
    /// The principal variation from the table (may be shorter than `depth`).
    pub pv: Vec<Move>,
    /// With `soft` set: every root move with its score at `depth`, exact within
    /// [`SOFT_WINDOW`] temperatures of the best and clamped there below it (empty
    /// otherwise, and when the root had one legal move).
    pub root_scores: Vec<(Move, i32)>,
}

/// How many temperatures below the best root score the scores of `soft` are exact (a move
/// further below gets at most e^-8 of the best move's probability).
pub const SOFT_WINDOW: i32 = 8;

/// The search state kept across the moves of one game.
#[derive(Clone, Debug)]
pub struct Engine {
    pub(super) cfg: SearchSpec,
    pub(super) weights: Features,
    tt: Table,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    noise_key: u64,
    nodes: u64,
    node_limit: u64,
    deadline: Option<super::clock::Deadline>,
    aborted: bool,
    /// Whether the running iteration may be cut off by the budget.
    abortable: bool,
    /// The pursuit reference of the running search (see [`Pursuit`]).
    pursuit: Option<Pursuit>,
    /// Set while the root moves are scored for `soft`: the table, killers and history are
    /// read but not written, so that the moves played do not depend on `soft`.
    frozen: bool,
}

/// The root of a search where one side has at least twice the other's pieces: the
/// evaluation then adds, in positions with the root's piece counts (no capture on the
/// way), `pursuit` score units for the side ahead per unit by which its
/// [`hunt_distance`] fell since the root. Positions after a capture get nothing, so the
/// term never makes a capture look worse; relative to the root, it stays a few steps'
/// worth, well below a piece. Custodial captures need two pieces around the victim: the
/// term lets the search make progress towards them where no capture lies within its
/// horizon, where a won position would otherwise run into the ply cap or the
/// no-capture limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pursuit {
    leader: Color,
    totals: (u32, u32),
    hunt: u32,
}

impl Pursuit {
    /// The reference at `root`, if one side has at least twice the other's pieces (and
    /// no piece waits to be placed).
    fn at(root: &Position) -> Option<Pursuit> {
        if root.is_placement_phase() {
            return None;
        }
        let totals = piece_totals(root);
        let (w, b) = totals;
        let leader = if w >= 2 * b.max(1) {
            Color::White
        } else if b >= 2 * w.max(1) {
            Color::Black
        } else {
            return None;
        };
        Some(Pursuit { leader, totals, hunt: hunt_distance(root, leader) })
    }
}

impl Engine {
    /// An engine with `cfg` and evaluation `weights`.
    pub fn new(cfg: SearchSpec, weights: Features) -> Engine {
        Engine {
            tt: Table::new(cfg.options.tt_mb),
            cfg,
            weights,
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * 256 * 256],
            noise_key: 0,
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            aborted: false,
            abortable: false,
            pursuit: None,
            frozen: false,
        }
    }

    /// Forgets the previous game; `seed` keys the evaluation's noise.
    pub fn new_game(&mut self, seed: u64) {
        self.tt.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
        self.noise_key = splitmix64(seed ^ 0x5EA7_C4E5);
    }

    /// The static evaluation of the unfinished `pos` for its side to move, given its
    /// moves with their effects (1,000 a logit).
    pub fn evaluate(&self, pos: &Position, ours: &[ScoredMove]) -> i32 {
        let f = features(pos, ours);
        let logit: f64 = f.iter().zip(&self.weights).map(|(x, w)| x * w).sum();
        let mut s = (logit * SCORE_PER_LOGIT as f64).round().clamp(-50_000.0, 50_000.0) as i32;
        if let Some(r) = self.pursuit
            && piece_totals(pos) == r.totals
        {
            let progress = r.hunt as i64 - hunt_distance(pos, r.leader) as i64;
            let sign = if pos.side_to_move() == r.leader { 1 } else { -1 };
            s += (sign * progress * self.cfg.options.pursuit as i64).clamp(-10_000, 10_000) as i32;
        }
        if self.cfg.options.noise > 0 {
            let a = self.cfg.options.noise as u64;
            s += (splitmix64(pos.hash() ^ self.noise_key) % (2 * a + 1)) as i32 - a as i32;
        }
        s
    }

    /// Searches `pos` (not over, at least one legal move) within the budget.
    pub fn search(&mut self, pos: &Position) -> SearchResult {
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = self.cfg.limits.nodes.unwrap_or(u64::MAX);
        self.deadline = self.cfg.limits.ms.map(|ms| super::clock::Deadline::after(ms, self.cfg.limits.cpu_time));
        self.pursuit = if self.cfg.options.pursuit > 0 { Pursuit::at(pos) } else { None };
        for h in &mut self.history {
            *h /= 8;
        }

        let mut root = Vec::new();
        moves_with_effects(pos, &mut root);
        assert!(!root.is_empty(), "search: no legal move (the game is over)");
        let tt_move = self.tt.get(pos.hash()).and_then(|e| e.best);
        root.sort_by_key(|&(m, n)| std::cmp::Reverse(if Some(m) == tt_move { 1 << 20 } else { n as i32 }));
        let mut order: Vec<Move> = root.iter().map(|&(m, _)| m).collect();
        let mut result =
            SearchResult { best: order[0], score: 0, depth: 0, nodes: 0, pv: vec![order[0]], root_scores: Vec::new() };
        if order.len() == 1 {
            return result;
        }
        let mut prev: i32 = 0;
        for depth in 1..=self.cfg.limits.max_depth {
            if depth > 1 && self.out_of_budget() {
                break;
            }
            // The first iteration always finishes, so that there is a best move.
            self.abortable = depth > 1;
            let (mut alpha, mut beta) = (-INF, INF);
            let mut delta = 250;
            if self.cfg.options.aspiration && depth >= 3 && prev.abs() < WIN_BOUND {
                (alpha, beta) = (prev - delta, prev + delta);
            }
            let (score, best) = loop {
                let (s, m) = self.root_search(pos, &mut order, depth as i32, alpha, beta);
                if self.aborted {
                    break (s, m);
                }
                if s <= alpha && alpha > -INF {
                    alpha = (alpha - delta).max(-INF);
                } else if s >= beta && beta < INF {
                    beta = (beta + delta).min(INF);
                } else {
                    break (s, m);
                }
                delta *= 4;
            };
            if self.aborted {
                break;
            }
            prev = score;
            result.best = best;
            result.score = score;
            result.depth = depth;
            if score.abs() > WIN_BOUND {
                break;
            }
        }
        if let Some(t) = self.cfg.options.soft
            && result.depth > 0
        {
            result.root_scores =
                self.root_scores(pos, &order, result.depth as i32, (result.best, result.score), t as i32);
        }
        result.nodes = self.nodes;
        result.pv = self.principal_variation(pos, result.best, result.depth.max(1) as usize);
        result
    }

    /// Every root move's score at `depth` (after the budgeted search, not counted against
    /// the budget): exact from `best - SOFT_WINDOW * temperature` up, that floor below it.
    /// The best move keeps the search's score. Nothing the next search reads is changed
    /// (see `frozen`), but the nodes are counted.
    fn root_scores(
        &mut self,
        pos: &Position,
        order: &[Move],
        depth: i32,
        (best_move, best): (Move, i32),
        temperature: i32,
    ) -> Vec<(Move, i32)> {
        self.abortable = false;
        self.aborted = false;
        self.frozen = true;
        let me = pos.side_to_move();
        let floor = best.saturating_sub(SOFT_WINDOW * temperature.max(1)).max(-INF + 1);
        let scores = order
            .iter()
            .map(|&mv| {
                if mv == best_move {
                    return (mv, best);
                }
                let mut child = pos.clone();
                child.play(mv);
                let s = self.child_value(&child, me, depth - 1, floor - 1, best + 1, 1, true);
                (mv, s.clamp(floor, best))
            })
            .collect();
        self.frozen = false;
        scores
    }

    /// Whether the node or time budget is spent.
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        if let Some(d) = self.deadline
            && d.passed()
        {
            return true;
        }
        false
    }

    /// Counts a node; sets `aborted` once the budget is spent (only where aborting is
    /// allowed: never in the first iteration, see `abortable`).
    #[inline]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.abortable
            && !self.aborted
            && (self.nodes >= self.node_limit
                || (self.deadline.is_some() && self.nodes % CLOCK_EVERY == 0 && self.out_of_budget()))
        {
            self.aborted = true;
        }
    }

    /// One iteration at the root: PVS over `order` (reordered best first).
    fn root_search(
        &mut self,
        pos: &Position,
        order: &mut Vec<Move>,
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Move) {
        let me = pos.side_to_move();
        let mut best = (-INF, order[0]);
        let orig_alpha = alpha;
        for i in 0..order.len() {
            let mv = order[i];
            let mut child = pos.clone();
            child.play(mv);
            let s = if i == 0 || !self.cfg.options.pvs {
                self.child_value(&child, me, depth - 1, alpha, beta, 1, true)
            } else {
                let s = self.child_value(&child, me, depth - 1, alpha, alpha + 1, 1, false);
                if s > alpha && s < beta && !self.aborted {
                    self.child_value(&child, me, depth - 1, alpha, beta, 1, true)
                } else {
                    s
                }
            };
            if self.aborted {
                return best;
            }
            if s > best.0 {
                best = (s, mv);
                let m = order.remove(i);
                order.insert(0, m);
            }
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best.0 <= orig_alpha {
            Bound::Upper
        } else if best.0 >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.put(Entry { key: pos.hash(), score: to_tt(best.0, 0), depth: depth as i16, bound, best: Some(best.1) });
        best
    }

    /// The value for `persp` of `child`, reached by a ply of `persp`.
    #[allow(clippy::too_many_arguments)]
    fn child_value(
        &mut self,
        child: &Position,
        persp: Color,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: u32,
        pv: bool,
    ) -> i32 {
        if let Some(s) = decided(child, persp, ply) {
            self.tick();
            return s;
        }
        if child.side_to_move() == persp {
            self.negamax(child, depth, alpha, beta, ply, pv)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply, pv)
        }
    }

    /// The quiescence value for `persp` of `child`, reached by a ply of `persp`.
    fn child_qvalue(&mut self, child: &Position, persp: Color, alpha: i32, beta: i32, ply: u32, qply: u32) -> i32 {
        if let Some(s) = decided(child, persp, ply) {
            self.tick();
            return s;
        }
        if child.side_to_move() == persp {
            self.qsearch(child, alpha, beta, ply, qply)
        } else {
            -self.qsearch(child, -beta, -alpha, ply, qply)
        }
    }

    fn history_index(c: Color, m: Move) -> usize {
        c.index() * 65_536 + m.from.raw() as usize * 256 + m.to.raw() as usize
    }

    /// Negamax value of the unfinished `pos` for its side to move.
    #[allow(clippy::too_many_arguments)]
    fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, mut beta: i32, ply: u32, pv: bool) -> i32 {
        if depth <= 0 || ply as usize >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.tick();
        if self.aborted {
            return 0;
        }
        let me = pos.side_to_move();
        let key = pos.hash();
        let entry = self.tt.get(key);
        if let Some(e) = entry
            && !pv
            && e.depth as i32 >= depth
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

        let mut moves = Vec::new();
        moves_with_effects(pos, &mut moves);
        if moves.is_empty() {
            return self.evaluate(pos, &moves);
        }

        if self.cfg.options.null_move && !pv && depth >= 3 && !pos.is_placement_phase() && pos.pending().is_none() {
            let stand = self.evaluate(pos, &moves);
            if stand >= beta {
                let passed = pos.with_turn_passed();
                let r = 2 + depth / 6;
                let s = self.child_value(&passed, me, depth - 1 - r, beta - 1, beta, ply + 1, false);
                if self.aborted {
                    return 0;
                }
                if s >= beta && s.abs() < WIN_BOUND {
                    return s;
                }
            }
        }

        let tt_move = entry.and_then(|e| e.best);
        let killers = self.killers[ply as usize];
        let mut keyed: Vec<(i32, Move, bool)> = moves
            .iter()
            .map(|&(m, n)| {
                let tactical = n > 0;
                let k = if Some(m) == tt_move {
                    1 << 30
                } else if tactical {
                    (1 << 24) + n as i32 * 1000
                } else if self.cfg.options.killers && (killers[0] == Some(m) || killers[1] == Some(m)) {
                    1 << 22
                } else if self.cfg.options.history {
                    self.history[Self::history_index(me, m)].min((1 << 22) - 1)
                } else {
                    0
                };
                (k, m, tactical)
            })
            .collect();
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));

        let orig_alpha = alpha;
        let (mut best, mut best_move) = (-INF, keyed[0].1);
        for (i, &(_, mv, tactical)) in keyed.iter().enumerate() {
            let mut child = pos.clone();
            child.play(mv);
            let quiet = !tactical && Some(mv) != tt_move;
            let s = if i == 0 || !self.cfg.options.pvs {
                self.child_value(&child, me, depth - 1, alpha, beta, ply + 1, pv)
            } else {
                let reduce = if self.cfg.options.lmr && depth >= 3 && i >= 3 && quiet && child.outcome().is_none() {
                    if i >= 8 && depth >= 5 { 2 } else { 1 }
                } else {
                    0
                };
                let mut s = self.child_value(&child, me, depth - 1 - reduce, alpha, alpha + 1, ply + 1, false);
                if reduce > 0 && s > alpha && !self.aborted {
                    s = self.child_value(&child, me, depth - 1, alpha, alpha + 1, ply + 1, false);
                }
                if s > alpha && s < beta && pv && !self.aborted {
                    s = self.child_value(&child, me, depth - 1, alpha, beta, ply + 1, true);
                }
                s
            };
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = mv;
            }
            if s > alpha {
                alpha = s;
            }
            if alpha >= beta {
                if quiet && !self.frozen {
                    if self.cfg.options.killers {
                        let k = &mut self.killers[ply as usize];
                        if k[0] != Some(mv) {
                            k[1] = k[0];
                            k[0] = Some(mv);
                        }
                    }
                    if self.cfg.options.history {
                        let h = &mut self.history[Self::history_index(me, mv)];
                        *h = (*h + depth * depth).min(1 << 21);
                    }
                }
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
        if !self.frozen {
            self.tt.put(Entry { key, score: to_tt(best, ply), depth: depth as i16, bound, best: Some(best_move) });
        }
        best
    }

    /// Whether `mv` fills the last empty neighbour of the enemy Dux (a possible
    /// immobilising move) under a ruleset where immobilisation wins.
    fn may_immobilise(pos: &Position, mv: Move) -> bool {
        if pos.rules().end.dux_immobilized == Immobilization::Off || mv.kind == MoveKind::Remove {
            return false;
        }
        let Some(d) = pos.dux_square(pos.side_to_move().opponent()) else {
            return false;
        };
        let (df, dr) = (mv.to.file() as i32 - d.file() as i32, mv.to.rank() as i32 - d.rank() as i32);
        if df.abs() + dr.abs() != 1 {
            return false;
        }
        let (empty_neighbours, _) = dux_surroundings(pos, pos.side_to_move().opponent());
        empty_neighbours <= 2
    }

    /// Quiescence: the static evaluation, or better by a capture, trap, removal or
    /// immobilising move.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: u32, qply: u32) -> i32 {
        self.tick();
        if self.aborted {
            return 0;
        }
        let mut moves = Vec::new();
        moves_with_effects(pos, &mut moves);
        let stand = self.evaluate(pos, &moves);
        if !self.cfg.options.quiescence || qply >= MAX_QPLY || ply as usize >= MAX_PLY || stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let me = pos.side_to_move();
        let mut tactical: Vec<(u8, Move)> =
            moves.iter().filter(|&&(m, n)| n > 0 || Self::may_immobilise(pos, m)).map(|&(m, n)| (n, m)).collect();
        tactical.sort_by_key(|k| std::cmp::Reverse(k.0));
        let mut best = stand;
        for (_, mv) in tactical {
            let mut child = pos.clone();
            child.play(mv);
            let s = self.child_qvalue(&child, me, alpha, beta, ply + 1, qply + 1);
            if self.aborted {
                return 0;
            }
            best = best.max(s);
            alpha = alpha.max(s);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The principal variation: `first`, then the table's best moves while legal.
    fn principal_variation(&self, pos: &Position, first: Move, max: usize) -> Vec<Move> {
        let mut pv = vec![first];
        let mut p = pos.clone();
        p.play(first);
        while pv.len() < max && !p.is_over() {
            let Some(m) = self.tt.get(p.hash()).and_then(|e| e.best) else {
                break;
            };
            if !p.is_legal(m) {
                break;
            }
            p.play(m);
            pv.push(m);
        }
        pv
    }
}

//! PUCT Monte-Carlo tree search guided by a policy–value [`Evaluator`], batched across
//! many games.
//!
//! Search is split into **gather** and **apply** (as in kZero): [`Tree::gather`] descends
//! one game's tree (several times, with virtual loss) and writes the observation of every
//! new leaf into the tree's buffer; [`search`] concatenates the leaves of all games into
//! one batch, runs the evaluator once, and [`Tree::apply`] expands each leaf with the
//! masked, softmaxed policy and backs up its value. Finished games found while
//! descending are scored by the rules and backed up at once, without the network.
//!
//! Values are kept per player (each node stores the value for the player who made its
//! move), so placement schedules in which one player moves twice in a row are handled.
//! A tree can be kept between moves ([`Tree::advance`]): the chosen child's subtree
//! becomes the new root, compacted into a fresh arena.

use latrunculi_rules::{Color, Move, Position};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_distr::{Distribution, Gamma};
use rayon::prelude::*;

use crate::AzError;
use crate::gumbel::{GumbelConfig, Halving, RootChild};
use crate::model::{Evaluation, Network};

mod config;
mod tables;

pub use config::{Fpu, SearchConfig};
pub use tables::BoardTables;

/// Something that scores a batch of observations: policy logits (`batch × outputs`,
/// row-major, laid out as [`BoardTables::logit`] says), values for the side to move
/// (`batch`) and, optionally, predicted material scores (`batch`, or empty).
pub trait Evaluator: Sync {
    /// Evaluates `batch` observations of shape `shape`, given flat.
    fn evaluate(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<Evaluation, AzError>;
}

impl Evaluator for Network {
    fn evaluate(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<Evaluation, AzError> {
        self.infer(obs, batch, shape)
    }
}

/// A network that knows nothing: equal logits for every output and value 0.
#[derive(Clone, Copy, Debug)]
pub struct UniformEvaluator {
    /// Policy outputs ([`BoardTables::outputs`]).
    pub actions: usize,
}

impl Evaluator for UniformEvaluator {
    fn evaluate(&self, _obs: Vec<f32>, batch: usize, _shape: [usize; 3]) -> Result<Evaluation, AzError> {
        Ok(Evaluation { logits: vec![0.0; batch * self.actions], values: vec![0.0; batch], scores: Vec::new() })
    }
}

/// The expansion state of a node.
#[derive(Clone, Copy, Debug, PartialEq)]
enum State {
    /// Not yet evaluated.
    Fresh,
    /// A leaf waiting for the network in the current batch.
    Pending,
    /// Children created.
    Expanded,
    /// The game is over here; the value for the node's mover.
    Terminal(f32),
}

/// One node of a tree, in a `Vec` arena; children are contiguous.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// The move from the parent (unused at the root).
    mv: Move,
    /// The player who made `mv`, for whom `w` is kept.
    mover: Color,
    prior: f32,
    n: u32,
    w: f32,
    /// Pending (virtual) visits.
    vl: u32,
    first: u32,
    count: u32,
    state: State,
    /// The network's value of this node's position, for the side to move there.
    v: f32,
}

impl Node {
    /// A node not yet visited nor evaluated.
    fn fresh(mv: Move, mover: Color, prior: f32) -> Node {
        Node { mv, mover, prior, n: 0, w: 0.0, vl: 0, first: 0, count: 0, state: State::Fresh, v: 0.0 }
    }
}

/// A leaf waiting for evaluation.
#[derive(Clone, Debug)]
struct Leaf {
    path: Vec<u32>,
    moves: Vec<Move>,
    /// With the win check: which of `moves` win at once (else empty).
    wins: Vec<bool>,
    to_move: Color,
}

/// Which of `moves` (legal in `pos`) end the game with a win for the side to move.
pub fn winning_moves(pos: &Position, moves: &[Move]) -> Vec<bool> {
    let me = pos.side_to_move();
    let mut after = pos.clone();
    moves
        .iter()
        .map(|&mv| {
            after.clone_from(pos);
            after.play(mv);
            after.outcome().is_some_and(|o| o.winner == Some(me))
        })
        .collect()
}

/// A finished game's value for `player`: +1 won, −1 lost, 0 drawn (`winner` `None`).
pub fn result_value(winner: Option<Color>, player: Color) -> f32 {
    match winner {
        Some(c) if c == player => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// The search tree of one game.
#[derive(Debug)]
pub struct Tree {
    nodes: Vec<Node>,
    root: Position,
    leaves: Vec<Leaf>,
    obs: Vec<f32>,
    rng: StdRng,
    /// Whether root noise should be mixed in when the root gets its children.
    noise: bool,
    /// Root visits to search to, if not `SearchConfig::sims`.
    budget: Option<u32>,
    /// The sequential-halving schedule of a Gumbel search at the current root.
    halving: Option<Halving>,
    /// The Gumbel settings of the last search that used them.
    gumbel_cfg: Option<GumbelConfig>,
    /// Whether the last search ran the win check (then `choose` plays a known win).
    win_check: bool,
}

/// One root child after a search: its move, visits and prior.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildStats {
    /// The move.
    pub mv: Move,
    /// Visits.
    pub visits: u32,
    /// Prior probability (after root noise).
    pub prior: f32,
    /// Mean value for the side to move at the root (0 if unvisited).
    pub q: f32,
}

impl Tree {
    /// A new tree for `root` (a position that is not over). With `noise`, Dirichlet noise
    /// (per [`SearchConfig`]) is mixed into the priors of every root this tree gets.
    pub fn new(root: Position, seed: u64, noise: bool) -> Tree {
        let mut t = Tree {
            nodes: Vec::new(),
            root,
            leaves: Vec::new(),
            obs: Vec::new(),
            rng: StdRng::seed_from_u64(seed),
            noise,
            budget: None,
            halving: None,
            gumbel_cfg: None,
            win_check: false,
        };
        t.reset_nodes();
        t
    }

    fn reset_nodes(&mut self) {
        self.halving = None;
        self.nodes.clear();
        let dummy = Move::remove(latrunculi_rules::Square::new(0, 0).expect("a1 exists"));
        self.nodes.push(Node::fresh(dummy, self.root.side_to_move().opponent(), 1.0));
    }

    /// The root position.
    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Visits of the root.
    pub fn root_visits(&self) -> u32 {
        self.nodes[0].n
    }

    /// Nodes in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the arena holds only the root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The root's children with their visits, priors and values (empty before the root
    /// is expanded).
    pub fn root_children(&self) -> Vec<ChildStats> {
        let r = &self.nodes[0];
        if r.state != State::Expanded {
            return Vec::new();
        }
        (r.first..r.first + r.count)
            .map(|i| {
                let c = &self.nodes[i as usize];
                ChildStats { mv: c.mv, visits: c.n, prior: c.prior, q: if c.n > 0 { c.w / c.n as f32 } else { 0.0 } }
            })
            .collect()
    }

    fn backup(&mut self, path: &[u32], value: f32, player: Color, undo_virtual: bool) {
        for &i in path {
            let node = &mut self.nodes[i as usize];
            if undo_virtual {
                node.vl = node.vl.saturating_sub(1);
            }
            node.n += 1;
            node.w += if node.mover == player { value } else { -value };
        }
    }

    fn select_child(&self, parent: u32, cfg: &SearchConfig) -> u32 {
        let p = &self.nodes[parent as usize];
        let sqrt_n = ((p.n + p.vl) as f32).max(1.0).sqrt();
        let mut best = (f32::NEG_INFINITY, p.first);
        let fpu = match cfg.fpu {
            Fpu::Value(v) => v,
            Fpu::ParentMinus(r) => {
                // The parent's mean value for the player choosing among its children.
                let chooser = self.nodes[p.first as usize].mover;
                let q = if p.n > 0 { p.w / p.n as f32 } else { 0.0 };
                (if p.mover == chooser { q } else { -q }) - r
            }
        };
        for i in p.first..p.first + p.count {
            let c = &self.nodes[i as usize];
            let n_eff = c.n + c.vl;
            let q = match (n_eff, c.state) {
                (0, State::Terminal(v)) => v,
                (0, _) => fpu,
                _ => (c.w - c.vl as f32 * cfg.virtual_loss) / n_eff as f32,
            };
            let score = q + cfg.c_puct * c.prior * sqrt_n / (1 + n_eff) as f32;
            if score > best.0 {
                best = (score, i);
            }
        }
        best.1
    }

    /// Descends up to `cfg.leaves_per_round` times, writing new leaves' observations into
    /// this tree's buffer; finished games met on the way are backed up at once. Returns
    /// the number of leaves waiting for evaluation.
    pub fn gather(&mut self, cfg: &SearchConfig, tables: &BoardTables) -> Result<usize, AzError> {
        self.leaves.clear();
        self.obs.clear();
        self.win_check = cfg.win_check;
        let budget = self.budget(cfg);
        for _ in 0..cfg.leaves_per_round.max(1) {
            if self.nodes[0].n + self.pending() >= budget {
                break;
            }
            let mut pos = self.root.clone();
            let mut path = vec![0u32];
            let mut node = 0u32;
            let collided = loop {
                match self.nodes[node as usize].state {
                    State::Expanded if node == 0 && cfg.gumbel.is_some() => {
                        let g = cfg.gumbel.unwrap_or_default();
                        let children = self.gumbel_children();
                        let pending = !self.leaves.is_empty();
                        self.gumbel_cfg = Some(g);
                        if self.halving.is_none() {
                            let left = budget.saturating_sub(self.nodes[0].n);
                            self.halving = Some(Halving::new(&children, &g, left, &mut self.rng));
                        }
                        let Some(i) = self.halving.as_mut().and_then(|h| h.next(&children, &g, pending)) else {
                            break true;
                        };
                        node = self.nodes[0].first + i as u32;
                        pos.play(self.nodes[node as usize].mv);
                        path.push(node);
                    }
                    State::Expanded => {
                        node = self.select_child(node, cfg);
                        pos.play(self.nodes[node as usize].mv);
                        path.push(node);
                    }
                    State::Terminal(v) => {
                        let mover = self.nodes[node as usize].mover;
                        self.backup(&path, v, mover, false);
                        break false;
                    }
                    State::Pending => break true,
                    State::Fresh => {
                        if let Some(outcome) = pos.outcome() {
                            let mover = self.nodes[node as usize].mover;
                            let v = result_value(outcome.winner, mover);
                            self.nodes[node as usize].state = State::Terminal(v);
                            self.backup(&path, v, mover, false);
                            break false;
                        }
                        let mut moves = Vec::new();
                        pos.legal_moves(&mut moves);
                        let wins = if cfg.win_check { winning_moves(&pos, &moves) } else { Vec::new() };
                        if node != 0 && wins.contains(&true) {
                            // The side to move wins next ply: a proven value, no network.
                            let mover = self.nodes[node as usize].mover;
                            let v = result_value(Some(pos.side_to_move()), mover);
                            self.nodes[node as usize].state = State::Terminal(v);
                            self.backup(&path, v, mover, false);
                            break false;
                        }
                        self.nodes[node as usize].state = State::Pending;
                        for &i in &path {
                            self.nodes[i as usize].vl += 1;
                        }
                        let start = self.obs.len();
                        self.obs.resize(start + tables.obs_len(), 0.0);
                        tables.write_observation(&pos, &mut self.obs[start..])?;
                        self.leaves.push(Leaf { path, moves, wins, to_move: pos.side_to_move() });
                        break false;
                    }
                }
            };
            if collided {
                break;
            }
        }
        Ok(self.leaves.len())
    }

    fn pending(&self) -> u32 {
        self.leaves.len() as u32
    }

    /// Root visits this tree searches to: its own budget if set, else `cfg.sims`.
    fn budget(&self, cfg: &SearchConfig) -> u32 {
        self.budget.unwrap_or(cfg.sims).max(1)
    }

    /// Sets the root visits of the next searches (`None`: `SearchConfig::sims`); used by
    /// self-play's playout-cap randomisation.
    pub fn set_budget(&mut self, sims: Option<u32>) {
        self.budget = sims;
    }

    /// Whether the search still has work at this tree's root.
    fn wants_search(&self, cfg: &SearchConfig) -> bool {
        self.root_visits() < self.budget(cfg) && !self.root.is_over()
    }

    /// Expands this tree's pending leaves with the evaluator's outputs (`logits`:
    /// `leaves × outputs`, `values` and `scores`: `leaves`, `scores` may be empty) and
    /// backs up their values.
    pub fn apply(
        &mut self,
        logits: &[f32],
        values: &[f32],
        scores: &[f32],
        cfg: &SearchConfig,
        tables: &BoardTables,
    ) -> Result<(), AzError> {
        let outputs = tables.outputs();
        let leaves = std::mem::take(&mut self.leaves);
        if logits.len() != leaves.len() * outputs
            || values.len() != leaves.len()
            || !(scores.is_empty() || scores.len() == leaves.len())
        {
            return Err(AzError::Tensor(format!(
                "evaluator returned {} logits, {} values and {} scores for {} leaves of {outputs} outputs",
                logits.len(),
                values.len(),
                scores.len(),
                leaves.len()
            )));
        }
        for (k, leaf) in leaves.iter().enumerate() {
            let row = &logits[k * outputs..(k + 1) * outputs];
            let node = *leaf.path.last().unwrap_or(&0);
            let first = self.nodes.len() as u32;
            let mut max = f32::NEG_INFINITY;
            let raw: Vec<f32> = leaf
                .moves
                .iter()
                .map(|&mv| {
                    // A move without a logit (none exists in any ruleset) gets the least prior.
                    let l = tables.logit(mv, leaf.to_move).map_or(-30.0, |i| row[i]);
                    max = max.max(l);
                    l
                })
                .collect();
            let mut sum = 0.0;
            let exp: Vec<f32> = raw
                .iter()
                .map(|&l| {
                    let e = (l - max).exp();
                    sum += e;
                    e
                })
                .collect();
            for (j, (&mv, e)) in leaf.moves.iter().zip(exp).enumerate() {
                let prior = if sum > 0.0 { e / sum } else { 1.0 / leaf.moves.len() as f32 };
                let mut child = Node::fresh(mv, leaf.to_move, prior);
                if leaf.wins.get(j) == Some(&true) {
                    // Known before its first visit: a win for its mover.
                    child.state = State::Terminal(1.0);
                }
                self.nodes.push(child);
            }
            let nd = &mut self.nodes[node as usize];
            nd.first = first;
            nd.count = leaf.moves.len() as u32;
            nd.state = State::Expanded;
            if node == 0 && self.root_noise(cfg) {
                self.add_root_noise(cfg);
            }
            let score = scores.get(k).copied().unwrap_or(0.0);
            let v = (values[k] + cfg.score_utility * score).clamp(-1.0, 1.0);
            let v = if v.is_finite() { v } else { 0.0 };
            self.nodes[node as usize].v = v;
            self.backup(&leaf.path, if v.is_finite() { v } else { 0.0 }, leaf.to_move, true);
        }
        self.leaves = leaves;
        self.leaves.clear();
        self.obs.clear();
        Ok(())
    }

    /// Whether this tree mixes Dirichlet noise into its root's priors: only a tree made
    /// with noise, and only under PUCT at the root (the Gumbel root search explores by its
    /// Gumbel draws, and its improved policy must be computed from the network's priors).
    fn root_noise(&self, cfg: &SearchConfig) -> bool {
        self.noise && cfg.gumbel.is_none()
    }

    /// Mixes Dirichlet noise into the root's priors (AlphaZero's exploration noise).
    fn add_root_noise(&mut self, cfg: &SearchConfig) {
        let r = self.nodes[0];
        if cfg.dirichlet_frac <= 0.0 || r.count == 0 || r.state != State::Expanded {
            return;
        }
        let alpha = if cfg.dirichlet_alpha > 0.0 { cfg.dirichlet_alpha } else { 10.0 / r.count as f32 };
        let Ok(gamma) = Gamma::new(alpha.max(1e-3) as f64, 1.0) else {
            return;
        };
        let samples: Vec<f64> = (0..r.count).map(|_| gamma.sample(&mut self.rng)).collect();
        let total: f64 = samples.iter().sum();
        if total <= 0.0 || !total.is_finite() {
            return;
        }
        let f = cfg.dirichlet_frac;
        for (i, s) in (r.first..r.first + r.count).zip(samples) {
            let c = &mut self.nodes[i as usize];
            c.prior = (1.0 - f) * c.prior + f * (s / total) as f32;
        }
    }

    /// The observations of the pending leaves, flat.
    pub fn pending_observations(&self) -> &[f32] {
        &self.obs
    }

    /// Plays `mv` at the root, keeping the subtree below it (if the root was expanded
    /// and `mv` is one of its children) and dropping the rest. Root noise, when enabled
    /// (under PUCT at the root only), is mixed into the new root's priors if it already
    /// has children.
    pub fn advance(&mut self, mv: Move, cfg: &SearchConfig) {
        let r = self.nodes[0];
        let child = if r.state == State::Expanded {
            (r.first..r.first + r.count).find(|&i| self.nodes[i as usize].mv == mv)
        } else {
            None
        };
        self.root.play(mv);
        match child {
            Some(c) if self.nodes[c as usize].state == State::Expanded => {
                self.compact_from(c);
                if self.root_noise(cfg) {
                    self.add_root_noise(cfg);
                }
            }
            _ => self.reset_nodes(),
        }
    }

    /// Moves the root to `pos` if it is reached from the current root by one or two
    /// moves (the agent's move and the reply), keeping that subtree; otherwise starts a
    /// fresh tree at `pos`.
    pub fn advance_to(&mut self, pos: &Position, cfg: &SearchConfig) {
        if pos.hash() == self.root.hash() && pos.ply() == self.root.ply() {
            return;
        }
        let found = self.find_descendant(pos, 2);
        match found {
            Some(path) => {
                for mv in path {
                    self.advance(mv, cfg);
                }
            }
            None => {
                self.root = pos.clone();
                self.reset_nodes();
            }
        }
    }

    fn find_descendant(&self, target: &Position, depth: u32) -> Option<Vec<Move>> {
        let mut frontier: Vec<(u32, Position, Vec<Move>)> = vec![(0, self.root.clone(), Vec::new())];
        for _ in 0..depth {
            let mut next = Vec::new();
            for (node, pos, path) in frontier {
                let nd = self.nodes[node as usize];
                if nd.state != State::Expanded {
                    continue;
                }
                for i in nd.first..nd.first + nd.count {
                    let mv = self.nodes[i as usize].mv;
                    let mut p = pos.clone();
                    p.play(mv);
                    let mut moves = path.clone();
                    moves.push(mv);
                    if p.hash() == target.hash() && p.ply() == target.ply() {
                        return Some(moves);
                    }
                    next.push((i, p, moves));
                }
            }
            frontier = next;
        }
        None
    }

    /// Rebuilds the arena with node `c`'s subtree, `c` becoming the root.
    fn compact_from(&mut self, c: u32) {
        self.halving = None;
        let mut out: Vec<Node> = Vec::with_capacity(self.nodes.len() / 4 + 1);
        out.push(self.nodes[c as usize]);
        let mut k = 0;
        while k < out.len() {
            let nd = out[k];
            if nd.count > 0 {
                let first = out.len() as u32;
                out.extend_from_slice(&self.nodes[nd.first as usize..(nd.first + nd.count) as usize]);
                out[k].first = first;
            }
            k += 1;
        }
        self.nodes = out;
    }

    /// The root's children as Gumbel search sees them (log prior, visits, value).
    fn gumbel_children(&self) -> Vec<RootChild> {
        let r = &self.nodes[0];
        (r.first..r.first + r.count)
            .map(|i| {
                let c = &self.nodes[i as usize];
                RootChild {
                    logit: c.prior.max(1e-12).ln(),
                    visits: c.n,
                    q: if c.n > 0 { c.w / c.n as f32 } else { 0.0 },
                }
            })
            .collect()
    }

    /// The Gumbel search's improved policy over the root's moves (summing to 1), or
    /// `None` before the root is expanded.
    pub fn improved_policy(&self, cfg: &GumbelConfig) -> Option<Vec<(Move, f32)>> {
        let r = &self.nodes[0];
        if r.state != State::Expanded || r.count == 0 {
            return None;
        }
        let p = crate::gumbel::improved_policy(&self.gumbel_children(), cfg, r.v);
        Some((r.first..r.first + r.count).map(|i| self.nodes[i as usize].mv).zip(p).collect())
    }

    /// The move to play. After a Gumbel search: the sequential-halving winner (whatever
    /// the temperature; the Gumbel noise is the exploration). Otherwise with
    /// `temperature` 0 the most visited root child (ties broken by the higher prior, then
    /// at random), else a child drawn with probability ∝ visits^(1/temperature). `None` if
    /// the root has no children.
    pub fn choose(&mut self, temperature: f32) -> Option<Move> {
        let children = self.root_children();
        if children.is_empty() {
            return None;
        }
        if self.win_check {
            let r = &self.nodes[0];
            if let Some(i) =
                (r.first..r.first + r.count).find(|&i| self.nodes[i as usize].state == State::Terminal(1.0))
            {
                return Some(self.nodes[i as usize].mv);
            }
        }
        if let (Some(h), Some(g)) = (&self.halving, self.gumbel_cfg) {
            let i = h.choice(&self.gumbel_children(), &g)?;
            return Some(children[i].mv);
        }
        use rand::RngExt;
        if temperature <= 1e-3 {
            // The most visits, then the highest prior (with a single simulation no child
            // is visited, and the move is the network's own choice), then at random.
            let best =
                children.iter().map(|c| (c.visits, c.prior)).max_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)))?;
            let ties: Vec<&ChildStats> = children.iter().filter(|c| (c.visits, c.prior) == best).collect();
            let k = self.rng.random_range(0..ties.len());
            return Some(ties[k].mv);
        }
        let weights: Vec<f64> = children.iter().map(|c| (c.visits as f64).powf(1.0 / temperature as f64)).collect();
        let total: f64 = weights.iter().sum();
        if total <= 0.0 {
            let k = self.rng.random_range(0..children.len());
            return Some(children[k].mv);
        }
        let mut x = self.rng.random::<f64>() * total;
        for (c, w) in children.iter().zip(&weights) {
            if x < *w {
                return Some(c.mv);
            }
            x -= w;
        }
        children.last().map(|c| c.mv)
    }
}

/// Work done by [`search`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Leaves evaluated by the network.
    pub evaluations: u64,
    /// Batches sent to the network.
    pub batches: u64,
}

/// Runs the search on every tree until each root has `cfg.sims` visits, evaluating the
/// leaves of all trees together in batches.
pub fn search(
    trees: &mut [Tree],
    evaluator: &dyn Evaluator,
    cfg: &SearchConfig,
    tables: &BoardTables,
) -> Result<SearchStats, AzError> {
    let mut stats = SearchStats::default();
    loop {
        let active = trees.iter().filter(|t| t.wants_search(cfg)).count();
        if active == 0 {
            return Ok(stats);
        }
        let counts: Vec<usize> = trees
            .par_iter_mut()
            .map(|t| if t.wants_search(cfg) { t.gather(cfg, tables) } else { Ok(0) })
            .collect::<Result<_, _>>()?;
        let total: usize = counts.iter().sum();
        if total == 0 {
            continue;
        }
        let mut batch = Vec::with_capacity(total * tables.obs_len());
        for (t, &c) in trees.iter().zip(&counts) {
            if c > 0 {
                batch.extend_from_slice(t.pending_observations());
            }
        }
        let Evaluation { logits, values, scores } = evaluator.evaluate(batch, total, tables.shape)?;
        stats.evaluations += total as u64;
        stats.batches += 1;
        let outputs = tables.outputs();
        let mut offsets = Vec::with_capacity(trees.len());
        let mut at = 0;
        for &c in &counts {
            offsets.push(at);
            at += c;
        }
        trees.par_iter_mut().zip(counts.par_iter().zip(offsets.par_iter())).try_for_each(|(t, (&c, &o))| {
            if c == 0 {
                return Ok(());
            }
            let s = if scores.is_empty() { &[][..] } else { &scores[o..o + c] };
            t.apply(&logits[o * outputs..(o + c) * outputs], &values[o..o + c], s, cfg, tables)
        })?;
    }
}

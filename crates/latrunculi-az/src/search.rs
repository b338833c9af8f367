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
use latrunculi_sim::{ActionSpace, ObservationEncoder};
use ndarray::ArrayViewMut3;
use rand::SeedableRng;
use rand::rngs::StdRng;
use rand_distr::{Distribution, Gamma};
use rayon::prelude::*;

use crate::AzError;
use crate::frame::ActionFrame;
use crate::model::Network;

/// Something that scores a batch of observations: policy logits in the relative frame
/// (`batch × actions`, row-major) and values for the side to move (`batch`).
pub trait Evaluator: Sync {
    /// Evaluates `batch` observations of shape `shape`, given flat.
    fn evaluate(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<(Vec<f32>, Vec<f32>), AzError>;
}

impl Evaluator for Network {
    fn evaluate(&self, obs: Vec<f32>, batch: usize, shape: [usize; 3]) -> Result<(Vec<f32>, Vec<f32>), AzError> {
        self.infer(obs, batch, shape)
    }
}

/// A network that knows nothing: equal logits for every action and value 0.
#[derive(Clone, Copy, Debug)]
pub struct UniformEvaluator {
    /// Actions of the board size.
    pub actions: usize,
}

impl Evaluator for UniformEvaluator {
    fn evaluate(&self, _obs: Vec<f32>, batch: usize, _shape: [usize; 3]) -> Result<(Vec<f32>, Vec<f32>), AzError> {
        Ok((vec![0.0; batch * self.actions], vec![0.0; batch]))
    }
}

/// Search parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Visits of the root to reach before a move is chosen (visits kept from the
    /// previous move's tree count).
    pub sims: u32,
    /// Exploration constant of PUCT: `Q + c_puct · P · sqrt(N_parent) / (1 + n)`.
    pub c_puct: f32,
    /// Leaves gathered per tree per batch (more than 1 uses virtual loss).
    pub leaves_per_round: u32,
    /// Virtual loss added per pending visit (counted as a loss for the node's mover).
    pub virtual_loss: f32,
    /// Value assumed for a child never visited (first-play urgency).
    pub fpu: f32,
    /// Dirichlet concentration of the root noise.
    pub dirichlet_alpha: f32,
    /// Weight of the root noise in the priors (0: no noise).
    pub dirichlet_frac: f32,
}

impl Default for SearchConfig {
    /// 200 simulations, `c_puct` 1.5, 8 leaves per round, virtual loss 1, FPU 0, no noise.
    fn default() -> SearchConfig {
        SearchConfig {
            sims: 200,
            c_puct: 1.5,
            leaves_per_round: 8,
            virtual_loss: 1.0,
            fpu: 0.0,
            dirichlet_alpha: 0.3,
            dirichlet_frac: 0.0,
        }
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
}

impl Node {
    /// A node not yet visited nor evaluated.
    fn fresh(mv: Move, mover: Color, prior: f32) -> Node {
        Node { mv, mover, prior, n: 0, w: 0.0, vl: 0, first: 0, count: 0, state: State::Fresh }
    }
}

/// A leaf waiting for evaluation.
#[derive(Clone, Debug)]
struct Leaf {
    path: Vec<u32>,
    moves: Vec<Move>,
    to_move: Color,
}

/// A finished game's value for `player`: +1 won, −1 lost, 0 drawn (`winner` `None`).
pub fn result_value(winner: Option<Color>, player: Color) -> f32 {
    match winner {
        Some(c) if c == player => 1.0,
        Some(_) => -1.0,
        None => 0.0,
    }
}

/// Static facts about the board that every tree of a search needs.
#[derive(Clone, Debug)]
pub struct BoardTables {
    /// Observation encoder.
    pub encoder: ObservationEncoder,
    /// Action tables.
    pub frame: ActionFrame,
    /// Observation shape `[planes, H, W]`.
    pub shape: [usize; 3],
}

impl BoardTables {
    /// The tables of a ruleset's board.
    pub fn new(ruleset: &latrunculi_rules::Ruleset) -> BoardTables {
        let encoder = ObservationEncoder::new(ruleset);
        let space = ActionSpace::for_rules(&ruleset.rules());
        BoardTables { encoder, frame: ActionFrame::new(space), shape: encoder.shape() }
    }

    /// Floats in one observation.
    pub fn obs_len(&self) -> usize {
        self.shape.iter().product()
    }

    /// Number of actions.
    pub fn actions(&self) -> usize {
        self.frame.size()
    }

    /// Writes the observation of `pos` into `out` (exactly [`BoardTables::obs_len`] values).
    pub fn write_observation(&self, pos: &Position, out: &mut [f32]) -> Result<(), AzError> {
        let view = ArrayViewMut3::from_shape(self.shape, out).map_err(|e| AzError::Tensor(e.to_string()))?;
        self.encoder.write(pos, view).map_err(|e| AzError::Tensor(e.to_string()))
    }

    /// The observation of `pos`, as a new vector.
    pub fn observation(&self, pos: &Position) -> Result<Vec<f32>, AzError> {
        let mut out = vec![0.0; self.obs_len()];
        self.write_observation(pos, &mut out)?;
        Ok(out)
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
        };
        t.reset_nodes();
        t
    }

    fn reset_nodes(&mut self) {
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
        for i in p.first..p.first + p.count {
            let c = &self.nodes[i as usize];
            let n_eff = c.n + c.vl;
            let q = if n_eff == 0 { cfg.fpu } else { (c.w - c.vl as f32 * cfg.virtual_loss) / n_eff as f32 };
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
        for _ in 0..cfg.leaves_per_round.max(1) {
            if self.nodes[0].n + self.pending() >= cfg.sims.max(1) {
                break;
            }
            let mut pos = self.root.clone();
            let mut path = vec![0u32];
            let mut node = 0u32;
            let collided = loop {
                match self.nodes[node as usize].state {
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
                        self.nodes[node as usize].state = State::Pending;
                        for &i in &path {
                            self.nodes[i as usize].vl += 1;
                        }
                        let start = self.obs.len();
                        self.obs.resize(start + tables.obs_len(), 0.0);
                        tables.write_observation(&pos, &mut self.obs[start..])?;
                        let mut moves = Vec::new();
                        pos.legal_moves(&mut moves);
                        self.leaves.push(Leaf { path, moves, to_move: pos.side_to_move() });
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

    /// Expands this tree's pending leaves with the evaluator's outputs (`logits`:
    /// `leaves × actions`, `values`: `leaves`) and backs up their values.
    pub fn apply(
        &mut self,
        logits: &[f32],
        values: &[f32],
        cfg: &SearchConfig,
        tables: &BoardTables,
    ) -> Result<(), AzError> {
        let actions = tables.actions();
        let leaves = std::mem::take(&mut self.leaves);
        if logits.len() != leaves.len() * actions || values.len() != leaves.len() {
            return Err(AzError::Tensor(format!(
                "evaluator returned {} logits and {} values for {} leaves of {actions} actions",
                logits.len(),
                values.len(),
                leaves.len()
            )));
        }
        let space = tables.frame.space();
        for (k, leaf) in leaves.iter().enumerate() {
            let row = &logits[k * actions..(k + 1) * actions];
            let node = *leaf.path.last().unwrap_or(&0);
            let first = self.nodes.len() as u32;
            let mut max = f32::NEG_INFINITY;
            let raw: Vec<f32> = leaf
                .moves
                .iter()
                .map(|&mv| {
                    let l = row[tables.frame.relative(space.encode(mv), leaf.to_move)];
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
            for (&mv, e) in leaf.moves.iter().zip(exp) {
                let prior = if sum > 0.0 { e / sum } else { 1.0 / leaf.moves.len() as f32 };
                self.nodes.push(Node::fresh(mv, leaf.to_move, prior));
            }
            let nd = &mut self.nodes[node as usize];
            nd.first = first;
            nd.count = leaf.moves.len() as u32;
            nd.state = State::Expanded;
            if node == 0 && self.noise {
                self.add_root_noise(cfg);
            }
            let v = values[k].clamp(-1.0, 1.0);
            self.backup(&leaf.path, if v.is_finite() { v } else { 0.0 }, leaf.to_move, true);
        }
        self.leaves = leaves;
        self.leaves.clear();
        self.obs.clear();
        Ok(())
    }

    /// Mixes Dirichlet noise into the root's priors (AlphaZero's exploration noise).
    fn add_root_noise(&mut self, cfg: &SearchConfig) {
        let r = self.nodes[0];
        if cfg.dirichlet_frac <= 0.0 || r.count == 0 || r.state != State::Expanded {
            return;
        }
        let Ok(gamma) = Gamma::new(cfg.dirichlet_alpha.max(1e-3) as f64, 1.0) else {
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
    /// and `mv` is one of its children) and dropping the rest. Root noise, when enabled,
    /// is mixed into the new root's priors if it already has children.
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
                if self.noise {
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

    /// The move to play: with `temperature` 0 the most visited root child (ties broken
    /// at random), otherwise a child drawn with probability ∝ visits^(1/temperature).
    /// `None` if the root has no children.
    pub fn choose(&mut self, temperature: f32) -> Option<Move> {
        let children = self.root_children();
        if children.is_empty() {
            return None;
        }
        use rand::RngExt;
        if temperature <= 1e-3 {
            let best = children.iter().map(|c| c.visits).max()?;
            let ties: Vec<&ChildStats> = children.iter().filter(|c| c.visits == best).collect();
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
        let active = trees.iter().filter(|t| t.root_visits() < cfg.sims.max(1) && !t.root.is_over()).count();
        if active == 0 {
            return Ok(stats);
        }
        let counts: Vec<usize> = trees
            .par_iter_mut()
            .map(|t| if t.root_visits() < cfg.sims.max(1) && !t.root.is_over() { t.gather(cfg, tables) } else { Ok(0) })
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
        let (logits, values) = evaluator.evaluate(batch, total, tables.shape)?;
        stats.evaluations += total as u64;
        stats.batches += 1;
        let actions = tables.actions();
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
            t.apply(&logits[o * actions..(o + c) * actions], &values[o..o + c], cfg, tables)
        })?;
    }
}

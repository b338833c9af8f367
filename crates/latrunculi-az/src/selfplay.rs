//! Self-play: many games played together by batched search, turned into training samples.

use std::time::Instant;

use indicatif::ProgressBar;
use latrunculi_rules::{Color, Position, Reason, Ruleset, splitmix64};

use crate::AzError;
use crate::search::{BoardTables, Evaluator, SearchConfig, Tree, result_value, search};

/// One training sample: a position as the network sees it and its targets.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Observation `[planes, H, W]`, flat (the side to move's view).
    pub obs: Vec<f32>,
    /// Policy target over relative actions, as `(action, probability)`: the search's
    /// visit distribution, or one-hot on the move played for warm-start data.
    pub policy: Vec<(u32, f32)>,
    /// Final result for the side to move: +1 win, −1 loss; a draw is 0, or the
    /// material term of [`SelfPlayConfig::draw_material`] when that is set.
    pub value: f32,
    /// Plies played before this position.
    pub ply: u32,
    /// The legal moves, as relative actions (the policy loss is a softmax over these;
    /// empty: over every output, as for samples of the first buffer format).
    pub legal: Vec<u32>,
    /// Final material difference for the side to move over the starting material
    /// (own minus enemy, in `[-1, 1]`): the score head's target.
    pub score: f32,
    /// The search's mean value of the root for the side to move (the value target when
    /// nothing better is known).
    pub root_q: f32,
    /// Whether the policy target counts: false for moves chosen by a cheap search under
    /// playout-cap randomisation (their positions still train the value and score).
    pub policy_valid: bool,
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameSummary {
    /// Plies played.
    pub plies: u32,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub reason: Reason,
}

/// Self-play settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SelfPlayConfig {
    /// Games to finish.
    pub games: u32,
    /// Games played at once (their leaves share one batch).
    pub parallel: u32,
    /// Search settings (with root noise for exploration).
    pub search: SearchConfig,
    /// Plies from the start during which moves are drawn ∝ visits (temperature 1);
    /// afterwards the most visited move is played.
    pub temperature_plies: u32,
    /// Ply cap: a game reaching it is a draw.
    pub ply_cap: u32,
    /// Base seed; game `i` uses a seed derived from it.
    pub seed: u64,
    /// Value target of a drawn game: `0` gives every position 0 (the plain
    /// AlphaZero target); `w > 0` gives the side `c` the value
    /// `clamp(w · (material(c) − material(opponent)) / material at the start, −1, 1)`
    /// measured at the end of the game (material = pieces on the board and in hand).
    pub draw_material: f32,
    /// Playout-cap randomisation (KataGo): the probability that a move gets the full
    /// search (`search.sims` visits) and is recorded as a policy target; the other moves
    /// are searched with `fast_sims` visits and train only the value and score. 1: every
    /// move is a full search (plain AlphaZero).
    pub full_search_prob: f32,
    /// Root visits of a fast search.
    pub fast_sims: u32,
}

/// Pieces of `color` on the board and in hand.
pub fn material(pos: &Position, color: Color) -> u32 {
    let (s, d) = pos.in_hand(color);
    pos.pieces_on_board(color) + s as u32 + d as u32
}

/// Score target for `player` at the end of a game: material difference over the starting
/// material, in `[-1, 1]`.
pub fn score_target(end: &Position, player: Color, start_material: u32) -> f32 {
    let diff = material(end, player) as f32 - material(end, player.opponent()) as f32;
    (diff / start_material.max(1) as f32).clamp(-1.0, 1.0)
}

/// The larger side's material at the start of a game of `ruleset`.
pub fn start_material(ruleset: &Ruleset) -> u32 {
    let p = Position::new(ruleset);
    material(&p, Color::White).max(material(&p, Color::Black))
}

/// Value target of a finished game for `player` (see [`SelfPlayConfig::draw_material`]).
pub fn target_value(
    end: &Position,
    winner: Option<Color>,
    player: Color,
    draw_material: f32,
    start_material: u32,
) -> f32 {
    if winner.is_some() || draw_material <= 0.0 {
        return result_value(winner, player);
    }
    let diff = material(end, player) as f32 - material(end, player.opponent()) as f32;
    (draw_material * diff / start_material.max(1) as f32).clamp(-1.0, 1.0)
}

/// What a self-play run produced.
#[derive(Clone, Debug, Default)]
pub struct SelfPlayOutput {
    /// Samples, per game, in game order of finishing.
    pub games: Vec<(GameSummary, Vec<Sample>)>,
    /// Network evaluations made.
    pub evaluations: u64,
    /// Network batches run.
    pub batches: u64,
    /// Positions (plies) played.
    pub positions: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SelfPlayOutput {
    /// Mean leaves per network batch.
    pub fn batch_mean(&self) -> f64 {
        if self.batches == 0 { 0.0 } else { self.evaluations as f64 / self.batches as f64 }
    }
}

struct Slot {
    samples: Vec<(Sample, Color)>,
    /// Whether the current move gets the full search.
    full: bool,
}

/// Plays `cfg.games` games of `ruleset` by search with `evaluator`, whose network's
/// observations and outputs `tables` describe.
pub fn self_play(
    evaluator: &dyn Evaluator,
    ruleset: &Ruleset,
    tables: &BoardTables,
    cfg: &SelfPlayConfig,
    progress: Option<&ProgressBar>,
) -> Result<SelfPlayOutput, AzError> {
    let start = Instant::now();
    let start_material = start_material(ruleset);
    let mut rng = latrunculi_rules::FastRng::new(splitmix64(cfg.seed ^ 0x5EA5C4));
    let fast = cfg.full_search_prob < 1.0;
    let mut draw_full = move || !fast || (rng.below(1 << 24) as f32) < cfg.full_search_prob * (1 << 24) as f32;
    let mut out = SelfPlayOutput::default();
    let mut trees: Vec<Tree> = Vec::new();
    let mut slots: Vec<Slot> = Vec::new();
    let mut started = 0u32;
    let new_game = |i: u32| {
        let mut pos = Position::new(ruleset);
        pos.set_ply_cap(cfg.ply_cap);
        Tree::new(pos, splitmix64(cfg.seed ^ splitmix64(i as u64 + 1)), cfg.search.dirichlet_frac > 0.0)
    };
    while started < cfg.games && trees.len() < cfg.parallel.max(1) as usize {
        trees.push(new_game(started));
        slots.push(Slot { samples: Vec::new(), full: true });
        started += 1;
    }
    while !trees.is_empty() {
        for (tree, slot) in trees.iter_mut().zip(slots.iter_mut()) {
            slot.full = draw_full();
            tree.set_budget(if slot.full { None } else { Some(cfg.fast_sims.max(1)) });
        }
        let stats = search(&mut trees, evaluator, &cfg.search, tables)?;
        out.evaluations += stats.evaluations;
        out.batches += stats.batches;
        let mut k = 0;
        while k < trees.len() {
            let tree = &mut trees[k];
            let pos = tree.root().clone();
            let to_move = pos.side_to_move();
            let children = tree.root_children();
            let total: u32 = children.iter().map(|c| c.visits).sum();
            let obs = tables.observation(&pos)?;
            let policy = match cfg.search.gumbel.and_then(|g| tree.improved_policy(&g)) {
                Some(improved) => improved.into_iter().map(|(mv, p)| (tables.relative(mv, to_move), p)).collect(),
                None => children
                    .iter()
                    .filter(|c| c.visits > 0)
                    .map(|c| (tables.relative(c.mv, to_move), c.visits as f32 / total.max(1) as f32))
                    .collect(),
            };
            let legal = children.iter().map(|c| tables.relative(c.mv, to_move)).collect();
            let root_q = children.iter().map(|c| c.q * c.visits as f32).sum::<f32>() / total.max(1) as f32;
            let sample = Sample {
                obs,
                policy,
                value: 0.0,
                ply: pos.ply(),
                legal,
                score: 0.0,
                root_q,
                policy_valid: slots[k].full,
            };
            slots[k].samples.push((sample, to_move));
            let temperature = if pos.ply() < cfg.temperature_plies { 1.0 } else { 0.0 };
            let mv = tree.choose(temperature).ok_or_else(|| {
                AzError::Tensor(format!("search left the root at ply {} without children", pos.ply()))
            })?;
            tree.advance(mv, &cfg.search);
            out.positions += 1;
            if let Some(outcome) = tree.root().outcome() {
                let plies = tree.root().ply();
                let end = tree.root().clone();
                let samples = std::mem::take(&mut slots[k].samples)
                    .into_iter()
                    .map(|(mut s, c)| {
                        s.value = target_value(&end, outcome.winner, c, cfg.draw_material, start_material);
                        s.score = score_target(&end, c, start_material);
                        s
                    })
                    .collect();
                out.games.push((GameSummary { plies, winner: outcome.winner, reason: outcome.reason }, samples));
                if let Some(p) = progress {
                    p.inc(1);
                }
                if started < cfg.games {
                    trees[k] = new_game(started);
                    slots[k].full = true;
                    started += 1;
                    k += 1;
                } else {
                    trees.swap_remove(k);
                    slots.swap_remove(k);
                }
            } else {
                k += 1;
            }
        }
    }
    out.seconds = start.elapsed().as_secs_f64();
    Ok(out)
}

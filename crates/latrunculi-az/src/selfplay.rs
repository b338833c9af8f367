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
    /// Search visit distribution over relative actions, as `(action, probability)`.
    pub policy: Vec<(u32, f32)>,
    /// Final result for the side to move: +1 win, −1 loss; a draw is 0, or the
    /// material term of [`SelfPlayConfig::draw_material`] when that is set.
    pub value: f32,
    /// Plies played before this position.
    pub ply: u32,
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
}

/// Pieces of `color` on the board and in hand.
pub fn material(pos: &Position, color: Color) -> u32 {
    let (s, d) = pos.in_hand(color);
    pos.pieces_on_board(color) + s as u32 + d as u32
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
}

/// Plays `cfg.games` games of `ruleset` by search with `evaluator`.
pub fn self_play(
    evaluator: &dyn Evaluator,
    ruleset: &Ruleset,
    cfg: &SelfPlayConfig,
    progress: Option<&ProgressBar>,
) -> Result<SelfPlayOutput, AzError> {
    let start = Instant::now();
    let tables = BoardTables::new(ruleset);
    let start_material = {
        let p = Position::new(ruleset);
        material(&p, Color::White).max(material(&p, Color::Black))
    };
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
        slots.push(Slot { samples: Vec::new() });
        started += 1;
    }
    while !trees.is_empty() {
        let stats = search(&mut trees, evaluator, &cfg.search, &tables)?;
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
            let space = tables.frame.space();
            let policy = children
                .iter()
                .filter(|c| c.visits > 0)
                .map(|c| {
                    (tables.frame.relative(space.encode(c.mv), to_move) as u32, c.visits as f32 / total.max(1) as f32)
                })
                .collect();
            slots[k].samples.push((Sample { obs, policy, value: 0.0, ply: pos.ply() }, to_move));
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
                        s
                    })
                    .collect();
                out.games.push((GameSummary { plies, winner: outcome.winner, reason: outcome.reason }, samples));
                if let Some(p) = progress {
                    p.inc(1);
                }
                if started < cfg.games {
                    trees[k] = new_game(started);
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

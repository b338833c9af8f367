//! The parameters of a search ([`SearchConfig`]) and how it values a child never visited
//! ([`Fpu`]).

use crate::gumbel::GumbelConfig;

/// The value assumed for a child never visited (first-play urgency).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fpu {
    /// A fixed value (0: an unvisited move is assumed even).
    Value(f32),
    /// The parent's mean value for the mover minus this reduction (Leela Zero style).
    ParentMinus(f32),
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
    pub fpu: Fpu,
    /// Dirichlet concentration of the root noise; `<= 0`: `10 / legal moves` (AlphaZero's
    /// scaling, about 0.3 for chess's ~35 moves).
    pub dirichlet_alpha: f32,
    /// Weight of the root noise in the priors (0: no noise).
    pub dirichlet_frac: f32,
    /// Weight of the network's score (material) prediction in leaf values:
    /// `value + score_utility · score`, clamped to `[-1, 1]`. 0: the value alone.
    pub score_utility: f32,
    /// Gumbel root search with sequential halving (see [`crate::gumbel`]) instead of PUCT
    /// at the root; `None`: PUCT everywhere.
    pub gumbel: Option<GumbelConfig>,
    /// Win-in-one check: before a new leaf goes to the network, every legal move there
    /// is tried; if one ends the game in the mover's favour the leaf is a proven win for
    /// the side to move and is valued exactly, without the network (so a move that allows
    /// an immediate loss is seen as one at its first visit). At the root, such a move is
    /// visited first and played.
    pub win_check: bool,
}

impl Default for SearchConfig {
    /// 200 simulations, `c_puct` 1.5, 8 leaves per round, virtual loss 1, FPU 0, no noise,
    /// no score utility, PUCT at the root, no win check.
    fn default() -> SearchConfig {
        SearchConfig {
            sims: 200,
            c_puct: 1.5,
            leaves_per_round: 8,
            virtual_loss: 1.0,
            fpu: Fpu::Value(0.0),
            dirichlet_alpha: 0.3,
            dirichlet_frac: 0.0,
            score_utility: 0.0,
            gumbel: None,
            win_check: false,
        }
    }
}

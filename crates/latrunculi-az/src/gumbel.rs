//! Gumbel root search (Danihelka, Guez, Schrittwieser, Silver: "Policy improvement by
//! planning with Gumbel", ICLR 2022): at the root, sample `m` moves without replacement
//! by the Gumbel-top-k trick on the network's logits, share the simulations among them by
//! **sequential halving**, and play the survivor with the best
//! `g(a) + logit(a) + σ(q̂(a))`. The policy target is the **improved policy**
//! `softmax(logit + σ(completed q))`, which improves on the prior even with few visits.
//! Below the root the search stays PUCT.
//!
//! `σ(q) = (c_visit + max_b N(b)) · c_scale · q`; a move never visited is scored with
//! `v_mix`, the network's root value mixed with the visited moves' values weighted by
//! their priors.

use rand::RngExt;
use rand::rngs::StdRng;

/// Gumbel settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GumbelConfig {
    /// Moves sampled at the root (`m`; all moves if there are fewer).
    pub considered: u32,
    /// `c_visit` of σ.
    pub c_visit: f32,
    /// `c_scale` of σ.
    pub c_scale: f32,
}

impl Default for GumbelConfig {
    /// `m` = 16, `c_visit` = 50, `c_scale` = 1 (the paper's values).
    fn default() -> GumbelConfig {
        GumbelConfig { considered: 16, c_visit: 50.0, c_scale: 1.0 }
    }
}

/// One root child as sequential halving sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild {
    /// Log prior (the network's logit up to a constant).
    pub logit: f32,
    /// Visits.
    pub visits: u32,
    /// Mean value for the root's mover (meaningful when `visits > 0`).
    pub q: f32,
}

/// `σ(q)` for the root's children.
pub fn sigma(children: &[RootChild], cfg: &GumbelConfig, q: f32) -> f32 {
    let max_n = children.iter().map(|c| c.visits).max().unwrap_or(0) as f32;
    (cfg.c_visit + max_n) * cfg.c_scale * q
}

/// `v_mix`: the root's network value `v` mixed with the prior-weighted values of the
/// visited children.
pub fn v_mix(children: &[RootChild], v: f32) -> f32 {
    let total: u32 = children.iter().map(|c| c.visits).sum();
    if total == 0 {
        return v;
    }
    let probs = softmax(&children.iter().map(|c| c.logit).collect::<Vec<_>>());
    let (mut p_seen, mut pq) = (0.0f32, 0.0f32);
    for (c, p) in children.iter().zip(&probs) {
        if c.visits > 0 {
            p_seen += p;
            pq += p * c.q;
        }
    }
    let weighted = if p_seen > 0.0 { pq / p_seen } else { 0.0 };
    (v + total as f32 * weighted) / (1.0 + total as f32)
}

/// The completed values: `q` of visited children, `v_mix` of the others.
pub fn completed_q(children: &[RootChild], v: f32) -> Vec<f32> {
    let mix = v_mix(children, v);
    children.iter().map(|c| if c.visits > 0 { c.q } else { mix }).collect()
}

/// The improved policy `softmax(logit + σ(completed q))`, summing to 1.
pub fn improved_policy(children: &[RootChild], cfg: &GumbelConfig, v: f32) -> Vec<f32> {
    let q = completed_q(children, v);
    let x: Vec<f32> = children.iter().zip(&q).map(|(c, &q)| c.logit + sigma(children, cfg, q)).collect();
    softmax(&x)
}

/// A numerically stable softmax.
pub fn softmax(x: &[f32]) -> Vec<f32> {
    let max = x.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let e: Vec<f32> = x.iter().map(|&v| (v - max).exp()).collect();
    let s: f32 = e.iter().sum();
    e.iter().map(|v| v / s).collect()
}

/// Sequential halving at one root.
#[derive(Clone, Debug, PartialEq)]
pub struct Halving {
    /// Gumbel noise per root child.
    gumbel: Vec<f32>,
    /// Root children (indices into the root's children) still in the race.
    remaining: Vec<usize>,
    /// Visits still to give in the current phase, in order.
    queue: std::collections::VecDeque<usize>,
    /// Visits to spend in all from the start (the search budget at the start).
    budget: u32,
    /// Visits given so far by this schedule.
    spent: u32,
    /// Phases in all, `ceil(log2 m)` (at least 1).
    phases: u32,
}

impl Halving {
    /// A schedule for `children` with `budget` visits to give, sampling the Gumbel noise
    /// from `rng`.
    pub fn new(children: &[RootChild], cfg: &GumbelConfig, budget: u32, rng: &mut StdRng) -> Halving {
        let gumbel: Vec<f32> = children
            .iter()
            .map(|_| {
                let u: f64 = rng.random::<f64>().clamp(1e-12, 1.0 - 1e-12);
                -(-u.ln()).ln() as f32
            })
            .collect();
        let mut order: Vec<usize> = (0..children.len()).collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (gumbel[a] + children[a].logit, gumbel[b] + children[b].logit);
            y.total_cmp(&x)
        });
        order.truncate((cfg.considered.max(1) as usize).min(children.len()));
        let m = order.len().max(1) as f32;
        let phases = m.log2().ceil().max(1.0) as u32;
        let mut h = Halving { gumbel, remaining: order, queue: Default::default(), budget, spent: 0, phases };
        h.fill_phase();
        h
    }

    fn fill_phase(&mut self) {
        let left = self.budget.saturating_sub(self.spent);
        let n = self.remaining.len().max(1) as u32;
        let per = if n <= 2 || self.remaining.len() <= 1 {
            // The last phase spends what is left.
            left.div_ceil(n)
        } else {
            (self.budget / (self.phases * n)).max(1)
        };
        for _ in 0..per {
            self.queue.extend(self.remaining.iter().copied());
        }
    }

    /// The score that ranks the remaining moves.
    fn score(&self, children: &[RootChild], cfg: &GumbelConfig, i: usize) -> f32 {
        let c = &children[i];
        let q = if c.visits > 0 { c.q } else { 0.0 };
        self.gumbel[i] + c.logit + sigma(children, cfg, q)
    }

    /// The next root child to visit, or `None` when the current phase is done but some
    /// of its visits are still pending (`pending` > 0): the caller waits for them.
    /// Between phases the worse half of the remaining moves is dropped (by
    /// `g + logit + σ(q)` on `children`, which must hold the finished visits).
    pub fn next(&mut self, children: &[RootChild], cfg: &GumbelConfig, pending: bool) -> Option<usize> {
        if self.queue.is_empty() {
            if pending {
                return None;
            }
            if self.remaining.len() > 1 {
                let mut r = self.remaining.clone();
                r.sort_by(|&a, &b| self.score(children, cfg, b).total_cmp(&self.score(children, cfg, a)));
                r.truncate(r.len().div_ceil(2));
                self.remaining = r;
            }
            self.fill_phase();
            if self.queue.is_empty() {
                self.queue.extend(self.remaining.iter().copied());
            }
        }
        self.spent += 1;
        self.queue.pop_front()
    }

    /// The move to play: the remaining root child with the best `g + logit + σ(q)`.
    pub fn choice(&self, children: &[RootChild], cfg: &GumbelConfig) -> Option<usize> {
        self.remaining
            .iter()
            .copied()
            .max_by(|&a, &b| self.score(children, cfg, a).total_cmp(&self.score(children, cfg, b)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn kids(q: &[(f32, u32, f32)]) -> Vec<RootChild> {
        q.iter().map(|&(logit, visits, q)| RootChild { logit, visits, q }).collect()
    }

    #[test]
    fn improved_policy_sums_to_one_and_favours_good_values() {
        let c = kids(&[(0.0, 4, 0.5), (0.0, 4, -0.5), (0.0, 0, 0.0)]);
        let p = improved_policy(&c, &GumbelConfig::default(), 0.0);
        assert!((p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
        assert!(p[0] > p[2] && p[2] > p[1], "{p:?}");
        // v_mix by hand: v = 0, 8 visits, equal priors over the two visited: (0 + 8·0)/9.
        assert!((v_mix(&c, 0.0) - 0.0).abs() < 1e-6);
        let c = kids(&[(0.0, 2, 1.0), (0.0, 0, 0.0)]);
        assert!((v_mix(&c, -1.0) - (-1.0 + 2.0 * 1.0) / 3.0).abs() < 1e-6);
    }

    #[test]
    fn halving_spends_the_budget_on_the_considered_moves() {
        let c = kids(&[(0.0, 0, 0.0); 8]);
        let cfg = GumbelConfig { considered: 4, ..GumbelConfig::default() };
        let mut rng = StdRng::seed_from_u64(1);
        let mut h = Halving::new(&c, &cfg, 32, &mut rng);
        let mut visits = [0u32; 8];
        for _ in 0..32 {
            visits[h.next(&c, &cfg, false).unwrap()] += 1;
        }
        assert_eq!(visits.iter().filter(|&&v| v > 0).count(), 4, "{visits:?}");
        assert_eq!(visits.iter().sum::<u32>(), 32);
    }
}

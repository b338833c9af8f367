//! Fitting evaluation weights to game results (Texel-style tuning): a logistic
//! regression of the side to move's score (1 win, ½ draw, 0 loss) on the position's
//! [`features`](super::features), fitted by Newton's method with a small ridge penalty.

use super::features::{Features, NUM_FEATURES, idx};

/// One training position: its features and the side to move's final score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position's features.
    pub features: Features,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub score: f64,
}

/// The logistic function.
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-loss (cross-entropy, natural log) of predicting `sigmoid(w · x)`.
pub fn log_loss(samples: &[Sample], w: &Features) -> f64 {
    if samples.is_empty() {
        return f64::NAN;
    }
    let eps = 1e-12;
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(dot(w, &s.features)).clamp(eps, 1.0 - eps);
            -(s.score * p.ln() + (1.0 - s.score) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// Mean log-loss of predicting the constant `p` for every sample.
pub fn constant_log_loss(samples: &[Sample], p: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    samples.iter().map(|s| -(s.score * p.ln() + (1.0 - s.score) * (1.0 - p).ln())).sum::<f64>() / samples.len() as f64
}

fn dot(a: &Features, b: &Features) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Which features a fit may use.
pub type Mask = [bool; NUM_FEATURES];

/// Every feature.
pub const ALL_FEATURES: Mask = [true; NUM_FEATURES];

/// Material only: one weight on the piece count that the old `alphabeta` player used
/// (free and trapped soldiers and the Dux counted alike, plus the side to move's edge).
pub fn material_only(f: &Features) -> Features {
    let mut m = [0.0; NUM_FEATURES];
    m[idx::SOLDIERS] = f[idx::SOLDIERS] + f[idx::TRAPPED] + f[idx::DUX];
    m[idx::TEMPO] = f[idx::TEMPO];
    m
}

/// Fits weights by Newton's method on the mean log-loss plus `ridge / 2 · |w|²`
/// (features outside `mask` keep weight 0). Deterministic.
pub fn fit(samples: &[Sample], mask: &Mask, ridge: f64) -> Features {
    let used: Vec<usize> = (0..NUM_FEATURES).filter(|&i| mask[i]).collect();
    let k = used.len();
    let mut w = [0.0; NUM_FEATURES];
    if samples.is_empty() || k == 0 {
        return w;
    }
    let n = samples.len() as f64;
    for _ in 0..50 {
        let mut grad = vec![0.0; k];
        let mut hess = vec![vec![0.0; k]; k];
        for s in samples {
            let p = sigmoid(dot(&w, &s.features));
            let r = p - s.score;
            let v = p * (1.0 - p);
            for (a, &i) in used.iter().enumerate() {
                let xi = s.features[i];
                grad[a] += r * xi;
                for (b, &j) in used.iter().enumerate().skip(a) {
                    hess[a][b] += v * xi * s.features[j];
                }
            }
        }
        for a in 0..k {
            grad[a] = grad[a] / n + ridge * w[used[a]];
            for b in a..k {
                hess[a][b] /= n;
                hess[b][a] = hess[a][b];
            }
            hess[a][a] += ridge;
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut biggest: f64 = 0.0;
        for (a, &i) in used.iter().enumerate() {
            w[i] -= step[a];
            biggest = biggest.max(step[a].abs());
        }
        if biggest < 1e-9 {
            break;
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n).max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))?;
        if a[p][c].abs() < 1e-300 {
            return None;
        }
        a.swap(c, p);
        b.swap(c, p);
        for r in c + 1..n {
            let f = a[r][c] / a[c][c];
            for k in c..n {
                a[r][k] -= f * a[c][k];
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for r in (0..n).rev() {
        let s: f64 = (r + 1..n).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use latrunculi_rules::FastRng;

    /// Samples drawn from a known logistic model: the fit finds its weights.
    #[test]
    fn the_fit_recovers_a_known_model() {
        let mut truth = [0.0; NUM_FEATURES];
        truth[idx::SOLDIERS] = 0.7;
        truth[idx::MOBILITY] = -0.3;
        truth[idx::TEMPO] = 0.2;
        let mut rng = FastRng::new(7);
        let mut samples = Vec::new();
        for _ in 0..20_000 {
            let mut f = [0.0; NUM_FEATURES];
            f[idx::SOLDIERS] = rng.below(9) as f64 - 4.0;
            f[idx::MOBILITY] = (rng.below(41) as f64 - 20.0) / 10.0;
            f[idx::TEMPO] = 1.0;
            let p = sigmoid(dot(&truth, &f));
            let u = rng.next_u64() as f64 / u64::MAX as f64;
            samples.push(Sample { features: f, score: if u < p { 1.0 } else { 0.0 } });
        }
        let w = fit(&samples, &ALL_FEATURES, 1e-6);
        for i in [idx::SOLDIERS, idx::MOBILITY, idx::TEMPO] {
            assert!((w[i] - truth[i]).abs() < 0.06, "feature {i}: fitted {} against {}", w[i], truth[i]);
        }
        assert!(log_loss(&samples, &w) < log_loss(&samples, &[0.0; NUM_FEATURES]));
    }

    #[test]
    fn features_outside_the_mask_keep_weight_zero() {
        let mut f = [1.0; NUM_FEATURES];
        f[idx::SOLDIERS] = 2.0;
        let samples = vec![Sample { features: f, score: 1.0 }, Sample { features: [0.5; NUM_FEATURES], score: 0.0 }];
        let mut mask = [false; NUM_FEATURES];
        mask[idx::SOLDIERS] = true;
        let w = fit(&samples, &mask, 0.1);
        assert!(w[idx::SOLDIERS] > 0.0);
        assert!(w.iter().enumerate().all(|(i, &x)| i == idx::SOLDIERS || x == 0.0));
    }
}

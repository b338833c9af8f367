//! Small statistics for experiment summaries: Wilson score intervals and plies
//! quantiles.

/// The z value of a two-sided 95% interval.
pub const Z95: f64 = 1.96;

/// The Wilson score interval `(lo, hi)` of a proportion: `successes` out of `n` trials,
/// with normal quantile `z` (1.96 for 95%).
///
/// `successes` is a real number so that a score with half points (wins + draws/2) can be
/// given directly; for such a score, whose per-game values are 0, ½ or 1, the per-game
/// variance is at most that of a 0/1 trial with the same mean, so the interval is
/// slightly conservative. With `n == 0` nothing is known and the interval is `(0, 1)`.
/// The bounds are clamped to `[0, 1]`.
pub fn wilson(successes: f64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((center - half).max(0.0), (center + half).min(1.0))
}

/// The median of sorted values (mean of the two middle ones for an even count); 0 for
/// no values.
pub fn median(sorted: &[u32]) -> f64 {
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2] as f64,
        n => (sorted[n / 2 - 1] as f64 + sorted[n / 2] as f64) / 2.0,
    }
}

/// The `q`-quantile (0 < q ≤ 1) of sorted values by the nearest-rank method: the
/// smallest value with at least a fraction `q` of the values at or below it; 0 for no
/// values.
pub fn nearest_rank(sorted: &[u32], q: f64) -> u32 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < 1e-4 && (a.1 - b.1).abs() < 1e-4
    }

    #[test]
    fn wilson_matches_hand_computed_values() {
        // p = 0.5, n = 10: centre 0.5, half-width 1.96*sqrt(0.025+0.009604)/1.38416.
        assert!(close(wilson(5.0, 10, Z95), (0.2366, 0.7634)), "{:?}", wilson(5.0, 10, Z95));
        // No successes: (0, z²/n / (1 + z²/n)) = (0, 0.2775).
        assert!(close(wilson(0.0, 10, Z95), (0.0, 0.2775)), "{:?}", wilson(0.0, 10, Z95));
        assert!(close(wilson(10.0, 10, Z95), (0.7225, 1.0)), "{:?}", wilson(10.0, 10, Z95));
        // 1 of 20: centre 0.122509, half-width 0.113628.
        assert!(close(wilson(1.0, 20, Z95), (0.0089, 0.2361)), "{:?}", wilson(1.0, 20, Z95));
        // Half points: 7.5 of 10 (e.g. 6 wins, 3 draws): p = 0.75, centre 0.680615, half-width 0.238440.
        assert!(close(wilson(7.5, 10, Z95), (0.4422, 0.9191)), "{:?}", wilson(7.5, 10, Z95));
        assert_eq!(wilson(0.0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn quantiles() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3]), 3.0);
        assert_eq!(median(&[1, 2, 3, 10]), 2.5);
        let v: Vec<u32> = (1..=10).collect();
        assert_eq!(nearest_rank(&v, 0.9), 9);
        assert_eq!(nearest_rank(&v, 1.0), 10);
        assert_eq!(nearest_rank(&[7], 0.9), 7);
        assert_eq!(nearest_rank(&(1..=20).collect::<Vec<_>>(), 0.9), 18);
    }
}

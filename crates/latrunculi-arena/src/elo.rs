//! Elo arithmetic for `eval` and `ladder`: the logistic Elo model, match scores with
//! intervals, Wald's sequential probability ratio test, and maximum-likelihood ratings
//! of many agents from pairwise results.
//!
//! The model: a player rated `d` Elo above its opponent is expected to score
//! `1 / (1 + 10^(−d/400))` per game, a draw counting as half a point.

use crate::stats::{Z95, wilson};

/// `ln 10 / 400`: the slope of the logistic Elo curve in natural units.
const K: f64 = std::f64::consts::LN_10 / 400.0;

/// The expected score of a player `diff` Elo above its opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// The Elo difference whose expected score is `score`: `−400·log10(1/score − 1)`;
/// `−∞` for a score of 0 and `+∞` for 1.
pub fn elo_from_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// Wins, draws and losses of one side of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: wins + draws/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Mean score per game (0 for no games).
    pub fn score(&self) -> f64 {
        if self.games() == 0 { 0.0 } else { self.points() / self.games() as f64 }
    }

    /// The 95% Wilson interval of the score (see [`wilson`]).
    pub fn score_interval(&self) -> (f64, f64) {
        wilson(self.points(), self.games(), Z95)
    }

    /// The Elo difference of the score (±∞ for a clean sweep).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// The 95% interval of the Elo difference: the score interval mapped through
    /// [`elo_from_score`] (which is increasing, so the bounds map to bounds).
    pub fn elo_interval(&self) -> (f64, f64) {
        let (lo, hi) = self.score_interval();
        (elo_from_score(lo), elo_from_score(hi))
    }

    /// The same match from the opponent's side.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }
}

impl std::ops::Add for Wdl {
    type Output = Wdl;

    /// The tally of both sets of games.
    fn add(self, other: Wdl) -> Wdl {
        Wdl { wins: self.wins + other.wins, draws: self.draws + other.draws, losses: self.losses + other.losses }
    }
}

/// What a sequential test has concluded so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound has been crossed.
    Continue,
    /// The lower bound was crossed: the Elo difference is `elo0` (or less).
    AcceptH0,
    /// The upper bound was crossed: the Elo difference is `elo1` (or more).
    AcceptH1,
}

impl SprtDecision {
    /// `undecided`, `H0` or `H1`, as written in CSV files.
    pub fn name(self) -> &'static str {
        match self {
            SprtDecision::Continue => "undecided",
            SprtDecision::AcceptH0 => "H0",
            SprtDecision::AcceptH1 => "H1",
        }
    }
}

/// Wald's sequential probability ratio test of H0 "the agent is `elo0` Elo above its
/// opponent" against H1 "it is `elo1` above", with error rates `alpha` (accepting H1
/// when H0 holds) and `beta` (accepting H0 when H1 holds).
///
/// Each game is treated as a Bernoulli trial with success probability
/// [`expected_score`]`(elo)`, a draw counting as half a success. Draws have less variance
/// than half a coin toss, so with many draws the test is somewhat slower than a trinomial
/// test, never less safe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1 (must differ from `elo0`).
    pub elo1: f64,
    /// Type I error rate.
    pub alpha: f64,
    /// Type II error rate.
    pub beta: f64,
}

impl Sprt {
    /// A test; an error message when the hypotheses or error rates make no sense.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !(elo0.is_finite() && elo1.is_finite()) || elo0 >= elo1 {
            return Err(format!("SPRT needs finite elo0 < elo1, got {elo0} and {elo1}"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(format!("SPRT error rates must be in (0, 0.5), got alpha {alpha} and beta {beta}"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// The (lower, upper) bounds of the log-likelihood ratio:
    /// `ln(β/(1−α))` and `ln((1−β)/α)`.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 after `wdl`:
    /// `S·ln(p1/p0) + (N−S)·ln((1−p1)/(1−p0))` with `S` the points and `N` the games.
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let (p0, p1) = (expected_score(self.elo0), expected_score(self.elo1));
        let s = wdl.points();
        let n = wdl.games() as f64;
        s * (p1 / p0).ln() + (n - s) * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// The decision after `wdl`.
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        let (lo, hi) = self.bounds();
        let llr = self.llr(wdl);
        if llr >= hi {
            SprtDecision::AcceptH1
        } else if llr <= lo {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// The results of one pairing of a round robin: `points` scored by agent `a` against
/// agent `b` in `games` games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PairResult {
    /// Index of the first agent.
    pub a: usize,
    /// Index of the second agent.
    pub b: usize,
    /// Games played between them.
    pub games: f64,
    /// Points of `a` (wins + draws/2).
    pub points: f64,
}

/// Ratings fitted by [`fit_ratings`].
#[derive(Clone, Debug, PartialEq)]
pub struct Ratings {
    /// Elo of each agent (the anchor is 0).
    pub elo: Vec<f64>,
    /// Standard error of each rating (0 for the anchor), from the observed information.
    pub std_err: Vec<f64>,
    /// Newton iterations used.
    pub iterations: u32,
}

/// Errors of [`fit_ratings`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FitError {
    /// An agent is not connected to the anchor by played games (directly or through others).
    #[error("agent {0} is not connected to the anchor by any chain of played games")]
    Disconnected(usize),
    /// The likelihood has no maximum (an agent won or lost every game and no prior was given).
    #[error("the ratings diverge: some agent won or lost all its games; use a prior of virtual draws (1, say)")]
    Diverged,
}

/// Solves `m x = v` for a small symmetric positive definite `m` (Gaussian elimination
/// with partial pivoting); `None` when singular.
fn solve(mut m: Vec<Vec<f64>>, mut v: Vec<f64>) -> Option<Vec<f64>> {
    let n = v.len();
    for col in 0..n {
        let piv = (col..n).max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))?;
        if m[piv][col].abs() < 1e-12 {
            return None;
        }
        m.swap(col, piv);
        v.swap(col, piv);
        for row in col + 1..n {
            let f = m[row][col] / m[col][col];
            for k in col..n {
                m[row][k] -= f * m[col][k];
            }
            v[row] -= f * v[col];
        }
    }
    let mut x = vec![0.0; n];
    for row in (0..n).rev() {
        let s: f64 = (row + 1..n).map(|k| m[row][k] * x[k]).sum();
        x[row] = (v[row] - s) / m[row][row];
    }
    Some(x)
}

/// Maximum-likelihood Elo ratings of `n` agents from pairwise results under the
/// logistic model, with agent `anchor` fixed at 0.
///
/// Each pairing that was played also gets `prior_draws` virtual drawn games (0 gives the
/// pure maximum-likelihood estimate, which does not exist when an agent won or lost
/// every game it played). Standard errors come from the inverse of the observed
/// information matrix of the free ratings.
pub fn fit_ratings(n: usize, anchor: usize, results: &[PairResult], prior_draws: f64) -> Result<Ratings, FitError> {
    let mut games = vec![vec![0.0; n]; n];
    let mut points = vec![vec![0.0; n]; n];
    for r in results {
        if r.a == r.b || r.games <= 0.0 {
            continue;
        }
        games[r.a][r.b] += r.games;
        games[r.b][r.a] += r.games;
        points[r.a][r.b] += r.points;
        points[r.b][r.a] += r.games - r.points;
    }
    if prior_draws > 0.0 {
        for i in 0..n {
            for j in 0..n {
                if i != j && games[i][j] > 0.0 {
                    games[i][j] += prior_draws;
                    points[i][j] += prior_draws / 2.0;
                }
            }
        }
    }
    // Connectivity to the anchor.
    let mut seen = vec![false; n];
    let mut stack = vec![anchor];
    seen[anchor] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if !seen[j] && games[i][j] > 0.0 {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(FitError::Disconnected(i));
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != anchor).collect();
    let mut r = vec![0.0; n];
    let info = |r: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        // Gradient of the log-likelihood and the information matrix (minus the Hessian),
        // over the free ratings, in Elo units.
        let mut grad = vec![0.0; free.len()];
        let mut h = vec![vec![0.0; free.len()]; free.len()];
        let index = |i: usize| free.iter().position(|&f| f == i);
        for i in 0..n {
            for j in 0..n {
                if i == j || games[i][j] == 0.0 {
                    continue;
                }
                let p = expected_score(r[i] - r[j]);
                if let Some(fi) = index(i) {
                    grad[fi] += K * (points[i][j] - games[i][j] * p);
                    let w = K * K * games[i][j] * p * (1.0 - p);
                    h[fi][fi] += w;
                    if let Some(fj) = index(j) {
                        h[fi][fj] -= w;
                    }
                }
            }
        }
        (grad, h)
    };
    for it in 1..=200 {
        let (grad, h) = info(&r);
        let step = solve(h, grad).ok_or(FitError::Diverged)?;
        let max_step = step.iter().fold(0.0f64, |m, s| m.max(s.abs()));
        // Damped Newton: at most 400 Elo per step keeps the iteration stable far away.
        let scale = if max_step > 400.0 { 400.0 / max_step } else { 1.0 };
        for (k, &i) in free.iter().enumerate() {
            r[i] += scale * step[k];
        }
        if r.iter().any(|x| x.abs() > 5000.0 || !x.is_finite()) {
            return Err(FitError::Diverged);
        }
        if max_step < 1e-7 {
            let (_, h) = info(&r);
            let mut std_err = vec![0.0; n];
            for (k, &i) in free.iter().enumerate() {
                let mut e = vec![0.0; free.len()];
                e[k] = 1.0;
                let col = solve(h.clone(), e).ok_or(FitError::Diverged)?;
                std_err[i] = col[k].max(0.0).sqrt();
            }
            return Ok(Ratings { elo: r, std_err, iterations: it });
        }
    }
    Err(FitError::Diverged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() < tol
    }

    #[test]
    fn elo_of_hand_computed_scores() {
        assert_eq!(elo_from_score(0.5), 0.0);
        // 0.75: −400·log10(1/3) = 190.849.
        assert!(close(elo_from_score(0.75), 190.849, 1e-3));
        assert!(close(elo_from_score(0.25), -190.849, 1e-3));
        // 0.9: 400·log10(9) = 381.697.
        assert!(close(elo_from_score(0.9), 381.697, 1e-3));
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        for d in [-500.0, -100.0, 0.0, 37.0, 800.0] {
            assert!(close(elo_from_score(expected_score(d)), d, 1e-9));
        }
        // 100 Elo: 1/(1+10^−0.25) = 0.640065.
        assert!(close(expected_score(100.0), 0.640065, 1e-6));
    }

    #[test]
    fn match_score_interval_and_elo() {
        // 6 wins, 3 draws, 1 loss: 7.5 of 10 → Wilson (0.4422, 0.9191) (see stats.rs).
        let m = Wdl { wins: 6, draws: 3, losses: 1 };
        assert_eq!(m.games(), 10);
        assert_eq!(m.score(), 0.75);
        let (lo, hi) = m.score_interval();
        assert!(close(lo, 0.4422, 1e-4) && close(hi, 0.9191, 1e-4), "{lo} {hi}");
        assert!(close(m.elo(), 190.849, 1e-3));
        let (elo_lo, elo_hi) = m.elo_interval();
        // −400·log10(1/0.44215 − 1) = −40.4; −400·log10(1/0.91906 − 1) = 422.1.
        assert!(close(elo_lo, -40.4, 0.5) && close(elo_hi, 422.1, 0.5), "{elo_lo} {elo_hi}");
        assert_eq!(m.flipped(), Wdl { wins: 1, draws: 3, losses: 6 });
        let swept = Wdl { wins: 0, draws: 0, losses: 20 };
        assert_eq!(swept.elo(), f64::NEG_INFINITY);
        assert_eq!(swept.elo_interval().0, f64::NEG_INFINITY);
        assert!(swept.elo_interval().1.is_finite());
    }

    #[test]
    fn sprt_bounds_and_llr_match_hand_values() {
        let t = Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap();
        let (lo, hi) = t.bounds();
        // ln(0.05/0.95) = −2.944439.
        assert!(close(lo, -2.944439, 1e-6) && close(hi, 2.944439, 1e-6));
        // p0 = 0.5, p1 = 1/(1+10^−0.125) = 0.571463; 10 wins: 10·ln(1.142926) = 1.33589.
        let ten_wins = Wdl { wins: 10, draws: 0, losses: 0 };
        assert!(close(t.llr(&ten_wins), 1.33589, 1e-4), "{}", t.llr(&ten_wins));
        assert_eq!(t.decide(&ten_wins), SprtDecision::Continue);
        // 10 losses: 10·ln(0.428537/0.5) = −1.54224.
        assert!(close(t.llr(&ten_wins.flipped()), -1.54224, 1e-4));
        // 23 straight wins cross the upper bound (23·0.133589 = 3.07), 22 do not.
        assert_eq!(t.decide(&Wdl { wins: 22, ..Wdl::default() }), SprtDecision::Continue);
        assert_eq!(t.decide(&Wdl { wins: 23, ..Wdl::default() }), SprtDecision::AcceptH1);
        assert_eq!(t.decide(&Wdl { losses: 20, ..Wdl::default() }), SprtDecision::AcceptH0);
        // Two draws are one win and one loss.
        let d = Wdl { draws: 2, ..Wdl::default() };
        assert!(close(t.llr(&d), t.llr(&Wdl { wins: 1, losses: 1, draws: 0 }), 1e-12));
        assert!(Sprt::new(50.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 50.0, 0.0, 0.05).is_err());
    }

    #[test]
    fn two_agents_fit_to_the_elo_of_their_score() {
        // A scores 15 of 20 against B: the MLE difference is elo_from_score(0.75).
        let res = [PairResult { a: 0, b: 1, games: 20.0, points: 15.0 }];
        let r = fit_ratings(2, 1, &res, 0.0).unwrap();
        assert_eq!(r.elo[1], 0.0);
        assert!(close(r.elo[0], 190.849, 1e-3), "{:?}", r.elo);
        // Standard error: 1/sqrt(n·k²·p(1−p)) = 1/sqrt(20·k²·0.1875) with k = ln10/400.
        let k = std::f64::consts::LN_10 / 400.0;
        assert!(close(r.std_err[0], 1.0 / (20.0 * k * k * 0.1875).sqrt(), 1e-6));
        assert_eq!(r.std_err[1], 0.0);
        // One virtual draw: 15.5 of 21.
        let r = fit_ratings(2, 1, &res, 1.0).unwrap();
        assert!(close(r.elo[0], elo_from_score(15.5 / 21.0), 1e-3));
    }

    #[test]
    fn chains_add_up_and_sweeps_need_a_prior() {
        // A beats B 75%, B beats C 75%, A and C never met: A is 2·190.849 above C.
        let res = [
            PairResult { a: 0, b: 1, games: 40.0, points: 30.0 },
            PairResult { a: 1, b: 2, games: 40.0, points: 30.0 },
        ];
        let r = fit_ratings(3, 2, &res, 0.0).unwrap();
        assert!(close(r.elo[1], 190.849, 1e-3) && close(r.elo[0], 381.697, 1e-3), "{:?}", r.elo);
        // The A–C uncertainty is larger than the B–C one.
        assert!(r.std_err[0] > r.std_err[1]);
        // A clean sweep has no MLE; a prior gives a finite rating.
        let sweep = [PairResult { a: 0, b: 1, games: 10.0, points: 10.0 }];
        assert_eq!(fit_ratings(2, 1, &sweep, 0.0), Err(FitError::Diverged));
        let r = fit_ratings(2, 1, &sweep, 1.0).unwrap();
        assert!(close(r.elo[0], elo_from_score(10.5 / 11.0), 1e-3));
        // An agent that played nobody is reported.
        assert_eq!(fit_ratings(3, 0, &sweep, 1.0), Err(FitError::Disconnected(2)));
    }
}

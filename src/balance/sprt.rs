//! Whether a card is fair, decided by a sequential test as chess-engine testing decides
//! whether a patch is better (fishtest, OpenBench): games are played in pairs with the same
//! seed and the seats swapped, so the luck of the dice and of the first move cancels within
//! a pair, and after each batch of pairs a generalized sequential probability ratio test
//! (the normal approximation over the pairs' scores, as fishtest's pentanomial GSPRT) says
//! whether the card's rate is within the fair band or outside it by at least the margin.
//!
//! Two one-sided tests run side by side: above the band (H0: rate = band's top; H1: rate =
//! top + margin) and below it (H0: rate = band's bottom; H1: bottom - margin). The card is
//! too strong when the first accepts H1, too weak when the second does, fair when both
//! accept H0; otherwise, at the cap, not decided. Each test errs with probability about
//! `alpha` (calling a card at the band's edge unfair) and `beta` (calling a card the margin
//! beyond it fair); `tests::error_rates_hold_on_a_card_whose_rate_is_known` checks both by
//! simulation.

use super::{BATCH, BalanceError, Runner};

/// The test's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// The fair band of win rates.
    pub band: (f64, f64),
    /// How far beyond the band a card must be to be unfair.
    pub margin: f64,
    /// The chance of calling a card at the band's edge unfair.
    pub alpha: f64,
    /// The chance of calling a card `margin` beyond the band fair.
    pub beta: f64,
    /// The most pairs played before the test gives up (not decided).
    pub max_pairs: u64,
}

impl Sprt {
    /// Checks the settings: a band inside (0, 1), a margin that keeps both alternatives in
    /// (0, 1), error rates in (0, 0.5).
    pub fn checked(self) -> Result<Sprt, BalanceError> {
        let bad = |m: String| Err(BalanceError::Field(m));
        let (lo, hi) = self.band;
        if !(0.0 < lo && lo <= hi && hi < 1.0) {
            return bad(format!("the fair band {lo} to {hi} is not inside 0 to 1"));
        }
        if !(self.margin > 0.0 && lo - self.margin > 0.0 && hi + self.margin < 1.0) {
            return bad(format!(
                "--margin {} must be above 0 and keep {lo} - margin and {hi} + margin inside 0 to 1",
                self.margin
            ));
        }
        for (name, e) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(e > 0.0 && e < 0.5) {
                return bad(format!("{name} {e} must be between 0 and 0.5"));
            }
        }
        if self.max_pairs == 0 {
            return Err(BalanceError::MaxGames);
        }
        Ok(self)
    }

    /// The bounds of the log-likelihood ratio: at or below the first, H0 is accepted; at or
    /// above the second, H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }
}

/// What the test concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Fair,
    TooStrong,
    TooWeak,
    NotDecided,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Fair => "fair",
            Verdict::TooStrong => "too_strong",
            Verdict::TooWeak => "too_weak",
            Verdict::NotDecided => "not_decided",
        }
    }
}

/// The test's result and its figures.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    pub verdict: Verdict,
    /// Pairs played (two games each).
    pub pairs: u64,
    /// The card's win rate over them (draws half).
    pub win_rate: f64,
    /// The log-likelihood ratios of the test above the band and below it, when last checked.
    pub llr_above: f64,
    pub llr_below: f64,
    pub bounds: (f64, f64),
    pub settings: Sprt,
}

impl Outcome {
    pub fn decided(&self) -> bool {
        self.verdict != Verdict::NotDecided
    }
}

/// The log-likelihood ratio of H1 (rate `p1`) against H0 (rate `p0`) for pair scores in
/// half-wins (0 to 4 a pair): the normal approximation over the pairs' mean scores.
pub fn llr(pairs: &[u8], p0: f64, p1: f64) -> f64 {
    let n = pairs.len() as f64;
    if pairs.is_empty() {
        return 0.0;
    }
    let x = |s: u8| f64::from(s) / 4.0;
    let mean = pairs.iter().map(|&s| x(s)).sum::<f64>() / n;
    let var = pairs.iter().map(|&s| (x(s) - mean).powi(2)).sum::<f64>() / n;
    // A run of identical pairs has no variance yet: take a small floor (a quarter of a
    // half-win's spread) so the ratio stays finite and moves with more pairs.
    let var = var.max(1.0 / 64.0);
    n * (p1 - p0) * (2.0 * mean - p0 - p1) / (2.0 * var)
}

/// The decision after `pairs` pair scores, each one-sided test's state kept in `above` and
/// `below` (`Some(true)`: accepted H1, `Some(false)`: accepted H0), which a decided test
/// keeps.
pub fn step(
    s: &Sprt,
    pairs: &[u8],
    above: &mut Option<bool>,
    below: &mut Option<bool>,
) -> (Verdict, f64, f64) {
    let (a, b) = s.bounds();
    let (lo, hi) = s.band;
    let la = llr(pairs, hi, hi + s.margin);
    let lb = llr(pairs, lo, lo - s.margin);
    for (state, l) in [(&mut *above, la), (&mut *below, lb)] {
        if state.is_none() {
            if l >= b {
                *state = Some(true);
            } else if l <= a {
                *state = Some(false);
            }
        }
    }
    let v = match (*above, *below) {
        (Some(true), _) => Verdict::TooStrong,
        (_, Some(true)) => Verdict::TooWeak,
        (Some(false), Some(false)) => Verdict::Fair,
        _ => Verdict::NotDecided,
    };
    (v, la, lb)
}

/// Runs the test over pair scores from `pair(j)` (half-wins of the pair's two games, 0 to
/// 4), checked after each batch of pairs, until decided or `max_pairs`.
pub fn run<F>(s: Sprt, runner: &Runner<'_>, pair: &F) -> Result<Outcome, BalanceError>
where
    F: Fn(u64) -> u8 + Sync,
{
    let s = s.checked()?;
    let batch = (BATCH / 2).max(1);
    let mut scores: Vec<u8> = Vec::new();
    let (mut above, mut below) = (None, None);
    let mut n = 0;
    loop {
        // The pairs so far are `scores[..n]`: a shard's runner may hand over more at once.
        n = (n + batch).min(s.max_pairs);
        runner.extend(&mut scores, n, pair)?;
        let played = &scores[..n as usize];
        let (verdict, la, lb) = step(&s, played, &mut above, &mut below);
        if verdict != Verdict::NotDecided || n >= s.max_pairs {
            return Ok(outcome(s, played, verdict, la, lb));
        }
    }
}

/// The test's outcome after `scores`, with its verdict and last log-likelihood ratios.
pub fn outcome(s: Sprt, scores: &[u8], verdict: Verdict, la: f64, lb: f64) -> Outcome {
    let half_wins: u64 = scores.iter().map(|&x| u64::from(x)).sum();
    Outcome {
        verdict,
        pairs: scores.len() as u64,
        win_rate: if scores.is_empty() {
            0.0
        } else {
            half_wins as f64 / (4 * scores.len()) as f64
        },
        llr_above: la,
        llr_below: lb,
        bounds: s.bounds(),
        settings: s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    const SETTINGS: Sprt = Sprt {
        band: (0.45, 0.55),
        margin: 0.05,
        alpha: 0.05,
        beta: 0.05,
        max_pairs: 40_000,
    };

    /// The test run on simulated pairs of a card whose true rate is `p` (each game won with
    /// chance `p`, no draws), checked every 250 pairs as [`run`] checks.
    fn simulate(p: f64, seed: u64) -> Verdict {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut scores = Vec::new();
        let (mut above, mut below) = (None, None);
        loop {
            for _ in 0..250 {
                let g = |rng: &mut ChaCha8Rng| if rng.random_bool(p) { 2u8 } else { 0 };
                let s = g(&mut rng) + g(&mut rng);
                scores.push(s);
            }
            let (v, _, _) = step(&SETTINGS, &scores, &mut above, &mut below);
            if v != Verdict::NotDecided || scores.len() as u64 >= SETTINGS.max_pairs {
                return v;
            }
        }
    }

    /// The share of `runs` simulated tests at rate `p` that give `v`.
    fn share(p: f64, v: Verdict, runs: u64) -> f64 {
        (0..runs).filter(|&k| simulate(p, 1000 + k) == v).count() as f64 / runs as f64
    }

    #[test]
    fn error_rates_hold_on_a_card_whose_rate_is_known() {
        let runs = 300;
        // Three standard errors of a share near 5% over 300 runs: 3.8 points.
        let slack = 3.0 * (0.05f64 * 0.95 / runs as f64).sqrt();
        // At the band's edge, the card is fair: called too strong at most alpha of the time.
        let false_unfair = share(0.55, Verdict::TooStrong, runs);
        assert!(false_unfair <= SETTINGS.alpha + slack, "{false_unfair}");
        // The margin beyond the band, it is unfair: called fair at most beta of the time.
        let false_fair = share(0.60, Verdict::Fair, runs);
        assert!(false_fair <= SETTINGS.beta + slack, "{false_fair}");
        // The same below the band.
        let false_fair = share(0.40, Verdict::Fair, runs);
        assert!(false_fair <= SETTINGS.beta + slack, "{false_fair}");
        // Well inside the band, nearly always fair; well outside, never.
        assert!(share(0.50, Verdict::Fair, 100) >= 0.9);
        assert_eq!(share(0.70, Verdict::Fair, 100), 0.0);
        assert!(share(0.70, Verdict::TooStrong, 100) >= 0.99);
    }

    #[test]
    fn the_ratio_leans_toward_the_hypothesis_the_pairs_are_nearer() {
        let strong = vec![4u8, 3, 4, 2, 4, 3, 4, 4];
        assert!(llr(&strong, 0.55, 0.60) > 0.0);
        let even = vec![2u8, 2, 1, 3, 2, 2, 3, 1];
        assert!(llr(&even, 0.55, 0.60) < 0.0);
        assert!(llr(&even, 0.45, 0.40) < 0.0);
        assert_eq!(llr(&[], 0.5, 0.6), 0.0);
    }

    #[test]
    fn settings_that_cannot_be_tested_are_refused() {
        let bad = |f: fn(&mut Sprt)| {
            let mut s = SETTINGS;
            f(&mut s);
            s.checked().is_err()
        };
        assert!(bad(|s| s.margin = 0.0));
        assert!(bad(|s| s.margin = 0.5));
        assert!(bad(|s| s.alpha = 0.5));
        assert!(bad(|s| s.beta = 0.0));
        assert!(bad(|s| s.band = (0.6, 0.4)));
        assert!(bad(|s| s.max_pairs = 0));
        assert!(SETTINGS.checked().is_ok());
    }
}

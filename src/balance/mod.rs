//! Balance: how a card fares against a field, which of its parts carry it, and the smallest
//! change that would make it fair (`spec/balance.md`, `docs/balance.md`).
//!
//! Measurement is over per-game scores in half-wins (0 lost, 1 drawn or no result, 2 won:
//! a draw counts as half a win). A [`Runner`] plays game indices in batches on its own
//! thread pool and keeps the scores in index order, so a run stops at the same batch and
//! gives the same figures at any thread count. A [`Rate`] stops at a target precision of its
//! 95% interval (or at the game cap); a [`Delta`] is a paired run: the same game indices,
//! hence the same seeds and opponents, played by two versions of the card, so luck cancels
//! and the difference has its own, much narrower, interval.
//!
//! No I/O, clock or global RNG here: seeds are handed in; the games are pure functions of
//! (seed, game index).

pub mod arcadia;
pub mod arcadia_parts;
pub mod builds;
pub mod iconica;
pub mod iconoclasm;
pub mod ruunara;
pub mod shard;
pub mod sprt;
pub mod sweep;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use crate::sim::wilson;

/// Games played between two checks of the stopping rule.
pub const BATCH: u64 = 500;

/// The normal quantile of a 95% interval.
const Z95: f64 = 1.96;

/// What went wrong before a balance report could be made.
#[derive(Debug, thiserror::Error)]
pub enum BalanceError {
    #[error("precision must be between 0 and 0.5 (exclusive), not {0}")]
    Precision(f64),
    #[error("max games must be at least 1")]
    MaxGames,
    #[error("{0}")]
    Field(String),
    #[error("the card is not valid: {0}")]
    Card(String),
    #[error("the match could not be set up: {0}")]
    Setup(#[from] crate::games::iconica::engine::SetupError),
    #[error("thread pool: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The run was cancelled through its stop flag.
    #[error("stopped")]
    Stopped,
    /// A run recorded or replayed in shards ([`shard`]) could not be.
    #[error("shards: {0}")]
    Shard(String),
}

/// When a run stops: once its 95% interval's half-width is at most `precision`, or at
/// `max_games`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stopping {
    pub precision: f64,
    pub max_games: u64,
}

impl Default for Stopping {
    fn default() -> Self {
        Stopping {
            precision: 0.02,
            max_games: 100_000,
        }
    }
}

impl Stopping {
    /// Checks the bounds: a precision strictly between 0 and 0.5, at least one game.
    pub fn checked(precision: f64, max_games: u64) -> Result<Stopping, BalanceError> {
        if !(precision > 0.0 && precision < 0.5) {
            return Err(BalanceError::Precision(precision));
        }
        if max_games == 0 {
            return Err(BalanceError::MaxGames);
        }
        Ok(Stopping {
            precision,
            max_games,
        })
    }
}

/// Why a run stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    Precision,
    MaxGames,
}

impl Stopped {
    pub fn as_str(self) -> &'static str {
        match self {
            Stopped::Precision => "precision",
            Stopped::MaxGames => "max_games",
        }
    }
}

/// A win rate (draws as half) over `games`, with its 95% Wilson interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    pub games: u64,
    pub win_rate: f64,
    pub ci95: (f64, f64),
    pub stopped: Stopped,
}

impl Rate {
    /// The rate of scores (half-wins) `s`.
    pub fn of(s: &[u8], stopped: Stopped) -> Rate {
        let n = s.len() as u64;
        let half_wins: u64 = s.iter().map(|&x| u64::from(x)).sum();
        Rate::of_sums(half_wins, n, stopped)
    }

    /// The rate of `half_wins` over `n` games (what a file keeps of a rate: its sums, so it
    /// reads back to the same figures).
    pub fn of_sums(half_wins: u64, n: u64, stopped: Stopped) -> Rate {
        Rate {
            games: n,
            win_rate: if n == 0 {
                0.0
            } else {
                half_wins as f64 / (2 * n) as f64
            },
            ci95: wilson_halves(half_wins, n),
            stopped,
        }
    }

    pub fn half_width(&self) -> f64 {
        (self.ci95.1 - self.ci95.0) / 2.0
    }
}

/// The Wilson interval of `half_wins / 2` successes in `n` games: the mean of two Wilson
/// intervals (rounding the half-wins down and up), so a draw counts as half a win.
fn wilson_halves(half_wins: u64, n: u64) -> (f64, f64) {
    let (lo1, hi1) = wilson(half_wins / 2, n, Z95);
    let (lo2, hi2) = wilson(half_wins.div_ceil(2), n, Z95);
    ((lo1 + lo2) / 2.0, (hi1 + hi2) / 2.0)
}

/// A paired difference: `other - base` over the same games, with its 95% interval (normal,
/// from the per-game differences), and each side's own rate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Delta {
    pub games: u64,
    pub delta: f64,
    pub ci95: (f64, f64),
    pub base: Rate,
    pub other: Rate,
    pub stopped: Stopped,
}

impl Delta {
    /// The paired difference of two score lists of the same games.
    pub fn of(base: &[u8], other: &[u8], stopped: Stopped) -> Delta {
        let n = base.len().min(other.len());
        let (base, other) = (&base[..n], &other[..n]);
        let (mean, half) = mean_half_width(
            base.iter()
                .zip(other)
                .map(|(&b, &o)| i64::from(o) - i64::from(b)),
            n as u64,
        );
        Delta {
            games: n as u64,
            delta: mean,
            ci95: (mean - half, mean + half),
            base: Rate::of(base, stopped),
            other: Rate::of(other, stopped),
            stopped,
        }
    }

    pub fn half_width(&self) -> f64 {
        (self.ci95.1 - self.ci95.0) / 2.0
    }
}

/// The mean (in wins: half-wins / 2) of `n` differences in half-wins and the half-width of
/// its 95% normal interval, in exact integer sums.
fn mean_half_width(d: impl Iterator<Item = i64>, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (mut s, mut s2) = (0i64, 0i64);
    for x in d {
        s += x;
        s2 += x * x;
    }
    let nf = n as f64;
    let mean = s as f64 / nf;
    let var = if n > 1 {
        ((s2 as f64 - s as f64 * mean) / (nf - 1.0)).max(0.0)
    } else {
        4.0
    };
    (mean / 2.0, Z95 * (var / nf).sqrt() / 2.0)
}

/// The half-width of the unpaired 95% interval of `other - base`, as if the two sides had
/// been played on independent games (for comparing with the paired one).
pub fn unpaired_half_width(base: &[u8], other: &[u8]) -> f64 {
    let var = |s: &[u8]| {
        let n = s.len() as u64;
        let (_, h) = mean_half_width(s.iter().map(|&x| i64::from(x)), n);
        h * h
    };
    (var(base) + var(other)).sqrt()
}

/// Plays game indices in parallel and applies the stopping rule; or, given a
/// [`shard::Ledger`], records a shard's block of every run or replays merged runs.
pub struct Runner<'a> {
    pool: rayon::ThreadPool,
    pub stopping: Stopping,
    stop: &'a AtomicBool,
    ledger: Option<Arc<Mutex<shard::Ledger>>>,
    /// The label of the runs asked for now ([`Runner::labelled`]).
    label: Mutex<String>,
}

impl<'a> Runner<'a> {
    /// A runner on `threads` threads (default: every core), cancelled when `stop` is set.
    pub fn new(
        threads: Option<usize>,
        stopping: Stopping,
        stop: &'a AtomicBool,
    ) -> Result<Runner<'a>, BalanceError> {
        let mut b = rayon::ThreadPoolBuilder::new();
        if let Some(t) = threads {
            b = b.num_threads(t.max(1));
        }
        Ok(Runner {
            pool: b.build()?,
            stopping,
            stop,
            ledger: None,
            label: Mutex::new(String::new()),
        })
    }

    /// This runner recording or replaying through `ledger` ([`shard`]): every run's games are
    /// the ledger's, whatever the stopping rule asks.
    pub fn with_ledger(mut self, ledger: Arc<Mutex<shard::Ledger>>) -> Runner<'a> {
        self.ledger = Some(ledger);
        self
    }

    /// Whether this runner records a shard: its figures are not the report's, and a report
    /// that would choose what to measure from a figure measures every choice instead.
    pub fn explores(&self) -> bool {
        self.ledger
            .as_ref()
            .is_some_and(|l| l.lock().is_ok_and(|l| l.records()))
    }

    /// `f` with the runs it asks for labelled `label` (so a shard's runs are found by what
    /// they measure, not by the order a search happened to take).
    pub fn labelled<T>(&self, label: &str, f: impl FnOnce() -> T) -> T {
        let before = self.set_label(label.to_string());
        let out = f();
        self.set_label(before);
        out
    }

    fn set_label(&self, label: String) -> String {
        match self.label.lock() {
            Ok(mut l) => std::mem::replace(&mut *l, label),
            Err(p) => std::mem::replace(&mut *p.into_inner(), label),
        }
    }

    /// Scores of games `from..to` (`play(index)` in half-wins, or any score up to
    /// [`shard::MAX_SCORE`]), in index order.
    pub fn scores<F>(&self, from: u64, to: u64, play: &F) -> Result<Vec<u8>, BalanceError>
    where
        F: Fn(u64) -> u8 + Sync,
    {
        match &self.ledger {
            Some(ledger) => self.ledgered(ledger, from, to, play),
            None => self.played(from, to, play),
        }
    }

    /// A run's games through the ledger: on its first request, every game of the run (the
    /// shard's block played, a draw for the others' when recording).
    fn ledgered<F>(
        &self,
        ledger: &Mutex<shard::Ledger>,
        from: u64,
        to: u64,
        play: &F,
    ) -> Result<Vec<u8>, BalanceError>
    where
        F: Fn(u64) -> u8 + Sync,
    {
        let bad = |m: String| BalanceError::Shard(m);
        if from != 0 {
            return Err(bad(format!("a run asked again for games {from} to {to}")));
        }
        let label = match self.label.lock() {
            Ok(l) => l.clone(),
            Err(p) => p.into_inner().clone(),
        };
        let kind = std::any::type_name::<F>();
        let lock = || {
            ledger
                .lock()
                .map_err(|_| bad("the ledger was poisoned".into()))
        };
        let (key, range, games) = {
            let mut l = lock()?;
            let games = l.games();
            if to > games {
                return Err(bad(format!(
                    "a run asked for {to} games, more than every run's {games}"
                )));
            }
            match l.next(&label, kind).map_err(bad)? {
                shard::Next::Known(s) => return Ok(s.to_vec()),
                shard::Next::Play(key, range) => (key, range, games),
            }
        };
        let block = self.played(range.start, range.end, play)?;
        if block.iter().any(|&s| s > shard::MAX_SCORE) {
            return Err(bad(format!(
                "run `{key}` scores above {}",
                shard::MAX_SCORE
            )));
        }
        let mut all = vec![1u8; usize::try_from(games).unwrap_or(usize::MAX)];
        all[range.start as usize..range.end as usize].copy_from_slice(&block);
        lock()?.keep(key, block);
        Ok(all)
    }

    /// Plays games `from..to`.
    fn played<F>(&self, from: u64, to: u64, play: &F) -> Result<Vec<u8>, BalanceError>
    where
        F: Fn(u64) -> u8 + Sync,
    {
        let stop = self.stop;
        let out: Vec<Option<u8>> = self.pool.install(|| {
            (from..to)
                .into_par_iter()
                .map(|i| (!stop.load(Ordering::Relaxed)).then(|| play(i)))
                .collect()
        });
        out.into_iter()
            .collect::<Option<Vec<u8>>>()
            .ok_or(BalanceError::Stopped)
    }

    /// Extends `scores` (games `0..len`) to at least `n` games.
    pub fn extend<F>(&self, scores: &mut Vec<u8>, n: u64, play: &F) -> Result<(), BalanceError>
    where
        F: Fn(u64) -> u8 + Sync,
    {
        let have = scores.len() as u64;
        if have < n {
            scores.extend(self.scores(have, n, play)?);
        }
        Ok(())
    }

    /// A win rate, played in batches until its interval is narrow enough. `scores` caches
    /// the games already played (it is extended, and its first games reused).
    pub fn rate<F>(&self, scores: &mut Vec<u8>, play: &F) -> Result<Rate, BalanceError>
    where
        F: Fn(u64) -> u8 + Sync,
    {
        let mut n = 0;
        loop {
            n = (n + BATCH).min(self.stopping.max_games);
            self.extend(scores, n, play)?;
            let r = Rate::of(&scores[..n as usize], Stopped::Precision);
            if r.half_width() <= self.stopping.precision {
                return Ok(r);
            }
            if n >= self.stopping.max_games {
                return Ok(Rate {
                    stopped: Stopped::MaxGames,
                    ..r
                });
            }
        }
    }

    /// A paired run: `other` on the same game indices as `base` (whose scores are cached
    /// in `base_scores`), in batches until the difference's interval is narrow enough.
    pub fn paired<B, O>(
        &self,
        base_scores: &mut Vec<u8>,
        base: &B,
        other: &O,
    ) -> Result<Delta, BalanceError>
    where
        B: Fn(u64) -> u8 + Sync,
        O: Fn(u64) -> u8 + Sync,
    {
        self.paired_to(self.stopping, base_scores, base, other)
    }

    /// [`Runner::paired`] under another stopping rule (a quick screen, say).
    pub fn paired_to<B, O>(
        &self,
        stopping: Stopping,
        base_scores: &mut Vec<u8>,
        base: &B,
        other: &O,
    ) -> Result<Delta, BalanceError>
    where
        B: Fn(u64) -> u8 + Sync,
        O: Fn(u64) -> u8 + Sync,
    {
        self.paired_into(stopping, base_scores, &mut Vec::new(), base, other)
    }

    /// [`Runner::paired_to`], keeping `other`'s scores in `other_scores` (games `0..len`
    /// already played are reused).
    pub fn paired_into<B, O>(
        &self,
        stopping: Stopping,
        base_scores: &mut Vec<u8>,
        other_scores: &mut Vec<u8>,
        base: &B,
        other: &O,
    ) -> Result<Delta, BalanceError>
    where
        B: Fn(u64) -> u8 + Sync,
        O: Fn(u64) -> u8 + Sync,
    {
        let mine = other_scores;
        let mut n = 0;
        loop {
            n = (n + BATCH).min(stopping.max_games);
            self.extend(base_scores, n, base)?;
            self.extend(mine, n, other)?;
            let d = Delta::of(
                &base_scores[..n as usize],
                &mine[..n as usize],
                Stopped::Precision,
            );
            if d.half_width() <= stopping.precision {
                return Ok(d);
            }
            if n >= stopping.max_games {
                return Ok(Delta {
                    stopped: Stopped::MaxGames,
                    ..d
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_counts_as_half_a_win() {
        let r = Rate::of(&[2, 0, 1, 1], Stopped::Precision);
        assert_eq!(r.win_rate, 0.5);
        assert!(r.ci95.0 < 0.5 && r.ci95.1 > 0.5);
    }

    #[test]
    fn identical_sides_differ_by_exactly_zero() {
        let s = [2, 0, 1, 2, 0, 0];
        let d = Delta::of(&s, &s, Stopped::Precision);
        assert_eq!((d.delta, d.ci95), (0.0, (0.0, 0.0)));
    }

    #[test]
    fn a_paired_difference_matches_a_hand_computation() {
        // Differences in wins: +1, 0, +0.5, 0: mean 0.375.
        let d = Delta::of(&[0, 2, 1, 0], &[2, 2, 2, 0], Stopped::Precision);
        assert!((d.delta - 0.375).abs() < 1e-12);
        // Sample sd of (1, 0, .5, 0) = 0.4787; half-width 1.96 * 0.4787 / 2.
        assert!((d.half_width() - 1.96 * 0.478_713 / 2.0).abs() < 1e-4);
    }

    #[test]
    fn precision_zero_is_refused() {
        assert!(Stopping::checked(0.0, 10).is_err());
        assert!(Stopping::checked(0.02, 0).is_err());
        assert!(Stopping::checked(0.02, 10).is_ok());
    }

    #[test]
    fn runs_stop_at_the_same_batch_at_any_thread_count() {
        let play = |i: u64| (crate::sim::game_seed(4, i) % 3) as u8;
        let never = AtomicBool::new(false);
        let stopping = Stopping::checked(0.03, 50_000).unwrap();
        let one = Runner::new(Some(1), stopping, &never)
            .unwrap()
            .rate(&mut Vec::new(), &play)
            .unwrap();
        let two = Runner::new(Some(2), stopping, &never)
            .unwrap()
            .rate(&mut Vec::new(), &play)
            .unwrap();
        assert_eq!(one, two);
        assert_eq!(one.stopped, Stopped::Precision);
        assert!(one.half_width() <= 0.03);
        assert_eq!(one.games % BATCH, 0);
        let capped = Runner::new(Some(2), Stopping::checked(0.001, 700).unwrap(), &never)
            .unwrap()
            .rate(&mut Vec::new(), &play)
            .unwrap();
        assert_eq!((capped.games, capped.stopped), (700, Stopped::MaxGames));
    }

    #[test]
    fn a_stopped_runner_has_no_result() {
        let stop = AtomicBool::new(true);
        let r = Runner::new(Some(1), Stopping::default(), &stop)
            .unwrap()
            .rate(&mut Vec::new(), &|_| 2);
        assert!(matches!(r, Err(BalanceError::Stopped)));
    }
}

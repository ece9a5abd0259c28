//! Runs many seeded matches in parallel (rayon) and sums their results; statistics (Wilson
//! intervals). Each game's seed derives from (seed, game index) and results are sums, so a
//! run gives the same counts at any thread count. A run may be stopped between games.

pub mod arcadia;
pub mod iconica;
pub mod iconoclasm;

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

/// How one match ended, game-independently.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MatchResult {
    /// 0 = side a won, 1 = side b won, 2 = draw, 3 = no result (stopped).
    pub outcome: u8,
    pub turns: u32,
    /// Index into [`Summary::ended`] (the game's own list of endings).
    pub ended: u8,
}

/// Summed results of many matches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u64,
    /// Wins of a, wins of b, draws, no result.
    pub wins: [u64; 4],
    pub turns: u64,
    /// Counts by ending (the game's list).
    pub ended: [u64; 4],
}

impl Summary {
    pub fn add(&mut self, r: MatchResult) {
        self.games += 1;
        self.wins[r.outcome.min(3) as usize] += 1;
        self.turns += r.turns as u64;
        self.ended[r.ended.min(3) as usize] += 1;
    }
    pub fn merge(mut self, o: Summary) -> Summary {
        self.games += o.games;
        self.turns += o.turns;
        for i in 0..4 {
            self.wins[i] += o.wins[i];
            self.ended[i] += o.ended[i];
        }
        self
    }
    /// Side a's win rate (draws count as not won).
    pub fn win_rate_a(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.wins[0] as f64 / self.games as f64 }
    }
    pub fn ci95_a(&self) -> (f64, f64) {
        wilson(self.wins[0], self.games, 1.96)
    }
    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.turns as f64 / self.games as f64 }
    }
}

/// Wilson score interval of k successes in n trials at normal quantile z.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = k as f64 / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The seed of game `index` of a run seeded `seed` (SplitMix64 of both).
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.wrapping_add(0x632B_E59B_D9B4_E019);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Derives independent seeds from one (SplitMix64 of seed and stream): the streams of one
/// `play`ed match (dice, each side's policy).
pub fn derive_seed(seed: u64, stream: u64) -> u64 {
    let mut z = seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Games per progress step.
const CHUNK: u64 = 256;

/// Plays `games` matches (`play(index)`) on `threads` threads (default: all cores), calling
/// `progress(done)` after each chunk. The sum does not depend on the thread count.
pub fn run<F, P>(games: u64, threads: Option<usize>, play: F, progress: P) -> Result<Summary, rayon::ThreadPoolBuildError>
where
    F: Fn(u64) -> MatchResult + Sync,
    P: Fn(u64) + Sync,
{
    let never = AtomicBool::new(false);
    Ok(run_stoppable(games, threads, play, progress, &never)?.unwrap_or_default())
}

/// [`run`], checking `stop` before each game: `None` when it was set before the last game
/// was played (the partial sums are dropped: a stopped run has no result).
pub fn run_stoppable<F, P>(
    games: u64,
    threads: Option<usize>,
    play: F,
    progress: P,
    stop: &AtomicBool,
) -> Result<Option<Summary>, rayon::ThreadPoolBuildError>
where
    F: Fn(u64) -> MatchResult + Sync,
    P: Fn(u64) + Sync,
{
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t.max(1));
    }
    let pool = pool.build()?;
    let chunks = games.div_ceil(CHUNK);
    let summary = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut s = Summary::default();
                let end = ((c + 1) * CHUNK).min(games);
                for i in c * CHUNK..end {
                    if stop.load(Ordering::Relaxed) {
                        return s;
                    }
                    s.add(play(i));
                }
                progress(end - c * CHUNK);
                s
            })
            .reduce(Summary::default, Summary::merge)
    });
    Ok((summary.games == games).then_some(summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_value() {
        // 50 of 100 at z = 1.96: [0.4038, 0.5962].
        let (lo, hi) = wilson(50, 100, 1.96);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        let (lo, hi) = wilson(0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    #[test]
    fn sums_do_not_depend_on_threads() {
        let f = |i: u64| MatchResult { outcome: (game_seed(7, i) % 3) as u8, turns: (i % 17) as u32, ended: 0 };
        let one = run(3000, Some(1), f, |_| {}).unwrap();
        let two = run(3000, Some(2), f, |_| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.games, 3000);
    }

    #[test]
    fn a_stopped_run_has_no_result_and_an_unstopped_one_equals_run() {
        let f = |i: u64| MatchResult { outcome: (game_seed(3, i) % 3) as u8, turns: 1, ended: 0 };
        let go = AtomicBool::new(false);
        assert_eq!(run_stoppable(600, Some(2), f, |_| {}, &go).unwrap(), Some(run(600, Some(1), f, |_| {}).unwrap()));
        let stop = AtomicBool::new(false);
        let played = std::sync::atomic::AtomicU64::new(0);
        let g = |i: u64| {
            if played.fetch_add(1, Ordering::Relaxed) == 10 {
                stop.store(true, Ordering::Relaxed);
            }
            f(i)
        };
        assert_eq!(run_stoppable(600, Some(1), g, |_| {}, &stop).unwrap(), None);
        assert!(played.load(Ordering::Relaxed) < 600);
    }

    #[test]
    fn derived_seeds_differ_by_stream_and_repeat() {
        assert_eq!(derive_seed(5, 1), derive_seed(5, 1));
        assert_ne!(derive_seed(5, 1), derive_seed(5, 2));
        assert_ne!(derive_seed(5, 1), derive_seed(6, 1));
    }
}

//! Runs many seeded matches of any [`Game`] in parallel (rayon) and sums their typed results
//! ([`Tally`]: wins per seat, draws, endings by name, turns); statistics (Wilson intervals).
//! Each game's seed derives from (seed, game index) and results are sums, so a run gives the
//! same counts at any thread count. A run may be stopped between games, and reports progress.

pub mod arcadia;
pub mod health;
pub mod iconica;
pub mod iconoclasm;
pub mod shard;

use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::games::ai::{Agent, Evaluated, Policy};
use crate::games::dice::Dice;
use crate::games::game::{Ending, MAX_SEATS, Outcome, Turn, Verdict};

pub use crate::games::run::{MAX_ENDINGS, play_seeded, seat_seed};
use crate::games::session::decision_seed;

/// Summed typed results of many matches of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tally<E> {
    pub games: u64,
    /// Matches each seat won (a shared win counts for each winner).
    pub wins: [u64; MAX_SEATS],
    pub draws: u64,
    /// Matches that stopped with no result.
    pub no_result: u64,
    pub turns: u64,
    /// Matches by ending, in [`Ending::ALL`] order.
    pub ended: [u64; MAX_ENDINGS],
    ending: PhantomData<E>,
}

impl<E> Default for Tally<E> {
    fn default() -> Self {
        Tally {
            games: 0,
            wins: [0; MAX_SEATS],
            draws: 0,
            no_result: 0,
            turns: 0,
            ended: [0; MAX_ENDINGS],
            ending: PhantomData,
        }
    }
}

impl<E: Ending> Tally<E> {
    pub fn add(&mut self, o: Outcome<E>) {
        self.games += 1;
        match o.verdict {
            Verdict::Won(w) => w
                .iter()
                .filter(|s| *s < MAX_SEATS)
                .for_each(|s| self.wins[s] += 1),
            Verdict::Draw => self.draws += 1,
            Verdict::NoResult => self.no_result += 1,
        }
        self.turns += u64::from(o.turns);
        self.ended[o.ended.index().min(MAX_ENDINGS - 1)] += 1;
    }

    pub fn merge(mut self, o: Tally<E>) -> Tally<E> {
        self.games += o.games;
        self.draws += o.draws;
        self.no_result += o.no_result;
        self.turns += o.turns;
        for i in 0..MAX_SEATS {
            self.wins[i] += o.wins[i];
        }
        for i in 0..MAX_ENDINGS {
            self.ended[i] += o.ended[i];
        }
        self
    }

    /// Seat `seat`'s win rate (draws count as not won) and its 95% Wilson interval.
    pub fn win_rate(&self, seat: usize) -> (f64, (f64, f64)) {
        let k = self.wins.get(seat).copied().unwrap_or(0);
        (
            if self.games == 0 {
                0.0
            } else {
                k as f64 / self.games as f64
            },
            wilson(k, self.games, 1.96),
        )
    }

    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.turns as f64 / self.games as f64
        }
    }

    /// (name, count) of every ending, in [`Ending::ALL`] order.
    pub fn endings(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        E::ALL
            .iter()
            .map(|e| (e.name(), self.ended[e.index().min(MAX_ENDINGS - 1)]))
    }

    /// Seat 0's (side a's) win rate, draws counting as not won.
    pub fn win_rate_a(&self) -> f64 {
        self.win_rate(0).0
    }

    /// Seat 0's (side a's) 95% Wilson interval.
    pub fn ci95_a(&self) -> (f64, f64) {
        self.win_rate(0).1
    }
}

/// Plays `games` matches (`play(index)`) of one game on `threads` threads, checking `stop`
/// before each game and calling `progress(done)` after each chunk: `None` when stopped (a
/// stopped run has no result). The sums do not depend on the thread count.
pub fn run_tally<E, F, P>(
    games: u64,
    threads: Option<usize>,
    play: F,
    progress: P,
    stop: &AtomicBool,
) -> Result<Option<Tally<E>>, rayon::ThreadPoolBuildError>
where
    E: Ending,
    F: Fn(u64) -> Outcome<E> + Sync,
    P: Fn(u64) + Sync,
{
    run_chunks(games, threads, &play, &progress, stop)
}

/// Plays one match as `play --seed seed` does ([`crate::games::any::AnyGame::play_on`]),
/// logged: chance from `dice` (the match's stream, or a script), the decision at input `i`
/// by seat `k`'s policy (`policies[k]`, the last one for seats past the list) seeded
/// [`decision_seed`]`(seed, i)`; `log` holds what the start of the match logged. Returns the
/// final position and the whole log.
pub fn play_logged<G: Evaluated, D: Dice>(
    mut game: G,
    mut log: Vec<G::Event>,
    mut dice: D,
    policies: &[Policy],
    seed: u64,
) -> (G, Vec<G::Event>) {
    let mut inputs = 0usize;
    loop {
        let a = match game.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match game.dealt(c).or_else(|| c.draw(&mut dice)) {
                Some(o) => o,
                None => {
                    game.exhausted(&mut log);
                    break;
                }
            },
            Turn::Seat { seat, options } => {
                Agent::<G::Eval>::new(Policy::of_seat(policies, seat), decision_seed(seed, inputs))
                    .choose(&game, seat, options)
                    .min(options.saturating_sub(1))
            }
        };
        game.apply_logged(a, &mut log);
        inputs += 1;
    }
    (game, log)
}

/// The summed results of a two-sided game (Iconica, Arcadia): seat 0 is side a.
pub type Summary = Tally<crate::games::Ended>;

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

pub use crate::games::dice::{derive_seed, game_seed};

/// Games per progress step.
const CHUNK: u64 = 256;

/// Plays `games` matches (`play(index)`) on `threads` threads (default: all cores), calling
/// `progress(done)` after each chunk. The sum does not depend on the thread count.
pub fn run<F, P>(
    games: u64,
    threads: Option<usize>,
    play: F,
    progress: P,
) -> Result<Summary, rayon::ThreadPoolBuildError>
where
    F: Fn(u64) -> Outcome<crate::games::Ended> + Sync,
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
    F: Fn(u64) -> Outcome<crate::games::Ended> + Sync,
    P: Fn(u64) + Sync,
{
    run_chunks(games, threads, &play, &progress, stop)
}

/// What a run sums its games into: each chunk of games adds into a default sum, and the
/// chunks' sums are merged. A `merge` that is associative and commutative gives the same
/// sum at any thread count.
pub trait Sum: Default + Send {
    /// What one game gives.
    type Game;
    fn add(&mut self, game: Self::Game);
    fn merge(self, other: Self) -> Self;
    /// The games summed.
    fn games(&self) -> u64;
}

impl<E: Ending> Sum for Tally<E> {
    type Game = Outcome<E>;
    fn add(&mut self, game: Outcome<E>) {
        Tally::add(self, game);
    }
    fn merge(self, other: Tally<E>) -> Tally<E> {
        Tally::merge(self, other)
    }
    fn games(&self) -> u64 {
        self.games
    }
}

/// The runner behind [`run_stoppable`] and [`run_tally`]: chunks of games summed into `S`,
/// in parallel; `None` when `stop` was set before the last game (the sum's games short of
/// `games`).
pub fn run_chunks<S, F, P>(
    games: u64,
    threads: Option<usize>,
    play: &F,
    progress: &P,
    stop: &AtomicBool,
) -> Result<Option<S>, rayon::ThreadPoolBuildError>
where
    S: Sum,
    F: Fn(u64) -> S::Game + Sync,
    P: Fn(u64) + Sync,
{
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        pool = pool.num_threads(t.max(1));
    }
    let pool = pool.build()?;
    let chunks = games.div_ceil(CHUNK);
    let sum = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut s = S::default();
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
            .reduce(S::default, S::merge)
    });
    Ok((sum.games() == games).then_some(sum))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_known_value() {
        // 50 of 100 at z = 1.96: [0.4038, 0.5962].
        let (lo, hi) = wilson(50, 100, 1.96);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 10, 1.96);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.2 && hi < 0.35);
    }

    /// A two-sided outcome: `k` 0 (a wins), 1 (b wins) or 2 (a draw).
    fn outcome(k: u8, turns: u32) -> Outcome<crate::games::Ended> {
        Outcome {
            verdict: match k {
                0 | 1 => Verdict::Won(crate::games::game::Seats::one(usize::from(k))),
                _ => Verdict::Draw,
            },
            ended: crate::games::Ended::Victory,
            turns,
        }
    }

    #[test]
    fn sums_do_not_depend_on_threads() {
        let f = |i: u64| outcome((game_seed(7, i) % 3) as u8, (i % 17) as u32);
        let one = run(3000, Some(1), f, |_| {}).unwrap();
        let two = run(3000, Some(2), f, |_| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(one.games, 3000);
    }

    #[test]
    fn a_stopped_run_has_no_result_and_an_unstopped_one_equals_run() {
        let f = |i: u64| outcome((game_seed(3, i) % 3) as u8, 1);
        let go = AtomicBool::new(false);
        assert_eq!(
            run_stoppable(600, Some(2), f, |_| {}, &go).unwrap(),
            Some(run(600, Some(1), f, |_| {}).unwrap())
        );
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

//! The strongest legal builds a min-maxer would find before the players do (`deckwright
//! health ... --builds`): a bounded local search. From each starting build (the bundled
//! examples, or the builds given), every build one legal swap away (one card for another
//! legal one) is measured by its win rate over a fixed set of seeded games (the same games
//! for every build, so the comparison is paired), and the search moves to the best
//! neighbour while it improves, for at most [`Climb::steps`] moves. Every build measured
//! is kept; the strongest are reported with their win rate and 95% interval.
//!
//! Seeded and bounded: the games of a build are a pure function of (seed, game index); at
//! most `steps x neighbours x games` games a start. No clock or global RNG.

use super::iconica::{Settings, legal_parties};
use super::{BalanceError, Rate, Runner, Stopped};
use crate::games::dice::{RngDice, game_seed};
use crate::games::game::Verdict;
use crate::games::iconica::engine::{IconicaGame, Setup};
use crate::games::iconica::model::Character;
use crate::sim::play_seeded;

/// How far a search goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Climb {
    /// Games a build is measured over (the same game indices for every build).
    pub games: u64,
    /// The most moves from a start.
    pub steps: usize,
    /// The builds reported, strongest first.
    pub keep: usize,
}

impl Default for Climb {
    fn default() -> Self {
        Climb {
            games: 200,
            steps: 3,
            keep: 3,
        }
    }
}

/// A build measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Found<B> {
    pub build: B,
    /// The build in words (its cards).
    pub name: String,
    /// Its win rate over the search's games.
    pub rate: Rate,
    /// The moves from its start that led to it (`start` for a start itself).
    pub path: Vec<String>,
}

/// Hill climbs from each of `starts`: `neighbours(b)` lists the builds one legal swap from
/// `b` (each with the swap in words), `name(b)` a build in words, `play(b, i)` game `i` of
/// build `b` in half-wins. The strongest distinct builds met, at most `c.keep`.
pub fn climb<B: Clone + PartialEq + Sync>(
    starts: &[B],
    neighbours: &dyn Fn(&B) -> Vec<(String, B)>,
    name: &dyn Fn(&B) -> String,
    play: &(dyn Fn(&B, u64) -> u8 + Sync),
    c: &Climb,
    runner: &Runner<'_>,
) -> Result<Vec<Found<B>>, BalanceError> {
    let mut met: Vec<Found<B>> = Vec::new();
    let measure =
        |b: &B, path: Vec<String>, met: &mut Vec<Found<B>>| -> Result<Rate, BalanceError> {
            if let Some(f) = met.iter().find(|f| &f.build == b) {
                return Ok(f.rate);
            }
            let scores =
                runner.labelled(&name(b), || runner.scores(0, c.games, &|i| play(b, i)))?;
            let rate = Rate::of(&scores, Stopped::MaxGames);
            met.push(Found {
                build: b.clone(),
                name: name(b),
                rate,
                path,
            });
            Ok(rate)
        };
    for start in starts {
        let mut at = start.clone();
        let mut path = vec!["start".to_string()];
        let mut best = measure(&at, path.clone(), &mut met)?.win_rate;
        for _ in 0..c.steps {
            let mut next: Option<(f64, String, B)> = None;
            for (swap, b) in neighbours(&at) {
                let mut p = path.clone();
                p.push(swap.clone());
                let r = measure(&b, p, &mut met)?.win_rate;
                if r > best && next.as_ref().is_none_or(|n| r > n.0) {
                    next = Some((r, swap, b));
                }
            }
            let Some((r, swap, b)) = next else { break };
            best = r;
            path.push(swap);
            at = b;
        }
    }
    met.sort_by(|a, b| {
        b.rate
            .win_rate
            .total_cmp(&a.rate.win_rate)
            .then(a.name.cmp(&b.name))
    });
    met.truncate(c.keep);
    Ok(met)
}

/// The strongest Iconica parties of `pool` found from `start` (pool indices) against
/// `against` (the other side, as given): neighbours are the legal parties of the pool that
/// keep two of the three and share no Legend or Special with `against`; game `i` seats the
/// searched party first when `i` is even.
pub fn iconica_parties(
    pool: &[Character],
    starts: &[[usize; 3]],
    against: &[Character],
    settings: Settings,
    c: &Climb,
    runner: &Runner<'_>,
) -> Result<Vec<Found<[usize; 3]>>, BalanceError> {
    let legal = legal_parties(pool);
    let theirs: Vec<&str> = against
        .iter()
        .filter(|c| c.rarity.is_legend_or_special())
        .map(|c| c.id.as_str())
        .collect();
    let meets = |p: &[usize; 3]| {
        !p.iter().any(|&i| {
            pool[i].rarity.is_legend_or_special() && theirs.contains(&pool[i].id.as_str())
        })
    };
    let neighbours = |p: &[usize; 3]| -> Vec<(String, [usize; 3])> {
        legal
            .iter()
            .filter(|q| meets(q) && q.iter().filter(|i| p.contains(i)).count() == 2)
            .map(|q| {
                let out = p.iter().find(|i| !q.contains(i)).copied().unwrap_or(0);
                let inn = q.iter().find(|i| !p.contains(i)).copied().unwrap_or(0);
                (format!("{} for {}", pool[inn].name, pool[out].name), *q)
            })
            .collect()
    };
    let name = |p: &[usize; 3]| {
        p.iter()
            .map(|&i| pool[i].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let play = |p: &[usize; 3], i: u64| -> u8 {
        let mine: Vec<Character> = p.iter().map(|&k| pool[k].clone()).collect();
        let seat = (i & 1) as usize;
        let setup = if seat == 0 {
            Setup::duel(&mine, against, settings.rules)
        } else {
            Setup::duel(against, &mine, settings.rules)
        };
        let Ok(setup) = setup else { return 1 };
        let g = game_seed(settings.seed, i);
        match play_seeded(IconicaGame::new(&setup), RngDice::new(g), &[settings.ai], g).verdict {
            Verdict::Won(w) if w.contains(seat) => 2,
            Verdict::Won(_) => 0,
            Verdict::Draw | Verdict::NoResult => 1,
        }
    };
    climb(starts, &neighbours, &name, &play, c, runner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::balance::Stopping;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn a_climb_moves_to_a_stronger_neighbour_and_reports_the_strongest_first() {
        // Builds are numbers; a build's neighbours are one more and one less (0 to 9); a
        // build n wins n games in 10 (by game index), so the climb goes up to 9.
        let never = AtomicBool::new(false);
        let runner = Runner::new(Some(1), Stopping::default(), &never).unwrap();
        let c = Climb {
            games: 10,
            steps: 20,
            keep: 2,
        };
        let found = climb(
            &[3u8],
            &|&b| {
                [b.checked_sub(1), (b < 9).then_some(b + 1)]
                    .into_iter()
                    .flatten()
                    .map(|n| (format!("{n} for {b}"), n))
                    .collect()
            },
            &|b| b.to_string(),
            &|&b, i| if i < u64::from(b) { 2 } else { 0 },
            &c,
            &runner,
        )
        .unwrap();
        assert_eq!(found[0].build, 9);
        assert_eq!(found[0].rate.win_rate, 0.9);
        assert_eq!(found[0].path.last().unwrap(), "9 for 8");
        assert_eq!(found[1].build, 8);
        // Bounded: two steps from 3 reach 5 at most.
        let short = climb(
            &[3u8],
            &|&b| vec![(format!("{}", b + 1), b + 1)],
            &|b| b.to_string(),
            &|&b, i| if i < u64::from(b) { 2 } else { 0 },
            &Climb { steps: 2, ..c },
            &runner,
        )
        .unwrap();
        assert_eq!(short[0].build, 5);
    }
}

//! The rules' own health (`deckwright health`): seeded matches of one setup under each policy
//! (every seat playing it), read for what a designer would want to know before the players
//! find it: an ending never reached or always reached, a seat or the first player winning
//! more than a set share, matches stopped by the turn limit, decisions with no option, and
//! options offered again and again that no policy ever takes. Each finding names a seed that
//! reproduces it: match `k` of a check seeded `s` is the match `play ... --seed s+k --policy P`
//! plays (the same dice, the same agents: [`crate::sim::play_recorded`]).
//!
//! The work is bounded: at most [`MAX_GAMES`] matches a policy, and every match is played by
//! an engine that ends by its own turn limit. A check may be stopped between matches.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::{Tally, wilson};
use crate::games::ai::{Agent, Evaluated, Policy};
use crate::games::dice::{Dice, derive_seed};
use crate::games::game::{Ending, Outcome, Turn, Verdict};

/// The most matches a policy plays in one check.
pub const MAX_GAMES: u64 = 100_000;

/// The most distinct option texts a check keeps count of (the rest are counted together).
const MAX_OPTION_TEXTS: usize = 4_096;

/// What a check plays and what counts as a warning.
#[derive(Debug, Clone)]
pub struct Checkup {
    /// Matches per policy.
    pub games: u64,
    /// The first match's seed; match `k` is seeded `seed + k`.
    pub seed: u64,
    /// The policies, each played by every seat in turn.
    pub policies: Vec<Policy>,
    /// A seat (or the first player) winning more than this share is flagged when its 95%
    /// interval lies wholly above the share.
    pub share: f64,
    /// An option text offered at least this many times and never taken is flagged.
    pub dead_after: u64,
}

impl Default for Checkup {
    fn default() -> Self {
        Checkup {
            games: 200,
            seed: 1,
            policies: vec![Policy::Random, Policy::Greedy],
            share: 0.6,
            dead_after: 50,
        }
    }
}

/// What kind of trouble a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A decision with no option to take: the rules left a seat stuck.
    NoOption,
    /// Matches stopped by the turn (or round) limit rather than by the rules' ending.
    TurnLimit,
    /// One seat wins more than the share.
    SeatFavoured,
    /// Whoever moves first wins more than the share.
    FirstFavoured,
    /// Every match ended the same way.
    AlwaysReached,
    /// An ending no match reached.
    NeverReached,
    /// An option offered many times that no policy took.
    DeadOption,
}

impl Kind {
    /// Its name in a report.
    pub fn title(self) -> &'static str {
        match self {
            Kind::NoOption => "no option",
            Kind::TurnLimit => "turn limit",
            Kind::SeatFavoured => "seat favoured",
            Kind::FirstFavoured => "first player favoured",
            Kind::AlwaysReached => "always the same ending",
            Kind::NeverReached => "ending never reached",
            Kind::DeadOption => "option never taken",
        }
    }
}

/// One warning, with the policy that showed it and a seed that reproduces it.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Finding {
    pub kind: Kind,
    /// The policy the matches were played by (`None`: every policy of the check).
    pub policy: Option<String>,
    pub text: String,
    /// A match that shows it: `play ... --seed SEED --policy POLICY`.
    pub seed: Option<u64>,
}

/// The matches of one policy, summed.
#[derive(Debug, Clone)]
pub struct PolicyRun<E> {
    pub policy: Policy,
    pub tally: Tally<E>,
    /// Matches won by the seat that took the first decision, of those with a winner.
    pub first_wins: u64,
    pub first_decided: u64,
    /// The seats that took a decision in some match (a bit each): with one, whoever moves
    /// first is always the same seat.
    pub deciders: u64,
    /// The first seed per ending.
    pub ended_seed: BTreeMap<&'static str, u64>,
    /// The first seed and step of a decision with no option.
    pub no_option: Option<(u64, usize)>,
    /// The first seed of a match each seat won.
    pub won_seed: Vec<Option<u64>>,
    /// Times each option text was offered and taken.
    pub options: BTreeMap<String, (u64, u64)>,
}

/// A whole check: each policy's run, and what was found.
#[derive(Debug, Clone)]
pub struct Health<E> {
    pub runs: Vec<PolicyRun<E>>,
    pub findings: Vec<Finding>,
}

impl<E: Ending> Health<E> {
    /// One line per policy: each seat's win rate, the mean turns and the endings.
    pub fn summary(&self) -> Vec<String> {
        self.runs
            .iter()
            .map(|r| {
                let wins: Vec<String> = (0..r.won_seed.len())
                    .map(|s| format!("player {} {:.1}%", s + 1, r.tally.win_rate(s).0 * 100.0))
                    .collect();
                let ends: Vec<String> =
                    r.tally.endings().map(|(n, k)| format!("{n} {k}")).collect();
                format!(
                    "{}: {}; mean turns {:.1}; ended: {}",
                    r.policy.name(),
                    wins.join(", "),
                    r.tally.mean_turns(),
                    ends.join(", ")
                )
            })
            .collect()
    }
}

/// The findings a report shows: every one but the options never taken past the first
/// `dead` of them (the most offered), and how many of those it leaves out.
pub fn shown(findings: &[Finding], dead: usize) -> (Vec<&Finding>, usize) {
    let is_dead = |f: &&Finding| f.kind == Kind::DeadOption;
    let left_out = findings.iter().filter(is_dead).count().saturating_sub(dead);
    let shown = findings
        .iter()
        .filter(|f| !is_dead(f))
        .chain(findings.iter().filter(is_dead).take(dead))
        .collect();
    (shown, left_out)
}

/// One match's account.
struct Played<E> {
    outcome: Outcome<E>,
    first: Option<usize>,
    /// The seats that took a decision (a bit each).
    deciders: u64,
    no_option: Option<usize>,
    /// (text, offered, taken) of the options this match offered.
    options: Vec<(String, bool)>,
}

/// Plays match `seed` from `game` by `policy` (every seat), as `play --seed SEED --policy P`
/// plays it, counting what it offered.
fn play_one<G: Evaluated, D: Dice>(
    mut game: G,
    mut dice: D,
    policy: Policy,
    seed: u64,
) -> Played<G::Ending> {
    let mut agents: Vec<Agent<G::Eval>> = (0..game.seats())
        .map(|k| Agent::new(policy, derive_seed(seed, k as u64 + 1)))
        .collect();
    let mut first = None;
    let mut deciders = 0u64;
    let mut no_option = None;
    let mut options = Vec::new();
    let mut step = 0usize;
    loop {
        let a = match game.turn() {
            Turn::Over => break,
            Turn::Chance(c) => match c.draw(&mut dice) {
                Some(o) => o,
                None => {
                    game.exhausted(&mut Vec::new());
                    break;
                }
            },
            Turn::Seat { options: 0, .. } => {
                // A seat with nothing to do: the engine cannot go on from here.
                no_option.get_or_insert(step);
                break;
            }
            Turn::Seat { seat, options: n } => {
                first.get_or_insert(seat);
                deciders |= 1 << (seat % 64);
                let seats = agents.len();
                let a = agents[seat % seats].choose(&game, seat, n).min(n - 1);
                if options.len() < MAX_OPTION_TEXTS {
                    options.extend((0..n).map(|i| (game.describe(i), i == a)));
                }
                a
            }
        };
        game.apply(a);
        step += 1;
    }
    let outcome = game.outcome().unwrap_or(Outcome {
        verdict: Verdict::NoResult,
        ended: *<G::Ending as Ending>::ALL
            .last()
            .expect("a game has endings"),
        turns: game.turns(),
    });
    Played {
        outcome,
        first,
        deciders,
        no_option,
        options,
    }
}

/// Checks a setup under each policy of `c`: `start(seed)` is the first position of the
/// match `play --seed SEED` plays and the chance it draws from. `None` when stopped.
pub fn check<G, D, F>(start: F, c: &Checkup, stop: &AtomicBool) -> Option<Health<G::Ending>>
where
    G: Evaluated,
    D: Dice,
    F: Fn(u64) -> (G, D) + Sync,
{
    check_with(start, c, stop, &|_| {})
}

/// [`check`], calling `done(1)` after each match (a face's progress: `c.games` matches a
/// policy in all).
pub fn check_with<G, D, F>(
    start: F,
    c: &Checkup,
    stop: &AtomicBool,
    done: &(dyn Fn(u64) + Sync),
) -> Option<Health<G::Ending>>
where
    G: Evaluated,
    D: Dice,
    F: Fn(u64) -> (G, D) + Sync,
{
    let games = c.games.clamp(1, MAX_GAMES);
    let seats = start(c.seed).0.seats();
    let mut runs = Vec::new();
    for &policy in &c.policies {
        let played: Vec<Option<Played<G::Ending>>> = (0..games)
            .into_par_iter()
            .map(|k| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let seed = c.seed.wrapping_add(k);
                let (game, dice) = start(seed);
                let p = play_one(game, dice, policy, seed);
                done(1);
                Some(p)
            })
            .collect();
        let mut run = PolicyRun {
            policy,
            tally: Tally::default(),
            first_wins: 0,
            first_decided: 0,
            deciders: 0,
            ended_seed: BTreeMap::new(),
            no_option: None,
            won_seed: vec![None; seats],
            options: BTreeMap::new(),
        };
        for (k, p) in played.into_iter().enumerate() {
            let p = p?;
            let seed = c.seed.wrapping_add(k as u64);
            run.tally.add(p.outcome);
            run.deciders |= p.deciders;
            run.ended_seed.entry(p.outcome.ended.name()).or_insert(seed);
            if let Verdict::Won(w) = p.outcome.verdict {
                for s in w.iter().filter(|s| *s < seats) {
                    run.won_seed[s].get_or_insert(seed);
                }
                if let Some(f) = p.first {
                    run.first_decided += 1;
                    if w.iter().any(|s| s == f) {
                        run.first_wins += 1;
                    }
                }
            }
            if let Some(step) = p.no_option {
                run.no_option.get_or_insert((seed, step));
            }
            for (text, taken) in p.options {
                if run.options.len() >= MAX_OPTION_TEXTS && !run.options.contains_key(&text) {
                    continue;
                }
                let e = run.options.entry(text).or_default();
                e.0 += 1;
                e.1 += u64::from(taken);
            }
        }
        runs.push(run);
    }
    let findings = findings(&runs, c);
    Some(Health { runs, findings })
}

/// Whether an ending is the work of a limit (turns, rounds) rather than of the rules'
/// goals.
fn is_limit(name: &str) -> bool {
    name.ends_with("_limit")
}

/// Endings a seeded match cannot reach (a dice script ran out): never flagged as unreached.
fn is_scripted(name: &str) -> bool {
    name == "dice_exhausted"
}

fn findings<E: Ending>(runs: &[PolicyRun<E>], c: &Checkup) -> Vec<Finding> {
    let mut out = Vec::new();
    let goals = E::ALL
        .iter()
        .filter(|e| !is_limit(e.name()) && !is_scripted(e.name()))
        .count();
    for run in runs {
        let policy = Some(run.policy.name());
        let games = run.tally.games;
        if let Some((seed, step)) = run.no_option {
            out.push(Finding {
                kind: Kind::NoOption,
                policy: policy.clone(),
                text: format!(
                    "a seat had no option to take at step {step}: the match cannot go on"
                ),
                seed: Some(seed),
            });
        }
        for (name, n) in run.tally.endings() {
            let seed = run.ended_seed.get(name).copied();
            if is_limit(name) && n > 0 {
                out.push(Finding {
                    kind: Kind::TurnLimit,
                    policy: policy.clone(),
                    text: format!("{n} of {games} matches stopped at the limit ({name})"),
                    seed,
                });
            }
            // A game with one goal ending reaches it every time; with several, always the same
            // one says the others are out of reach.
            if n == games && games > 1 && goals > 1 && !is_limit(name) {
                out.push(Finding {
                    kind: Kind::AlwaysReached,
                    policy: policy.clone(),
                    text: format!("every match ended the same way: {name}"),
                    seed,
                });
            }
        }
        let seats = run.won_seed.len();
        if seats > 1 {
            for s in 0..seats {
                let (rate, (lo, _)) = run.tally.win_rate(s);
                if lo > c.share {
                    out.push(Finding {
                        kind: Kind::SeatFavoured,
                        policy: policy.clone(),
                        text: format!(
                            "player {} won {} of {games} ({:.0}%, 95% interval from {:.0}%), over the {:.0}% share",
                            s + 1,
                            run.tally.wins[s],
                            rate * 100.0,
                            lo * 100.0,
                            c.share * 100.0
                        ),
                        seed: run.won_seed[s],
                    });
                }
            }
            let (lo, _) = wilson(run.first_wins, run.first_decided, 1.96);
            if run.deciders.count_ones() > 1 && run.first_decided > 0 && lo > c.share {
                out.push(Finding {
                    kind: Kind::FirstFavoured,
                    policy: policy.clone(),
                    text: format!(
                        "the first player won {} of {} decided matches (95% interval from {:.0}%), over the {:.0}% share",
                        run.first_wins,
                        run.first_decided,
                        lo * 100.0,
                        c.share * 100.0
                    ),
                    seed: None,
                });
            }
        }
    }
    // Endings no policy reached.
    if let Some(first) = runs.first() {
        for (name, _) in first.tally.endings() {
            let reached = runs.iter().any(|r| r.ended_seed.contains_key(name));
            // A limit never reached is good news; a scripted ending cannot be reached here.
            if !reached && !is_scripted(name) && !is_limit(name) {
                out.push(Finding {
                    kind: Kind::NeverReached,
                    policy: None,
                    text: format!("no match ended by {name}"),
                    seed: None,
                });
            }
        }
    }
    // Options the policies that choose on purpose never took (random takes anything in the
    // end, so it counts only when it is the one policy of the check).
    let choosers: Vec<&PolicyRun<E>> = match runs
        .iter()
        .filter(|r| r.policy != Policy::Random)
        .collect::<Vec<_>>()
    {
        v if v.is_empty() => runs.iter().collect(),
        v => v,
    };
    let mut offered: BTreeMap<&str, u64> = BTreeMap::new();
    for r in &choosers {
        for (text, (n, _)) in &r.options {
            *offered.entry(text.as_str()).or_default() += n;
        }
    }
    let mut offered: Vec<(&str, u64)> = offered.into_iter().collect();
    offered.sort_by_key(|(_, n)| std::cmp::Reverse(*n));
    for (text, n) in offered {
        let taken = choosers
            .iter()
            .any(|r| r.options.get(text).is_some_and(|(_, t)| *t > 0));
        if !taken && n >= c.dead_after {
            out.push(Finding {
                kind: Kind::DeadOption,
                policy: (choosers.len() == 1).then(|| choosers[0].policy.name()),
                text: format!("offered {n} times, never taken: {text}"),
                seed: None,
            });
        }
    }
    // By kind (a stable sort: options never taken stay the most offered first).
    out.sort_by_key(|f| f.kind);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ai::Evaluator;
    use crate::games::dice::RngDice;
    use crate::games::game::{Chance, Game, Seats};

    /// Seat 0 picks: race (then a die: 1 or more wins it, 0 loses it), wait (the match
    /// stops at its limit) or stall (seat 1 is left with no option). Greedy always races.
    #[derive(Clone, Debug, Default)]
    struct Rigged {
        picked: Option<usize>,
        die: Option<usize>,
        /// Seat 1's one decision after the race's die (it has nothing better to do).
        shrugged: bool,
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum End {
        Victory,
        Surrender,
        TurnLimit,
        Stuck,
    }

    impl Ending for End {
        const ALL: &'static [End] = &[End::Victory, End::Surrender, End::TurnLimit, End::Stuck];
        fn name(self) -> &'static str {
            match self {
                End::Victory => "victory",
                End::Surrender => "surrender",
                End::TurnLimit => "turn_limit",
                End::Stuck => "stuck",
            }
        }
    }

    #[derive(Default, Clone)]
    struct RiggedEval;
    impl Evaluator<Rigged> for RiggedEval {
        fn value(&mut self, g: &Rigged, seat: usize) -> f64 {
            let v = match g.picked {
                Some(0) => 1.0,
                Some(2) => 0.5,
                _ => 0.0,
            };
            if seat == 0 { v } else { -v }
        }
    }

    impl Evaluated for Rigged {
        type Eval = RiggedEval;
    }

    impl Game for Rigged {
        type Ending = End;
        type Event = ();
        const NAME: &'static str = "rigged";
        fn seats(&self) -> usize {
            2
        }
        fn turn(&self) -> Turn {
            match (self.picked, self.die) {
                (None, _) => Turn::Seat {
                    seat: 0,
                    options: 3,
                },
                (Some(0), None) => Turn::Chance(Chance::Die),
                (Some(0), Some(_)) if !self.shrugged => Turn::Seat {
                    seat: 1,
                    options: 1,
                },
                (Some(2), _) => Turn::Seat {
                    seat: 1,
                    options: 0,
                },
                _ => Turn::Over,
            }
        }
        fn apply(&mut self, a: usize) {
            match (self.picked, self.die) {
                (None, _) => self.picked = Some(a),
                (Some(_), None) => self.die = Some(a),
                _ => self.shrugged = true,
            }
        }
        fn apply_logged(&mut self, a: usize, _log: &mut Vec<()>) {
            self.apply(a)
        }
        fn exhausted(&mut self, _log: &mut Vec<()>) {}
        fn outcome(&self) -> Option<Outcome<End>> {
            match (self.picked?, self.die) {
                (0, Some(d)) if self.shrugged => Some(Outcome {
                    verdict: Verdict::Won(Seats::one(if d >= 1 { 0 } else { 1 })),
                    ended: End::Victory,
                    turns: 1,
                }),
                (1, _) => Some(Outcome {
                    verdict: Verdict::NoResult,
                    ended: End::TurnLimit,
                    turns: 1,
                }),
                _ => None,
            }
        }
        fn turns(&self) -> u32 {
            1
        }
        fn question(&self) -> String {
            "pick".into()
        }
        fn describe(&self, a: usize) -> String {
            if self.picked.is_some() {
                "shrug".into()
            } else {
                ["race", "wait", "stall"][a].into()
            }
        }
        fn event_text(&self, _e: &()) -> String {
            String::new()
        }
        fn event_json(&self, _e: &()) -> serde_json::Value {
            serde_json::Value::Null
        }
    }

    fn rigged(seed: u64) -> (Rigged, RngDice) {
        (Rigged::default(), RngDice::new(seed))
    }

    fn checkup() -> Checkup {
        Checkup {
            games: 120,
            seed: 7,
            policies: vec![Policy::Random, Policy::Greedy],
            share: 0.6,
            dead_after: 50,
        }
    }

    fn find(h: &Health<End>, kind: Kind, policy: Option<&str>) -> Vec<Finding> {
        h.findings
            .iter()
            .filter(|f| f.kind == kind && f.policy.as_deref() == policy)
            .cloned()
            .collect()
    }

    #[test]
    fn a_rigged_game_shows_each_kind_of_trouble() {
        let h = check(rigged, &checkup(), &AtomicBool::new(false)).expect("not stopped");
        // Random stalls (no option for seat 1) and waits (the limit).
        assert_eq!(find(&h, Kind::NoOption, Some("random")).len(), 1);
        assert_eq!(find(&h, Kind::TurnLimit, Some("random")).len(), 1);
        assert!(find(&h, Kind::TurnLimit, Some("greedy")).is_empty());
        // Greedy always races: seat 0, the first player, wins about 5 in 6.
        assert_eq!(find(&h, Kind::SeatFavoured, Some("greedy")).len(), 1);
        assert_eq!(find(&h, Kind::FirstFavoured, Some("greedy")).len(), 1);
        assert_eq!(find(&h, Kind::AlwaysReached, Some("greedy")).len(), 1);
        // Nothing surrenders under any policy; stuck is reached (the no-option matches).
        let never = find(&h, Kind::NeverReached, None);
        assert_eq!(never.len(), 1, "{never:?}");
        assert!(never[0].text.contains("surrender"));
        // Greedy never waits or stalls though offered them every match.
        let dead = find(&h, Kind::DeadOption, Some("greedy"));
        let texts: Vec<&str> = dead.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(dead.len(), 2, "{texts:?}");
        assert!(
            texts.iter().any(|t| t.ends_with("wait")) && texts.iter().any(|t| t.ends_with("stall"))
        );
        assert!(!texts.iter().any(|t| t.ends_with("race")));
    }

    #[test]
    fn a_finding_seed_replays_as_play_plays_it() {
        let h = check(rigged, &checkup(), &AtomicBool::new(false)).expect("not stopped");
        let limit = &find(&h, Kind::TurnLimit, Some("random"))[0];
        let seed = limit.seed.expect("a limit names its seed");
        // `play --seed SEED --policy random`: the same dice and agents.
        let played = crate::sim::play_recorded(
            Rigged::default(),
            Vec::new(),
            RngDice::new(seed),
            &[Policy::Random],
            seed,
        );
        assert_eq!(played.game.outcome().map(|o| o.ended), Some(End::TurnLimit));
        let lost = h.runs[1].won_seed[1].expect("greedy loses now and then");
        let played = crate::sim::play_recorded(
            Rigged::default(),
            Vec::new(),
            RngDice::new(lost),
            &[Policy::Greedy],
            lost,
        );
        assert_eq!(
            played.game.outcome().map(|o| o.verdict),
            Some(Verdict::Won(Seats::one(1)))
        );
    }

    #[test]
    fn a_fair_game_has_no_favoured_seat_and_a_stopped_check_no_report() {
        let mut c = checkup();
        c.policies = vec![Policy::Greedy];
        c.share = 0.9;
        let h = check(rigged, &c, &AtomicBool::new(false)).unwrap();
        assert!(find(&h, Kind::SeatFavoured, Some("greedy")).is_empty());
        assert!(check(rigged, &c, &AtomicBool::new(true)).is_none());
    }
}

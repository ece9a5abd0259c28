//! The rules' own health (`deckwright health`): seeded matches of one setup under each policy
//! (every seat playing it), read for what a designer would want to know before the players
//! find it: an ending never reached or always reached, a seat or the first player winning
//! more than a set share, matches stopped by the turn limit, decisions with no option, and
//! options offered again and again that no policy ever takes. Each finding names a seed that
//! reproduces it: match `k` of a check seeded `s` is the match `play GAME ... --seed s+k
//! --policy P` plays (the same start, dice and agents: [`AnyGame::play_watched`] is what
//! `play` runs). Any registered game is checked the same way.
//!
//! The work is bounded: at most [`MAX_GAMES`] matches a policy, and every match is played by
//! an engine that ends by its own turn limit. A check may be stopped between matches.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use super::wilson;
use crate::games::ai::Policy;
use crate::games::any::AnyGame;
use crate::games::dice::RngDice;
use crate::games::game::Verdict;

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
    /// A match came back to a position it had been in (by [`crate::games::game::Game::fingerprint`]).
    RepeatedState,
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
            Kind::RepeatedState => "repeated state",
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
pub struct PolicyRun {
    pub policy: Policy,
    pub games: u64,
    /// Matches each seat won (a shared win counts for each winner).
    pub wins: Vec<u64>,
    pub draws: u64,
    pub no_result: u64,
    pub turns: u64,
    /// Matches by ending, in the game's order of endings.
    pub ended: Vec<(&'static str, u64)>,
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
    /// Matches that came back to a position they had been in.
    pub repeated: u64,
    /// The first such match: its seed, the decision that repeated and the one it repeated.
    pub repeat: Option<(u64, usize, usize)>,
}

impl PolicyRun {
    /// Seat `seat`'s win rate (a draw counts as not won) and its 95% Wilson interval.
    pub fn win_rate(&self, seat: usize) -> (f64, (f64, f64)) {
        let k = self.wins.get(seat).copied().unwrap_or(0);
        let rate = if self.games == 0 {
            0.0
        } else {
            k as f64 / self.games as f64
        };
        (rate, wilson(k, self.games, 1.96))
    }

    pub fn mean_turns(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.turns as f64 / self.games as f64
        }
    }
}

/// A whole check: each policy's run, and what was found.
#[derive(Debug, Clone)]
pub struct Health {
    pub runs: Vec<PolicyRun>,
    pub findings: Vec<Finding>,
}

impl Health {
    /// One line per policy: each seat's win rate, the mean turns and the endings.
    pub fn summary(&self) -> Vec<String> {
        self.runs
            .iter()
            .map(|r| {
                let wins: Vec<String> = (0..r.wins.len())
                    .map(|s| format!("player {} {:.1}%", s + 1, r.win_rate(s).0 * 100.0))
                    .collect();
                let ends: Vec<String> = r.ended.iter().map(|(n, k)| format!("{n} {k}")).collect();
                format!(
                    "{}: {}; mean turns {:.1}; ended: {}",
                    r.policy.name(),
                    wins.join(", "),
                    r.mean_turns(),
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
struct Played {
    verdict: Verdict,
    ended: &'static str,
    turns: u32,
    first: Option<usize>,
    /// The seats that took a decision (a bit each).
    deciders: u64,
    no_option: Option<usize>,
    /// (text, taken) of every option this match offered (up to a bound).
    options: Vec<(String, bool)>,
    /// The first decision whose position the match had been in before, and that one.
    repeat: Option<(usize, usize)>,
}

/// Plays match `seed` from `game` by `policy` (every seat), as `play --seed SEED --policy P`
/// plays it, counting what it offered.
fn play_one(mut game: Box<dyn AnyGame>, policy: Policy, seed: u64) -> Played {
    let mut first = None;
    let mut deciders = 0u64;
    let mut no_option = None;
    let mut options = Vec::new();
    let mut step = 0usize;
    let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut repeat = None;
    game.play_watched(&mut RngDice::new(seed), &[policy], seed, &mut |d| {
        step += 1;
        if d.options == 0 {
            // A seat with nothing to do: the engine cannot go on from here.
            no_option = Some(step - 1);
            return false;
        }
        if repeat.is_none() {
            if let Some(&before) = seen.get(&d.game.fingerprint()) {
                repeat = Some((step - 1, before));
            } else {
                seen.insert(d.game.fingerprint(), step - 1);
            }
        }
        first.get_or_insert(d.seat);
        deciders |= 1 << (d.seat % 64);
        if options.len() < MAX_OPTION_TEXTS {
            options.extend((0..d.options).map(|i| (d.game.describe(i), i == d.chosen)));
        }
        true
    });
    let (verdict, ended, turns) = match game.outcome() {
        Some(o) => (o.verdict, o.ended, o.turns),
        None => (Verdict::NoResult, STOPPED, 0),
    };
    Played {
        verdict,
        ended,
        turns,
        first,
        deciders,
        no_option,
        options,
        repeat,
    }
}

/// What a match that stopped with no ending (a decision with no option) ended by.
pub const STOPPED: &str = "stopped";

/// Checks a setup under each policy of `c`: `start(seed)` is the first position of the
/// match `play --seed SEED` plays (chance it does not fix drawn from `RngDice::new(SEED)`, as
/// `play` draws it); `endings` are the game's endings, in order. `None` when stopped;
/// `done(1)` after each match (a face's progress: `c.games` matches a policy).
pub fn check(
    start: &(dyn Fn(u64) -> Result<Box<dyn AnyGame>, String> + Sync),
    endings: &[&'static str],
    c: &Checkup,
    stop: &AtomicBool,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Option<Health>, String> {
    let games = c.games.clamp(1, MAX_GAMES);
    let seats = start(c.seed)?.seats();
    let mut runs = Vec::new();
    for &policy in &c.policies {
        let played: Vec<Option<Result<Played, String>>> = (0..games)
            .into_par_iter()
            .map(|k| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let seed = c.seed.wrapping_add(k);
                let p = start(seed).map(|g| play_one(g, policy, seed));
                done(1);
                Some(p)
            })
            .collect();
        let mut run = PolicyRun {
            policy,
            games: 0,
            wins: vec![0; seats],
            draws: 0,
            no_result: 0,
            turns: 0,
            ended: endings.iter().map(|e| (*e, 0)).collect(),
            first_wins: 0,
            first_decided: 0,
            deciders: 0,
            ended_seed: BTreeMap::new(),
            no_option: None,
            won_seed: vec![None; seats],
            options: BTreeMap::new(),
            repeated: 0,
            repeat: None,
        };
        for (k, p) in played.into_iter().enumerate() {
            let Some(p) = p else {
                return Ok(None);
            };
            let p = p?;
            let seed = c.seed.wrapping_add(k as u64);
            run.games += 1;
            run.turns += u64::from(p.turns);
            run.deciders |= p.deciders;
            match run.ended.iter_mut().find(|(n, _)| *n == p.ended) {
                Some(e) => e.1 += 1,
                None => run.ended.push((p.ended, 1)),
            }
            run.ended_seed.entry(p.ended).or_insert(seed);
            match p.verdict {
                Verdict::Won(w) => {
                    for s in w.iter().filter(|s| *s < seats) {
                        run.wins[s] += 1;
                        run.won_seed[s].get_or_insert(seed);
                    }
                    if let Some(f) = p.first {
                        run.first_decided += 1;
                        if w.iter().any(|s| s == f) {
                            run.first_wins += 1;
                        }
                    }
                }
                Verdict::Draw => run.draws += 1,
                Verdict::NoResult => run.no_result += 1,
            }
            if let Some(step) = p.no_option {
                run.no_option.get_or_insert((seed, step));
            }
            if let Some((at, before)) = p.repeat {
                run.repeated += 1;
                run.repeat.get_or_insert((seed, at, before));
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
    let findings = findings(&runs, endings, c);
    Ok(Some(Health { runs, findings }))
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

fn findings(runs: &[PolicyRun], endings: &[&'static str], c: &Checkup) -> Vec<Finding> {
    let mut out = Vec::new();
    let goals = endings
        .iter()
        .filter(|e| !is_limit(e) && !is_scripted(e))
        .count();
    for run in runs {
        let policy = Some(run.policy.name());
        let games = run.games;
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
        if let Some((seed, at, before)) = run.repeat {
            out.push(Finding {
                kind: Kind::RepeatedState,
                policy: policy.clone(),
                text: format!(
                    "{} of {games} matches came back to a position they had been in (the first: decision {at} was the position of decision {before})",
                    run.repeated
                ),
                seed: Some(seed),
            });
        }
        for &(name, n) in &run.ended {
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
                let (rate, (lo, _)) = run.win_rate(s);
                if lo > c.share {
                    out.push(Finding {
                        kind: Kind::SeatFavoured,
                        policy: policy.clone(),
                        text: format!(
                            "player {} won {} of {games} ({:.0}%, 95% interval from {:.0}%), over the {:.0}% share",
                            s + 1,
                            run.wins[s],
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
    if !runs.is_empty() {
        for &name in endings {
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
    let choosers: Vec<&PolicyRun> = match runs
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
    use crate::games::ai::{Evaluated, Evaluator};
    use crate::games::game::{Chance, Ending, Game, Outcome, Seats, Turn};

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
        fn fingerprint(&self) -> u64 {
            crate::games::game::fingerprint_of(&(self.picked, self.die, self.shrugged))
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
            Game::apply(self, a)
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

    fn run(c: &Checkup, stopped: bool) -> Option<Health> {
        let endings: Vec<&'static str> = End::ALL.iter().map(|e| e.name()).collect();
        check(
            &|_| Ok(Box::new(Rigged::default())),
            &endings,
            c,
            &AtomicBool::new(stopped),
            &|_| {},
        )
        .expect("the rigged game starts")
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

    fn find(h: &Health, kind: Kind, policy: Option<&str>) -> Vec<Finding> {
        h.findings
            .iter()
            .filter(|f| f.kind == kind && f.policy.as_deref() == policy)
            .cloned()
            .collect()
    }

    #[test]
    fn a_rigged_game_shows_each_kind_of_trouble() {
        let h = run(&checkup(), false).expect("not stopped");
        // Random stalls (no option for seat 1) and waits (the limit).
        assert_eq!(find(&h, Kind::NoOption, Some("random")).len(), 1);
        assert_eq!(find(&h, Kind::TurnLimit, Some("random")).len(), 1);
        assert!(find(&h, Kind::TurnLimit, Some("greedy")).is_empty());
        // Greedy always races: seat 0, the first player, wins about 5 in 6.
        assert_eq!(find(&h, Kind::SeatFavoured, Some("greedy")).len(), 1);
        assert_eq!(find(&h, Kind::FirstFavoured, Some("greedy")).len(), 1);
        assert_eq!(find(&h, Kind::AlwaysReached, Some("greedy")).len(), 1);
        // Nothing surrenders, and the stalled matches stop at no ending of the game's.
        let never = find(&h, Kind::NeverReached, None);
        let texts: Vec<&str> = never.iter().map(|f| f.text.as_str()).collect();
        assert_eq!(
            texts,
            ["no match ended by surrender", "no match ended by stuck"]
        );
        assert!(h.runs[0].ended.iter().any(|&(n, k)| n == STOPPED && k > 0));
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
    fn a_match_back_at_a_position_it_had_been_in_is_found_and_its_seed_replays_it() {
        // Pig comes back to where it was whenever both players bust in turn. It is found
        // through the registry: a game is named only in its folder and the registry's line.
        let pig = crate::games::registry::find("pig").expect("the toy game is registered");
        let new = pig.generic.expect("Pig plays on the generic board");
        let endings = (pig.options.sim.as_ref().expect("Pig simulates").endings)();
        let c = Checkup {
            policies: vec![Policy::Random],
            games: 60,
            ..checkup()
        };
        let h = check(
            &|_| Ok(new()),
            &endings,
            &c,
            &AtomicBool::new(false),
            &|_| {},
        )
        .unwrap()
        .unwrap();
        let f = &find(&h, Kind::RepeatedState, Some("random"))[0];
        let (seed, at, before) = h.runs[0].repeat.unwrap();
        assert_eq!(f.seed, Some(seed));
        assert!(before < at, "{f:?}");
        // The match `play --seed SEED --policy random` plays shows the same position at both.
        let mut g: Box<dyn AnyGame> = new();
        let mut prints = Vec::new();
        g.play_watched(&mut RngDice::new(seed), &[Policy::Random], seed, &mut |d| {
            prints.push((d.game.fingerprint(), d.game.describe(0), d.seat));
            true
        });
        assert_eq!(prints[at], prints[before]);
        // The rigged game never comes back: nothing is said of it.
        let rigged = run(&checkup(), false).unwrap();
        assert!(find(&rigged, Kind::RepeatedState, Some("random")).is_empty());
    }

    #[test]
    fn a_finding_seed_replays_as_play_plays_it() {
        let h = run(&checkup(), false).expect("not stopped");
        let limit = &find(&h, Kind::TurnLimit, Some("random"))[0];
        let seed = limit.seed.expect("a limit names its seed");
        // `play --seed SEED --policy P` plays through `AnyGame::play_on`: the same match.
        let play = |policy: Policy, seed: u64| {
            let mut g: Box<dyn AnyGame> = Box::new(Rigged::default());
            g.play_on(&mut RngDice::new(seed), &[policy], seed, &mut |_| {});
            g.outcome().expect("the match ended")
        };
        assert_eq!(play(Policy::Random, seed).ended, "turn_limit");
        let lost = h.runs[1].won_seed[1].expect("greedy loses now and then");
        assert_eq!(
            play(Policy::Greedy, lost).verdict,
            Verdict::Won(Seats::one(1))
        );
    }

    #[test]
    fn a_fair_game_has_no_favoured_seat_and_a_stopped_check_no_report() {
        let mut c = checkup();
        c.policies = vec![Policy::Greedy];
        c.share = 0.9;
        let h = run(&c, false).unwrap();
        assert!(find(&h, Kind::SeatFavoured, Some("greedy")).is_empty());
        assert!(run(&c, true).is_none());
    }
}

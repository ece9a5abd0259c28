//! Arcadia measured for a designer (the card editor's Balance panel and the Balance screen):
//! a merit's or flaw's verdict decided by the sequential test, the impact of each of its
//! parts, the cost change that makes it fair (confirmed), the designer's own field, and
//! every card ranked with its interval and its matchups, place by place.
//!
//! Verdicts here stop when decided: pairs of games (game `j` played with the card and
//! without it, [`arc::play_pair`]'s pairing) are played a look at a time and the sequential
//! test of [`super::sprt`] looks after each; a run stops as soon as the test accepts "fair"
//! or "unfair by the margin", or at its cap ("not decided"). The change the card makes is
//! reported with the 95% interval of the games actually played, never a precision the run
//! did not reach: a decided card's interval may be wide, and says so.
//!
//! No I/O, clock or global RNG; seeds are handed in.

use crate::cards::{Card, CardLookup};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::{ArcadiaCard, Effect, Merit, TestKind};
use crate::games::arcadia::rules::{check_character, check_setup};
use crate::games::arcadia::setup::SetupFile;
use crate::games::build::CardIndex;

use super::arcadia::{
    self as arc, FieldSetup, Matchup, Place, Settings, Subject, Version, matchups,
};
use super::sprt::{self, Outcome as TestOutcome, Sprt, Verdict};
use super::{BalanceError, Delta, Runner, Stopped};

/// Pairs played between two looks of the sequential test: small, so a clear card stops
/// after a few hundred games; the looks fall at fixed pair counts, so a run stops at the
/// same pair at any thread count.
pub const LOOK: u64 = 50;

/// The sequential test of a card's change against the fair band (a change within 10
/// points either way), unfair at 10 points beyond it, each error about 5%, at most
/// `max_pairs` pairs.
pub fn test(max_pairs: u64) -> Sprt {
    Sprt {
        band: super::iconica::FAIR,
        margin: 0.05,
        alpha: 0.05,
        beta: 0.05,
        max_pairs,
    }
}

/// A card's verdict as the sequential test decided it, with the change it makes measured
/// over the same games.
#[derive(Debug, Clone, PartialEq)]
pub struct Decided {
    /// With the card against without it (a merit: against its cost spent otherwise; a
    /// flaw: with its points spent, against neither), paired; `other` is the side with the
    /// card. Its interval is the one of the games played.
    pub delta: Delta,
    pub test: TestOutcome,
    /// Each place's games: the card's side with and without it.
    pub matchups: Vec<Matchup>,
}

impl Decided {
    /// `fair`, `too strong`, `too weak` or `not decided`.
    pub fn verdict(&self) -> Verdict {
        self.test.verdict
    }
}

/// The versions played with and without the card (see [`arc::play_pair`]).
fn sides(subject: &Subject) -> (Version, Version) {
    match subject {
        Subject::Merit(_) => (Version::Card, Version::Traded),
        Subject::Flaw(_) => (Version::Traded, Version::None),
    }
}

/// Plays pairs of games (with the card, without it) at `places` a look of `look` pairs at a
/// time until the sequential test `test` decides or reaches its cap.
pub fn decide(
    places: &[Place],
    subject: &Subject,
    settings: &Settings,
    runner: &Runner<'_>,
    test: Sprt,
    look: u64,
) -> Result<Decided, BalanceError> {
    let test = test.checked()?;
    let look = look.max(1);
    let (with, without) = sides(subject);
    // A pair's two scores in one byte: with * 3 + without.
    let pair =
        |j: u64| arc::play(places, with, settings, j) * 3 + arc::play(places, without, settings, j);
    let mut codes: Vec<u8> = Vec::new();
    let (mut above, mut below) = (None, None);
    loop {
        let n = (codes.len() as u64 + look).min(test.max_pairs);
        runner.extend(&mut codes, n, &pair)?;
        let scores: Vec<u8> = codes.iter().map(|c| 2 + c / 3 - c % 3).collect();
        let (verdict, la, lb) = sprt::step(&test, &scores, &mut above, &mut below);
        if verdict != Verdict::NotDecided || n >= test.max_pairs {
            let a: Vec<u8> = codes.iter().map(|c| c / 3).collect();
            let b: Vec<u8> = codes.iter().map(|c| c % 3).collect();
            let stopped = if verdict == Verdict::NotDecided {
                Stopped::MaxGames
            } else {
                Stopped::Precision
            };
            let outcome = sprt::outcome(test, &scores, verdict, la, lb);
            return Ok(Decided {
                delta: floored(Delta::of(&b, &a, stopped)),
                test: outcome,
                matchups: matchups(places, settings.seed, &a, &b),
            });
        }
    }
}

/// `d` with its interval at least as wide as the sequential test's own variance floor
/// allows (a pair's spread taken as at least a quarter of a half-win, [`sprt::llr`]): a
/// run whose pairs all came out the same (a card that changed no game it played) has no
/// spread to measure, and its interval says what its few pairs cannot rule out, not zero.
pub fn floored(d: Delta) -> Delta {
    if d.games == 0 {
        return d;
    }
    // The change a pair measures is 2x - 1 for its rate x = score / 4; var(x) >= 1/64.
    let least = 1.96 * (4.0f64 / 64.0).sqrt() / (d.games as f64).sqrt();
    if d.half_width() >= least {
        return d;
    }
    Delta {
        ci95: ((d.delta - least).max(-1.0), (d.delta + least).min(1.0)),
        ..d
    }
}

/// `subject`'s verdict over `field`, decided by the sequential test.
#[allow(clippy::too_many_arguments)]
pub fn verdict(
    field: &[FieldSetup],
    subject: &Subject,
    shop: &[Merit],
    lookup: &dyn CardLookup,
    settings: Settings,
    runner: &Runner<'_>,
    test: Sprt,
    look: u64,
) -> Result<Decided, BalanceError> {
    let places = arc::places(field, subject, shop, lookup, settings.turn_limit)?;
    decide(&places, subject, &settings, runner, test, look)
}

/// A card of a ranking: its verdict decided, and its figure per cost point.
#[derive(Debug, Clone, PartialEq)]
pub struct Ranked {
    pub subject: Subject,
    pub decided: Decided,
}

impl Ranked {
    /// The figure cards are ranked by: the change per cost point with its interval (the
    /// change itself for a card of no points).
    pub fn figure(&self) -> (f64, (f64, f64)) {
        let d = &self.decided.delta;
        arc::per_point(d, self.subject.points()).unwrap_or((d.delta, d.ci95))
    }
}

/// Every merit and flaw of `cards` decided over `field` in the order given (the Balance
/// screen's ranking); `done` is called after each card. A card with no legal place in the
/// field is left out.
#[allow(clippy::too_many_arguments)]
pub fn rank_decided(
    cards: &[Subject],
    field: &[FieldSetup],
    shop: &[Merit],
    lookup: &dyn CardLookup,
    settings: Settings,
    runner: &Runner<'_>,
    test: Sprt,
    look: u64,
    done: &mut dyn FnMut(),
) -> Result<Vec<Ranked>, BalanceError> {
    let mut out = Vec::new();
    for c in cards {
        match verdict(field, c, shop, lookup, settings, runner, test, look) {
            Ok(decided) => out.push(Ranked {
                subject: c.clone(),
                decided,
            }),
            Err(BalanceError::Field(_)) => {}
            Err(e) => return Err(e),
        }
        done();
    }
    Ok(out)
}

/// The positions the `k`-th of `figures` (value, 95% interval) may hold, 1 the highest,
/// given every interval: one more than those surely above it, one more than those not
/// surely below it.
pub fn rank_interval(figures: &[(f64, (f64, f64))], k: usize) -> (usize, usize) {
    let me = figures[k].1;
    let others = || {
        figures
            .iter()
            .enumerate()
            .filter(move |(j, _)| *j != k)
            .map(|(_, f)| f.1)
    };
    let surely_above = others().filter(|ci| ci.0 > me.1).count();
    let maybe_above = others().filter(|ci| ci.1 >= me.0).count();
    (1 + surely_above, 1 + maybe_above)
}

/// An effect in words, for the name of a part.
pub fn effect_words(e: &Effect) -> String {
    let test = |t: Option<TestKind>| match t {
        Some(TestKind::Might) => " Might",
        Some(TestKind::Savvy) => " Savvy",
        Some(TestKind::Resolve) => " Resolve",
        Some(TestKind::Combat) => " Combat",
        None => "",
    };
    let mut s = if let Some(b) = e.bonus {
        format!("{b:+}{}", test(e.test))
    } else if let Some(p) = e.penalty {
        format!("-{p}{}", test(e.test))
    } else if e.retest == Some(true) {
        format!(
            "retest{}",
            if e.lost_only == Some(true) {
                " (a lost test)"
            } else {
                ""
            }
        )
    } else if e.change_test == Some(true) {
        "change the test".to_string()
    } else {
        "an effect".to_string()
    };
    if e.exhaust == Some(true) {
        s.push_str(", exhausting");
    }
    if let Some(t) = &e.terrain {
        s.push_str(&format!(" (in a league with {t})"));
    }
    s
}

/// The parts of a merit or flaw, each with the card as it would be without that part: each
/// effect, and an ally's Combat.
pub fn parts(subject: &Subject) -> Vec<(String, Subject)> {
    let mut out = Vec::new();
    match subject {
        Subject::Merit(m) => {
            for (k, e) in m.effects.iter().enumerate() {
                let mut v = m.clone();
                v.effects.remove(k);
                out.push((
                    format!("effect {}: {}", k + 1, effect_words(e)),
                    Subject::Merit(v),
                ));
            }
            if let Some(c) = m.combat {
                let mut v = m.clone();
                v.combat = None;
                out.push((format!("Combat {c}"), Subject::Merit(v)));
            }
        }
        Subject::Flaw(f) => {
            for (k, e) in f.effects.iter().enumerate() {
                let mut v = f.clone();
                v.effects.remove(k);
                out.push((
                    format!("effect {}: {}", k + 1, effect_words(e)),
                    Subject::Flaw(v),
                ));
            }
        }
    }
    out
}

/// The card of a subject.
pub fn card_of(subject: &Subject) -> Card {
    Card::Arcadia(match subject {
        Subject::Merit(m) => ArcadiaCard::Merit(m.clone()),
        Subject::Flaw(f) => ArcadiaCard::Flaw(f.clone()),
    })
}

/// `cards` with `subject`'s card in place (the card of the same id replaced, else added),
/// as a lookup.
pub fn index_with(cards: &[Card], subject: &Subject) -> CardIndex {
    let mut all: Vec<Card> = cards
        .iter()
        .filter(|c| c.id() != subject.id())
        .cloned()
        .collect();
    all.push(card_of(subject));
    CardIndex::new(all)
}

/// The change in the card's side's win rate when one part does nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct PartImpact {
    pub part: String,
    /// Without the part against the card as written, paired (the card's side with the card,
    /// its points unspent); negative: the part helps its holder.
    pub delta: Delta,
}

/// The impact of each of `subject`'s parts over `field`: the card's side with the card as
/// written against the same side with the part removed, on the same games (paired), until
/// the difference is known to the runner's precision. `cards`: the catalogue (the card in
/// it is replaced by `subject`).
pub fn impact(
    field: &[FieldSetup],
    subject: &Subject,
    cards: &[Card],
    settings: Settings,
    runner: &Runner<'_>,
    done: &mut dyn FnMut(),
) -> Result<Vec<PartImpact>, BalanceError> {
    let index = index_with(cards, subject);
    let shop = arc::shop(index.cards());
    let s = &settings;
    let base = arc::places(field, subject, &shop, &index, s.turn_limit)?;
    let mut scores = Vec::new();
    let mut out = Vec::new();
    for (part, variant) in parts(subject) {
        let vi = index_with(cards, &variant);
        let vshop = arc::shop(vi.cards());
        let vp = arc::places(field, &variant, &vshop, &vi, s.turn_limit)?;
        let same = vp.len() == base.len()
            && vp
                .iter()
                .zip(&base)
                .all(|(a, b)| a.setup == b.setup && a.seat == b.seat);
        if !same {
            return Err(BalanceError::Field(format!(
                "without {part}, {} is played in other places; its impact cannot be paired",
                subject.name()
            )));
        }
        let delta = runner.paired(
            &mut scores,
            &|i| arc::play(&base, Version::Card, s, i),
            &|i| arc::play(&vp, Version::Card, s, i),
        )?;
        out.push(PartImpact { part, delta });
        done();
    }
    Ok(out)
}

/// A cost change tried for a card that is not fair, with its verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct CostChange {
    /// "cost 4 -> 5" (a merit) or "points 3 -> 2" (a flaw).
    pub change: String,
    pub from: i32,
    pub to: i32,
    /// The card with the new cost.
    pub card: Subject,
    pub decided: Decided,
}

impl CostChange {
    /// Confirmed: the sequential test calls the card with the new cost fair.
    pub fn confirmed(&self) -> bool {
        self.decided.verdict() == Verdict::Fair
    }
}

/// The card with its cost (a merit) or points (a flaw) set to `to`.
pub fn with_cost(subject: &Subject, to: i32) -> Subject {
    match subject {
        Subject::Merit(m) => Subject::Merit(Merit {
            cost: to,
            ..m.clone()
        }),
        Subject::Flaw(f) => {
            let mut f = f.clone();
            f.points = to;
            Subject::Flaw(f)
        }
    }
}

/// The costs to try, nearest first, for a card found `verdict`: a merit too strong costs
/// more, too weak less; a flaw too strong (its points buy more than it hurts) gives fewer
/// points, too weak more. At most `steps` tries, never below 0.
pub fn costs_to_try(subject: &Subject, verdict: Verdict, steps: i32) -> Vec<i32> {
    let now = subject.points();
    let up = match (subject, verdict) {
        (Subject::Merit(_), Verdict::TooStrong) | (Subject::Flaw(_), Verdict::TooWeak) => 1,
        (Subject::Merit(_), Verdict::TooWeak) | (Subject::Flaw(_), Verdict::TooStrong) => -1,
        _ => return Vec::new(),
    };
    (1..=steps)
        .map(|k| now + up * k)
        .filter(|&c| c >= 0)
        .collect()
}

/// For a card whose verdict is too strong or too weak: its cost (or points) moved a step at
/// a time toward fair, each version decided by the sequential test over `field`, until one
/// is fair (confirmed), one is unfair the other way, the card cannot be built, or `steps`
/// tries. Returns the changes tried, the confirmed one last.
#[allow(clippy::too_many_arguments)]
pub fn suggest_cost(
    field: &[FieldSetup],
    subject: &Subject,
    cards: &[Card],
    found: Verdict,
    settings: Settings,
    runner: &Runner<'_>,
    test: Sprt,
    look: u64,
    steps: i32,
    done: &mut dyn FnMut(),
) -> Result<Vec<CostChange>, BalanceError> {
    let what = match subject {
        Subject::Merit(_) => "cost",
        Subject::Flaw(_) => "points",
    };
    let mut out = Vec::new();
    for to in costs_to_try(subject, found, steps) {
        let card = with_cost(subject, to);
        let index = index_with(cards, &card);
        let shop = arc::shop(index.cards());
        let decided = match verdict(field, &card, &shop, &index, settings, runner, test, look) {
            Ok(d) => d,
            Err(BalanceError::Field(_)) => break,
            Err(e) => return Err(e),
        };
        done();
        let v = decided.verdict();
        out.push(CostChange {
            change: format!("{what} {} -> {to}", subject.points()),
            from: subject.points(),
            to,
            card,
            decided,
        });
        if v != found && v != Verdict::NotDecided {
            break;
        }
    }
    Ok(out)
}

/// The designer's own field: the setup open on the Setup screen with its two characters
/// (when legal, both measured), and each of `characters` (the one open on the Character
/// screen, saved ones) in each seat of each of those setups and of `bundled`, against the
/// setup's other character, where legal. Named "your setup" and "SETUP (CHARACTER)".
pub fn designer_field(
    setup: Option<(&SetupFile, &[CharacterFile; 2])>,
    characters: &[CharacterFile],
    bundled: &[FieldSetup],
    lookup: &dyn CardLookup,
) -> Vec<FieldSetup> {
    let mut out = Vec::new();
    let mut hosts: Vec<FieldSetup> = Vec::new();
    if let Some((s, chars)) = setup
        && check_setup(s, chars, lookup).is_legal()
    {
        let mine = FieldSetup {
            name: "your setup".into(),
            setup: s.clone(),
            characters: chars.clone(),
            measured: [true, true],
        };
        out.push(mine.clone());
        hosts.push(mine);
    }
    hosts.extend(bundled.iter().cloned());
    for c in characters {
        if !check_character(c, lookup).is_legal() {
            continue;
        }
        for h in &hosts {
            for seat in 0..2 {
                let mut chars = h.characters.clone();
                chars[seat] = c.clone();
                if check_setup(&h.setup, &chars, lookup).is_legal() {
                    let mut measured = [false; 2];
                    measured[seat] = true;
                    out.push(FieldSetup {
                        name: format!("{} ({})", h.name, c.display_name()),
                        setup: h.setup.clone(),
                        characters: chars,
                        measured,
                    });
                }
            }
        }
    }
    out
}

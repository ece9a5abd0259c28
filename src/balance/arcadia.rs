//! Arcadia balance: a merit or flaw measured against what its points would otherwise buy
//! (`spec/balance.md`, `docs/balance.md`).
//!
//! The field is a list of quest setups; each character of each setup is one *place*. In a
//! place the measured character is rebuilt in three versions that share a *base* (the
//! character without the card, with room made for it):
//! - `card`: the base with the card (a flaw's points left unspent);
//! - `traded`: for a merit, the base with the merit's cost spent by the builder
//!   ([`buy`]); for a flaw, the base with the flaw *and* its points spent by the builder;
//! - `none`: the base alone.
//!
//! The verdict is paired: for a merit, `card - traded` (the merit against what its cost
//! buys otherwise); for a flaw, `traded - none` (the flaw with what its points buy, against
//! neither). A fair card measures about zero; the change is also given per cost point. The
//! card's *worth* (`card - none`: the card alone against nothing, points unspent) is
//! measured too. Game `i` of a run seeded `seed` picks its place from `game_seed(seed, i)`;
//! every version plays the same places with the same seeds; the opponent is the setup's
//! other character, unchanged (its waylays too: the setup's budgets are the ones of the
//! characters as built).

use crate::cards::{Card, CardLookup};
use crate::games::ai::Policy;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::{ArcadiaGame, Match, RngDice};
use crate::games::arcadia::model::{ArcadiaCard, Court, Flaw, Merit, MeritType};
use crate::games::arcadia::rules::{check_character, check_setup};
use crate::games::arcadia::setup::SetupFile;
use crate::games::dice::{derive_seed, game_seed};
use crate::games::game::Verdict;
use crate::sim::play_seeded;

use super::{BalanceError, Delta, Rate, Runner, Stopped};

/// The card measured: a merit or a flaw.
#[derive(Debug, Clone, PartialEq)]
pub enum Subject {
    Merit(Merit),
    Flaw(Flaw),
}

impl Subject {
    pub fn id(&self) -> &str {
        match self {
            Subject::Merit(m) => &m.id,
            Subject::Flaw(f) => &f.id,
        }
    }

    pub fn name(&self) -> &str {
        match self {
            Subject::Merit(m) => &m.name,
            Subject::Flaw(f) => &f.name,
        }
    }

    /// `merit` or `flaw`.
    pub fn kind(&self) -> &'static str {
        match self {
            Subject::Merit(_) => "merit",
            Subject::Flaw(_) => "flaw",
        }
    }

    /// A merit's cost or a flaw's points.
    pub fn points(&self) -> i32 {
        match self {
            Subject::Merit(m) => m.cost,
            Subject::Flaw(f) => f.points,
        }
    }
}

/// One setup of the field, with its two characters as built.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldSetup {
    /// Shown in reports (a file name).
    pub name: String,
    pub setup: SetupFile,
    pub characters: [CharacterFile; 2],
    /// The seats measured (the characters given, or both).
    pub measured: [bool; 2],
}

/// How the games are played.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub ai: Policy,
    pub seed: u64,
    pub turn_limit: u32,
}

/// A place of the field: a setup, the measured seat, and the versions of its character.
#[derive(Debug, Clone)]
pub struct Place {
    pub setup: String,
    pub seat: usize,
    pub character: String,
    /// Merits the character as built lost to make room for the card.
    pub dropped: Vec<String>,
    /// Merits the builder bought with the card's points (`traded`).
    pub bought: Vec<String>,
    card: Match,
    traded: Match,
    none: Match,
}

/// A version of the measured character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Card,
    Traded,
    None,
}

impl Place {
    fn version(&self, v: Version) -> &Match {
        match v {
            Version::Card => &self.card,
            Version::Traded => &self.traded,
            Version::None => &self.none,
        }
    }
}

/// The character's court as decided by its cards (or declared).
pub fn court_of(c: &CharacterFile, lookup: &dyn CardLookup) -> Option<Court> {
    check_character(c, lookup).derived.court
}

/// Settles the court after a change of cards: declared as `court` when the count is tied,
/// undeclared when a majority decides it.
pub fn settle_court(c: &mut CharacterFile, court: Option<Court>, lookup: &dyn CardLookup) {
    let r = check_character(c, lookup);
    if r.violations.iter().any(|v| v.rule == "court-undeclared") {
        c.court = Some(court.unwrap_or(Court::Seelie));
    } else if r.violations.iter().any(|v| v.rule == "court-mismatch") {
        c.court = None;
    }
}

fn is_legal(c: &CharacterFile, lookup: &dyn CardLookup) -> bool {
    check_character(c, lookup).is_legal()
}

fn points_left(c: &CharacterFile, lookup: &dyn CardLookup) -> i32 {
    check_character(c, lookup).derived.points_left
}

/// The base: `c` without the card, and with at least `room` points left, made by dropping
/// its last-listed merits; `None` when no such legal character exists. Also returns the
/// merits dropped.
pub fn base(
    c: &CharacterFile,
    card_id: &str,
    room: i32,
    lookup: &dyn CardLookup,
) -> Option<(CharacterFile, Vec<String>)> {
    let court = court_of(c, lookup);
    let mut b = c.clone();
    b.merits.retain(|m| m != card_id);
    b.flaws.retain(|f| f != card_id);
    b.flaws_bought_off.retain(|f| f != card_id);
    let mut dropped = Vec::new();
    loop {
        settle_court(&mut b, court, lookup);
        if is_legal(&b, lookup) && points_left(&b, lookup) >= room {
            return Some((b, dropped));
        }
        dropped.push(b.merits.pop()?);
    }
}

/// The builder's spending of `points` on `c`: again and again, the most expensive merit of
/// `shop` that costs at most the points still to spend and keeps the character legal
/// (never a treasure, the card `card_id`, or a merit it already has; ties by id), until
/// none fits. Returns the character and the merits bought.
pub fn buy(
    c: &CharacterFile,
    points: i32,
    shop: &[Merit],
    card_id: &str,
    lookup: &dyn CardLookup,
) -> (CharacterFile, Vec<String>) {
    let court = court_of(c, lookup);
    let mut order: Vec<&Merit> = shop
        .iter()
        .filter(|m| m.merit_type != MeritType::Treasure && m.id != card_id && m.cost > 0)
        .collect();
    order.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.id.cmp(&b.id)));
    let mut v = c.clone();
    let mut left = points;
    let mut bought = Vec::new();
    'buying: loop {
        for m in &order {
            if m.cost > left || v.merits.contains(&m.id) {
                continue;
            }
            let mut next = v.clone();
            next.merits.push(m.id.clone());
            settle_court(&mut next, court, lookup);
            if is_legal(&next, lookup) {
                v = next;
                left -= m.cost;
                bought.push(m.id.clone());
                continue 'buying;
            }
        }
        return (v, bought);
    }
}

/// The three versions of `c` for `subject`, with the merits dropped and bought; `None`
/// when the card cannot be given to this character legally.
pub fn versions(
    c: &CharacterFile,
    subject: &Subject,
    shop: &[Merit],
    lookup: &dyn CardLookup,
) -> Option<([CharacterFile; 3], Vec<String>, Vec<String>)> {
    let id = subject.id();
    let court = court_of(c, lookup);
    let with = |b: &CharacterFile| {
        let mut v = b.clone();
        match subject {
            Subject::Merit(_) => v.merits.push(id.to_string()),
            Subject::Flaw(_) => v.flaws.push(id.to_string()),
        }
        settle_court(&mut v, court, lookup);
        is_legal(&v, lookup).then_some(v)
    };
    match subject {
        Subject::Merit(m) => {
            let (none, dropped) = base(c, id, m.cost, lookup)?;
            let card = with(&none)?;
            let (traded, bought) = buy(&none, m.cost, shop, id, lookup);
            Some(([card, traded, none], dropped, bought))
        }
        Subject::Flaw(_) => {
            let (none, dropped) = base(c, id, 0, lookup)?;
            let card = with(&none)?;
            let gained = points_left(&card, lookup) - points_left(&none, lookup);
            let (traded, bought) = buy(&card, gained.max(0), shop, id, lookup);
            Some(([card, traded, none], dropped, bought))
        }
    }
}

/// The places of `field` where `subject` can be measured (each character of each setup);
/// places where the card cannot be given legally are left out.
pub fn places(
    field: &[FieldSetup],
    subject: &Subject,
    shop: &[Merit],
    lookup: &dyn CardLookup,
    turn_limit: u32,
) -> Result<Vec<Place>, BalanceError> {
    let mut out = Vec::new();
    let mut why = Vec::new();
    for f in field {
        for seat in (0..2).filter(|&s| f.measured[s]) {
            let c = &f.characters[seat];
            let Some((vs, dropped, bought)) = versions(c, subject, shop, lookup) else {
                why.push(format!(
                    "{}: {} cannot take {} legally",
                    f.name,
                    c.display_name(),
                    subject.name()
                ));
                continue;
            };
            let compile = |v: &CharacterFile| {
                let mut chars = f.characters.clone();
                chars[seat] = v.clone();
                Match::varied(&f.setup, &chars, &f.characters, lookup, turn_limit)
            };
            match (compile(&vs[0]), compile(&vs[1]), compile(&vs[2])) {
                (Ok(card), Ok(traded), Ok(none)) => out.push(Place {
                    setup: f.name.clone(),
                    seat,
                    character: c.display_name().to_string(),
                    dropped,
                    bought,
                    card,
                    traded,
                    none,
                }),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => {
                    why.push(format!("{}: {e}", f.name));
                }
            }
        }
    }
    if out.is_empty() {
        return Err(BalanceError::Field(format!(
            "no place in the field where {} can be measured{}",
            subject.name(),
            if why.is_empty() {
                String::new()
            } else {
                format!(" ({})", why.join("; "))
            }
        )));
    }
    Ok(out)
}

/// The place of game `index` of a run seeded `seed`.
pub fn place_of(places: &[Place], seed: u64, index: u64) -> usize {
    (derive_seed(game_seed(seed, index), 0xA2CA) % places.len() as u64) as usize
}

/// Game `index` with version `v` of the measured character: its score in half-wins.
pub fn play(places: &[Place], v: Version, s: &Settings, index: u64) -> u8 {
    let p = &places[place_of(places, s.seed, index)];
    let g = game_seed(s.seed, index);
    let o = play_seeded(ArcadiaGame::new(p.version(v)), RngDice::new(g), &[s.ai], g);
    match o.verdict {
        Verdict::Won(w) if w.contains(p.seat) => 2,
        Verdict::Won(_) => 0,
        Verdict::Draw | Verdict::NoResult => 1,
    }
}

/// Pair `index` of Arcadia's sequential test: game `index` played with the card (a flaw: its
/// points spent by the builder) and without it (a merit: its cost spent otherwise; a flaw:
/// not taken), the same seed and place: 2 plus the difference of the two scores in
/// half-wins (0 to 4), so a pair's rate (its score / 4) is 0.5 plus half the change in win
/// rate the card makes, and the fair band 45-55% is a change within 10 points either way.
pub fn play_pair(places: &[Place], subject: &Subject, s: &Settings, index: u64) -> u8 {
    let (with, without) = match subject {
        Subject::Merit(_) => (Version::Card, Version::Traded),
        Subject::Flaw(_) => (Version::Traded, Version::None),
    };
    let a = play(places, with, s, index);
    let b = play(places, without, s, index);
    2 + a - b
}

/// Whether the card is worth its points, decided by the sequential test ([`play_pair`]'s
/// pairs: the rate is 0.5 plus half the change the card makes).
#[allow(clippy::too_many_arguments)]
pub fn sprt(
    field: &[FieldSetup],
    subject: &Subject,
    shop: &[Merit],
    lookup: &dyn CardLookup,
    settings: Settings,
    runner: &Runner<'_>,
    test: super::sprt::Sprt,
) -> Result<super::sprt::Outcome, BalanceError> {
    let places = places(field, subject, shop, lookup, settings.turn_limit)?;
    let s = &settings;
    super::sprt::run(test, runner, &|j| play_pair(&places, subject, s, j))
}

/// Where the change a card makes stands against the fair band, as its interval says: fair
/// when the whole interval is within 10 points either way (the band 45-55% of the pairs'
/// rate, [`play_pair`]), too strong or too weak when it is wholly beyond, else not decided.
pub fn standing(d: &Delta) -> super::iconica::Standing {
    let rate = |x: f64| 0.5 + x / 2.0;
    super::iconica::Standing::of(&Rate {
        ci95: (rate(d.ci95.0), rate(d.ci95.1)),
        win_rate: rate(d.delta),
        ..d.other
    })
}

/// A paired difference per cost point: the difference and its interval divided by the
/// points (`None` for a card of 0 points).
pub fn per_point(d: &Delta, points: i32) -> Option<(f64, (f64, f64))> {
    (points > 0).then(|| {
        let p = f64::from(points);
        (d.delta / p, (d.ci95.0 / p, d.ci95.1 / p))
    })
}

/// One place's games: the card's side's rate with and without.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchup {
    pub setup: String,
    pub character: String,
    pub seat: usize,
    pub with: Rate,
    pub without: Rate,
}

/// Everything `deckwright balance arcadia` reports.
#[derive(Debug, Clone)]
pub struct Report {
    pub kind: &'static str,
    pub points: i32,
    /// The verdict: with the card against without it (see the module), paired;
    /// `other` is the side with the card.
    pub delta: Delta,
    pub per_point: Option<(f64, (f64, f64))>,
    /// The card alone against nothing (points unspent), when measured.
    pub worth: Option<Delta>,
    pub worth_per_point: Option<(f64, (f64, f64))>,
    pub places: Vec<Place>,
    pub matchups: Vec<Matchup>,
}

impl Report {
    /// The figure cards are ranked by: the change per cost point, with its interval (the
    /// change itself for a card of no points).
    pub fn figure(&self) -> (f64, (f64, f64)) {
        self.per_point
            .unwrap_or((self.delta.delta, self.delta.ci95))
    }
}

/// Where a card stands among others measured the same way: `position` 1 is the highest
/// figure ([`Report::figure`]) of `of` cards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rank {
    pub of: usize,
    pub position: usize,
}

/// Where the card measured as `report` stands among `others` (the catalogue's other merits
/// and flaws, measured over the same field with the same settings by [`rank_cards`]). Ties
/// go to the card measured.
pub fn rank_among(report: &Report, others: &[(Subject, Report)]) -> Rank {
    let mine = report.figure().0;
    let above = others.iter().filter(|(_, r)| r.figure().0 > mine).count();
    Rank {
        of: others.len() + 1,
        position: above + 1,
    }
}

/// The builder's shop: every merit of `cards`.
pub fn shop(cards: &[Card]) -> Vec<Merit> {
    cards
        .iter()
        .filter_map(|c| match c {
            Card::Arcadia(ArcadiaCard::Merit(m)) => Some(m.clone()),
            _ => None,
        })
        .collect()
}

/// Every merit and flaw of `cards` as something to measure, in their order.
pub fn subjects(cards: &[Card]) -> Vec<Subject> {
    cards
        .iter()
        .filter_map(|c| match c {
            Card::Arcadia(ArcadiaCard::Merit(m)) => Some(Subject::Merit(m.clone())),
            Card::Arcadia(ArcadiaCard::Flaw(f)) => Some(Subject::Flaw(f.clone())),
            _ => None,
        })
        .collect()
}

/// The default field: every example setup built into the program that is legal with its
/// characters under `lookup`, both characters measured.
pub fn example_field(lookup: &dyn CardLookup) -> Vec<FieldSetup> {
    crate::games::arcadia::examples::setups()
        .into_iter()
        .filter(|e| check_setup(&e.setup, &e.characters, lookup).is_legal())
        .map(|e| FieldSetup {
            name: e.file,
            setup: e.setup,
            characters: e.characters,
            measured: [true, true],
        })
        .collect()
}

/// `other - base` as `base - other`.
fn flipped(d: Delta) -> Delta {
    Delta {
        delta: -d.delta,
        ci95: (-d.ci95.1, -d.ci95.0),
        base: d.other,
        other: d.base,
        ..d
    }
}

/// Measures `subject` over `field` (the builder's shop: `shop`, the catalogue's merits).
/// `worth`: also measure the card alone against nothing.
pub fn report(
    field: &[FieldSetup],
    subject: &Subject,
    shop: &[Merit],
    lookup: &dyn CardLookup,
    settings: Settings,
    runner: &Runner<'_>,
    worth: bool,
) -> Result<Report, BalanceError> {
    let places = places(field, subject, shop, lookup, settings.turn_limit)?;
    let s = &settings;
    let (pl, points) = (&places, subject.points());
    let card = |i| play(pl, Version::Card, s, i);
    let traded = |i| play(pl, Version::Traded, s, i);
    let none = |i| play(pl, Version::None, s, i);
    // Scores of the side without the card (verdict), and of the side with it.
    let stopping = runner.stopping;
    let (mut first, mut second) = (Vec::new(), Vec::new());
    let (delta, worth_d) = match subject {
        Subject::Merit(_) => {
            // first: the card's games; second: the traded version's.
            let d =
                flipped(runner.paired_into(stopping, &mut first, &mut second, &card, &traded)?);
            let w = if worth {
                Some(flipped(runner.paired(&mut first, &card, &none)?))
            } else {
                None
            };
            (d, w)
        }
        Subject::Flaw(_) => {
            // first: no flaw; second: the flaw with its points spent.
            let d = runner.paired_into(stopping, &mut first, &mut second, &none, &traded)?;
            let w = if worth {
                Some(runner.paired(&mut first, &none, &card)?)
            } else {
                None
            };
            (d, w)
        }
    };
    let n = delta.games as usize;
    let (with_scores, without_scores) = match subject {
        Subject::Merit(_) => (&first[..n], &second[..n]),
        Subject::Flaw(_) => (&second[..n], &first[..n]),
    };
    let matchups = matchups(&places, settings.seed, with_scores, without_scores);
    Ok(Report {
        kind: subject.kind(),
        points,
        per_point: per_point(&delta, points),
        worth_per_point: worth_d.as_ref().and_then(|w| per_point(w, points)),
        delta,
        worth: worth_d,
        places,
        matchups,
    })
}

/// Every merit and flaw of `cards` measured over `field` (the verdict only, no worth), in
/// the order given; `done` is called after each card. A card that cannot be measured in
/// the field (no legal place) is left out.
pub fn rank_cards(
    cards: &[Subject],
    field: &[FieldSetup],
    shop: &[Merit],
    lookup: &dyn CardLookup,
    settings: Settings,
    runner: &Runner<'_>,
    done: &mut dyn FnMut(),
) -> Result<Vec<(Subject, Report)>, BalanceError> {
    let mut out = Vec::new();
    for c in cards {
        match report(field, c, shop, lookup, settings, runner, false) {
            Ok(r) => out.push((c.clone(), r)),
            Err(BalanceError::Field(_)) => {}
            Err(e) => return Err(e),
        }
        done();
    }
    Ok(out)
}

/// Each place's games of a run: the side with the card (`with`) and without (`without`),
/// by game index.
pub fn matchups(places: &[Place], seed: u64, with: &[u8], without: &[u8]) -> Vec<Matchup> {
    let mut by: Vec<(Vec<u8>, Vec<u8>)> = vec![(Vec::new(), Vec::new()); places.len()];
    for (i, (&a, &b)) in with.iter().zip(without).enumerate() {
        let k = place_of(places, seed, i as u64);
        by[k].0.push(a);
        by[k].1.push(b);
    }
    places
        .iter()
        .zip(by)
        .filter(|(_, (a, _))| !a.is_empty())
        .map(|(p, (a, b))| Matchup {
            setup: p.setup.clone(),
            character: p.character.clone(),
            seat: p.seat,
            with: Rate::of(&a, Stopped::Precision),
            without: Rate::of(&b, Stopped::Precision),
        })
        .collect()
}

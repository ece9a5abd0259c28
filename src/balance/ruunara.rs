//! Ruunara balance: a hero, or one of its skills, measured by what it does for a squad
//! against the missions (`spec/balance.md`: "Ruunara: a squad against missions").
//!
//! The field is squads that have the hero (given, or the legal example squads built into the
//! program) and missions (given, or the example missions). Each (squad, mission) pair the
//! squad can play is one *place*, in two versions:
//! - `with`: the squad as it is;
//! - `without`: for a hero, the squad without it (and without its deployment zone, where
//!   the mission gives each member one); for a skill, the squad with the hero's card
//!   stripped of that skill.
//!
//! Game `i` of a run seeded `seed` picks its place from `game_seed(seed, i)` and plays both
//! versions with the same seed, the squad by the policy and the enemies by the rules: the
//! verdict is paired, `with - without`, the heroes' win rate the hero or skill adds (a draw
//! or no result counts half). A skill whose text the engine does not play measures about
//! zero by construction: the report says so (`games::gaps`).

use crate::cards::Card;
use crate::games::ai::Policy;
use crate::games::build::CardIndex;
use crate::games::dice::{RngDice, derive_seed, game_seed};
use crate::games::game::Verdict;
use crate::games::gaps::{self, Gap};
use crate::games::ruunara::engine::{RuunaraGame, Setup};
use crate::games::ruunara::matchfile;
use crate::games::ruunara::mission::MissionFile;
use crate::games::ruunara::model::Figure;
use crate::games::ruunara::squad::SquadFile;
use crate::sim::play_seeded;

use super::{BalanceError, Delta, Rate, Runner};

/// What is measured: the hero itself, or one of its skills (by name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    Hero,
    Skill(String),
}

/// A squad of the field, named by its file.
#[derive(Debug, Clone)]
pub struct FieldSquad {
    pub name: String,
    pub squad: SquadFile,
}

/// A mission of the field: its file name and text.
#[derive(Debug, Clone)]
pub struct FieldMission {
    pub name: String,
    pub text: String,
}

/// A place of the field: a squad on a mission, with and without what is measured.
#[derive(Debug, Clone)]
pub struct Place {
    pub squad: String,
    pub mission: String,
    pub with: Setup,
    pub without: Setup,
}

/// A place that could not be played, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Skipped {
    pub squad: String,
    pub mission: String,
    pub why: String,
}

/// The figure card `id` (or of that exact name) from `cards`.
pub fn hero<'c>(cards: &'c [Card], id: &str) -> Result<&'c Figure, BalanceError> {
    let figure = |c: &'c Card| match c {
        Card::Ruunara(f) => Some(f),
        _ => None,
    };
    cards
        .iter()
        .filter_map(figure)
        .find(|f| f.id == id)
        .or_else(|| cards.iter().filter_map(figure).find(|f| f.name == id))
        .ok_or_else(|| BalanceError::Card(format!("no Ruunara hero or unit `{id}`")))
}

/// Whether squad entry `entry` (an id or an exact name) is `hero`.
fn is(entry: &str, hero: &Figure) -> bool {
    entry == hero.id || entry == hero.name
}

/// The default squads: the legal example squads that have `hero`.
pub fn example_squads(hero: &Figure) -> Vec<FieldSquad> {
    crate::games::ruunara::examples::squads()
        .into_iter()
        .filter(|(_, s)| s.members.iter().any(|m| is(m, hero)))
        .map(|(name, squad)| FieldSquad { name, squad })
        .collect()
}

/// The default missions: the example missions.
pub fn example_missions() -> Vec<FieldMission> {
    crate::games::ruunara::examples::missions()
        .into_iter()
        .map(|(name, text)| FieldMission {
            name,
            text: text.to_string(),
        })
        .collect()
}

/// The places of the field: every squad with the hero on every mission it can play, both
/// versions compiled from `cards` (the catalogue's, the measured card in place); the pairs
/// that cannot be played, and why.
pub fn places(
    hero: &Figure,
    subject: &Subject,
    squads: &[FieldSquad],
    missions: &[FieldMission],
    cards: &[Card],
) -> Result<(Vec<Place>, Vec<Skipped>), BalanceError> {
    if let Subject::Skill(name) = subject
        && !hero.skills.iter().any(|s| &s.name == name)
    {
        return Err(BalanceError::Card(format!(
            "{} has no skill `{name}` (its skills: {})",
            hero.name,
            hero.skills
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    // The cards of the `without` version: the hero stripped of the skill.
    let stripped: Vec<Card> = match subject {
        Subject::Hero => Vec::new(),
        Subject::Skill(name) => cards
            .iter()
            .map(|c| match c {
                Card::Ruunara(f) if f.id == hero.id => {
                    let mut f = f.clone();
                    f.skills.retain(|s| &s.name != name);
                    Card::Ruunara(f)
                }
                c => c.clone(),
            })
            .collect(),
    };
    let index = CardIndex::new(cards.to_vec());
    let stripped = CardIndex::new(stripped);
    let mut out = Vec::new();
    let mut skipped = Vec::new();
    for sq in squads {
        if !sq.squad.members.iter().any(|m| is(m, hero)) {
            return Err(BalanceError::Field(format!(
                "the squad {} has no {}: measure a hero in squads that have it",
                sq.name, hero.name
            )));
        }
        let (without_squad, without_cards): (SquadFile, &CardIndex) = match subject {
            Subject::Hero => {
                let mut s = sq.squad.clone();
                s.members.retain(|m| !is(m, hero));
                (s, &index)
            }
            Subject::Skill(_) => (sq.squad.clone(), &stripped),
        };
        let at = sq.squad.members.iter().position(|m| is(m, hero));
        for m in missions {
            let with = matchfile::compile(&index, &m.text, &m.name, &sq.squad);
            // A mission that deploys each member in its own zone loses the hero's zone too.
            let without_text = match (subject, at, MissionFile::parse(&m.text, &m.name)) {
                (Subject::Hero, Some(k), Ok(mut file))
                    if file.deploy.len() == sq.squad.members.len() && file.deploy.len() > 1 =>
                {
                    file.deploy.remove(k);
                    file.to_toml()
                }
                _ => m.text.clone(),
            };
            let without = if without_squad.members.is_empty() {
                Err("the squad is the hero alone: without it there is no squad".to_string())
            } else {
                matchfile::compile(without_cards, &without_text, &m.name, &without_squad)
            };
            match (with, without) {
                (Ok(w), Ok(wo)) => out.push(Place {
                    squad: sq.name.clone(),
                    mission: m.name.clone(),
                    with: w.setup,
                    without: wo.setup,
                }),
                (Err(why), _) | (_, Err(why)) => skipped.push(Skipped {
                    squad: sq.name.clone(),
                    mission: m.name.clone(),
                    why,
                }),
            }
        }
    }
    if out.is_empty() {
        return Err(BalanceError::Field(format!(
            "no squad and mission of the field can be played with and without {}{}",
            hero.name,
            skipped
                .first()
                .map(|s| format!(" ({} on {}: {})", s.squad, s.mission, s.why))
                .unwrap_or_default()
        )));
    }
    Ok((out, skipped))
}

/// The place of game `index` of a run seeded `seed`.
pub fn place_of(places: &[Place], seed: u64, index: u64) -> usize {
    (derive_seed(game_seed(seed, index), 0x2AA2) % places.len() as u64) as usize
}

/// Game `index` of one version: the heroes' score in half-wins.
pub fn play(places: &[Place], with: bool, ai: Policy, seed: u64, index: u64) -> u8 {
    let p = &places[place_of(places, seed, index)];
    let setup = if with { &p.with } else { &p.without };
    let g = game_seed(seed, index);
    let o = play_seeded(RuunaraGame::new(setup), RngDice::new(g), &[ai], g);
    match o.verdict {
        Verdict::Won(w) if w.contains(0) => 2,
        Verdict::Won(_) => 0,
        Verdict::Draw | Verdict::NoResult => 1,
    }
}

/// One place's figures: the heroes' rate with and without, over the games that fell there.
#[derive(Debug, Clone)]
pub struct Matchup {
    pub squad: String,
    pub mission: String,
    pub with: Rate,
    pub without: Rate,
}

/// A Ruunara balance report.
#[derive(Debug, Clone)]
pub struct Report {
    /// The hero's id and name, and the skill measured (if one is).
    pub id: String,
    pub name: String,
    pub skill: Option<String>,
    /// `with - without`, paired.
    pub delta: Delta,
    pub matchups: Vec<Matchup>,
    pub skipped: Vec<Skipped>,
    /// What the engine does not play of what is measured (a skill shown, not played).
    pub unplayed: Vec<Gap>,
}

/// Measures `subject` of `hero` over `places` with `runner`: the paired difference.
pub fn report(
    hero: &Figure,
    subject: &Subject,
    (places, skipped): (Vec<Place>, Vec<Skipped>),
    ai: Policy,
    seed: u64,
    runner: &Runner<'_>,
) -> Result<Report, BalanceError> {
    let with = |i: u64| play(&places, true, ai, seed, i);
    let without = |i: u64| play(&places, false, ai, seed, i);
    let mut base = Vec::new();
    let mut other = Vec::new();
    let delta = runner.paired_into(runner.stopping, &mut base, &mut other, &without, &with)?;
    let n = delta.games as usize;
    let matchups = places
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let games: Vec<usize> = (0..n)
                .filter(|&i| place_of(&places, seed, i as u64) == k)
                .collect();
            let pick = |s: &[u8]| games.iter().map(|&i| s[i]).collect::<Vec<u8>>();
            Matchup {
                squad: p.squad.clone(),
                mission: p.mission.clone(),
                with: Rate::of(&pick(&other), delta.stopped),
                without: Rate::of(&pick(&base), delta.stopped),
            }
        })
        .collect();
    let card = Card::Ruunara(hero.clone());
    let unplayed = gaps::of_card(&card)
        .into_iter()
        .filter(|g| match subject {
            Subject::Hero => true,
            Subject::Skill(name) => &g.part == name,
        })
        .collect();
    Ok(Report {
        id: hero.id.clone(),
        name: hero.name.clone(),
        skill: match subject {
            Subject::Hero => None,
            Subject::Skill(s) => Some(s.clone()),
        },
        delta,
        matchups,
        skipped,
        unplayed,
    })
}

//! Ruunara squad rules (`spec/other-games.md`; "Selecting a Game Type" and "Factions in
//! Ruunara" of rules/003): only ally heroes and units, no card twice, one race in Story Mode.

use crate::cards::{Card, CardLookup, Game};
use crate::games::build::{self, Resolved, Violation};
use crate::games::ruunara::model::{Allegiance, Figure};
use crate::games::ruunara::squad::{Mode, SquadFile};

/// The rule ids, in the order violations are reported.
pub const RULES: [&str; 4] = ["squad-playable", "squad-duplicate", "story-single-race", "unknown-card"];

const SRC_PLAYABLE: &str = "Ruunara: The Darkest Path (rules/003), \"Factions in Ruunara\": the Ally Faction is the units you control; Enemy and Neutral are not playable";
const SRC_DUPLICATE: &str =
    "deckwright spec (spec/other-games.md), Ruunara squad rules: each hero or unit card once in a squad";
const SRC_RACE: &str = "Ruunara: The Darkest Path (rules/003), \"Starting Your Adventure in Ruunara\", Selecting a Game Type: Story Mode forms teams based solely on race";
const SRC_UNKNOWN: &str = "deckwright spec (spec/other-games.md), Ruunara squad rules: a member must be a Ruunara hero or unit of the catalogue";

/// The verdict on a squad.
#[derive(Debug, Clone, PartialEq)]
pub struct SquadReport {
    pub violations: Vec<Violation>,
    /// The members that name a Ruunara figure, resolved, in squad order.
    pub members: Vec<Figure>,
}

impl SquadReport {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Resolves a member to a Ruunara hero or unit, or says why it names none.
pub fn resolve_member(lookup: &dyn CardLookup, member: &str) -> Result<Figure, String> {
    match build::resolve(lookup, Game::Ruunara, member) {
        Resolved::Found(card) => match card.into_owned() {
            Card::Ruunara(f) => Ok(f),
            other => Err(format!(
                "`{member}` is the {} {} {}, not a Ruunara hero or unit",
                other.game().title(),
                other.kind(),
                build::label(&other)
            )),
        },
        other => Err(build::unknown_message(member, "a squad member must be a Ruunara hero or unit", Game::Ruunara, &other)),
    }
}

fn faction_name(a: Allegiance) -> &'static str {
    match a {
        Allegiance::Ally => "ally",
        Allegiance::Enemy => "enemy",
        Allegiance::Neutral => "neutral",
    }
}

/// Checks a squad.
pub fn check_squad(squad: &SquadFile, lookup: &dyn CardLookup) -> SquadReport {
    let resolved: Vec<Result<Figure, String>> = squad.members.iter().map(|m| resolve_member(lookup, m)).collect();
    let mut distinct: Vec<(&Figure, usize)> = Vec::new();
    for f in resolved.iter().flatten() {
        match distinct.iter_mut().find(|(d, _)| d.id == f.id) {
            Some(entry) => entry.1 += 1,
            None => distinct.push((f, 1)),
        }
    }
    let mut violations = Vec::new();

    for (f, _) in &distinct {
        if f.faction != Allegiance::Ally {
            violations.push(Violation::new(
                "squad-playable",
                format!(
                    "{} is {} {} card; a squad holds only ally-faction heroes and units",
                    build::label(&Card::Ruunara((*f).clone())),
                    if f.faction == Allegiance::Neutral { "a" } else { "an" },
                    faction_name(f.faction)
                ),
                vec![f.id.clone()],
                SRC_PLAYABLE,
            ));
        }
    }
    for (f, n) in &distinct {
        if *n > 1 {
            violations.push(Violation::new(
                "squad-duplicate",
                format!("{} ({}) is in the squad {n} times; each card may be in a squad once", f.name, f.id),
                vec![f.id.clone()],
                SRC_DUPLICATE,
            ));
        }
    }
    if squad.mode == Mode::Story {
        let mut races: Vec<(&str, Vec<&Figure>)> = Vec::new();
        for (f, _) in &distinct {
            match races.iter_mut().find(|(r, _)| *r == f.race) {
                Some((_, fs)) => fs.push(f),
                None => races.push((&f.race, vec![f])),
            }
        }
        if races.len() > 1 {
            violations.push(Violation::new(
                "story-single-race",
                format!(
                    "Story Mode squads are of one race, but this squad mixes {}; use one race or mode = \"free\"",
                    races
                        .iter()
                        .map(|(r, fs)| format!(
                            "{r} ({})",
                            fs.iter().map(|f| format!("{} {}", f.name, f.id)).collect::<Vec<_>>().join(", ")
                        ))
                        .collect::<Vec<_>>()
                        .join(" and ")
                ),
                distinct.iter().map(|(f, _)| f.id.clone()).collect(),
                SRC_RACE,
            ));
        }
    }
    for (m, r) in squad.members.iter().zip(&resolved) {
        if let Err(message) = r {
            violations.push(Violation::new("unknown-card", message.clone(), vec![m.clone()], SRC_UNKNOWN));
        }
    }
    SquadReport { violations, members: resolved.into_iter().flatten().collect() }
}

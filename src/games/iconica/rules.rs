//! Iconica party construction (`spec/iconica.md`, "Construction rules"; rules v2.0,
//! "Selecting Your Party Members"): pure checks of party files over catalogue cards.
//!
//! `check_party` checks one party; `check_match` checks the parties of one match (or of one
//! `validate` call) together, adding `shared-legend-special` on each later party that reuses
//! a Legend or Special character.

use std::collections::BTreeMap;

use crate::cards::{Card, CardLookup, Game};
use crate::games::build::{self, Resolved, Violation};
use crate::games::iconica::model::{Character, Faction};
use crate::games::iconica::party::PartyFile;

/// The rule ids, in the order violations are reported.
pub const RULES: [&str; 6] = [
    "party-size",
    "faction-mix",
    "duplicate",
    "legend-special-limit",
    "shared-legend-special",
    "unknown-card",
];

const SRC_SIZE: &str =
    "Iconica Rules v2.0 (rules/001), \"Game Setup\": each player chooses three character cards";
const SRC_FACTION: &str = "Iconica Rules v2.0 (rules/001), \"Selecting Your Party Members\", restriction 1 (no Legion with Protectorate)";
const SRC_DUPLICATE: &str = "Iconica Rules v2.0 (rules/001), \"Selecting Your Party Members\", restriction 2 (no duplicate characters)";
const SRC_LEGEND: &str = "Iconica Rules v2.0 (rules/001), \"Selecting Your Party Members\", restriction 3 (one Legend or Special)";
const SRC_SHARED: &str = "Iconica Rules v2.0 (rules/001), \"Selecting Your Party Members\", restriction 4 (no Legend or Special used by two players)";
const SRC_UNKNOWN: &str = "deckwright spec (spec/iconica.md), \"Construction rules\": a member must be an Iconica character of the catalogue";

/// House rules that change construction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartyRules {
    /// Members a party must have (3 in the rules; a house rule may set another size).
    pub size: usize,
}

impl Default for PartyRules {
    fn default() -> Self {
        PartyRules { size: 3 }
    }
}

/// The verdict on one party.
#[derive(Debug, Clone, PartialEq)]
pub struct PartyReport {
    /// Every broken rule, in the order of `RULES`.
    pub violations: Vec<Violation>,
    /// The members that name an Iconica character, resolved, in party order.
    pub members: Vec<Character>,
}

impl PartyReport {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// Checks one party under the standard rules (3 members).
pub fn check_party(party: &PartyFile, lookup: &dyn CardLookup) -> PartyReport {
    check_party_with(party, lookup, PartyRules::default())
}

/// Checks one party under the given house rules.
pub fn check_party_with(
    party: &PartyFile,
    lookup: &dyn CardLookup,
    rules: PartyRules,
) -> PartyReport {
    let resolved: Vec<Result<Character, String>> = party
        .members
        .iter()
        .map(|m| resolve_member(lookup, m))
        .collect();
    let members: Vec<Option<&Character>> = resolved.iter().map(|r| r.as_ref().ok()).collect();
    let mut violations = Vec::new();

    if party.members.len() != rules.size {
        let n = party.members.len();
        violations.push(Violation::new(
            "party-size",
            format!(
                "{} has {n} member{}; a party has exactly {} characters",
                party.display_name(),
                if n == 1 { "" } else { "s" },
                rules.size
            ),
            party.members.clone(),
            SRC_SIZE,
        ));
    }

    let distinct = distinct(&members);
    let of_faction = |f: Faction| {
        distinct
            .iter()
            .filter(|c| c.faction == f)
            .copied()
            .collect::<Vec<&Character>>()
    };
    let (legion, protectorate) = (
        of_faction(Faction::Legion),
        of_faction(Faction::Protectorate),
    );
    if !legion.is_empty() && !protectorate.is_empty() {
        violations.push(Violation::new(
            "faction-mix",
            format!(
                "Legion ({}) and Protectorate ({}) characters may never be in one party; Independents mix with either",
                labels(&legion),
                labels(&protectorate)
            ),
            legion.iter().chain(&protectorate).map(|c| c.id.clone()).collect(),
            SRC_FACTION,
        ));
    }

    let mut counts: BTreeMap<&str, (usize, &Character)> = BTreeMap::new();
    for c in members.iter().flatten() {
        counts.entry(c.id.as_str()).or_insert((0, c)).0 += 1;
    }
    for c in &distinct {
        let n = counts[c.id.as_str()].0;
        if n > 1 {
            violations.push(Violation::new(
                "duplicate",
                format!(
                    "{} is in the party {n} times; a character may be in a party only once",
                    label(c)
                ),
                vec![c.id.clone()],
                SRC_DUPLICATE,
            ));
        }
    }

    let legends: Vec<&Character> = distinct
        .iter()
        .filter(|c| c.rarity.is_legend_or_special())
        .copied()
        .collect();
    if legends.len() > 1 {
        violations.push(Violation::new(
            "legend-special-limit",
            format!(
                "the party has {} Legend or Special characters ({}); at most one is allowed",
                legends.len(),
                legends
                    .iter()
                    .map(|c| format!("{}, {}", label(c), rarity_name(c)))
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
            legends.iter().map(|c| c.id.clone()).collect(),
            SRC_LEGEND,
        ));
    }

    let mut resolved_members = Vec::with_capacity(resolved.len());
    for (m, r) in party.members.iter().zip(resolved) {
        match r {
            Ok(c) => resolved_members.push(c),
            Err(message) => violations.push(Violation::new(
                "unknown-card",
                message,
                vec![m.clone()],
                SRC_UNKNOWN,
            )),
        }
    }

    PartyReport {
        violations,
        members: resolved_members,
    }
}

/// Checks the parties of one match: each party alone, plus `shared-legend-special` on each
/// party that uses a Legend or Special character an earlier party already uses.
pub fn check_match(parties: &[&PartyFile], lookup: &dyn CardLookup) -> Vec<PartyReport> {
    check_match_with(parties, lookup, PartyRules::default())
}

/// `check_match` under house rules.
pub fn check_match_with(
    parties: &[&PartyFile],
    lookup: &dyn CardLookup,
    rules: PartyRules,
) -> Vec<PartyReport> {
    let mut reports: Vec<PartyReport> = parties
        .iter()
        .map(|p| check_party_with(p, lookup, rules))
        .collect();
    // Legend/Special id -> index of the first party using it.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for (i, report) in reports.iter_mut().enumerate() {
        let mut shared = Vec::new();
        for c in distinct_chars(&report.members) {
            if !c.rarity.is_legend_or_special() {
                continue;
            }
            match seen.get(&c.id) {
                Some(&first) => shared.push(Violation::new(
                    "shared-legend-special",
                    format!(
                        "{} ({}) is already used by {} (party {} of this match); no Legend or Special character may be used twice in one match",
                        label(c),
                        rarity_name(c),
                        quoted_name(parties[first]),
                        first + 1
                    ),
                    vec![c.id.clone()],
                    SRC_SHARED,
                )),
                None => {
                    seen.insert(c.id.clone(), i);
                }
            }
        }
        // Keep the order of RULES: shared-legend-special goes before unknown-card.
        let at = report
            .violations
            .iter()
            .position(|v| v.rule == "unknown-card")
            .unwrap_or(report.violations.len());
        report.violations.splice(at..at, shared);
    }
    reports
}

/// Resolves a member to an Iconica character, or says why it names none.
pub fn resolve_member(lookup: &dyn CardLookup, member: &str) -> Result<Character, String> {
    match build::resolve(lookup, Game::Iconica, member) {
        Resolved::Found(card) => match card.into_owned() {
            Card::Iconica(c) => Ok(c),
            other => Err(format!(
                "`{member}` is the {} {} {}, not an Iconica character; a party holds only Iconica characters",
                other.game().title(),
                other.kind(),
                build::label(&other)
            )),
        },
        other => Err(build::unknown_message(
            member,
            "a party member must be an Iconica character",
            Game::Iconica,
            &other,
        )),
    }
}

fn distinct<'a>(members: &[Option<&'a Character>]) -> Vec<&'a Character> {
    let mut out: Vec<&Character> = Vec::new();
    for &c in members.iter().flatten() {
        if !out.iter().any(|o| o.id == c.id) {
            out.push(c);
        }
    }
    out
}

fn distinct_chars(members: &[Character]) -> Vec<&Character> {
    let mut out: Vec<&Character> = Vec::new();
    for c in members {
        if !out.iter().any(|o| o.id == c.id) {
            out.push(c);
        }
    }
    out
}

fn label(c: &Character) -> String {
    format!("{} ({})", c.name, c.id)
}

fn labels(cs: &[&Character]) -> String {
    cs.iter().map(|c| label(c)).collect::<Vec<_>>().join(", ")
}

fn rarity_name(c: &Character) -> &'static str {
    match c.rarity {
        crate::games::iconica::model::Rarity::Legend => "a Legend",
        crate::games::iconica::model::Rarity::Special => "a Special",
        _ => "neither Legend nor Special",
    }
}

fn quoted_name(p: &PartyFile) -> String {
    if p.name.is_empty() {
        "an earlier party".to_string()
    } else {
        format!("\"{}\"", p.name)
    }
}

/// Whether party `p` may face `opponent` in one match: every construction rule of the match
/// (`rules::check_match`), `shared-legend-special` included.
pub fn legal_against(p: &[&Character], opponent: &[Character]) -> bool {
    let cards: Vec<Card> = p
        .iter()
        .map(|c| Card::Iconica((*c).clone()))
        .chain(opponent.iter().map(|c| Card::Iconica(c.clone())))
        .collect();
    let ids: Vec<&str> = p.iter().map(|c| c.id.as_str()).collect();
    let opp: Vec<&str> = opponent.iter().map(|c| c.id.as_str()).collect();
    let (mine, theirs) = (
        PartyFile::new("field", &ids),
        PartyFile::new("opponent", &opp),
    );
    check_match(&[&theirs, &mine], &cards)
        .iter()
        .all(|r| r.is_legal())
}

//! Iconica party construction: every rule id legal and illegal, names, and the match rule.



use deckwright::cards::Card;
use deckwright::games::iconica::party::PartyFile;
use deckwright::games::iconica::rules::{self, PartyRules};
use proptest::prelude::*;
use crate::fixtures::{ico, ruu};

fn catalogue() -> Vec<Card> {
    vec![
        ico("ico-l1", "Legion One", "legion", "common"),
        ico("ico-l2", "Legion Two", "legion", "rare"),
        ico("ico-p1", "Prot One", "protectorate", "common"),
        ico("ico-p2", "Prot Two", "protectorate", "uncommon"),
        ico("ico-i1", "Indie One", "independent", "common"),
        ico("ico-i2", "Indie Two", "independent", "rare"),
        ico("ico-leg", "Legend Indie", "independent", "legend"),
        ico("ico-spe", "Special Indie", "independent", "special"),
        ico("ico-leg-l", "Legend Legion", "legion", "legend"),
        ico("ico-twin-a", "Twin", "independent", "common"),
        ico("ico-twin-b", "Twin", "independent", "common"),
        ruu("ru-x", "Ruunara X", "ardann", "ally"),
    ]
}

fn rules_of(p: &PartyFile) -> Vec<&'static str> {
    rules::check_party(p, &catalogue()).violations.iter().map(|v| v.rule).collect()
}

#[test]
fn a_legal_party_resolves_its_members_in_order() {
    let p = PartyFile::new("ok", &["ico-i1", "Legion One", "ico-leg"]);
    let r = rules::check_party(&p, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    let ids: Vec<&str> = r.members.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["ico-i1", "ico-l1", "ico-leg"]);
}

#[test]
fn party_size_counts_entries_as_written() {
    assert_eq!(rules_of(&PartyFile::new("two", &["ico-i1", "ico-l1"])), ["party-size"]);
    assert_eq!(rules_of(&PartyFile::new("four", &["ico-i1", "ico-l1", "ico-l2", "ico-i2"])), ["party-size"]);
    // An unknown member still counts toward the size.
    assert_eq!(rules_of(&PartyFile::new("x", &["ico-i1", "ico-l1", "nobody"])), ["unknown-card"]);
    // A house rule may set another size.
    let four = PartyFile::new("four", &["ico-i1", "ico-l1", "ico-l2", "ico-i2"]);
    assert!(rules::check_party_with(&four, &catalogue(), PartyRules { size: 4 }).is_legal());
}

#[test]
fn faction_mix_names_both_sides() {
    let r = rules::check_party(&PartyFile::new("mix", &["ico-l1", "ico-p1", "ico-i1"]), &catalogue());
    assert_eq!(r.violations.len(), 1);
    let v = &r.violations[0];
    assert_eq!(v.rule, "faction-mix");
    assert_eq!(v.cards, ["ico-l1", "ico-p1"]);
    assert!(v.message.contains("Legion One") && v.message.contains("Prot One"), "{}", v.message);
    assert!(v.source.contains("Selecting Your Party Members"));
    // Independents mix with either faction, and a single faction is fine.
    assert!(rules_of(&PartyFile::new("a", &["ico-p1", "ico-p2", "ico-i1"])).is_empty());
    assert!(rules_of(&PartyFile::new("b", &["ico-i1", "ico-i2", "ico-leg"])).is_empty());
}

#[test]
fn duplicate_by_id_or_by_name() {
    let r = rules::check_party(&PartyFile::new("dup", &["ico-i1", "Indie One", "ico-l1"]), &catalogue());
    assert_eq!(r.violations.len(), 1, "{:?}", r.violations);
    assert_eq!(r.violations[0].rule, "duplicate");
    assert_eq!(r.violations[0].cards, ["ico-i1"]);
    assert!(r.violations[0].message.contains("Indie One"));
    assert!(rules_of(&PartyFile::new("ok", &["ico-i1", "ico-i2", "ico-l1"])).is_empty());
}

#[test]
fn legend_special_limit_counts_distinct_cards() {
    let r = rules::check_party(&PartyFile::new("two", &["ico-leg", "ico-spe", "ico-i1"]), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["legend-special-limit"]);
    assert_eq!(r.violations[0].cards, ["ico-leg", "ico-spe"]);
    // The same Legend twice is a duplicate, not two Legends.
    assert_eq!(rules_of(&PartyFile::new("dup", &["ico-leg", "ico-leg", "ico-i1"])), ["duplicate"]);
    assert!(rules_of(&PartyFile::new("one", &["ico-spe", "ico-i2", "ico-i1"])).is_empty());
}

#[test]
fn unknown_card_covers_missing_ambiguous_and_other_games() {
    let r = rules::check_party(&PartyFile::new("u", &["nobody", "Twin", "ru-x"]), &catalogue());
    let rules: Vec<_> = r.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["unknown-card"; 3]);
    assert!(r.violations[1].message.contains("ico-twin-a") && r.violations[1].message.contains("ico-twin-b"));
    assert!(r.violations[2].message.contains("Ruunara"), "{}", r.violations[2].message);
    assert_eq!(r.violations[0].cards, ["nobody"]);
    // Names are case-sensitive.
    assert_eq!(rules_of(&PartyFile::new("c", &["indie one", "ico-i2", "ico-l1"])), ["unknown-card"]);
    // A shared name is fine by id.
    assert!(rules_of(&PartyFile::new("ids", &["ico-twin-a", "ico-twin-b", "ico-l1"])).is_empty());
}

#[test]
fn every_violation_is_reported_not_only_the_first() {
    let p = PartyFile::new("all", &["ico-leg-l", "ico-p1", "ico-spe", "ico-spe", "nobody"]);
    assert_eq!(rules_of(&p), ["party-size", "faction-mix", "duplicate", "legend-special-limit", "unknown-card"]);
}

#[test]
fn shared_legend_special_is_reported_on_the_later_party() {
    let a = PartyFile::new("A", &["ico-leg", "ico-i1", "ico-l1"]);
    let b = PartyFile::new("B", &["ico-i2", "Legend Indie", "ico-p1"]);
    let c = PartyFile::new("C", &["ico-leg", "ico-i1", "ico-p1"]);
    let reports = rules::check_match(&[&a, &b, &c], &catalogue());
    assert!(reports[0].is_legal());
    for r in &reports[1..] {
        assert_eq!(r.violations.len(), 1, "{:?}", r.violations);
        let v = &r.violations[0];
        assert_eq!(v.rule, "shared-legend-special");
        assert_eq!(v.cards, ["ico-leg"]);
        assert!(v.message.contains("\"A\""), "{}", v.message);
    }
    // Common characters may be shared; different Legends may be used by different parties.
    let d = PartyFile::new("D", &["ico-spe", "ico-i1", "ico-l1"]);
    assert!(rules::check_match(&[&a, &d], &catalogue()).iter().all(|r| r.is_legal()));
}

#[test]
fn shared_legend_special_keeps_rule_order() {
    let a = PartyFile::new("A", &["ico-leg", "ico-i1", "ico-l1"]);
    let b = PartyFile::new("B", &["ico-leg", "nobody", "ico-p1"]);
    let reports = rules::check_match(&[&a, &b], &catalogue());
    let got: Vec<_> = reports[1].violations.iter().map(|v| v.rule).collect();
    assert_eq!(got, ["shared-legend-special", "unknown-card"]);
}

/// Adds members one legal move at a time: a card not yet in the party, of a faction that
/// does not clash, and not a second Legend or Special.
fn build_legally(choices: &[usize], cards: &[Card]) -> PartyFile {
    use deckwright::games::iconica::model::Faction;
    let chars: Vec<_> = cards
        .iter()
        .filter_map(|c| match c {
            Card::Iconica(x) => Some(x),
            _ => None,
        })
        .collect();
    let mut picked: Vec<&deckwright::games::iconica::model::Character> = Vec::new();
    for &choice in choices {
        if picked.len() == 3 {
            break;
        }
        let legal: Vec<_> = chars
            .iter()
            .filter(|c| !picked.iter().any(|p| p.id == c.id))
            .filter(|c| match c.faction {
                Faction::Legion => !picked.iter().any(|p| p.faction == Faction::Protectorate),
                Faction::Protectorate => !picked.iter().any(|p| p.faction == Faction::Legion),
                Faction::Independent => true,
            })
            .filter(|c| !c.rarity.is_legend_or_special() || !picked.iter().any(|p| p.rarity.is_legend_or_special()))
            .filter(|c| c.name != "Twin")
            .collect();
        if legal.is_empty() {
            break;
        }
        picked.push(legal[choice % legal.len()]);
    }
    let members: Vec<&str> = picked.iter().map(|c| if choice_by_name(&c.id) { c.name.as_str() } else { c.id.as_str() }).collect();
    PartyFile::new("built", &members)
}

fn choice_by_name(id: &str) -> bool {
    id.len().is_multiple_of(2)
}

proptest! {
    #[test]
    fn a_party_built_only_from_legal_moves_is_legal(choices in proptest::collection::vec(0usize..100, 3..8)) {
        let cards = catalogue();
        let party = build_legally(&choices, &cards);
        prop_assert_eq!(party.members.len(), 3);
        let report = rules::check_party(&party, &cards);
        prop_assert!(report.is_legal(), "{:?} -> {:?}", party.members, report.violations);
    }
}

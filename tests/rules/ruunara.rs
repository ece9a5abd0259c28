//! Ruunara squad rules: squad-playable, squad-duplicate, story-single-race, unknown-card.



use deckwright::cards::Card;
use deckwright::games::ruunara::rules;
use deckwright::games::ruunara::squad::{Mode, SquadFile};
use crate::fixtures::{ico, ruu};

fn catalogue() -> Vec<Card> {
    vec![
        ruu("ru-a1", "Ardann One", "ardann", "ally"),
        ruu("ru-a2", "Ardann Two", "ardann", "ally"),
        ruu("ru-k1", "Kangara One", "kangara", "ally"),
        ruu("ru-e1", "Ghoul", "ghoul", "enemy"),
        ruu("ru-n1", "Hermit", "ardann", "neutral"),
        ico("ico-x", "Iconica X", "legion", "common"),
    ]
}

fn rules_of(s: &SquadFile) -> Vec<&'static str> {
    rules::check_squad(s, &catalogue()).violations.iter().map(|v| v.rule).collect()
}

#[test]
fn legal_squads_in_both_modes() {
    let story = SquadFile::new("s", Mode::Story, &["ru-a1", "Ardann Two"]);
    let r = rules::check_squad(&story, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!(r.members.len(), 2);
    assert!(rules_of(&SquadFile::new("f", Mode::Free, &["ru-a1", "ru-k1"])).is_empty());
    // No size rule: an empty squad and a single figure are fine.
    assert!(rules_of(&SquadFile::new("e", Mode::Story, &[])).is_empty());
}

#[test]
fn squad_playable_only_allies() {
    let r = rules::check_squad(&SquadFile::new("x", Mode::Free, &["ru-a1", "ru-e1", "ru-n1"]), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["squad-playable", "squad-playable"]);
    assert_eq!(r.violations[0].cards, ["ru-e1"]);
    assert!(r.violations[0].message.contains("enemy"));
    assert!(r.violations[1].message.contains("neutral"));
}

#[test]
fn squad_duplicate_by_id_and_name() {
    let r = rules::check_squad(&SquadFile::new("d", Mode::Free, &["ru-a1", "Ardann One"]), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["squad-duplicate"]);
    assert_eq!(r.violations[0].cards, ["ru-a1"]);
}

#[test]
fn story_single_race_compares_every_member_whatever_its_faction() {
    assert_eq!(rules_of(&SquadFile::new("m", Mode::Story, &["ru-a1", "ru-k1"])), ["story-single-race"]);
    // The neutral hermit is ardann: not playable, but the same race.
    assert_eq!(rules_of(&SquadFile::new("n", Mode::Story, &["ru-a1", "ru-n1"])), ["squad-playable"]);
    assert_eq!(
        rules_of(&SquadFile::new("g", Mode::Story, &["ru-a1", "ru-e1"])),
        ["squad-playable", "story-single-race"]
    );
    // Free Play mixes races.
    assert!(rules_of(&SquadFile::new("f", Mode::Free, &["ru-a1", "ru-k1"])).is_empty());
}

#[test]
fn unknown_card_for_missing_and_other_games() {
    let r = rules::check_squad(&SquadFile::new("u", Mode::Free, &["Nobody", "ico-x"]), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["unknown-card", "unknown-card"]);
    assert!(r.violations[1].message.contains("Iconica"));
    assert_eq!(r.violations[0].cards, ["Nobody"]);
}

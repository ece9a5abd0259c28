//! The card editor's Form view for Arcadia cards through the real app: a feature added to a
//! bundled league's north side, the TOML rewritten, the card saved, undo restoring the text;
//! a merit's type change showing and hiding the fields of its type; a waylay's tests and
//! values, a flaw made a weakness.

use deckwright::app::core::card;
use deckwright::app::editor::View;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, parse_card};
use deckwright::games::arcadia::model::{ArcadiaCard, Court, FlawType, MeritType, TestKind};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};

use crate::support::{app, click, harness_of_height, type_in_search};

fn source(h: &Harness<'_, DeckwrightApp>) -> String {
    h.state().editor.text().to_string()
}

/// The editor's text, read strictly as an Arcadia card.
fn arcadia(h: &Harness<'_, DeckwrightApp>) -> ArcadiaCard {
    match parse_card(&source(h), "t.toml") {
        Ok(Card::Arcadia(c)) => c,
        other => panic!("{other:?}\n{}", source(h)),
    }
}

fn undo(h: &mut Harness<'_, DeckwrightApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
}

/// The bundled card named `name` in the Form view of a tall harness.
fn open_form(search: &str, name: &str) -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), 1400.0);
    type_in_search(&mut h, search);
    click(&mut h, name);
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    h
}

#[test]
fn a_feature_added_to_a_leagues_north_side_is_written_saved_and_undone() {
    let mut h = open_form("Brassgate", "Brassgate Ward");
    let original = source(&h);
    let ArcadiaCard::League(before) = arcadia(&h) else {
        panic!("Brassgate Ward is a league")
    };
    assert_eq!(before.sides.north, vec!["city-wall"]);
    h.get_by_label("A form edit writes the card's TOML anew: comments and the source's layout are not kept. Effects are listed under the card's keys.");

    // The north side's field, then its Add button.
    h.get_by_label("North").focus();
    h.run();
    h.get_by_label("North").type_text("road");
    h.run();
    assert_eq!(
        source(&h),
        original,
        "the new feature is not in the card until added"
    );
    click(&mut h, "Add to north");

    let ArcadiaCard::League(after) = arcadia(&h) else {
        panic!("still a league")
    };
    assert_eq!(after.sides.north, vec!["city-wall", "road"]);
    let mut expected = before.clone();
    expected.sides.north.push("road".into());
    assert_eq!(after, expected, "nothing else changed");
    assert!(
        source(&h).contains("north = [\"city-wall\", \"road\"]"),
        "{}",
        source(&h)
    );
    assert_eq!(
        h.get_all_by_label("road ×").count(),
        4,
        "terrain, east, south and north"
    );
    h.get_by_label("Valid Arcadia league “Brassgate Ward” (arc-l-brassgate-ward).");
    h.get_by_label("Differs from the catalogue's card (Ctrl+S replaces it)");

    // Saved: the catalogue has the edited league.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(
        card(&h.state().cat, "arc-l-brassgate-ward"),
        Some(Card::Arcadia(ArcadiaCard::League(expected)))
    );

    // One undo step back to the text as it was; the chip goes with it.
    undo(&mut h);
    assert_eq!(source(&h), original);
    assert_eq!(h.get_all_by_label("road ×").count(), 3);

    // Removing a chip is one step too.
    click(&mut h, "Add to north");
    assert_eq!(source(&h), original, "an empty field adds nothing");
    let chips: Vec<_> = h.get_all_by_label("city-wall ×").collect();
    assert_eq!(chips.len(), 3, "north, east and west have a city wall");
    chips[0].click();
    h.run();
    let ArcadiaCard::League(l) = arcadia(&h) else {
        panic!("still a league")
    };
    assert!(l.sides.north.is_empty());
    assert_eq!(l.sides.east, before.sides.east);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

#[test]
fn a_merits_type_shows_and_hides_the_fields_of_its_type() {
    let mut h = open_form("Bramble", "Bramble Grip");
    let original = source(&h);
    h.get(By::new().label("Attribute").role(Role::ComboBox));
    h.get(By::new().label("Court").role(Role::ComboBox));
    assert!(h.query_by_label("Combat").is_none());

    h.get(By::new().label("Merit type").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "ally");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("still a merit")
    };
    assert_eq!(m.merit_type, MeritType::Ally);
    assert_eq!((m.attribute, m.court), (None, None));
    assert!(!source(&h).contains("attribute"), "{}", source(&h));
    assert!(h.query_by_label("Attribute").is_none());
    assert!(h.query_by_label("Court").is_none());

    // An ally may have a combat value: one checkbox adds the key.
    h.get(By::new().label("Combat").role(Role::CheckBox))
        .click();
    h.run();
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("still a merit")
    };
    assert_eq!(m.combat, Some(3));

    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);
    h.get(By::new().label("Attribute").role(Role::ComboBox));
}

#[test]
fn a_waylays_tests_and_a_weakness_court_are_set_with_widgets() {
    let mut h = open_form("Tollbridge", "Tollbridge Ogre");
    let original = source(&h);
    h.get(By::new().label("might").role(Role::CheckBox)).click();
    h.run();
    let ArcadiaCard::Waylay(w) = arcadia(&h) else {
        panic!("a waylay")
    };
    assert_eq!(
        w.tests,
        vec![TestKind::Might, TestKind::Savvy, TestKind::Combat],
        "the format's order"
    );
    // A value for the new test: its checkbox adds the key.
    h.get(By::new().label("Might value").role(Role::CheckBox))
        .click();
    h.run();
    let ArcadiaCard::Waylay(w) = arcadia(&h) else {
        panic!("a waylay")
    };
    assert_eq!(w.might, Some(5));
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);

    // A flaw made a weakness gets a court, shown as a drop-down.
    let mut h = open_form("Salt", "Salt-Bound");
    let ArcadiaCard::Flaw(before) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_ne!(before.flaw_type, FlawType::Weakness);
    assert!(h.query_by_label("Court").is_none());
    h.get(By::new().label("Flaw type").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "weakness");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(
        (f.flaw_type, f.court),
        (FlawType::Weakness, Some(Court::Seelie))
    );
    h.get(By::new().label("Court").role(Role::ComboBox));
}

/// A quest's objective in the Form view: its kind changed, a member added to an "All of"
/// and removed, each one undo step, the TOML written as the Source view shows it.
#[test]
fn a_quests_objective_is_edited_as_a_tree_of_forms() {
    use deckwright::games::arcadia::model::Objective;
    let mut h = open_form("kind:quest", "A Choice of Roads");
    let ArcadiaCard::Quest(before) = arcadia(&h) else {
        panic!("a quest")
    };
    let original = source(&h);
    h.get_by_label("Objective 1");

    // Its "Any of" made "All of": the members are kept.
    let Objective::Any(members) = before.objective.clone() else {
        panic!("{:?}", before.objective)
    };
    assert_eq!(members.len(), 2);
    h.get_by_label("Objective 1").click();
    h.run();
    click(&mut h, "All of");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(q.objective, Objective::All(members.clone()));
    assert!(source(&h).contains("all = ["), "{}", source(&h));

    click(&mut h, "Add to objective 1");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    let mut want = members.clone();
    want.push(Objective::CollectTreasures(1));
    assert_eq!(q.objective, Objective::All(want.clone()));
    h.get_by_label("Objective 1.3");
    h.get_by_label("Objective 1.2.1");

    click(&mut h, "Remove 1.1");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    want.remove(0);
    assert_eq!(q.objective, Objective::All(want));

    // Three edits, three undo steps back to the card as it was.
    undo(&mut h);
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// A flaw's effects in the Form view: its test changed, an effect added with a bonus, one
/// removed; each one undo step.
#[test]
fn a_flaws_effects_are_small_forms() {
    let mut h = open_form("Salt-Bound", "Salt-Bound");
    let original = source(&h);
    let ArcadiaCard::Flaw(before) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(before.effects.len(), 1);
    assert_eq!(before.effects[0].penalty, Some(2));

    h.get(By::new().label("Test 1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "savvy");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects[0].test, Some(TestKind::Savvy));

    click(&mut h, "Add effect");
    click(&mut h, "Exhaust 2");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects.len(), 2);
    assert_eq!(
        (f.effects[1].bonus, f.effects[1].exhaust),
        (Some(1), Some(true))
    );
    assert!(source(&h).contains("exhaust = true"), "{}", source(&h));

    click(&mut h, "Remove effect 1");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects.len(), 1);
    for _ in 0..4 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original);
}

//! The card editor's Form view for Ruunara figures: skills added, edited and removed, the
//! faction and dice changed, each one undo step, the TOML read back by the strict parser.

use deckwright::app::editor::View;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, parse_card};
use deckwright::games::ruunara::model::{Allegiance, Figure};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness_of_height, type_in_search};

fn figure(h: &Harness<'_, DeckwrightApp>) -> Figure {
    match parse_card(h.state().editor.text(), "t.toml") {
        Ok(Card::Ruunara(f)) => f,
        other => panic!("{other:?}\n{}", h.state().editor.text()),
    }
}

fn undo(h: &mut Harness<'_, DeckwrightApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
}

#[test]
fn skills_are_added_edited_and_removed_in_the_form() {
    let mut h = harness_of_height(app(), 1400.0);
    type_in_search(&mut h, "Fen Wraith");
    click(&mut h, "Fen Wraith");
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    let original = h.state().editor.text().to_string();
    let before = figure(&h);
    assert_eq!(before.skills.len(), 2);
    h.get_by_label("Skill 2 name");

    click(&mut h, "Add skill");
    let f = figure(&h);
    assert_eq!(f.skills.len(), 3);
    assert_eq!(f.skills[2].name, "New Skill");

    // Typing in the new skill's text.
    h.get_by_label("Skill 3 text").focus();
    h.run();
    h.get_by_label("Skill 3 text")
        .type_text("Once per game, vanish.");
    h.run();
    assert_eq!(
        figure(&h).skills[2].text.as_deref(),
        Some("Once per game, vanish.")
    );

    click(&mut h, "Remove skill 1");
    let f = figure(&h);
    assert_eq!(f.skills.len(), 2);
    assert_eq!(f.skills[0].name, before.skills[1].name);

    // The faction from its drop-down.
    h.get_by_label("Faction").click();
    h.run();
    click(&mut h, "neutral");
    assert_eq!(figure(&h).faction, Allegiance::Neutral);

    for _ in 0..4 {
        undo(&mut h);
    }
    assert_eq!(h.state().editor.text(), original);
}

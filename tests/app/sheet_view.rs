//! The browser's sheet view: the current search as rows, simple keys edited in place,
//! checked by the card rules, one undo step per edit.

use deckwright::app::{Action, core};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness, type_in_search};

fn wait_rows(h: &mut egui_kittest::Harness<'_, deckwright::app::DeckwrightApp>) {
    crate::support::wait_for(h, "the browser's rows", |a| {
        !a.browser.rows().is_empty() && !a.browser.busy()
    });
    h.run();
}

#[test]
fn a_cell_edited_in_the_sheet_view_is_stored_and_undone_in_one_step() {
    let mut h = harness(app());
    h.run();
    type_in_search(&mut h, "id:ico-grumbolt");
    wait_rows(&mut h);
    click(&mut h, "Sheet");
    assert!(h.state().browser.sheet_mode);
    // The simple keys are columns; lists and tables (health, actions) are not.
    let name = h.get_by_label("name of ico-grumbolt");
    name.click();
    h.run();
    h.key_press(Key::End);
    h.run();
    h.get_by_label("name of ico-grumbolt")
        .type_text(" the Bold");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt the Bold"
    );
    assert!(h.query_by_label("health of ico-grumbolt").is_none());

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt the Bold"
    );
}

#[test]
fn a_value_the_card_rules_refuse_changes_nothing_and_says_why() {
    let mut h = harness(app());
    h.run();
    let before = core::card(&h.state().cat, "ico-grumbolt").unwrap();
    h.state_mut().apply(Action::SetCardKey {
        id: "ico-grumbolt".into(),
        key: "action_break".into(),
        value: "lots".into(),
    });
    let err = h.state().error().expect("an error").to_string();
    assert!(
        err.contains("action_break") && err.contains("whole number"),
        "{err}"
    );
    h.state_mut().apply(Action::SetCardKey {
        id: "ico-grumbolt".into(),
        key: "faction".into(),
        value: "pirates".into(),
    });
    let err = h.state().error().expect("an error").to_string();
    assert!(err.contains("faction"), "{err}");
    assert_eq!(core::card(&h.state().cat, "ico-grumbolt").unwrap(), before);
}

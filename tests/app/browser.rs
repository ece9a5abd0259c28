//! Drives the real app through its widgets: search, open a card, change an owned quantity,
//! undo and redo, and the state restored from the catalogue.

use deckwright::app::{DeckwrightApp, Screen};
use deckwright::catalogue::Catalogue;
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};

use crate::support::{app, click, harness, type_in_search};

#[test]
fn search_narrows_the_list_and_opens_a_card() {
    let mut h = harness(app());
    h.run();
    let all = h.state().browser.rows().len();
    assert!(all > 50, "the bundled catalogue is listed: {all}");
    type_in_search(&mut h, "Kethra");
    let rows = h.state().browser.rows();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].name, "Kethra Voss");
    click(&mut h, "Kethra Voss");
    assert_eq!(h.state().browser.selected().as_deref(), Some(rows_id(&h)));
    // The detail pane shows the card's heading, fields and owned quantity.
    assert!(
        h.query_all_by_label("Kethra Voss").count() >= 2,
        "list row and detail heading"
    );
    h.get_by_label("Owned: 0");
    h.get_by_label("faction");
    h.get_by_label("legion");
}

fn rows_id<'a>(h: &'a Harness<'_, DeckwrightApp>) -> &'a str {
    &h.state().browser.rows()[0].id
}

#[test]
fn quick_filters_keep_one_game_and_kind() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Arcadia");
    // The kind filter, not the "league" labels of the result rows.
    h.get(
        By::new()
            .label("league")
            .predicate(|n| n.role() != Role::Label),
    )
    .click();
    h.run();
    let rows = h.state().browser.rows();
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r.game == "arcadia" && r.kind == "league"),
        "{rows:?}"
    );
    assert_eq!(h.state().browser.full_query(), "game:arcadia kind:league");
}

#[test]
fn owned_quantity_changes_in_place_and_undo_redo_survive_a_restart() {
    let mut h = harness(app());
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "+1");
    click(&mut h, "+1");
    h.get_by_label("Owned: 2");
    h.get_by_label("Collection: 2 cards");
    assert_eq!(
        h.state().browser.rows()[0].owned,
        2,
        "the list shows the new quantity"
    );

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label("Owned: 1");
    h.get_by_label("Collection: 1 card");

    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.get_by_label("Owned: 2");

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label("Owned: 1");

    // Restart on the same catalogue: the session, the quantity and both stacks come back.
    let cat = h.into_state().cat;
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    assert_eq!(h.state().screen, Screen::Browser);
    assert_eq!(h.state().browser.query, "Kethra");
    h.get_by_label("Owned: 1");
    assert!(h.state().history.can_undo() && h.state().history.can_redo());
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.get_by_label("Owned: 2");
}

#[test]
fn theme_switch_is_remembered() {
    let mut h = harness(app());
    h.run();
    let dark = h.state().dark;
    let icon = if dark { "Light theme" } else { "Dark theme" };
    click(&mut h, icon);
    assert_eq!(h.state().dark, !dark);
    let cat = h.into_state().cat;
    assert_eq!(DeckwrightApp::new(cat).dark, !dark);
}

/// Steps the harness until `done` holds (queries on a worker thread answer in their time).
fn step_until(h: &mut Harness<'_, DeckwrightApp>, done: impl Fn(&DeckwrightApp) -> bool) {
    crate::support::wait_for(h, "the query worker's answer", done);
}

#[test]
fn on_a_catalogue_file_queries_run_off_the_ui_thread() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("cat.sqlite");
    let cat = Catalogue::open(&path).unwrap();
    let mut h = harness(DeckwrightApp::with_path(cat, Some(path)));
    step_until(&mut h, |a| a.browser.rows().len() > 50);
    h.get_by_label("Search:").focus();
    h.run();
    h.get_by_label("Search:").type_text("Kethra");
    h.step();
    step_until(&mut h, |a| !a.browser.busy() && a.browser.rows().len() == 1);
    assert_eq!(h.state().browser.rows()[0].id, "ico-kethra-voss");

    // A query error is shown with a caret under its column, and the list is kept.
    h.get_by_label("Search:").type_text(" (");
    h.step();
    step_until(&mut h, |a| !a.browser.busy());
    h.run();
    assert_eq!(h.state().browser.rows().len(), 1);
    assert!(
        h.query_all_by_label_contains("^").count() >= 1,
        "a caret points at the error"
    );
}

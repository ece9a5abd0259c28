//! The card editor's Balance panel: on for a new user and remembered across restarts; an
//! Iconica character opened in the editor is measured in the background, and an edit (more
//! Start health) is measured again, the run in flight cancelled, with a higher win rate; a
//! suggestion's Apply changes the source as one undo step.

use deckwright::app::DeckwrightApp;
use deckwright::balance::Stopping;
use deckwright::catalogue::Catalogue;
use deckwright::games::ai::Policy;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

use crate::support::{app, click, harness, type_in_search, wait_until};

/// The panel's win-rate line once the figure is in (frames run, real time passes).
fn win_rate_line(h: &mut Harness<'_, DeckwrightApp>) -> String {
    wait_until(h, "the panel's win rate", |h| {
        h.query(By::new().label_contains("Field win rate"))
            .is_some()
    });
    let n = h.get(By::new().label_contains("Field win rate"));
    let node = n.accesskit_node();
    node.value().or(node.label()).unwrap_or_default()
}

/// The percentage at the start of the line (`Field win rate 41.3% (...`).
fn percent(line: &str) -> f64 {
    let rest = line.strip_prefix("Field win rate ").unwrap();
    rest[..rest.find('%').unwrap()].parse().unwrap()
}

#[test]
fn the_balance_panel_measures_the_card_and_again_after_an_edit() {
    let mut h = harness(app());
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    // The panel keeps repainting while it measures: frames are stepped, not run to rest.
    h.get_by_label("Edit card").click();
    h.run();
    assert!(
        h.query_by_label("Field win rate").is_none(),
        "off until asked"
    );
    h.get_by_label("Balance panel").click();
    h.run_steps(3);
    let before = win_rate_line(&mut h);
    assert!(before.contains("greedy on both sides"), "{before}");
    assert!(before.contains("draws count as half"), "{before}");

    let source = h.state().editor.text().to_string();
    let stronger = source.replace("start = 120", "start = 200");
    assert_ne!(source, stronger);
    h.get_by_label("TOML source:").focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    h.get_by_label("TOML source:").type_text(&stronger);
    h.run_steps(2);
    // The old figure is gone at once: the edited card is being measured.
    assert!(
        h.query(By::new().label_contains("Field win rate"))
            .is_none()
    );
    let after = win_rate_line(&mut h);
    assert!(
        percent(&after) > percent(&before) + 10.0,
        "{before} -> {after}"
    );
}

#[test]
fn the_balance_panel_is_on_for_a_new_user_and_the_choice_is_remembered() {
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    assert!(app.editor.balance_on(), "on by default");
    app.editor.set_balance_on(false);
    app.persist();
    let mut again = DeckwrightApp::new(app.cat);
    assert!(!again.editor.balance_on(), "off after a restart, as left");
    again.editor.set_balance_on(true);
    again.persist();
    assert!(DeckwrightApp::new(again.cat).editor.balance_on());
}

/// Replaces the editor's whole source with `text`, as typed.
fn retype(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.get_by_label("TOML source:").focus();
    h.run_steps(2);
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run_steps(2);
    h.get_by_label("TOML source:").type_text(text);
    h.run_steps(2);
}

#[test]
fn a_suggestions_apply_button_edits_the_source_as_one_undo_step() {
    let mut h = harness(app());
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    h.get_by_label("Edit card").click();
    h.run();
    // A quick measurement (random play, few games), of an overpowered Kethra.
    h.state_mut()
        .editor
        .set_balance_measure(Policy::Random, Stopping::checked(0.04, 1_000).unwrap());
    let source = h.state().editor.text().to_string();
    let strong = source.replace("start = 120", "start = 200");
    assert_ne!(source, strong);
    retype(&mut h, &strong);
    assert_eq!(h.state().editor.text(), strong);
    h.get_by_label("Balance panel").click();
    h.run_steps(3);
    wait_until(&mut h, "a suggestion", |h| {
        assert!(
            h.query(By::new().label_contains("No small change"))
                .is_none(),
            "a suggestion was expected for Start 200"
        );
        h.query_by_label("Apply").is_some() || h.query_all_by_label("Apply").next().is_some()
    });
    let line = h
        .query(By::new().label_contains(" -> "))
        .map(|n| {
            let node = n.accesskit_node();
            node.value().or(node.label()).unwrap_or_default()
        })
        .unwrap();
    h.query_all_by_label("Apply").next().unwrap().click();
    h.run_steps(3);
    let applied = h.state().editor.text().to_string();
    assert_ne!(applied, strong, "{line}");
    assert!(!applied.contains("start = 200"), "{line}: {applied}");
    // One undo step brings back the source as it was before Apply.
    h.get_by_label("Edit").click();
    h.run_steps(2);
    h.query(By::new().label_contains("Undo Balance:"))
        .expect("the Edit menu names the step")
        .click();
    h.run_steps(3);
    assert_eq!(h.state().editor.text(), strong);
}

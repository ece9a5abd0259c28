//! The card editor's Balance panel: on for a new user and remembered across restarts; an
//! Iconica character opened in the editor is measured in the background, and an edit (more
//! Start health) is measured again, the run in flight cancelled, with a higher win rate; a
//! suggestion's Apply changes the source as one undo step.

use deckwright::app::docs::Slot;
use deckwright::app::{Action, DeckwrightApp, Screen, core, files};
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

/// Issue #24 item 4: an Arcadia merit in the editor, with a setup open on the Setup screen:
/// Measure plays it (a background job, Stop while it runs) against that setup and its
/// characters and against the bundled example setups, and shows each verdict and the impact
/// of each of its parts (its effect and its Combat).
#[test]
fn the_arcadia_balance_panel_measures_your_field_and_each_parts_impact() {
    let mut a = app();
    let setup = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/arcadia/legal-starter.setup.toml");
    for action in files::setup_characters(&setup) {
        a.apply(action);
    }
    a.apply(files::open_doc_path(&setup, Slot::Setup));
    let card = core::card(&a.cat, "arc-m-old-gristle").unwrap().to_toml();
    a.apply(Action::ReplaceCard {
        label: "open".into(),
        after: card,
    });
    // A quick measurement: random play, few games.
    a.editor.set_balance_on(true);
    a.editor.set_arcadia_balance_measure(
        Policy::Random,
        200,
        Stopping::checked(0.05, 500).unwrap(),
    );
    let mut h = crate::support::builder()
        .with_size(egui::vec2(1024.0, 700.0))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), a);
    h.run();
    assert_eq!(h.state().screen, Screen::Card);
    assert!(h.query_by_label("Not measured yet.").is_some());
    crate::support::click_job(&mut h, "Measure balance");
    assert!(h.state().editor.arcadia_balance_running());
    assert!(h.query_by_label("Stop").is_some(), "Stop while it runs");
    wait_until(&mut h, "the Arcadia balance figures", |h| {
        !h.state().editor.arcadia_balance_running()
    });
    h.run();
    for line in [
        "Against your setup and characters (",
        "Against the bundled example setups (",
        "Impact of each part when removed",
        "effect 1: ",
        "Combat ",
    ] {
        assert!(
            h.query(By::new().label_contains(line)).is_some(),
            "{line} is shown"
        );
    }
    h.snapshot("editor-arcadia-balance-1024");
}

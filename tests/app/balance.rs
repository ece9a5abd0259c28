//! The card editor's Balance panel: an Iconica character opened in the editor is measured
//! in the background, and an edit (more Start health) is measured again, the run in flight
//! cancelled, with a higher win rate.

use std::time::{Duration, Instant};

use deckwright::app::DeckwrightApp;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

use crate::support::{app, click, harness, type_in_search};

/// The panel's win-rate line once the figure is in (frames run, real time passes).
fn win_rate_line(h: &mut Harness<'_, DeckwrightApp>) -> String {
    let started = Instant::now();
    loop {
        h.step();
        if let Some(n) = h.query(By::new().label_contains("Field win rate")) {
            let node = n.accesskit_node();
            return node.value().or(node.label()).unwrap_or_default();
        }
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "the panel never showed a win rate"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
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
    h.get_by_label("Balance").click();
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

//! What the app tests share: the real app over an empty in-memory catalogue, driven in a
//! kittest harness.

use deckwright::app::DeckwrightApp;
use deckwright::catalogue::Catalogue;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// A 1280 x `height` harness around the app's whole UI, the computer's turns played in the
/// frame ([`inline_turns`]), with the card editor's Balance
/// panel off (on for users; a test of the panel turns it on): a measurement keeps the
/// window repainting and both cores busy, so other tests would not settle quickly.
pub fn harness_of_height(mut app: DeckwrightApp, height: f32) -> Harness<'static, DeckwrightApp> {
    app.editor.set_balance_on(false);
    let h = Harness::builder()
        .with_size(egui::vec2(1280.0, height))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), app);
    inline_turns(&h);
    h
}

/// Has the match views play the computer's turn inside the frame that starts it, so a step
/// sees the computer's answer (the tests of the background turn, `computer_turn.rs`, do not).
pub fn inline_turns(h: &Harness<'_, DeckwrightApp>) {
    deckwright::app::matches::job::set_inline_turns(&h.ctx, true);
}

/// A 1280 x 800 harness around the app's whole UI.
pub fn harness(app: DeckwrightApp) -> Harness<'static, DeckwrightApp> {
    harness_of_height(app, 800.0)
}

/// The app over an empty in-memory catalogue.
pub fn app() -> DeckwrightApp {
    DeckwrightApp::new(Catalogue::open_in_memory().expect("in-memory catalogue"))
}

/// Clicks the widget labelled `label` and lets the app answer.
pub fn click(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

/// Ctrl+F, then types `text` into the browser's search box.
pub fn type_in_search(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    assert!(
        h.get_by_label("Search:").is_focused(),
        "Ctrl+F focuses the search box"
    );
    h.get_by_label("Search:").type_text(text);
    h.run();
}

/// Picks the Iconica character `name` in the Party screen's list.
pub fn pick_character(h: &mut Harness<'_, DeckwrightApp>, name: &str) {
    click(h, &format!("{name}  ·  character"));
}

/// The app with two legal parties (the example parties' members) built on the Party
/// screen, on the Match screen.
pub fn two_parties() -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), 900.0);
    h.run();
    click(&mut h, "Party");
    click(&mut h, "Match: a second party");
    for name in ["Teodric Vale", "Anwen Halloway", "Gorm Ashcairn"] {
        pick_character(&mut h, name);
    }
    click(&mut h, "B");
    for name in ["Varek Solenne", "Kethra Voss", "Nyx Ellery"] {
        pick_character(&mut h, name);
    }
    h.key_press_modifiers(Modifiers::COMMAND, Key::M);
    h.run();
    assert_eq!(h.state().screen, deckwright::app::Screen::Match);
    h
}

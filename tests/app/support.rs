//! What the app tests share: the real app over an empty in-memory catalogue, driven in a
//! kittest harness.

use deckwright::app::DeckwrightApp;
use deckwright::catalogue::Catalogue;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// A 1280 x `height` harness around the app's whole UI, with the card editor's Balance
/// panel off (on for users; a test of the panel turns it on): a measurement keeps the
/// window repainting and both cores busy, so other tests would not settle quickly.
pub fn harness_of_height(mut app: DeckwrightApp, height: f32) -> Harness<'static, DeckwrightApp> {
    app.editor.set_balance_on(false);
    Harness::builder()
        .with_size(egui::vec2(1280.0, height))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), app)
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

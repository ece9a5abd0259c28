//! What the app tests share: the real app over an empty in-memory catalogue, driven in a
//! kittest harness.

use deckwright::app::DeckwrightApp;
use deckwright::catalogue::Catalogue;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

/// A 1280 x `height` harness around the app's whole UI.
pub fn harness_of_height(app: DeckwrightApp, height: f32) -> Harness<'static, DeckwrightApp> {
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

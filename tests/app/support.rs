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

/// The most frames [`wait_until`] steps: a guard against a job that never answers, far
/// beyond what any job here takes on the slowest machine (each frame also yields the CPU for
/// a millisecond or more, so this is minutes at the very least). Never a deadline a busy
/// machine could miss.
pub const MOST_FRAMES: u32 = 300_000;

/// Steps frames until `done` holds: a background job (a query, a run, a measurement)
/// answers in its own time, however loaded the machine. Between frames the thread sleeps a
/// millisecond so the job's threads get the cores. Panics, saying `what` was awaited, only
/// after [`MOST_FRAMES`] frames without it.
pub fn wait_until(
    h: &mut Harness<'_, DeckwrightApp>,
    what: &str,
    mut done: impl FnMut(&Harness<'_, DeckwrightApp>) -> bool,
) {
    for _ in 0..MOST_FRAMES {
        h.step();
        if done(h) {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    panic!("waited {MOST_FRAMES} frames for {what}; it never came");
}

/// [`wait_until`] on the app's state.
pub fn wait_for(
    h: &mut Harness<'_, DeckwrightApp>,
    what: &str,
    done: impl Fn(&DeckwrightApp) -> bool,
) {
    wait_until(h, what, |h| done(h.state()));
}

/// Clicks `label`, a button that starts or stops a background job, and takes two frames
/// (the click, then the job's controls drawn). Not [`click`]: `run()` steps until no frame
/// is asked for, and a running job asks for one at each progress, so on a busy machine
/// `run()` could exceed its steps.
pub fn click_job(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).click();
    h.step();
    h.step();
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

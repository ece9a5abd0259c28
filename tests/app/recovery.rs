//! Nothing lost (issue 16): the app asks before *New card* replaces an unsaved card, offers
//! the unsaved card kept from the last session (a crash included), and shows a catalogue
//! that cannot be opened with its whole message and, when damaged, a Restore button.

use deckwright::app::recovery::Recovery;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::catalogue::Catalogue;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness, type_in_search};

fn replace_source(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.get_by_label("TOML source:").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("TOML source:").type_text(text);
    h.run();
    h.run_steps(70);
}

fn source(h: &Harness<'_, DeckwrightApp>) -> String {
    h.state().editor.text().to_string()
}

/// An app whose card editor holds an edited, unsaved Ruunara hero.
fn with_unsaved_card() -> (Harness<'static, DeckwrightApp>, String) {
    let mut h = harness(app());
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    click(&mut h, "New card");
    click(&mut h, "Ruunara hero");
    let edited = source(&h).replace("name = \"New Hero\"", "name = \"Orla Flint\"");
    replace_source(&mut h, &edited);
    assert_eq!(source(&h), edited);
    (h, edited)
}

#[test]
fn new_card_asks_before_replacing_an_unsaved_card() {
    let (mut h, edited) = with_unsaved_card();
    assert!(h.state().card_draft_unsaved());
    click(&mut h, "New card");
    click(&mut h, "Arcadia quest");
    h.get_by_label("Keep editing");
    assert_eq!(source(&h), edited, "nothing replaced before the answer");
    click(&mut h, "Keep editing");
    assert_eq!(source(&h), edited);
    assert!(
        h.query_by_label("Keep editing").is_none(),
        "the question is gone"
    );

    click(&mut h, "New card");
    click(&mut h, "Arcadia quest");
    click(&mut h, "Replace it");
    assert!(source(&h).contains("kind = \"quest\""), "{}", source(&h));
    // Undo brings the unsaved card back.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(source(&h), edited);
}

#[test]
fn edit_card_from_the_browser_asks_before_replacing_an_unsaved_card() {
    let (mut h, edited) = with_unsaved_card();
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "Edit card");
    assert_eq!(source(&h), edited, "nothing replaced before the answer");
    click(&mut h, "Replace it");
    assert!(source(&h).contains("Kethra Voss"), "{}", source(&h));
}

#[test]
fn new_card_does_not_ask_over_a_saved_card_or_an_untouched_template() {
    let (mut h, _) = with_unsaved_card();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(!h.state().card_draft_unsaved(), "{}", h.state().status());
    click(&mut h, "New card");
    click(&mut h, "Iconica character");
    assert!(h.query_by_label("Replace it").is_none());
    assert!(source(&h).contains("game = \"iconica\""));
    // An untouched template is not unsaved work either.
    click(&mut h, "New card");
    click(&mut h, "Ruunara unit");
    assert!(h.query_by_label("Replace it").is_none());
}

#[test]
fn the_unsaved_card_of_the_last_session_is_offered_after_a_crash() {
    let (h, edited) = with_unsaved_card();
    // A crash: the app is gone without saving; its catalogue holds the draft as typed.
    let cat = h.into_state().cat;
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    assert!(
        h.state()
            .recovered()
            .is_some_and(|w| w.contains("Orla Flint")),
        "{:?}",
        h.state().recovered()
    );
    h.get_by_label("Unsaved card from your last session");
    click(&mut h, "Show the unsaved card");
    assert_eq!(h.state().screen, Screen::Card);
    assert_eq!(source(&h), edited);
    assert!(h.state().recovered().is_none());

    // Discarding is one undoable edit.
    let cat = h.into_state().cat;
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    click(&mut h, "Discard it");
    assert_eq!(source(&h), "");
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(source(&h), edited);
}

#[test]
fn a_damaged_catalogue_shows_its_message_and_restores_a_verified_backup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    {
        let mut cat = Catalogue::open(&db).unwrap();
        cat.set_owned("ico-anwen-halloway", 2).unwrap();
        cat.backup().unwrap();
    }
    let len = std::fs::metadata(&db).unwrap().len();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&db)
        .unwrap()
        .set_len(len - 1)
        .unwrap();
    let err = Catalogue::open(&db).err().expect("damaged");
    let recovery = Recovery::new(&db, &err);
    assert!(
        recovery.message().contains("damaged"),
        "{}",
        recovery.message()
    );
    assert!(recovery.offered().is_some());
    let mut h = crate::support::builder()
        .with_size(egui::vec2(1000.0, 600.0))
        .build_ui_state(|ui, r: &mut Recovery| r.ui(ui), recovery);
    h.run();
    h.get_by_label("The catalogue cannot be opened");
    click_recovery(&mut h, "Restore");
    let cat = h.state_mut().take_opened().expect("restored and opened");
    assert_eq!(cat.owned("ico-anwen-halloway").unwrap(), 2);
}

#[test]
fn a_catalogue_of_a_newer_build_is_not_offered_a_restore() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("cat.sqlite");
    drop(Catalogue::open(&db).unwrap().backup().unwrap());
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch("PRAGMA user_version = 999;")
        .unwrap();
    let err = Catalogue::open(&db).err().expect("too new");
    let recovery = Recovery::new(&db, &err);
    assert!(
        recovery.message().contains("newer deckwright"),
        "{}",
        recovery.message()
    );
    assert!(
        recovery.offered().is_none(),
        "not damaged: nothing to restore"
    );
    let mut h = crate::support::builder()
        .with_size(egui::vec2(1000.0, 600.0))
        .build_ui_state(|ui, r: &mut Recovery| r.ui(ui), recovery);
    h.run();
    assert!(h.query_by_label("Restore").is_none());
}

fn click_recovery(h: &mut Harness<'_, Recovery>, label: &str) {
    h.get_by_label(label).click();
    h.run();
}

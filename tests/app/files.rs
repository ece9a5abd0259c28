//! Files from the app: card import (all or nothing, errors with file, line and column),
//! documents opened from their TOML files, the print screen and its PDF export.

use deckwright::app::core::{self, PrintSettings};
use deckwright::app::docs::Slot;
use deckwright::app::{Action, DeckwrightApp, Screen, files};
use deckwright::catalogue::Catalogue;
use egui_kittest::kittest::Queryable;

use crate::support::{click, harness};

fn card_text(id: &str, name: &str) -> String {
    let base = std::fs::read_to_string("cards/iconica/ico-grumbolt.toml").unwrap();
    base.replacen("id = \"ico-grumbolt\"", &format!("id = \"{id}\""), 1)
        .replacen("name = \"Grumbolt\"", &format!("name = \"{name}\""), 1)
}

#[test]
fn a_bad_file_imports_nothing_and_the_error_names_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("good.toml"),
        card_text("ico-zz-good", "Zz Good"),
    )
    .unwrap();
    let bad = card_text("ico-zz-bad", "Zz Bad").replace(
        "class = \"offensive\"",
        "class = \"offensive\"\nwingspan = 3",
    );
    std::fs::write(dir.path().join("bad.toml"), bad).unwrap();

    let cat = Catalogue::open_in_memory().unwrap();
    let before = cat.count().unwrap();
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    h.state_mut()
        .apply(Action::ImportCards(vec![dir.path().to_path_buf()]));
    h.run();
    let err = h
        .state()
        .error()
        .expect("the import error is shown")
        .to_string();
    assert!(err.contains("Nothing was imported"), "{err}");
    assert!(
        err.contains("bad.toml:11:1"),
        "file, line and column: {err}"
    );
    assert!(err.contains("wingspan"), "{err}");
    h.get_by_label("Problem");
    assert_eq!(
        h.state().cat.count().unwrap(),
        before,
        "nothing half imported"
    );

    // Without the bad file the import goes through and the browser lists the card.
    std::fs::remove_file(dir.path().join("bad.toml")).unwrap();
    click(&mut h, "OK");
    assert!(h.state().error().is_none());
    h.state_mut()
        .apply(Action::ImportCards(vec![dir.path().to_path_buf()]));
    h.run();
    assert_eq!(h.state().cat.count().unwrap(), before + 1);
    assert!(
        h.state().status().contains("1 card added"),
        "{}",
        h.state().status()
    );
    assert!(
        h.state()
            .browser
            .rows()
            .iter()
            .any(|r| r.id == "ico-zz-good")
    );
}

#[test]
fn documents_open_from_their_files_with_positioned_errors() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("raiders.party.toml");
    std::fs::write(
        &good,
        "game = \"iconica\"\nname = \"Raiders\"\nmembers = [\"ico-grumbolt\"]\n",
    )
    .unwrap();
    match files::open_doc_path(&good, Slot::PartyA) {
        Action::Edit { slot, after, .. } => {
            assert_eq!(slot, Slot::PartyA);
            assert!(after.contains("ico-grumbolt"));
        }
        other => panic!("expected an edit, got {other:?}"),
    }
    let bad = dir.path().join("broken.party.toml");
    std::fs::write(&bad, "game = \"iconica\"\nmembers = [\"ico-grumbolt\"\n").unwrap();
    match files::open_doc_path(&bad, Slot::PartyA) {
        Action::Error(e) => {
            assert!(e.contains("broken.party.toml:2:"), "file and line: {e}");
            assert!(e.contains("members"), "the key: {e}");
        }
        other => panic!("expected an error, got {other:?}"),
    }
    // Export writes the file the CLI reads back.
    let out = dir.path().join("out.party.toml");
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    app.apply(files::open_doc_path(&good, Slot::PartyA));
    assert!(matches!(
        files::write_doc(&out, &app.docs.get_toml(Slot::PartyA)),
        Action::Notify(_)
    ));
    let text = std::fs::read_to_string(&out).unwrap();
    deckwright::games::iconica::party::PartyFile::parse(&text, "out.party.toml")
        .expect("the core reads it");
}

#[test]
fn ctrl_p_prints_the_party_with_a_sheet_preview_and_the_pdf_is_written() {
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    app.docs.party_a.members = vec!["ico-grumbolt".into(), "ico-kethra-voss".into()];
    app.screen = Screen::Party;
    let mut h = harness(app);
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::P);
    h.run();
    assert_eq!(h.state().screen, Screen::Print);
    assert_eq!(h.state().print.ids, ["ico-grumbolt", "ico-kethra-voss"]);
    h.get_by_label("Sheet 1 of 1 (9 cards a sheet, 2 cards)");
    h.get_by_label("2. Kethra Voss");

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("party.pdf");
    let msg = core::export_pdf(
        &h.state().cat,
        &h.state().print.ids,
        &out,
        &PrintSettings::default(),
    )
    .unwrap();
    assert!(msg.contains("2 cards, 1 page)"), "{msg}");
    assert!(std::fs::read(&out).unwrap().starts_with(b"%PDF"));
}

#[test]
fn a_setup_exports_with_its_characters_and_opens_back_into_another_catalogue() {
    use deckwright::catalogue::saved::DocKind;
    let dir = tempfile::tempdir().unwrap();
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    let character = "game = \"arcadia\"\nname = \"Esekial\"\nicon = \"arc-icon-thornling-female\"\nmerits = [\"arc-m-lucky-star\"]\nflaws = []\n";
    app.cat
        .save_doc(DocKind::Character, "Esekial", character)
        .unwrap();
    app.docs.setup.players[0].character = files::character_ref("Esekial");
    app.docs.setup.players[0].quests = vec!["arc-q-a-choice-of-roads".into()];
    let path = dir.path().join("moor.setup.toml");
    let mut actions = files::export_setup_characters(&app.cat, &app.docs.setup, &path);
    actions.push(files::write_doc(&path, &app.docs.get_toml(Slot::Setup)));
    assert!(
        actions.iter().all(|a| matches!(a, Action::Notify(_))),
        "{actions:?}"
    );
    assert!(dir.path().join("Esekial.character.toml").exists());

    // The CLI's reader takes the exported setup.
    let text = std::fs::read_to_string(&path).unwrap();
    let setup = deckwright::games::arcadia::setup::SetupFile::parse(&text, "moor.setup.toml")
        .expect("the core reads it");
    assert_eq!(setup.players[0].character, "Esekial.character.toml");

    // Another catalogue opens it: the character is saved there and the setup finds it.
    let mut other = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    for a in files::setup_characters(&path) {
        other.apply(a);
    }
    other.apply(files::open_doc_path(&path, Slot::Setup));
    assert_eq!(
        other.docs.setup.players[0].quests,
        ["arc-q-a-choice-of-roads"]
    );
    assert!(files::saved_character(&other.cat, "Esekial.character.toml").is_some());
    let verdict = core::check_setup(&other.cat, &other.docs.setup, &|e| {
        files::saved_character(&other.cat, e).and_then(|t| {
            <deckwright::games::arcadia::character::CharacterFile as deckwright::app::docs::TomlDoc>::from_toml(&t)
                .ok()
        })
    });
    assert!(verdict.checked);
    assert!(
        !verdict
            .findings
            .iter()
            .any(|f| f.rule == "character-file" && f.message.contains("player 1")),
        "{:?}",
        verdict.findings
    );
}

/// Issue #27 item 4: with no system dialog, the in-app path field takes the keyboard as soon
/// as it opens (typing is not lost), and "New folder" makes the folder typed (through
/// `safe_io::create_folder`), which the export then fills.
#[test]
fn the_path_field_is_focused_when_it_opens_and_makes_a_new_folder() {
    let mut h = harness(DeckwrightApp::new(Catalogue::open_in_memory().unwrap()));
    h.run();
    files::set_backend(&h.ctx, std::sync::Arc::new(files::NoDialogs));
    h.get_by_label("File").click();
    h.run_steps(30);
    h.get_by_label("Export cards to folder…").click();
    h.run_steps(30);
    assert!(files::path_field_open(&h.ctx));
    assert!(
        h.get_by_label("Path").is_focused(),
        "the field has the keyboard"
    );

    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("deck");
    // Typed straight away, with no click in the field first.
    h.event(egui::Event::Text(new.display().to_string()));
    h.run_steps(30);
    assert_eq!(
        h.get_by_label("Path").value().as_deref(),
        Some(new.display().to_string().as_str())
    );
    h.get_by_label("New folder").click();
    h.run_steps(30);
    assert!(new.is_dir(), "the folder is made");
    h.get_by_label(&format!("Made the folder {}.", new.display()));
    // Made twice: refused, and said.
    h.get_by_label("New folder").click();
    h.run_steps(30);
    h.get_by_label_contains("The folder was not made");

    h.get_by_label("OK").click();
    h.run_steps(30);
    assert!(!files::path_field_open(&h.ctx), "the field closes");
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert!(
        new.join("iconica").join("ico-grumbolt.toml").is_file(),
        "the cards are exported into the new folder"
    );
}

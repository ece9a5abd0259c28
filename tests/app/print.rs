//! The Print screen: every option of `deckwright export` (card size, bleed, gutter, copies
//! owned or n, backs and their offset, calibration page, vendors, Tabletop Simulator),
//! backs shown in the preview, and the File menu's sheet entries; any selection (picked
//! cards, a builder, a search result) with copies per card, kept across a restart.

use deckwright::app::core::{self, Copies, PrintSettings};
use deckwright::app::{Action, DeckwrightApp, Screen};
use deckwright::catalogue::Catalogue;
use egui_kittest::kittest::Queryable;

use crate::support::{click, harness};

fn print_app(ids: &[&str]) -> egui_kittest::Harness<'static, DeckwrightApp> {
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    app.apply(Action::Print(ids.iter().map(|s| s.to_string()).collect()));
    let mut h = harness(app);
    h.run();
    assert_eq!(h.state().screen, Screen::Print);
    h
}

#[test]
fn the_print_screen_offers_every_option_of_the_command_line() {
    let h = print_app(&["ico-grumbolt", "ico-kethra-voss"]);
    for label in [
        "Paper:",
        "Card:",
        "Bleed:",
        "Gutter:",
        "Crop marks",
        "Copies owned",
        "Copies:",
        "Backs",
        "Back offset x:",
        "y:",
        "Export PDF…",
        "Calibration page…",
        "Export for…",
        "For:",
        "Add:",
        "search result",
        "Clear",
    ] {
        h.get_by_label(label);
    }
}

#[test]
fn backs_are_previewed_on_their_own_page_after_the_fronts() {
    let mut h = print_app(&["ico-grumbolt", "ico-kethra-voss"]);
    h.get_by_label("Sheet 1 of 1 (9 cards a sheet, 2 cards)");
    click(&mut h, "Backs");
    assert!(h.state().print.settings.backs);
    h.get_by_label("Sheet 1 of 1, fronts (9 cards a sheet, 2 cards)");
    click(&mut h, ">");
    h.get_by_label("Sheet 1 of 1, backs (9 cards a sheet, 2 cards)");
    // The backs page places each back mirrored across the sheet, moved by the offset.
    let mut st = h.state().print.settings.clone();
    st.back_offset = (1.5, -2.0);
    let sheet = core::sheet(&st).unwrap();
    let (f, b) = (sheet.places[0], sheet.backs[0]);
    assert!(
        (b[0] - (sheet.width - f[0] - f[2] + 1.5)).abs() < 0.01,
        "{f:?} {b:?}"
    );
    assert!((b[1] - (f[1] - 2.0)).abs() < 0.01, "{f:?} {b:?}");
    // The back drawn is the card's back, not its front.
    let card = core::card(&h.state().cat, "ico-grumbolt").unwrap();
    let front = core::render_side(&h.state().cat, &card, false, 63, 88);
    let back = core::render_side(&h.state().cat, &card, true, 63, 88);
    assert_ne!(front.pixels, back.pixels);
}

#[test]
fn copies_and_card_size_change_the_sheets() {
    let mut h = print_app(&["ico-grumbolt", "ico-kethra-voss"]);
    h.state_mut().print.settings.copies = Copies::Each(5);
    h.run();
    h.get_by_label("Sheet 1 of 2 (9 cards a sheet, 10 cards)");
    // Tarot cards: fewer a sheet.
    h.state_mut().print.settings.card = "tarot".into();
    h.run();
    let per = core::sheet(&h.state().print.settings).unwrap().places.len();
    assert!(per < 9);
    h.get_by_label(&format!(
        "Sheet 1 of {} ({per} cards a sheet, 10 cards)",
        10usize.div_ceil(per)
    ));
    // Copies owned: nothing is owned in a new catalogue.
    click(&mut h, "Copies owned");
    assert_eq!(h.state().print.settings.copies, Copies::Owned);
    h.get_by_label("No card to print: with copies owned, only owned cards are printed.");
    h.state_mut().apply(Action::SetOwned {
        id: "ico-grumbolt".into(),
        quantity: 3,
    });
    h.run();
    h.get_by_label(&format!("Sheet 1 of 1 ({per} cards a sheet, 3 cards)"));
}

#[test]
fn the_pdf_follows_every_print_option() {
    let cat = Catalogue::open_in_memory().unwrap();
    let ids = vec!["ico-grumbolt".to_string(), "ru-fen-wraith".to_string()];
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("opts.pdf");
    let settings = PrintSettings {
        paper: "letter".into(),
        card: "bridge".into(),
        bleed: 3.0,
        gutter: 2.0,
        backs: true,
        copies: Copies::Each(5),
        back_offset: (1.0, 0.5),
        ..PrintSettings::default()
    };
    let msg = core::export_pdf(&cat, &ids, &out, &settings).unwrap();
    // 10 bridge cards with bleed and gutter: fewer than 10 a letter sheet, so 2 sheets
    // of fronts, each with its backs page.
    assert!(msg.contains("10 cards, 4 pages"), "{msg}");
    let doc = lopdf::Document::load(&out).unwrap();
    assert_eq!(doc.get_pages().len(), 4);
    let first = doc.get_pages()[&1];
    let mb: Vec<f32> = doc
        .get_object(first)
        .unwrap()
        .as_dict()
        .unwrap()
        .get(b"MediaBox")
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_float().unwrap())
        .collect();
    assert!((mb[2] - 612.0).abs() < 0.5, "letter width {mb:?}");

    let cal = dir.path().join("cal.pdf");
    core::export_calibration(&cal, &settings).unwrap();
    assert_eq!(lopdf::Document::load(&cal).unwrap().get_pages().len(), 2);

    let mpc = dir.path().join("mpc");
    core::export_preset(
        &cat,
        &ids,
        deckwright::print::vendor::Preset::Mpc,
        &mpc,
        &settings,
    )
    .unwrap();
    assert!(mpc.join("ico-grumbolt.png").is_file());
    let tts = dir.path().join("tts");
    core::export_tts(&cat, &ids, &tts, &settings).unwrap();
    assert!(tts.join("deck.json").is_file());
}

#[test]
fn the_file_menu_imports_and_exports_sheets() {
    let mut h = print_app(&["ico-grumbolt"]);
    click(&mut h, "File");
    h.get_by_label("Import sheet…");
    h.get_by_label("Export sheet…");

    // Export the browser's search (every card with no query), change a name, import it back.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.csv");
    h.state_mut().screen = Screen::Browser;
    h.run();
    crate::support::wait_for(&mut h, "the browser's rows", |a| {
        !a.browser.rows().is_empty() && !a.browser.busy()
    });
    h.run();
    let shown = h.state().browser.rows().len();
    assert!(shown > 0);
    h.state_mut().apply(Action::ExportSheet(path.clone()));
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), shown + 1);
    std::fs::write(&path, text.replace("Grumbolt", "Grumbolt the Renamed")).unwrap();
    h.state_mut().apply(Action::ImportSheet(path.clone()));
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt the Renamed"
    );

    // A bad sheet changes nothing and says where.
    std::fs::write(&path, "game,kind,id,name,wingspan\nruunara,unit,ru-x,X,3\n").unwrap();
    h.state_mut().apply(Action::ImportSheet(path));
    let err = h.state().error().expect("an error").to_string();
    assert!(
        err.contains("Nothing was imported") && err.contains("row 2, column E (wingspan)"),
        "{err}"
    );
}

#[test]
fn preflight_lists_problems_and_a_click_opens_the_card() {
    let mut app = DeckwrightApp::new(Catalogue::open_in_memory().unwrap());
    let text = std::fs::read_to_string(format!(
        "{}/assets/templates/ruunara-unit.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace(
        "id = \"ru-new-unit\"",
        "id = \"ru-no-art\"\nart = \"/nowhere/unit.png\"",
    );
    let card = deckwright::cards::parse_card(&text, "u.toml").unwrap();
    app.cat.upsert(&[card]).unwrap();
    app.apply(Action::Print(vec![
        "ico-grumbolt".into(),
        "ru-no-art".into(),
    ]));
    let mut h = harness(app);
    h.run();
    preflight(&mut h);
    h.get_by_label("Preflight: 1 problem (click one to open the card):");
    let link = "ru-no-art (New Unit): missing-art: art /nowhere/unit.png cannot be read (no such file); the card prints with a placeholder";
    click(&mut h, link);
    assert_eq!(h.state().screen, Screen::Card);
    assert!(h.state().editor.text().contains("id = \"ru-no-art\""));

    // A clean selection is ready to print.
    h.state_mut()
        .apply(Action::Print(vec!["ico-grumbolt".into()]));
    h.run();
    preflight(&mut h);
    h.get_by_label("Preflight: ready to print (1 card checked).");
}

/// Issue #26 part 5: any selection, mixed (a card picked in the browser, the party, a search
/// result), copies set per card, a card taken out, and the settings back after a restart.
#[test]
fn the_print_screen_prints_any_selection_with_copies_per_card_and_keeps_its_settings() {
    let mut h = crate::support::harness(crate::support::app());
    h.run();
    // A card picked in the browser, without leaving it.
    crate::support::type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "Add to print");
    assert_eq!(h.state().screen, Screen::Browser);
    assert_eq!(h.state().print.ids, ["ico-kethra-voss"]);
    // The party (Kethra is in it already: only Grumbolt is added).
    h.state_mut().docs.party_a.members = vec!["ico-grumbolt".into(), "ico-kethra-voss".into()];
    h.get_by_label("Print").click();
    h.run();
    assert_eq!(h.state().screen, Screen::Print);
    click(&mut h, "party");
    assert_eq!(h.state().print.ids, ["ico-kethra-voss", "ico-grumbolt"]);
    // A search result: every Ruunara card listed.
    h.state_mut().screen = Screen::Browser;
    h.state_mut().browser.query.clear();
    h.run();
    crate::support::type_in_search(&mut h, "game:ruunara");
    let ruunara = h.state().browser.result_ids();
    assert!(ruunara.len() > 3, "{ruunara:?}");
    h.state_mut().screen = Screen::Print;
    h.run();
    click(&mut h, "search result");
    assert_eq!(h.state().print.ids.len(), 2 + ruunara.len());
    assert!(
        h.state()
            .status()
            .contains(&format!("Added {} cards", ruunara.len()))
    );
    // Adding the same search again adds nothing.
    click(&mut h, "search result");
    assert_eq!(h.state().print.ids.len(), 2 + ruunara.len());
    // Copies per card: Grumbolt three times (its copies box given 3, as typing it does).
    h.get_by_label("Copies of Grumbolt")
        .set_value_accesskit(3.0);
    h.run();
    assert_eq!(
        h.get_by_label("Copies of Grumbolt").value().as_deref(),
        Some("3×")
    );
    assert_eq!(
        h.state().print.settings.per_card.get("ico-grumbolt"),
        Some(&3),
        "{:?}",
        h.state().print.settings.per_card
    );
    let n = h.state().print.ids.len();
    h.get_by_label_contains(&format!("cards a sheet, {} cards)", n + 2));
    // A Ruunara card taken out.
    let gone = ruunara[0].clone();
    let name = core::card(&h.state().cat, &gone)
        .unwrap()
        .name()
        .to_string();
    click(&mut h, &format!("Remove {name}"));
    assert!(!h.state().print.ids.contains(&gone));
    // Bleed, crop marks and the vendor: back after a restart, with the selection and copies.
    h.state_mut().print.settings.bleed = 3.0;
    h.run();
    click(&mut h, "Crop marks");
    h.get_by_label("For:").click();
    h.run();
    click(&mut h, "DriveThruCards");
    h.get_by_label("Export for DriveThruCards…");
    // Preflight follows the vendor: the press PDF it would write is read back, and is clean
    // (checked on the first two cards: drawing the whole press PDF takes a while).
    let all = h.state().print.ids.clone();
    h.state_mut().print.ids.truncate(2);
    h.run();
    preflight(&mut h);
    assert!(
        h.query_all_by_label_contains("Preflight: ").count() == 1,
        "a preflight result is shown"
    );
    assert_eq!(h.query_all_by_label_contains("the press PDF").count(), 0);
    h.state_mut().print.ids = all;
    h.run();
    let (ids, settings) = (
        h.state().print.ids.clone(),
        h.state().print.settings.clone(),
    );
    assert!(!settings.crop_marks && settings.preset.as_deref() == Some("drivethru"));
    let cat = h.into_state().cat;
    let mut h = crate::support::harness(DeckwrightApp::new(cat));
    h.run();
    assert_eq!(h.state().print.ids, ids);
    assert_eq!(h.state().print.settings, settings);
    assert_eq!(h.state().print.settings.bleed, 3.0);
}

/// Clicks Preflight and waits for its thread's answer.
fn preflight(h: &mut egui_kittest::Harness<'static, DeckwrightApp>) {
    crate::support::click_job(h, "Preflight");
    crate::support::wait_for(h, "the preflight's answer", |a| {
        !a.print.preflight_running()
    });
    h.run();
}

//! Drives the card editor through the real app: open a card from the browser, edit it, see
//! the parser's error with its line and column, undo, save into the catalogue and find the
//! card by search; new cards from templates; the draft and its undo across a restart.

use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Game, parse_card};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};

use crate::support::{app, click, harness, type_in_search};

/// Replaces the whole TOML source as a user does: focus, select all, type.
fn replace_source(h: &mut Harness<'_, DeckwrightApp>, text: &str) {
    h.get_by_label("TOML source:").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("TOML source:").type_text(text);
    h.run();
}

/// Lets a pause in typing pass (the burst becomes one undo step).
fn pause(h: &mut Harness<'_, DeckwrightApp>) {
    h.run_steps(70);
}

fn source(h: &Harness<'_, DeckwrightApp>) -> String {
    h.state().editor.text().to_string()
}

#[test]
fn a_card_opened_from_the_browser_is_edited_checked_undone_saved_and_found() {
    let mut h = harness(app());
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    let original = source(&h);
    assert!(original.contains("name = \"Kethra Voss\""), "{original}");
    h.get_by_label("Same as the catalogue's card");

    // Rename: the card is still valid and the preview says it differs from the catalogue.
    let renamed = original.replace("name = \"Kethra Voss\"", "name = \"Kethra the Bold\"");
    replace_source(&mut h, &renamed);
    pause(&mut h);
    assert_eq!(source(&h), renamed);
    h.get_by_label("Valid Iconica character “Kethra the Bold” (ico-kethra-voss).");
    h.get_by_label("Differs from the catalogue's card (Ctrl+S replaces it)");

    // An unknown key: the error names its line and column; the preview goes stale.
    let name_line = renamed
        .lines()
        .position(|l| l.starts_with("name ="))
        .unwrap()
        + 1;
    let broken = renamed.replace(
        "name = \"Kethra the Bold\"\n",
        "name = \"Kethra the Bold\"\ncolour = \"red\"\n",
    );
    replace_source(&mut h, &broken);
    let shown = format!("{}:1: key `colour`:", name_line + 1);
    // A click on the error puts the cursor where it points.
    h.get(By::new().label_contains(&shown)).click();
    h.run();
    let state = egui::TextEdit::load_state(&h.ctx, egui::Id::unique("card-source")).unwrap();
    let cursor = state.cursor.char_range().unwrap().primary.index;
    let line_start = broken
        .split_inclusive('\n')
        .take(name_line)
        .map(|l| l.chars().count())
        .sum::<usize>();
    assert_eq!(
        cursor,
        egui::text::CharIndex(line_start),
        "the start of the `colour` line"
    );
    assert!(h.get_by_label("TOML source:").is_focused());
    h.get_by_label("Stale: the last valid text, drawn until the error is fixed");
    assert!(h.state().editor.card().is_none());

    // Ctrl+S refuses an invalid card with the parser's message.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    let refused = h.state().error().expect("the save is refused").to_string();
    assert!(
        refused.contains("not saved") && refused.contains("colour"),
        "{refused}"
    );
    assert_eq!(
        deckwright::app::core::card(&h.state().cat, "ico-kethra-voss")
            .unwrap()
            .name(),
        "Kethra Voss"
    );
    click(&mut h, "OK");

    // Ctrl+Z takes back the bad edit (typing not yet recorded is undone first).
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(source(&h), renamed);
    assert!(h.state().editor.error().is_none());

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None);
    assert!(
        h.state().status().contains("Replaced ico-kethra-voss"),
        "{}",
        h.state().status()
    );
    h.get_by_label("Same as the catalogue's card");

    // The catalogue has the new name: search finds it, and no longer finds the old one.
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    // An empty query lists every card: new rows take a few frames to settle.
    h.get_by_label("Clear").click();
    h.run_steps(10);
    type_in_search(&mut h, "the Bold");
    let rows = h.state().browser.rows();
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(
        (rows[0].id.as_str(), rows[0].name.as_str()),
        ("ico-kethra-voss", "Kethra the Bold")
    );
}

#[test]
fn new_cards_of_each_game_come_from_templates_the_parser_accepts() {
    let mut h = harness(app());
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    assert_eq!(h.state().screen, Screen::Card);
    let mut previous = source(&h);
    for (label, game, kind) in [
        ("Iconica character", Game::Iconica, "character"),
        ("Arcadia quest", Game::Arcadia, "quest"),
        ("Arcadia league", Game::Arcadia, "league"),
        ("Iconoclasm element", Game::Iconoclasm, "element"),
        ("Ruunara unit", Game::Ruunara, "unit"),
    ] {
        click(&mut h, "New card");
        click(&mut h, label);
        let text = source(&h);
        let card = parse_card(&text, "template").unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!((card.game(), card.kind()), (game, kind), "{label}");
        assert!(h.state().editor.error().is_none(), "{label}");
        h.get_by_label("Not in the catalogue yet (Ctrl+S adds it)");
        // Each template is one undoable edit.
        h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
        h.run();
        assert_eq!(
            source(&h),
            previous,
            "{label}: undo restores the text before"
        );
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
        assert_eq!(source(&h), text, "{label}: redo");
        previous = text;
    }

    // Saving adds the new card; the browser finds it.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(
        h.state().status().starts_with("Added ru-new-unit"),
        "{}",
        h.state().status()
    );
    type_in_search(&mut h, "New Unit");
    assert_eq!(h.state().browser.rows().len(), 1);
}

#[test]
fn the_draft_and_its_undo_survive_a_restart() {
    let mut h = harness(app());
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    click(&mut h, "New card");
    click(&mut h, "Ruunara hero");
    let template = source(&h);
    let edited = template.replace("name = \"New Hero\"", "name = \"Orla Flint\"");
    replace_source(&mut h, &edited);
    pause(&mut h);
    h.get_by_label("Valid Ruunara hero “Orla Flint” (ru-new-hero).");

    let cat = h.into_state().cat;
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    assert_eq!(h.state().screen, Screen::Card);
    assert_eq!(source(&h), edited);
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(source(&h), template);
}

#[test]
fn a_preview_widened_on_a_large_window_leaves_the_source_room_when_the_window_shrinks() {
    let mut h = harness(app());
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    click(&mut h, "New card");
    click(&mut h, "Iconica character");
    // On a wide window the preview takes its share (egui remembers the panel's width).
    h.set_size(egui::vec2(1900.0, 800.0));
    h.run();
    h.set_size(egui::vec2(720.0, 480.0));
    h.run();
    let width = h.get_by_label("TOML source:").rect().width();
    assert!(width >= 300.0, "the source is {width} px wide on a 720 px window");
}

#[test]
fn ctrl_s_on_an_empty_editor_says_there_is_nothing_to_save() {
    let mut h = harness(app());
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None, "no error window about a missing `game` key");
    assert!(
        h.state().status().starts_with("Nothing to save: the card editor is empty"),
        "{}",
        h.state().status()
    );
}

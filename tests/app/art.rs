//! Art in the card editor: an image dropped on the Card screen becomes the card's `art`
//! (one undo step), a missing file is a warning, and saving copies the image into the
//! catalogue's art folder.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use deckwright::app::{Action, DeckwrightApp, core};
use deckwright::catalogue::Catalogue;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::support::harness;

#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

fn template(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/assets/templates/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn an_image_dropped_on_the_editor_becomes_the_cards_art_and_is_copied_on_save() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Catalogue::open(&dir.path().join("cat.sqlite")).unwrap();
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    h.state_mut().apply(Action::EditCard {
        label: "new".into(),
        after: template("ruunara-hero"),
    });
    h.run();

    // A missing picture first: a warning, the card still valid.
    let missing = dir.path().join("gone.png");
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(missing.clone())));
    h.run();
    h.run();
    let text = h.state().editor.text().to_string();
    assert!(
        text.contains(&format!("art = {:?}", missing.display().to_string())),
        "{text}"
    );
    assert!(
        text.starts_with("# A new Ruunara hero"),
        "comments are kept: {text}"
    );
    h.get_by_label(&format!(
        "Art “{}” cannot be read (no such file): the card prints with a placeholder.",
        missing.display()
    ));

    // Then a real one replaces it; Ctrl+Z brings the missing one back, Ctrl+Shift+Z again.
    let pic = dir.path().join("hero.png");
    image::RgbImage::from_pixel(300, 300, image::Rgb([10, 200, 10]))
        .save(&pic)
        .unwrap();
    h.input_mut()
        .dropped_files
        .push(Arc::new(Dropped(pic.clone())));
    h.run();
    h.run();
    let text = h.state().editor.text().to_string();
    assert_eq!(text.matches("art = ").count(), 1, "{text}");
    assert!(text.contains(&format!("art = {:?}", pic.display().to_string())));
    assert!(h.query_by_label_contains("cannot be read").is_none());
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert!(h.state().editor.text().contains("gone.png"));
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert!(h.state().editor.text().contains("hero.png"));

    // Saving copies the picture beside the catalogue; the stored card names the copy.
    h.state_mut().apply(Action::SaveCard);
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert!(dir.path().join("art/ru-new-hero.png").is_file());
    let stored = core::card(&h.state().cat, "ru-new-hero").unwrap();
    assert_eq!(stored.art(), Some("ru-new-hero.png"));
    assert!(core::art_warning(&h.state().cat, &stored).is_none());
}

#[test]
fn an_arcadia_merit_takes_its_picture_as_portrait() {
    let text = core::set_art_in_text(&template("arcadia-merit"), Path::new("/p/m.jpg")).unwrap();
    assert!(text.contains("portrait = \"/p/m.jpg\""), "{text}");
    deckwright::cards::parse_card(&text, "m.toml").unwrap();
    let e =
        core::set_art_in_text(&template("iconoclasm-element"), Path::new("/p/m.jpg")).unwrap_err();
    assert!(e.contains("no art"), "{e}");
}

/// Issue #27 item 1: a new card saved with art reads as saved. The editor holds the picture's
/// own path while the catalogue's card names the copy beside the catalogue; the editor compares
/// the card as it is stored, so the preview says it is the catalogue's card, a second Ctrl+S
/// says "Unchanged" and opening another card does not ask to replace an unsaved one. A picture
/// changed on disk after the save is a change again.
#[test]
fn a_new_card_saved_with_art_reads_as_saved() {
    let dir = tempfile::tempdir().unwrap();
    let cat = Catalogue::open(&dir.path().join("cat.sqlite")).unwrap();
    let mut h = harness(DeckwrightApp::new(cat));
    h.run();
    let pic = dir.path().join("hero.png");
    image::RgbImage::from_pixel(300, 300, image::Rgb([10, 200, 10]))
        .save(&pic)
        .unwrap();
    let text = core::set_art_in_text(&template("ruunara-hero"), &pic).unwrap();
    h.state_mut().apply(Action::EditCard {
        label: "new".into(),
        after: text,
    });
    h.run();
    h.get_by_label("Not in the catalogue yet (Ctrl+S adds it)");

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    h.run();
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert!(
        h.state().status().starts_with("Added ru-new-hero"),
        "{}",
        h.state().status()
    );
    assert!(
        h.state().editor.text().contains(&pic.display().to_string()),
        "the editor keeps the path typed"
    );
    h.get_by_label("Same as the catalogue's card");
    assert!(h.query_by_label_contains("Differs from").is_none());
    assert!(!h.state().card_draft_unsaved());

    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert!(
        h.state().status().starts_with("Unchanged: ru-new-hero"),
        "{}",
        h.state().status()
    );

    // Opening another card replaces this one without asking.
    h.state_mut().apply(Action::ReplaceCard {
        label: "new card".into(),
        after: template("ruunara-unit"),
    });
    h.run();
    assert!(
        h.query_by_label("Replace it").is_none(),
        "no question asked"
    );
    assert!(h.state().editor.text().starts_with("# A new Ruunara unit"));

    // Back to the saved hero, whose picture is then painted over: that is a change to save.
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    h.get_by_label("Same as the catalogue's card");
    image::RgbImage::from_pixel(300, 300, image::Rgb([200, 10, 10]))
        .save(&pic)
        .unwrap();
    let touched = format!("{}\n", h.state().editor.text());
    h.state_mut().apply(Action::EditCard {
        label: "touch".into(),
        after: touched,
    });
    h.run();
    h.get_by_label("Differs from the catalogue's card (Ctrl+S replaces it)");
    assert!(h.state().card_draft_unsaved());
}

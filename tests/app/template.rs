//! Issue #26: the Template screen shows a face template on the catalogue's cards, selects
//! layers on the card or in the list, moves and resizes them with undo, and saves the file
//! that print then draws with.

use deckwright::app::Screen;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness};

fn template_screen() -> egui_kittest::Harness<'static, deckwright::app::DeckwrightApp> {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Template");
    assert_eq!(h.state().screen, Screen::Template);
    h.run();
    h
}

#[test]
fn the_template_screen_shows_a_template_on_any_card_and_edits_its_layers() {
    let mut h = template_screen();
    h.get_by_label("Layers");
    h.get_by_label("Click a layer on the card or in the list to edit it.");
    // Switching cards shows the next card of the template's kind.
    let first = h.state().template.card;
    click(&mut h, "Next card >");
    assert_eq!(h.state().template.card, first + 1);
    click(&mut h, "< Previous card");
    assert_eq!(h.state().template.card, first);
    // A layer picked in the list opens in the panel.
    click(&mut h, "4. name");
    h.get_by_label("Layer 4 (text)");
    assert_eq!(
        h.state().template.editor.as_ref().unwrap().selected,
        Some(3)
    );
    // Clicking the card picks the layer under the pointer: the title bar's name.
    let card = h.get_by_role(egui::accesskit::Role::Image);
    let r = card.rect();
    let at = egui::pos2(
        r.min.x + r.width() * 20.0 / 63.0,
        r.min.y + r.width() * 7.0 / 63.0,
    );
    h.input_mut().events.push(egui::Event::PointerMoved(at));
    h.run();
    click(&mut h, "1. faction border");
    h.input_mut().events.push(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: Default::default(),
    });
    h.input_mut().events.push(egui::Event::PointerButton {
        pos: at,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: Default::default(),
    });
    h.run();
    h.run();
    let e = h.state().template.editor.as_ref().unwrap();
    assert_eq!(
        e.layer().and_then(|l| l.text.as_deref()),
        Some("{name}"),
        "{:?}",
        e.selected
    );
    // Dragged on the card by 30 points to the right, then undone with the screen's Undo.
    let before = e.layer_box(e.selected.unwrap()).unwrap();
    let to = at + egui::vec2(30.0, 0.0);
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    h.input_mut().events.push(press(at, true));
    h.run();
    for step in 1..=3 {
        let p = at + egui::vec2(10.0 * step as f32, 0.0);
        h.input_mut().events.push(egui::Event::PointerMoved(p));
        h.run();
    }
    h.input_mut().events.push(press(to, false));
    h.run();
    h.run();
    let e = h.state().template.editor.as_ref().unwrap();
    let moved = e.layer_box(e.selected.unwrap()).unwrap();
    let mm = 30.0 * 63.0 / r.width();
    assert!(
        (moved.x - before.x - mm).abs() < 0.5,
        "{before:?} -> {moved:?}"
    );
    assert!((moved.y - before.y).abs() < 0.5, "{before:?} -> {moved:?}");
    h.get_by_label("(changed)");
    click(&mut h, "Undo");
    let e = h.state().template.editor.as_ref().unwrap();
    let after = e.layer_box(e.selected.unwrap()).unwrap();
    assert!((after.x - before.x).abs() < 0.01 && (after.y - before.y).abs() < 0.01);
}

#[test]
fn the_template_screen_saves_its_file() {
    let mut h = template_screen();
    // A back template: no card's front draws with it, so other tests' pictures stay as
    // they are while this one puts it in use.
    {
        let t = &mut h.state_mut().template;
        t.start = (Some(deckwright::cards::Game::Ruunara), "back".into());
        t.start_bundled();
    }
    h.run();
    assert_eq!(
        h.state()
            .template
            .editor
            .as_ref()
            .unwrap()
            .face
            .template
            .name,
        "Ruunara back"
    );
    click(&mut h, "6. game");
    h.state_mut()
        .template
        .editor
        .as_mut()
        .unwrap()
        .nudge(0.0, -3.0, 0.0, 0.0);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ruunara-back.toml");
    h.state_mut().template.path_text = path.display().to_string();
    h.run();
    click(&mut h, "Save");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        text.contains("format = 1") && text.contains("kinds = [\"back\"]"),
        "{text}"
    );
    let saved = deckwright::print::template::load_file(&path).unwrap();
    assert_eq!(
        saved.template,
        h.state().template.editor.as_ref().unwrap().face.template
    );
    assert!(!h.state().template.editor.as_ref().unwrap().dirty);
}

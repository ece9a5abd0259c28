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
        Some(vec![3])
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
    let before = e.layer_box(None, e.selected.as_ref().unwrap()).unwrap();
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
    let moved = e.layer_box(None, e.selected.as_ref().unwrap()).unwrap();
    let mm = 30.0 * 63.0 / r.width();
    assert!(
        (moved.x - before.x - mm).abs() < 0.5,
        "{before:?} -> {moved:?}"
    );
    assert!((moved.y - before.y).abs() < 0.5, "{before:?} -> {moved:?}");
    h.get_by_label("(changed)");
    click(&mut h, "Undo");
    let e = h.state().template.editor.as_ref().unwrap();
    let after = e.layer_box(None, e.selected.as_ref().unwrap()).unwrap();
    assert!((after.x - before.x).abs() < 0.01 && (after.y - before.y).abs() < 0.01);
}

#[test]
fn the_template_screen_saves_its_file() {
    let _one = SAVING.lock().unwrap_or_else(|e| e.into_inner());
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
        .nudge(None, 0.0, -3.0, 0.0, 0.0);
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

/// Held by the tests that save a template: Save puts it in use for every drawing in this
/// process, one template screen's at a time.
static SAVING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// A copy of a bundled Iconica character under an id of its own, so a template saved for
/// it draws no other test's cards.
fn own_card(id: &str) -> deckwright::cards::Card {
    let mut card = deckwright::catalogue::bundled_cards()
        .unwrap()
        .into_iter()
        .find(|c| c.id() == "ico-grumbolt")
        .unwrap();
    if let deckwright::cards::Card::Iconica(ch) = &mut card {
        ch.id = id.into();
    }
    card
}

/// The Template screen over a catalogue holding only `card`.
fn screen_of(
    card: &deckwright::cards::Card,
) -> egui_kittest::Harness<'static, deckwright::app::DeckwrightApp> {
    let mut cat = deckwright::catalogue::Catalogue::open_empty_in_memory().unwrap();
    cat.upsert(std::slice::from_ref(card)).unwrap();
    let mut h = harness(deckwright::app::DeckwrightApp::new(cat));
    h.run();
    click(&mut h, "Template");
    h.run();
    h
}

fn editor<'a>(
    h: &'a egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
) -> &'a deckwright::app::template_screen::TemplateEditor {
    h.state().template.editor.as_ref().unwrap()
}

/// Focuses the field labelled `label`, selects its text and types `text` over it.
fn retype(
    h: &mut egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
    label: &str,
    text: &str,
) {
    h.get_by_label(label).focus();
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
    h.run();
    h.get_by_label(label).type_text(text);
    h.run();
}

/// Presses at `from`, moves in three steps and lets go at `to`.
fn drag(
    h: &mut egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
    from: egui::Pos2,
    to: egui::Pos2,
) {
    let press = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: Default::default(),
    };
    h.input_mut().events.push(egui::Event::PointerMoved(from));
    h.run();
    h.input_mut().events.push(press(from, true));
    h.run();
    for step in 1..=3 {
        let p = from + (to - from) * (step as f32 / 3.0);
        h.input_mut().events.push(egui::Event::PointerMoved(p));
        h.run();
    }
    h.input_mut().events.push(press(to, false));
    h.run();
    h.run();
}

#[test]
fn nested_layers_are_listed_as_a_tree_selected_dragged_and_resized_on_the_card() {
    use deckwright::app::template_screen::layer_label;
    use deckwright::print::template::edit;
    let card = own_card("ico-template-tree-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    // The first action row's die, three deep (group, repeat, die), picked in the list.
    let (die, label) = edit::walk(&original)
        .into_iter()
        .find(|(p, l)| {
            l.name.as_deref() == Some("die") && p.len() == 3 && {
                edit::boxes(&original, Some(&card), p).is_some()
                    && edit::get(&original, &p[..1]).unwrap().show_when.as_deref()
                        == Some("strengths or final_act")
            }
        })
        .map(|(p, l)| (p.clone(), layer_label(&p, l)))
        .unwrap();
    assert!(label.starts_with(&format!("{}.1.", die[0] + 1)), "{label}");
    // Groups and repeats fold: each opens when picked.
    assert!(h.query_by_label(&label).is_none(), "folded at first");
    editor_select(&mut h, &die[..1]);
    editor_select(&mut h, &die[..2]);
    click(&mut h, &label);
    assert_eq!(editor(&h).selected.as_ref(), Some(&die));
    h.get_by_label(&format!("Layer {}.1.{} (rect)", die[0] + 1, die[2] + 1));
    // Its corner handle dragged 20 points right and 10 down: it grows by as many mm.
    let img = h.get_by_role(egui::accesskit::Role::Image).rect();
    let k = img.width() / 63.0;
    let before = editor(&h).layer_box(Some(&card), &die).unwrap();
    let corner = egui::pos2(
        img.min.x + before.right() * k,
        img.min.y + before.bottom() * k,
    );
    drag(&mut h, corner, corner + egui::vec2(20.0, 10.0));
    let e = editor(&h);
    assert_eq!(e.selected.as_ref(), Some(&die));
    let grown = e.layer_box(Some(&card), &die).unwrap();
    assert!(
        (grown.w - before.w - 20.0 / k).abs() < 0.3,
        "{before:?} -> {grown:?}"
    );
    assert!(
        (grown.h - before.h - 10.0 / k).abs() < 0.3,
        "{before:?} -> {grown:?}"
    );
    assert!((grown.x - before.x).abs() < 0.01);
    // Dragged by its middle: the innermost layer under the pointer moves, in its group.
    let mid = egui::pos2(
        img.min.x + (before.x + 0.6) * k,
        img.min.y + (before.y + 0.6) * k,
    );
    drag(&mut h, mid, mid + egui::vec2(15.0, 0.0));
    let e = editor(&h);
    let moved_path = e.selected.clone().unwrap();
    assert_eq!(moved_path.len(), 3, "{moved_path:?}");
    assert_eq!(moved_path[..2], die[..2]);
    let moved = e.layer_box(Some(&card), &moved_path).unwrap();
    let was = edit::boxes(&original, Some(&card), &moved_path).unwrap().0;
    assert!(
        (moved.x - was.x - 15.0 / k).abs() < 0.3,
        "{was:?} -> {moved:?}"
    );
    // Each drag one undo step.
    click(&mut h, "Undo");
    click(&mut h, "Undo");
    assert_eq!(editor(&h).face.template, original);
    assert!(!editor(&h).can_undo());
}

#[test]
fn layers_are_added_moved_and_deleted_each_one_undo_step() {
    use deckwright::print::template::{LayerType, edit};
    let card = own_card("ico-template-add-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    let n = original.layers.len();
    // Nothing selected: a text box goes on top of the card, selected.
    click(&mut h, "Add text box");
    assert_eq!(editor(&h).selected, Some(vec![n]));
    h.get_by_label(&format!("Layer {} (text)", n + 1));
    h.get_by_label(&format!("{}. new text", n + 1));
    click(&mut h, "Move up");
    assert_eq!(editor(&h).selected, Some(vec![n - 1]));
    assert_eq!(
        editor(&h).face.template.layers[n - 1].get_ref().kind,
        LayerType::Text
    );
    click(&mut h, "Delete layer");
    assert_eq!(editor(&h).face.template.layers.len(), n);
    assert_eq!(editor(&h).selected, None);
    // A shape, an image and an icon inside a group.
    let (group, _) = edit::walk(&original)
        .into_iter()
        .find(|(_, l)| l.kind == LayerType::Group)
        .unwrap();
    for (button, kind) in [
        ("Add shape", LayerType::Rect),
        ("Add image", LayerType::Image),
        ("Add icon", LayerType::Icon),
    ] {
        editor_select(&mut h, &group);
        click(&mut h, button);
        let e = editor(&h);
        let p = e.selected.clone().unwrap();
        assert_eq!((p.len(), p[0]), (2, group[0]), "{button}");
        assert_eq!(e.layer().unwrap().kind, kind);
    }
    assert!(editor(&h).problem.is_none(), "{:?}", editor(&h).problem);
    // Three adds, then delete, move up, add: seven steps back to the bundled template.
    for _ in 0..7 {
        click(&mut h, "Undo");
    }
    assert_eq!(editor(&h).face.template, original);
}

/// Selects the layer at `path` by its line in the list.
fn editor_select(
    h: &mut egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
    path: &[usize],
) {
    let l = deckwright::print::template::edit::get(&editor(h).face.template, path)
        .unwrap()
        .clone();
    click(h, &deckwright::app::template_screen::layer_label(path, &l));
}

#[test]
fn a_colour_per_value_is_edited_in_the_panel() {
    use deckwright::print::template::format::ColorSpec;
    let card = own_card("ico-template-colour-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    click(&mut h, "2. panel");
    click(&mut h, "fill per value");
    retype(&mut h, "fill", "faction");
    retype(&mut h, "value", "legion");
    click(&mut h, "Add fill value");
    retype(&mut h, "= legion", "#ff0000");
    let e = editor(&h);
    let Some(ColorSpec::By(by)) = &e.layer().unwrap().fill else {
        panic!("{:?}", e.layer())
    };
    assert_eq!(by.by, "faction");
    assert_eq!(by.values.get("legion").map(String::as_str), Some("#ff0000"));
    assert_eq!(by.default.as_deref(), Some("$paper"));
    assert!(e.problem.is_none(), "{:?}", e.problem);
    // The Legion card's panel is red now; four steps (per value, the field, the value,
    // its colour) undo it.
    for _ in 0..3 {
        click(&mut h, "Undo");
    }
    assert_ne!(editor(&h).face.template, original);
    click(&mut h, "Undo");
    assert_eq!(editor(&h).face.template, original);
    // Back to one colour.
    click(&mut h, "Redo");
    click(&mut h, "One fill");
    assert_eq!(
        editor(&h).layer().unwrap().fill,
        Some(ColorSpec::Fixed("$paper".into()))
    );
}

/// How many pixels of `rgba` are the colour `c`.
fn count(rgba: &[u8], c: [u8; 3]) -> usize {
    rgba.chunks_exact(4).filter(|p| p[..3] == c).count()
}

/// The streams of a PDF (its pages' and forms' contents), inflated, as lopdf reads them.
fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).unwrap();
    let mut out = String::new();
    for o in doc.objects.values() {
        if let lopdf::Object::Stream(s) = o {
            let bytes = s
                .decompressed_content()
                .unwrap_or_else(|_| s.content.clone());
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    out
}

#[test]
fn a_template_edit_in_the_app_changes_the_preview_the_pdf_and_the_png_alike() {
    use deckwright::print::{self, Side};
    let _one = SAVING.lock().unwrap_or_else(|e| e.into_inner());
    let card = own_card("ico-template-alike-test");
    let green = [0x12, 0xab, 0x34];
    let op = "0.071 0.671 0.204 rg";
    let assets = print::Assets::default();
    let opts = print::export::ExportOptions::new(print::layout::paper("a4").unwrap());
    let preview = || print::render_preview(&card, 315, 440, &assets).rgba;
    let png = || {
        let img = print::render(
            &card,
            Side::Front,
            &print::RenderSpec::poker(150.0),
            &assets,
        )
        .unwrap()
        .encode_png(Some(150.0));
        image::load_from_memory(&img).unwrap().to_rgba8().into_raw()
    };
    let pdf = || pdf_text(&print::export::pdf_bytes(std::slice::from_ref(&card), &opts).unwrap());
    assert_eq!(count(&preview(), green), 0);
    assert_eq!(count(&png(), green), 0);
    assert!(!pdf().contains(op));

    let mut h = screen_of(&card);
    click(&mut h, "2. panel");
    retype(&mut h, "fill", "#12ab34");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("iconica-character.toml");
    h.state_mut().template.path_text = path.display().to_string();
    h.run();
    click(&mut h, "Save");
    assert!(!editor(&h).dirty, "{:?}", editor(&h).problem);
    // The file is the core writer's text of the edited template.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        deckwright::print::template::edit::to_text(&editor(&h).face.template).unwrap()
    );
    // The panel shows green in the preview (the card editor's and Match boards' pictures),
    // the PNG and the PDF alike: the same share of the card in both pictures.
    let (p, g) = (count(&preview(), green), count(&png(), green));
    assert!(p > 315 * 440 / 20, "{p} green pixels in the preview");
    assert!(g > 0, "the PNG");
    let share = |n: usize, w: usize, h: usize| n as f64 / (w * h) as f64;
    let (w, hh, _) = print::RenderSpec::poker(150.0).pixels();
    let (a, b) = (share(p, 315, 440), share(g, w as usize, hh as usize));
    assert!((a - b).abs() < 0.02, "preview {a:.3}, PNG {b:.3}");
    assert!(pdf().contains(op), "the PDF fills with the new colour");
    // The same edit on the Template screen's own picture.
    let shown = print::render::render_face(&editor(&h).face, Some(&card), 315, 440, &assets);
    assert_eq!(count(&shown.rgba, green), p);
    deckwright::print::template::use_sets(
        deckwright::print::template::sets_in_use()
            .into_iter()
            .filter(|r| r.name != "template screen")
            .collect(),
    );
}

/// The picture of the Template screen in `docs/screenshots/template.png`: a layer three deep
/// (an action row's die) picked, the tree open down to it, its colour per faction in the
/// panel.
#[test]
fn the_template_screen_with_a_nested_layer_and_a_colour_per_value() {
    use deckwright::print::template::edit;
    let mut h = template_screen();
    let t = editor(&h).face.template.clone();
    let (die, _) = edit::walk(&t)
        .into_iter()
        .find(|(p, l)| l.name.as_deref() == Some("die") && p.len() == 3)
        .unwrap();
    editor_select(&mut h, &die[..1]);
    editor_select(&mut h, &die[..2]);
    editor_select(&mut h, &die);
    h.get_by_label("Add fill value");
    h.run();
    h.snapshot("template-nested");
}

/// Clicks `label` in the panel, scrolled into view first as a user would.
fn seen_click(h: &mut egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    click(h, label);
}

/// Types `text` over the field `label` of the panel, scrolled into view first.
fn seen_retype(
    h: &mut egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
    label: &str,
    text: &str,
) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    retype(h, label, text);
}

/// Whether `card` draws the top-level layer at `top` (its condition holds for the card).
fn drawn_on(
    t: &deckwright::print::template::Template,
    top: usize,
    card: &deckwright::cards::Card,
) -> bool {
    use deckwright::print::template::fields::{self, Condition, Scope};
    let root = fields::card_fields(card, deckwright::print::Side::Front);
    t.layers[top]
        .get_ref()
        .show_when
        .as_deref()
        .is_none_or(|s| Condition::parse(s).unwrap().holds(&Scope::card(&root)))
}

#[test]
fn rich_text_is_edited_in_the_panel_paragraphs_and_runs_each_one_undo_step() {
    use deckwright::print::template::{edit, format::ColorSpec};
    let _one = SAVING.lock().unwrap_or_else(|e| e.into_inner());
    let card = own_card("ico-template-rich-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    // The action rows' text drawn on this card: rich text of three runs.
    let (action, _) = edit::walk(&original)
        .into_iter()
        .find(|(p, l)| {
            l.name.as_deref() == Some("action") && p.len() == 3 && drawn_on(&original, p[0], &card)
        })
        .unwrap();
    editor_select(&mut h, &action[..1]);
    editor_select(&mut h, &action[..2]);
    editor_select(&mut h, &action);
    h.get_by_label("Rich text");
    assert!(
        h.query_by_label("rich text (paragraphs): edit in the file")
            .is_none()
    );
    for run in [
        "run 1.1 text",
        "run 1.2 text",
        "run 1.3 text",
        "run 1.2 color",
    ] {
        h.get_by_label(run);
    }
    let drawn = |h: &egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>| {
        deckwright::print::render::render_face(
            &editor(h).face,
            Some(&card),
            126,
            176,
            &Default::default(),
        )
        .rgba
    };
    let first = drawn(&h);
    // The last run's text typed over: one step, and the card shows it.
    seen_retype(&mut h, "run 1.3 text", "{text}!!!");
    let steps = |h: &egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>| {
        let mut e = editor(h).clone();
        let mut n = 0;
        while e.can_undo() {
            e.undo();
            n += 1;
        }
        n
    };
    assert_eq!(steps(&h), 1);
    assert_ne!(drawn(&h), first, "the preview shows the edit");
    // A run added, given a colour and a font, moved one place earlier.
    seen_click(&mut h, "Add run to paragraph 1");
    seen_retype(&mut h, "run 1.4 text", " Break! ");
    seen_retype(&mut h, "run 1.4 color", "$muted");
    seen_click(&mut h, "run 1.4 font");
    seen_click(&mut h, "bold");
    seen_click(&mut h, "Move run 1.4 earlier");
    // A second paragraph shown on the break row, moved up, then the run's deleted.
    seen_click(&mut h, "Add paragraph");
    seen_retype(&mut h, "paragraph 2 show when", "is_break");
    seen_click(&mut h, "Move paragraph 2 up");
    assert_eq!(steps(&h), 9);
    let e = editor(&h);
    assert!(e.problem.is_none(), "{:?}", e.problem);
    let ps = e.layer().unwrap().paragraphs.clone().unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].show_when.as_deref(), Some("is_break"));
    assert_eq!(ps[0].spans[0].text, "new text");
    let texts: Vec<&str> = ps[1].spans.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(texts, ["{name} ", "({kind}) ", " Break! ", "{text}!!!"]);
    assert_eq!(ps[1].spans[2].font.as_deref(), Some("bold"));
    assert_eq!(
        ps[1].spans[2].color,
        Some(ColorSpec::Fixed("$muted".into()))
    );
    seen_click(&mut h, "Delete run 2.3");
    seen_click(&mut h, "Delete paragraph 1");
    let ps = editor(&h).layer().unwrap().paragraphs.clone().unwrap();
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].spans.len(), 3);
    // Saved: the core writer's text, read back the same.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("rich.toml");
    h.state_mut().template.path_text = path.display().to_string();
    h.run();
    seen_click(&mut h, "Save");
    assert!(!editor(&h).dirty, "{:?}", editor(&h).problem);
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text, edit::to_text(&editor(&h).face.template).unwrap());
    assert!(text.contains("{text}!!!"), "{text}");
    assert_eq!(
        deckwright::print::template::load_file(&path)
            .unwrap()
            .template,
        editor(&h).face.template
    );
    // Every step undone: the bundled template, the same picture.
    for _ in 0..11 {
        seen_click(&mut h, "Undo");
    }
    assert_eq!(editor(&h).face.template, original);
    assert_eq!(drawn(&h), first);
    // Plain text made rich in the panel and back.
    seen_click(&mut h, "4. name");
    seen_click(&mut h, "Rich text");
    h.get_by_label("run 1.1 text");
    assert_eq!(
        editor(&h).layer().unwrap().paragraphs.as_ref().unwrap()[0].spans[0].text,
        "{name}"
    );
    seen_click(&mut h, "Plain text");
    assert_eq!(editor(&h).face.template, original);
    deckwright::print::template::use_sets(
        deckwright::print::template::sets_in_use()
            .into_iter()
            .filter(|r| r.name != "template screen")
            .collect(),
    );
}

#[test]
fn a_layer_is_moved_into_and_out_of_groups_staying_where_it_is_on_the_card() {
    use deckwright::app::template_screen::layer_label;
    use deckwright::print::template::edit;
    let card = own_card("ico-template-group-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    let file = edit::to_text(&original).unwrap();
    let find = |name: &str| {
        edit::walk(&original)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some(name))
            .map(|(p, _)| p)
            .unwrap()
    };
    let (portrait, meter) = (find("portrait"), find("health meter"));
    let at = editor(&h).layer_box(Some(&card), &portrait).unwrap();
    let stays = |h: &egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>| {
        let e = editor(h);
        assert_eq!(e.layer().unwrap().name.as_deref(), Some("portrait"));
        let b = e
            .layer_box(Some(&card), e.selected.as_ref().unwrap())
            .unwrap();
        assert!(
            (b.x - at.x).abs() < 0.002
                && (b.y - at.y).abs() < 0.002
                && (b.w - at.w).abs() < 0.002
                && (b.h - at.h).abs() < 0.002,
            "{at:?} -> {b:?}"
        );
    };
    editor_select(&mut h, &portrait);
    // Into the health meter above it: its last layer, shown in the opened group.
    click(&mut h, "Into group above");
    let n = original.layers[meter[0]]
        .get_ref()
        .layers
        .as_ref()
        .unwrap()
        .len();
    assert_eq!(editor(&h).selected, Some(vec![meter[0], n]));
    stays(&h);
    let inside = editor(&h).selected.clone().unwrap();
    h.get_by_label(&layer_label(&inside, editor(&h).layer().unwrap()));
    h.get_by_label(&format!("Layer {}.{} (image)", meter[0] + 1, n + 1));
    // Out again: back where it was in the list, the same file.
    click(&mut h, "Out of group");
    assert_eq!(editor(&h).selected.as_ref(), Some(&portrait));
    stays(&h);
    assert_eq!(edit::to_text(&editor(&h).face.template).unwrap(), file);
    // Into the group below: its first layer.
    click(&mut h, "Into group below");
    assert_eq!(editor(&h).selected, Some(vec![portrait[0], 0]));
    stays(&h);
    assert!(editor(&h).problem.is_none(), "{:?}", editor(&h).problem);
    // Three steps back to the bundled file.
    for _ in 0..2 {
        click(&mut h, "Undo");
    }
    assert_ne!(edit::to_text(&editor(&h).face.template).unwrap(), file);
    click(&mut h, "Undo");
    assert_eq!(edit::to_text(&editor(&h).face.template).unwrap(), file);
    assert!(!editor(&h).can_undo());
}

/// The picture of the panel editing rich text in `docs/screenshots/template-rich.png`: an
/// action row's text (its name in bold, its kind in italic, its text) picked.
#[test]
fn the_template_screen_editing_rich_text() {
    use deckwright::print::template::edit;
    let mut h = template_screen();
    let t = editor(&h).face.template.clone();
    let (action, _) = edit::walk(&t)
        .into_iter()
        .find(|(p, l)| l.name.as_deref() == Some("action") && p.len() == 3)
        .unwrap();
    editor_select(&mut h, &action[..1]);
    editor_select(&mut h, &action[..2]);
    editor_select(&mut h, &action);
    h.get_by_label("run 1.1 text").scroll_to_me();
    h.run();
    h.snapshot("template-rich");
}

#[test]
fn a_layer_dragged_in_the_list_onto_a_group_goes_into_it_and_stays_put_on_the_card() {
    use deckwright::print::template::edit;
    let card = own_card("ico-template-drag-test");
    let mut h = screen_of(&card);
    let original = editor(&h).face.template.clone();
    let file = edit::to_text(&original).unwrap();
    let find = |name: &str| {
        edit::walk(&original)
            .into_iter()
            .find(|(_, l)| l.name.as_deref() == Some(name))
            .map(|(p, _)| p)
            .unwrap()
    };
    let (footer, meter) = (find("footer"), find("health meter"));
    let at = editor(&h).layer_box(Some(&card), &footer).unwrap();
    // The drag handle on the footer's line, dropped on the health meter's line.
    let handle_of = |h: &egui_kittest::Harness<'static, deckwright::app::DeckwrightApp>,
                     label: &str| {
        let row = h.get_by_label(label).rect();
        h.get_all_by_label("::")
            .map(|n| n.rect().center())
            .find(|c| c.y > row.min.y && c.y < row.max.y)
            .unwrap()
    };
    let from = handle_of(&h, &format!("{}. footer", footer[0] + 1));
    let to = h
        .get_by_label(&format!("{}. health meter", meter[0] + 1))
        .rect()
        .center();
    h.hover_at(from);
    h.run();
    h.drag_at(from);
    h.run();
    for k in 1..=8 {
        h.hover_at(from + (to - from) * (k as f32 / 8.0));
        h.run();
    }
    h.drop_at(to);
    h.run();
    h.run();
    let e = editor(&h);
    let n = original.layers[meter[0]]
        .get_ref()
        .layers
        .as_ref()
        .unwrap()
        .len();
    assert_eq!(
        e.selected,
        Some(vec![meter[0] - 1, n]),
        "the footer is in the meter"
    );
    assert_eq!(e.layer().unwrap().name.as_deref(), Some("footer"));
    let b = e
        .layer_box(Some(&card), e.selected.as_ref().unwrap())
        .unwrap();
    assert!(
        (b.x - at.x).abs() < 0.002 && (b.y - at.y).abs() < 0.002,
        "{at:?} -> {b:?}"
    );
    assert!(e.problem.is_none(), "{:?}", e.problem);
    // Shown in the opened group, and one undo step.
    h.get_by_label(&format!("{}.{}. footer", meter[0], n + 1));
    click(&mut h, "Undo");
    assert_eq!(edit::to_text(&editor(&h).face.template).unwrap(), file);
    assert!(!editor(&h).can_undo());
}

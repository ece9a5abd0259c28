//! Issue #27 item 2 and #22 item 7: every screen at a laptop's 1024 x 700. On each, no
//! interactive widget overlaps another and every one can be pointed at whole (at once or
//! scrolled into view): `support::assert_laid_out`. The screens that had no picture at that
//! size get a snapshot (`tests/snapshots/*-1024.png`; `UPDATE_SNAPSHOTS=1` writes them anew).

use std::path::Path;
use std::sync::Arc;

use deckwright::app::docs::Slot;
use deckwright::app::{Action, DeckwrightApp, Screen, files};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, assert_laid_out, click};

/// The laptop's window.
pub const LAPTOP: egui::Vec2 = egui::vec2(1024.0, 700.0);

/// `app` in a 1024 x 700 harness on `screen`.
fn laptop(app: DeckwrightApp, screen: Screen) -> Harness<'static, DeckwrightApp> {
    let mut h = crate::support::harness(app);
    h.set_size(LAPTOP);
    h.run();
    h.state_mut().screen = screen;
    h.run();
    h
}

/// The app with the example document `examples/<path>` opened into `slot` (an Arcadia
/// setup's characters saved first).
fn with_doc(path: &str, slot: Slot) -> DeckwrightApp {
    let mut a = app();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(path);
    if slot == Slot::Setup {
        for action in files::setup_characters(&path) {
            a.apply(action);
        }
    }
    a.apply(files::open_doc_path(&path, slot));
    a
}

fn template(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/assets/templates/{name}.toml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

#[test]
fn the_browser_at_1024_by_700() {
    let mut h = laptop(app(), Screen::Browser);
    h.snapshot("browser-1024");
    assert_laid_out(&mut h, "Browser");
}

#[test]
fn the_squad_screen_at_1024_by_700() {
    let mut h = laptop(
        with_doc("ruunara/legal-free-play-mix.squad.toml", Slot::Squad),
        Screen::Squad,
    );
    h.snapshot("builder-squad-1024");
    assert_laid_out(&mut h, "Squad");
}

#[test]
fn the_party_screen_at_1024_by_700() {
    let mut h = laptop(
        with_doc("iconica/legal-legion-raiders.party.toml", Slot::PartyA),
        Screen::Party,
    );
    h.snapshot("builder-party-1024");
    assert_laid_out(&mut h, "Party");
}

#[test]
fn the_character_screen_at_1024_by_700() {
    let mut h = laptop(
        with_doc(
            "arcadia/legal-hobgallant-knight.character.toml",
            Slot::Character,
        ),
        Screen::Character,
    );
    h.snapshot("builder-character-1024");
    assert_laid_out(&mut h, "Character");
}

#[test]
fn the_setup_screen_at_1024_by_700() {
    let mut h = laptop(
        with_doc("arcadia/legal-long-road.setup.toml", Slot::Setup),
        Screen::Setup,
    );
    h.snapshot("builder-setup-1024");
    assert_laid_out(&mut h, "Setup");
}

#[test]
fn the_print_screen_at_1024_by_700() {
    let mut a = app();
    a.apply(Action::Print(vec![
        "ico-grumbolt".into(),
        "ico-kethra-voss".into(),
    ]));
    let mut h = laptop(a, Screen::Print);
    h.snapshot("print-1024");
    assert_laid_out(&mut h, "Print");
}

#[test]
fn the_balance_screen_at_1024_by_700() {
    let mut h = laptop(app(), Screen::Balance);
    h.snapshot("balance-1024");
    assert_laid_out(&mut h, "Balance");
}

/// The card editor on a new card from template `t`, in `view` (Source or Form).
fn card_editor(t: &str, view: &str) {
    let mut a = app();
    a.apply(Action::EditCard {
        label: "new".into(),
        after: template(t),
    });
    let mut h = laptop(a, Screen::Card);
    click(&mut h, view);
    h.snapshot(format!("editor-{t}-{}-1024", view.to_lowercase()));
    assert_laid_out(&mut h, &format!("Card editor, {t} {view}"));
}

#[test]
fn the_card_editor_source_at_1024_by_700() {
    card_editor("iconica-character", "Source");
}

#[test]
fn the_iconica_form_at_1024_by_700() {
    card_editor("iconica-character", "Form");
}

#[test]
fn the_arcadia_merit_form_at_1024_by_700() {
    card_editor("arcadia-merit", "Form");
}

#[test]
fn the_ruunara_form_at_1024_by_700() {
    card_editor("ruunara-hero", "Form");
}

/// Issue #27 item 2: on Setup's league grid at 1024 x 700 each laid league's name breaks only
/// between words ("Saltmarro w" was cut mid-word) and runs under none of the side features
/// written along the square's edges.
#[test]
fn league_names_on_the_setup_grid_break_between_words_clear_of_the_side_features() {
    let mut h = laptop(
        with_doc("arcadia/legal-long-road.setup.toml", Slot::Setup),
        Screen::Setup,
    );
    h.get_by_label("League grid").scroll_to_me();
    crate::support::settle(&mut h);
    let grid = h.get_by_label("League grid").rect();
    let texts: Vec<_> = crate::support::painted_texts(&h)
        .into_iter()
        .filter(|(_, r, _)| grid.intersects(*r))
        .collect();
    let names: Vec<_> = texts
        .iter()
        .filter(|(g, _, _)| g.text().contains("\nP1 #") || g.text().contains("\nP2 #"))
        .collect();
    assert_eq!(names.len(), 10, "every laid league is named");
    assert!(
        names
            .iter()
            .any(|(g, _, _)| g.text().starts_with("Saltmarrow Strand")),
        "{:?}",
        names.iter().map(|(g, _, _)| g.text()).collect::<Vec<_>>()
    );
    // Where each shows: the grid is taller than its scroll area at this size.
    for (g, _, r) in &names {
        let broken = crate::support::broken_words(g);
        assert!(
            broken.is_empty(),
            "{:?} broken mid-word: {broken:?}",
            g.text()
        );
        for (other, _, o) in &texts {
            if Arc::ptr_eq(g, other) || !r.is_positive() || !o.is_positive() {
                continue;
            }
            assert!(
                !r.shrink(0.5).intersects(*o),
                "{:?} {r:?} runs under {:?} {o:?}",
                g.text(),
                other.text()
            );
        }
    }
}

#[test]
fn the_sheet_view_at_1024_by_700() {
    let mut h = laptop(app(), Screen::Browser);
    crate::support::type_in_search(&mut h, "game:arcadia kind:merit merit_type:art");
    // The search runs on its own thread: wait for its rows however busy the machine is.
    crate::support::wait_for(&mut h, "the search's rows", |a| {
        !a.browser.rows().is_empty() && !a.browser.busy()
    });
    h.run();
    click(&mut h, "Sheet");
    assert_laid_out(&mut h, "Sheet view");
}

#[test]
fn the_template_screen_at_1024_by_700() {
    let mut h = laptop(app(), Screen::Template);
    h.run();
    assert_laid_out(&mut h, "Template");
    h.snapshot("template-1024");
}

//! The browser's sheet view: the current search as rows, simple keys edited in place,
//! checked by the card rules, one undo step per edit.

use deckwright::app::{Action, core};
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness, type_in_search};

fn wait_rows(h: &mut egui_kittest::Harness<'_, deckwright::app::DeckwrightApp>) {
    crate::support::wait_for(h, "the browser's rows", |a| {
        !a.browser.rows().is_empty() && !a.browser.busy()
    });
    h.run();
}

#[test]
fn a_cell_edited_in_the_sheet_view_is_stored_and_undone_in_one_step() {
    let mut h = harness(app());
    h.run();
    type_in_search(&mut h, "id:ico-grumbolt");
    wait_rows(&mut h);
    click(&mut h, "Sheet");
    assert!(h.state().browser.sheet_mode);
    // The simple keys are columns; lists and tables (health, actions) are not.
    let name = h.get_by_label("name of ico-grumbolt");
    name.click();
    h.run();
    h.key_press(Key::End);
    h.run();
    h.get_by_label("name of ico-grumbolt")
        .type_text(" the Bold");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    h.run();
    assert!(h.state().error().is_none(), "{:?}", h.state().error());
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt the Bold"
    );
    assert!(h.query_by_label("health of ico-grumbolt").is_none());

    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt"
    );
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(
        core::card(&h.state().cat, "ico-grumbolt").unwrap().name(),
        "Grumbolt the Bold"
    );
}

#[test]
fn a_value_the_card_rules_refuse_changes_nothing_and_says_why() {
    let mut h = harness(app());
    h.run();
    let before = core::card(&h.state().cat, "ico-grumbolt").unwrap();
    h.state_mut().apply(Action::SetCardKey {
        id: "ico-grumbolt".into(),
        key: "action_break".into(),
        value: "lots".into(),
    });
    let err = h.state().error().expect("an error").to_string();
    assert!(
        err.contains("action_break") && err.contains("whole number"),
        "{err}"
    );
    h.state_mut().apply(Action::SetCardKey {
        id: "ico-grumbolt".into(),
        key: "faction".into(),
        value: "pirates".into(),
    });
    let err = h.state().error().expect("an error").to_string();
    assert!(err.contains("faction"), "{err}");
    assert_eq!(core::card(&h.state().cat, "ico-grumbolt").unwrap(), before);
}

/// The rightmost cell of the sheet's first row: its left edge.
fn last_column_x(h: &egui_kittest::Harness<'_, deckwright::app::DeckwrightApp>) -> f32 {
    h.query_all_by(|n| {
        n.role() == egui::accesskit::Role::TextInput
            && n.label()
                .is_some_and(|l| l.ends_with(" of arc-m-borrowed-face"))
    })
    .map(|n| n.rect().min.x)
    .fold(f32::MIN, f32::max)
}

/// A wheel turn over `at`, with `modifiers` held.
fn wheel(
    h: &mut egui_kittest::Harness<'_, deckwright::app::DeckwrightApp>,
    at: egui::Pos2,
    delta: egui::Vec2,
    modifiers: Modifiers,
) {
    h.hover_at(at);
    h.event_modifiers(
        egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta,
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers,
        },
        modifiers,
    );
    h.run();
}

/// Issue #27 item 2: at 1024 x 700 the Arcadia merits' columns after `merit_type` are cut
/// off the window; shift+wheel and a horizontal wheel scroll the sheet sideways to them.
#[test]
fn the_sheet_scrolls_sideways_at_1024_by_700_with_shift_wheel_or_a_horizontal_wheel() {
    let mut h = harness(app());
    h.set_size(egui::vec2(1024.0, 700.0));
    h.run();
    type_in_search(&mut h, "game:arcadia kind:merit");
    wait_rows(&mut h);
    click(&mut h, "Sheet");
    h.run();
    let window = 1024.0;
    let start = last_column_x(&h);
    assert!(
        start > window,
        "the last column starts off the window: {start}"
    );
    let over = h
        .get_by_label("name of arc-m-borrowed-face")
        .rect()
        .center();

    // Shift and the wheel: sideways until the last column shows.
    for _ in 0..20 {
        if last_column_x(&h) < window - 40.0 {
            break;
        }
        wheel(&mut h, over, egui::vec2(0.0, -200.0), Modifiers::SHIFT);
    }
    let shifted = last_column_x(&h);
    assert!(shifted < window - 40.0, "shift+wheel: {start} -> {shifted}");

    // A horizontal wheel (a trackpad, a tilting wheel) back to the start.
    for _ in 0..20 {
        if last_column_x(&h) >= start - 1.0 {
            break;
        }
        wheel(&mut h, over, egui::vec2(200.0, 0.0), Modifiers::NONE);
    }
    let back = last_column_x(&h);
    assert!(back >= start - 1.0, "horizontal wheel: {shifted} -> {back}");
}

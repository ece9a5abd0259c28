//! The keyboard commands said once: the Help menu lists every one with its keys, and the
//! Edit menu and status bar show the shortcuts the table gives.

use deckwright::app::Screen;
use deckwright::app::commands::UiCommand;
use egui::{Key, Modifiers};
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness};

#[test]
fn the_help_menu_lists_every_command_with_its_keys() {
    let mut h = harness(app());
    h.run();
    click(&mut h, "Help");
    for c in UiCommand::ALL {
        if let UiCommand::TakeOption(n) = c
            && n > 1
        {
            continue;
        }
        let text = match c {
            UiCommand::TakeOption(_) => "Option 1 to 9".to_string(),
            _ => c.text(),
        };
        h.get_by_label_contains(&format!("{text}: {}", c.tooltip()));
    }
    let undo = UiCommand::Undo.shortcut_text(&h.ctx);
    h.get_by_label(&undo);
    h.get_by_label("Left arrow");
}

#[test]
fn a_shortcut_of_the_table_does_what_it_says() {
    let mut h = harness(app());
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::M);
    h.run();
    assert_eq!(h.state().screen, Screen::Match);
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    assert_eq!(h.state().screen, Screen::Card);
    let status = format!(
        "{} search",
        UiCommand::Search
            .shortcut_text(&h.ctx)
            .split(" or ")
            .next()
            .unwrap()
    );
    h.get_by_label_contains(&status);
}

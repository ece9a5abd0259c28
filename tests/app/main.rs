//! The egui app driven through its widgets with egui_kittest: browser, builders, files,
//! card editor and its form, Match screen.
//!
//! One test binary per area (one link, one process) keeps builds small; each file below was
//! its own binary before.

mod support;

mod arcadia_forms;
mod arcadia_match;
mod art;
mod balance;
mod balance_screen;
mod browser;
mod builders;
mod commands;
mod computer_turn;
mod editor;
mod files;
mod forms;
mod generic_board;
mod iconica_board;
mod iconoclasm_match;
mod laptop;
mod matches;
mod network;
mod new_user;
mod playtest_notes;
mod print;
mod recovery;
mod ruunara_form;
mod ruunara_match;
mod sheet_view;
mod simulate;
mod template;

//! Every keyboard command of the app, said once (in the spirit of rerun's `UICommand`): its
//! text, what it does, and its shortcut. Screens ask a command whether it was pressed
//! ([`UiCommand::pressed`]) instead of reading keys themselves, menus and tooltips show the
//! shortcut from here, and the Help menu lists them all ([`help_ui`]).

use egui::{Key, KeyboardShortcut, Modifiers};

/// A keyboard command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UiCommand {
    Undo,
    Redo,
    Search,
    CardEditor,
    Save,
    Print,
    MatchScreen,
    /// Show the match one step earlier.
    StepBack,
    /// Show the match one step later.
    StepForward,
    /// Show the match's last step.
    Latest,
    /// Stop the computer's turn.
    StopComputer,
    /// Take option `n` (1 to 9) of the decision shown.
    TakeOption(u8),
    /// Move the selected member up or down in a build's list.
    MoveUp,
    MoveDown,
    /// Remove the selected member from a build's list.
    Remove,
    /// The next or previous result in the browser's list.
    NextResult,
    PreviousResult,
    /// Confirm the text typed into a field (a path, a search, a cell).
    Confirm,
}

/// How a command's keys are read.
#[derive(Debug, Clone, Copy)]
enum Keys {
    /// A shortcut with modifiers, consumed so no widget also sees it.
    Shortcut(KeyboardShortcut),
    /// A plain key (a step, an option): not taken while a text field has the keyboard, so
    /// typing a digit or moving the cursor is never a command.
    Plain(Key),
    /// A key pressed as a field loses the keyboard (Enter in a one-line field).
    OnField(Key),
}

const fn cmd(key: Key) -> Keys {
    Keys::Shortcut(KeyboardShortcut::new(Modifiers::COMMAND, key))
}

impl UiCommand {
    /// Every command, in the order the Help menu lists them.
    pub const ALL: [UiCommand; 26] = [
        UiCommand::Search,
        UiCommand::CardEditor,
        UiCommand::MatchScreen,
        UiCommand::Save,
        UiCommand::Print,
        UiCommand::Undo,
        UiCommand::Redo,
        UiCommand::StepBack,
        UiCommand::StepForward,
        UiCommand::Latest,
        UiCommand::StopComputer,
        UiCommand::TakeOption(1),
        UiCommand::TakeOption(2),
        UiCommand::TakeOption(3),
        UiCommand::TakeOption(4),
        UiCommand::TakeOption(5),
        UiCommand::TakeOption(6),
        UiCommand::TakeOption(7),
        UiCommand::TakeOption(8),
        UiCommand::TakeOption(9),
        UiCommand::MoveUp,
        UiCommand::MoveDown,
        UiCommand::Remove,
        UiCommand::NextResult,
        UiCommand::PreviousResult,
        UiCommand::Confirm,
    ];

    /// Its name in a menu.
    pub fn text(self) -> String {
        match self {
            UiCommand::Undo => "Undo".into(),
            UiCommand::Redo => "Redo".into(),
            UiCommand::Search => "Search".into(),
            UiCommand::CardEditor => "Card editor".into(),
            UiCommand::Save => "Save".into(),
            UiCommand::Print => "Print".into(),
            UiCommand::MatchScreen => "Match screen".into(),
            UiCommand::StepBack => "Back".into(),
            UiCommand::StepForward => "Forward".into(),
            UiCommand::Latest => "Latest".into(),
            UiCommand::StopComputer => "Stop the computer".into(),
            UiCommand::TakeOption(n) => format!("Option {n}"),
            UiCommand::MoveUp => "Move up".into(),
            UiCommand::MoveDown => "Move down".into(),
            UiCommand::Remove => "Remove".into(),
            UiCommand::NextResult => "Next result".into(),
            UiCommand::PreviousResult => "Previous result".into(),
            UiCommand::Confirm => "Confirm".into(),
        }
    }

    /// What it does.
    pub fn tooltip(self) -> &'static str {
        match self {
            UiCommand::Undo => "Undo the last change (the history survives a restart)",
            UiCommand::Redo => "Redo the change undone last",
            UiCommand::Search => "Go to the browser and type a search",
            UiCommand::CardEditor => "Open the card editor",
            UiCommand::Save => "Save what this screen edits",
            UiCommand::Print => "Print the selection (the build shown, or the selected card)",
            UiCommand::MatchScreen => "Open the Match screen",
            UiCommand::StepBack => "Show the match one step earlier",
            UiCommand::StepForward => "Show the match one step later",
            UiCommand::Latest => "Show the match where it stands now",
            UiCommand::StopComputer => "Stop the computer after the move it is making",
            UiCommand::TakeOption(_) => "Take that option of the decision shown (its number)",
            UiCommand::MoveUp => "Move the selected member one place up",
            UiCommand::MoveDown => "Move the selected member one place down",
            UiCommand::Remove => "Remove the selected member",
            UiCommand::NextResult => "Select the next card of the browser's list",
            UiCommand::PreviousResult => "Select the previous card of the browser's list",
            UiCommand::Confirm => "Take what was typed into the field",
        }
    }

    fn keys(self) -> Vec<Keys> {
        const DIGITS: [Key; 9] = [
            Key::Num1,
            Key::Num2,
            Key::Num3,
            Key::Num4,
            Key::Num5,
            Key::Num6,
            Key::Num7,
            Key::Num8,
            Key::Num9,
        ];
        let alt = |key| Keys::Shortcut(KeyboardShortcut::new(Modifiers::ALT, key));
        match self {
            UiCommand::Undo => vec![cmd(Key::Z)],
            UiCommand::Redo => vec![
                Keys::Shortcut(KeyboardShortcut::new(
                    Modifiers::COMMAND.plus(Modifiers::SHIFT),
                    Key::Z,
                )),
                cmd(Key::Y),
            ],
            UiCommand::Search => vec![cmd(Key::F)],
            UiCommand::CardEditor => vec![cmd(Key::E)],
            UiCommand::Save => vec![cmd(Key::S)],
            UiCommand::Print => vec![cmd(Key::P)],
            UiCommand::MatchScreen => vec![cmd(Key::M)],
            UiCommand::StepBack => vec![Keys::Plain(Key::ArrowLeft)],
            UiCommand::StepForward => vec![Keys::Plain(Key::ArrowRight)],
            UiCommand::Latest => vec![Keys::Plain(Key::End)],
            UiCommand::StopComputer => vec![Keys::Plain(Key::Escape)],
            UiCommand::TakeOption(n) => vec![Keys::Plain(DIGITS[usize::from(n.clamp(1, 9) - 1)])],
            UiCommand::MoveUp => vec![alt(Key::ArrowUp)],
            UiCommand::MoveDown => vec![alt(Key::ArrowDown)],
            UiCommand::Remove => vec![Keys::Plain(Key::Delete)],
            UiCommand::NextResult => vec![Keys::Plain(Key::ArrowDown)],
            UiCommand::PreviousResult => vec![Keys::Plain(Key::ArrowUp)],
            UiCommand::Confirm => vec![Keys::OnField(Key::Enter)],
        }
    }

    /// Its shortcut in words for a menu or a hover ("Ctrl+Z", "Left arrow").
    pub fn shortcut_text(self, ctx: &egui::Context) -> String {
        self.keys()
            .iter()
            .map(|k| match k {
                Keys::Shortcut(s) => ctx.format_shortcut(s),
                Keys::Plain(key) | Keys::OnField(key) => key_name(*key),
            })
            .collect::<Vec<_>>()
            .join(" or ")
    }

    /// `tooltip`, with the shortcut: what a button's hover says.
    pub fn hover(self, ctx: &egui::Context) -> String {
        format!("{} ({})", self.tooltip(), self.shortcut_text(ctx))
    }

    /// Whether it was pressed this frame (a shortcut is consumed). A plain key is not a
    /// command while a text field has the keyboard; [`UiCommand::Confirm`] is only that.
    pub fn pressed(self, ui: &egui::Ui) -> bool {
        let typing = ui.ctx().text_edit_focused();
        ui.input_mut(|i| {
            self.keys().iter().any(|k| match k {
                Keys::Shortcut(s) => i.consume_shortcut(s),
                Keys::Plain(key) => !typing && i.key_pressed(*key),
                Keys::OnField(key) => i.key_pressed(*key),
            })
        })
    }

    /// The option key pressed this frame (1 to 9), if one was: [`UiCommand::TakeOption`].
    pub fn option_pressed(ui: &egui::Ui) -> Option<usize> {
        (1..=9u8)
            .find(|&n| UiCommand::TakeOption(n).pressed(ui))
            .map(usize::from)
    }

    /// Whether it was pressed as `field` lost the keyboard (Enter in a one-line field).
    pub fn confirmed(self, ui: &egui::Ui, field: &egui::Response) -> bool {
        field.lost_focus() && self.pressed(ui)
    }
}

fn key_name(key: Key) -> String {
    match key {
        Key::ArrowLeft => "Left arrow".into(),
        Key::ArrowRight => "Right arrow".into(),
        Key::ArrowUp => "Up arrow".into(),
        Key::ArrowDown => "Down arrow".into(),
        other => other.name().to_string(),
    }
}

/// The Help menu's list: every command with its shortcut and what it does.
pub fn help_ui(ui: &mut egui::Ui) {
    egui::Grid::new("help-shortcuts")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for c in UiCommand::ALL {
                if let UiCommand::TakeOption(n) = c
                    && n > 1
                {
                    continue;
                }
                let (text, keys) = match c {
                    UiCommand::TakeOption(_) => ("Option 1 to 9".to_string(), "1 to 9".to_string()),
                    _ => (c.text(), c.shortcut_text(ui.ctx())),
                };
                ui.label(keys);
                ui.label(format!("{text}: {}", c.tooltip()));
                ui.end_row();
            }
        });
}

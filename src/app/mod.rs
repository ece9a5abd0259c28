//! The egui desktop app: one module per screen; it calls the core and holds no game logic or SQL.
//!
//! [`DeckwrightApp`] owns the catalogue, the documents being edited and the undo history.
//! Screens draw from that state and ask for changes by pushing [`Action`]s, which the app
//! applies after the frame: every edit becomes a [`history::Command`] kept in the catalogue.

pub mod balance_screen;
pub mod browser;
pub mod builder;
pub mod cache;
pub mod character;
pub mod commands;
pub mod core;
pub mod docs;
pub mod editor;
pub mod files;
pub mod health_panel;
pub mod history;
pub mod matches;
pub mod party;
pub mod picker;
pub mod print;
pub mod recovery;
pub mod ruunara_calc;
pub mod setup;
pub mod sheet_view;
pub mod squad;
pub mod template_screen;
pub mod toml_view;

use std::path::{Path, PathBuf};

use commands::UiCommand;
use serde::{Deserialize, Serialize};

use crate::catalogue::{Catalogue, saved};
use docs::{Docs, Slot};
use history::{Command, History};

/// Opens the desktop app on the catalogue at `db`. A catalogue that cannot be opened shows
/// the recovery screen (its message, and Restore for a damaged one with a verified backup).
pub fn run(db: &Path) -> anyhow::Result<()> {
    let root = match Catalogue::open(db) {
        Ok(cat) => Root::Main(Box::new(DeckwrightApp::with_path(
            cat,
            Some(db.to_path_buf()),
        ))),
        Err(e) => Root::Recovery(Box::new(recovery::Recovery::new(db, &e)), db.to_path_buf()),
    };
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("deckwright")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([720.0, 480.0]),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "deckwright",
        options,
        Box::new(move |_cc| Ok(Box::new(root))),
    )
    .map_err(|e| anyhow::anyhow!("the app window failed: {e}"))
}

/// The app's window: the recovery screen until the catalogue opens, then the app.
enum Root {
    Recovery(Box<recovery::Recovery>, PathBuf),
    Main(Box<DeckwrightApp>),
}

impl eframe::App for Root {
    fn ui(&mut self, ui: &mut egui::Ui, frame: &mut eframe::Frame) {
        match self {
            Root::Recovery(r, path) => {
                r.ui(ui);
                if let Some(cat) = r.take_opened() {
                    *self = Root::Main(Box::new(DeckwrightApp::with_path(cat, Some(path.clone()))));
                    ui.ctx().request_repaint();
                }
            }
            Root::Main(app) => eframe::App::ui(app.as_mut(), ui, frame),
        }
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if let Root::Main(app) = self {
            eframe::App::save(app.as_mut(), storage);
        }
    }
}

/// The screens of the top bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum Screen {
    #[default]
    Browser,
    Card,
    Party,
    Match,
    Character,
    Setup,
    Squad,
    Print,
    Template,
    Balance,
}

impl Screen {
    pub const ALL: [Screen; 10] = [
        Screen::Browser,
        Screen::Card,
        Screen::Party,
        Screen::Match,
        Screen::Character,
        Screen::Setup,
        Screen::Squad,
        Screen::Print,
        Screen::Template,
        Screen::Balance,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Browser => "Browser",
            Screen::Card => "Card",
            Screen::Party => "Party",
            Screen::Match => "Match",
            Screen::Character => "Character",
            Screen::Setup => "Setup",
            Screen::Squad => "Squad",
            Screen::Print => "Print",
            Screen::Template => "Template",
            Screen::Balance => "Balance",
        }
    }

    fn tooltip(self) -> &'static str {
        match self {
            Screen::Browser => "Search the catalogue and edit your collection (Ctrl+F)",
            Screen::Card => {
                "Author a card: its TOML, checked as you type, beside its preview (Ctrl+E)"
            }
            Screen::Party => "Build an Iconica party, or two for a match",
            Screen::Match => "Simulate or watch matches of the two parties (Ctrl+M)",
            Screen::Character => "Build an Arcadia character",
            Screen::Setup => "Lay out an Arcadia quest setup",
            Screen::Squad => "Build a Ruunara squad",
            Screen::Print => "Preview and print the selection (Ctrl+P)",
            Screen::Template => "Lay out the card faces: a template's layers on any card",
            Screen::Balance => "Rank every card of a game by how it fares against the field",
        }
    }

    /// The document slot this screen edits (Ctrl+S saves it).
    fn slot(self) -> Option<Slot> {
        match self {
            Screen::Party => Some(Slot::PartyA),
            Screen::Character => Some(Slot::Character),
            Screen::Setup => Some(Slot::Setup),
            Screen::Squad => Some(Slot::Squad),
            Screen::Browser
            | Screen::Card
            | Screen::Match
            | Screen::Print
            | Screen::Template
            | Screen::Balance => None,
        }
    }
}

/// What a screen asks the app to do; applied after the frame.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// Replace the document in `slot` with this TOML (recorded for undo under `label`).
    Edit {
        slot: Slot,
        label: String,
        after: String,
    },
    /// Replace the card editor's text (recorded for undo under `label`) and show the editor.
    EditCard {
        label: String,
        after: String,
    },
    /// Put another card in the editor (*New card*'s template, *Edit card* from the browser):
    /// asks first when the editor holds an unsaved card, then acts as `EditCard`.
    ReplaceCard {
        label: String,
        after: String,
    },
    /// Put the card editor's card into the catalogue (refused while the text is invalid).
    SaveCard,
    /// Set the owned quantity of a card (recorded for undo).
    SetOwned {
        id: String,
        quantity: u32,
    },
    /// Show a card in the browser.
    ShowCard(String),
    /// Go to the print screen with these cards.
    Print(Vec<String>),
    /// Add cards to the print selection without leaving the screen (cards already in it
    /// are not added again).
    AddToPrint(PrintSource),
    /// Save the document in `slot` under its name.
    Save(Slot),
    /// Store a document in the catalogue's saved documents (no undo: files opened with a setup).
    StoreSaved {
        kind: saved::DocKind,
        name: String,
        body: String,
    },
    /// Import card files and folders (all or nothing).
    ImportCards(Vec<PathBuf>),
    /// Write every card to a folder.
    ExportCards(PathBuf),
    /// Read owned quantities from a collection CSV (all or nothing).
    ImportCollection(PathBuf),
    /// Write owned quantities to a collection CSV.
    ExportCollection(PathBuf),
    /// Import the cards of a CSV or XLSX sheet (all or nothing).
    ImportSheet(PathBuf),
    /// Set one simple key of a card (the browser's sheet view), recorded for undo.
    SetCardKey {
        id: String,
        key: String,
        value: String,
    },
    /// Write the browser's search results to a CSV or XLSX sheet.
    ExportSheet(PathBuf),
    Undo,
    Redo,
    /// A message for the status bar.
    Notify(String),
    /// An error, shown in a window until dismissed.
    Error(String),
}

/// Cards the Print screen can add to its selection.
#[derive(Debug, Clone, PartialEq)]
pub enum PrintSource {
    /// These cards.
    Cards(Vec<String>),
    /// The browser's search result, as it is listed.
    SearchResults,
    /// The document of a builder screen (party, character, setup or squad), as Ctrl+P on
    /// that screen prints it.
    Builder(Screen),
}

/// The app state restored on start (besides the documents and history).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct Session {
    pub screen: Screen,
    pub dark: bool,
    pub query: String,
    pub game_filter: Option<String>,
    pub kind_filter: Option<String>,
    pub selected: Option<String>,
    pub match_mode: bool,
    pub print_ids: Vec<String>,
    /// The Print screen's settings (paper, bleed, marks, copies, preset, ...).
    pub print: core::PrintSettings,
    /// The template file the Template screen saved last: put in use again on start.
    pub template_file: Option<PathBuf>,
    /// The card editor's Balance panel turned off (it is on until the user turns it off).
    pub hide_balance: bool,
}

/// The desktop app.
pub struct DeckwrightApp {
    pub cat: Catalogue,
    path: Option<PathBuf>,
    pub screen: Screen,
    pub dark: bool,
    pub docs: Docs,
    pub history: History,
    pub browser: browser::Browser,
    pub party: party::PartyScreen,
    pub matches: matches::MatchScreen,
    pub character: character::CharacterScreen,
    pub setup: setup::SetupScreen,
    pub squad: squad::SquadScreen,
    pub print: print::PrintScreen,
    pub template: template_screen::TemplateScreen,
    pub balance: balance_screen::BalanceScreen,
    pub editor: editor::CardEditor,
    status: String,
    error: Option<String>,
    /// A new card waiting for "Replace it" because the editor holds an unsaved card.
    confirm_new: Option<(String, String)>,
    /// The unsaved card found in the editor's draft on start (the id or a description).
    recovered: Option<String>,
    actions: Vec<Action>,
    last_session: String,
    theme_applied: Option<bool>,
    names: cache::CardNames,
    /// Bumped when the catalogue's cards change, so cached verdicts are computed again.
    generation: u64,
}

impl DeckwrightApp {
    /// The app over a catalogue (queries run on the UI thread: for tests and in-memory use).
    pub fn new(cat: Catalogue) -> DeckwrightApp {
        DeckwrightApp::with_path(cat, None)
    }

    /// The app over the catalogue file at `path` (queries run on a worker thread with its
    /// own connection), restoring the last session, drafts and undo history.
    pub fn with_path(cat: Catalogue, path: Option<PathBuf>) -> DeckwrightApp {
        let history = History::load(&cat);
        let session: Session = cat
            .state("session")
            .ok()
            .flatten()
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or_default();
        let mut docs = Docs::default();
        for slot in Slot::ALL {
            if let Ok(Some(text)) = cat.state(&draft_key(slot)) {
                let _ = docs.set_toml(slot, &text);
            }
        }
        let mut card_editor = editor::CardEditor::default();
        if let Ok(Some(text)) = cat.state(CARD_DRAFT) {
            card_editor.load(&text);
        }
        let mut app = DeckwrightApp {
            browser: browser::Browser::new(path.clone()),
            editor: card_editor,
            party: party::PartyScreen::default(),
            matches: matches::MatchScreen::default(),
            character: character::CharacterScreen::default(),
            setup: setup::SetupScreen::default(),
            squad: squad::SquadScreen::default(),
            print: print::PrintScreen::default(),
            template: template_screen::TemplateScreen::default(),
            balance: balance_screen::BalanceScreen::default(),
            cat,
            path,
            screen: session.screen,
            dark: session.dark,
            docs,
            history,
            status: String::new(),
            error: None,
            confirm_new: None,
            recovered: None,
            actions: Vec::new(),
            last_session: String::new(),
            theme_applied: None,
            names: cache::CardNames::default(),
            generation: 0,
        };
        app.browser.restore(&session);
        app.party.match_mode = session.match_mode;
        app.editor.set_balance_on(!session.hide_balance);
        app.print.ids = session.print_ids.clone();
        app.print.settings = session.print.clone();
        app.balance.restore(&app.cat);
        if let Some(p) = &session.template_file {
            // A template that no longer loads is left out (the bundled faces draw).
            if let Ok(e) = template_screen::TemplateEditor::open(p) {
                e.put_in_use(&app.cat.all().unwrap_or_default());
                app.template.path_text = p.display().to_string();
                app.template.editor = Some(e);
            }
        }
        app.last_session = serde_json::to_string(&app.session()).unwrap_or_default();
        if app.card_draft_unsaved() {
            app.recovered = Some(match core::check_card(app.editor.text()).ok() {
                Some(c) => format!("“{}” ({})", c.name(), c.id()),
                None => "a card with an error".into(),
            });
        }
        app
    }

    /// True when the card editor holds text that is not in the catalogue as it stands:
    /// a card changed since it was saved, or one never saved (an untouched template and an
    /// empty editor are not unsaved work).
    pub fn card_draft_unsaved(&self) -> bool {
        let text = self.editor.text();
        if text.trim().is_empty() || core::card_templates().iter().any(|t| t.text == text) {
            return false;
        }
        match core::check_card(text) {
            Ok(card) => !core::is_stored(&self.cat, &card),
            Err(_) => true,
        }
    }

    /// The unsaved card offered on start, while its notice is shown.
    pub fn recovered(&self) -> Option<&str> {
        self.recovered.as_deref()
    }

    /// The catalogue file, when the app runs on one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    fn session(&self) -> Session {
        let mut s = Session {
            screen: self.screen,
            dark: self.dark,
            match_mode: self.party.match_mode,
            print_ids: self.print.ids.clone(),
            print: self.print.settings.clone(),
            template_file: self.template.saved.clone(),
            hide_balance: !self.editor.balance_on(),
            ..Default::default()
        };
        self.browser.store(&mut s);
        s
    }

    /// Writes the session to the catalogue when it changed.
    pub fn persist(&mut self) {
        let now = serde_json::to_string(&self.session()).unwrap_or_default();
        if now != self.last_session && self.cat.set_state("session", &now).is_ok() {
            self.last_session = now;
        }
    }

    /// The status bar's last message.
    pub fn status(&self) -> &str {
        &self.status
    }

    /// The error shown in the error window, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Draws the whole app into `ui` (the eframe window, or a test harness).
    pub fn ui_root(&mut self, ui: &mut egui::Ui) {
        if self.theme_applied != Some(self.dark) {
            ui.ctx().set_theme(if self.dark {
                egui::Theme::Dark
            } else {
                egui::Theme::Light
            });
            self.theme_applied = Some(self.dark);
        }
        self.shortcuts(ui);
        egui::Panel::top("top-bar").show(ui, |ui| self.top_bar_ui(ui));
        egui::Panel::bottom("status-bar").show(ui, |ui| self.status_bar_ui(ui));
        let mut actions = std::mem::take(&mut self.actions);
        egui::CentralPanel::default().show(ui, |ui| {
            let env = &mut Env {
                cat: &self.cat,
                docs: &self.docs,
                names: &self.names,
                generation: self.generation,
                actions: &mut actions,
            };
            match self.screen {
                Screen::Browser => self.browser.ui(ui, env),
                Screen::Card => self.editor.ui(ui, env),
                Screen::Party => self.party.ui(ui, env),
                Screen::Match => self.matches.ui(ui, env),
                Screen::Character => self.character.ui(ui, env),
                Screen::Setup => self.setup.ui(ui, env),
                Screen::Squad => self.squad.ui(ui, env),
                Screen::Print => self.print.ui(ui, env),
                Screen::Template => self.template.ui(ui, env),
                Screen::Balance => self.balance.ui(ui, env),
            }
        });
        self.error_window_ui(ui);
        self.confirm_new_ui(ui);
        self.recovered_ui(ui);
        actions.extend(files::path_field_ui(ui.ctx(), &self.cat));
        for action in actions {
            self.apply(action);
        }
        if self.editor.typing() {
            if self.editor.typing_paused(ui.input(|i| i.time)) {
                self.commit_typing();
            } else {
                ui.ctx()
                    .request_repaint_after(std::time::Duration::from_secs_f64(editor::PAUSE));
            }
        }
        self.persist();
    }

    fn shortcuts(&mut self, ui: &mut egui::Ui) {
        // Redo first: its Ctrl+Shift+Z would otherwise be taken as Ctrl+Z.
        let redo = UiCommand::Redo.pressed(ui);
        let undo = UiCommand::Undo.pressed(ui);
        let find = UiCommand::Search.pressed(ui);
        let save = UiCommand::Save.pressed(ui);
        let print = UiCommand::Print.pressed(ui);
        let edit = UiCommand::CardEditor.pressed(ui);
        if UiCommand::MatchScreen.pressed(ui) {
            self.screen = Screen::Match;
        }
        if self.screen == Screen::Template
            && let Some(e) = self.template.editor.as_mut()
        {
            // The Template screen's undo goes through its template's edits.
            if redo {
                e.redo();
            } else if undo {
                e.undo();
            }
        } else if redo {
            self.actions.push(Action::Redo);
        } else if undo {
            self.actions.push(Action::Undo);
        }
        if find {
            self.screen = Screen::Browser;
            self.browser.focus_search = true;
        }
        if edit {
            self.screen = Screen::Card;
            self.editor.focus = true;
        }
        if save && self.screen == Screen::Template {
            let env = &mut Env {
                cat: &self.cat,
                docs: &self.docs,
                names: &self.names,
                generation: self.generation,
                actions: &mut self.actions,
            };
            self.template.save(env);
        } else if save {
            match self.screen.slot() {
                _ if self.screen == Screen::Card => self.actions.push(Action::SaveCard),
                Some(slot) => self.actions.push(Action::Save(slot)),
                None => self.status = "Nothing to save here: the browser saves as you edit.".into(),
            }
        }
        if print {
            let ids = self.selection();
            self.actions.push(Action::Print(ids));
        }
    }

    /// The cards Ctrl+P prints: the builder's document, or the browser's selected card.
    pub fn selection(&self) -> Vec<String> {
        self.selection_of(self.screen)
    }

    /// The cards Ctrl+P prints on `screen`.
    pub fn selection_of(&self, screen: Screen) -> Vec<String> {
        match screen {
            Screen::Party | Screen::Match => {
                let mut ids = self.docs.party_a.members.clone();
                if self.party.match_mode || screen == Screen::Match {
                    ids.extend(self.docs.party_b.members.iter().cloned());
                }
                ids
            }
            Screen::Character => {
                let c = &self.docs.character;
                c.icon
                    .iter()
                    .chain(&c.merits)
                    .chain(&c.flaws)
                    .cloned()
                    .collect()
            }
            Screen::Setup => {
                let s = &self.docs.setup;
                let mut ids: Vec<String> = Vec::new();
                for p in &s.players {
                    ids.extend(
                        p.quests
                            .iter()
                            .chain(&p.waylays)
                            .chain(&p.treasures)
                            .chain(&p.leagues)
                            .cloned(),
                    );
                }
                ids.extend(s.leagues.iter().map(|l| l.id.clone()));
                ids
            }
            Screen::Squad => self.docs.squad.members.clone(),
            Screen::Browser => self.browser.selected().into_iter().collect(),
            Screen::Card => self
                .editor
                .card()
                .map(|c| c.id().to_string())
                .into_iter()
                .collect(),
            Screen::Print => self.print.ids.clone(),
            Screen::Template | Screen::Balance => Vec::new(),
        }
    }

    fn top_bar_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let env = &mut Env {
                    cat: &self.cat,
                    docs: &self.docs,
                    names: &self.names,
                    generation: self.generation,
                    actions: &mut self.actions,
                };
                files::file_menu_ui(ui, env);
            });
            ui.menu_button("Edit", |ui| {
                let undo_text = match self.history.next_undo() {
                    Some(c) => format!("Undo {}", c.label()),
                    None => "Undo".into(),
                };
                if ui
                    .add_enabled(
                        self.history.can_undo(),
                        egui::Button::new(undo_text)
                            .shortcut_text(UiCommand::Undo.shortcut_text(ui.ctx())),
                    )
                    .clicked()
                {
                    self.actions.push(Action::Undo);
                    ui.close();
                }
                let redo_text = match self.history.next_redo() {
                    Some(c) => format!("Redo {}", c.label()),
                    None => "Redo".into(),
                };
                if ui
                    .add_enabled(
                        self.history.can_redo(),
                        egui::Button::new(redo_text)
                            .shortcut_text(UiCommand::Redo.shortcut_text(ui.ctx())),
                    )
                    .clicked()
                {
                    self.actions.push(Action::Redo);
                    ui.close();
                }
            });
            ui.menu_button("Help", |ui| {
                ui.label(egui::RichText::new("Keyboard").strong());
                commands::help_ui(ui);
            });
            ui.separator();
            for screen in Screen::ALL {
                if ui
                    .selectable_label(self.screen == screen, screen.title())
                    .on_hover_text(screen.tooltip())
                    .clicked()
                {
                    self.screen = screen;
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                let (icon, tip) = if self.dark {
                    ("Light theme", "Switch to the light theme")
                } else {
                    ("Dark theme", "Switch to the dark theme")
                };
                if ui.button(icon).on_hover_text(tip).clicked() {
                    self.dark = !self.dark;
                }
                ui.label(format!(
                    "Collection: {}",
                    crate::count(self.browser.collection_total(&self.cat), "card", "cards")
                ))
                .on_hover_text("Owned copies of every card, all counted");
            });
        });
    }

    fn status_bar_ui(&mut self, ui: &mut egui::Ui) {
        ui.horizontal(|ui| {
            if self.status.is_empty() {
                let keys: Vec<String> = [
                    UiCommand::Search,
                    UiCommand::CardEditor,
                    UiCommand::Save,
                    UiCommand::Undo,
                    UiCommand::Redo,
                    UiCommand::Print,
                    UiCommand::MatchScreen,
                ]
                .iter()
                .map(|c| {
                    let all = c.shortcut_text(ui.ctx());
                    let first = all.split(" or ").next().unwrap_or_default().to_string();
                    format!("{first} {}", c.text().to_lowercase())
                })
                .collect();
                ui.weak(format!(
                    "{} · drafts are kept as you edit · Help lists every key",
                    keys.join(" · ")
                ));
            } else {
                ui.label(&self.status);
            }
        });
    }

    /// Asks before a new card replaces the unsaved one in the editor.
    fn confirm_new_ui(&mut self, ui: &mut egui::Ui) {
        let Some((label, _)) = self.confirm_new.clone() else {
            return;
        };
        egui::Window::new("Replace the unsaved card?")
            .collapsible(false)
            .show(ui.ctx(), |ui| {
                ui.label(format!(
                    "The card editor holds a card that is not saved in the catalogue. Replace it \
                 ({label})? Undo brings the unsaved card back."
                ));
                ui.horizontal(|ui| {
                    if ui.button("Replace it").clicked()
                        && let Some((label, after)) = self.confirm_new.take()
                    {
                        self.actions.push(Action::EditCard { label, after });
                        ui.ctx().request_repaint();
                    }
                    if ui.button("Keep editing").clicked() {
                        self.confirm_new = None;
                        self.screen = Screen::Card;
                    }
                });
            });
    }

    /// Offers the unsaved card found on start (kept from the last session, even a crash).
    fn recovered_ui(&mut self, ui: &mut egui::Ui) {
        let Some(what) = self.recovered.clone() else {
            return;
        };
        egui::Window::new("Unsaved card from your last session")
            .collapsible(false)
            .show(ui.ctx(), |ui| {
                ui.label(format!(
                "The card editor still holds {what}, with changes that are not in the catalogue \
                 (kept as you typed, so a crash loses nothing)."
            ));
                ui.horizontal(|ui| {
                    if ui.button("Show the unsaved card").clicked() {
                        self.recovered = None;
                        self.screen = Screen::Card;
                    }
                    if ui.button("Discard it").clicked() {
                        self.recovered = None;
                        self.actions.push(Action::EditCard {
                            label: "discard the unsaved card".into(),
                            after: String::new(),
                        });
                        ui.ctx().request_repaint();
                    }
                });
            });
    }

    fn error_window_ui(&mut self, ui: &mut egui::Ui) {
        let Some(message) = self.error.clone() else {
            return;
        };
        let mut open = true;
        egui::Window::new("Problem")
            .collapsible(false)
            .open(&mut open)
            .show(ui.ctx(), |ui| {
                ui.label(egui::RichText::new(&message).color(ui.visuals().error_fg_color));
                if ui.button("OK").clicked() {
                    self.error = None;
                }
            });
        if !open {
            self.error = None;
        }
    }

    /// Applies one action now (the app applies the ones screens push after each frame).
    pub fn apply(&mut self, action: Action) {
        match action {
            Action::Edit { slot, label, after } => {
                let before = self.docs.get_toml(slot);
                if before == after {
                    return;
                }
                if let Err(e) = self.docs.set_toml(slot, &after) {
                    self.error = Some(format!("That document cannot be read: {e}"));
                    return;
                }
                self.store_draft(slot);
                if let Err(e) = self.history.record(
                    &self.cat,
                    Command::Edit {
                        slot,
                        label,
                        before,
                        after,
                    },
                ) {
                    self.status = format!("The edit is made but not kept for undo: {e}");
                }
            }
            Action::EditCard { label, after } => {
                self.commit_typing();
                self.screen = Screen::Card;
                let before = self.editor.text().to_string();
                if before == after {
                    return;
                }
                self.editor.load(&after);
                self.record_card_edit(label, before, after);
            }
            Action::ReplaceCard { label, after } => {
                self.commit_typing();
                if self.card_draft_unsaved() {
                    self.confirm_new = Some((label, after));
                } else {
                    self.apply(Action::EditCard { label, after });
                }
            }
            Action::SaveCard if self.editor.text().trim().is_empty() => {
                self.status =
                    "Nothing to save: the card editor is empty (start a card with “New card”)."
                        .into();
            }
            Action::SaveCard => match core::save_card(&mut self.cat, self.editor.text()) {
                Ok(m) => {
                    self.status = m;
                    self.cards_changed();
                }
                Err(e) => self.error = Some(format!("The card was not saved.\n{}", e.chain())),
            },
            Action::SetOwned { id, quantity } => {
                let before = core::owned(&self.cat, &id);
                if before == quantity {
                    return;
                }
                if let Err(e) = core::set_owned(&mut self.cat, &id, quantity) {
                    self.error = Some(format!(
                        "The owned quantity of {id} was not changed: {}",
                        e.chain()
                    ));
                    return;
                }
                self.browser.owned_changed(&id, quantity);
                let _ = self.history.record(
                    &self.cat,
                    Command::SetOwned {
                        id,
                        before,
                        after: quantity,
                    },
                );
            }
            Action::Undo => {
                // Typing not yet recorded is the edit to undo.
                self.commit_typing();
                match self.history.undo(&self.cat) {
                    Some(cmd) => {
                        self.status = format!("Undone: {}", cmd.label());
                        self.run_command(&cmd.inverse());
                    }
                    None => self.status = "Nothing to undo.".into(),
                }
            }
            Action::Redo => {
                self.commit_typing();
                match self.history.redo(&self.cat) {
                    Some(cmd) => {
                        self.status = format!("Redone: {}", cmd.label());
                        self.run_command(&cmd);
                    }
                    None => self.status = "Nothing to redo.".into(),
                }
            }
            Action::ShowCard(id) => {
                self.browser.select(&id);
                self.screen = Screen::Browser;
            }
            Action::Print(ids) => {
                self.print.ids = ids;
                self.print.preview_index = 0;
                self.screen = Screen::Print;
            }
            Action::AddToPrint(src) => {
                let (what, ids) = match src {
                    PrintSource::Cards(ids) => ("the cards picked".to_string(), ids),
                    PrintSource::SearchResults => {
                        ("the search result".to_string(), self.browser.result_ids())
                    }
                    PrintSource::Builder(screen) => (
                        format!("the {}", screen.title().to_lowercase()),
                        self.selection_of(screen),
                    ),
                };
                let n = ids.len();
                let added = core::add_to_print(&mut self.print.ids, ids);
                self.status = if n == 0 {
                    format!("Nothing to add: {what} has no cards.")
                } else {
                    format!(
                        "Added {} from {what} to the print selection ({} already in it).",
                        crate::count(added as u64, "card", "cards"),
                        n - added
                    )
                };
            }
            Action::Save(slot) => self.save(slot),
            Action::StoreSaved { kind, name, body } => {
                if let Err(e) = self.cat.save_doc(kind, &name, &body) {
                    self.error = Some(format!("“{name}” was not saved: {e}"));
                }
            }
            Action::ImportCards(paths) => match core::import_cards(&mut self.cat, &paths) {
                Ok(m) => {
                    self.status = m;
                    self.cards_changed();
                }
                Err(e) => self.error = Some(format!("Nothing was imported.\n{}", e.chain())),
            },
            Action::ExportCards(dir) => match core::export_cards(&self.cat, &dir) {
                Ok(m) => self.status = m,
                Err(e) => {
                    self.error = Some(format!(
                        "Nothing was exported to {}.\n{}",
                        dir.display(),
                        e.chain()
                    ))
                }
            },
            Action::ImportCollection(path) => match core::import_collection(&mut self.cat, &path) {
                Ok(m) => {
                    self.status = m;
                    self.browser.requery();
                }
                Err(e) => {
                    self.error = Some(format!("The collection was not changed.\n{}", e.chain()))
                }
            },
            Action::ExportCollection(path) => match core::export_collection(&self.cat, &path) {
                Ok(m) => self.status = m,
                Err(e) => {
                    self.error = Some(format!(
                        "{} was not written.\n{}",
                        path.display(),
                        e.chain()
                    ))
                }
            },
            Action::ImportSheet(path) => match core::import_sheet(&mut self.cat, &path) {
                Ok(m) => {
                    self.status = m;
                    self.cards_changed();
                }
                Err(e) => self.error = Some(format!("Nothing was imported.\n{e}")),
            },
            Action::ExportSheet(path) => {
                let ids: Vec<String> = self.browser.rows().iter().map(|r| r.id.clone()).collect();
                match core::export_sheet(&self.cat, &ids, &path) {
                    Ok(m) => self.status = m,
                    Err(e) => self.error = Some(e),
                }
            }
            Action::SetCardKey { id, key, value } => {
                match core::set_card_key(&mut self.cat, &id, &key, &value) {
                    Ok((before, after)) if before != after => {
                        self.status = format!("Set {key} of {id}.");
                        let _ = self
                            .history
                            .record(&self.cat, Command::SetCard { id, before, after });
                        self.cards_changed();
                    }
                    Ok(_) => {}
                    Err(e) => {
                        self.error = Some(format!("{id} was not changed.\n{e}"));
                        self.cards_changed();
                    }
                }
            }
            Action::Notify(m) => self.status = m,
            Action::Error(e) => self.error = Some(e),
        }
    }

    fn cards_changed(&mut self) {
        self.browser.requery();
        self.names.clear();
        self.generation += 1;
    }

    fn run_command(&mut self, cmd: &Command) {
        match cmd {
            Command::SetOwned { id, after, .. } => {
                if core::set_owned(&mut self.cat, id, *after).is_ok() {
                    self.browser.owned_changed(id, *after);
                }
            }
            Command::SetCard { after, .. } => match core::save_card(&mut self.cat, after) {
                Ok(_) => self.cards_changed(),
                Err(e) => self.error = Some(e.chain()),
            },
            Command::EditCard { after, .. } => {
                self.editor.load(after);
                let _ = self.cat.set_state(CARD_DRAFT, after);
                self.screen = Screen::Card;
            }
            Command::Edit { slot, after, .. } => {
                if self.docs.set_toml(*slot, after).is_ok() {
                    self.store_draft(*slot);
                    self.screen = match slot {
                        Slot::PartyA | Slot::PartyB => Screen::Party,
                        Slot::Character => Screen::Character,
                        Slot::Setup => Screen::Setup,
                        Slot::Squad => Screen::Squad,
                    };
                }
            }
        }
    }

    /// Records the card editor's pending typing as one undoable edit.
    fn commit_typing(&mut self) {
        if let Some((before, after)) = self.editor.commit() {
            self.record_card_edit(editor::TYPING.into(), before, after);
        }
    }

    /// Keeps the card editor's text as its draft and records the edit for undo.
    fn record_card_edit(&mut self, label: String, before: String, after: String) {
        if let Err(e) = self.cat.set_state(CARD_DRAFT, &after) {
            // The edit stands; only its crash copy is missing: say so rather than lose it quietly.
            self.status = format!(
                "The card's draft is not kept (a crash would lose it): {}",
                crate::error_chain(&e)
            );
        }
        if let Err(e) = self.history.record(
            &self.cat,
            Command::EditCard {
                label,
                before,
                after,
            },
        ) {
            self.status = format!("The edit is made but not kept for undo: {e}");
        }
    }

    fn store_draft(&self, slot: Slot) {
        let _ = self
            .cat
            .set_state(&draft_key(slot), &self.docs.get_toml(slot));
    }

    /// Saves the document in `slot` in the catalogue under its name.
    pub fn save(&mut self, slot: Slot) {
        let name = self.docs.name(slot).trim().to_string();
        if name.is_empty() {
            self.error = Some("Give the document a name before saving it.".into());
            return;
        }
        match self
            .cat
            .save_doc(slot.kind(), &name, &self.docs.get_toml(slot))
        {
            Ok(()) => {
                self.status = format!("Saved {} “{name}” in the catalogue.", slot.kind().as_str())
            }
            Err(e) => self.error = Some(format!("“{name}” was not saved: {e}")),
        }
    }

    /// True when the document in `slot` differs from its saved copy (or was never saved).
    pub fn unsaved(&self, slot: Slot) -> bool {
        let name = self.docs.name(slot).trim();
        self.cat
            .load_doc(slot.kind(), name)
            .ok()
            .flatten()
            .as_deref()
            != Some(self.docs.get_toml(slot).as_str())
    }
}

/// The key of the card editor's draft among the catalogue's app state.
const CARD_DRAFT: &str = "draft.card";

fn draft_key(slot: Slot) -> String {
    format!("draft.{}", slot.key())
}

/// What a screen may use while it draws: the catalogue to read, and the action queue.
pub struct Env<'a> {
    pub cat: &'a Catalogue,
    pub docs: &'a Docs,
    /// Card names, looked up once.
    pub names: &'a cache::CardNames,
    /// Changes when the catalogue's cards change (cached verdicts are then stale).
    pub generation: u64,
    pub actions: &'a mut Vec<Action>,
}

impl Env<'_> {
    pub fn push(&mut self, action: Action) {
        self.actions.push(action);
    }

    /// The name of card `id`, or `None` when the catalogue has no such card.
    pub fn card_name(&self, id: &str) -> Option<String> {
        self.names.name(self.cat, id)
    }

    /// The name of card `id`, or the id marked as missing.
    pub fn name_or_missing(&self, id: &str) -> String {
        self.card_name(id)
            .unwrap_or_else(|| format!("{id} (not in the catalogue)"))
    }
}

impl eframe::App for DeckwrightApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.ui_root(ui);
    }

    fn save(&mut self, _storage: &mut dyn eframe::Storage) {
        // On quit too: the card editor's last keystrokes are kept in its draft.
        self.commit_typing();
        self.persist();
    }
}

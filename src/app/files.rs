//! Files from the app: the File menu (import card files and folders, collection CSV,
//! export), and opening and exporting documents, through the system's file dialogs.
//!
//! Every file dialog goes through [`ask`]: the system's dialog (rfd: the desktop portal, then
//! zenity) when one can open, else an in-app path field (a small modal with the current
//! directory, the path checked before it is taken), and the status line says why. What to
//! do with the chosen path is handed in with the question, so the answer may come at once
//! or frames later. The backend is replaceable ([`set_backend`]): tests run without one.

use crate::app::commands::UiCommand;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::docs::{Docs, Slot, TomlDoc};
use super::{Action, Env};
use crate::catalogue::Catalogue;
use crate::catalogue::saved::DocKind;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::setup::SetupFile;

/// What a dialog asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Want {
    /// An existing file.
    File,
    /// One or more existing files.
    Files,
    /// An existing folder.
    Folder,
    /// A file to write (it may exist: it is replaced).
    Save,
}

/// A file dialog's question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dialog {
    pub want: Want,
    /// (name, extensions without the dot); the first is the default.
    pub filters: Vec<(String, Vec<String>)>,
    /// The proposed file name of a save.
    pub file_name: Option<String>,
}

impl Dialog {
    pub fn new(want: Want) -> Dialog {
        Dialog {
            want,
            filters: Vec::new(),
            file_name: None,
        }
    }

    /// A file to write, proposed as `name`.
    pub fn save(name: impl Into<String>) -> Dialog {
        Dialog {
            file_name: Some(name.into()),
            ..Dialog::new(Want::Save)
        }
    }

    pub fn filter(mut self, name: &str, extensions: &[&str]) -> Dialog {
        self.filters.push((
            name.into(),
            extensions.iter().map(|e| e.to_string()).collect(),
        ));
        self
    }

    /// What the dialog asks, in words.
    pub fn title(&self) -> &'static str {
        match self.want {
            Want::File => "Open a file",
            Want::Files => "Open files",
            Want::Folder => "Choose a folder",
            Want::Save => "Save as",
        }
    }

    fn rfd(&self) -> rfd::FileDialog {
        let mut d = rfd::FileDialog::new().set_title(self.title());
        for (name, ext) in &self.filters {
            d = d.add_filter(name, ext);
        }
        if let Some(n) = &self.file_name {
            d = d.set_file_name(n);
        }
        d
    }
}

/// What a dialog backend answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Chosen(Vec<PathBuf>),
    Cancelled,
    /// No dialog could open (why, in words).
    Unavailable(String),
}

/// Shows a file dialog: the system's, or a stand-in in tests.
pub trait Backend: Send + Sync {
    fn ask(&self, dialog: &Dialog) -> Answer;
}

/// The system's file dialogs through rfd (the desktop portal, then zenity).
pub struct SystemDialogs;

/// A dialog that closes sooner than this was never shown: rfd answers "nothing chosen" both
/// when the person cancels and when neither the portal nor zenity could open, and nobody
/// cancels a dialog this fast.
const AT_ONCE: Duration = Duration::from_millis(150);

impl Backend for SystemDialogs {
    fn ask(&self, dialog: &Dialog) -> Answer {
        if let Some(why) = no_desktop() {
            return Answer::Unavailable(why);
        }
        let started = Instant::now();
        let d = dialog.rfd();
        let chosen = match dialog.want {
            Want::File => d.pick_file().map(|p| vec![p]),
            Want::Files => d.pick_files(),
            Want::Folder => d.pick_folder().map(|p| vec![p]),
            Want::Save => d.save_file().map(|p| vec![p]),
        };
        match chosen {
            Some(p) if !p.is_empty() => Answer::Chosen(p),
            _ if started.elapsed() < AT_ONCE => Answer::Unavailable(
                "the system file dialog closed at once (no desktop portal or zenity answered)"
                    .into(),
            ),
            _ => Answer::Cancelled,
        }
    }
}

/// Why no system dialog can open here, when that is plain before trying: on Linux and the
/// BSDs, no session bus (the portal's way in) and no `zenity` on the `PATH`.
fn no_desktop() -> Option<String> {
    if !cfg!(unix) || cfg!(target_os = "macos") {
        return None;
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some()
        || std::env::var_os("XDG_RUNTIME_DIR").is_some_and(|d| Path::new(&d).join("bus").exists());
    let zenity = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("zenity").is_file()));
    (!bus && !zenity)
        .then(|| "no desktop portal (no session bus) and no zenity to show a file dialog".into())
}

/// No system dialog at all: every question goes to the in-app path field.
pub struct NoDialogs;

impl Backend for NoDialogs {
    fn ask(&self, _: &Dialog) -> Answer {
        Answer::Unavailable("file dialogs are turned off".into())
    }
}

/// What is done with the chosen paths (the catalogue at hand): the actions to apply.
pub type Then = Box<dyn FnOnce(&Catalogue, Vec<PathBuf>) -> Vec<Action> + Send>;

/// A question waiting in the in-app path field.
struct Pending {
    dialog: Dialog,
    text: String,
    error: Option<String>,
    /// What the field last did that is not an error (a folder made).
    note: Option<String>,
    /// The path field has been given the keyboard focus once.
    focused: bool,
    then: Then,
}

#[derive(Default)]
struct State {
    backend: Option<Arc<dyn Backend>>,
    pending: Option<Pending>,
}

type Shared = Arc<Mutex<State>>;

fn shared(ctx: &egui::Context) -> Shared {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Shared>(egui::Id::unique("deckwright-file-dialogs"))
            .clone()
    })
}

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// Replaces the dialog backend of the app drawn in `ctx` (the system's by default).
pub fn set_backend(ctx: &egui::Context, backend: Arc<dyn Backend>) {
    lock(&shared(ctx)).backend = Some(backend);
}

/// True while the in-app path field waits for an answer.
pub fn path_field_open(ctx: &egui::Context) -> bool {
    lock(&shared(ctx)).pending.is_some()
}

/// Asks the app's dialog backend (the system's unless replaced) for a path to put in a
/// path field the caller shows beside its button: the answer as it is, no in-app field.
pub fn ask_for_field(ctx: &egui::Context, dialog: &Dialog) -> Answer {
    let backend = lock(&shared(ctx)).backend.clone();
    match backend {
        Some(b) => b.ask(dialog),
        None => SystemDialogs.ask(dialog),
    }
}

/// Asks for a path with `dialog`; `then` makes the actions of the answer (at once from the
/// system's dialog, or when the in-app path field is answered). When no dialog can open,
/// the status line says so and the path field opens.
pub fn ask(
    ctx: &egui::Context,
    env: &mut Env,
    dialog: Dialog,
    then: impl FnOnce(&Catalogue, Vec<PathBuf>) -> Vec<Action> + Send + 'static,
) {
    let s = shared(ctx);
    match ask_for_field(ctx, &dialog) {
        Answer::Chosen(paths) => env.actions.extend(then(env.cat, paths)),
        Answer::Cancelled => {}
        Answer::Unavailable(why) => {
            env.push(Action::Notify(format!(
                "The file dialog cannot open: {why}. Type the path instead."
            )));
            let text = dialog.file_name.clone().unwrap_or_default();
            lock(&s).pending = Some(Pending {
                dialog,
                text,
                error: None,
                note: None,
                focused: false,
                then: Box::new(then),
            });
        }
    }
}

/// The path typed for `dialog`, relative to `cwd` unless absolute, when it fits: an existing
/// file to open, an existing folder, or a file to write in an existing folder (the first
/// filter's extension added to a name without one).
pub fn check_path(dialog: &Dialog, text: &str, cwd: &Path) -> Result<PathBuf, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("Type a path.".into());
    }
    let mut path = cwd.join(text);
    match dialog.want {
        Want::File | Want::Files => {
            if !path.is_file() {
                return Err(format!("{} is not a file.", path.display()));
            }
        }
        Want::Folder => {
            if !path.is_dir() {
                return Err(format!("{} is not a folder.", path.display()));
            }
        }
        Want::Save => {
            if path.is_dir() || text.ends_with(['/', '\\']) {
                return Err(format!("{} is a folder: add a file name.", path.display()));
            }
            if path.extension().is_none()
                && let Some(ext) = dialog.filters.first().and_then(|f| f.1.first())
            {
                path.set_extension(ext);
            }
            let parent = path.parent().unwrap_or(cwd);
            if !parent.is_dir() {
                return Err(format!("The folder {} does not exist.", parent.display()));
            }
        }
    }
    Ok(path)
}

/// Makes the folder the path field names (relative to `cwd`), then leaves the field in it:
/// `folder/`, and for a save the proposed file name after it.
fn new_folder(p: &mut Pending, cwd: &Path) {
    let text = p.text.trim().trim_end_matches(['/', '\\']).to_string();
    if text.is_empty() {
        p.error = Some("Type the new folder's path first.".into());
        return;
    }
    let path = cwd.join(&text);
    match crate::safe_io::create_folder(&path) {
        Ok(()) => {
            p.error = None;
            p.note = Some(format!("Made the folder {}.", path.display()));
            p.text = format!("{text}{}", std::path::MAIN_SEPARATOR);
            if p.dialog.want == Want::Save
                && let Some(name) = &p.dialog.file_name
            {
                p.text.push_str(name);
            }
        }
        Err(e) => {
            p.note = None;
            p.error = Some(format!("The folder was not made: {e}."));
        }
    }
}

/// The in-app path field, when a dialog could not open: the actions of its answer.
pub fn path_field_ui(ctx: &egui::Context, cat: &Catalogue) -> Vec<Action> {
    let s = shared(ctx);
    let mut state = lock(&s);
    let Some(p) = state.pending.as_mut() else {
        return Vec::new();
    };
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let (mut ok, mut cancel) = (false, false);
    let modal = egui::Modal::new(egui::Id::unique("file-path-field")).show(ctx, |ui| {
        ui.set_max_width(560.0);
        ui.heading(p.dialog.title());
        ui.label("The system's file dialog cannot open here: type the path.");
        ui.weak(format!("Relative to {}", cwd.display()));
        if !p.dialog.filters.is_empty() {
            let kinds: Vec<String> = p
                .dialog
                .filters
                .iter()
                .map(|(n, e)| format!("{n} (.{})", e.join(", .")))
                .collect();
            ui.weak(format!("Files: {}", kinds.join("; ")));
        }
        ui.horizontal(|ui| {
            let label = ui.label("Path");
            let r = ui
                .add(egui::TextEdit::singleline(&mut p.text).desired_width(440.0))
                .labelled_by(label.id);
            // Typing goes to the field as soon as it opens.
            if !p.focused {
                r.request_focus();
                p.focused = true;
            }
            if r.changed() {
                p.error = None;
                p.note = None;
            }
            if UiCommand::Confirm.confirmed(ui, &r) {
                ok = true;
            }
        });
        if let Some(e) = &p.error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        if let Some(n) = &p.note {
            ui.label(n);
        }
        ui.horizontal(|ui| {
            ok |= ui.button("OK").clicked();
            cancel |= ui.button("Cancel").clicked();
            if ui
                .button("New folder")
                .on_hover_text("Make the folder the path names (in a folder that exists)")
                .clicked()
            {
                new_folder(p, &cwd);
            }
        });
    });
    if cancel || modal.should_close() {
        state.pending = None;
        return Vec::new();
    }
    if !ok {
        return Vec::new();
    }
    match check_path(&p.dialog, &p.text, &cwd) {
        Ok(path) => {
            let p = state.pending.take().expect("checked above");
            drop(state);
            (p.then)(cat, vec![path])
        }
        Err(e) => {
            p.error = Some(e);
            Vec::new()
        }
    }
}

/// The File menu.
pub fn file_menu_ui(ui: &mut egui::Ui, env: &mut Env) {
    let ctx = ui.ctx().clone();
    if item(
        ui,
        "Import card files…",
        "Load card TOML files; one bad file imports none",
    ) {
        let d = Dialog::new(Want::Files).filter("card files", &["toml"]);
        ask(&ctx, env, d, |_, paths| vec![Action::ImportCards(paths)]);
    }
    if item(
        ui,
        "Import card folder…",
        "Load every *.toml under a folder; one bad file imports none",
    ) {
        ask(&ctx, env, Dialog::new(Want::Folder), |_, paths| {
            vec![Action::ImportCards(paths)]
        });
    }
    if item(
        ui,
        "Export cards to folder…",
        "Write every card as DIR/<game>/<id>.toml",
    ) {
        ask(&ctx, env, Dialog::new(Want::Folder), |_, paths| {
            paths.into_iter().map(Action::ExportCards).collect()
        });
    }
    ui.separator();
    if item(
        ui,
        "Import collection CSV…",
        "Owned quantities from a CSV with header id,name,game,quantity",
    ) {
        let d = Dialog::new(Want::File).filter("CSV", &["csv"]);
        ask(&ctx, env, d, |_, paths| {
            paths.into_iter().map(Action::ImportCollection).collect()
        });
    }
    if item(
        ui,
        "Export collection CSV…",
        "Write owned quantities as CSV",
    ) {
        let d = Dialog::save("collection.csv").filter("CSV", &["csv"]);
        ask(&ctx, env, d, |_, paths| {
            paths.into_iter().map(Action::ExportCollection).collect()
        });
    }
    ui.separator();
    if item(
        ui,
        "Import sheet…",
        "Cards from a CSV file or XLSX workbook, one row a card; one bad cell imports none",
    ) {
        let d = Dialog::new(Want::File).filter("spreadsheet", &["xlsx", "csv"]);
        ask(&ctx, env, d, |_, paths| {
            paths.into_iter().map(Action::ImportSheet).collect()
        });
    }
    if item(
        ui,
        "Export sheet…",
        "The browser's search results as rows of an XLSX workbook (a sheet per kind) or a CSV file",
    ) {
        let d = Dialog::save("cards.xlsx")
            .filter("XLSX workbook", &["xlsx"])
            .filter("CSV", &["csv"]);
        ask(&ctx, env, d, |_, paths| {
            paths.into_iter().map(Action::ExportSheet).collect()
        });
    }
    ui.separator();
    if ui.button("Quit").clicked() {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

/// A File-menu entry with its tip; a click closes the menu first.
fn item(ui: &mut egui::Ui, text: &str, tip: &str) -> bool {
    let clicked = ui.button(text).on_hover_text(tip).clicked();
    if clicked {
        ui.close();
    }
    clicked
}

/// Opens a document file into `slot` (an undoable edit). A setup's character files, next
/// to it, are saved in the catalogue as characters so the setup can name them.
pub fn open_doc_file(ctx: &egui::Context, env: &mut Env, slot: Slot) {
    let kind = slot.kind();
    let d = Dialog::new(Want::File).filter(kind.extension(), &["toml"]);
    ask(ctx, env, d, move |_, paths| {
        let mut out = Vec::new();
        for path in paths {
            if slot == Slot::Setup {
                out.extend(setup_characters(&path));
            }
            out.push(open_doc_path(&path, slot));
        }
        out
    });
}

/// The setup file's character reference for a saved character's name.
pub fn character_ref(name: &str) -> String {
    format!(
        "{}{}",
        name.replace(['/', '\\'], "-"),
        DocKind::Character.extension()
    )
}

/// The saved character a setup's `character` entry names (its document text).
pub fn saved_character(cat: &Catalogue, entry: &str) -> Option<String> {
    let names = cat.list_docs(DocKind::Character).ok()?;
    let name = names.into_iter().find(|n| character_ref(n) == entry)?;
    cat.load_doc(DocKind::Character, &name).ok().flatten()
}

/// A party, character, setup or squad file's text: a regular file (a FIFO would hang the
/// app) of at most `safe_io::MAX_BUILD_FILE` bytes.
fn read_doc(path: &std::path::Path) -> Result<String, crate::safe_io::InputError> {
    crate::safe_io::read_text(
        path,
        crate::safe_io::MAX_BUILD_FILE,
        "party, character, setup and squad files",
    )
}

/// Actions saving the character files a setup file names (read next to it) as catalogue
/// characters; unreadable ones give an error naming the file.
pub fn setup_characters(path: &std::path::Path) -> Vec<Action> {
    let Ok(text) = read_doc(path) else {
        return Vec::new();
    };
    let Ok(setup) = <SetupFile as TomlDoc>::from_toml(&text) else {
        return Vec::new();
    };
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let mut out = Vec::new();
    for p in setup.players.iter().filter(|p| !p.character.is_empty()) {
        let file = dir.join(&p.character);
        match read_doc(&file) {
            Ok(body) => match <CharacterFile as TomlDoc>::from_toml(&body) {
                Ok(mut c) => {
                    // The setup names the file: the saved character takes the file's name.
                    let stem = file_stem(std::path::Path::new(&p.character), DocKind::Character);
                    c.name = stem.clone();
                    out.push(Action::StoreSaved {
                        kind: DocKind::Character,
                        name: stem,
                        body: c.to_toml(),
                    });
                }
                Err(e) => out.push(Action::Error(format!("{}: {e}", file.display()))),
            },
            Err(e) => out.push(Action::Error(format!(
                "cannot read the character file: {}",
                crate::error_chain(&e)
            ))),
        }
    }
    out
}

/// The action that opens the document file at `path` into `slot`: an edit, or an error
/// naming the file, line and column.
pub fn open_doc_path(path: &std::path::Path, slot: Slot) -> Action {
    let text = match read_doc(path) {
        Ok(t) => t,
        Err(e) => return Action::Error(crate::error_chain(&e)),
    };
    let mut probe = Docs::default();
    match probe.read(slot, &text, &path.display().to_string()) {
        Ok(()) => {
            let mut after = probe.get_toml(slot);
            // A file without a name takes the file's.
            if probe.name(slot).trim().is_empty() || slot == Slot::Setup {
                let stem = file_stem(path, slot.kind());
                if probe.name(slot).trim().is_empty() {
                    let _ = set_name(&mut probe, slot, &stem);
                    after = probe.get_toml(slot);
                }
            }
            Action::Edit {
                slot,
                label: format!("open {}", path.display()),
                after,
            }
        }
        // The reader's message names the file, line, column and key.
        Err(e) => Action::Error(e.to_string()),
    }
}

/// A document file's name without its kind's extension (`Raiders` for
/// `Raiders.party.toml`); empty for none.
fn file_stem(path: &std::path::Path, kind: DocKind) -> String {
    path.file_name()
        .and_then(|n| n.to_str())
        .map(|n| n.trim_end_matches(kind.extension()).to_string())
        .unwrap_or_default()
}

fn set_name(docs: &mut Docs, slot: Slot, name: &str) -> Option<()> {
    match slot {
        Slot::PartyA => docs.party_a.name = name.into(),
        Slot::PartyB => docs.party_b.name = name.into(),
        Slot::Character => docs.character.name = name.into(),
        Slot::Setup => docs.setup.name = name.into(),
        Slot::Squad => docs.squad.name = name.into(),
    }
    Some(())
}

/// Exports a document to a file the user chooses (a setup with its characters beside it).
pub fn export_doc_file(ctx: &egui::Context, env: &mut Env, slot: Slot, toml: &str, name: &str) {
    let kind = slot.kind();
    let file = format!("{}{}", sanitize(name), kind.extension());
    let (toml, setup) = (toml.to_string(), env.docs.setup.clone());
    ask(ctx, env, Dialog::save(file), move |cat, paths| {
        let mut out = Vec::new();
        for path in paths {
            if slot == Slot::Setup {
                out.extend(export_setup_characters(cat, &setup, &path));
            }
            out.push(write_doc(&path, &toml));
        }
        out
    });
}

/// Writes the saved characters a setup names next to the setup file at `path`.
pub fn export_setup_characters(
    cat: &Catalogue,
    setup: &SetupFile,
    path: &std::path::Path,
) -> Vec<Action> {
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    setup
        .players
        .iter()
        .filter(|p| !p.character.is_empty())
        .filter_map(|p| {
            let body = saved_character(cat, &p.character)?;
            let file = std::path::Path::new(&p.character).file_name()?;
            Some(write_doc(&dir.join(file), &body))
        })
        .collect()
}

/// Writes a document file (to a temporary file first, so nothing is left half written).
pub fn write_doc(path: &std::path::Path, toml: &str) -> Action {
    match crate::catalogue::write_atomic(path, toml.as_bytes()) {
        Ok(()) => Action::Notify(format!("Wrote {}", path.display())),
        Err(e) => Action::Error(format!("{}: cannot write the file: {e}", path.display())),
    }
}

/// A file name from a document name.
pub fn sanitize(name: &str) -> String {
    let s: String = name
        .trim()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let s = s.trim_matches('-').to_string();
    if s.is_empty() { "untitled".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typed_path_is_checked_for_what_the_dialog_asks() {
        let dir = tempfile::tempdir().unwrap();
        let cwd = dir.path();
        std::fs::write(cwd.join("cards.toml"), "x").unwrap();
        std::fs::create_dir(cwd.join("sub")).unwrap();
        let open = Dialog::new(Want::File);
        assert_eq!(
            check_path(&open, " cards.toml ", cwd),
            Ok(cwd.join("cards.toml"))
        );
        assert!(
            check_path(&open, "sub", cwd).is_err(),
            "a folder is no file"
        );
        assert!(check_path(&open, "gone.toml", cwd).is_err());
        assert!(check_path(&open, "", cwd).is_err());
        let folder = Dialog::new(Want::Folder);
        assert_eq!(check_path(&folder, "sub", cwd), Ok(cwd.join("sub")));
        assert!(check_path(&folder, "cards.toml", cwd).is_err());
        let save = Dialog::save("field.csv").filter("CSV", &["csv"]);
        assert_eq!(check_path(&save, "out", cwd), Ok(cwd.join("out.csv")));
        assert_eq!(
            check_path(&save, "sub/t.txt", cwd),
            Ok(cwd.join("sub").join("t.txt"))
        );
        assert!(
            check_path(&save, "sub", cwd).is_err(),
            "a folder is no file name"
        );
        assert!(check_path(&save, "nowhere/out.csv", cwd).is_err());
        let abs = cwd.join("sub").join("abs.csv");
        assert_eq!(
            check_path(&save, abs.to_str().unwrap(), Path::new("/elsewhere")),
            Ok(abs)
        );
    }
}

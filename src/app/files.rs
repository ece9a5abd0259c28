//! Files from the app: the File menu (import card files and folders, collection CSV,
//! export), and opening and exporting documents, through the system's file dialogs.

use super::docs::{Docs, Slot, TomlDoc};
use super::{Action, Env};
use crate::catalogue::Catalogue;
use crate::catalogue::saved::DocKind;
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::setup::SetupFile;

/// The File menu.
pub fn file_menu_ui(ui: &mut egui::Ui, env: &mut Env) {
    if item(
        ui,
        "Import card files…",
        "Load card TOML files; one bad file imports none",
    ) && let Some(paths) = rfd::FileDialog::new()
        .add_filter("card files", &["toml"])
        .pick_files()
    {
        env.push(Action::ImportCards(paths));
    }
    if item(
        ui,
        "Import card folder…",
        "Load every *.toml under a folder; one bad file imports none",
    ) && let Some(dir) = rfd::FileDialog::new().pick_folder()
    {
        env.push(Action::ImportCards(vec![dir]));
    }
    if item(
        ui,
        "Export cards to folder…",
        "Write every card as DIR/<game>/<id>.toml",
    ) && let Some(dir) = rfd::FileDialog::new().pick_folder()
    {
        env.push(Action::ExportCards(dir));
    }
    ui.separator();
    if item(
        ui,
        "Import collection CSV…",
        "Owned quantities from a CSV with header id,name,game,quantity",
    ) && let Some(path) = rfd::FileDialog::new()
        .add_filter("CSV", &["csv"])
        .pick_file()
    {
        env.push(Action::ImportCollection(path));
    }
    if item(
        ui,
        "Export collection CSV…",
        "Write owned quantities as CSV",
    ) && let Some(path) = rfd::FileDialog::new()
        .add_filter("CSV", &["csv"])
        .set_file_name("collection.csv")
        .save_file()
    {
        env.push(Action::ExportCollection(path));
    }
    ui.separator();
    if item(
        ui,
        "Import sheet…",
        "Cards from a CSV file or XLSX workbook, one row a card; one bad cell imports none",
    ) && let Some(path) = rfd::FileDialog::new()
        .add_filter("spreadsheet", &["xlsx", "csv"])
        .pick_file()
    {
        env.push(Action::ImportSheet(path));
    }
    if item(
        ui,
        "Export sheet…",
        "The browser's search results as rows of an XLSX workbook (a sheet per kind) or a CSV file",
    ) && let Some(path) = rfd::FileDialog::new()
        .add_filter("XLSX workbook", &["xlsx"])
        .add_filter("CSV", &["csv"])
        .set_file_name("cards.xlsx")
        .save_file()
    {
        env.push(Action::ExportSheet(path));
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
pub fn open_doc_file(env: &mut Env, slot: Slot) {
    let kind = slot.kind();
    let Some(path) = rfd::FileDialog::new()
        .add_filter(kind.extension(), &["toml"])
        .pick_file()
    else {
        return;
    };
    if slot == Slot::Setup {
        for a in setup_characters(&path) {
            env.push(a);
        }
    }
    env.push(open_doc_path(&path, slot));
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
pub fn export_doc_file(env: &mut Env, slot: Slot, toml: &str, name: &str) {
    let kind = slot.kind();
    let file = format!("{}{}", sanitize(name), kind.extension());
    let Some(path) = rfd::FileDialog::new().set_file_name(&file).save_file() else {
        return;
    };
    if slot == Slot::Setup {
        for a in export_setup_characters(env.cat, &env.docs.setup, &path) {
            env.push(a);
        }
    }
    env.push(write_doc(&path, toml));
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

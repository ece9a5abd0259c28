//! What the app shows when its catalogue cannot be opened: the same message as the command
//! line (the whole chain of causes), and for a damaged catalogue with a backup that passes
//! its check, a Restore button (`catalogue::restore_file`: the damaged file is kept beside
//! it). A read-only folder, a full disk or a newer schema offer no restore: the catalogue
//! is not damaged, and the message says what to do instead.

use std::path::{Path, PathBuf};

use crate::catalogue::{self, Backup, Catalogue, CatalogueError};

/// The recovery screen's state.
pub struct Recovery {
    db: PathBuf,
    message: String,
    /// The newest verified backup, offered when the catalogue is damaged.
    backup: Option<Backup>,
    /// What the last Restore did (an error, or how it went).
    outcome: Option<String>,
    opened: Option<Catalogue>,
}

impl Recovery {
    /// The screen for the catalogue at `db` that failed to open with `error`.
    pub fn new(db: &Path, error: &CatalogueError) -> Recovery {
        let backup = if error.is_damage() {
            catalogue::backups(db).pop()
        } else {
            None
        };
        Recovery {
            db: db.to_path_buf(),
            message: crate::error_chain(error),
            backup,
            outcome: None,
            opened: None,
        }
    }

    /// The message shown.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The backup a Restore would use, if one is offered.
    pub fn offered(&self) -> Option<&Backup> {
        self.backup.as_ref()
    }

    /// The catalogue, once restored and opened (taken once).
    pub fn take_opened(&mut self) -> Option<Catalogue> {
        self.opened.take()
    }

    /// Draws the screen.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        egui::CentralPanel::default().show(ui, |ui| {
            ui.heading("The catalogue cannot be opened");
            ui.add_space(8.0);
            ui.label(egui::RichText::new(&self.message).color(ui.visuals().error_fg_color));
            ui.add_space(8.0);
            if let Some(b) = self.backup.clone() {
                ui.label(format!(
                    "Backup {} passes its check (schema {}). Restoring it keeps the damaged file beside it.",
                    b.path.display(),
                    b.schema
                ));
                if ui.button("Restore").on_hover_text("Replace the catalogue by this backup").clicked() {
                    self.restore(&b.path);
                }
            }
            if let Some(o) = &self.outcome {
                ui.label(o);
            }
        });
    }

    fn restore(&mut self, from: &Path) {
        match catalogue::restore_file(&self.db, Some(from)).and_then(|_| Catalogue::open(&self.db))
        {
            Ok(cat) => self.opened = Some(cat),
            Err(e) => {
                self.outcome = Some(format!("Nothing was restored: {}", crate::error_chain(&e)))
            }
        }
    }
}

//! The card editor's Playtest notes: the notes kept in the match files of a folder the
//! person chooses (`deckwright host ... --record`, `join --record`, the Match screen's Save)
//! that mention the card being edited, by name. The folder is read on its own thread
//! (`games::record::notes_in_folder`), once a folder is chosen or Reload is clicked; the
//! list is filtered by the card's name as it is typed.

use std::path::PathBuf;
use std::sync::{Arc, Mutex, mpsc};

use crate::app::Env;
use crate::app::files::{Dialog, Want, ask};
use crate::games::record::{FolderNotes, notes_in_folder};

/// What the panel keeps between frames.
#[derive(Default)]
pub struct NotesPanel {
    /// The folder read (or being read).
    folder: Option<PathBuf>,
    /// A folder the dialog answered, taken on the next frame.
    chosen: Arc<Mutex<Option<PathBuf>>>,
    /// The read under way.
    reading: Option<mpsc::Receiver<Result<FolderNotes, String>>>,
    /// The last read's notes, or why the folder could not be read.
    found: Option<Result<FolderNotes, String>>,
}

impl NotesPanel {
    /// Starts reading `folder` on its own thread.
    fn read(&mut self, folder: PathBuf) {
        let (tx, rx) = mpsc::channel();
        let dir = folder.clone();
        std::thread::spawn(move || {
            let _ = tx.send(notes_in_folder(&dir).map_err(|e| e.to_string()));
        });
        self.folder = Some(folder);
        self.reading = Some(rx);
    }

    /// The panel under the card's preview: `name` is the edited card's.
    pub fn ui(&mut self, ui: &mut egui::Ui, env: &mut Env, name: &str) {
        let taken = self.chosen.lock().ok().and_then(|mut c| c.take());
        if let Some(folder) = taken {
            self.read(folder);
        }
        if let Some(rx) = &self.reading {
            match rx.try_recv() {
                Ok(found) => {
                    self.found = Some(found);
                    self.reading = None;
                }
                Err(mpsc::TryRecvError::Empty) => ui.ctx().request_repaint(),
                Err(mpsc::TryRecvError::Disconnected) => self.reading = None,
            }
        }
        egui::CollapsingHeader::new("Playtest notes")
            .id_salt("card-playtest-notes")
            .show(ui, |ui| {
                ui.horizontal_wrapped(|ui| {
                    match &self.folder {
                        Some(f) => ui.weak(format!("From the match files in {}", f.display())),
                        None => ui.weak("Notes written at the table are kept in match files."),
                    };
                    if ui
                        .button("Choose folder…")
                        .on_hover_text("The folder of match files (*.match.toml) to read")
                        .clicked()
                    {
                        let slot = self.chosen.clone();
                        ask(ui.ctx(), env, Dialog::new(Want::Folder), move |_, paths| {
                            if let (Ok(mut s), Some(p)) = (slot.lock(), paths.into_iter().next()) {
                                *s = Some(p);
                            }
                            Vec::new()
                        });
                    }
                    if let Some(f) = self.folder.clone()
                        && self.reading.is_none()
                        && ui.button("Reload").clicked()
                    {
                        self.read(f);
                    }
                });
                if self.reading.is_some() {
                    ui.spinner();
                    return;
                }
                match &self.found {
                    None => {}
                    Some(Err(why)) => {
                        ui.colored_label(
                            ui.visuals().warn_fg_color,
                            format!("The folder cannot be read: {why}"),
                        );
                    }
                    Some(Ok(found)) => {
                        let about = found.mentioning(name);
                        if about.is_empty() {
                            ui.weak(format!("No note mentions {name}."));
                        }
                        for (file, n) in about {
                            ui.label(format!("{file}, step {}, {}: {}", n.step, n.by, n.text));
                        }
                        if !found.unreadable.is_empty() {
                            ui.weak(format!(
                                "{} match files could not be read.",
                                found.unreadable.len()
                            ))
                            .on_hover_text(
                                found
                                    .unreadable
                                    .iter()
                                    .map(|(f, why)| format!("{f}: {why}"))
                                    .collect::<Vec<_>>()
                                    .join("\n"),
                            );
                        }
                    }
                }
            });
    }
}

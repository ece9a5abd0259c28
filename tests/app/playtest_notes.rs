//! The card editor's Playtest notes: the notes of a folder's match files that mention the
//! card being edited, by name, read once the folder is chosen.

use std::path::PathBuf;
use std::sync::Arc;

use deckwright::app::files::{self, Answer, Backend, Dialog};
use deckwright::games::record::{MatchRecord, Note};
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness, type_in_search};

/// A file dialog that always answers this folder.
struct Folder(PathBuf);

impl Backend for Folder {
    fn ask(&self, _: &Dialog) -> Answer {
        Answer::Chosen(vec![self.0.clone()])
    }
}

#[test]
fn the_editor_lists_the_playtest_notes_that_mention_the_card() {
    let dir = tempfile::tempdir().unwrap();
    let mut r = MatchRecord::new("pig", 1);
    r.inputs = vec![0, 0, 0];
    r.notes = vec![
        Note {
            step: 3,
            by: "Player 2".into(),
            text: "Kethra Voss feels too strong here".into(),
        },
        Note {
            step: 1,
            by: "a spectator".into(),
            text: "the dice love Player 1".into(),
        },
    ];
    r.save(&dir.path().join("friday.match.toml")).unwrap();
    std::fs::write(dir.path().join("broken.match.toml"), "format = ").unwrap();

    let mut h = harness(app());
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "Edit card");
    files::set_backend(&h.ctx, Arc::new(Folder(dir.path().to_path_buf())));
    click(&mut h, "Playtest notes");
    h.get_by_label("Choose folder…").click();
    // The folder is read on its own thread: step until its notes are shown (a hang guard).
    let wanted = "friday.match.toml, step 3, Player 2: Kethra Voss feels too strong here";
    crate::support::wait_until(&mut h, "the folder's notes", |h| {
        h.query_by_label(wanted).is_some()
    });
    assert!(h.query_by_label_contains("the dice love").is_none());
    h.get_by_label("1 match files could not be read.");
}

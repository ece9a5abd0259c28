//! Undo and redo: every edit is a [`Command`] that knows how to apply and revert itself;
//! the history of commands is kept in the catalogue (`catalogue::saved`), so it survives a
//! restart.

use serde::{Deserialize, Serialize};

use super::docs::Slot;
use crate::catalogue::Catalogue;
use crate::catalogue::saved;

/// One edit the user made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    /// The owned quantity of a card changed.
    SetOwned { id: String, before: u32, after: u32 },
    /// A document changed: its TOML before and after.
    Edit {
        slot: Slot,
        label: String,
        before: String,
        after: String,
    },
    /// A card in the catalogue changed (the sheet view): its TOML before and after.
    SetCard {
        id: String,
        before: String,
        after: String,
    },
    /// The card editor's text changed: before and after.
    EditCard {
        label: String,
        before: String,
        after: String,
    },
}

impl Command {
    /// The command that reverts this one.
    pub fn inverse(&self) -> Command {
        match self {
            Command::SetOwned { id, before, after } => Command::SetOwned {
                id: id.clone(),
                before: *after,
                after: *before,
            },
            Command::Edit {
                slot,
                label,
                before,
                after,
            } => Command::Edit {
                slot: *slot,
                label: label.clone(),
                before: after.clone(),
                after: before.clone(),
            },
            Command::SetCard { id, before, after } => Command::SetCard {
                id: id.clone(),
                before: after.clone(),
                after: before.clone(),
            },
            Command::EditCard {
                label,
                before,
                after,
            } => Command::EditCard {
                label: label.clone(),
                before: after.clone(),
                after: before.clone(),
            },
        }
    }

    /// What the command did, for the Edit menu ("Undo add member").
    pub fn label(&self) -> String {
        match self {
            Command::SetOwned { id, .. } => format!("owned quantity of {id}"),
            Command::SetCard { id, .. } => format!("edit of {id}"),
            Command::Edit { label, .. } | Command::EditCard { label, .. } => label.clone(),
        }
    }
}

/// The undo and redo stacks, mirrored in the catalogue.
#[derive(Debug, Default)]
pub struct History {
    /// Applied commands, oldest first, with their sequence numbers in the catalogue.
    undo: Vec<(i64, Command)>,
    /// Undone commands, the next to redo last.
    redo: Vec<(i64, Command)>,
}

impl History {
    /// The history stored in the catalogue (rows that no longer read as commands are skipped).
    pub fn load(cat: &Catalogue) -> History {
        let mut h = History::default();
        for row in cat.history().unwrap_or_default() {
            let Ok(cmd) = serde_json::from_str::<Command>(&row.command) else {
                continue;
            };
            if row.done {
                h.undo.push((row.seq, cmd));
            } else {
                h.redo.push((row.seq, cmd));
            }
        }
        h.redo.reverse();
        h
    }

    /// Records a command the caller has just applied. An edit of the same document with the
    /// same label as the last one (typing a name letter by letter) merges into it.
    pub fn record(
        &mut self,
        cat: &Catalogue,
        cmd: Command,
    ) -> Result<(), crate::catalogue::CatalogueError> {
        if let (
            Some((
                seq,
                Command::Edit {
                    slot,
                    label,
                    before,
                    ..
                },
            )),
            Command::Edit {
                slot: s2,
                label: l2,
                after: a2,
                ..
            },
        ) = (self.undo.last(), &cmd)
            && slot == s2
            && label == l2
            && label.starts_with("rename")
            && self.redo.is_empty()
        {
            let merged = Command::Edit {
                slot: *slot,
                label: label.clone(),
                before: before.clone(),
                after: a2.clone(),
            };
            let seq = *seq;
            cat.history_replace(seq, &to_json(&merged))?;
            *self.undo.last_mut().expect("checked") = (seq, merged);
            return Ok(());
        }
        let seq = cat.history_push(&to_json(&cmd))?;
        self.redo.clear();
        self.undo.push((seq, cmd));
        let limit = saved::HISTORY_LIMIT as usize;
        if self.undo.len() > limit {
            self.undo.drain(..self.undo.len() - limit);
        }
        Ok(())
    }

    /// Takes the command to revert (the caller applies its inverse).
    pub fn undo(&mut self, cat: &Catalogue) -> Option<Command> {
        let (seq, cmd) = self.undo.pop()?;
        let _ = cat.history_set_done(seq, false);
        self.redo.push((seq, cmd.clone()));
        Some(cmd)
    }

    /// Takes the command to apply again.
    pub fn redo(&mut self, cat: &Catalogue) -> Option<Command> {
        let (seq, cmd) = self.redo.pop()?;
        let _ = cat.history_set_done(seq, true);
        self.undo.push((seq, cmd.clone()));
        Some(cmd)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
    pub fn next_undo(&self) -> Option<&Command> {
        self.undo.last().map(|(_, c)| c)
    }
    pub fn next_redo(&self) -> Option<&Command> {
        self.redo.last().map(|(_, c)| c)
    }
}

fn to_json(cmd: &Command) -> String {
    serde_json::to_string(cmd).expect("commands serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(label: &str, before: &str, after: &str) -> Command {
        Command::Edit {
            slot: Slot::PartyA,
            label: label.into(),
            before: before.into(),
            after: after.into(),
        }
    }

    #[test]
    fn history_survives_a_reload_with_both_stacks() {
        let cat = Catalogue::open_empty_in_memory().unwrap();
        let mut h = History::default();
        h.record(&cat, edit("add member", "a", "b")).unwrap();
        h.record(&cat, edit("add member", "b", "c")).unwrap();
        assert_eq!(h.undo(&cat), Some(edit("add member", "b", "c")));
        let again = History::load(&cat);
        assert_eq!(again.next_undo(), Some(&edit("add member", "a", "b")));
        assert_eq!(again.next_redo(), Some(&edit("add member", "b", "c")));
    }

    #[test]
    fn renames_merge_and_new_edits_drop_the_redo_stack() {
        let cat = Catalogue::open_empty_in_memory().unwrap();
        let mut h = History::default();
        h.record(&cat, edit("rename", "a", "ab")).unwrap();
        h.record(&cat, edit("rename", "ab", "abc")).unwrap();
        assert_eq!(h.undo(&cat), Some(edit("rename", "a", "abc")));
        assert!(h.can_redo());
        h.record(&cat, edit("add member", "a", "x")).unwrap();
        assert!(!h.can_redo());
        assert_eq!(History::load(&cat).undo.len(), 1);
    }

    #[test]
    fn inverse_swaps_before_and_after() {
        let c = Command::SetOwned {
            id: "x".into(),
            before: 1,
            after: 3,
        };
        assert_eq!(
            c.inverse(),
            Command::SetOwned {
                id: "x".into(),
                before: 3,
                after: 1
            }
        );
        assert_eq!(c.inverse().inverse(), c);
    }
}

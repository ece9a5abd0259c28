-- The desktop app's own storage: saved documents, app state and drafts, undo history.

-- Parties, characters, setups and squads the user saved, as their TOML files.
CREATE TABLE saved_doc (
    kind    TEXT NOT NULL,             -- party | character | setup | squad
    name    TEXT NOT NULL,
    body    TEXT NOT NULL,             -- the document's TOML file
    saved   INTEGER NOT NULL DEFAULT (strftime('%s', 'now')),
    PRIMARY KEY (kind, name)
);

-- The app's last state (screen, theme, search, selection) and the drafts being edited.
CREATE TABLE app_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

-- Undo history: one command a row, oldest first. `done` = 1 for applied commands
-- (the undo stack), 0 for undone ones (the redo stack).
CREATE TABLE undo_history (
    seq     INTEGER PRIMARY KEY AUTOINCREMENT,
    command TEXT NOT NULL,             -- the command as JSON
    done    INTEGER NOT NULL DEFAULT 1 CHECK (done IN (0, 1))
);

-- The catalogue: cards of every game, their searchable fields, free-text index, collection.

-- One row a card. `body` is the card's canonical TOML (what `cards export` writes back).
CREATE TABLE card (
    rowid   INTEGER PRIMARY KEY,
    id      TEXT NOT NULL UNIQUE,
    game    TEXT NOT NULL,
    kind    TEXT NOT NULL,
    name    TEXT NOT NULL,
    body    TEXT NOT NULL,
    -- every text of the card joined by newlines (action, skill, flavour texts...)
    texts   TEXT NOT NULL DEFAULT ''
);
CREATE INDEX card_game_kind ON card(game, kind);
CREATE INDEX card_name ON card(name COLLATE NOCASE);

-- Every top-level key of a card's format, one row per value (lists give one row per member).
-- `text` holds string values (lower-cased), `num` numeric ones.
CREATE TABLE card_field (
    card  INTEGER NOT NULL REFERENCES card(rowid) ON DELETE CASCADE,
    key   TEXT NOT NULL,
    text  TEXT,
    num   REAL
);
CREATE INDEX card_field_text ON card_field(key, text, card);
CREATE INDEX card_field_num ON card_field(key, num, card);
CREATE INDEX card_field_card ON card_field(card);

-- Free text over names and texts, prefix matching.
CREATE VIRTUAL TABLE card_fts USING fts5(name, texts, content='card', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2', prefix='2 3');
CREATE TRIGGER card_ai AFTER INSERT ON card BEGIN
    INSERT INTO card_fts(rowid, name, texts) VALUES (new.rowid, new.name, new.texts);
END;
CREATE TRIGGER card_ad AFTER DELETE ON card BEGIN
    INSERT INTO card_fts(card_fts, rowid, name, texts) VALUES ('delete', old.rowid, old.name, old.texts);
END;
CREATE TRIGGER card_au AFTER UPDATE ON card BEGIN
    INSERT INTO card_fts(card_fts, rowid, name, texts) VALUES ('delete', old.rowid, old.name, old.texts);
    INSERT INTO card_fts(rowid, name, texts) VALUES (new.rowid, new.name, new.texts);
END;

-- Owned quantities, by card id (kept when a card is re-imported).
CREATE TABLE collection (
    card_id  TEXT PRIMARY KEY,
    quantity INTEGER NOT NULL CHECK (quantity >= 0)
);

-- Catalogue-wide settings and facts (e.g. the Iconoclasm clash table, bundled-cards version).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

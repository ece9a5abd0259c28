-- Search (owned by the search module): owned cards in name order. A limited search that
-- needs an owned card (`health>=100 owned>=2`) reads its window from this index: the first
-- owned cards by name (as the catalogue sorts them: name COLLATE NOCASE, then id), not the
-- first cards by name, of which most are not owned. card_owned keeps a copy of its card's
-- name and id for it, set by the triggers below whenever a row is written or its card
-- renamed.
ALTER TABLE card_owned ADD COLUMN name TEXT;
ALTER TABLE card_owned ADD COLUMN id TEXT;
UPDATE card_owned SET (name, id) = (SELECT name, id FROM card WHERE card.rowid = card_owned.card);

-- Every writer of card_owned (the 0015 triggers) inserts: the new row takes its card's name.
CREATE TRIGGER IF NOT EXISTS card_owned_named AFTER INSERT ON card_owned BEGIN
    UPDATE card_owned SET (name, id) = (SELECT name, id FROM card WHERE rowid = new.card)
        WHERE card = new.card;
END;
CREATE TRIGGER IF NOT EXISTS card_owned_renamed AFTER UPDATE OF name, id ON card BEGIN
    UPDATE card_owned SET name = new.name, id = new.id WHERE card = new.rowid;
END;

CREATE INDEX IF NOT EXISTS card_owned_name ON card_owned(name COLLATE NOCASE, id, quantity);

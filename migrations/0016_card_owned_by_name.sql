-- Search (owned by the search module): owned cards in name order. A limited search that
-- needs an owned card (`health>=100 owned>=2`) reads its window from the index below: the
-- first owned cards by name (as the catalogue sorts them: name COLLATE NOCASE, then id),
-- not the first cards by name, of which most are not owned. Each card_owned row keeps a
-- copy of what the window reads from its card (as card_search_scan holds for every card),
-- so the window is one scan of the index with no seek per card. The triggers below set the
-- copy whenever a row is written (every writer of card_owned, the 0015 triggers, inserts)
-- and whenever its card changes.
ALTER TABLE card_owned ADD COLUMN id TEXT;
ALTER TABLE card_owned ADD COLUMN game TEXT;
ALTER TABLE card_owned ADD COLUMN kind TEXT;
ALTER TABLE card_owned ADD COLUMN name TEXT;
ALTER TABLE card_owned ADD COLUMN search_words TEXT;
ALTER TABLE card_owned ADD COLUMN search_fields TEXT;
UPDATE card_owned SET (id, game, kind, name, search_words, search_fields) =
    (SELECT id, game, kind, name, search_words, search_fields FROM card WHERE card.rowid = card_owned.card);

CREATE TRIGGER IF NOT EXISTS card_owned_copy AFTER INSERT ON card_owned BEGIN
    UPDATE card_owned SET (id, game, kind, name, search_words, search_fields) =
        (SELECT id, game, kind, name, search_words, search_fields FROM card WHERE rowid = new.card)
        WHERE card = new.card;
END;
CREATE TRIGGER IF NOT EXISTS card_owned_copy_au
    AFTER UPDATE OF id, game, kind, name, search_words, search_fields ON card BEGIN
    UPDATE card_owned SET id = new.id, game = new.game, kind = new.kind, name = new.name,
        search_words = new.search_words, search_fields = new.search_fields
        WHERE card = new.rowid;
END;

CREATE INDEX IF NOT EXISTS card_owned_name
    ON card_owned(name COLLATE NOCASE, id, quantity, game, kind, search_words, search_fields);

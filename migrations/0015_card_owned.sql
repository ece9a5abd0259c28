-- Search (owned by the search module): each owned card's quantity by card rowid, kept in
-- step with `collection` (which is by card id) by the triggers below. A search over every
-- card tests `owned` on a card's rowid inside the set that drives it (cards with cost <= 3
-- and owned > 0), so the cards that fail it are never read. Holds a row for every
-- collection entry whose card is in the catalogue (quantity as in the collection, 0 too).
CREATE TABLE IF NOT EXISTS card_owned (
    card     INTEGER PRIMARY KEY,
    quantity INTEGER NOT NULL
);
INSERT OR REPLACE INTO card_owned(card, quantity)
    SELECT c.rowid, co.quantity FROM collection AS co JOIN card AS c ON c.id = co.card_id;

CREATE TRIGGER IF NOT EXISTS collection_owned_ai AFTER INSERT ON collection BEGIN
    INSERT OR REPLACE INTO card_owned(card, quantity)
        SELECT rowid, new.quantity FROM card WHERE id = new.card_id;
END;
CREATE TRIGGER IF NOT EXISTS collection_owned_au AFTER UPDATE ON collection BEGIN
    DELETE FROM card_owned WHERE card IN (SELECT rowid FROM card WHERE id = old.card_id);
    INSERT OR REPLACE INTO card_owned(card, quantity)
        SELECT rowid, new.quantity FROM card WHERE id = new.card_id;
END;
CREATE TRIGGER IF NOT EXISTS collection_owned_ad AFTER DELETE ON collection BEGIN
    DELETE FROM card_owned WHERE card IN (SELECT rowid FROM card WHERE id = old.card_id);
END;
-- A new card (or a rowid used again) takes its id's collection entry, if any.
CREATE TRIGGER IF NOT EXISTS card_owned_ai AFTER INSERT ON card BEGIN
    DELETE FROM card_owned WHERE card = new.rowid;
    INSERT INTO card_owned(card, quantity)
        SELECT new.rowid, quantity FROM collection WHERE card_id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS card_owned_au AFTER UPDATE OF rowid, id ON card BEGIN
    DELETE FROM card_owned WHERE card = old.rowid;
    INSERT OR REPLACE INTO card_owned(card, quantity)
        SELECT new.rowid, quantity FROM collection WHERE card_id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS card_owned_ad AFTER DELETE ON card BEGIN
    DELETE FROM card_owned WHERE card = old.rowid;
END;

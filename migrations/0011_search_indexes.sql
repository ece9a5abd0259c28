-- Search (owned by the search module): the cards in name order with what a hit shows, so a
-- limited search reads the first cards by name from this index alone, in order.
CREATE INDEX IF NOT EXISTS card_search_name ON card(name COLLATE NOCASE, id, game, kind);
-- A card's fields by card then key: a limited search tests each card it reads with one seek.
CREATE INDEX IF NOT EXISTS card_field_probe ON card_field(card, key, text, num);

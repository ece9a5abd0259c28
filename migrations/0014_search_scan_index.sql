-- (Search) made after 0013 has filled the columns it indexes.
-- A limited search reads the first cards by name and tests each: this index holds all it
-- reads, in that order, so the window is one sequential scan. It replaces card_search_name.
CREATE INDEX IF NOT EXISTS card_search_scan ON card(name COLLATE NOCASE, id, game, kind, search_words, search_fields);
DROP INDEX IF EXISTS card_search_name;
-- `kind:merit` and the like without a game: the cards of a kind, with all a search over them
-- reads (an `order:` key comes from search_fields), so no card row is read.
CREATE INDEX IF NOT EXISTS card_kind ON card(kind, name COLLATE NOCASE, id, game, search_fields);

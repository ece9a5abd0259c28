-- Exact (case-sensitive) name lookups: cards named in parties, squads and collection CSVs,
-- by name alone or by name within a game.
CREATE INDEX IF NOT EXISTS card_name_game ON card(name, game);

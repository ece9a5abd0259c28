-- Search (owned by the search module, see src/search/index.rs): what a card is tested
-- against without another seek. `search_words`: the words of its name and texts as FTS5
-- tokenises them; `search_fields`: its field values. NULL when not exactly computable (the
-- card is then tested through card_fts and card_field). Filled for existing cards by the
-- migration's Rust hook, and written with every card afterwards.
ALTER TABLE card ADD COLUMN search_words TEXT;
ALTER TABLE card ADD COLUMN search_fields TEXT;

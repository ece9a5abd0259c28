-- `card_field_probe (card, key, text, num)` (0011) serves every lookup by card that
-- `card_field_card (card)` did (deleting a card's fields, the cascade): one index less to
-- keep up on every import.
DROP INDEX IF EXISTS card_field_card;

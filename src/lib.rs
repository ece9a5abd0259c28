//! deckwright core

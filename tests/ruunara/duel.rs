//! The close-combat duel.

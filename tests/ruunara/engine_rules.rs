//! The rulings of `spec/ruunara.md`, each in a scenario with scripted dice.

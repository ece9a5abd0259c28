//! Runs many seeded matches of a game in parallel; statistics.

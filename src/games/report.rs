//! What a finished (or replayed) match reports, for every game alike: its log set out as
//! lines, the final state in words, and the `play --json` document. `play` and `replay`
//! print the same report, so a replayed match reads exactly as it was played.

use serde_json::Value;

/// How the terminal report sets out one line of the log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// A new turn (round, Day, placement): after a blank line, bold on a terminal.
    Heading,
    /// After a blank line (the end of the match).
    Apart,
    /// Indented under its heading.
    Item,
}

/// A match's report: the log, the final state in words (printed after it as it is), and the
/// `play --json` document.
#[derive(Debug, Clone)]
pub struct Report {
    pub log: Vec<(Line, String)>,
    pub tail: String,
    pub json: Value,
}

/// The `play --json` document of a two-sided match (Iconica, Arcadia).
pub fn match_json(
    game: &str,
    winner: Value,
    ended: crate::games::Ended,
    turns: u32,
    dice_used: u32,
    sides: Value,
    log: Vec<Value>,
) -> Value {
    serde_json::json!({
        "game": game,
        "winner": winner,
        "ended": ended.as_str(),
        "turns": turns,
        "dice_used": dice_used,
        "sides": sides,
        "log": log,
    })
}

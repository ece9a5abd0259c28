//! What the `play` reports of every game share: the event log set out for the terminal and
//! the `play --json` document of a two-sided match.

use serde_json::{Value, json};

use super::out::Out;
use crate::games::Ended;

/// How the terminal report sets out one event of the log.
pub enum Line {
    /// A new turn (Day, placement): after a blank line, bold on a terminal.
    Heading,
    /// After a blank line (the end of the match).
    Apart,
    /// Indented under its heading.
    Item,
}

/// Writes the event log, one line an event, set out as [`Line`] says.
pub fn log_text(out: &Out, lines: impl IntoIterator<Item = (Line, String)>) {
    let tty = out.is_terminal();
    for (kind, line) in lines {
        match kind {
            Line::Heading if tty => writeln!(out, "\n\x1b[1m{line}\x1b[0m"),
            Line::Heading | Line::Apart => writeln!(out, "\n{line}"),
            Line::Item => writeln!(out, "  {line}"),
        }
    }
}

/// The `play --json` document of a two-sided match (Iconica, Arcadia).
pub fn match_json(
    game: &str,
    winner: Value,
    ended: Ended,
    turns: u32,
    dice_used: u32,
    sides: Value,
    log: Vec<Value>,
) -> Value {
    json!({
        "game": game,
        "winner": winner,
        "ended": ended.as_str(),
        "turns": turns,
        "dice_used": dice_used,
        "sides": sides,
        "log": log,
    })
}

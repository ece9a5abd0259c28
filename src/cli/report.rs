//! What the `play` reports of every game share: the event log set out for the terminal,
//! writing a finished report, and the `play --json` document of a two-sided match.

use std::fmt::Write as _;
use std::io::IsTerminal;

use serde_json::{json, Value};

use super::BadInput;
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

/// Appends the event log to `out`, one line an event, set out as [`Line`] says.
pub fn log_text(out: &mut String, lines: impl IntoIterator<Item = (Line, String)>) {
    let tty = std::io::stdout().is_terminal();
    for (kind, line) in lines {
        match kind {
            Line::Heading if tty => _ = writeln!(out, "\n\x1b[1m{line}\x1b[0m"),
            Line::Heading | Line::Apart => _ = writeln!(out, "\n{line}"),
            Line::Item => _ = writeln!(out, "  {line}"),
        }
    }
}

/// Writes a finished report on stdout in one go (a closed pipe is not an error).
pub fn print(out: &str) {
    use std::io::Write as _;
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}

/// Prints the `play --json` document of a two-sided match (Iconica, Arcadia), pretty.
pub fn print_match_json(
    game: &str,
    winner: Value,
    ended: Ended,
    turns: u32,
    dice_used: u32,
    sides: Value,
    log: Vec<Value>,
) -> Result<(), BadInput> {
    let doc = json!({
        "game": game,
        "winner": winner,
        "ended": ended.as_str(),
        "turns": turns,
        "dice_used": dice_used,
        "sides": sides,
        "log": log,
    });
    println!("{}", serde_json::to_string_pretty(&doc).map_err(|e| BadInput(e.to_string()))?);
    Ok(())
}

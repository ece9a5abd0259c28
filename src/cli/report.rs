//! What the `play` reports of every game share: the event log set out for the terminal, and
//! a match's [`Report`] printed as text or as its `play --json` document (`play` and
//! `replay` print through [`print`], so they print the same).

use std::path::Path;

use super::BadInput;
use super::out::Out;
use crate::games::record::MatchRecord;
pub use crate::games::report::Line;
use crate::games::report::Report;

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

/// Says on stderr which texts of the cards in use the engine does not fully play (card text
/// supersedes the rules: a text shown and not played is said aloud wherever it is used).
pub fn say_gaps(cards: &[crate::cards::Card]) {
    if let Some(n) = crate::games::gaps::note(&crate::games::gaps::of_cards(cards)) {
        super::out::note!("note: {}", super::out::escape_lines(&n));
    }
}

/// Writes `record` to `path` (`play ... --record`), the error naming the file.
pub fn save_record(record: &MatchRecord, path: &Path) -> Result<(), BadInput> {
    record
        .save(path)
        .map_err(|e| BadInput(format!("{}: {}", path.display(), crate::error_chain(&e))))
}

/// Prints a match's report: its JSON document, or its log and final state in words.
pub fn print(out: &Out, report: Report, json: bool) {
    if json {
        out.json_pretty(&report.json);
    } else {
        log_text(out, report.log);
        out.text(&report.tail);
    }
}

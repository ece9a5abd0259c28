//! The one writer of the command line's stdout (and of its messages on stderr).
//!
//! Every command prints through [`Out`]: `writeln!(ctx.out, ...)` or [`Out::json`]. A closed
//! pipe (`deckwright sim ... | head -1`) is not an error: the first write that meets it marks
//! stdout closed, later writes are dropped, and the command ends with the status it would
//! have had, quietly. Any other failure to write (a full disk) is reported once by
//! [`Out::finish`]. Messages on stderr (`note!`) never fail either.

use std::cell::RefCell;
use std::fmt;
use std::io::{self, BufWriter, IsTerminal, StdoutLock, Write};

use super::BadInput;

/// Buffered stdout that stops quietly on a closed pipe. Methods take `&self` (like
/// `std::io::Stdout`), so a command reaches it through its shared `Context`.
pub struct Out {
    state: RefCell<State>,
    terminal: bool,
}

enum State {
    Open(BufWriter<StdoutLock<'static>>),
    /// The reader went away (EPIPE): everything further is dropped.
    Closed,
    /// Writing failed otherwise; reported by [`Out::finish`].
    Failed(io::Error),
}

impl Out {
    /// The process's stdout, locked for the command's lifetime.
    pub fn stdout() -> Out {
        let stdout = io::stdout();
        let terminal = stdout.is_terminal();
        Out {
            state: RefCell::new(State::Open(BufWriter::new(stdout.lock()))),
            terminal,
        }
    }

    /// An `Out` that writes nothing (a report made only for what it plays: a balance
    /// shard's).
    pub fn sink() -> Out {
        Out {
            state: RefCell::new(State::Closed),
            terminal: false,
        }
    }

    /// Whether stdout is a terminal (colour and bold only then).
    pub fn is_terminal(&self) -> bool {
        self.terminal
    }

    /// Writes `text` as it is.
    pub fn text(&self, text: &str) {
        self.with(|w| w.write_all(text.as_bytes()));
    }

    /// What `write!` and `writeln!` call: `writeln!(ctx.out, "{x}")` needs no `?` and no `let _`.
    pub fn write_fmt(&self, args: fmt::Arguments<'_>) {
        self.with(|w| w.write_fmt(args));
    }

    /// One JSON document on one line.
    pub fn json(&self, doc: &impl serde::Serialize) {
        self.with(|w| {
            serde_json::to_writer(&mut *w, doc)?;
            w.write_all(b"\n")
        });
    }

    /// One JSON document, indented.
    pub fn json_pretty(&self, doc: &impl serde::Serialize) {
        self.with(|w| {
            serde_json::to_writer_pretty(&mut *w, doc)?;
            w.write_all(b"\n")
        });
    }

    /// Whether the reader has gone away (a long command may stop early).
    pub fn is_closed(&self) -> bool {
        matches!(*self.state.borrow(), State::Closed)
    }

    /// Sends what is buffered on its way, so that a message on stderr comes after it.
    pub fn flush(&self) {
        self.with(|w| w.flush());
    }

    /// Flushes what is buffered. A closed pipe is fine; another write error is bad output.
    pub fn finish(&self) -> Result<(), BadInput> {
        self.flush();
        match self.state.replace(State::Closed) {
            State::Failed(e) => Err(BadInput(format!("cannot write to stdout: {e}"))),
            State::Open(_) | State::Closed => Ok(()),
        }
    }

    fn with(&self, write: impl FnOnce(&mut BufWriter<StdoutLock<'static>>) -> io::Result<()>) {
        let mut state = self.state.borrow_mut();
        let State::Open(w) = &mut *state else { return };
        match write(w) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => *state = State::Closed,
            Err(e) => *state = State::Failed(e),
        }
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        // Flushed quietly if `finish` was not called (a panic): never a second panic.
        if let State::Open(w) = &mut *self.state.borrow_mut() {
            let _ = w.flush();
        }
    }
}

/// A message on stderr (a note, a warning, an error): a closed stderr drops it.
pub fn to_stderr(args: fmt::Arguments<'_>) {
    let _ = io::stderr().lock().write_fmt(args);
}

/// `note!("...")`: a line on stderr that cannot fail (`eprintln!` panics on a closed pipe).
macro_rules! note {
    ($($arg:tt)*) => {
        $crate::cli::out::to_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use note;

/// `text` with every control character (C0, DEL, C1: escape sequences, carriage returns,
/// line feeds) and every bidirectional override written as a visible escape (`\n`, `\r`,
/// `\t`, `\x1b`, `\u{202e}`), so a card name cannot retitle or clear a terminal, move its
/// cursor or forge a row of a listing. Everything else is left as it is.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(needs_escape) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x80 && needs_escape(c) => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c if needs_escape(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// [`escape_controls`] on each line of a text of several lines: the line feeds between
/// them are kept, every other control character is escaped (an error message with a caret
/// line under a query, say).
pub fn escape_lines(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && needs_escape(c)) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(
        text.split('\n')
            .map(escape_controls)
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Control characters and the bidirectional embeddings, overrides and isolates.
fn needs_escape(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}')
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{escape_controls, needs_escape};

    proptest! {
        #[test]
        fn escaped_text_holds_no_control_character(text in any::<String>()) {
            let escaped = escape_controls(&text);
            prop_assert!(!escaped.chars().any(needs_escape), "{escaped:?}");
            prop_assert!(escaped.lines().count() <= 1, "one line at most: {escaped:?}");
            if !text.chars().any(needs_escape) {
                prop_assert_eq!(escaped.as_ref(), text.as_str());
            }
        }
    }

    #[test]
    fn plain_names_are_unchanged() {
        assert_eq!(escape_controls("Iron Maiden — Æsir"), "Iron Maiden — Æsir");
    }

    #[test]
    fn controls_become_visible_escapes() {
        assert_eq!(
            escape_controls("a\x1b]0;pwned\x07b"),
            "a\\x1b]0;pwned\\x07b"
        );
        assert_eq!(escape_controls("x\r\ny\tz\x7f"), "x\\r\\ny\\tz\\x7f");
        assert_eq!(escape_controls("c1\u{9b}2J"), "c1\\u{9b}2J");
        assert_eq!(escape_controls("abc\u{202e}fed"), "abc\\u{202e}fed");
    }
}

//! A match as a small file: the game, its options, who sat at each seat, the seed and every
//! input (decisions and chance outcomes) in order. The inputs alone, applied to the same start
//! through the [`Game`] interface, replay the match exactly, so a record is the same for every
//! game: each game only says what its `options` table holds (docs/cards.md, "Match records").
//!
//! Records are TOML, written through the one durable write path ([`crate::safe_io`]) and read
//! back with a size limit; [`checked_replay`] refuses an input a position does not have
//! instead of trusting the file.
//!
//! Format 2 records every chance outcome among the inputs (format 1 left Ruunara's dice and
//! Iconoclasm's deal to the seed), names the engine version that played it (a record of
//! another engine is refused, never misplayed), keeps the inputs that were points on the
//! table (`points`: a drag's end, a drop) and a check of every step (`checks`: a digest of
//! the events each input set off), so a replay says the first step that no longer plays the
//! same.

use std::path::Path;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::game::{Game, Turn};

/// The record format this program writes; it reads this one and format 1 (see the module).
pub const FORMAT: u32 = 2;
/// The largest record file read (bytes).
pub const MAX_RECORD_FILE: u64 = 8 << 20;
/// The most inputs a record may hold.
pub const MAX_INPUTS: usize = 1_000_000;

/// One match: enough to replay it exactly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MatchRecord {
    /// [`FORMAT`].
    pub format: u32,
    /// The game's command-line name ([`Game::NAME`]: `iconica`, `iconoclasm`, ...).
    pub game: String,
    /// The version of the game's engine that played it (0: not said, format 1).
    #[serde(default)]
    pub engine: u32,
    /// The seed the match was played with (chance and the computer's decisions).
    pub seed: u64,
    /// Who took each seat's decisions: `person`, or a policy name (`greedy`, ...).
    #[serde(default)]
    pub seats: Vec<String>,
    /// Every input from the start, in order: option indices and chance outcomes.
    pub inputs: Vec<usize>,
    /// The inputs that were a point on the table (a drag's end, a drop), by step: the game
    /// offers the point as the option index `inputs` holds at that step.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PointInput>,
    /// A digest of the events each input set off ([`step_check`]), one per input; empty when
    /// not taken. A replay compares them to say the first step that plays differently.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub checks: Vec<u32>,
    /// The chance source (a dice script) ran out after the last input: the match stopped
    /// there with no result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exhausted: bool,
    /// Playtest notes: what the people at the table remarked, each at the step it was
    /// written (a record without any, or written before notes, has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<Note>,
    /// The game's own options (parties, rules, deal), as the game documents them.
    #[serde(default)]
    pub options: toml::Table,
}

/// A match's inputs as a record keeps them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Inputs {
    /// Every input, chance outcomes included.
    pub inputs: Vec<usize>,
    /// Those that were points on the table.
    pub points: Vec<PointInput>,
    /// The dice (a script) ran out after them.
    pub exhausted: bool,
}

impl Inputs {
    /// Inputs with no point among them, the dice not run out.
    pub fn of(inputs: Vec<usize>) -> Inputs {
        Inputs {
            inputs,
            ..Inputs::default()
        }
    }
}

/// An input that was a point on the table: its step (an index into the inputs) and where.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PointInput {
    pub step: usize,
    pub x: f64,
    pub y: f64,
}

/// A playtest note: someone at the table remarked `text` at input `step` (the position after
/// the first `step` inputs), "Spear Charge feels too strong here".
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub step: usize,
    /// Who wrote it: `Player 2`, `a spectator`, `the host`.
    pub by: String,
    pub text: String,
}

/// The most notes a record holds.
pub const MAX_NOTES: usize = 10_000;
/// The longest note (bytes).
pub const MAX_NOTE_LEN: usize = 2_000;
/// The longest `by` of a note (bytes).
pub const MAX_NOTE_BY: usize = 100;

impl Note {
    /// Why the note cannot be kept (empty, too long, a control character), if so.
    pub fn problem(&self) -> Option<String> {
        let text = self.text.trim();
        if text.is_empty() {
            return Some("a note has no text".into());
        }
        if self.text.len() > MAX_NOTE_LEN {
            return Some(format!(
                "a note of {} bytes is over the {MAX_NOTE_LEN}-byte bound",
                self.text.len()
            ));
        }
        if self.by.len() > MAX_NOTE_BY {
            return Some(format!("a note's author is over {MAX_NOTE_BY} bytes"));
        }
        if self
            .text
            .chars()
            .chain(self.by.chars())
            .any(char::is_control)
        {
            return Some("a note holds a control character".into());
        }
        None
    }

    /// Whether the note names `name` (a card's), as a whole word or words, in any case.
    pub fn mentions(&self, name: &str) -> bool {
        let name = name.trim().to_lowercase();
        if name.is_empty() {
            return false;
        }
        let text = self.text.to_lowercase();
        let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
        text.match_indices(&name).any(|(at, m)| {
            !word(text[..at].chars().next_back()) && !word(text[at + m.len()..].chars().next())
        })
    }
}

/// The notes among `notes` that mention the card named `name` ([`Note::mentions`]): what
/// the card editor lists beside a card.
pub fn notes_mentioning<'a>(notes: &'a [Note], name: &str) -> Vec<&'a Note> {
    notes.iter().filter(|n| n.mentions(name)).collect()
}

/// The most match files [`notes_in_folder`] reads.
pub const MAX_NOTE_FILES: usize = 500;

/// The playtest notes of the match files in a folder ([`notes_in_folder`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FolderNotes {
    /// Each note with the name of the match file that keeps it, files in name order.
    pub notes: Vec<(String, Note)>,
    /// The match files that could not be read, and why.
    pub unreadable: Vec<(String, String)>,
}

impl FolderNotes {
    /// The notes that mention the card named `name` ([`Note::mentions`]).
    pub fn mentioning(&self, name: &str) -> Vec<&(String, Note)> {
        self.notes
            .iter()
            .filter(|(_, n)| n.mentions(name))
            .collect()
    }
}

/// Reads the notes of every match file (`*.match.toml`, regular files, at most
/// [`MAX_NOTE_FILES`], each read as strictly and bounded as any record) in `dir`: what the
/// card editor lists beside a card. A file that does not read is named, not fatal.
pub fn notes_in_folder(dir: &Path) -> std::io::Result<FolderNotes> {
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.ends_with(".match.toml"))
        })
        .collect();
    files.sort();
    files.truncate(MAX_NOTE_FILES);
    let mut out = FolderNotes::default();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        match MatchRecord::load(&path) {
            Ok(r) => out
                .notes
                .extend(r.notes.into_iter().map(|n| (name.clone(), n))),
            Err(e) => out.unreadable.push((name, crate::error_chain(&e))),
        }
    }
    Ok(out)
}

/// Why a record cannot be read or replayed.
#[derive(Debug, Error)]
pub enum RecordError {
    #[error("the match file cannot be read")]
    Read(#[from] crate::safe_io::InputError),
    #[error("the match file cannot be written")]
    Write(#[from] std::io::Error),
    #[error("the match file is not a match record")]
    Toml(#[from] toml::de::Error),
    #[error(
        "the match file has format {0}, newer than this program reads (format {FORMAT}); open it with a newer deckwright"
    )]
    Format(u32),
    #[error(
        "the match file was played by {game} engine version {found}; this program's is {wanted}, whose rules may play it differently"
    )]
    Engine {
        game: String,
        found: u32,
        wanted: u32,
    },
    #[error(
        "the match file has format 1, which leaves the {0} to the seed; this program replays only records that keep every input (format 2)"
    )]
    Legacy(&'static str),
    #[error("the match file is of {found}, not {wanted}")]
    Game { found: String, wanted: String },
    #[error("the match file has {0} inputs; at most {MAX_INPUTS} are read")]
    TooLong(usize),
    #[error("input {at} of the match file ({input}) is not a legal input there")]
    Illegal { at: usize, input: usize },
    #[error("step {at} of the match file no longer replays: its events differ from those recorded")]
    Differs { at: usize },
    #[error("point {k} of the match file (at step {step}) is not a legal point there")]
    Point { k: usize, step: usize },
    #[error("the match file's options are not valid: {0}")]
    Options(String),
}

impl MatchRecord {
    /// A record of `game` with `seed`, no seats, inputs or options yet.
    pub fn new(game: &str, seed: u64) -> MatchRecord {
        MatchRecord {
            format: FORMAT,
            game: game.to_string(),
            engine: 0,
            seed,
            seats: Vec::new(),
            inputs: Vec::new(),
            points: Vec::new(),
            checks: Vec::new(),
            exhausted: false,
            notes: Vec::new(),
            options: toml::Table::new(),
        }
    }

    /// The record as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("a record is plain data")
    }

    /// Reads a record from TOML text, checking its format and size.
    pub fn parse(text: &str) -> Result<MatchRecord, RecordError> {
        // The format first, so a newer file is named as such and not as malformed.
        #[derive(Deserialize)]
        struct Head {
            format: u32,
        }
        if let Ok(Head { format }) = toml::from_str::<Head>(text)
            && format > FORMAT
        {
            return Err(RecordError::Format(format));
        }
        let r: MatchRecord = toml::from_str(text)?;
        if r.format == 0 {
            return Err(RecordError::Options("format 0 is no record format".into()));
        }
        if r.inputs.len() > MAX_INPUTS {
            return Err(RecordError::TooLong(r.inputs.len()));
        }
        if !r.checks.is_empty() && r.checks.len() != r.inputs.len() {
            return Err(RecordError::Options(format!(
                "{} checks for {} inputs",
                r.checks.len(),
                r.inputs.len()
            )));
        }
        if r.notes.len() > MAX_NOTES {
            return Err(RecordError::Options(format!(
                "{} notes; at most {MAX_NOTES} are read",
                r.notes.len()
            )));
        }
        for (k, n) in r.notes.iter().enumerate() {
            if n.step > r.inputs.len() {
                return Err(RecordError::Options(format!(
                    "note {k} is at step {}, past the record's {} inputs",
                    n.step,
                    r.inputs.len()
                )));
            }
            if let Some(why) = n.problem() {
                return Err(RecordError::Options(format!("note {k}: {why}")));
            }
        }
        for (k, p) in r.points.iter().enumerate() {
            let repeated = r.points[..k].iter().any(|q| q.step == p.step);
            if p.step >= r.inputs.len() || repeated || !p.x.is_finite() || !p.y.is_finite() {
                return Err(RecordError::Point { k, step: p.step });
            }
        }
        Ok(r)
    }

    /// Checks that the record is of `game`.
    pub fn expect_game(&self, game: &str) -> Result<(), RecordError> {
        if self.game == game {
            Ok(())
        } else {
            Err(RecordError::Game {
                found: self.game.clone(),
                wanted: game.to_string(),
            })
        }
    }

    /// Checks that the record was played by `engine` (a format-1 record says no engine and
    /// is taken as this one's).
    pub fn expect_engine(&self, engine: u32) -> Result<(), RecordError> {
        if self.engine == engine || (self.format == 1 && self.engine == 0) {
            Ok(())
        } else {
            Err(RecordError::Engine {
                game: self.game.clone(),
                found: self.engine,
                wanted: engine,
            })
        }
    }

    /// The point taken at input `step`, if that input was one.
    pub fn point_at(&self, step: usize) -> Option<(usize, &PointInput)> {
        self.points.iter().enumerate().find(|(_, p)| p.step == step)
    }

    /// The record of a match of `G` played from `start` with `played`'s inputs: its checks
    /// taken.
    pub fn of_inputs<G: Game>(
        start: &G,
        engine: u32,
        seed: u64,
        seats: Vec<String>,
        played: Inputs,
        options: toml::Table,
    ) -> MatchRecord {
        let Inputs {
            inputs,
            points,
            exhausted,
        } = played;
        let checks = checks_of(start, &inputs, &points).unwrap_or_default();
        MatchRecord {
            engine,
            seats,
            checks,
            inputs,
            points,
            exhausted,
            options,
            ..MatchRecord::new(G::NAME, seed)
        }
    }

    /// Writes the record to `path` atomically (a reader sees the old file or the new one).
    pub fn save(&self, path: &Path) -> Result<(), RecordError> {
        crate::safe_io::write_atomic(path, self.to_toml().as_bytes())?;
        Ok(())
    }

    /// Reads the record at `path` (a regular file of at most [`MAX_RECORD_FILE`] bytes).
    pub fn load(path: &Path) -> Result<MatchRecord, RecordError> {
        let text = crate::safe_io::read_text(path, MAX_RECORD_FILE, "a match file")?;
        MatchRecord::parse(&text)
    }
}

/// The check of one step: a digest (FNV-1a, 32 bits) of its input and the events it set
/// off, as `play --json` writes them but without their sentences (`text`): another rule or
/// another reading of the record gives other events, so another digest, while rewording
/// the log does not.
pub fn step_check<G: Game>(g: &G, input: usize, events: &[G::Event]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in (input as u64).to_le_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
    }
    for e in events {
        let mut json = g.event_json(e);
        if let Some(fields) = json.as_object_mut() {
            fields.remove("text");
        }
        for b in json.to_string().bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
        h = (h ^ 0xff).wrapping_mul(0x0100_0193);
    }
    h
}

/// A replay of a record, input by input: the position, the log with the step each event
/// belongs to (0: the start), and the inputs taken.
#[derive(Debug, Clone)]
pub struct Replayed<G: Game> {
    pub game: G,
    pub log: Vec<(usize, G::Event)>,
    pub steps: usize,
}

/// Replays `record`'s inputs from `start` (whose `start_log` is step 0) up to `to` inputs
/// (all when `None`): every input checked against what the position takes (an option of the
/// seat's, a chance outcome, a point the game accepts there: [`Game::offer_point`]), and every
/// step's events against the record's checks when it has them: the first step that is not
/// legal or plays differently is the error.
pub fn replay_record<G: Game>(
    start: G,
    start_log: Vec<G::Event>,
    record: &MatchRecord,
    to: Option<usize>,
) -> Result<Replayed<G>, RecordError> {
    let mut g = start;
    let mut log: Vec<(usize, G::Event)> = start_log.into_iter().map(|e| (0, e)).collect();
    let end = to.unwrap_or(record.inputs.len()).min(record.inputs.len());
    let mut events = Vec::new();
    for at in 0..end {
        let input = record.inputs[at];
        if let Some((k, p)) = record.point_at(at) {
            if g.offer_point(p.x, p.y) != Some(input) {
                return Err(RecordError::Point { k, step: at });
            }
        } else {
            let legal = match g.turn() {
                Turn::Seat { options, .. } => options,
                Turn::Chance(c) => c.outcomes(),
                Turn::Over => 0,
            };
            if input >= legal {
                return Err(RecordError::Illegal { at, input });
            }
        }
        events.clear();
        g.apply_logged(input, &mut events);
        if let Some(&want) = record.checks.get(at)
            && step_check(&g, input, &events) != want
        {
            return Err(RecordError::Differs { at });
        }
        log.extend(events.drain(..).map(|e| (at + 1, e)));
    }
    if record.exhausted && end == record.inputs.len() && !matches!(g.turn(), Turn::Over) {
        g.exhausted(&mut events);
        log.extend(events.drain(..).map(|e| (end, e)));
    }
    Ok(Replayed {
        game: g,
        log,
        steps: end,
    })
}

/// The checks of `inputs` played from `start` ([`step_check`] of each step); `None` when an
/// input is not legal where it is taken.
pub fn checks_of<G: Game>(start: &G, inputs: &[usize], points: &[PointInput]) -> Option<Vec<u32>> {
    let mut g = start.clone();
    let mut events = Vec::new();
    let mut checks = Vec::with_capacity(inputs.len());
    for (at, &input) in inputs.iter().enumerate() {
        if let Some(p) = points.iter().find(|p| p.step == at) {
            if g.offer_point(p.x, p.y) != Some(input) {
                return None;
            }
        } else if matches!(g.turn(), Turn::Over) {
            return None;
        }
        events.clear();
        g.apply_logged(input, &mut events);
        checks.push(step_check(&g, input, &events));
    }
    Some(checks)
}

/// `start` with `inputs` applied, each checked against what the position takes (an option
/// index below the seat's count, a chance outcome below the chance's count, nothing after the
/// end): a record from a file never drives the engine outside its legal inputs.
pub fn checked_replay<G: Game>(start: &G, inputs: &[usize]) -> Result<G, RecordError> {
    let mut g = start.clone();
    for (at, &input) in inputs.iter().enumerate() {
        let legal = match g.turn() {
            Turn::Seat { options, .. } => options,
            Turn::Chance(c) => c.outcomes(),
            Turn::Over => 0,
        };
        if input >= legal {
            return Err(RecordError::Illegal { at, input });
        }
        g.apply(input);
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_reads_back_as_written() {
        let mut r = MatchRecord::new("iconica", 7);
        r.seats = vec!["person".into(), "greedy".into()];
        r.inputs = vec![3, 0, 1, 5];
        r.options.insert("ruleset".into(), "v2".into());
        let back = MatchRecord::parse(&r.to_toml()).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn a_newer_format_or_an_unknown_key_is_refused() {
        let mut r = MatchRecord::new("iconica", 1);
        r.format = FORMAT + 1;
        let newer = MatchRecord::parse(&r.to_toml()).unwrap_err();
        assert!(matches!(newer, RecordError::Format(f) if f == FORMAT + 1));
        assert!(newer.to_string().contains("newer"), "{newer}");
        // A newer file is named newer even when its other keys are unknown to this program.
        let text = "format = 3\ngame = \"iconica\"\nseed = 1\ninputs = []\nspeed = 3\n";
        assert!(matches!(
            MatchRecord::parse(text),
            Err(RecordError::Format(3))
        ));
        let text = "format = 1\ngame = \"iconica\"\nseed = 1\ninputs = []\nspeed = 3\n";
        assert!(matches!(
            MatchRecord::parse(text),
            Err(RecordError::Toml(_))
        ));
    }

    #[test]
    fn notes_read_back_and_older_records_still_read() {
        let mut r = MatchRecord::new("pig", 2);
        r.inputs = vec![0, 1, 0];
        r.notes = vec![
            Note {
                step: 1,
                by: "Player 2".into(),
                text: "Spear Charge feels too strong here".into(),
            },
            Note {
                step: 3,
                by: "a spectator".into(),
                text: "the spear charged again".into(),
            },
        ];
        let text = r.to_toml();
        assert_eq!(MatchRecord::parse(&text).unwrap(), r);
        // A record written before notes (none in its text) reads with none.
        let old = "format = 2\ngame = \"pig\"\nseed = 1\ninputs = [0]\n";
        assert!(MatchRecord::parse(old).unwrap().notes.is_empty());
        // Who mentions the card: whole words, any case.
        let about = notes_mentioning(&r.notes, "spear charge");
        assert_eq!(about, vec![&r.notes[0]]);
        assert!(notes_mentioning(&r.notes, "Spear").len() == 2);
        assert!(notes_mentioning(&r.notes, "pear").is_empty());
        assert!(notes_mentioning(&r.notes, " ").is_empty());
    }

    #[test]
    fn a_bad_note_is_refused() {
        let base = "format = 2\ngame = \"pig\"\nseed = 1\ninputs = [0]\n";
        for (notes, said) in [
            (
                "[[notes]]\nstep = 2\nby = \"x\"\ntext = \"late\"\n",
                "past the record",
            ),
            (
                "[[notes]]\nstep = 0\nby = \"x\"\ntext = \"  \"\n",
                "no text",
            ),
            (
                "[[notes]]\nstep = 0\nby = \"x\"\ntext = \"a\\u0007b\"\n",
                "control",
            ),
            (
                "[[notes]]\nstep = 0\nby = \"x\"\ntext = \"a\"\nmood = 1\n",
                "unknown field",
            ),
        ] {
            let text = format!("{base}{notes}");
            let e = MatchRecord::parse(&text).unwrap_err();
            assert!(
                crate::error_chain(&e).contains(said) || e.to_string().contains(said),
                "{e:?}"
            );
        }
        let long = format!(
            "{base}[[notes]]\nstep = 0\nby = \"x\"\ntext = \"{}\"\n",
            "a".repeat(MAX_NOTE_LEN + 1)
        );
        assert!(
            MatchRecord::parse(&long)
                .unwrap_err()
                .to_string()
                .contains("bound")
        );
    }

    #[test]
    fn the_notes_of_a_folder_are_read_and_a_bad_file_named() {
        let dir = tempfile::tempdir().unwrap();
        let mut r = MatchRecord::new("pig", 1);
        r.inputs = vec![0];
        r.notes = vec![Note {
            step: 1,
            by: "Player 1".into(),
            text: "Spear Charge again".into(),
        }];
        r.save(&dir.path().join("b.match.toml")).unwrap();
        std::fs::write(dir.path().join("a.match.toml"), "not = [a record").unwrap();
        std::fs::write(dir.path().join("c.toml"), "ignored").unwrap();
        let found = notes_in_folder(dir.path()).unwrap();
        assert_eq!(found.notes.len(), 1);
        assert_eq!(found.notes[0].0, "b.match.toml");
        assert_eq!(found.unreadable.len(), 1);
        assert_eq!(found.unreadable[0].0, "a.match.toml");
        assert_eq!(found.mentioning("Spear Charge").len(), 1);
        assert!(found.mentioning("Shield Wall").is_empty());
    }
}

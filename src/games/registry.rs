//! The games, each declared once (in the spirit of OpenSpiel's game registration): its
//! name on the command line, its title, the version of its engine, and how a match file of
//! it is replayed into the report `play` prints. Faces that serve every game (`replay`,
//! match files, the game selector) enumerate [`GAMES`] instead of listing the games.
//!
//! Adding a game: its folder under `src/games/` gives a [`Registration`], and one line here
//! lists it (docs/architecture.md, "Adding a game").

use super::any::{AnyGame, Opened};
use super::record::{MatchRecord, RecordError};
use super::report::Report;
use super::session::Session;
use crate::cards::CardLookup;

/// One game as the faces know it.
#[derive(Debug, Clone, Copy)]
pub struct Registration {
    /// Its command-line name (`iconica`, ...), as match files name it.
    pub name: &'static str,
    /// Its name shown to people.
    pub title: &'static str,
    /// The version of its engine: a match file played by another is refused.
    pub engine: u32,
    /// Replays a match file up to a number of inputs (all when `None`), every input checked:
    /// the report of the match at that step. The lookup serves the cards of a format-1
    /// record, which kept none.
    pub replay: fn(&MatchRecord, Option<usize>, &dyn CardLookup) -> Result<Report, RecordError>,
    /// A new match of a game that starts from its rules alone: the faces then play it with
    /// no code of their own for it (`play GAME`, the Match screen's generic board). `None`
    /// for a game whose faces build its setup from files and cards.
    pub generic: Option<fn() -> Box<dyn AnyGame>>,
    /// The start of the match a record's options describe (the lookup serves the cards of a
    /// format-1 record): what a session reopens, hosts again, or plays on from.
    pub open: fn(&toml::Table, &dyn CardLookup) -> Result<Opened, RecordError>,
}

/// Every game, in the order faces list them.
pub const GAMES: &[Registration] = &[
    super::iconica::REGISTRATION,
    super::iconoclasm::REGISTRATION,
    super::arcadia::REGISTRATION,
    super::ruunara::REGISTRATION,
    super::pig::REGISTRATION,
];

/// The game named `name` on the command line.
pub fn find(name: &str) -> Option<&'static Registration> {
    GAMES.iter().find(|g| g.name == name)
}

/// The record's game, or the error naming the games there are.
pub fn of_record(r: &MatchRecord) -> Result<&'static Registration, RecordError> {
    find(&r.game).ok_or_else(|| {
        RecordError::Options(format!(
            "`{}` is not a game this program plays ({})",
            r.game,
            GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
        ))
    })
}

/// Reopens `r` as a session: its game's start compiled from its options, then every input
/// and step checked ([`Session::from_record`]).
pub fn session(r: &MatchRecord, lookup: &dyn CardLookup) -> Result<Session, RecordError> {
    let game = of_record(r)?;
    r.expect_engine(game.engine)?;
    let opened = (game.open)(&r.options, lookup)?;
    Session::from_record(r, opened, game.engine)
}

/// Replays `r` with its game's engine: the report at input `to` (the end when `None`).
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    (of_record(r)?.replay)(r, to, lookup)
}

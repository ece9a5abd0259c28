//! What `play` and `sim` read a match from: the catalogue, Iconica party files, an Arcadia
//! quest setup (with its character files), the Iconoclasm deck and clash table, a Ruunara
//! mission and squad. Bad input
//! names the file and, for TOML, the line and column.

use std::path::{Path, PathBuf};

use super::limits::MAX_BUILD_FILE_BYTES;
use super::{BadInput, Context};
use crate::cards::{Card, CardLookup};
use crate::catalogue::{self, Catalogue};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::Match;
use crate::games::arcadia::setup::SetupFile;
use crate::games::iconica::engine::{Rules, Setup};
use crate::games::iconica::model::Character;
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules;
use crate::games::iconoclasm::engine::Deck;
use crate::games::iconoclasm::model::ClashTable;
use crate::games::ruunara::mission::{MissionFile, Scenario};
use crate::games::ruunara::rules as ruunara_rules;
use crate::games::ruunara::squad::SquadFile;

/// Reads a party, character, setup or squad file as text, through the core's one reader
/// of user files (`safe_io::read_text`): only a regular file is read (a FIFO would wait for
/// a writer for ever, a device such as `/dev/zero` never ends), and at most
/// [`MAX_BUILD_FILE_BYTES`] of it. The error says why, without the file's name.
pub fn read_text(path: &Path) -> Result<String, String> {
    use crate::safe_io::InputError;
    crate::safe_io::read_text(
        path,
        MAX_BUILD_FILE_BYTES,
        "party, character, setup and squad files",
    )
    .map_err(|e| match e {
        InputError::NotRegular {
            kind: "a folder", ..
        } => "is a folder, not a file".to_string(),
        InputError::NotRegular { .. } => {
            "is not a regular file (a pipe, socket or device); give the path of a file".to_string()
        }
        InputError::TooLarge { limit, .. } => {
            format!("is larger than the {} MiB a build file may be", limit >> 20)
        }
        InputError::NotText { .. } => "is not UTF-8 text".to_string(),
        InputError::Io { source, .. } => source.to_string(),
    })
}

/// Opens the catalogue of the context.
pub fn open_catalogue(ctx: &Context) -> Result<Catalogue, BadInput> {
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    Catalogue::open(&path).map_err(|e| BadInput(format!("catalogue {}: {e}", path.display())))
}

/// Reads the party files, resolves their members and checks the construction rules of
/// `spec/iconica.md` for the match, `shared-legend-special` included (bad input naming the
/// rule on a violation).
pub fn parties(
    lookup: &dyn CardLookup,
    files: &[PathBuf],
) -> Result<Vec<Vec<Character>>, BadInput> {
    Ok(named_parties(lookup, files)?
        .into_iter()
        .map(|(_, members)| members)
        .collect())
}

/// [`parties`], each with the name its file gives it.
pub fn named_parties(
    lookup: &dyn CardLookup,
    files: &[PathBuf],
) -> Result<Vec<(String, Vec<Character>)>, BadInput> {
    let mut parsed: Vec<PartyFile> = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        let text = read_text(f).map_err(|e| BadInput(format!("{shown}: {e}")))?;
        parsed.push(PartyFile::parse(&text, &shown)?);
    }
    let refs: Vec<&PartyFile> = parsed.iter().collect();
    let reports = rules::check_match(&refs, lookup);
    if let Some(e) = lookup.take_error() {
        return Err(BadInput(format!("cannot read the catalogue's cards: {e}")));
    }
    let mut parties = Vec::new();
    for ((f, report), file) in files.iter().zip(reports).zip(&parsed) {
        if let Some(v) = report.violations.first() {
            return Err(BadInput(format!(
                "{}: illegal party: {}: {}{}",
                f.display(),
                v.rule,
                v.message,
                if report.violations.len() > 1 {
                    format!(
                        " (and {} more; run `deckwright validate`)",
                        report.violations.len() - 1
                    )
                } else {
                    String::new()
                }
            )));
        }
        parties.push((file.name.clone(), report.members));
    }
    Ok(parties)
}

/// Builds the Iconica match-up from 2 or 4 parties.
pub fn iconica_setup(parties: &[Vec<Character>], rules: Rules) -> Result<Setup, BadInput> {
    let r = match parties.len() {
        2 => Setup::duel(&parties[0], &parties[1], rules),
        4 => Setup::teams(
            &[&parties[0], &parties[1]],
            &[&parties[2], &parties[3]],
            rules,
        ),
        n => {
            return Err(BadInput(format!(
                "iconica needs two party files (or four for a team game), got {n}"
            )));
        }
    };
    r.map_err(|e| BadInput(e.to_string()))
}

/// The compiled match of an Arcadia setup file (its characters' files read beside it), and
/// what a match record keeps of it (the files as written and every card looked up).
pub fn arcadia_compiled(
    lookup: &dyn CardLookup,
    path: &Path,
    turn_limit: u32,
) -> Result<(Match, crate::games::arcadia::matchfile::Source), BadInput> {
    let shown = path.display().to_string();
    let text = read_text(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let setup = SetupFile::parse(&text, &shown)?;
    let mut characters = Vec::new();
    for cpath in setup.character_paths(path) {
        let cshown = cpath.display().to_string();
        let ctext = read_text(&cpath)
            .map_err(|e| BadInput(format!("{cshown} (a character of {shown}): {e}")))?;
        characters.push(CharacterFile::parse(&ctext, &cshown)?);
    }
    crate::games::arcadia::matchfile::compile(&setup, &characters, lookup, turn_limit)
        .map_err(|e| BadInput(format!("{shown}: {e}")))
}

/// The catalogue's Iconoclasm cards as a deck, and its clash table (a user may correct it).
pub fn iconoclasm_deck(ctx: &Context) -> Result<(Deck, ClashTable), BadInput> {
    let cat = open_catalogue(ctx)?;
    let table = cat
        .clash_table()
        .map_err(|e| BadInput(format!("the catalogue's clash table: {e}")))?;
    let cards = cat
        .all()
        .map_err(|e| BadInput(format!("reading the catalogue: {e}")))?;
    crate::games::iconoclasm::matchfile::deck(&cards, table)
        .map_err(|e| BadInput(format!("the catalogue's cards: {e}")))
}

/// The catalogue's Iconica characters (the pool of `sim iconica --field`).
pub fn iconica_characters(cat: &Catalogue) -> Result<Vec<Character>, BadInput> {
    Ok(cat
        .all()
        .map_err(|e| BadInput(format!("catalogue: {e}")))?
        .into_iter()
        .filter_map(|c| match c {
            Card::Iconica(ch) => Some(ch),
            _ => None,
        })
        .collect())
}

/// The scenario of a Ruunara mission and squad file, deployed, and what a match record
/// keeps of it: the mission's text and name, the squad, and every card looked up.
pub fn ruunara_deployed(
    lookup: &dyn CardLookup,
    mission: &Path,
    squad: &Path,
) -> Result<(Scenario, crate::games::ruunara::matchfile::Source), BadInput> {
    let keeping = crate::games::build::Keeping::new(lookup);
    let lookup: &dyn CardLookup = &keeping;
    let mshown = mission.display().to_string();
    let mission_text = read_text(mission).map_err(|e| BadInput(format!("{mshown}: {e}")))?;
    let m = MissionFile::parse(&mission_text, &mshown)?;
    let sshown = squad.display().to_string();
    let text = read_text(squad).map_err(|e| BadInput(format!("{sshown}: {e}")))?;
    let s = SquadFile::parse(&text, &sshown)?;
    let report = ruunara_rules::check_squad(&s, lookup);
    if let Some(e) = lookup.take_error() {
        return Err(BadInput(format!("cannot read the catalogue's cards: {e}")));
    }
    let first = |file: &str, what: &str, v: &[crate::games::build::Violation]| {
        BadInput(format!(
            "{file}: {what}: {}: {}{}",
            v[0].rule,
            v[0].message,
            if v.len() > 1 {
                format!(" (and {} more; run `deckwright validate`)", v.len() - 1)
            } else {
                String::new()
            }
        ))
    };
    if !report.violations.is_empty() {
        return Err(first(&sshown, "illegal squad", &report.violations));
    }
    let scenario = m
        .resolve(&report.members, lookup)
        .map_err(|v| first(&mshown, &format!("cannot deploy {sshown}"), &v))?;
    let mission_file = mission
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(mshown);
    Ok((
        scenario,
        crate::games::ruunara::matchfile::Source {
            mission_file,
            mission: mission_text,
            squad: s,
            cards: keeping.into_kept(),
        },
    ))
}

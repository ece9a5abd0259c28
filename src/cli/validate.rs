//! `deckwright validate FILE... [--json]`: reads party, character, setup and squad files,
//! checks them with the games' construction rules, and prints each verdict.
//!
//! Every file is read and parsed before anything is printed, so bad input (exit 2) writes
//! nothing on stdout. Iconica parties given together are checked as one match
//! (`shared-legend-special`). A Ruunara mission (`*.mission.toml`) is checked against each
//! squad file given with it (one verdict per squad), or, with no squad, its cards alone.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::{Value, json};

use super::load::read_text;
use super::out::escape_controls as esc;
use super::{BadInput, Context, Outcome};
use crate::cards::{CardLookup, Game};
use crate::catalogue::{self, Catalogue};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::Court;
use crate::games::arcadia::rules::{self as arcadia, CharacterReport, CourtBasis, Derived};
use crate::games::arcadia::setup::SetupFile;
use crate::games::build::Violation;
use crate::games::files::BuildFile;
use crate::games::iconica::party::PartyFile;
use crate::games::iconica::rules as iconica;
use crate::games::ruunara::mission::MissionFile;
use crate::games::ruunara::rules as ruunara;
use crate::games::ruunara::squad::SquadFile;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Party, character, setup, squad or mission files (`*.party.toml`, `*.character.toml`,
    /// `*.setup.toml`, `*.squad.toml`, `*.mission.toml`); a mission is checked against the
    /// squads given with it.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Print JSON on stdout.
    #[arg(long)]
    pub json: bool,
}

/// A build file, read and parsed.
enum Build {
    Party(PartyFile),
    Character(CharacterFile),
    /// The setup and each player's character file (its path as shown, its content).
    Setup(SetupFile, Vec<(String, CharacterFile)>),
    Squad(SquadFile),
    Mission(MissionFile),
}

struct Loaded {
    file: String,
    build: Build,
}

/// One file's verdict, ready to print.
struct Verdict {
    file: String,
    game: Game,
    kind: &'static str,
    /// A mission's verdict: the squad file it was checked against.
    squad: Option<String>,
    violations: Vec<Violation>,
    /// Derived figures of each character: (who, derived).
    characters: Vec<(String, Option<String>, Derived)>,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let loaded: Vec<Loaded> = args
        .files
        .iter()
        .map(|p| load(p))
        .collect::<Result<_, _>>()?;
    let db = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    let cat = Catalogue::open(&db)
        .map_err(|e| BadInput(format!("cannot open the catalogue {}: {e}", db.display())))?;
    let keeping = crate::games::build::Keeping::new(&cat);
    let verdicts = check_all(&loaded, &keeping);
    if let Some(e) = crate::cards::CardLookup::take_error(&cat) {
        return Err(BadInput(format!("cannot read the catalogue's cards: {e}")));
    }
    // What the cards these files name say and their engine does not play, said on stderr
    // (a note, not a violation: the exit status is the rules' alone).
    super::report::say_gaps(&keeping.into_kept());

    if args.json {
        let docs: Vec<Value> = verdicts.iter().map(to_json).collect();
        let doc = if docs.len() == 1 {
            docs.into_iter().next().expect("one")
        } else {
            Value::Array(docs)
        };
        ctx.out.json_pretty(&doc);
    } else {
        for v in &verdicts {
            ctx.out.text(&to_text(v));
        }
    }
    let legal = verdicts.iter().all(|v| v.violations.is_empty());
    Ok(if legal {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Reads and parses one file; the error names the file (and line, column, key for TOML).
fn load(path: &Path) -> Result<Loaded, BadInput> {
    let file = path.display().to_string();
    let text = read(path)?;
    if is_mission(&text, &file) {
        return Ok(Loaded {
            build: Build::Mission(MissionFile::parse(&text, &file)?),
            file,
        });
    }
    let build = match BuildFile::parse(&text, &file)? {
        BuildFile::Party(p) => Build::Party(p),
        BuildFile::Squad(s) => Build::Squad(s),
        BuildFile::Character(c) => Build::Character(c),
        BuildFile::Setup(setup) => {
            let mut characters = Vec::new();
            for cpath in setup.character_paths(path) {
                let cfile = cpath.display().to_string();
                let ctext = read(&cpath)
                    .map_err(|e| BadInput(format!("{file}: character of a player: {}", e.0)))?;
                characters.push((cfile.clone(), CharacterFile::parse(&ctext, &cfile)?));
            }
            Build::Setup(setup, characters)
        }
    };
    Ok(Loaded { file, build })
}

/// A mission file: its name ends in `.mission.toml`, or it says `kind = "mission"`.
fn is_mission(text: &str, file: &str) -> bool {
    file.ends_with(".mission.toml")
        || toml::from_str::<toml::Table>(text)
            .ok()
            .is_some_and(|t| t.get("kind").and_then(|k| k.as_str()) == Some("mission"))
}

fn read(path: &Path) -> Result<String, BadInput> {
    read_text(path).map_err(|e| BadInput(format!("cannot read {}: {e}", path.display())))
}

fn check_all(loaded: &[Loaded], lookup: &dyn CardLookup) -> Vec<Verdict> {
    let parties: Vec<&PartyFile> = loaded
        .iter()
        .filter_map(|l| match &l.build {
            Build::Party(p) => Some(p),
            _ => None,
        })
        .collect();
    let mut party_reports = iconica::check_match(&parties, lookup).into_iter();
    // The squads given, with their members resolved, for the missions given with them.
    let squads: Vec<(&str, Vec<crate::games::ruunara::model::Figure>)> = loaded
        .iter()
        .filter_map(|l| match &l.build {
            Build::Squad(s) => Some((l.file.as_str(), ruunara::check_squad(s, lookup).members)),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    for l in loaded {
        if let Build::Mission(m) = &l.build {
            let verdict = |squad: Option<&str>, violations| Verdict {
                file: l.file.clone(),
                game: Game::Ruunara,
                kind: "mission",
                squad: squad.map(str::to_string),
                violations,
                characters: Vec::new(),
            };
            if squads.is_empty() {
                out.push(verdict(None, m.check(None, lookup)));
            }
            for (file, members) in &squads {
                out.push(verdict(Some(file), m.check(Some(members), lookup)));
            }
            continue;
        }
        let (game, kind, violations, characters) = match &l.build {
            Build::Mission(_) => unreachable!("missions are checked above"),
            Build::Party(_) => {
                let r = party_reports.next().expect("one report per party");
                (Game::Iconica, "party", r.violations, Vec::new())
            }
            Build::Squad(s) => (
                Game::Ruunara,
                "squad",
                ruunara::check_squad(s, lookup).violations,
                Vec::new(),
            ),
            Build::Character(c) => {
                let r = arcadia::check_character(c, lookup);
                let who = character_name(c);
                (
                    Game::Arcadia,
                    "character",
                    r.violations,
                    vec![(who, None, r.derived)],
                )
            }
            Build::Setup(s, chars) => {
                let files: Vec<CharacterFile> = chars.iter().map(|(_, c)| c.clone()).collect();
                let r = arcadia::check_setup(s, &files, lookup);
                let derived = chars
                    .iter()
                    .zip(r.characters)
                    .enumerate()
                    .map(
                        |(i, ((f, c), cr)): (
                            usize,
                            (&(String, CharacterFile), CharacterReport),
                        )| {
                            (
                                format!("player {} ({})", i + 1, character_name(c)),
                                Some(f.clone()),
                                cr.derived,
                            )
                        },
                    )
                    .collect();
                (Game::Arcadia, "setup", r.violations, derived)
            }
        };
        out.push(Verdict {
            file: l.file.clone(),
            game,
            kind,
            squad: None,
            violations,
            characters,
        });
    }
    out
}

fn character_name(c: &CharacterFile) -> String {
    if c.name.is_empty() {
        "unnamed character".into()
    } else {
        c.name.clone()
    }
}

fn to_json(v: &Verdict) -> Value {
    let mut doc = json!({
        "file": v.file,
        "game": v.game.as_str(),
        "kind": v.kind,
        "legal": v.violations.is_empty(),
        "violations": v.violations,
    });
    if let Some(squad) = &v.squad {
        doc["squad"] = json!(squad);
    }
    match v.kind {
        "character" => {
            if let Some((_, _, d)) = v.characters.first() {
                doc["derived"] = json!(d);
            }
        }
        "setup" => {
            doc["characters"] = Value::Array(
                v.characters
                    .iter()
                    .map(|(who, file, d)| json!({"player": who, "file": file, "derived": d}))
                    .collect(),
            );
        }
        _ => {}
    }
    doc
}

/// The verdict in lines of text. Everything quoted from the files (file names, card names
/// and ids in the messages, character names) has its control characters escaped
/// (`escape_controls`, as `search` does): a name cannot retitle or clear the terminal or
/// forge a line.
fn to_text(v: &Verdict) -> String {
    let mut out = String::new();
    let file = match &v.squad {
        Some(squad) => format!("{} with {}", esc(&v.file), esc(squad)),
        None => esc(&v.file).into_owned(),
    };
    if v.violations.is_empty() {
        out.push_str(&format!("{file}: legal\n"));
    } else {
        let n = v.violations.len();
        out.push_str(&format!(
            "{file}: {n} violation{}\n",
            if n == 1 { "" } else { "s" }
        ));
        for x in &v.violations {
            out.push_str(&format!("  {}: {}\n", esc(x.rule), esc(&x.message)));
            if !x.cards.is_empty() {
                out.push_str(&format!("    cards: {}\n", esc(&x.cards.join(", "))));
            }
            out.push_str(&format!("    source: {}\n", esc(x.source)));
        }
    }
    for (who, _, d) in &v.characters {
        let prefix = if v.kind == "setup" {
            format!("{}: ", esc(who))
        } else {
            String::new()
        };
        out.push_str(&format!("  {prefix}{}\n", esc(&derived_text(d))));
    }
    out
}

fn derived_text(d: &Derived) -> String {
    let court = match (d.court, d.court_decided_by) {
        (Some(c), CourtBasis::Majority) => {
            format!(
                "{} (majority, {} Seelie to {} Unseelie)",
                court_name(c),
                d.seelie,
                d.unseelie
            )
        }
        (Some(c), _) => format!(
            "{} (declared, tied {} to {})",
            court_name(c),
            d.seelie,
            d.unseelie
        ),
        (None, _) => format!(
            "undecided (tied {} to {}, none declared)",
            d.seelie, d.unseelie
        ),
    };
    format!(
        "points: {} available, {} spent, {} left; court: {court}; experience: {} earned, {} spent; Waylay Rating bonus: +{}",
        d.points_available, d.points_spent, d.points_left, d.xp_earned, d.xp_spent, d.waylay_bonus
    )
}

fn court_name(c: Court) -> &'static str {
    match c {
        Court::Seelie => "Seelie",
        Court::Unseelie => "Unseelie",
    }
}

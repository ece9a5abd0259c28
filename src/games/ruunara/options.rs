//! Ruunara's match options, declared once: the mission and the squad (`play ruunara`, `sim
//! ruunara`), and how a mission is deployed from them and the catalogue's cards.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::engine::RuunaraGame;
use super::engine::{PlayMode, Setup};
use super::matchfile::{self, Source};
use super::mission::{MissionFile, Scenario};
use super::rules as ruunara_rules;
use super::squad::SquadFile;
use crate::cards::CardLookup;
use crate::games::ai::{Budget, Policy};
use crate::games::dice::{RngDice, game_seed};
use crate::games::registry::{Ask, Prepared, Shelf};
use crate::games::run::{at, play_seeded};

/// `mcts:N` on a mission: N times the mission's figures at most this much (each playout
/// plays every figure to the mission's end, so a decision's work grows with both).
pub const MAX_SEARCH: u64 = 100_000;

/// A mission of Ruunara and the squad that plays it.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct RuunaraOptions {
    /// The mission file (`*.mission.toml`).
    #[arg(required_unless_present = "campaign")]
    pub mission: Option<PathBuf>,
    /// The squad file (`*.squad.toml`), deployed by the mission in squad order.
    #[arg(required_unless_present = "campaign")]
    pub squad: Option<PathBuf>,
    /// Story mode: play the three missions of a campaign file (`*.campaign.toml`, which
    /// names its squad and missions) in order, `play` only; heroes executed in one mission
    /// are gone for the rest. With `--record FILE`, one match file per mission (FILE's name
    /// with `-1`, `-2`, `-3` before `.match.toml`), each replayed by `deckwright replay`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["mission", "squad"])]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub campaign: Option<PathBuf>,
    /// Who plays: solo (one player commands the squad), duo (two players share the heroes,
    /// each commanding every other member in squad order; --policy plays both) or contest
    /// (a second player commands the enemies; the sides alternate activations).
    #[arg(long, value_enum, default_value_t = PlayMode::Solo)]
    #[serde(default)]
    pub mode: PlayMode,
}

/// What `balance ruunara` takes besides the run's options (policy, stopping, seed, output,
/// which the face adds): the hero (or one of its skills) measured, its squads and missions.
#[derive(Debug, Clone, clap::Args)]
pub struct BalanceOptions {
    /// A hero (or unit): a catalogue id or name, or a card file (imported or not).
    #[arg(value_name = "HERO")]
    pub hero: String,
    /// Measure this skill of the hero (its name) rather than the hero: the squad with the
    /// hero as printed against the hero without the skill.
    #[arg(long, value_name = "NAME")]
    pub skill: Option<String>,
    /// Squad files with the hero (default: the example squads built in that have it).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub squad: Vec<PathBuf>,
    /// Mission files (default: the example missions built in).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub mission: Vec<PathBuf>,
}

impl RuunaraOptions {
    /// The mission these options describe, deployed and checked (a note said of cards the
    /// engine does not fully play; a search too large for it refused): the record's options.
    pub fn compile(&self, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<toml::Table, String> {
        Ok(matchfile::options(&self.setup(shelf, ask)?.1))
    }

    /// The engine's setup of the mission and what a record keeps of it, checked as
    /// [`RuunaraOptions::compile`] checks it.
    pub fn setup(&self, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<(Setup, Source), String> {
        let (Some(mission), Some(squad)) = (&self.mission, &self.squad) else {
            return Err(match &self.campaign {
                Some(c) => format!(
                    "--campaign {}: a campaign is played by `deckwright play ruunara --campaign FILE`",
                    c.display()
                ),
                None => "give the MISSION and SQUAD files, or --campaign FILE".into(),
            });
        };
        let lookup = shelf.lookup()?;
        let (scenario, mut source) = deployed(shelf, lookup, mission, squad)?;
        source.mode = self.mode;
        if let Some(n) = crate::games::gaps::note(&crate::games::gaps::of_cards(&source.cards)) {
            shelf.note(&n);
        }
        let setup = Setup::new(&scenario)
            .and_then(|s| s.with_mode(self.mode))
            .map_err(|e| format!("{}: {e}", mission.display()))?;
        for p in (ask.policies)(self.mode.seats()) {
            check_search(ask.policy_option, p, setup.figs.len())?;
        }
        Ok((setup, source))
    }
}

/// [`RuunaraOptions::compile`] from parsed arguments (the registry's entry).
pub fn compile(
    m: &clap::ArgMatches,
    shelf: &dyn Shelf,
    ask: &Ask<'_>,
) -> Result<toml::Table, String> {
    use clap::FromArgMatches;
    RuunaraOptions::from_arg_matches(m)
        .map_err(|e| e.to_string())?
        .compile(shelf, ask)
}

/// Refuses an `mcts:N` search too large for a mission of `figures` figures (N x figures
/// over [`MAX_SEARCH`]) before any work, naming `option` and the largest N the mission
/// allows.
pub fn check_search(option: &str, policy: Policy, figures: usize) -> Result<(), String> {
    if let Policy::Mcts(Budget::Playouts(n)) | Policy::SeatMcts(Budget::Playouts(n)) = policy {
        let figures = figures.max(1) as u64;
        let work = u64::from(n) * figures;
        if work > MAX_SEARCH {
            return Err(format!(
                "{option}: mcts:{n} on a mission of {figures} figures is {work} playouts x figures a decision; \
                 at most {MAX_SEARCH} (mcts:{} on this mission)",
                MAX_SEARCH / figures
            ));
        }
    }
    Ok(())
}

/// The scenario of a Ruunara mission and squad file, deployed, and what a match record
/// keeps of it: the mission's text and name, the squad, and every card looked up.
pub fn deployed(
    shelf: &dyn Shelf,
    lookup: &dyn CardLookup,
    mission: &Path,
    squad: &Path,
) -> Result<(Scenario, Source), String> {
    let keeping = crate::games::build::Keeping::new(lookup);
    let lookup: &dyn CardLookup = &keeping;
    let mshown = mission.display().to_string();
    let mission_text = shelf.read(mission).map_err(|e| format!("{mshown}: {e}"))?;
    let m = MissionFile::parse(&mission_text, &mshown).map_err(|e| e.to_string())?;
    let sshown = squad.display().to_string();
    let text = shelf.read(squad).map_err(|e| format!("{sshown}: {e}"))?;
    let s = SquadFile::parse(&text, &sshown).map_err(|e| e.to_string())?;
    let report = ruunara_rules::check_squad(&s, lookup);
    if let Some(e) = lookup.take_error() {
        return Err(format!("cannot read the catalogue's cards: {e}"));
    }
    let first = |file: &str, what: &str, v: &[crate::games::build::Violation]| {
        format!(
            "{file}: {what}: {}: {}{}",
            v[0].rule,
            v[0].message,
            if v.len() > 1 {
                format!(" (and {} more; run `deckwright validate`)", v.len() - 1)
            } else {
                String::new()
            }
        )
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
        Source {
            mission_file,
            mission: mission_text,
            squad: s,
            cards: keeping.into_kept(),
            mode: PlayMode::Solo,
        },
    ))
}

/// `sim ruunara`'s run: the mission deployed once, the squad played by the policy.
pub fn prepare(m: &clap::ArgMatches, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<Prepared, String> {
    use clap::FromArgMatches;
    let o = RuunaraOptions::from_arg_matches(m).map_err(|e| e.to_string())?;
    let (setup, _) = o.setup(shelf, ask)?;
    let policies = (ask.policies)(o.mode.seats());
    let seats = policies.clone();
    Ok(Prepared {
        run: vec![
            ("mission", setup.id.clone().into()),
            ("name", setup.name.clone().into()),
        ],
        setup: format!("{setup:?}"),
        policies,
        play: Box::new(move |seed, index| {
            let s = game_seed(seed, index);
            at(play_seeded(
                RuunaraGame::new(&setup),
                RngDice::new(s),
                &seats,
                s,
            ))
        }),
    })
}

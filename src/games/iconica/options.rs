//! Iconica's match options, declared once: the party files and the rules (`play iconica`,
//! `sim iconica`, and the Match screen's rules form edit the same [`IconicaRules`]), and how
//! a match is compiled from them and the catalogue's characters.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::engine::{Breaks, Rules, Ruleset, Setup};
use super::engine::{IconicaGame, RngDice};
use super::model::Character;
use super::party::PartyFile;
use super::{matchfile, rules};
use crate::cards::CardLookup;
use crate::games::dice::game_seed;
use crate::games::registry::{Ask, Prepared, Shelf};
use crate::games::run::{at, play_seeded};

/// The most turns a match may be limited to.
pub const MAX_TURN_LIMIT: u32 = 100_000;

/// A match of Iconica: its parties and its rules.
#[derive(Debug, Clone, PartialEq, clap::Args, Serialize, Deserialize)]
pub struct IconicaOptions {
    /// Two party files, a then b; or four for a team game (side a's two players in seating
    /// order, then side b's).
    #[arg(required = true, value_name = "PARTY")]
    pub parties: Vec<PathBuf>,
    #[command(flatten)]
    #[serde(flatten)]
    pub rules: IconicaRules,
}

/// What `sim iconica` takes besides the match's options: a field run (every legal party of
/// a pool against one).
#[derive(Debug, Clone, clap::Args)]
pub struct Field {
    /// Every legal party of the catalogue's Iconica characters (or of --pool) against PARTY.
    #[arg(long)]
    pub field: bool,
    /// With --field: the characters to draw parties from (ids, comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "IDS", requires = "field")]
    pub pool: Vec<String>,
}

/// What `balance iconica` takes besides the run's options (policy, stopping, seed,
/// output, which the face adds): the character measured, its field, and what to report.
#[derive(Debug, Clone, clap::Args)]
pub struct BalanceOptions {
    /// A catalogue id or name, or a card file (imported or not).
    #[arg(value_name = "CARD")]
    pub card: String,
    /// Party files to measure against (default: every legal party of the catalogue's
    /// Iconica characters without the card).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    pub field: Vec<PathBuf>,
    /// Up to three confirmed edits that put the card within 45-55%.
    #[arg(long)]
    pub suggest: bool,
    /// Skip the rank among the catalogue's characters (one run per character).
    #[arg(long)]
    pub no_rank: bool,
    /// Skip the impact of each part (one paired run per part).
    #[arg(long)]
    pub no_impact: bool,
    /// Decide whether the card is fair by a sequential test on pairs of games with the same
    /// seed and the seats swapped (fair: within 45-55%; unfair: at least --margin beyond),
    /// stopping as soon as it is decided (error rates 5% each way; at most --max-games).
    #[arg(long)]
    pub sprt: bool,
    /// With --sprt: how far beyond the fair band a card must be to count as unfair.
    #[arg(long, value_name = "M", default_value_t = 0.05, requires = "sprt")]
    pub margin: f64,
    #[command(flatten)]
    pub rules: IconicaRules,
}

/// What `balance sweep iconica` takes of the game: the rules every card is measured under.
#[derive(Debug, Clone, clap::Args)]
pub struct SweepOptions {
    #[command(flatten)]
    pub rules: IconicaRules,
}

/// Iconica's rule options.
#[derive(Debug, Clone, PartialEq, Eq, clap::Args, Serialize, Deserialize)]
pub struct IconicaRules {
    /// The rule text the engine follows.
    #[arg(long, value_enum, default_value_t = RulesetArg::V2)]
    pub ruleset: RulesetArg,
    /// The Action Break variant (v2 only).
    #[arg(long, value_enum, default_value_t = BreaksArg::Standard)]
    pub breaks: BreaksArg,
    /// House rules, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "RULES")]
    pub house: Vec<HouseRule>,
    /// A match that reaches this many turns ends as a draw (1 to 100,000).
    #[arg(long, value_name = "N", default_value_t = 500,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_TURN_LIMIT)))]
    pub turn_limit: u32,
}

impl Default for IconicaRules {
    fn default() -> Self {
        IconicaRules::of(&Rules::default())
    }
}

/// `--ruleset`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RulesetArg {
    V2,
    V8,
}

/// `--breaks`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BreaksArg {
    Standard,
    Advanced,
}

/// One of `--house` (v8 Gameplay Tip 5); the variants are named as the command line spells
/// them (`no-reactions`).
#[allow(clippy::enum_variant_names)]
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, clap::ValueEnum, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum HouseRule {
    NoReactions,
    NoStrengths,
    NoFinalActs,
    NoActionBreaks,
}

impl IconicaRules {
    /// The options that give `rules`.
    pub fn of(rules: &Rules) -> IconicaRules {
        let house = [
            (!rules.reactions, HouseRule::NoReactions),
            (!rules.strengths, HouseRule::NoStrengths),
            (!rules.final_acts, HouseRule::NoFinalActs),
            (!rules.action_breaks, HouseRule::NoActionBreaks),
        ]
        .into_iter()
        .filter_map(|(on, h)| on.then_some(h))
        .collect();
        IconicaRules {
            ruleset: match rules.ruleset {
                Ruleset::V2 => RulesetArg::V2,
                Ruleset::V8 => RulesetArg::V8,
            },
            breaks: match rules.breaks {
                Breaks::Standard => BreaksArg::Standard,
                Breaks::Advanced => BreaksArg::Advanced,
            },
            house,
            turn_limit: rules.turn_limit,
        }
    }

    /// The rules these options ask for.
    pub fn rules(&self) -> Rules {
        let mut rules = Rules {
            ruleset: match self.ruleset {
                RulesetArg::V2 => Ruleset::V2,
                RulesetArg::V8 => Ruleset::V8,
            },
            breaks: match self.breaks {
                BreaksArg::Standard => Breaks::Standard,
                BreaksArg::Advanced => Breaks::Advanced,
            },
            turn_limit: self.turn_limit.clamp(1, MAX_TURN_LIMIT),
            ..Rules::default()
        };
        for h in &self.house {
            match h {
                HouseRule::NoReactions => rules.reactions = false,
                HouseRule::NoStrengths => rules.strengths = false,
                HouseRule::NoFinalActs => rules.final_acts = false,
                HouseRule::NoActionBreaks => rules.action_breaks = false,
            }
        }
        rules
    }

    /// The command-line options that give these rules (empty for the defaults), each with a
    /// leading space: what a face shows as "the same match on the command line".
    pub fn command_line(&self) -> String {
        let d = IconicaRules::default();
        let mut s = String::new();
        if self.ruleset != d.ruleset {
            s.push_str(" --ruleset v8");
        }
        if self.breaks != d.breaks {
            s.push_str(" --breaks advanced");
        }
        if !self.house.is_empty() {
            let mut house = self.house.clone();
            house.sort();
            house.dedup();
            let names: Vec<&str> = house
                .iter()
                .map(|h| match h {
                    HouseRule::NoReactions => "no-reactions",
                    HouseRule::NoStrengths => "no-strengths",
                    HouseRule::NoFinalActs => "no-final-acts",
                    HouseRule::NoActionBreaks => "no-action-breaks",
                })
                .collect();
            s.push_str(&format!(" --house {}", names.join(",")));
        }
        if self.turn_limit != d.turn_limit {
            s.push_str(&format!(" --turn-limit {}", self.turn_limit));
        }
        s
    }
}

impl IconicaOptions {
    /// The match these options describe, its parties read from their files and checked
    /// against the construction rules (`spec/iconica.md`): the record's options.
    pub fn compile(&self, shelf: &dyn Shelf) -> Result<toml::Table, String> {
        if self.parties.len() != 2 && self.parties.len() != 4 {
            return Err(format!(
                "iconica needs two party files (or four for a team game), got {}",
                self.parties.len()
            ));
        }
        let lookup = shelf.lookup()?;
        let named = named_parties(shelf, lookup, &self.parties)?;
        let parties: Vec<Vec<Character>> = named.iter().map(|(_, m)| m.clone()).collect();
        let rules = self.rules.rules();
        setup(&parties, rules)?;
        Ok(matchfile::options(&rules, &named))
    }
}

/// [`IconicaOptions::compile`] from parsed arguments (the registry's entry).
pub fn compile(
    m: &clap::ArgMatches,
    shelf: &dyn Shelf,
    _ask: &Ask<'_>,
) -> Result<toml::Table, String> {
    use clap::FromArgMatches;
    IconicaOptions::from_arg_matches(m)
        .map_err(|e| e.to_string())?
        .compile(shelf)
}

/// Reads the party files, resolves their members and checks the construction rules of
/// `spec/iconica.md` for the match, `shared-legend-special` included (the error names the
/// file and the rule); each party with the name its file gives it.
pub fn named_parties(
    shelf: &dyn Shelf,
    lookup: &dyn CardLookup,
    files: &[PathBuf],
) -> Result<Vec<(String, Vec<Character>)>, String> {
    let mut parsed: Vec<PartyFile> = Vec::new();
    for f in files {
        let shown = f.display().to_string();
        let text = shelf.read(f).map_err(|e| format!("{shown}: {e}"))?;
        parsed.push(PartyFile::parse(&text, &shown).map_err(|e| e.to_string())?);
    }
    let refs: Vec<&PartyFile> = parsed.iter().collect();
    let reports = rules::check_match(&refs, lookup);
    if let Some(e) = lookup.take_error() {
        return Err(format!("cannot read the catalogue's cards: {e}"));
    }
    let mut parties = Vec::new();
    for ((f, report), file) in files.iter().zip(reports).zip(&parsed) {
        if let Some(v) = report.violations.first() {
            return Err(format!(
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
            ));
        }
        parties.push((file.name.clone(), report.members));
    }
    Ok(parties)
}

/// The match-up of 2 parties, or of 4 (two teams of two).
pub fn setup(parties: &[Vec<Character>], rules: Rules) -> Result<Setup, String> {
    let r = match parties.len() {
        2 => Setup::duel(&parties[0], &parties[1], rules),
        4 => Setup::teams(
            &[&parties[0], &parties[1]],
            &[&parties[2], &parties[3]],
            rules,
        ),
        n => {
            return Err(format!(
                "iconica needs two party files (or four for a team game), got {n}"
            ));
        }
    };
    r.map_err(|e| e.to_string())
}

/// `sim iconica`'s run of two parties (a field run, `--field`, is the face's): the setup
/// compiled once.
pub fn prepare(m: &clap::ArgMatches, shelf: &dyn Shelf, ask: &Ask<'_>) -> Result<Prepared, String> {
    use clap::FromArgMatches;
    let o = IconicaOptions::from_arg_matches(m).map_err(|e| e.to_string())?;
    if o.parties.len() != 2 {
        return Err(format!(
            "sim iconica needs two party files (a and b), got {}",
            o.parties.len()
        ));
    }
    let lookup = shelf.lookup()?;
    let parties: Vec<Vec<Character>> = named_parties(shelf, lookup, &o.parties)?
        .into_iter()
        .map(|(_, members)| members)
        .collect();
    let setup = setup(&parties, o.rules.rules())?;
    let policies = (ask.policies)(2);
    let seats = policies.clone();
    Ok(Prepared {
        run: Vec::new(),
        setup: format!("{setup:?}"),
        policies,
        play: Box::new(move |seed, index| {
            let s = game_seed(seed, index);
            at(play_seeded(
                IconicaGame::new(&setup),
                RngDice::new(s),
                &seats,
                s,
            ))
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_round_trip_through_the_options_and_their_file_form() {
        let mut rules = Rules {
            ruleset: Ruleset::V8,
            turn_limit: 77,
            ..Rules::default()
        };
        rules.final_acts = false;
        rules.reactions = false;
        let o = IconicaRules::of(&rules);
        assert_eq!(o.rules(), rules);
        assert_eq!(
            o.command_line(),
            " --ruleset v8 --house no-reactions,no-final-acts --turn-limit 77"
        );
        assert_eq!(IconicaRules::default().command_line(), "");
        // The same struct saved and read back (a form's settings, a run's description).
        let text = toml::to_string(&o).unwrap();
        assert!(text.contains("ruleset = \"v8\""), "{text}");
        assert_eq!(toml::from_str::<IconicaRules>(&text).unwrap(), o);
        // And parsed from a command line as `play iconica` parses it.
        use clap::{Args, FromArgMatches};
        let cmd = IconicaOptions::augment_args(clap::Command::new("iconica"));
        let m = cmd
            .try_get_matches_from([
                "iconica",
                "a.toml",
                "b.toml",
                "--ruleset",
                "v8",
                "--house",
                "no-final-acts,no-reactions",
                "--turn-limit",
                "77",
            ])
            .unwrap();
        let parsed = IconicaOptions::from_arg_matches(&m).unwrap();
        assert_eq!(parsed.rules.rules(), rules);
        assert_eq!(parsed.parties.len(), 2);
    }
}

//! Story mode (rule text 003, "Starting your adventure": "Each playable race features three
//! distinct missions"; `spec/ruunara.md`, "Added in the third round"): a campaign of three
//! missions for one race (`*.campaign.toml`), played in order by a squad of that race only;
//! a hero executed in one mission (dead, or a captive when the mission is lost) is gone for
//! the rest of the campaign. Each mission is an ordinary match (its own record and report);
//! the campaign ends with its first lost mission, or won with its third.

use serde::Deserialize;
use serde_json::{Value, json};

use super::matchfile;
use super::mission::{Deploy, MissionFile};
use super::model::PLAYABLE_RACES;
use super::rules;
use super::squad::{Mode, SquadFile};
use crate::cards::{Card, CardLookup};
use crate::games::ai::Policy;
use crate::games::dice::{RngDice, game_seed};
use crate::games::record::MatchRecord;
use crate::games::report::Report;

/// How many missions a campaign has.
pub const MISSIONS: usize = 3;

/// A campaign file as written.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignFile {
    pub game: String,
    pub kind: String,
    pub id: String,
    pub name: String,
    /// The one race its squad is of (`ardann`, `kangara` or `sanbari`).
    pub race: String,
    /// The squad file, relative to the campaign file's folder.
    pub squad: String,
    /// The three mission files in the order played, relative to the campaign file's folder.
    pub missions: Vec<String>,
    /// What the story says before the first mission (shown, never applied).
    #[serde(default)]
    pub text: Option<String>,
}

impl CampaignFile {
    /// Reads a campaign file; `file` names it in errors (with the line and column).
    pub fn parse(text: &str, file: &str) -> Result<CampaignFile, String> {
        let c: CampaignFile = toml::from_str(text).map_err(|e| format!("{file}: {e}"))?;
        let bad = |m: String| Err(format!("{file}: {m}"));
        if c.game != "ruunara" {
            return bad(format!("`game` is `{}`; a campaign is Ruunara's", c.game));
        }
        if c.kind != "campaign" {
            return bad(format!("`kind` is `{}`; expected `campaign`", c.kind));
        }
        if !PLAYABLE_RACES.contains(&c.race.as_str()) {
            return bad(format!(
                "`race` is `{}`; one of {}",
                c.race,
                PLAYABLE_RACES.join(", ")
            ));
        }
        if c.missions.len() != MISSIONS {
            return bad(format!(
                "a campaign has {MISSIONS} missions; this one lists {}",
                c.missions.len()
            ));
        }
        Ok(c)
    }

    /// The rules a squad and the campaign's missions (file name, parsed) break, each said
    /// whole: a Story Mode squad of the campaign's race only, and missions that deploy the
    /// squad in one zone (so a squad with members gone still deploys).
    pub fn check(
        &self,
        squad: &SquadFile,
        lookup: &dyn CardLookup,
        missions: &[(String, MissionFile)],
    ) -> Result<(), String> {
        if squad.mode != Mode::Story {
            return Err(format!(
                "{}: a campaign is played in Story Mode; the squad's mode is free play",
                self.squad
            ));
        }
        let report = rules::check_squad(squad, lookup);
        if let Some(v) = report.violations.first() {
            return Err(format!(
                "{}: illegal squad: {}: {}",
                self.squad, v.rule, v.message
            ));
        }
        if let Some(f) = report.members.iter().find(|f| f.race != self.race) {
            return Err(format!(
                "{}: {} ({}) is {}; the campaign `{}` is for the {} only",
                self.squad, f.name, f.id, f.race, self.id, self.race
            ));
        }
        for (name, m) in missions {
            if !matches!(m.deploy.as_slice(), [Deploy::Zone { .. }]) {
                return Err(format!(
                    "{name}: a campaign's mission deploys the squad in one zone (a single [[deploy]] with `w` and `d`), so that it still deploys when heroes are gone"
                ));
            }
        }
        Ok(())
    }
}

/// One mission of a campaign as played.
#[derive(Debug, Clone)]
pub struct Leg {
    /// The mission's file name.
    pub mission_file: String,
    /// Its match record (replays with `deckwright replay`).
    pub record: MatchRecord,
    /// Its report, as `play` prints it.
    pub report: Report,
    /// Whether the heroes won it.
    pub won: bool,
    /// The members gone after it (card ids), in squad order.
    pub gone: Vec<String>,
}

/// A campaign played: its missions in order (up to the first lost), and the end.
#[derive(Debug, Clone)]
pub struct Played {
    pub legs: Vec<Leg>,
    /// Every mission won.
    pub won: bool,
    /// The members left at the end (card ids), in squad order.
    pub survivors: Vec<String>,
}

/// Plays `campaign` with `squad` and its `missions` (file name and text, in order), the
/// cards from `lookup`: mission `k` seeded from (`seed`, `k`), the squad's seat played by
/// `policies`. Each mission is deployed with the members still in the campaign, checked as
/// `play` checks a mission.
pub fn play(
    campaign: &CampaignFile,
    squad: &SquadFile,
    missions: &[(String, String)],
    lookup: &dyn CardLookup,
    policies: &[Policy],
    seed: u64,
) -> Result<Played, String> {
    let parsed = missions
        .iter()
        .map(|(name, text)| {
            MissionFile::parse(text, name)
                .map(|m| (name.clone(), m))
                .map_err(|e| e.to_string())
        })
        .collect::<Result<Vec<_>, _>>()?;
    campaign.check(squad, lookup, &parsed)?;
    let mut members = squad.members.clone();
    let mut legs = Vec::new();
    let none: Vec<Card> = Vec::new();
    for (k, (name, text)) in missions.iter().enumerate() {
        let now = SquadFile {
            members: members.clone(),
            ..squad.clone()
        };
        let (_, src) =
            matchfile::deploy(lookup, text, name, &now).map_err(|e| format!("{name}: {e}"))?;
        let options = matchfile::options(&src);
        let s = game_seed(seed, k as u64);
        let mut position = matchfile::open(&options, &none)
            .map_err(|e| format!("{name}: {e}"))?
            .game;
        let (inputs, exhausted) = position.play_on(&mut RngDice::new(s), policies, s, &mut |_| {});
        let mut start = matchfile::open(&options, &none)
            .map_err(|e| format!("{name}: {e}"))?
            .game;
        let checks = inputs.iter().map(|&i| start.apply(i).check).collect();
        let record = MatchRecord {
            engine: matchfile::ENGINE,
            seats: policies.iter().map(|p| p.name()).collect(),
            inputs,
            checks,
            exhausted,
            options,
            ..MatchRecord::new("ruunara", s)
        };
        let report = matchfile::replay(&record, None, &none)
            .map_err(|e| format!("{name}: the mission did not replay: {e}"))?;
        let won = report.json["winner"] == json!("heroes");
        let heroes = report.json["sides"]["heroes"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let (left, gone) = after_mission(&members, &heroes, won);
        members = left;
        legs.push(Leg {
            mission_file: name.clone(),
            record,
            report,
            won,
            gone,
        });
        if !won || members.is_empty() {
            break;
        }
    }
    let won = legs.len() == MISSIONS && legs.iter().all(|l| l.won);
    let survivors = if legs.last().is_some_and(|l| l.won) {
        legs.last()
            .map(|l| {
                l.report.json["sides"]["heroes"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|h| h["status"] != json!("dead"))
                    .filter_map(|h| h["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    Ok(Played {
        legs,
        won,
        survivors,
    })
}

/// The match file of mission `k` (from 1) of a campaign recorded to `record`
/// (`play ruunara --campaign ... --record`): `-k` before its `.match.toml` (or `.toml`), else
/// `-k.match.toml` after it (`run.match.toml` gives `run-1.match.toml`, `run-2.match.toml`,
/// ...). Each is an ordinary match file, replayed by `deckwright replay`.
pub fn record_path(record: &std::path::Path, k: usize) -> std::path::PathBuf {
    let name = record
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = name
        .strip_suffix(".match.toml")
        .or_else(|| name.strip_suffix(".toml"))
        .unwrap_or(&name);
    record.with_file_name(format!("{stem}-{k}.match.toml"))
}

/// The squad's `members` (as its file lists them, in squad order) after a mission whose
/// `heroes` (`play --json`'s `sides.heroes`, the same order) ended so, and the card ids of
/// those gone: a dead hero is gone; a captive is freed by a won mission and executed by a
/// lost one.
pub fn after_mission(
    members: &[String],
    heroes: &[Value],
    won: bool,
) -> (Vec<String>, Vec<String>) {
    let mut left = Vec::new();
    let mut gone = Vec::new();
    for (m, h) in members.iter().zip(heroes) {
        let status = h["status"].as_str().unwrap_or("");
        if status == "dead" || (status == "captured" && !won) {
            gone.push(h["id"].as_str().unwrap_or(m).to_string());
        } else {
            left.push(m.clone());
        }
    }
    (left, gone)
}

impl Played {
    /// The campaign's last line: won or lost, after how many missions, who is left.
    pub fn summary(&self, c: &CampaignFile) -> String {
        let n = self.legs.len();
        if self.won {
            format!(
                "Campaign {}: won, all {MISSIONS} missions; {} of the squad left ({})",
                c.name,
                self.survivors.len(),
                self.survivors.join(", ")
            )
        } else {
            format!(
                "Campaign {}: lost in mission {n} of {MISSIONS} ({})",
                c.name,
                self.legs.last().map_or("", |l| l.mission_file.as_str())
            )
        }
    }

    /// The `play --json` document of a campaign: each mission's own document, in order.
    pub fn json(&self, c: &CampaignFile, seed: u64) -> Value {
        json!({
            "game": "ruunara",
            "campaign": c.id,
            "name": c.name,
            "race": c.race,
            "seed": seed,
            "won": self.won,
            "winner": if self.won { "heroes" } else { "enemies" },
            "survivors": self.survivors,
            "missions": self.legs.iter().map(|l| json!({
                "mission_file": l.mission_file,
                "won": l.won,
                "gone": l.gone,
                "match": l.report.json,
            })).collect::<Vec<_>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dead_are_gone_and_a_captive_is_freed_by_a_win_and_executed_by_a_loss() {
        let members: Vec<String> = ["a", "Bee", "c"].map(String::from).to_vec();
        let heroes = vec![
            json!({"id": "ru-a", "status": "dead"}),
            json!({"id": "ru-b", "status": "captured"}),
            json!({"id": "ru-c", "status": "free"}),
        ];
        assert_eq!(
            after_mission(&members, &heroes, true),
            (
                vec!["Bee".to_string(), "c".to_string()],
                vec!["ru-a".to_string()]
            )
        );
        assert_eq!(
            after_mission(&members, &heroes, false),
            (
                vec!["c".to_string()],
                vec!["ru-a".to_string(), "ru-b".to_string()]
            )
        );
    }

    #[test]
    fn a_campaign_file_is_read_strictly() {
        let ok = "game = \"ruunara\"\nkind = \"campaign\"\nid = \"x\"\nname = \"X\"\nrace = \"ardann\"\nsquad = \"s.squad.toml\"\nmissions = [\"a\", \"b\", \"c\"]\n";
        assert_eq!(CampaignFile::parse(ok, "x").unwrap().missions.len(), 3);
        let two = ok.replace(", \"c\"", "");
        assert!(
            CampaignFile::parse(&two, "x")
                .unwrap_err()
                .contains("a campaign has 3 missions; this one lists 2")
        );
        let ghoul = ok.replace("ardann", "ghoul");
        assert!(
            CampaignFile::parse(&ghoul, "x")
                .unwrap_err()
                .contains("`race` is `ghoul`")
        );
        let extra = format!("{ok}colour = 1\n");
        assert!(
            CampaignFile::parse(&extra, "x")
                .unwrap_err()
                .contains("colour")
        );
    }
}

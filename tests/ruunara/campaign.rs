//! Story mode (spec/ruunara.md, "Added in the third round"; docs/rulings.md, "Story mode"):
//! each race's example campaign plays its missions in order, each mission deployed with the
//! members still in the campaign (a hero executed in one is gone from the next), each
//! mission's record replays; a campaign refuses a squad that is not of its race in Story
//! Mode and a mission that does not deploy in one zone; `play ruunara --campaign` prints it.

use std::path::PathBuf;
use std::process::Command;

use deckwright::games::ai::Policy;
use deckwright::games::ruunara::campaign::{self, CampaignFile};
use deckwright::games::ruunara::matchfile;
use deckwright::games::ruunara::mission::MissionFile;
use deckwright::games::ruunara::squad::SquadFile;

const CAMPAIGNS: [&str; 3] = [
    "ardann/forge-road.campaign.toml",
    "kangara/spirit-paths.campaign.toml",
    "sanbari/night-hunt.campaign.toml",
];

fn dir() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/ruunara/campaigns"
    ))
}

/// A campaign, its squad and its missions (name, text), read from the examples.
fn load(file: &str) -> (CampaignFile, SquadFile, Vec<(String, String)>) {
    let path = dir().join(file);
    let c = CampaignFile::parse(&std::fs::read_to_string(&path).unwrap(), file).unwrap();
    let here = path.parent().unwrap();
    let squad = SquadFile::parse(
        &std::fs::read_to_string(here.join(&c.squad)).unwrap(),
        &c.squad,
    )
    .unwrap();
    let missions = c
        .missions
        .iter()
        .map(|m| (m.clone(), std::fs::read_to_string(here.join(m)).unwrap()))
        .collect();
    (c, squad, missions)
}

#[test]
fn each_races_campaign_carries_only_its_survivors_from_mission_to_mission() {
    let cards = deckwright::catalogue::bundled_cards().unwrap();
    let mut races = Vec::new();
    for file in CAMPAIGNS {
        let (c, squad, missions) = load(file);
        races.push(c.race.clone());
        for seed in 0..4 {
            let policy = if seed % 2 == 0 {
                Policy::Greedy
            } else {
                Policy::Random
            };
            let played = campaign::play(&c, &squad, &missions, &cards, &[policy], seed).unwrap();
            assert!(!played.legs.is_empty() && played.legs.len() <= 3);
            let mut members = squad.members.clone();
            for (k, leg) in played.legs.iter().enumerate() {
                // The mission was deployed with the members still in the campaign.
                let src = matchfile::source_of(&leg.record.options).unwrap();
                assert_eq!(src.squad.members, members, "{file} seed {seed} mission {k}");
                assert_eq!(leg.mission_file, c.missions[k]);
                // Its record replays to the report kept.
                let again = matchfile::replay(&leg.record, None, &Vec::new()).unwrap();
                assert_eq!(again.json, leg.report.json);
                let heroes = leg.report.json["sides"]["heroes"]
                    .as_array()
                    .unwrap()
                    .clone();
                let (left, gone) = campaign::after_mission(&members, &heroes, leg.won);
                assert_eq!(gone, leg.gone);
                members = left;
                // Only a won mission with someone left leads to the next.
                if k + 1 < played.legs.len() {
                    assert!(leg.won && !members.is_empty());
                }
            }
            assert_eq!(
                played.won,
                played.legs.len() == 3 && played.legs.iter().all(|l| l.won)
            );
        }
    }
    assert_eq!(races, ["ardann", "kangara", "sanbari"]);
}

#[test]
fn a_campaign_refuses_a_squad_of_another_race_or_free_play_and_a_mission_without_one_zone() {
    let cards = deckwright::catalogue::bundled_cards().unwrap();
    let (c, squad, missions) = load("ardann/forge-road.campaign.toml");
    let parse = |ms: &[(String, String)]| -> Vec<(String, MissionFile)> {
        ms.iter()
            .map(|(n, t)| (n.clone(), MissionFile::parse(t, n).unwrap()))
            .collect()
    };
    assert_eq!(c.check(&squad, &cards, &parse(&missions)), Ok(()));
    let (_, kangara, _) = load("kangara/spirit-paths.campaign.toml");
    let e = c.check(&kangara, &cards, &parse(&missions)).unwrap_err();
    assert!(
        e.contains("is kangara; the campaign `forge-road` is for the ardann only"),
        "{e}"
    );
    let free = SquadFile {
        mode: deckwright::games::ruunara::squad::Mode::Free,
        ..squad.clone()
    };
    let e = c.check(&free, &cards, &parse(&missions)).unwrap_err();
    assert!(e.contains("Story Mode"), "{e}");
    let points = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/ruunara/eliminate.mission.toml"
    ))
    .unwrap();
    let mut ms = missions.clone();
    ms[1] = ("points.mission.toml".into(), points);
    let e = campaign::play(&c, &squad, &ms, &cards, &[Policy::First], 1).unwrap_err();
    assert!(
        e.contains("points.mission.toml: a campaign's mission deploys the squad in one zone"),
        "{e}"
    );
}

fn deckwright(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_deckwright"))
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn play_ruunara_campaign_prints_each_mission_and_the_campaigns_end() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let file = dir().join("sanbari/night-hunt.campaign.toml");
    let file = file.to_str().unwrap();
    let out = deckwright(
        &db,
        &[
            "play",
            "ruunara",
            "--campaign",
            file,
            "--seed",
            "1",
            "--policy",
            "greedy",
        ],
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("Mission 1 of 3: 1-reed-watch.mission.toml"),
        "{text}"
    );
    let last = text.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(last.starts_with("Campaign The Night Hunt: "), "{last}");
    let out = deckwright(
        &db,
        &[
            "play",
            "ruunara",
            "--campaign",
            file,
            "--seed",
            "1",
            "--policy",
            "greedy",
            "--json",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["campaign"], "night-hunt");
    assert_eq!(v["race"], "sanbari");
    let n = v["missions"].as_array().unwrap().len();
    assert!((1..=3).contains(&n));
    assert_eq!(v["missions"][0]["match"]["game"], "ruunara");
    // A campaign and a mission at once, or --dice, is a usage error.
    let m = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/ruunara/eliminate.mission.toml"
    );
    let out = deckwright(&db, &["play", "ruunara", m, "--campaign", file]);
    assert_eq!(out.status.code(), Some(2));
    let out = deckwright(
        &db,
        &["play", "ruunara", "--campaign", file, "--dice", "1 2 3"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--campaign"));
    let out = deckwright(
        &db,
        &["play", "ruunara", "--campaign", file, "--mode", "duo"],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("played solo"));
}

#[test]
fn a_recorded_campaign_writes_a_match_file_per_mission_that_replay_checks() {
    let tmp = tempfile::tempdir().unwrap();
    let db = tmp.path().join("c.db");
    let file = dir().join("ardann/forge-road.campaign.toml");
    let file = file.to_str().unwrap();
    let rec = tmp.path().join("road.match.toml");
    let args = [
        "play",
        "ruunara",
        "--campaign",
        file,
        "--seed",
        "3",
        "--policy",
        "greedy",
    ];
    let played = deckwright(&db, &[&args[..], &["--json"]].concat());
    let v: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
    let out = deckwright(
        &db,
        &[&args[..], &["--json", "--record", rec.to_str().unwrap()]].concat(),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Recording changes nothing of the play.
    let w: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v, w);
    let missions = v["missions"].as_array().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    for (k, m) in missions.iter().enumerate() {
        let leg = tmp.path().join(format!("road-{}.match.toml", k + 1));
        assert!(
            stderr.contains(&format!("road-{}.match.toml", k + 1)),
            "{stderr}"
        );
        // Each mission's file replays, checked step by step, to the document it played.
        let out = deckwright(&db, &["replay", leg.to_str().unwrap(), "--json"]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["winner"], m["match"]["winner"], "mission {}", k + 1);
        assert_eq!(r["sides"], m["match"]["sides"], "mission {}", k + 1);
        assert_eq!(r["log"], m["match"]["log"], "mission {}", k + 1);
    }
    // No file for a mission not played.
    let next = tmp
        .path()
        .join(format!("road-{}.match.toml", missions.len() + 1));
    assert!(!next.exists());
    // A record that no longer replays is refused: one input changed.
    let leg = tmp.path().join("road-1.match.toml");
    let text = std::fs::read_to_string(&leg).unwrap();
    let bad = text.replacen("checks = [", "checks = [1", 1);
    if bad != text {
        std::fs::write(&leg, bad).unwrap();
        let out = deckwright(&db, &["replay", leg.to_str().unwrap()]);
        assert_ne!(out.status.code(), Some(0));
    }
}

#[test]
fn a_campaign_record_is_named_per_mission() {
    use std::path::Path;
    let p = |s: &str, k| campaign::record_path(Path::new(s), k).display().to_string();
    assert_eq!(p("out/run.match.toml", 2), "out/run-2.match.toml");
    assert_eq!(p("run.toml", 1), "run-1.match.toml");
    assert_eq!(p("run", 3), "run-3.match.toml");
}

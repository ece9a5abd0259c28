//! Arcadia build rules: characters (budget, flaws, court, experience, kinds) and quest
//! setups (budgets, league count, unique leagues, placement), legal and illegal, with edges.



use deckwright::cards::Card;
use deckwright::games::arcadia::character::CharacterFile;
use deckwright::games::arcadia::model::Court;
use deckwright::games::arcadia::rules::{self, CourtBasis};
use deckwright::games::arcadia::setup::{LaidLeague, SetupFile, SetupPlayer};
use crate::fixtures::*;

fn catalogue() -> Vec<Card> {
    vec![
        icon("arc-icon"),
        icon("arc-icon-2"),
        merit("arc-m1", "advantage", 1, ""),
        merit("arc-m2", "advantage", 2, ""),
        merit("arc-m5", "ally", 5, ""),
        merit("arc-see", "ability", 2, "seelie"),
        merit("arc-see2", "ability", 1, "seelie"),
        merit("arc-uns", "ability", 2, "unseelie"),
        merit("arc-t2", "treasure", 2, ""),
        merit("arc-t3", "treasure", 3, ""),
        flaw("arc-f2", "curse", 2, ""),
        flaw("arc-f4", "enemy", 4, ""),
        flaw("arc-f5", "curse", 5, ""),
        flaw("arc-f6", "enemy", 6, ""),
        flaw("arc-wk-see", "weakness", 1, "seelie"),
        flaw("arc-wk-uns", "weakness", 1, "unseelie"),
        waylay("arc-w1", 1),
        waylay("arc-w3", 3),
        waylay("arc-w4", 4),
        quest("arc-q", 4, 3),
        quest("arc-q2", 6, 2),
        plain_league("arc-forest", "[\"forest\"]"),
        plain_league("arc-forest-2", "[\"forest\"]"),
        plain_league("arc-ocean", "[\"ocean\"]"),
        plain_league("arc-road", "[\"road\"]"),
        league("arc-unique", true, "[\"forest\"]", "[\"forest\"]", "[\"forest\"]", "[\"forest\"]"),
        // Forest on the west, border on the north.
        league("arc-cliff", false, "[\"border\"]", "[\"road\"]", "[\"road\"]", "[\"forest\"]"),
        ico("ico-x", "Iconica X", "legion", "common"),
    ]
}

fn character(icon: Option<&str>, merits: &[&str], flaws: &[&str], court: Option<Court>) -> CharacterFile {
    CharacterFile {
        game: "arcadia".into(),
        name: "Test".into(),
        icon: icon.map(String::from),
        merits: merits.iter().map(|s| s.to_string()).collect(),
        flaws: flaws.iter().map(|s| s.to_string()).collect(),
        court,
        xp_earned: 0,
        flaws_bought_off: Vec::new(),
    }
}

fn rules_of(c: &CharacterFile) -> Vec<&'static str> {
    rules::check_character(c, &catalogue()).violations.iter().map(|v| v.rule).collect()
}

#[test]
fn a_legal_character_and_its_derived_figures() {
    let c = character(Some("arc-icon"), &["arc-m5", "arc-see", "arc-m2"], &["arc-f2"], None);
    let r = rules::check_character(&c, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    let d = &r.derived;
    assert_eq!((d.points_available, d.points_spent, d.points_left), (12, 9, 3));
    assert_eq!((d.court, d.court_decided_by), (Some(Court::Seelie), CourtBasis::Majority));
    assert_eq!((d.xp_spent, d.waylay_bonus), (0, 0));
    assert_eq!(r.icon.as_ref().map(|i| i.id.as_str()), Some("arc-icon"));
    assert_eq!(r.merits.len(), 3);
}

#[test]
fn icon_count_without_an_icon() {
    assert_eq!(rules_of(&character(None, &["arc-see"], &[], None)), ["icon-count"]);
}

#[test]
fn an_icon_of_another_kind_is_wrong_kind_not_bad_input() {
    let r = rules::check_character(&character(Some("arc-m1"), &["arc-see"], &[], None), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["wrong-kind"]);
    assert!(r.violations[0].message.contains("icon"), "{}", r.violations[0].message);
    assert_eq!(r.violations[0].cards, ["arc-m1"]);
}

#[test]
fn flaw_cap_allows_exactly_ten() {
    let ten = character(Some("arc-icon"), &["arc-see"], &["arc-f4", "arc-f6"], None);
    assert!(rules_of(&ten).is_empty());
    let eleven = character(Some("arc-icon"), &["arc-see"], &["arc-f5", "arc-f6"], None);
    assert_eq!(rules_of(&eleven), ["flaw-cap"]);
}

#[test]
fn merit_budget_exactly_at_budget_and_one_over() {
    // 10 + 2 flaw points = 12.
    let at = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-see"], &["arc-f2"], None);
    let r = rules::check_character(&at, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!(r.derived.points_left, 0);
    let over = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-see", "arc-m1"], &["arc-f2"], None);
    let r = rules::check_character(&over, &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["merit-budget"]);
    assert!(r.violations[0].message.contains("13") && r.violations[0].message.contains("12"));
}

#[test]
fn merit_budget_counts_at_most_ten_flaw_points() {
    // 11 flaw points: flaw-cap, and the budget is 20, not 21.
    let c = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-m5", "arc-m5", "arc-see2"], &["arc-f5", "arc-f6"], None);
    assert_eq!(rules_of(&c), ["flaw-cap", "merit-budget"]);
}

#[test]
fn experience_earned_raises_the_budget_and_buying_off_flaws_spends_it() {
    let mut c = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-see", "arc-m2"], &["arc-f2"], None);
    // 14 spent, 12 available without experience.
    assert_eq!(rules_of(&c), ["merit-budget"]);
    c.xp_earned = 4;
    let r = rules::check_character(&c, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!((r.derived.points_available, r.derived.xp_spent, r.derived.waylay_bonus), (16, 2, 1));
    // Buying off the 2-point flaw spends 2 experience: 14 available, still enough.
    c.flaws_bought_off = vec!["arc-f2".into()];
    let r = rules::check_character(&c, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!(r.derived.points_available, 14);
    assert_eq!((r.derived.xp_spent, r.derived.waylay_bonus, r.derived.xp_saved), (4, 2, 0));
    // With 3 earned it is one short.
    c.xp_earned = 3;
    assert_eq!(rules_of(&c), ["merit-budget"]);
}

#[test]
fn waylay_bonus_is_one_per_two_experience_spent() {
    let mut c = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-see", "arc-m1"], &[], None);
    c.xp_earned = 5;
    let d = rules::check_character(&c, &catalogue()).derived;
    assert_eq!((d.xp_spent, d.xp_saved, d.waylay_bonus), (3, 2, 1));
}

#[test]
fn court_tie_with_and_without_a_declared_court() {
    let tie = character(Some("arc-icon"), &["arc-see", "arc-uns"], &[], None);
    let r = rules::check_character(&tie, &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["court-undeclared"]);
    assert_eq!(r.violations[0].cards, ["arc-see", "arc-uns"]);
    assert_eq!(r.derived.court_decided_by, CourtBasis::Undecided);
    let declared = character(Some("arc-icon"), &["arc-see", "arc-uns"], &[], Some(Court::Unseelie));
    let r = rules::check_character(&declared, &catalogue());
    assert!(r.is_legal());
    assert_eq!((r.derived.court, r.derived.court_decided_by), (Some(Court::Unseelie), CourtBasis::Declared));
    // 0-0 is a tie too.
    assert_eq!(rules_of(&character(Some("arc-icon"), &["arc-m1"], &[], None)), ["court-undeclared"]);
    assert!(rules_of(&character(Some("arc-icon"), &["arc-m1"], &[], Some(Court::Seelie))).is_empty());
}

#[test]
fn weaknesses_count_toward_the_court() {
    // One Seelie ability against two Unseelie weaknesses: Unseelie.
    let c = character(Some("arc-icon"), &["arc-see"], &["arc-wk-uns", "arc-wk-uns"], None);
    let r = rules::check_character(&c, &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!(r.derived.court, Some(Court::Unseelie));
    let tie = character(Some("arc-icon"), &["arc-see"], &["arc-wk-uns"], None);
    assert_eq!(rules_of(&tie), ["court-undeclared"]);
}

#[test]
fn court_mismatch_against_a_clear_majority() {
    let c = character(Some("arc-icon"), &["arc-see", "arc-see2"], &["arc-wk-uns"], Some(Court::Unseelie));
    let r = rules::check_character(&c, &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["court-mismatch"]);
    assert_eq!(r.derived.court, Some(Court::Seelie));
    let agree = character(Some("arc-icon"), &["arc-see", "arc-see2"], &["arc-wk-uns"], Some(Court::Seelie));
    assert!(rules_of(&agree).is_empty());
}

#[test]
fn wrong_kind_cards_count_toward_neither_budget_nor_court() {
    // A waylay among merits, an Iconica card among flaws, an ability among flaws.
    let c = character(Some("arc-icon"), &["arc-see", "arc-w4"], &["ico-x", "arc-uns"], None);
    let r = rules::check_character(&c, &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["wrong-kind"; 3]);
    assert_eq!(r.derived.points_spent, 2);
    assert_eq!(r.derived.flaw_points, 0);
    assert_eq!(r.derived.court, Some(Court::Seelie));
    assert!(r.violations[1].message.contains("Iconica"), "{}", r.violations[1].message);
}

#[test]
fn unknown_cards_are_violations() {
    let c = character(Some("arc-nope"), &["arc-see", "arc-missing"], &[], None);
    let r = rules::check_character(&c, &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["unknown-card", "unknown-card"]);
    assert_eq!(r.violations[1].cards, ["arc-missing"]);
}

// ---- setups ----

fn player(file: &str, quests: &[&str], waylays: &[&str], treasures: &[&str]) -> SetupPlayer {
    let v = |xs: &[&str]| xs.iter().map(|s| s.to_string()).collect();
    SetupPlayer { character: file.into(), quests: v(quests), waylays: v(waylays), treasures: v(treasures), base_camp: None }
}

/// Ten forest leagues in two rows of five, owners alternating.
fn ten_leagues() -> Vec<LaidLeague> {
    (0..10)
        .map(|i| LaidLeague {
            id: if i % 2 == 0 { "arc-forest".into() } else { "arc-forest-2".into() },
            owner: (i % 2 + 1) as u8,
            x: i % 5,
            y: i / 5,
        })
        .collect()
}

fn setup(players: Vec<SetupPlayer>, leagues: Vec<LaidLeague>) -> SetupFile {
    SetupFile { game: "arcadia".into(), name: String::new(), players, leagues }
}

fn legal_chars() -> Vec<CharacterFile> {
    vec![
        character(Some("arc-icon"), &["arc-see"], &[], None),
        character(Some("arc-icon-2"), &["arc-uns"], &[], None),
    ]
}

fn setup_rules(s: &SetupFile, chars: &[CharacterFile]) -> Vec<&'static str> {
    rules::check_setup(s, chars, &catalogue()).violations.iter().map(|v| v.rule).collect()
}

fn legal_setup() -> SetupFile {
    setup(
        vec![
            // Opponent's quest arc-q2 has Waylay Rating 6; own arc-q Treasure Rating 3.
            player("a", &["arc-q"], &["arc-w3", "arc-w3"], &["arc-t3"]),
            // Opponent's quest arc-q has Waylay Rating 4; own arc-q2 Treasure Rating 2.
            player("b", &["arc-q2"], &["arc-w4"], &["arc-t2"]),
        ],
        ten_leagues(),
    )
}

#[test]
fn a_legal_setup_at_both_budgets() {
    let r = rules::check_setup(&legal_setup(), &legal_chars(), &catalogue());
    assert!(r.is_legal(), "{:?}", r.violations);
    assert_eq!(r.characters.len(), 2);
}

#[test]
fn waylay_budget_with_and_without_the_opponents_experience_bonus() {
    let mut s = legal_setup();
    s.players[1].waylays = vec!["arc-w4".into(), "arc-w1".into()];
    assert_eq!(setup_rules(&s, &legal_chars()), ["waylay-budget"]);
    // Player 1 spent 2 experience (bonus +1): player 2 may bring 5.
    let mut chars = legal_chars();
    chars[0] = character(Some("arc-icon"), &["arc-m5", "arc-m5", "arc-see"], &[], None);
    chars[0].xp_earned = 2;
    assert!(setup_rules(&s, &chars).is_empty(), "{:?}", setup_rules(&s, &chars));
}

#[test]
fn treasure_budget() {
    let mut s = legal_setup();
    s.players[0].treasures = vec!["arc-t3".into(), "arc-t2".into()];
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["treasure-budget"]);
    assert_eq!(r.violations[0].cards, ["arc-t3", "arc-t2"]);
    // A non-treasure merit among treasures is of the wrong kind.
    s.players[0].treasures = vec!["arc-m1".into()];
    assert_eq!(setup_rules(&s, &legal_chars()), ["wrong-kind"]);
}

#[test]
fn league_count_is_five_per_quest() {
    let mut s = legal_setup();
    s.leagues.pop();
    assert_eq!(setup_rules(&s, &legal_chars()), ["league-count"]);
    let mut s = legal_setup();
    s.players[0].quests.push("arc-q2".into());
    // Player 1 now needs 10 leagues (and the opponent's waylay allowance grows).
    assert_eq!(setup_rules(&s, &legal_chars()), ["league-count"]);
}

#[test]
fn unique_league_second_copy() {
    let mut s = legal_setup();
    s.leagues[0].id = "arc-unique".into();
    assert!(setup_rules(&s, &legal_chars()).is_empty());
    s.leagues[4].id = "arc-unique".into();
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["unique-league"]);
    assert!(r.violations[0].message.contains("(4, 0)"));
}

#[test]
fn league_placement_fits_one_side_but_not_another() {
    let mut s = legal_setup();
    // arc-cliff at (1, 1): west side [forest] fits (0, 1); north side [border] faces the
    // south side [forest] of (1, 0), which does not fit.
    s.leagues[6].id = "arc-cliff".into();
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    let placement: Vec<_> = r.violations.iter().filter(|v| v.rule == "league-placement").collect();
    assert_eq!(placement.len(), 2, "{:?}", r.violations);
    let north = placement[0];
    assert!(north.message.contains("north side [border]") && north.message.contains("south side [forest]"), "{}", north.message);
    assert_eq!(north.cards, ["arc-cliff", "arc-forest-2"]);
    // Its east side [road] does not fit (2, 1)'s west [forest] either, reported on (2, 1).
    assert!(placement[1].message.contains("west side [forest]") && placement[1].message.contains("east side [road]"));
}

#[test]
fn league_placement_needs_a_shared_side_and_a_free_position() {
    let mut s = legal_setup();
    s.leagues[9].x = 6; // diagonal or apart from every other league
    s.leagues[9].y = 2;
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["league-placement"]);
    assert!(r.violations[0].message.contains("shares no side"));
    let mut s = legal_setup();
    s.leagues[9].x = 0;
    s.leagues[9].y = 0;
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    assert_eq!(r.violations.iter().map(|v| v.rule).collect::<Vec<_>>(), ["league-placement"]);
    assert!(r.violations[0].message.contains("already taken"));
}

#[test]
fn ocean_beside_land_does_not_fit() {
    let mut s = legal_setup();
    s.leagues[1].id = "arc-ocean".into();
    let r = rules::check_setup(&s, &legal_chars(), &catalogue());
    assert!(r.violations.iter().all(|v| v.rule == "league-placement"));
    assert!(!r.violations.is_empty());
}

#[test]
fn setup_reports_character_violations_and_list_kinds() {
    let mut s = legal_setup();
    s.players[0].quests = vec!["arc-w1".into()];
    s.players[1].waylays = vec!["arc-nope".into()];
    s.leagues[3].id = "arc-q".into();
    let mut chars = legal_chars();
    chars[1].icon = None;
    let r = rules::check_setup(&s, &chars, &catalogue());
    let got: Vec<_> = r.violations.iter().map(|v| v.rule).collect();
    assert!(got.contains(&"icon-count"), "{got:?}");
    assert_eq!(got.iter().filter(|r| **r == "wrong-kind").count(), 2, "{got:?}");
    assert!(got.contains(&"unknown-card"));
    let icon = r.violations.iter().find(|v| v.rule == "icon-count").unwrap();
    assert!(icon.message.starts_with("player 2"), "{}", icon.message);
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    const MERITS: [(&str, i32); 4] = [("arc-m1", 1), ("arc-m2", 2), ("arc-m5", 5), ("arc-see", 2)];
    const FLAWS: [(&str, i32); 4] = [("arc-f2", 2), ("arc-f4", 4), ("arc-f5", 5), ("arc-f6", 6)];

    proptest! {
        /// Taking flaws while they fit under 10 points and merits while they fit the budget
        /// never breaks flaw-cap or merit-budget, and the derived figures add up.
        #[test]
        fn a_build_within_budget_keeps_the_budget_rules(
            flaw_picks in proptest::collection::vec(0usize..4, 0..6),
            merit_picks in proptest::collection::vec(0usize..4, 0..12),
            xp in 0u32..6,
        ) {
            let mut flaws = Vec::new();
            let mut flaw_points = 0;
            for i in flaw_picks {
                let (id, p) = FLAWS[i];
                if flaw_points + p <= 10 { flaws.push(id); flaw_points += p; }
            }
            let budget = 10 + flaw_points + xp as i32;
            let mut merits = Vec::new();
            let mut spent = 0;
            for i in merit_picks {
                let (id, c) = MERITS[i];
                if spent + c <= budget { merits.push(id); spent += c; }
            }
            let mut c = character(Some("arc-icon"), &merits, &flaws, Some(Court::Seelie));
            c.xp_earned = xp;
            let r = rules::check_character(&c, &catalogue());
            prop_assert!(r.violations.iter().all(|v| v.rule != "flaw-cap" && v.rule != "merit-budget"), "{:?}", r.violations);
            prop_assert_eq!(r.derived.points_available, budget);
            prop_assert_eq!(r.derived.points_spent, spent);
            prop_assert_eq!(r.derived.xp_spent, (spent - 10 - flaw_points).max(0));
            prop_assert_eq!(r.derived.waylay_bonus, r.derived.xp_spent / 2);
        }
    }
}

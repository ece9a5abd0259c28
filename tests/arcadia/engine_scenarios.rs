//! Every engine ruling of `spec/arcadia.md` (and of docs/rulings.md, "Arcadia engine") as a
//! scripted-dice scenario, each both ways where it has two outcomes.



use crate::support::*;
use deckwright::games::arcadia::engine::state::{Foe, Phase, DEFEATED, IN_HAND, KINDS};
use deckwright::games::arcadia::engine::{Ended, Event, Opt, Outcome, State, Winner};
use deckwright::games::arcadia::model::TestKind;

const E: Opt = Opt::Go(1);
const W: Opt = Opt::Go(3);

fn results(log: &[Event]) -> Vec<(Outcome, [i32; 2])> {
    log.iter()
        .filter_map(|e| match e {
            Event::TestResult { outcome, scores, .. } => Some((*outcome, *scores)),
            _ => None,
        })
        .collect()
}

fn trials(log: &[Event]) -> Vec<(i32, bool)> {
    log.iter()
        .filter_map(|e| match e {
            Event::Trial { total, pass, .. } => Some((*total, *pass)),
            _ => None,
        })
        .collect()
}

/// Ann (might 3) walks east into a league where Bob plays a forest waylay (might 3).
fn walk_into_waylay(days: u32, a: Who) -> deckwright::games::arcadia::engine::Match {
    game_limit(WOODS, a, Who::new((4, 1)).waylays(&["t-w-forest"]), days)
}

#[test]
fn the_lower_roll_moves_first_and_a_tie_is_rolled_again() {
    let m = game_limit(WOODS, Who::new((0, 0)), Who::new((4, 1)), 1);
    let (st, log, _) = run(&m, "2 5", &[]);
    assert_eq!((st.first, st.dice_used), (0, 2));
    assert!(matches!(log[1], Event::Day { day: 1, player: 0 }));

    let (st, _, _) = run(&m, "5 2", &[]);
    assert_eq!(st.first, 1);

    let (st, log, _) = run(&m, "3 3 4 1", &[]);
    assert_eq!((st.first, st.dice_used), (1, 4));
    assert!(matches!(log[0], Event::FirstRoll { first: None, .. }));
    assert!(matches!(log[1], Event::FirstRoll { p1: 4, p2: 1, first: Some(1) }));
}

#[test]
fn a_test_is_two_dice_plus_the_attribute_the_players_dice_first() {
    let a = Who::new((0, 0)).merits(&["t-plain", "t-plain-2"]);
    let m = walk_into_waylay(1, a.clone());
    let (st, log, _) = run(&m, "1 2 6 5 1 1", &[E, Opt::Play(0)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [14, 5])]);
    assert_eq!(st.waylay_at[0], DEFEATED);
    assert_eq!(st.heroes[0].waylays_defeated, 1);
    assert_eq!(st.heroes[0].exhausted, 0);

    // The other way: the player's dice are the first two.
    let (st, log, _) = run(&m, "1 2 1 1 6 5", &[E, Opt::Play(0), Opt::Exhaust(1)]);
    assert_eq!(results(&log), vec![(Outcome::Lost, [5, 14])]);
    assert_eq!(st.waylay_at[0], 1, "an undefeated waylay stays on its league");
    assert_eq!(st.heroes[0].exhausted, 0b10, "the loser chose which merit to exhaust");
}

#[test]
fn an_equal_score_is_a_stalemate_the_waylay_stays_and_nothing_is_lost() {
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-plain"]));
    let (st, log, _) = run(&m, "1 2 3 3 4 2", &[E, Opt::Play(0)]);
    assert_eq!(results(&log), vec![(Outcome::Stalemate, [9, 9])]);
    assert_eq!(st.waylay_at[0], 1);
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 0));
}

#[test]
fn a_character_may_only_retreat_from_an_undefeated_waylay_or_stay_and_face_it() {
    let m = walk_into_waylay(3, Who::new((0, 0)).merits(&["t-plain"]));
    // Day 1 stalemate; Day 2 Bob stays; Day 3 Ann is offered only west (back) or stay.
    let (st, log, seen) = run(&m, "1 2 3 3 3 3 6 6 1 1", &[E, Opt::Play(0), Opt::Stay, Opt::Stay]);
    let day3 = &seen[3];
    assert_eq!(day3, &(0, vec![W, Opt::Stay]), "from (1,0) with the waylay: back west or stay");
    assert_eq!(results(&log)[1], (Outcome::Won, [15, 5]));
    assert_eq!(st.waylay_at[0], DEFEATED);

    // With the waylay defeated, every way is open again.
    let m = walk_into_waylay(3, Who::new((0, 0)).merits(&["t-plain"]));
    let (_, _, seen) = run(&m, "1 2 6 6 1 1", &[E, Opt::Play(0), Opt::Stay]);
    assert_eq!(seen[3], (0, vec![E, Opt::Go(2), W, Opt::Stay]));
}

#[test]
fn a_loss_with_every_merit_exhausted_discards_one_and_with_all_discarded_the_character_skips_a_day_at_base_camp() {
    let m = walk_into_waylay(5, Who::new((0, 0)).merits(&["t-plain"]));
    // Day 1 lose (exhaust), Day 2 Bob stays, Day 3 Ann stays and loses (discard: ruined),
    // Day 4 Bob stays, Day 5 Ann skips.
    let (st, log, _) =
        run(&m, "1 2 1 1 6 6 1 1 6 6", &[E, Opt::Play(0), Opt::Stay, Opt::Stay, Opt::Stay]);
    let h = &st.heroes[0];
    assert_eq!((h.exhausted, h.discarded), (0, 1));
    assert_eq!(h.at, 0, "back in its Base Camp");
    assert!(log.iter().any(|e| matches!(e, Event::Ruined { player: 0, to: 0 })));
    assert!(log.iter().any(|e| matches!(e, Event::SkipsDay { player: 0 })));
    assert!(matches!(log[log.len() - 3], Event::Day { day: 5, player: 0 }));
    assert!(!h.skip, "the skipped Day is spent");

    // With a ready merit left, a loser may still discard an exhausted merit instead.
    let m = walk_into_waylay(3, Who::new((0, 0)).merits(&["t-plain", "t-plain-2"]));
    let (st, _, seen) =
        run(&m, "1 2 1 1 6 6 1 1 6 6", &[E, Opt::Play(0), Opt::Exhaust(0), Opt::Stay, Opt::Stay, Opt::Discard(0)]);
    assert!(seen.iter().any(|(p, o)| *p == 0 && o == &vec![Opt::Exhaust(1), Opt::Discard(0)]));
    assert_eq!((st.heroes[0].exhausted, st.heroes[0].discarded), (0, 1));
    assert_eq!(st.heroes[0].at, 1, "not ruined while a merit is kept");
}

#[test]
fn a_character_with_no_merit_at_all_is_ruined_by_a_lost_test() {
    let m = walk_into_waylay(1, Who::new((0, 0)));
    let (st, log, _) = run(&m, "1 2 1 1 6 6", &[E, Opt::Play(0)]);
    assert!(log.iter().any(|e| matches!(e, Event::Ruined { player: 0, to: 0 })));
    assert!(st.heroes[0].skip);
}

#[test]
fn a_combat_test_is_the_characters_might_against_the_waylays_combat() {
    let m = game_limit(WOODS, Who::new((0, 0)), Who::new((4, 1)).waylays(&["t-w-combat"]), 1);
    // Might 3 + 2 against Combat 1 + 2 (its Might 9 plays no part).
    let (_, log, _) = run(&m, "1 2 1 1 1 1", &[E, Opt::Play(0)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [5, 3])]);
    let (_, log, _) = run(&m, "1 2 1 1 3 3", &[E, Opt::Play(0)]);
    assert_eq!(results(&log)[0].0, Outcome::Lost);
}

#[test]
fn a_trial_is_one_die_plus_the_attribute_passing_on_the_difficulty() {
    // Leave trial Might 6 with Might 3: a 3 passes, a 2 fails and Ann stays put for the Day.
    let mut grid = WOODS;
    grid[0][0] = "t-l-steep";
    let m = game_limit(grid, Who::new((0, 0)), Who::new((4, 1)), 1);
    let (st, log, _) = run(&m, "1 2 3", &[E]);
    assert_eq!(trials(&log), vec![(6, true)]);
    assert_eq!(st.heroes[0].at, 1);
    let (st, log, _) = run(&m, "1 2 2", &[E]);
    assert_eq!(trials(&log), vec![(5, false)]);
    assert_eq!(st.heroes[0].at, 0);
    assert!(!log.iter().any(|e| matches!(e, Event::Moves { .. } | Event::Rests { .. })), "the Day ends");

    // Enter trial Savvy 6 with Savvy 2: a 4 passes, a 3 keeps Ann where she was.
    let mut grid = WOODS;
    grid[0][1] = "t-l-gate";
    let m = game_limit(grid, Who::new((0, 0)), Who::new((4, 1)), 1);
    let (st, log, _) = run(&m, "1 2 4", &[E]);
    assert_eq!((trials(&log), st.heroes[0].at), (vec![(6, true)], 1));
    let (st, log, _) = run(&m, "1 2 3", &[E]);
    assert_eq!((trials(&log), st.heroes[0].at), (vec![(5, false)], 0));
    assert!(!log.iter().any(|e| matches!(e, Event::Rests { .. })));
}

#[test]
fn a_day_runs_leave_trial_enter_trial_then_the_waylays() {
    let mut grid = WOODS;
    grid[0][0] = "t-l-steep";
    grid[0][1] = "t-l-gate";
    let m = game_limit(grid, Who::new((0, 0)).merits(&["t-plain"]), Who::new((4, 1)).waylays(&["t-w-trial"]), 1);
    // Leave 6 (pass), enter 5 (pass at 2 + 4... savvy 2 + 4 = 6), waylay trial fails (3 + 2),
    // costing a merit, then the test is still faced.
    let (st, log, _) = run(&m, "1 2 3 4 2 6 6 1 1", &[E, Opt::Play(0)]);
    let kinds: Vec<&str> = log.iter().map(|e| e.kind()).skip_while(|k| *k != "day").collect();
    assert_eq!(
        kinds,
        vec![
            "day", "trial", "trial", "moves", "waylay_played", "trial", "exhausts", "faces_waylay", "test_roll",
            "test_result", "waylay_defeated", "end"
        ]
    );
    assert_eq!(trials(&log), vec![(6, true), (6, true), (5, false)]);
    assert_eq!(st.heroes[0].exhausted, 1);
    // Passing the waylay's trial costs nothing.
    let (st, log, _) = run(&m, "1 2 3 4 3 6 6 1 1", &[E, Opt::Play(0)]);
    assert_eq!(trials(&log)[2], (6, true));
    assert_eq!(st.heroes[0].exhausted, 0);
}

#[test]
fn after_facing_a_waylay_there_is_no_rest_or_treasure_that_day() {
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-plain"]));
    let (_, log, seen) = run(&m, "1 2 6 6 1 1", &[E, Opt::Play(0)]);
    assert!(!log.iter().any(|e| matches!(e, Event::Rests { .. })));
    assert!(!seen.iter().any(|(_, o)| o.contains(&Opt::Rest)));
    // Without a waylay the league is encountered (here: a rest).
    let (_, log, _) = run(&m, "1 2", &[E, Opt::Hold]);
    assert!(log.iter().any(|e| matches!(e, Event::Rests { player: 0, league: 1, .. })));
}

#[test]
fn no_waylay_is_played_on_a_character_entering_its_own_base_camp() {
    let m = walk_into_waylay(3, Who::new((0, 0)));
    // Day 1 east (Bob holds), Day 2 Bob stays, Day 3 west into Ann's Base Camp: no offer.
    let (_, _, seen) = run(&m, "1 2", &[E, Opt::Hold, Opt::Stay, W]);
    let bob_offers: Vec<&Vec<Opt>> = seen.iter().filter(|(p, _)| *p == 1).map(|(_, o)| o).collect();
    assert_eq!(bob_offers.len(), 2, "Bob is asked on Day 1 (play or hold) and moves on Day 2, nothing on Day 3");
    assert_eq!(bob_offers[0], &vec![Opt::Play(0), Opt::Hold]);
    // Bob's own Base Camp is no shelter for Ann.
    let m2 = game_limit(WOODS, Who::new((0, 0)), Who::new((1, 0)).waylays(&["t-w-forest"]), 1);
    let (_, _, seen) = run(&m2, "1 2 6 6 1 1", &[E, Opt::Play(0)]);
    assert!(seen.iter().any(|(p, o)| *p == 1 && o == &vec![Opt::Play(0), Opt::Hold]));
}

#[test]
fn resting_in_base_camp_recovers_one_merit_of_any_type_elsewhere_only_the_listed_types() {
    // Woods list `art` as their Rest. Ann's advantage and art are exhausted.
    let m = game_limit(WOODS, Who::new((0, 0)).merits(&["t-plain", "t-art"]), Who::new((4, 1)), 1);
    let mut st = State::new(&m);
    st.heroes[0].exhausted = 0b11;
    let (st1, _, _) = run_from(&m, st, "1 2", &[Opt::Stay]);
    assert_eq!(st1.heroes[0].exhausted, 0, "the art by the Rest, the advantage by the Base Camp");
    let (st2, _, _) = run_from(&m, st, "1 2", &[E]);
    assert_eq!(st2.heroes[0].exhausted, 0b01, "away from Base Camp only the art comes back");
}

#[test]
fn a_rest_listing_flaw_lets_the_opponent_recover_one_exhausted_flaw() {
    let mut grid = WOODS;
    grid[0][1] = "t-l-goal";
    let m = game_limit(grid, Who::new((0, 0)).flaws(&["t-flaw"]), Who::new((4, 1)), 1);
    let mut st = State::new(&m);
    st.heroes[0].flaws_exhausted = 1;
    let (st1, _, _) = run_from(&m, st, "1 2", &[E]);
    assert_eq!(st1.heroes[0].flaws_exhausted, 0);
    let (st2, _, _) = run_from(&m, st, "1 2", &[Opt::Stay]);
    assert_eq!(st2.heroes[0].flaws_exhausted, 1, "a wood's Rest lists no flaw");
}

#[test]
fn a_waylay_must_share_a_terrain_feature_with_the_league() {
    let mut grid = WOODS;
    grid[0][1] = "t-l-city";
    let m = game_limit(grid, Who::new((0, 0)), Who::new((4, 1)).waylays(&["t-w-forest", "t-w-city", "t-w-any"]), 1);
    let (_, _, seen) = run(&m, "1 2 6 6 1 1", &[E, Opt::Play(1)]);
    assert!(seen.contains(&(1, vec![Opt::Play(1), Opt::Play(2), Opt::Hold])), "{seen:?}");
    let (_, _, seen) = run(&m, "1 2 6 6 1 1", &[Opt::Go(2), Opt::Play(0)]);
    assert!(seen.contains(&(1, vec![Opt::Play(0), Opt::Play(2), Opt::Hold])), "a wood takes the forest and any waylays");
}

#[test]
fn a_waylay_is_played_only_on_entering_and_never_where_one_lies() {
    let m = game_limit(WOODS, Who::new((0, 0)), Who::new((4, 1)).waylays(&["t-w-forest", "t-w-high"]), 1);
    // Staying: no offer.
    let (_, _, seen) = run(&m, "1 2", &[Opt::Stay]);
    assert!(!seen.iter().any(|(p, _)| *p == 1));
    // A league that already holds a waylay takes no second one; the one there is faced.
    let mut st = State::new(&m);
    st.waylay_at[1] = 1;
    let (st, log, seen) = run_from(&m, st, "1 2 6 6 1 1", &[E]);
    assert!(!seen.iter().any(|(p, _)| *p == 1));
    assert_eq!(st.waylay_at[0], IN_HAND);
    assert!(log.iter().any(|e| matches!(e, Event::WaylayDefeated { waylay: 1, .. })));
}

#[test]
fn several_waylays_on_a_league_are_all_faced_lowest_rating_first() {
    let m = game_limit(WOODS, Who::new((0, 0)).merits(&["t-plain"]), Who::new((4, 1)).waylays(&["t-w-high", "t-w-forest"]), 1);
    let mut st = State::new(&m);
    st.waylay_at[0] = 1;
    st.waylay_at[1] = 1;
    // First (rating 1) lost, the second (rating 2) is still faced the same Day.
    let (_, log, _) = run_from(&m, st, "1 2 1 1 6 6 6 6 1 1", &[E]);
    let faced: Vec<u8> = log.iter().filter_map(|e| if let Event::Faces { waylay, .. } = e { Some(*waylay) } else { None }).collect();
    assert_eq!(faced, vec![1, 0]);
}

#[test]
fn exhaust_bonus_retest_change_test_and_flaw_penalties() {
    // Bonus: losing 8 to 9, Ann exhausts +2 and wins 10 to 9.
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-bonus"]));
    let (st, log, _) = run(&m, "1 2 2 3 3 3", &[E, Opt::Play(0), Opt::Bonus(0)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [10, 9])]);
    assert_eq!(st.heroes[0].exhausted, 1);
    // Declined: the loss stands.
    let (_, log, _) = run(&m, "1 2 2 3 3 3", &[E, Opt::Play(0), Opt::Accept]);
    assert_eq!(results(&log)[0].0, Outcome::Lost);

    // A standing bonus needs no exhausting: 8 to 8 becomes 9 to 8.
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-steady"]));
    let (_, log, _) = run(&m, "1 2 2 3 3 2", &[E, Opt::Play(0)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [9, 8])]);
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-plain"]));
    let (_, log, _) = run(&m, "1 2 2 3 3 2", &[E, Opt::Play(0)]);
    assert_eq!(results(&log), vec![(Outcome::Stalemate, [8, 8])]);

    // Retest: both sides roll again, and the new roll counts.
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-retest", "t-plain"]));
    let (_, log, _) = run(&m, "1 2 1 1 6 6 6 6 1 1", &[E, Opt::Play(0), Opt::Retest(0)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [15, 5])]);
    assert_eq!(of_kind(&log, "test_roll").len(), 2);

    // Change test: the forest waylay lists Might but has Savvy 1 and Combat 8.
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-change"]));
    let (st, log, seen) = run(&m, "1 2 1 1 1 1", &[E, Opt::Play(0), Opt::Change(TestKind::Savvy, 0)]);
    assert!(seen.contains(&(0, vec![Opt::Test(TestKind::Might), Opt::Change(TestKind::Savvy, 0), Opt::Change(TestKind::Combat, 0)])));
    assert_eq!(results(&log), vec![(Outcome::Won, [4, 3])]);
    assert_eq!(st.heroes[0].exhausted, 1);

    // Flaw penalty: Ann winning 10 to 9, Bob exhausts her flaw for -2.
    let m = walk_into_waylay(1, Who::new((0, 0)).merits(&["t-plain"]).flaws(&["t-flaw"]));
    let (st, log, _) = run(&m, "1 2 3 4 3 3", &[E, Opt::Play(0), Opt::Penalty(0)]);
    assert_eq!(results(&log), vec![(Outcome::Lost, [8, 9])]);
    assert_eq!(st.heroes[0].flaws_exhausted, 1);
    let (_, log, _) = run(&m, "1 2 3 4 3 3", &[E, Opt::Play(0), Opt::Accept]);
    assert_eq!(results(&log)[0].0, Outcome::Won);
}

#[test]
fn a_challenge_between_characters_lets_the_winner_pick_the_merit_or_a_push() {
    let a = Who::new((0, 0)).merits(&["t-plain"]);
    let b = Who::new((4, 1)).merits(&["t-plain", "t-plain-2"]);
    let m = game_limit(WOODS, a, b, 1);
    let mut st = State::new(&m);
    st.heroes[1].at = 1;
    // Ann wins a Might test 15 to 4 and picks Bob's second merit.
    let (st1, log, seen) = run_from(&m, st, "1 2 6 6 1 1", &[E, Opt::Challenge(TestKind::Might), Opt::Exhaust(1)]);
    assert!(seen.contains(&(0, vec![Opt::Rest, Opt::Challenge(KINDS[0]), Opt::Challenge(KINDS[1]), Opt::Challenge(KINDS[2]), Opt::Challenge(KINDS[3])])));
    assert_eq!(results(&log), vec![(Outcome::Won, [15, 5])]);
    assert_eq!(st1.heroes[1].exhausted, 0b10);
    // Or pushes him east.
    let (st2, _, _) = run_from(&m, st, "1 2 6 6 1 1", &[E, Opt::Challenge(TestKind::Might), Opt::Push(1)]);
    assert_eq!((st2.heroes[1].at, st2.heroes[1].exhausted), (2, 0));
    // Ann loses: Bob chooses which of her merits goes.
    let (st3, _, seen) = run_from(&m, st, "1 2 1 1 6 6", &[E, Opt::Challenge(TestKind::Might), Opt::Exhaust(0)]);
    assert_eq!(seen.last().map(|s| s.0), Some(1));
    assert_eq!(st3.heroes[0].exhausted, 1);
}

#[test]
fn a_challenged_character_answers_a_combat_test_with_its_best_ally() {
    let m = game_limit(WOODS, Who::new((0, 0)), Who::new((4, 1)).icon("t-icon-b").merits(&["t-ally"]), 1);
    let mut st = State::new(&m);
    st.heroes[1].at = 1;
    let (_, log, _) = run_from(&m, st, "1 2 1 1 1 1", &[E, Opt::Challenge(TestKind::Combat), Opt::Push(1)]);
    assert_eq!(results(&log), vec![(Outcome::Lost, [5, 9])], "Ann's Might 3 against the Ally's Combat 7");
    let mut st = State::new(&m);
    st.heroes[1].at = 1;
    st.heroes[1].exhausted = 1;
    let (_, log, _) = run_from(&m, st, "1 2 1 1 1 1", &[E, Opt::Challenge(TestKind::Combat), Opt::Push(1)]);
    assert_eq!(results(&log), vec![(Outcome::Won, [5, 4])], "an exhausted Ally does not fight: Bob's Might 2");
}

#[test]
fn no_challenge_in_the_other_characters_base_camp() {
    let m = game_limit(WOODS, Who::new((0, 0)), Who::new((1, 0)), 1);
    let (_, _, seen) = run(&m, "1 2", &[E]);
    assert!(!seen.iter().any(|(_, o)| o.iter().any(|x| matches!(x, Opt::Challenge(_)))));
}

#[test]
fn treasures_are_hidden_then_picked_up_by_their_player() {
    let m = game_limit(WOODS, Who::new((0, 0)).treasures(&["t-treasure"]), Who::new((4, 1)), 1);
    let (st, log, seen) = run(&m, "1 2", &[Opt::Hide(1), E, Opt::Treasure]);
    assert_eq!(seen[0].1.len(), 10, "any league may hide the first treasure");
    assert_eq!(st.heroes[0].treasures_found, 1);
    assert_eq!(st.heroes[0].owned, 1, "the found treasure is a merit of its finder");
    assert!(log.iter().any(|e| matches!(e, Event::TreasureFound { player: 0, treasure: 0 })));
    // Resting instead leaves it there.
    let (st, _, _) = run(&m, "1 2", &[Opt::Hide(1), E, Opt::Rest]);
    assert_eq!((st.heroes[0].treasures_found, st.heroes[0].treasure_at[0]), (0, 1));
}

#[test]
fn completing_every_quest_wins_the_match() {
    let mut grid = WOODS;
    grid[0][1] = "t-l-goal";
    let m = game(grid, Who::new((0, 0)).quests(&["t-q-goal"]), Who::new((4, 1)).quests(&["t-q-goal"]));
    let (st, log, _) = run(&m, "1 2", &[E]);
    assert_eq!(st.ended, Some((Ended::Victory, Some(Winner::Player(0)))));
    assert_eq!(st.phase, Phase::Over);
    assert!(log.iter().any(|e| matches!(e, Event::QuestDone { player: 0, quest: 0 })));
    assert_eq!(st.heroes[1].quests_done, 0);
    // Standing still completes nothing; the match runs on to the turn limit.
    let m = game_limit(grid, Who::new((0, 0)).quests(&["t-q-goal"]), Who::new((4, 1)).quests(&["t-q-goal"]), 4);
    let (st, _, _) = run(&m, "1 2", &[Opt::Stay, Opt::Stay, Opt::Stay, Opt::Stay]);
    assert_eq!(st.ended, Some((Ended::TurnLimit, Some(Winner::Draw))));
    assert_eq!(st.day, 4);
}

#[test]
fn return_to_base_needs_leaving_it_first() {
    let mut grid = WOODS;
    grid[0][1] = "t-l-goal";
    let m = game(grid, Who::new((0, 0)).quests(&["t-q-home"]), Who::new((4, 1)));
    let (st, _, _) = run(&m, "1 2", &[E, Opt::Stay, W]);
    assert_eq!(st.ended, Some((Ended::Victory, Some(Winner::Player(0)))));
    assert_eq!(st.day, 3);
    let m = game_limit(grid, Who::new((0, 0)).quests(&["t-q-home"]), Who::new((4, 1)), 2);
    let (st, _, _) = run(&m, "1 2", &[E, Opt::Stay]);
    assert_eq!(st.heroes[0].quests_done, 0, "the goal reached, not yet home");
}

#[test]
fn a_ruined_character_whose_base_camp_would_complete_its_quest_is_placed_by_the_opponent() {
    let mut grid = WOODS;
    grid[0][1] = "t-l-goal";
    let m = game_limit(grid, Who::new((0, 0)).quests(&["t-q-home"]), Who::new((4, 1)).waylays(&["t-w-forest"]), 1);
    // Ann (no merits) enters the goal, Bob plays a waylay, Ann loses: home would complete her quest.
    let (st, log, seen) = run(&m, "1 2 1 1 6 6", &[E, Opt::Play(0), Opt::Place(7)]);
    assert_eq!(seen.last().map(|s| s.0), Some(1));
    assert!(!seen.last().is_some_and(|s| s.1.contains(&Opt::Place(0))), "not the Base Camp");
    assert_eq!(st.heroes[0].at, 7);
    assert!(log.iter().any(|e| matches!(e, Event::Ruined { player: 0, to: 7 })));
    assert_eq!(st.heroes[0].quests_done, 0);
}

#[test]
fn scripted_dice_running_out_stop_the_match_with_no_winner() {
    let m = walk_into_waylay(5, Who::new((0, 0)).merits(&["t-plain"]));
    let (st, log, _) = run(&m, "1 2 6 6", &[E, Opt::Play(0)]);
    assert_eq!(st.ended, Some((Ended::DiceExhausted, None)));
    assert_eq!(st.dice_used, 4);
    assert!(matches!(st.contest.foe, Foe::Waylay(0)));
    assert!(matches!(log.last(), Some(Event::End { ended: Ended::DiceExhausted, winner: None })));
}

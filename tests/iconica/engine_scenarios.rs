//! One scripted-dice scenario per numbered step and ruling of `spec/iconica.md`, all under
//! the `first` policy.

use crate::support::*;
use deckwright::games::iconica::engine::*;

fn three(p: &str) -> Vec<C> {
    (1..=3).map(|i| c(&format!("{p}{i}"))).collect()
}

#[test]
fn basic_turn_consumes_white_then_black_and_stops_when_dice_run_out() {
    let r = play(&three("a"), &three("b"), v2(), "1 2");
    assert_eq!(r.hp("b1"), 90);
    assert_eq!(r.ended(), Some(Ended::DiceExhausted));
    assert_eq!(r.winner(), None);
    assert_eq!(r.st.turn, 2, "the interrupted turn counts");
    assert_eq!(r.st.dice_used, 2);
}

#[test]
fn white_die_picks_the_action_number() {
    let a = vec![
        c("a1").act(4, r#"[ { damage = 40, target = "foe" } ]"#),
        c("a2"),
    ];
    let r = play(&a, &three("b"), v2(), "4 1");
    assert_eq!(r.hp("b1"), 60);
}

#[test]
fn parry_lifts_a_landed_marker_one_tile() {
    let a = vec![c("a1").all(r#"[ { damage = 20, target = "foe" } ]"#)];
    let b = vec![c("b1").health("parry = [80]")];
    let r = play(&a, &b, v2(), "1 2");
    assert_eq!(r.hp("b1"), 90);
    assert!(r.has_text("Parry prevents 10"));
}

#[test]
fn parry_does_nothing_for_a_marker_that_reached_zero() {
    let a = vec![c("a1").all(r#"[ { damage = 100, target = "foe" } ]"#)];
    let b = vec![c("b1").health("parry = [10]"), c("b2")];
    let r = play(&a, &b, v2(), "1 2");
    assert!(!r.alive("b1"));
}

#[test]
fn reaction_after_damage_hits_the_actor() {
    let a = vec![c("a1").all(r#"[ { damage = 20, target = "foe" } ]"#)];
    let b = vec![c("b1").health(r#"reaction = { "80" = 20 }"#)];
    let r = play(&a, &b, v2(), "1 2");
    assert_eq!(r.hp("b1"), 80);
    assert_eq!(r.hp("a1"), 80);
}

#[test]
fn no_reactions_house_rule() {
    let a = vec![c("a1").all(r#"[ { damage = 20, target = "foe" } ]"#)];
    let b = vec![c("b1").health(r#"reaction = { "80" = 20 }"#)];
    let r = play(&a, &b, v2().with_house("no-reactions").unwrap(), "1 2");
    assert_eq!(r.hp("b1"), 80);
    assert_eq!(r.hp("a1"), 100);
}

#[test]
fn reaction_damage_triggers_parry_but_never_another_reaction() {
    let a = vec![
        c("a1")
            .all(r#"[ { damage = 20, target = "foe" } ]"#)
            .health("parry = [80]")
            .health(r#"reaction = { "90" = 10 }"#),
    ];
    let b = vec![c("b1").health(r#"reaction = { "80" = 20 }"#)];
    let r = play(&a, &b, v8(), "1 2");
    assert_eq!(
        r.hp("a1"),
        90,
        "reaction 20 lands on 80, Parry lifts it to 90"
    );
    assert_eq!(
        r.hp("b1"),
        80,
        "a1's own Reaction tile does not answer reaction damage"
    );
}

#[test]
fn v2_parried_hit_never_reacts_but_v8_reacts_on_the_final_tile() {
    let a = vec![c("a1").all(r#"[ { damage = 20, target = "foe" } ]"#)];
    let b = vec![
        c("b1")
            .health("parry = [80]")
            .health(r#"reaction = { "90" = 10 }"#),
    ];
    let r2 = play(&a, &b, v2(), "1 2");
    assert_eq!((r2.hp("b1"), r2.hp("a1")), (90, 100));
    let r8 = play(&a, &b, v8(), "1 2");
    assert_eq!((r8.hp("b1"), r8.hp("a1")), (90, 90));
}

#[test]
fn poison_damage_ignores_parry() {
    let a = vec![c("a1").all(r#"[ { inflict = "poison", target = "foe" } ]"#)];
    let b = vec![c("b1").health("parry = [90]")];
    let r = play(&a, &b, v2(), "1 2 2");
    assert_eq!(r.hp("b1"), 90);
    assert_eq!(r.statuses("b1"), vec!["poison"]);
}

#[test]
fn each_nullifier_prevents_its_status() {
    for (status, tile) in [
        ("poison", "antidote"),
        ("fear", "courage"),
        ("stun", "evasion"),
        ("confusion", "focus"),
        ("blind", "clarity"),
    ] {
        let fx = format!(
            r#"[ {{ damage = 10, target = "foe" }}, {{ inflict = "{status}", target = "same" }} ]"#
        );
        let a = vec![c("a1").all(&fx)];
        let on = vec![c("b1").health(&format!("{tile} = [90]"))];
        let r = play(&a, &on, v2(), "1 2");
        assert!(r.statuses("b1").is_empty(), "{tile} prevents {status}");
        assert!(r.has_text(&format!("nullifier prevents {status}")));
        let off = vec![c("b1")];
        let r = play(&a, &off, v2(), "1 2");
        assert_eq!(r.statuses("b1"), vec![status], "without {tile}");
    }
}

#[test]
fn v8_nullifier_landing_removes_the_status_v2_does_not() {
    let a =
        vec![c("a1").all(
            r#"[ { inflict = "poison", target = "foe" }, { damage = 20, target = "same" } ]"#,
        )];
    let b = vec![c("b1").health("antidote = [80]")];
    assert_eq!(play(&a, &b, v2(), "1 2").statuses("b1"), vec!["poison"]);
    let r = play(&a, &b, v8(), "1 2");
    assert!(r.statuses("b1").is_empty());
    assert!(r.has_text("nullifier tile removes poison"));
}

fn inflicts(status: &str) -> Vec<C> {
    vec![c("a1").all(&format!(
        r#"[ {{ inflict = "{status}", target = "foe" }} ]"#
    ))]
}

#[test]
fn fear_odd_ends_even_holds_the_character() {
    let b = three("b");
    let held = play(&inflicts("fear"), &b, v2(), "1 2 2 1 2");
    assert_eq!(held.statuses("b1"), vec!["fear"]);
    assert!(held.has_text("b2 uses A1"));
    assert_eq!(held.hp("a1"), 90);
    let ends = play(&inflicts("fear"), &b, v2(), "1 2 1 1 2");
    assert!(ends.statuses("b1").is_empty());
    assert!(ends.has_text("b1 uses A1"));
}

#[test]
fn poison_odd_ends_even_deals_ten() {
    let b = three("b");
    let even = play(&inflicts("poison"), &b, v2(), "1 2 2");
    assert_eq!((even.hp("b1"), even.statuses("b1")), (90, vec!["poison"]));
    let odd = play(&inflicts("poison"), &b, v2(), "1 2 1");
    assert_eq!((odd.hp("b1"), odd.statuses("b1")), (100, vec![]));
}

#[test]
fn fear_is_rolled_before_poison() {
    let a = vec![c("a1").all(
        r#"[ { inflict = "poison", target = "foe" }, { inflict = "fear", target = "same" } ]"#,
    )];
    // Turn 2: fear 2 (held), poison 1 (ends).
    let r = play(&a, &three("b"), v2(), "1 2 2 1");
    assert_eq!(r.statuses("b1"), vec!["fear"]);
    let t = r.texts();
    let fear = t.iter().position(|x| x.contains("for fear")).unwrap();
    let poison = t.iter().position(|x| x.contains("for poison")).unwrap();
    assert!(fear < poison);
}

fn restorer() -> Vec<C> {
    vec![c("a1").act(
        1,
        r#"[ { damage = 30, target = "self" }, { grant = "restoration", target = "self" } ]"#,
    )]
}

#[test]
fn restoration_v2_heals_10_v8_heals_20_even_ends() {
    let b = vec![c("b1")];
    let r = play(&restorer(), &b, v2(), "1 2 1 2 1");
    assert_eq!((r.hp("a1"), r.statuses("a1")), (70, vec!["restoration"]));
    let r = play(&restorer(), &b, v8(), "1 2 1 2 1");
    assert_eq!(r.hp("a1"), 80);
    let r = play(&restorer(), &b, v2(), "1 2 1 2 2");
    assert_eq!((r.hp("a1"), r.statuses("a1")), (60, vec![]));
}

fn siphoner(race: &str) -> Vec<C> {
    vec![c("a1").race(race).act(
        1,
        r#"[ { grant = "siphon", target = "self" }, { damage = 20, target = "self" } ]"#,
    )]
}

#[test]
fn siphon_heals_and_drains_the_leftmost_foe_without_parry() {
    let b = vec![c("b1").health("parry = [80]"), c("b2")];
    // Turn 2: b1 hits a1 (80 -> 70, b1 stays 100). Turn 3: Siphon 1: a1 80, b1 90.
    let r = play(&siphoner("sarion"), &b, v8(), "1 2 1 2 1");
    assert_eq!((r.hp("a1"), r.hp("b1")), (80, 90));
    assert_eq!(r.statuses("a1"), vec!["siphon"]);
    let r = play(&siphoner("sarion"), &b, v8(), "1 2 1 2 2");
    assert_eq!(
        (r.hp("a1"), r.hp("b1"), r.statuses("a1")),
        (70, 100, vec![])
    );
}

#[test]
fn siphon_has_no_effect_under_v2_or_on_non_sarion() {
    let b = vec![c("b1")];
    assert!(
        play(&siphoner("sarion"), &b, v2(), "1 2")
            .statuses("a1")
            .is_empty()
    );
    assert!(
        play(&siphoner("human"), &b, v8(), "1 2")
            .statuses("a1")
            .is_empty()
    );
}

#[test]
fn blind_check_odd_goes_on_even_fails_without_confusion_roll() {
    let b = three("b");
    let ok = play(&inflicts("blind"), &b, v2(), "1 2 1 2 1");
    assert_eq!(ok.hp("a1"), 90);
    let a = vec![c("a1").all(
        r#"[ { inflict = "blind", target = "foe" }, { inflict = "confusion", target = "same" } ]"#,
    )];
    let fail = play(&a, &b, v2(), "1 2 1 2 2");
    assert_eq!(fail.hp("a1"), 100);
    assert_eq!(
        fail.st.dice_used, 5,
        "no Confusion roll after a failed Blind check"
    );
    assert_eq!(fail.st.turn, 3);
    assert!(
        fail.statuses("b1").is_empty(),
        "minor statuses end with the turn"
    );
}

#[test]
fn confusion_odd_goes_on_even_hurts_own_leftmost_ignoring_parry() {
    let b = vec![c("b1").health("parry = [90]"), c("b2")];
    let ok = play(&inflicts("confusion"), &b, v2(), "1 2 1 2 1");
    assert_eq!((ok.hp("a1"), ok.hp("b1")), (90, 100));
    let fail = play(&inflicts("confusion"), &b, v2(), "1 2 1 2 2");
    assert_eq!((fail.hp("a1"), fail.hp("b1")), (100, 90));
}

#[test]
fn stunned_character_cannot_act() {
    let r = play(&inflicts("stun"), &three("b"), v2(), "1 2 1 2");
    assert!(r.has_text("b2 uses A1"));
    assert!(
        r.statuses("b1").is_empty(),
        "Stun ends at the end of its owner's turn"
    );
}

/// a2 breaks on 3; turn 2 b1 hits both 30 (and stuns them when `stun`).
fn break_board(stun: bool) -> (Vec<C>, Vec<C>) {
    let a = vec![
        c("a1"),
        c("a2")
            .brk(3)
            .act(3, r#"[ { damage = 20, target = "foe" } ]"#),
    ];
    let fx = if stun {
        r#"[ { damage = 30, target = "all_foes" }, { inflict = "stun", target = "all_foes" } ]"#
    } else {
        r#"[ { damage = 30, target = "all_foes" } ]"#
    };
    (a, vec![c("b1").act(1, fx), c("b2")])
}

#[test]
fn standard_break_on_doubles_heals_dispels_and_acts_even_when_stunned() {
    let (a, b) = break_board(true);
    let r = play(&a, &b, v2(), "1 2 1 2 3 3");
    assert_eq!(r.hp("a2"), 90);
    assert_eq!(r.hp("b1"), 70);
    assert!(r.statuses("a2").is_empty());
}

#[test]
fn standard_break_needs_doubles() {
    let (a, b) = break_board(false);
    let r = play(&a, &b, v2(), "1 2 1 2 3 4");
    assert_eq!(
        (r.hp("a2"), r.hp("b1")),
        (70, 80),
        "a1 uses its own action 3"
    );
}

#[test]
fn advanced_break_option_one_when_someone_can_act() {
    let (a, b) = break_board(false);
    let r = play(&a, &b, v2_adv(), "1 2 1 2 1 3");
    assert_eq!((r.hp("a2"), r.hp("b1")), (70, 80));
}

#[test]
fn advanced_break_option_two_when_no_one_can_act() {
    let (a, b) = break_board(true);
    let r = play(&a, &b, v2_adv(), "1 2 1 2 1 3");
    assert_eq!((r.hp("a2"), r.hp("b1")), (90, 90));
    assert!(r.has_text("the turn ends"));
}

#[test]
fn advanced_break_on_matching_doubles_is_standard() {
    let (a, b) = break_board(false);
    let r = play(&a, &b, v2_adv(), "1 2 1 2 3 3");
    assert_eq!((r.hp("a2"), r.hp("b1")), (90, 70));
}

#[test]
fn v8_break_on_black_uses_the_breaking_action() {
    let (a, b) = break_board(false);
    let r = play(
        &a,
        &b,
        Rules {
            breaks: Breaks::Standard,
            ..v8()
        },
        "1 2 1 2 1 3",
    );
    assert_eq!((r.hp("a2"), r.hp("b1")), (90, 70));
}

#[test]
fn no_action_breaks_house_rule_still_rolls_black() {
    let (a, b) = break_board(false);
    let r = play(
        &a,
        &b,
        v2().with_house("no-action-breaks").unwrap(),
        "1 2 1 2 3 3",
    );
    assert_eq!((r.hp("a2"), r.hp("b1")), (70, 80));
    assert_eq!(r.st.dice_used, 6);
}

fn v2_adv() -> Rules {
    Rules {
        breaks: Breaks::Advanced,
        ..v2()
    }
}

#[test]
fn final_act_chain_in_spec_order_and_draw() {
    let a = vec![
        c("a1")
            .all(r#"[ { damage = 100, target = "foe" } ]"#)
            .extra(
                "[final_act]\ntext = \"t\"\neffects = [ { damage = 10, target = \"all_foes\" } ]",
            ),
        c("a2").start(10).extra(
            "[final_act]\ntext = \"t\"\neffects = [ { heal = 10, target = \"all_friends\" } ]",
        ),
    ];
    let b = vec![
        c("b1").extra(
            "[final_act]\ntext = \"t\"\neffects = [ { damage = 100, target = \"all_foes\" } ]",
        ),
        c("b2").start(10).extra(
            "[final_act]\ntext = \"t\"\neffects = [ { damage = 10, target = \"all_foes\" } ]",
        ),
    ];
    let r = play(&a, &b, v2(), "1 2");
    let order: Vec<String> = r
        .log
        .iter()
        .filter_map(|e| match e {
            Event::FinalAct { slot } => Some(r.setup.id(*slot as usize).to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(order, vec!["b1", "a1", "a2", "b2"]);
    assert_eq!(r.ended(), Some(Ended::Victory));
    assert_eq!(r.winner(), Some(Winner::Draw));
    assert_eq!(r.st.turn, 1);
}

#[test]
fn final_act_ignores_parry_and_nullifiers() {
    let a = vec![
        c("a1")
            .all(r#"[ { damage = 100, target = "foe" } ]"#)
            .health("parry = [90]")
            .health("antidote = [90]"),
        c("a2"),
    ];
    let b = vec![
        c("b1").extra("[final_act]\ntext = \"t\"\neffects = [ { damage = 10, target = \"foe\" }, { inflict = \"poison\", target = \"same\" } ]"),
        c("b2"),
    ];
    let r = play(&a, &b, v8(), "1 2");
    assert_eq!((r.hp("a1"), r.statuses("a1")), (90, vec!["poison"]));
}

#[test]
fn no_final_acts_house_rule() {
    let a = vec![c("a1").all(r#"[ { damage = 100, target = "foe" } ]"#)];
    let b = vec![
        c("b1").extra(
            "[final_act]\ntext = \"t\"\neffects = [ { damage = 100, target = \"all_foes\" } ]",
        ),
        c("b2"),
    ];
    let r = play(&a, &b, v2().with_house("no-final-acts").unwrap(), "1 2");
    assert!(r.alive("a1"));
}

#[test]
fn dice_running_out_in_a_final_act_leaves_the_skulled_waiting() {
    let a =
        vec![c("a1").all(
            r#"[ { inflict = "poison", target = "foe" }, { damage = 100, target = "same" } ]"#,
        )];
    let b = vec![
        c("b1").extra("[final_act]\ntext = \"t\"\neffects = [ { roll = \"5+\", then = [ { damage = 100, target = \"all_foes\" } ] } ]"),
        c("b2"),
    ];
    let r = play(&a, &b, v2(), "1 2");
    assert_eq!(r.ended(), Some(Ended::DiceExhausted));
    assert!(!r.alive("b1"));
    assert!(
        r.statuses("b1").is_empty(),
        "a Skulled character has no statuses"
    );
    assert!(r.alive("a1"));
    assert_eq!((r.st.turn, r.st.dice_used), (1, 2));
}

#[test]
fn team_turn_order_and_friendly_targets() {
    let a1 = [c("a1")];
    let a2 = [c("a2")];
    let b1 = [c("b1")];
    let b2 = [c("b2")];
    let setup = Setup::teams(
        &[
            &a1.iter().map(C::build).collect::<Vec<_>>(),
            &a2.iter().map(C::build).collect::<Vec<_>>(),
        ],
        &[
            &b1.iter().map(C::build).collect::<Vec<_>>(),
            &b2.iter().map(C::build).collect::<Vec<_>>(),
        ],
        v8(),
    )
    .unwrap();
    let r = run_setup(setup, "1 2 1 2 1 2 1 2 1 2");
    let players: Vec<u8> = r
        .log
        .iter()
        .filter_map(|e| match e {
            Event::Turn { player, .. } => Some(*player),
            _ => None,
        })
        .collect();
    assert_eq!(players, vec![0, 1, 2, 3, 0, 1]);
    assert_eq!(
        (r.hp("b1"), r.hp("b2"), r.hp("a1"), r.hp("a2")),
        (70, 100, 80, 100)
    );
}

#[test]
fn turn_limit_is_a_draw_unless_won_in_that_turn() {
    let healers: Vec<C> = vec![c("a1").all(r#"[ { heal = 10, target = "self" } ]"#)];
    let b: Vec<C> = vec![c("b1").all(r#"[ { heal = 10, target = "self" } ]"#)];
    let r = play(
        &healers,
        &b,
        Rules {
            turn_limit: 3,
            ..v2()
        },
        "1 2 1 2 1 2 1 2",
    );
    assert_eq!(
        (r.ended(), r.winner(), r.st.turn),
        (Some(Ended::TurnLimit), Some(Winner::Draw), 3)
    );
    let killer = vec![c("a1").all(r#"[ { damage = 100, target = "foe" } ]"#)];
    let r = play(
        &killer,
        &b,
        Rules {
            turn_limit: 1,
            ..v2()
        },
        "1 2",
    );
    assert_eq!(
        (r.ended(), r.winner()),
        (Some(Ended::Victory), Some(Winner::Side(0)))
    );
}

#[test]
fn watch_applies_after_the_opponents_next_action_of_that_kind() {
    let a = vec![c("a1").act(
        1,
        r#"[ { watch = "melee", then = [ { damage = 20, target = "foe" } ] } ]"#,
    )];
    let b = vec![c("b1")];
    let r = play(&a, &b, v2(), "1 2 1 2");
    assert_eq!((r.hp("a1"), r.hp("b1")), (90, 80));
    assert!(r.has_text("condition triggers"));
}

#[test]
fn watch_lapses_when_that_turn_has_no_such_action() {
    let a = vec![c("a1").act(
        1,
        r#"[ { watch = "melee", then = [ { damage = 20, target = "foe" } ] } ]"#,
    )];
    let b = vec![c("b1").kind(1, "ranged").kind(2, "melee")];
    // Turn 2: ranged, no trigger. Turn 3: a1 action 2 (10). Turn 4: b1 melee: lapsed.
    let r = play(&a, &b, v2(), "1 2 1 2 2 1 2 1");
    assert_eq!(r.hp("b1"), 90);
}

#[test]
fn strength_bonus_is_its_own_hit_against_a_matching_target() {
    let a = vec![c("a1").extra(
        "[[strengths]]\nagainst = { archetype = \"Carapid\" }\nactions = [1]\ntext = \"t\"\neffects = [ { damage = 10, target = \"same\" } ]",
    )];
    let b = vec![c("b1").archetype("carapid"), c("b2")];
    assert_eq!(play(&a, &b, v2(), "1 2").hp("b1"), 80);
    assert_eq!(
        play(&a, &b, v2().with_house("no-strengths").unwrap(), "1 2").hp("b1"),
        90
    );
    assert_eq!(
        play(&a, &b, v2(), "2 1").hp("b1"),
        90,
        "action 2 does not trigger it"
    );
}

#[test]
fn random_foe_consumes_one_die_mod_n() {
    let a = vec![c("a1").all(r#"[ { damage = 30, target = "random_foe" } ]"#)];
    let r = play(&a, &three("b"), v2(), "1 2 5");
    assert_eq!((r.hp("b1"), r.hp("b2"), r.hp("b3")), (100, 70, 100));
    assert_eq!(r.st.dice_used, 3);
}

#[test]
fn roll_effect_takes_then_or_else() {
    let a = vec![c("a1").all(
        r#"[ { roll = [5, 6], then = [ { damage = 30, target = "foe" } ], else = [ { damage = 10, target = "self" } ] } ]"#,
    )];
    let hit = play(&a, &three("b"), v2(), "1 2 5");
    assert_eq!((hit.hp("b1"), hit.hp("a1")), (70, 100));
    let miss = play(&a, &three("b"), v2(), "1 2 4");
    assert_eq!((miss.hp("b1"), miss.hp("a1")), (100, 90));
}

#[test]
fn an_action_starting_with_same_has_no_target() {
    let a = vec![
        c("a1").all(r#"[ { damage = 10, target = "same" }, { damage = 20, target = "foe" } ]"#),
    ];
    assert_eq!(play(&a, &three("b"), v2(), "1 2").hp("b1"), 80);
}

#[test]
fn first_policy_targets_leftmost_ally_and_friend_even_at_full_health() {
    let a = vec![c("a1").all(r#"[ { damage = 20, target = "self" }, { heal = 10, target = "ally" }, { heal = 10, target = "friend" } ]"#), c("a2")];
    let r = play(&a, &three("b"), v2(), "1 2");
    assert_eq!((r.hp("a1"), r.hp("a2")), (90, 100));
}

#[test]
fn the_turn_goes_on_after_the_last_foe_falls() {
    let a = vec![c("a1").all(r#"[ { damage = 100, target = "foe" } ]"#)];
    let b =
        vec![c("b1").extra(
            "[final_act]\ntext = \"t\"\neffects = [ { damage = 100, target = \"all_foes\" } ]",
        )];
    let r = play(&a, &b, v2(), "1 2");
    assert_eq!(r.winner(), Some(Winner::Draw));
}

#[test]
fn an_action_resolves_to_the_end_after_its_actor_falls() {
    let a = vec![
        c("a1").all(r#"[ { damage = 100, target = "self" }, { damage = 20, target = "foe" }, { heal = 10, target = "self" } ]"#),
        c("a2"),
    ];
    let b = vec![c("b1").health(r#"reaction = { "80" = 20 }"#)];
    let r = play(&a, &b, v2(), "1 2");
    assert!(!r.alive("a1"));
    assert_eq!(r.hp("b1"), 80, "the rest of the action still applies");
    assert!(
        !r.log.iter().any(|e| matches!(
            e,
            Event::Damage {
                cause: Cause::Reaction,
                ..
            }
        )),
        "no Reaction to a Skulled actor"
    );
    assert!(
        !r.log.iter().any(|e| matches!(e, Event::Heal { .. })),
        "`self` is skipped once Skulled"
    );
}

#[test]
fn siphon_can_skull_a_foe_who_then_attempts_its_final_act() {
    let a = vec![c("a1").race("sarion").act(
        1,
        r#"[ { grant = "siphon", target = "self" }, { damage = 10, target = "foe" } ]"#,
    )];
    let b =
        vec![
        c("b1").start(20).all(r#"[ { heal = 0, target = "self" } ]"#).extra(
            "[final_act]\ntext = \"t\"\neffects = [ { damage = 30, target = \"all_foes\" } ]",
        ),
        c("b2").all(r#"[ { heal = 0, target = "self" } ]"#),
    ];
    // Turn 1: a1 gains Siphon, b1 20 -> 10. Turn 2: b heals nothing. Turn 3: Siphon 1 skulls b1.
    let r = play(&a, &b, v8(), "1 2 1 2 1");
    assert!(!r.alive("b1"));
    assert_eq!(
        r.ended(),
        Some(Ended::DiceExhausted),
        "the turn's Action Roll still needs dice"
    );
    let r = play(&a, &b, v8(), "1 2 1 2 1 3 4");
    assert_eq!(
        r.hp("a1"),
        70,
        "b1's Final Act at the end of turn 3 (a1 did 10 to b2 with action 3)"
    );
}

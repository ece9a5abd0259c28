//! The card editor's Form view for Arcadia cards through the real app: a feature added to a
//! bundled league's north side, the TOML rewritten, the card saved, undo restoring the text;
//! a merit's type change showing and hiding the fields of its type; a waylay's tests and
//! values, a flaw made a weakness.

use deckwright::app::core::card;
use deckwright::app::editor::View;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, parse_card};
use deckwright::games::arcadia::edit::{common_mut, write};
use deckwright::games::arcadia::model::{ArcadiaCard, Court, FlawType, MeritType, TestKind};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

use crate::support::{app, click, harness_of_height, type_in_search};

fn source(h: &Harness<'_, DeckwrightApp>) -> String {
    h.state().editor.text().to_string()
}

/// The editor's text, read strictly as an Arcadia card.
fn arcadia(h: &Harness<'_, DeckwrightApp>) -> ArcadiaCard {
    match parse_card(&source(h), "t.toml") {
        Ok(Card::Arcadia(c)) => c,
        other => panic!("{other:?}\n{}", source(h)),
    }
}

fn undo(h: &mut Harness<'_, DeckwrightApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
}

/// The bundled card named `name` in the Form view of a tall harness.
fn open_form(search: &str, name: &str) -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), 1400.0);
    type_in_search(&mut h, search);
    click(&mut h, name);
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    h
}

#[test]
fn a_feature_added_to_a_leagues_north_side_is_written_saved_and_undone() {
    let mut h = open_form("Brassgate", "Brassgate Ward");
    let original = source(&h);
    let ArcadiaCard::League(before) = arcadia(&h) else {
        panic!("Brassgate Ward is a league")
    };
    assert_eq!(before.sides.north, vec!["city-wall"]);
    h.get_by_label("A form edit writes the card's TOML anew: comments and the source's layout are not kept. Effects are listed under the card's keys.");

    // The north side's field, then its Add button.
    h.get_by_label("North").focus();
    h.run();
    h.get_by_label("North").type_text("road");
    h.run();
    assert_eq!(
        source(&h),
        original,
        "the new feature is not in the card until added"
    );
    click(&mut h, "Add to north");

    let ArcadiaCard::League(after) = arcadia(&h) else {
        panic!("still a league")
    };
    assert_eq!(after.sides.north, vec!["city-wall", "road"]);
    let mut expected = before.clone();
    expected.sides.north.push("road".into());
    assert_eq!(after, expected, "nothing else changed");
    assert!(
        source(&h).contains("north = [\"city-wall\", \"road\"]"),
        "{}",
        source(&h)
    );
    assert_eq!(
        h.get_all_by_label("road ×").count(),
        4,
        "terrain, east, south and north"
    );
    h.get_by_label("Valid Arcadia league “Brassgate Ward” (arc-l-brassgate-ward).");
    h.get_by_label("Differs from the catalogue's card (Ctrl+S replaces it)");

    // Saved: the catalogue has the edited league.
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(
        card(&h.state().cat, "arc-l-brassgate-ward"),
        Some(Card::Arcadia(ArcadiaCard::League(expected)))
    );

    // One undo step back to the text as it was; the chip goes with it.
    undo(&mut h);
    assert_eq!(source(&h), original);
    assert_eq!(h.get_all_by_label("road ×").count(), 3);

    // Removing a chip is one step too.
    click(&mut h, "Add to north");
    assert_eq!(source(&h), original, "an empty field adds nothing");
    let chips: Vec<_> = h.get_all_by_label("city-wall ×").collect();
    assert_eq!(chips.len(), 3, "north, east and west have a city wall");
    chips[0].click();
    h.run();
    let ArcadiaCard::League(l) = arcadia(&h) else {
        panic!("still a league")
    };
    assert!(l.sides.north.is_empty());
    assert_eq!(l.sides.east, before.sides.east);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

#[test]
fn a_merits_type_shows_and_hides_the_fields_of_its_type() {
    let mut h = open_form("Bramble", "Bramble Grip");
    let original = source(&h);
    h.get(By::new().label("Attribute").role(Role::ComboBox));
    h.get(By::new().label("Court").role(Role::ComboBox));
    assert!(h.query_by_label("Combat").is_none());

    h.get(By::new().label("Merit type").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "ally");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("still a merit")
    };
    assert_eq!(m.merit_type, MeritType::Ally);
    assert_eq!((m.attribute, m.court), (None, None));
    assert!(!source(&h).contains("attribute"), "{}", source(&h));
    assert!(h.query_by_label("Attribute").is_none());
    assert!(h.query_by_label("Court").is_none());

    // An ally may have a combat value: one checkbox adds the key.
    h.get(By::new().label("Combat").role(Role::CheckBox))
        .click();
    h.run();
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("still a merit")
    };
    assert_eq!(m.combat, Some(3));

    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);
    h.get(By::new().label("Attribute").role(Role::ComboBox));
}

#[test]
fn a_waylays_tests_and_a_weakness_court_are_set_with_widgets() {
    let mut h = open_form("Tollbridge", "Tollbridge Ogre");
    let original = source(&h);
    h.get(By::new().label("might").role(Role::CheckBox)).click();
    h.run();
    let ArcadiaCard::Waylay(w) = arcadia(&h) else {
        panic!("a waylay")
    };
    assert_eq!(
        w.tests,
        vec![TestKind::Might, TestKind::Savvy, TestKind::Combat],
        "the format's order"
    );
    // A value for the new test: its checkbox adds the key.
    h.get(By::new().label("Might value").role(Role::CheckBox))
        .click();
    h.run();
    let ArcadiaCard::Waylay(w) = arcadia(&h) else {
        panic!("a waylay")
    };
    assert_eq!(w.might, Some(5));
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);

    // A flaw made a weakness gets a court, shown as a drop-down.
    let mut h = open_form("Salt", "Salt-Bound");
    let ArcadiaCard::Flaw(before) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_ne!(before.flaw_type, FlawType::Weakness);
    assert!(h.query_by_label("Court").is_none());
    h.get(By::new().label("Flaw type").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "weakness");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(
        (f.flaw_type, f.court),
        (FlawType::Weakness, Some(Court::Seelie))
    );
    h.get(By::new().label("Court").role(Role::ComboBox));
}

/// A quest's objective in the Form view: its kind changed, a member added to an "All of"
/// and removed, each one undo step, the TOML written as the Source view shows it.
#[test]
fn a_quests_objective_is_edited_as_a_tree_of_forms() {
    use deckwright::games::arcadia::model::Objective;
    let mut h = open_form("kind:quest", "A Choice of Roads");
    let ArcadiaCard::Quest(before) = arcadia(&h) else {
        panic!("a quest")
    };
    let original = source(&h);
    h.get_by_label("Objective 1");

    // Its "Any of" made "All of": the members are kept.
    let Objective::Any(members) = before.objective.clone() else {
        panic!("{:?}", before.objective)
    };
    assert_eq!(members.len(), 2);
    h.get_by_label("Objective 1").click();
    h.run();
    click(&mut h, "All of");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(q.objective, Objective::All(members.clone()));
    assert!(source(&h).contains("all = ["), "{}", source(&h));

    click(&mut h, "Add to objective 1");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    let mut want = members.clone();
    want.push(Objective::CollectTreasures(1));
    assert_eq!(q.objective, Objective::All(want.clone()));
    h.get_by_label("Objective 1.3");
    h.get_by_label("Objective 1.2.1");

    click(&mut h, "Remove 1.1");
    let ArcadiaCard::Quest(q) = arcadia(&h) else {
        panic!()
    };
    want.remove(0);
    assert_eq!(q.objective, Objective::All(want));

    // Three edits, three undo steps back to the card as it was.
    undo(&mut h);
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// A quest's time limit and the "while held" objectives in the Form view: the limit taken
/// off and put back, an objective made "Hold treasures" and "Stand in a terrain", each one
/// undo step, the TOML as the core writes it.
#[test]
fn a_quests_time_limit_and_while_objectives_are_set_from_the_form() {
    use deckwright::games::arcadia::model::Objective;
    let mut h = open_form("kind:quest", "The Lantern-Keeper's Errand");
    let original = source(&h);
    let quest = |h: &Harness<'_, DeckwrightApp>| match arcadia(h) {
        ArcadiaCard::Quest(q) => q,
        other => panic!("{other:?}"),
    };
    assert_eq!(quest(&h).time_limit, Some(24));
    h.get(By::new().label("Time limit").role(Role::CheckBox))
        .click();
    h.run();
    assert_eq!(quest(&h).time_limit, None);
    assert!(!source(&h).contains("time_limit"), "{}", source(&h));
    h.get(By::new().label("Time limit").role(Role::CheckBox))
        .click();
    h.run();
    assert_eq!(quest(&h).time_limit, Some(12));
    assert_eq!(source(&h), write(&ArcadiaCard::Quest(quest(&h))));
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);

    for (kind, want, toml) in [
        (
            "Hold treasures",
            Objective::HoldTreasures(1),
            "hold_treasures = 1",
        ),
        (
            "Stand in a terrain",
            Objective::InTerrain("mountains".into()),
            "in_terrain = \"mountains\"",
        ),
    ] {
        h.get_by_label("Objective 1").click();
        h.run();
        click(&mut h, kind);
        assert_eq!(quest(&h).objective, want, "{kind}");
        assert!(source(&h).contains(toml), "{kind}:\n{}", source(&h));
        undo(&mut h);
        assert_eq!(source(&h), original, "{kind}: one undo step");
    }
}

/// A flaw's effects in the Form view: its test changed, an effect added with a bonus, one
/// removed; each one undo step.
#[test]
fn a_flaws_effects_are_small_forms() {
    let mut h = open_form("Salt-Bound", "Salt-Bound");
    let original = source(&h);
    let ArcadiaCard::Flaw(before) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(before.effects.len(), 1);
    assert_eq!(before.effects[0].penalty, Some(2));

    h.get(By::new().label("Test 1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "savvy");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects[0].test, Some(TestKind::Savvy));

    click(&mut h, "Add effect");
    click(&mut h, "Exhaust 2");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects.len(), 2);
    assert_eq!(
        (f.effects[1].bonus, f.effects[1].exhaust),
        (Some(1), Some(true))
    );
    assert!(source(&h).contains("exhaust = true"), "{}", source(&h));

    click(&mut h, "Remove effect 1");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!()
    };
    assert_eq!(f.effects.len(), 1);
    for _ in 0..4 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original);
}

/// The bundled league `id` as the editor's text now holds it.
fn league(h: &Harness<'_, DeckwrightApp>) -> deckwright::games::arcadia::model::League {
    match arcadia(h) {
        ArcadiaCard::League(l) => l,
        other => panic!("a league: {other:?}"),
    }
}

/// A waylay's trial as the editor's text now holds it.
fn trial(h: &Harness<'_, DeckwrightApp>) -> deckwright::games::arcadia::model::Trial {
    match arcadia(h) {
        ArcadiaCard::Waylay(w) => w.trial.expect("the waylay has a trial"),
        other => panic!("a waylay: {other:?}"),
    }
}

/// Clicks the widget labelled `label` with `role` inside league effect `n`'s part of the form.
fn click_in_effect(h: &mut Harness<'_, DeckwrightApp>, n: usize, label: &str, role: Role) {
    h.get(
        By::new()
            .label(&format!("League effect {n}"))
            .role(Role::Group),
    )
    .get(By::new().label(label).role(role))
    .click();
    h.run();
}

/// Every form of league effect added from the form's menu to a league that has none: each
/// one edit whose TOML the Source view shows, each undone by one Ctrl+Z.
#[test]
fn each_league_effect_is_added_from_the_form_and_undone_in_one_step() {
    use deckwright::games::arcadia::model::{LeagueEffect, LeagueTrial, TrialOn};
    let mut h = open_form("Gloaming", "Gloaming Wood");
    let original = source(&h);
    let before = league(&h);
    assert!(before.effects.is_empty());
    h.get_by_label(
        "What the special text does in play: the engine plays these, the text is shown.",
    );

    let art = LeagueEffect {
        forbid_merits: Some(vec![MeritType::Art]),
        ..LeagueEffect::default()
    };
    let ratings = LeagueEffect {
        forbid_ratings: Some(vec![1]),
        ..LeagueEffect::default()
    };
    let modify = LeagueEffect {
        modify: Some(-1),
        test: Some(TestKind::Might),
        ..LeagueEffect::default()
    };
    let stay = LeagueEffect {
        trial: Some(LeagueTrial {
            attribute: TestKind::Might,
            difficulty: 4,
        }),
        on: Some(TrialOn::Stay),
        ..LeagueEffect::default()
    };
    let rest = LeagueEffect {
        rest_extra: Some(1),
        types: Some(vec![]),
        ..LeagueEffect::default()
    };
    let look = LeagueEffect {
        look_at_treasures: Some(1),
        ..LeagueEffect::default()
    };
    for (kind, want, toml) in [
        ("Forbid merit types", art, "forbid_merits = [\"art\"]"),
        ("Forbid waylay ratings", ratings, "forbid_ratings = [1]"),
        ("Modify a test", modify, "test = \"might\""),
        ("Extra trial", stay, "on = \"stay\""),
        ("Rest recovers more", rest, "types = []"),
        ("Rest looks at treasures", look, "look_at_treasures = 1"),
    ] {
        let text = source(&h);
        click(&mut h, "Add league effect");
        click(&mut h, kind);
        let mut expected = before.clone();
        expected.effects.push(want);
        assert_eq!(league(&h), expected, "{kind}: nothing else changed");
        assert!(source(&h).contains(toml), "{kind}:\n{}", source(&h));
        assert_eq!(
            source(&h),
            write(&ArcadiaCard::League(expected)),
            "the card's TOML as the core writes it"
        );
        h.get(By::new().label("Effect 1").role(Role::ComboBox));
        undo(&mut h);
        assert_eq!(source(&h), text, "{kind}: one undo step");
    }
    assert_eq!(source(&h), original);
}

/// A league effect's values: merit types ticked, its form changed, waylay ratings added
/// and removed, effects moved up and removed; a second extra trial on the same occasion
/// explained as never rolled. Each edit one undo step.
#[test]
fn a_league_effects_values_are_edited_with_widgets() {
    use deckwright::games::arcadia::model::{LeagueTrial, TrialOn};
    let mut h = open_form("Brassgate", "Brassgate Ward");
    let original = source(&h);
    assert_eq!(
        league(&h).effects[0].forbid_merits,
        Some(vec![MeritType::Art])
    );
    h.get_by_label(
        "A character in this league may not use merits of the ticked types (it may still \
         exhaust or discard them to pay a loss).",
    );

    // Ticking a type: the list keeps the format's order. The league's Rest checkboxes
    // have the same names; the effect's are its own.
    click_in_effect(&mut h, 1, "ability", Role::CheckBox);
    assert_eq!(
        league(&h).effects[0].forbid_merits,
        Some(vec![MeritType::Ability, MeritType::Art])
    );
    assert!(
        source(&h).contains("forbid_merits = [\"ability\", \"art\"]"),
        "{}",
        source(&h)
    );
    assert_eq!(league(&h).rest, vec!["treasure", "advantage", "flaw"]);
    undo(&mut h);
    assert_eq!(source(&h), original);

    // Its form made an extra trial, then on a rest: the table holds only that form's keys.
    h.get(By::new().label("Effect 1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "Extra trial");
    h.get(By::new().label("on").role(Role::ComboBox)).click();
    h.run();
    click(&mut h, "rest");
    let fx = &league(&h).effects[0];
    assert_eq!(
        (fx.trial.clone(), fx.on, fx.forbid_merits.clone()),
        (
            Some(LeagueTrial {
                attribute: TestKind::Might,
                difficulty: 4
            }),
            Some(TrialOn::Rest),
            None
        )
    );
    h.get_by_label("Resting here needs this trial first; failing ends the Day without the Rest.");

    // A second extra trial on the same occasion is never rolled: the form says so, and
    // moving it up makes it the one rolled.
    click(&mut h, "Add league effect");
    click(&mut h, "Extra trial");
    let ofs: Vec<_> = h
        .get_all(By::new().label("of").role(Role::ComboBox))
        .collect();
    assert_eq!(ofs.len(), 2);
    ofs[1].click();
    h.run();
    click(&mut h, "savvy");
    let ons: Vec<_> = h
        .get_all(By::new().label("on").role(Role::ComboBox))
        .collect();
    assert_eq!(ons.len(), 2);
    ons[1].click();
    h.run();
    click(&mut h, "rest");
    h.get_by_label("Only the first extra trial on rest is rolled: this one never is.");
    click(&mut h, "Move effect 2 up");
    let attributes = |h: &Harness<'_, DeckwrightApp>| -> Vec<_> {
        league(h)
            .effects
            .iter()
            .map(|fx| fx.trial.as_ref().map(|t| t.attribute))
            .collect()
    };
    assert_eq!(
        attributes(&h),
        vec![Some(TestKind::Savvy), Some(TestKind::Might)]
    );
    h.get_by_label("Only the first extra trial on rest is rolled: this one never is.");
    undo(&mut h);
    assert_eq!(
        attributes(&h),
        vec![Some(TestKind::Might), Some(TestKind::Savvy)]
    );
    // Moving the first down is the same swap, one step too.
    click(&mut h, "Move effect 1 down");
    assert_eq!(
        attributes(&h),
        vec![Some(TestKind::Savvy), Some(TestKind::Might)]
    );
    undo(&mut h);
    assert_eq!(
        attributes(&h),
        vec![Some(TestKind::Might), Some(TestKind::Savvy)]
    );

    // Removing an effect is one step.
    click(&mut h, "Remove effect 1");
    assert_eq!(attributes(&h), vec![Some(TestKind::Savvy)]);
    assert!(
        h.query_by_label("Only the first extra trial on rest is rolled: this one never is.")
            .is_none()
    );
    undo(&mut h);
    assert_eq!(league(&h).effects.len(), 2);
    for _ in 0..5 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original);

    // Starfall Orchard's forbidden rating removed and another added.
    let mut h = open_form("Starfall", "Starfall Orchard");
    let original = source(&h);
    click_in_effect(&mut h, 1, "rating 1 ×", Role::Button);
    assert_eq!(league(&h).effects[0].forbid_ratings, Some(vec![]));
    h.get_by_label("No rating listed: this forbids nothing.");
    click(&mut h, "Add rating");
    assert_eq!(league(&h).effects[0].forbid_ratings, Some(vec![1]));
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);

    // Hollowhill Barrows' extra rest: its ally untaken means any type.
    let mut h = open_form("Hollowhill", "Hollowhill Barrows");
    let original = source(&h);
    click_in_effect(&mut h, 1, "ally", Role::CheckBox);
    let fx = &league(&h).effects[0];
    assert_eq!((fx.rest_extra, fx.types.clone()), (Some(1), Some(vec![])));
    assert!(source(&h).contains("types = []"), "{}", source(&h));
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// A waylay trial's failure effect: every form set from the drop-down, the TOML as the
/// Source view shows it, each one undo step; an exhaust's types ticked and kept when it
/// becomes a discard.
#[test]
fn each_failure_effect_of_a_waylay_trial_is_set_from_the_form() {
    use deckwright::games::arcadia::model::FailureEffect;
    let mut h = open_form("Heron", "The Riddling Heron");
    let original = source(&h);
    let ArcadiaCard::Waylay(before) = arcadia(&h) else {
        panic!("a waylay")
    };
    assert_eq!(
        trial(&h).effect,
        Some(FailureEffect {
            exhaust: Some(vec![MeritType::Art, MeritType::Ability]),
            ..FailureEffect::default()
        })
    );
    let yes = Some(true);
    for (kind, want, toml) in [
        ("not given", None, None),
        (
            "discard a merit",
            Some(FailureEffect {
                discard: Some(vec![MeritType::Art, MeritType::Ability]),
                ..FailureEffect::default()
            }),
            Some("discard = [\"art\", \"ability\"]"),
        ),
        (
            "skip the next Day",
            Some(FailureEffect {
                skip_day: yes,
                ..FailureEffect::default()
            }),
            Some("skip_day = true"),
        ),
        (
            "return to Base Camp",
            Some(FailureEffect {
                return_to_base: yes,
                ..FailureEffect::default()
            }),
            Some("return_to_base = true"),
        ),
        (
            "lose a treasure",
            Some(FailureEffect {
                lose_treasure: yes,
                ..FailureEffect::default()
            }),
            Some("lose_treasure = true"),
        ),
        (
            "nothing",
            Some(FailureEffect {
                none: yes,
                ..FailureEffect::default()
            }),
            Some("none = true"),
        ),
    ] {
        h.get(By::new().label("Failure effect").role(Role::ComboBox))
            .click();
        h.run();
        click(&mut h, kind);
        assert_eq!(trial(&h).effect, want, "{kind}");
        let mut expected = before.clone();
        expected.trial.as_mut().expect("a trial").effect = want;
        assert_eq!(
            source(&h),
            write(&ArcadiaCard::Waylay(expected)),
            "{kind}: nothing else changed"
        );
        match toml {
            Some(toml) => assert!(source(&h).contains(toml), "{kind}:\n{}", source(&h)),
            None => assert!(!source(&h).contains("effect"), "{}", source(&h)),
        }
        assert_eq!(
            trial(&h).failure.as_deref(),
            Some("The heron pecks out a memory: exhaust one Art or Ability."),
            "the words stay"
        );
        undo(&mut h);
        assert_eq!(source(&h), original, "{kind}: one undo step");
    }

    // Types ticked on the exhaust: `ally` added (the list in the format's order), `art`
    // taken off.
    click(&mut h, "ally");
    click(&mut h, "art");
    assert_eq!(
        trial(&h).effect.and_then(|f| f.exhaust),
        Some(vec![MeritType::Ability, MeritType::Ally])
    );
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), original);

    // A trial without an effect gets one: exhaust, any type until one is ticked.
    let mut h = open_form("Squall", "Squall Front");
    assert_eq!(trial(&h).effect, None);
    h.get_by_label("Failing the trial does nothing; the test follows.");
    h.get(By::new().label("Failure effect").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "exhaust a merit");
    assert_eq!(
        trial(&h).effect,
        Some(FailureEffect {
            exhaust: Some(vec![]),
            ..FailureEffect::default()
        })
    );
    assert!(
        source(&h).contains("[trial.effect]\nexhaust = []"),
        "{}",
        source(&h)
    );
    h.get(By::new().label("treasure").role(Role::CheckBox));
}

/// A flaw effect's condition, the terrain it counts in, is a field of its form; a retest's
/// `lost_only` a checkbox beside it.
#[test]
fn an_effects_terrain_condition_and_lost_only_are_in_its_form() {
    let mut h = open_form("Salt-Bound", "Salt-Bound");
    let original = source(&h);
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(f.effects[0].terrain.as_deref(), Some("river"));
    let field = h.get_by_label("Terrain 1");
    assert_eq!(field.value().as_deref(), Some("river"));
    field.focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Terrain 1").type_text("marsh");
    h.run();
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(f.effects[0].terrain.as_deref(), Some("marsh"));
    assert!(source(&h).contains("terrain = \"marsh\""), "{}", source(&h));

    // A retest may be for a lost test only; taking the retest off takes that too.
    click(&mut h, "Retest 1");
    assert!(h.query_by_label("Lost only 1").is_some());
    click(&mut h, "Lost only 1");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(
        (f.effects[0].retest, f.effects[0].lost_only),
        (Some(true), Some(true))
    );
    click(&mut h, "Retest 1");
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!((f.effects[0].retest, f.effects[0].lost_only), (None, None));
    assert!(
        h.get_by_label("Lost only 1").accesskit_node().is_disabled(),
        "Lost only stays in its place, off without a retest"
    );
    for _ in 0..3 {
        undo(&mut h);
    }
    let ArcadiaCard::Flaw(f) = arcadia(&h) else {
        panic!("a flaw")
    };
    assert_eq!(f.effects[0].terrain.as_deref(), Some("marsh"));
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// The effect forms at 1024 x 700 and 1920 x 1080: each row wraps within the form's column.
#[test]
fn effect_forms_stay_within_the_form_at_1024_and_1920() {
    for (w, ht) in [(1024.0, 700.0), (1920.0, 1080.0)] {
        for (search, name, last) in [
            ("Brassgate", "Brassgate Ward", "Remove effect 1"),
            ("Heron", "The Riddling Heron", "treasure"),
        ] {
            let mut h = open_form(search, name);
            h.set_size(egui::vec2(w, ht));
            h.run();
            let column = h.get_by_label("Text").rect().right();
            let r = h.get_by_label(last).rect();
            assert!(
                r.right() <= column + 1.0,
                "{name} at {w}: {last} at {r:?}, the form ends at {column}"
            );
        }
    }
}

/// A league effect's number typed into its field: one undo step back.
#[test]
fn a_modified_tests_amount_is_typed_and_undone_in_one_step() {
    let mut h = open_form("Gloaming", "Gloaming Wood");
    let original = source(&h);
    click(&mut h, "Add league effect");
    click(&mut h, "Modify a test");
    let added = source(&h);
    h.get(By::new().label("by").role(Role::SpinButton)).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get(By::new().label("by").role(Role::SpinButton))
        .type_text("2");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(league(&h).effects[0].modify, Some(2), "{}", source(&h));
    assert!(source(&h).contains("modify = 2"), "{}", source(&h));
    undo(&mut h);
    assert_eq!(source(&h), added);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// Whether the widget labelled `label` is disabled.
fn disabled(h: &Harness<'_, DeckwrightApp>, label: &str) -> bool {
    h.get_by_label(label).accesskit_node().is_disabled()
}

/// Issue #27 item 4: the merit form cannot write an effect that does nothing, nor a retest or
/// a change of test without `exhaust = true`: the last thing an effect does cannot be
/// unticked, ticking Retest or Change test ticks Exhaust, which stays ticked while they are.
/// Every text the form writes reads strictly.
#[test]
fn the_merit_form_writes_no_empty_effect_and_no_retest_without_exhaust() {
    let mut h = open_form("Borrowed Face", "Borrowed Face");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(
        (m.effects[0].bonus, m.effects[0].exhaust),
        (Some(2), Some(true))
    );
    assert!(disabled(&h, "Bonus 1"), "the only thing the effect does");
    click(&mut h, "Bonus 1");
    assert!(matches!(arcadia(&h), ArcadiaCard::Merit(m) if m.effects[0].bonus == Some(2)));

    // Exhaust off, then a retest: Exhaust comes back with it and is held.
    click(&mut h, "Exhaust 1");
    assert!(matches!(arcadia(&h), ArcadiaCard::Merit(m) if m.effects[0].exhaust.is_none()));
    click(&mut h, "Retest 1");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(
        (m.effects[0].retest, m.effects[0].exhaust),
        (Some(true), Some(true))
    );
    assert!(disabled(&h, "Exhaust 1"));
    click(&mut h, "Exhaust 1");
    assert!(matches!(arcadia(&h), ArcadiaCard::Merit(m) if m.effects[0].exhaust == Some(true)));

    // The bonus off: the retest is then all the effect does, and stays.
    assert!(!disabled(&h, "Bonus 1"));
    click(&mut h, "Bonus 1");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(m.effects[0].bonus, None);
    assert!(disabled(&h, "Retest 1"));

    // A change of test ticked: the retest may go, the exhaust stays.
    click(&mut h, "Change test 1");
    click(&mut h, "Retest 1");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(
        (
            m.effects[0].retest,
            m.effects[0].change_test,
            m.effects[0].exhaust
        ),
        (None, Some(true), Some(true))
    );
    assert!(disabled(&h, "Change test 1") && disabled(&h, "Exhaust 1"));
}

/// Issue #27 item 4: ticking Bonus or Penalty moves nothing in the effect's row (at 1024
/// wide too), so the next click lands on the box it was aimed at.
#[test]
fn ticking_bonus_or_penalty_moves_nothing_in_the_effects_row() {
    let mut h = open_form("Borrowed Face", "Borrowed Face");
    for width in [1280.0, 1024.0] {
        h.set_size(egui::vec2(width, 1000.0));
        h.run();
        let labels = [
            "Penalty 1",
            "Penalty value 1",
            "Test 1",
            "Retest 1",
            "Change test 1",
            "Exhaust 1",
            "Lost only 1",
            "Terrain 1",
            "Remove effect 1",
        ];
        let places = |h: &Harness<'_, DeckwrightApp>| {
            labels
                .iter()
                .map(|l| h.get_by_label(l).rect())
                .collect::<Vec<_>>()
        };
        let before = places(&h);
        click(&mut h, "Penalty 1");
        assert!(matches!(arcadia(&h), ArcadiaCard::Merit(m) if m.effects[0].penalty == Some(1)));
        assert_eq!(
            places(&h),
            before,
            "at {width}: ticking Penalty moved the row"
        );
        click(&mut h, "Penalty 1");
        assert_eq!(
            places(&h),
            before,
            "at {width}: unticking Penalty moved the row"
        );
        // Where Retest was is still Retest.
        h.get_by_label("Retest 1").click();
        h.run();
        assert!(matches!(arcadia(&h), ArcadiaCard::Merit(m) if m.effects[0].retest == Some(true)));
        click(&mut h, "Retest 1");
    }
}

/// A quest's objectives reordered and nested in the Form view (issue #25, item 5): a member
/// moved up, a member of a nested "All of" moved, a member added; each one undo step, and
/// after each the editor holds exactly the TOML the core writer writes for the card.
#[test]
fn a_quests_objectives_are_reordered_and_nested_each_one_undo_step() {
    use deckwright::games::arcadia::model::Objective;
    let mut h = open_form("kind:quest", "A Choice of Roads");
    let original = source(&h);
    let quest = |h: &Harness<'_, DeckwrightApp>| match arcadia(h) {
        ArcadiaCard::Quest(q) => q,
        other => panic!("{other:?}"),
    };
    let Objective::Any(members) = quest(&h).objective else {
        panic!("{:?}", quest(&h).objective)
    };
    assert!(
        disabled(&h, "Move objective 1.1 up"),
        "the first cannot go up"
    );
    assert!(
        disabled(&h, "Move objective 1.2 down"),
        "the last cannot go down"
    );

    click(&mut h, "Move objective 1.2 up");
    let mut want = members.clone();
    want.swap(0, 1);
    assert_eq!(quest(&h).objective, Objective::Any(want.clone()));
    assert_eq!(source(&h), write(&ArcadiaCard::Quest(quest(&h))));
    let after_one = source(&h);

    // The nested "All of" is now 1.1: its members swap.
    click(&mut h, "Move objective 1.1.1 down");
    let Objective::All(inner) = &mut want[0] else {
        panic!("{want:?}")
    };
    inner.swap(0, 1);
    assert_eq!(quest(&h).objective, Objective::Any(want.clone()));
    assert_eq!(source(&h), write(&ArcadiaCard::Quest(quest(&h))));

    // Built deeper: a member added to the nested list, then moved to its front.
    click(&mut h, "Add to objective 1.1");
    click(&mut h, "Move objective 1.1.3 up");
    let Objective::All(inner) = &mut want[0] else {
        panic!("{want:?}")
    };
    inner.insert(1, Objective::CollectTreasures(1));
    assert_eq!(quest(&h).objective, Objective::Any(want));
    assert_eq!(source(&h), write(&ArcadiaCard::Quest(quest(&h))));

    undo(&mut h);
    undo(&mut h);
    undo(&mut h);
    assert_eq!(source(&h), after_one, "three edits, three steps");
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// A card whose text no longer says what its data does is flagged in the Form view, and
/// *Write text from effects* writes its rules sentences from the templates, keeping the
/// flavour: one undo step (issue #25, item 4).
#[test]
fn a_text_that_disagrees_with_its_effects_is_flagged_and_written_from_them() {
    use deckwright::games::arcadia::text;
    let mut h = open_form("Borrowed Face", "Borrowed Face");
    assert!(
        h.query_by_label_contains("Text and effects disagree")
            .is_none()
    );
    assert!(h.query_by_label("Write text from effects").is_none());
    let original = source(&h);

    // The bonus raised from 2 to 3: the text still says +2.
    h.get(By::new().label("Bonus value 1").role(Role::SpinButton))
        .focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get(By::new().label("Bonus value 1").role(Role::SpinButton))
        .type_text("3");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    let ArcadiaCard::Merit(edited) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(edited.effects[0].bonus, Some(3), "{}", source(&h));
    h.get_by_label_contains("the text says 2, but no effect does");
    let before_writing = source(&h);

    click(&mut h, "Write text from effects");
    let ArcadiaCard::Merit(w) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(
        w.text,
        "For an hour you wear the face of someone they trust. Exhaust to gain +3 on one Savvy test."
    );
    assert!(text::mismatches(&ArcadiaCard::Merit(w.clone())).is_empty());
    assert!(
        h.query_by_label_contains("Text and effects disagree")
            .is_none()
    );
    assert_eq!(source(&h), write(&ArcadiaCard::Merit(w)));
    undo(&mut h);
    assert_eq!(source(&h), before_writing, "one undo step");
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// A merit's effects reordered with "Move effect N up/down": one undo step, the TOML the
/// core writer's.
#[test]
fn a_merits_effects_are_reordered_in_one_undo_step() {
    let mut h = open_form("Borrowed Face", "Borrowed Face");
    let original = source(&h);
    assert!(
        h.query_by_label("Move effect 1 up").is_none(),
        "one effect has no order"
    );
    click(&mut h, "Add effect");
    let added = source(&h);
    click(&mut h, "Move effect 2 up");
    let ArcadiaCard::Merit(m) = arcadia(&h) else {
        panic!("a merit")
    };
    assert_eq!(m.effects[0].bonus, Some(1));
    assert_eq!(m.effects[1].bonus, Some(2));
    assert_eq!(source(&h), write(&ArcadiaCard::Merit(m)));
    undo(&mut h);
    assert_eq!(source(&h), added);
    undo(&mut h);
    assert_eq!(source(&h), original);
}

/// Over every bundled Arcadia card (issue #25, item 5): an edit in the Form view leaves the
/// editor holding exactly the TOML the core writer writes for the edited card, and nothing
/// but the edited key changed.
#[test]
fn the_form_view_writes_the_core_writers_toml_for_every_bundled_card() {
    use deckwright::app::Action;
    let mut h = harness_of_height(app(), 1400.0);
    let mut seen = 0;
    for (path, text) in deckwright::cards::bundled() {
        let Ok(Card::Arcadia(card)) = parse_card(text, &path) else {
            continue;
        };
        h.state_mut().apply(Action::EditCard {
            label: "open".into(),
            after: text.to_string(),
        });
        h.run();
        if h.state().editor.view() != View::Form {
            click(&mut h, "Form");
        }
        h.get_by_label("Name").focus();
        h.run();
        h.get_by_label("Name").type_text("x");
        h.run();
        let edited = arcadia(&h);
        assert_eq!(source(&h), write(&edited), "{path}");
        let mut want = card.clone();
        let mut got = edited.clone();
        assert_eq!(
            got.common().1.len(),
            card.common().1.len() + 1,
            "{path}: one letter typed"
        );
        for c in [&mut got, &mut want] {
            common_mut(c).0.clear();
        }
        assert_eq!(got, want, "{path}: only the name changed");
        seen += 1;
    }
    assert!(seen > 60, "{seen} bundled Arcadia cards");
}

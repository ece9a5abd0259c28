//! The card editor's Form view through the real app: Kethra Voss's faction and a nullifier
//! set with widgets, the TOML rewritten, each edit one undo step, the card saved; typing in a
//! form field; Start lowered below marked tiles; roll numbers moved between actions; the view
//! and the edit across a restart; an action's effects as small forms; an Iconoclasm element gets no form.

use deckwright::app::core::card;
use deckwright::app::editor::View;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, parse_card};
use deckwright::games::iconica::model::{Character, Faction, Roll};
use egui::accesskit::Role;
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};

use crate::support::{app, click, harness, harness_of_height, type_in_search};

fn source(h: &Harness<'_, DeckwrightApp>) -> String {
    h.state().editor.text().to_string()
}

/// The editor's text, read strictly as an Iconica character.
fn character(h: &Harness<'_, DeckwrightApp>) -> Character {
    match parse_card(&source(h), "t.toml") {
        Ok(Card::Iconica(c)) => c,
        other => panic!("{other:?}"),
    }
}

fn undo(h: &mut Harness<'_, DeckwrightApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
}

fn open_kethra_form() -> Harness<'static, DeckwrightApp> {
    open_kethra_form_of_height(800.0)
}

/// Kethra Voss in the Form view of a harness `height` tall (the whole form fits in 2000).
fn open_kethra_form_of_height(height: f32) -> Harness<'static, DeckwrightApp> {
    let mut h = harness_of_height(app(), height);
    type_in_search(&mut h, "Kethra");
    click(&mut h, "Kethra Voss");
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    h
}

#[test]
fn kethras_faction_and_a_nullifier_set_in_the_form_are_undone_step_by_step_and_saved() {
    let mut h = open_kethra_form();
    let original = source(&h);
    let before = character(&h);
    assert_eq!(before.faction, Faction::Legion);
    assert!(before.health.nullifiers_at(70).is_empty());

    // Faction: a drop-down of the format's factions.
    h.get(By::new().label("Faction").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "protectorate");
    assert!(
        source(&h).contains("faction = \"protectorate\""),
        "{}",
        source(&h)
    );
    assert_eq!(character(&h).faction, Faction::Protectorate);

    // Tile 70 of the meter: Focus on.
    click(&mut h, "70");
    click(&mut h, "focus");
    h.key_press(Key::Escape);
    h.run();
    let edited = character(&h);
    assert_eq!(edited.health.focus, vec![70]);
    assert_eq!(edited.faction, Faction::Protectorate);
    assert!(source(&h).contains("focus = [70]"), "{}", source(&h));
    h.get_by_label("70\nfocus");
    h.get_by_label("Differs from the catalogue's card (Ctrl+S replaces it)");
    // Everything else is the card as it was.
    let mut expected = before.clone();
    expected.faction = Faction::Protectorate;
    expected.health.focus = vec![70];
    assert_eq!(edited, expected);

    // One undo step per form edit, back to the text as it was.
    undo(&mut h);
    assert_eq!(character(&h).health.focus, Vec::<u32>::new());
    assert_eq!(character(&h).faction, Faction::Protectorate);
    undo(&mut h);
    assert_eq!(source(&h), original);
    h.get_by_label("Same as the catalogue's card");

    // Redo both and save: the catalogue has the edited card.
    for _ in 0..2 {
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
    }
    assert_eq!(character(&h), expected);
    h.key_press_modifiers(Modifiers::COMMAND, Key::S);
    h.run();
    assert_eq!(h.state().error(), None);
    assert_eq!(
        card(&h.state().cat, "ico-kethra-voss"),
        Some(Card::Iconica(expected))
    );
    h.get_by_label("Same as the catalogue's card");
}

#[test]
fn typing_in_a_form_field_is_one_undo_step_and_the_source_view_shows_it() {
    let mut h = open_kethra_form();
    let original = source(&h);
    h.get_by_label("Name").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Name").type_text("Kethra the Bold");
    h.run();
    assert_eq!(character(&h).name, "Kethra the Bold");
    h.get_by_label("Valid Iconica character “Kethra the Bold” (ico-kethra-voss).");
    h.run_steps(70);
    assert!(!h.state().editor.typing(), "the pause ends the burst");
    click(&mut h, "Source");
    assert!(source(&h).contains("name = \"Kethra the Bold\""));
    h.get_by_label("TOML source:");
    undo(&mut h);
    assert_eq!(source(&h), original);
}

#[test]
fn an_iconoclasm_element_has_no_form() {
    let mut h = harness(app());
    h.key_press_modifiers(Modifiers::COMMAND, Key::E);
    h.run();
    click(&mut h, "New card");
    click(&mut h, "Iconoclasm element");
    click(&mut h, "Form");
    h.get_by_label_contains("No form for this text: the form edits Iconica characters");
    click(&mut h, "Show the Source view");
    assert_eq!(h.state().editor.view(), View::Source);
    h.get_by_label("TOML source:");
}

#[test]
fn lowering_start_shows_the_parsers_error_until_the_stray_tiles_are_removed() {
    let mut h = open_kethra_form();
    for _ in 0..5 {
        click(&mut h, "-10");
    }
    assert!(source(&h).contains("start = 70"), "{}", source(&h));
    // The strict parser's verdict, as in the Source view; the form keeps working.
    let error = "parry tile 100 must be a multiple of 10 strictly between 0 and start (70)";
    h.get_by_label_contains(error);
    assert!(h.state().editor.card().is_none());
    h.get_by_label("Tiles off the meter:");
    click(&mut h, "remove 100");
    click(&mut h, "remove 80");
    let c = character(&h);
    assert_eq!((c.health.start, c.health.parry.clone()), (70, vec![40]));
    assert!(c.health.evasion.is_empty());
    h.get_by_label("Valid Iconica character “Kethra Voss” (ico-kethra-voss).");

    // Each removal was one step; a click on the error shows it in the source.
    undo(&mut h);
    undo(&mut h);
    h.get_by_label_contains(error).click();
    h.run();
    assert_eq!(h.state().editor.view(), View::Source);
    assert!(h.get_by_label("TOML source:").is_focused());
}

#[test]
fn roll_numbers_move_between_actions_and_the_parser_checks_the_coverage() {
    let mut h = open_kethra_form_of_height(2000.0);
    // One row of roll toggles per action, in card order, then the strengths' rows.
    let toggle_4 = |h: &mut Harness<'_, DeckwrightApp>, action: usize| {
        h.get_all_by_label("4")
            .nth(action)
            .expect("a roll toggle 4")
            .click();
        h.run();
    };
    // Pike Thrust (the third action, rolls 3 and 4) gives up 4.
    toggle_4(&mut h, 2);
    h.get_by_label_contains("no action covers roll 4");
    assert!(h.state().editor.card().is_none());
    // Steady the Ranks (the fourth, roll 5) takes it: each of 1-6 exactly once again.
    toggle_4(&mut h, 3);
    let c = character(&h);
    assert_eq!(c.actions[2].roll, Roll::One(3));
    assert_eq!(c.actions[3].roll, Roll::Many(vec![4, 5]));
    assert!(source(&h).contains("roll = [4, 5]"), "{}", source(&h));
    h.get_by_label("Valid Iconica character “Kethra Voss” (ico-kethra-voss).");
}

#[test]
fn the_form_view_and_its_edit_survive_a_restart() {
    let mut h = open_kethra_form_of_height(2000.0);
    click(&mut h, "Add strength");
    let edited = character(&h);
    assert_eq!(edited.strengths.len(), 2);

    let cat = h.into_state().cat;
    let mut h = harness_of_height(DeckwrightApp::new(cat), 2000.0);
    h.run();
    assert_eq!(h.state().screen, Screen::Card);
    assert_eq!(h.state().editor.view(), View::Form);
    assert_eq!(character(&h), edited);
    h.get_by_label("Add strength");
    undo(&mut h);
    assert_eq!(character(&h).strengths.len(), 1);
}

/// An action's effects in the Form view: a damage made a roll (the old effect its `then`),
/// its condition and an `else` effect set, a target changed, an effect removed; the TOML
/// is the one the Source view shows, and each edit is one undo step.
#[test]
fn an_actions_effects_are_edited_as_small_forms() {
    use deckwright::games::iconica::model::{Effect, RollCondition, Target};
    let mut h = open_kethra_form_of_height(2400.0);
    let original = source(&h);
    let before = character(&h);
    let first = before.actions[0].effects.clone();
    assert!(!first.is_empty());
    click(&mut h, &format!("Effects of action 1 ({})", first.len()));
    h.get_by_label("Effect 1.1");

    // Effect 1.1 becomes a roll of 4+ whose `then` is the old effect.
    h.get(By::new().label("Effect 1.1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "roll");
    let e = &character(&h).actions[0].effects[0];
    assert_eq!(
        e,
        &Effect::Roll {
            roll: RollCondition::AtLeast(4),
            then: vec![first[0].clone()],
            otherwise: vec![]
        }
    );
    assert!(source(&h).contains("roll = \"4+\""), "{}", source(&h));

    // The condition: even; an `else` effect added: 10 damage to a foe, then aimed at all foes.
    h.get(By::new().label("Roll 1.1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "even");
    click(&mut h, "Add effect 1.1.e");
    h.get(By::new().label("Target 1.1.e.1").role(Role::ComboBox))
        .click();
    h.run();
    click(&mut h, "all_foes");
    let Effect::Roll {
        roll, otherwise, ..
    } = &character(&h).actions[0].effects[0]
    else {
        panic!()
    };
    assert_eq!(*roll, RollCondition::Even);
    assert_eq!(
        otherwise,
        &vec![Effect::Damage {
            damage: 10,
            target: Target::AllFoes
        }]
    );

    click(&mut h, "Remove effect 1.1.e.1");
    let Effect::Roll { otherwise, .. } = &character(&h).actions[0].effects[0] else {
        panic!()
    };
    assert!(otherwise.is_empty());

    // Five edits, five steps back.
    for _ in 0..5 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original);
}

/// An action's text that no longer says what its effects do is flagged under it, and *Write
/// text from effects* writes it from the effects' templates: one undo step.
#[test]
fn a_text_that_disagrees_with_its_effects_is_flagged_and_written_from_them() {
    let mut h = open_kethra_form_of_height(2400.0);
    let before = character(&h);
    assert!(
        h.query_by_label_contains("but the text does not").is_none(),
        "Kethra's texts agree with her effects"
    );
    let n = before.actions[0].effects.len();
    click(&mut h, &format!("Effects of action 1 ({n})"));
    click(&mut h, "Add effect 1");
    // The new effect (10 damage to a foe) is not in the words.
    h.get_by_label_contains("an effect has 10, but the text does not say it");
    let edited = source(&h);
    click(&mut h, "Write text from effects");
    let a = &character(&h).actions[0];
    assert_eq!(
        a.text,
        deckwright::games::iconica::text::write(&a.effects),
        "{}",
        a.text
    );
    assert!(a.text.contains("10 damage"), "{}", a.text);
    assert!(h.query_by_label_contains("but the text does not").is_none());
    undo(&mut h);
    assert_eq!(source(&h), edited);
}

/// Every list of an action's effects reorders (issue #25, item 5): an action's effects moved,
/// a watch's `then` grown and reordered; each one undo step, and the editor holds exactly
/// the TOML the core writer writes for the character.
#[test]
fn an_actions_effects_and_a_watchs_then_are_reordered_each_one_undo_step() {
    use deckwright::games::iconica::edit::write;
    use deckwright::games::iconica::model::{Effect, Target};
    let mut h = open_kethra_form_of_height(2400.0);
    let original = source(&h);
    let first = character(&h).actions[1].effects.clone();
    assert_eq!(first.len(), 2, "{first:?}");
    click(&mut h, "Effects of action 2 (2)");
    assert!(
        h.get_by_label("Move effect 2.1 up")
            .accesskit_node()
            .is_disabled()
    );
    assert!(
        h.get_by_label("Move effect 2.2 down")
            .accesskit_node()
            .is_disabled()
    );

    click(&mut h, "Move effect 2.2 up");
    let moved = character(&h).actions[1].effects.clone();
    assert_eq!(moved, vec![first[1].clone(), first[0].clone()]);
    assert_eq!(source(&h), write(&character(&h)));

    // The watch is 2.1 now: its `then` gets a second effect, which goes first.
    click(&mut h, "Add effect 2.1.t");
    click(&mut h, "Move effect 2.1.t.2 up");
    let Effect::Watch { then, .. } = &character(&h).actions[1].effects[0] else {
        panic!("{:?}", character(&h).actions[1])
    };
    let Effect::Watch { then: old_then, .. } = &first[1] else {
        panic!("{first:?}")
    };
    assert_eq!(
        then,
        &vec![
            Effect::Damage {
                damage: 10,
                target: Target::Foe
            },
            old_then[0].clone()
        ]
    );
    assert_eq!(source(&h), write(&character(&h)));

    for _ in 0..3 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original, "three edits, three steps");
}

/// Over every bundled Iconica character (issue #25, item 5): an edit in the Form view leaves
/// the editor holding exactly the TOML the core writer writes for the edited character, and
/// nothing but the edited key changed.
#[test]
fn the_form_view_writes_the_core_writers_toml_for_every_bundled_character() {
    use deckwright::app::Action;
    use deckwright::games::iconica::edit::write;
    let mut h = harness_of_height(app(), 1400.0);
    let mut seen = 0;
    for (path, text) in deckwright::cards::bundled() {
        let Ok(Card::Iconica(card)) = parse_card(text, &path) else {
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
        let mut edited = character(&h);
        assert_eq!(source(&h), write(&edited), "{path}");
        assert_eq!(edited.name.len(), card.name.len() + 1, "{path}");
        edited.name = card.name.clone();
        assert_eq!(edited, card, "{path}: only the name changed");
        seen += 1;
    }
    assert!(seen > 10, "{seen} bundled characters");
}

/// A strength's and a final act's effects are composed in the Form view too: added and
/// reordered, each one undo step, the TOML the core writer's.
#[test]
fn a_strengths_and_a_final_acts_effects_are_composed_in_the_form() {
    use deckwright::games::iconica::edit::write;
    use deckwright::games::iconica::model::{Effect, Target};
    let mut h = open_kethra_form_of_height(2400.0);
    let original = source(&h);
    let before = character(&h).strengths[0].effects.clone();
    assert_eq!(before.len(), 1, "{before:?}");
    click(&mut h, "Effects of strength 1 (1)");
    click(&mut h, "Add effect s1");
    click(&mut h, "Move effect s1.2 up");
    let ten = Effect::Damage {
        damage: 10,
        target: Target::Foe,
    };
    assert_eq!(
        character(&h).strengths[0].effects,
        vec![ten.clone(), before[0].clone()]
    );
    assert_eq!(source(&h), write(&character(&h)));

    click(&mut h, "This character has a final act");
    click(&mut h, "Effects of the final act (0)");
    click(&mut h, "Add effect f");
    assert_eq!(character(&h).final_act.map(|f| f.effects), Some(vec![ten]));
    assert_eq!(source(&h), write(&character(&h)));
    for _ in 0..4 {
        undo(&mut h);
    }
    assert_eq!(source(&h), original, "four edits, four steps");
}

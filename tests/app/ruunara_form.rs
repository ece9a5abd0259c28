//! The card editor's Form view for Ruunara figures: skills added, edited and removed, the
//! faction and dice changed, each one undo step, the TOML read back by the strict parser.

use deckwright::app::editor::View;
use deckwright::app::{DeckwrightApp, Screen};
use deckwright::cards::{Card, parse_card};
use deckwright::games::ruunara::edit::write;
use deckwright::games::ruunara::model::{
    Allegiance, AttackKind, EffectKind, EffectTarget, Figure, Skill,
};
use egui::{Key, Modifiers};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

use crate::support::{app, click, harness_of_height, type_in_search};

fn figure(h: &Harness<'_, DeckwrightApp>) -> Figure {
    match parse_card(h.state().editor.text(), "t.toml") {
        Ok(Card::Ruunara(f)) => f,
        other => panic!("{other:?}\n{}", h.state().editor.text()),
    }
}

/// The Fen Wraith's card in the Form view.
fn fen_wraith_form(width: f32, height: f32) -> Harness<'static, DeckwrightApp> {
    let mut h = crate::support::builder()
        .with_size(egui::vec2(width, height))
        .build_ui_state(|ui, app: &mut DeckwrightApp| app.ui_root(ui), app());
    type_in_search(&mut h, "Fen Wraith");
    click(&mut h, "Fen Wraith");
    click(&mut h, "Edit card");
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    h
}

/// Picks `value` from the drop-down labelled `label`, scrolled into view as a user would.
fn pick(h: &mut Harness<'_, DeckwrightApp>, label: &str, value: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    h.get_by_label(label).click();
    h.run();
    // A long list scrolls: the entry scrolled into view first, as a user would.
    h.get_by_label(value).scroll_to_me();
    h.run();
    click(h, value);
}

/// The card's text is the core writer's TOML of a figure with no problems; its skill 1.
fn written_skill(h: &Harness<'_, DeckwrightApp>) -> Skill {
    let f = figure(h);
    assert_eq!(h.state().editor.text(), write(&f));
    assert!(f.problems().is_empty(), "{:?}", f.problems());
    f.skills[0].clone()
}

/// The parameter keys `s` carries, by name.
fn params(s: &Skill) -> Vec<&'static str> {
    let mut p = Vec::new();
    for (k, on) in [
        ("dice", s.dice.is_some()),
        ("attack", s.attack.is_some()),
        ("amount", s.amount.is_some()),
        ("target", s.target.is_some()),
        ("range", s.range.is_some()),
        ("radius", s.radius.is_some()),
        ("damage", s.damage.is_some()),
        ("against", s.against.is_some()),
        ("hits", s.hits.is_some()),
        ("lasts", s.lasts.is_some()),
        ("state", s.state.is_some()),
        ("score", s.score.is_some()),
        ("condition", s.condition.is_some()),
        ("distance", s.distance.is_some()),
        ("when", s.when.is_some()),
        ("face", s.face.is_some()),
    ] {
        if on {
            p.push(k);
        }
    }
    p.sort_unstable();
    p
}

fn undo(h: &mut Harness<'_, DeckwrightApp>) {
    h.key_press_modifiers(Modifiers::COMMAND, Key::Z);
    h.run();
}

#[test]
fn skills_are_added_edited_and_removed_in_the_form() {
    let mut h = harness_of_height(app(), 1400.0);
    type_in_search(&mut h, "Fen Wraith");
    click(&mut h, "Fen Wraith");
    click(&mut h, "Edit card");
    assert_eq!(h.state().screen, Screen::Card);
    click(&mut h, "Form");
    assert_eq!(h.state().editor.view(), View::Form);
    let original = h.state().editor.text().to_string();
    let before = figure(&h);
    assert_eq!(before.skills.len(), 2);
    h.get_by_label("Skill 2 name");

    click(&mut h, "Add skill");
    let f = figure(&h);
    assert_eq!(f.skills.len(), 3);
    assert_eq!(f.skills[2].name, "New Skill");

    // Typing in the new skill's text.
    h.get_by_label("Skill 3 text").focus();
    h.run();
    h.get_by_label("Skill 3 text")
        .type_text("Once per game, vanish.");
    h.run();
    assert_eq!(
        figure(&h).skills[2].text.as_deref(),
        Some("Once per game, vanish.")
    );

    click(&mut h, "Remove skill 1");
    let f = figure(&h);
    assert_eq!(f.skills.len(), 2);
    assert_eq!(f.skills[0].name, before.skills[1].name);

    // Skills reorder: one step, undone here.
    click(&mut h, "Move skill 1 down");
    let moved = figure(&h);
    assert_eq!(moved.skills[0].name, "New Skill");
    assert_eq!(moved.skills[1].name, before.skills[1].name);
    undo(&mut h);
    assert_eq!(figure(&h).skills[0].name, before.skills[1].name);

    // The faction from its drop-down.
    h.get_by_label("Faction").click();
    h.run();
    click(&mut h, "neutral");
    assert_eq!(figure(&h).faction, Allegiance::Neutral);

    for _ in 0..4 {
        undo(&mut h);
    }
    assert_eq!(h.state().editor.text(), original);
}

#[test]
fn each_effect_kind_is_set_from_the_form_with_exactly_its_parameters() {
    let mut h = fen_wraith_form(1024.0, 700.0);
    let original = h.state().editor.text().to_string();
    // Half-There: a save against shots on 4+ (issue #25).
    assert_eq!(figure(&h).skills[0].effect, Some(EffectKind::Save));
    let mut before = original.clone();
    // Each kind over the one before it: the foreign parameters go.
    for kind in EffectKind::ALL {
        pick(&mut h, "Skill 1 effect", kind.as_str());
        let s = written_skill(&h);
        assert_eq!(s.effect, Some(kind));
        assert!(s.resolved_effect().is_some(), "{kind:?}: {s:?}");
        let mut required = kind.required().to_vec();
        required.sort_unstable();
        assert_eq!(params(&s), required, "{kind:?}");
        if kind == EffectKind::InstantKill {
            // The card's valid trigger is kept.
            assert_eq!(s.trigger.as_deref(), Some("4+"));
        }
        // One pick, one undo step.
        let after = h.state().editor.text().to_string();
        undo(&mut h);
        assert_eq!(h.state().editor.text(), before);
        h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
        h.run();
        assert_eq!(h.state().editor.text(), after);
        before = after;
    }
    pick(&mut h, "Skill 1 effect", "none (text only)");
    let s = written_skill(&h);
    assert_eq!((s.effect, params(&s)), (None, vec![]));
    // Only Grave Chill's effect is left.
    assert_eq!(h.state().editor.text().matches("effect =").count(), 1);
}

#[test]
fn an_effects_parameters_are_edited_one_undo_step_each() {
    let mut h = fen_wraith_form(1920.0, 1080.0);
    pick(&mut h, "Skill 1 effect", "extra_attack");
    pick(&mut h, "Skill 1 attack", "ranged");
    let s = written_skill(&h);
    assert_eq!(s.attack, Some(AttackKind::Ranged));
    undo(&mut h);
    assert_eq!(figure(&h).skills[0].attack, Some(AttackKind::Close));

    // The dice as two numbers: how many, and the score each needs.
    let picked = h.state().editor.text().to_string();
    h.get_all_by_label("Skill 1 dice")
        .next()
        .unwrap()
        .set_value_accesskit(3.0);
    h.run();
    let s = written_skill(&h);
    assert_eq!(s.dice.map(|d| d.to_string()).as_deref(), Some("3D4+"));
    undo(&mut h);
    assert_eq!(h.state().editor.text(), picked);

    // The damage a hit: written above 1 (as the core writes it), one undo step; back to 1,
    // not written at all.
    assert_eq!(
        h.get_by_label("Skill 1 damage").value().as_deref(),
        Some("1 HP a hit")
    );
    h.get_by_label("Skill 1 damage").set_value_accesskit(2.0);
    h.run();
    let s = written_skill(&h);
    assert_eq!(s.damage, Some(2));
    assert!(h.state().editor.text().contains("damage = 2\n"));
    let damaged = h.state().editor.text().to_string();
    undo(&mut h);
    assert_eq!(h.state().editor.text(), picked);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    assert_eq!(h.state().editor.text(), damaged);
    h.get_by_label("Skill 1 damage").set_value_accesskit(1.0);
    h.run();
    let s = written_skill(&h);
    assert_eq!(s.damage, None);
    assert!(!h.state().editor.text().contains("damage"));

    // A heal of an ally has a range; switching back to the figure itself drops it.
    pick(&mut h, "Skill 1 effect", "heal");
    h.get_by_label("Skill 1 amount");
    assert!(h.query_by_label("Skill 1 attack").is_none());
    assert!(h.query_by_label("Skill 1 damage").is_none());
    pick(&mut h, "Skill 1 target", "ally");
    let s = written_skill(&h);
    assert_eq!((s.target, s.range), (Some(EffectTarget::Ally), Some(2.0)));
    h.get_by_label("Skill 1 range");
    h.get_by_label("Restores these hit points to an ally within the range.");
    pick(&mut h, "Skill 1 target", "self");
    let s = written_skill(&h);
    assert_eq!((s.target, s.range), (Some(EffectTarget::Own), None));
    undo(&mut h);
    assert_eq!(figure(&h).skills[0].range, Some(2.0));

    // An area around a point: range and radius together, or neither.
    pick(&mut h, "Skill 1 effect", "area");
    let s = written_skill(&h);
    assert_eq!((s.amount, s.target, s.range), (None, None, None));
    h.get_by_label("Skill 1 damage").set_value_accesskit(3.0);
    h.run();
    assert_eq!(written_skill(&h).damage, Some(3));
    click(&mut h, "Skill 1 around a point");
    let s = written_skill(&h);
    assert_eq!((s.range, s.radius), (Some(12.0), Some(4.0)));
    h.get_by_label("Skill 1 radius");
    click(&mut h, "Skill 1 around a point");
    let s = written_skill(&h);
    assert_eq!((s.range, s.radius), (None, None));
}

#[test]
fn instant_kill_keeps_the_skills_trigger_and_shows_it_as_a_number() {
    let mut h = fen_wraith_form(1920.0, 1080.0);
    // Skill 2, Grave Chill, triggers on 5+.
    pick(&mut h, "Skill 2 effect", "instant_kill");
    let f = figure(&h);
    assert_eq!(h.state().editor.text(), write(&f));
    assert!(f.problems().is_empty(), "{:?}", f.problems());
    assert_eq!(f.skills[1].trigger.as_deref(), Some("5+"));
    assert_eq!(
        h.get_by_label("Skill 2 trigger").value().as_deref(),
        Some("5+")
    );
    // Which attacks it serves: every one unless one kind is picked; one undo step.
    assert_eq!(f.skills[1].attack, None);
    pick(&mut h, "Skill 2 attack", "ranged");
    let f = figure(&h);
    assert_eq!(f.skills[1].attack, Some(AttackKind::Ranged));
    assert_eq!(h.state().editor.text(), write(&f));
    assert!(h.state().editor.text().contains("attack = \"ranged\""));
    assert!(f.problems().is_empty(), "{:?}", f.problems());
    undo(&mut h);
    assert_eq!(figure(&h).skills[1].attack, None);
}

/// A heal of an ally on the Form view at 1024 x 700: the effect's widgets fit the window
/// (`tests/snapshots/editor-ruunara-effect.png`, copied to `docs/screenshots/`).
#[test]
fn ruunara_effect_form_snapshot() {
    let mut h = fen_wraith_form(1024.0, 700.0);
    pick(&mut h, "Skill 1 effect", "heal");
    pick(&mut h, "Skill 1 target", "ally");
    h.run_steps(10);
    h.get_by_label("Skill 1 range").scroll_to_me();
    h.run_steps(10);
    for label in ["Skill 1 effect", "Skill 1 amount", "Skill 1 range"] {
        let r = h.get_by_label(label).rect();
        assert!(
            r.min.y >= 0.0 && r.max.x <= 1024.0 && r.max.y <= 700.0,
            "{label}: {r:?}"
        );
    }
    h.snapshot("editor-ruunara-effect");
}

/// A composed skill (issue #25) built in the form: a state's kind, its targets and how long
/// it lasts, each pick one undo step, the text always the core writer's.
#[test]
fn a_state_skill_is_composed_in_the_form_one_undo_step_a_pick() {
    use deckwright::games::ruunara::model::{Lasts, StateKind};
    let mut h = fen_wraith_form(1024.0, 700.0);
    pick(&mut h, "Skill 1 effect", "state");
    let mut texts = vec![h.state().editor.text().to_string()];
    pick(&mut h, "Skill 1 state", "hexed");
    texts.push(h.state().editor.text().to_string());
    pick(&mut h, "Skill 1 targets", "enemies");
    texts.push(h.state().editor.text().to_string());
    pick(&mut h, "Skill 1 lasts", "fight");
    let s = written_skill(&h);
    assert_eq!(s.state, Some(StateKind::Hexed));
    assert_eq!(s.target, Some(EffectTarget::Enemies));
    assert_eq!(s.radius, Some(3.0), "every enemy around needs a radius");
    assert_eq!(s.lasts, Some(Lasts::Fight));
    assert!(s.resolved_effect().is_some());
    for before in texts.iter().rev() {
        undo(&mut h);
        assert_eq!(h.state().editor.text(), before);
    }
}

/// A skill whose text says another number than its data is flagged under its text, and
/// *Write text from effects* writes the text from its form's template: one undo step, and
/// the text stays the designer's to reword (issue #25, item 4).
#[test]
fn a_skill_text_that_disagrees_with_its_data_is_flagged_and_written_from_it() {
    use deckwright::games::ruunara::text;
    let mut h = fen_wraith_form(1920.0, 1080.0);
    assert!(
        h.query_by_label_contains("Text and effects disagree")
            .is_none(),
        "the Fen Wraith's texts agree with its skills"
    );
    assert!(h.query_by_label("Write text from effects").is_none());
    let original = h.state().editor.text().to_string();

    // Half-There's save raised to 5+: its text still says 4+.
    h.get_by_label("Skill 1 trigger").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Skill 1 trigger").type_text("5+");
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(figure(&h).skills[0].trigger.as_deref(), Some("5+"));
    h.get_by_label_contains("the text says 4, but the skill's data does not");
    let edited = h.state().editor.text().to_string();

    click(&mut h, "Write text from effects");
    let s = written_skill(&h);
    assert_eq!(
        s.text.as_deref(),
        Some("Each ranged hit against the figure is cancelled on a 5+.")
    );
    assert!(text::audit(&s).is_empty());
    assert!(
        h.query_by_label_contains("Text and effects disagree")
            .is_none()
    );
    assert!(h.query_by_label("Write text from effects").is_none());
    undo(&mut h);
    assert_eq!(h.state().editor.text(), edited, "one undo step");
    undo(&mut h);
    assert_eq!(h.state().editor.text(), original);

    // The designer may still reword the written text.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::Z);
    h.run();
    h.get_by_label("Skill 1 text").focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.run();
    h.get_by_label("Skill 1 text")
        .type_text("Shots pass through it on a 5+.");
    h.run();
    assert_eq!(
        figure(&h).skills[0].text.as_deref(),
        Some("Shots pass through it on a 5+.")
    );
    assert!(h.query_by_label("Write text from effects").is_none());
}

/// Clicks the checkbox labelled `label`, scrolled into view as a user would.
fn tick(h: &mut Harness<'_, DeckwrightApp>, label: &str) {
    h.get_by_label(label).scroll_to_me();
    h.run();
    click(h, label);
}

/// The composed keys the Form view could not edit before (issue #25, item 5): a save's
/// `hits`, a hex's `score`, a state's `face`, a heal's `when`, a cover's and a hunt's
/// `condition`. Each change is one undo step, and the card's text is always the core
/// writer's TOML of a figure with no problems.
#[test]
fn hits_score_face_when_and_condition_are_set_in_the_form_one_undo_step_each() {
    use deckwright::games::ruunara::model::{Condition, StateKind, When};
    let mut h = fen_wraith_form(1920.0, 1080.0);
    let mut texts = vec![h.state().editor.text().to_string()];
    let second = |h: &Harness<'_, DeckwrightApp>| {
        let f = figure(h);
        assert_eq!(h.state().editor.text(), write(&f));
        assert!(f.problems().is_empty(), "{:?}", f.problems());
        f.skills[1].clone()
    };

    // Half-There cancels only the first hit of each fight; 0 is every hit, not written.
    assert_eq!(
        h.get_by_label("Skill 1 hits").value().as_deref(),
        Some("every hit")
    );
    h.get_by_label("Skill 1 hits").set_value_accesskit(1.0);
    h.run();
    assert_eq!(written_skill(&h).hits, Some(1));
    assert!(h.state().editor.text().contains("hits = 1\n"));
    texts.push(h.state().editor.text().to_string());

    // Grave Chill's targets turn to face the Wraith.
    tick(&mut h, "Skill 2 face");
    assert_eq!(second(&h).face, Some(true));
    assert!(h.state().editor.text().contains("face = true\n"));
    texts.push(h.state().editor.text().to_string());

    // Hexed, on 4+ at best.
    pick(&mut h, "Skill 2 state", "hexed");
    texts.push(h.state().editor.text().to_string());
    h.get_by_label("Skill 2 score").set_value_accesskit(4.0);
    h.run();
    let s = second(&h);
    assert_eq!((s.state, s.score), (Some(StateKind::Hexed), Some(4)));
    assert!(h.state().editor.text().contains("score = 4\n"));
    texts.push(h.state().editor.text().to_string());

    // A heal when a hero is executed near, with the radius it needs.
    pick(&mut h, "Skill 1 effect", "heal");
    texts.push(h.state().editor.text().to_string());
    tick(&mut h, "Skill 1 on an execution");
    let s = written_skill(&h);
    assert_eq!((s.when, s.radius), (Some(When::Execution), Some(6.0)));
    assert!(h.state().editor.text().contains("when = \"execution\"\n"));
    h.get_by_label("Skill 1 radius");
    texts.push(h.state().editor.text().to_string());

    // A cover only while no hostile is near, with its distance; off again drops both.
    pick(&mut h, "Skill 1 effect", "cover");
    texts.push(h.state().editor.text().to_string());
    tick(&mut h, "Skill 1 only apart");
    let s = written_skill(&h);
    assert_eq!(
        (s.condition, s.distance),
        (Some(Condition::Apart), Some(8.0))
    );
    h.get_by_label("Skill 1 distance");
    tick(&mut h, "Skill 1 only apart");
    let s = written_skill(&h);
    assert_eq!((s.condition, s.distance), (None, None));
    undo(&mut h);
    assert_eq!(written_skill(&h).condition, Some(Condition::Apart));
    texts.push(h.state().editor.text().to_string());

    // A hunt of the wounded.
    pick(&mut h, "Skill 1 effect", "hunt");
    texts.push(h.state().editor.text().to_string());
    tick(&mut h, "Skill 1 wounded first");
    assert_eq!(written_skill(&h).condition, Some(Condition::Wounded));
    assert!(
        h.state()
            .editor
            .text()
            .contains("condition = \"wounded\"\n")
    );

    // One undo step each, back to the card as it was.
    for before in texts.iter().rev() {
        undo(&mut h);
        assert_eq!(h.state().editor.text(), before);
    }
}

//! The card texts as data the engine plays, as small forms: a league's `effects` (merit
//! types or waylay ratings forbidden, a test modified, an extra trial, a rest that recovers
//! more) and a waylay trial's failure `effect`. Each is a kind picked from a drop-down and
//! that kind's values; picking a kind writes a table of exactly that form, so the form
//! cannot make a table with two forms or a key of another form (one written so in the
//! source is the parser's to report; picking a kind rewrites it). Both share the list of
//! merit types, one checkbox a type.

use super::{Edits, group, inline_number, kind_pick};
use crate::app::editor::card_form::choice;
use crate::games::arcadia::edit::word;
use crate::games::arcadia::model::{
    FailureEffect, LeagueEffect, LeagueTrial, MeritType, TestKind, TrialOn,
};

/// The forms of a league effect, in the order of [`league_kind`].
const LEAGUE_KINDS: [&str; 6] = [
    "Forbid merit types",
    "Forbid waylay ratings",
    "Modify a test",
    "Extra trial",
    "Rest recovers more",
    "Rest looks at treasures",
];

/// The form of `fx`: the first of its form keys (the parser reports a table with none or
/// several).
fn league_kind(fx: &LeagueEffect) -> usize {
    [
        fx.forbid_merits.is_some(),
        fx.forbid_ratings.is_some(),
        fx.modify.is_some(),
        fx.trial.is_some(),
        fx.rest_extra.is_some(),
        fx.look_at_treasures.is_some(),
    ]
    .iter()
    .position(|x| *x)
    .unwrap_or(0)
}

/// A new league effect of form `k`, with the values of the bundled cards' examples.
fn league_of_kind(k: usize) -> LeagueEffect {
    let mut fx = LeagueEffect::default();
    match k {
        0 => fx.forbid_merits = Some(vec![MeritType::Art]),
        1 => fx.forbid_ratings = Some(vec![1]),
        2 => {
            fx.modify = Some(-1);
            fx.test = Some(TestKind::Might);
        }
        3 => {
            fx.trial = Some(LeagueTrial {
                attribute: TestKind::Might,
                difficulty: 4,
            });
            fx.on = Some(TrialOn::Stay);
        }
        4 => {
            fx.rest_extra = Some(1);
            fx.types = Some(Vec::new());
        }
        _ => fx.look_at_treasures = Some(1),
    }
    fx
}

/// What an effect of `fx`'s form does in play, in a line under it.
fn league_meaning(fx: &LeagueEffect) -> &'static str {
    match league_kind(fx) {
        0 if fx.forbid_merits.as_ref().is_some_and(Vec::is_empty) => {
            "No type ticked: this forbids nothing."
        }
        0 => {
            "A character in this league may not use merits of the ticked types (it may still \
             exhaust or discard them to pay a loss)."
        }
        1 if fx.forbid_ratings.as_ref().is_some_and(Vec::is_empty) => {
            "No rating listed: this forbids nothing."
        }
        1 => "No waylay of these ratings may be played on this league.",
        2 => "Every test of this kind taken in this league: this much added to its score.",
        3 if fx.on == Some(TrialOn::Rest) => {
            "Resting here needs this trial first; failing ends the Day without the Rest."
        }
        3 => "A character that stays here must pass this trial first; failing ends its Day.",
        4 => {
            "Resting here also recovers this many more exhausted merits of the ticked types \
             (none ticked: any type)."
        }
        _ => {
            "A character that rests here looks at this many of the other player's face-down \
             treasures (it learns which treasure lies where)."
        }
    }
}

/// A league's effects: each its form and that form's values, moved up or down or removed
/// with buttons (the order matters to extra trials: only the first of an occasion is rolled),
/// added from a menu of the forms.
pub(super) fn league_effects_ui(ui: &mut egui::Ui, effects: &mut Vec<LeagueEffect>, e: &mut Edits) {
    ui.strong("Effects");
    ui.weak("What the special text does in play: the engine plays these, the text is shown.");
    let occasions: Vec<Option<TrialOn>> = effects
        .iter()
        .map(|fx| fx.trial.as_ref().and(fx.on))
        .collect();
    let mut swap = None;
    let mut remove = None;
    let effects_len = effects.len();
    for (i, fx) in effects.iter_mut().enumerate() {
        let n = i + 1;
        group(ui, format!("League effect {n}"), |ui| {
            ui.horizontal_wrapped(|ui| {
                let l = ui.label(format!("Effect {n}"));
                if let Some(k) = kind_pick(
                    ui,
                    ("arcadia-league-effect", n),
                    league_kind(fx),
                    &LEAGUE_KINDS,
                    l.id,
                ) {
                    *fx = league_of_kind(k);
                    e.pick(format!("effect {n}: {}", LEAGUE_KINDS[k].to_lowercase()));
                }
                league_values_ui(ui, fx, n, e);
                if effects_len > 1
                    && let Some(pair) = super::super::card_form::move_buttons(
                        ui,
                        i,
                        effects_len,
                        &format!("effect {n}"),
                    )
                {
                    swap = Some(pair);
                }
                if ui.small_button(format!("Remove effect {n}")).clicked() {
                    remove = Some(i);
                }
            });
            if fx.problem().is_some() {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    "Not one form (the error below says why): pick a form to rewrite it.",
                );
            } else if let Some(on) = occasions[i]
                && occasions[..i].contains(&Some(on))
            {
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    format!(
                        "Only the first extra trial on {} is rolled: this one never is.",
                        word(&on)
                    ),
                );
            } else {
                ui.weak(league_meaning(fx));
            }
        });
    }
    if let Some((a, b)) = swap {
        effects.swap(a, b);
        e.pick(format!("move effects {} and {}", a + 1, b + 1));
    }
    if let Some(i) = remove {
        effects.remove(i);
        e.pick(format!("remove effect {}", i + 1));
    }
    ui.menu_button("Add league effect", |ui| {
        for (k, name) in LEAGUE_KINDS.iter().enumerate() {
            if ui.button(*name).clicked() {
                effects.push(league_of_kind(k));
                e.pick(format!("add effect: {}", name.to_lowercase()));
            }
        }
    });
}

/// The values of league effect `n`'s form.
fn league_values_ui(ui: &mut egui::Ui, fx: &mut LeagueEffect, n: usize, e: &mut Edits) {
    if let Some(types) = &mut fx.forbid_merits {
        types_ui(ui, types, &format!("effect {n}"), e);
    }
    if let Some(ratings) = &mut fx.forbid_ratings {
        ratings_ui(ui, ratings, n, e);
    }
    if let Some(by) = &mut fx.modify {
        inline_number(ui, "by", by, -9..=9, e);
        if let Some(t) = &mut fx.test {
            let l = ui.label("to");
            if choice(ui, ("arcadia-modify", n), t, &TestKind::ALL, l.id) {
                e.pick(format!("effect {n}: modify {}", word(t)));
            }
        }
    }
    if let Some(trial) = &mut fx.trial {
        let l = ui.label("of");
        if choice(
            ui,
            ("arcadia-extra-trial", n),
            &mut trial.attribute,
            &TestKind::ALL,
            l.id,
        ) {
            e.pick(format!("effect {n}: trial of {}", word(&trial.attribute)));
        }
        inline_number(ui, "difficulty", &mut trial.difficulty, 1..=12, e);
        if let Some(on) = &mut fx.on {
            let l = ui.label("on");
            if choice(
                ui,
                ("arcadia-extra-trial-on", n),
                on,
                &[TrialOn::Stay, TrialOn::Rest],
                l.id,
            ) {
                e.pick(format!("effect {n}: trial on {}", word(on)));
            }
        }
    }
    if let Some(n) = &mut fx.look_at_treasures {
        inline_number(ui, "treasures", n, 1..=9, e);
    }
    if let Some(more) = &mut fx.rest_extra {
        inline_number(ui, "more merits", more, 1..=9, e);
        if let Some(types) = &mut fx.types {
            types_ui(ui, types, &format!("effect {n}"), e);
        }
    }
}

/// The waylay ratings a league forbids: chips to remove, a number and a button to add one.
fn ratings_ui(ui: &mut egui::Ui, ratings: &mut Vec<i32>, n: usize, e: &mut Edits) {
    let mut remove = None;
    for (i, r) in ratings.iter().enumerate() {
        if ui
            .button(format!("rating {r} ×"))
            .on_hover_text(format!("Allow waylays of rating {r} again"))
            .clicked()
        {
            remove = Some(i);
        }
    }
    if let Some(i) = remove {
        let r = ratings.remove(i);
        e.pick(format!("effect {n}: allow rating {r}"));
    }
    let id = ui.make_persistent_id(("arcadia-new-rating", n));
    let mut new: i32 = ui.data(|d| d.get_temp(id)).unwrap_or(1);
    let l = ui.label("rating");
    ui.add(egui::DragValue::new(&mut new).range(0..=99))
        .labelled_by(l.id);
    if ui
        .add_enabled(!ratings.contains(&new), egui::Button::new("Add rating"))
        .clicked()
    {
        ratings.push(new);
        ratings.sort_unstable();
        e.pick(format!("effect {n}: forbid rating {new}"));
    }
    ui.data_mut(|d| d.insert_temp(id, new));
}

/// A list of merit types, one checkbox a type, kept in the format's order; `what` names the
/// list in the undo history.
fn types_ui(ui: &mut egui::Ui, types: &mut Vec<MeritType>, what: &str, e: &mut Edits) {
    for t in MeritType::ALL {
        let mut on = types.contains(&t);
        if ui.checkbox(&mut on, t.as_str()).changed() {
            types.retain(|x| *x != t);
            if on {
                types.push(t);
            }
            types.sort_unstable();
            let change = if on { "with" } else { "without" };
            e.pick(format!("{what} {change} {}", t.as_str()));
        }
    }
}

/// The forms of a failure effect, "not given" (no `effect` key) first, in the order of
/// [`failure_kind`].
const FAILURE_KINDS: [&str; 7] = [
    "not given",
    "exhaust a merit",
    "discard a merit",
    "skip the next Day",
    "return to Base Camp",
    "lose a treasure",
    "nothing",
];

/// The form of `effect`: the first of its keys (the parser reports a table with none or
/// several).
fn failure_kind(effect: &Option<FailureEffect>) -> usize {
    let Some(fx) = effect else { return 0 };
    [
        fx.exhaust.is_some(),
        fx.discard.is_some(),
        fx.skip_day.is_some(),
        fx.return_to_base.is_some(),
        fx.lose_treasure.is_some(),
        fx.none.is_some(),
    ]
    .iter()
    .position(|x| *x)
    .map_or(0, |i| i + 1)
}

/// A failure effect of form `k`; exhausting and discarding keep the types of `old`'s.
fn failure_of_kind(k: usize, old: Option<&FailureEffect>) -> Option<FailureEffect> {
    let types = old
        .and_then(|f| f.exhaust.clone().or_else(|| f.discard.clone()))
        .unwrap_or_default();
    let mut fx = FailureEffect::default();
    match k {
        0 => return None,
        1 => fx.exhaust = Some(types),
        2 => fx.discard = Some(types),
        3 => fx.skip_day = Some(true),
        4 => fx.return_to_base = Some(true),
        5 => fx.lose_treasure = Some(true),
        _ => fx.none = Some(true),
    }
    Some(fx)
}

/// What failing the trial does, in a line under the form.
fn failure_meaning(effect: &Option<FailureEffect>) -> &'static str {
    match failure_kind(effect) {
        0 | 6 => "Failing the trial does nothing; the test follows.",
        1 => {
            "Exhaust one ready merit of the ticked types, or discard an exhausted one (none \
             ticked: any type, as for a lost test); the test follows."
        }
        2 => "Discard one merit of the ticked types (none ticked: any type); the test follows.",
        3 => "The character skips its next Day; the test follows.",
        4 => "The character goes back to its Base Camp and its Day ends: no test.",
        _ => {
            "The character's first found quest treasure drops in this league, to be found \
             again; the test follows."
        }
    }
}

/// A waylay trial's failure effect: its form from a drop-down labelled by `label`, the
/// merit types of an exhaust or a discard.
pub(super) fn failure_ui(
    ui: &mut egui::Ui,
    effect: &mut Option<FailureEffect>,
    label: egui::Id,
    e: &mut Edits,
) {
    ui.vertical(|ui| {
        ui.horizontal_wrapped(|ui| {
            if let Some(k) = kind_pick(
                ui,
                "arcadia-failure-effect",
                failure_kind(effect),
                &FAILURE_KINDS,
                label,
            ) {
                *effect = failure_of_kind(k, effect.as_ref());
                e.pick(format!("failure effect: {}", FAILURE_KINDS[k]));
            }
            if let Some(types) = effect
                .as_mut()
                .and_then(|f| f.exhaust.as_mut().or(f.discard.as_mut()))
            {
                ui.label("of types");
                types_ui(ui, types, "failure effect", e);
            }
        });
        if effect.as_ref().is_some_and(|f| f.form().is_none()) {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                "Not one form (the error below says why): pick a form to rewrite it.",
            );
        } else {
            ui.weak(failure_meaning(effect));
        }
    });
}

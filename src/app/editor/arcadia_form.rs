//! The card editor's Form view for Arcadia cards: the name, id and text of every card, then
//! the keys of its kind as widgets (an icon's attributes, a merit's type and the keys that go
//! with it, a flaw's points, a waylay's tests and values, a league's four sides drawn as a
//! square, a quest's ratings). Like the Iconica form it edits a copy of the card and hands
//! back the edited card; the choices offered are the core model's values, the rules are the
//! core parser's. A quest's objective is a small tree of forms (a kind, its value, and the
//! members of "All of" / "Any of"); effects are small forms too (bonus or penalty to a test,
//! retest, change test, exhaust, and the terrain they count in), and so are the card texts
//! as data (`card_text`: a league's effects, a waylay trial's failure effect).

mod card_text;
mod league;

use super::card_form::{FormEdit, choice, move_buttons, optional_text, section, text};
use crate::app::commands::UiCommand;
use crate::games::arcadia::edit::{add_feature, common_mut, word};
use crate::games::arcadia::model::{
    ArcadiaCard, Attribute, Court, Effect, Flaw, FlawType, Icon, LeagueTrial, Merit, MeritType,
    Objective, Quest, TestKind, Trial, Waylay,
};

type Form = super::card_form::Form<ArcadiaCard>;

/// Shows the form for `card`; returns the edit made, if any.
pub fn ui(ui: &mut egui::Ui, card: &ArcadiaCard) -> Option<FormEdit<ArcadiaCard>> {
    let mut f = Form::new(card);
    let rest = match card {
        ArcadiaCard::Quest(_) => {
            "The objective is a tree: \"All of\", \"Any of\" and \"In order\" hold others."
        }
        _ => "Effects are listed under the card's keys.",
    };
    ui.weak(format!(
        "A form edit writes the card's TOML anew: comments and the source's layout are not \
         kept. {rest}"
    ));
    egui::ScrollArea::vertical()
        .id_salt("arcadia-form-scroll")
        .auto_shrink(false)
        .show(ui, |ui| {
            section(ui, "Card", |ui| common_ui(ui, &mut f));
            let title = match card {
                ArcadiaCard::Icon(_) => "Character Icon",
                ArcadiaCard::Merit(_) => "Merit",
                ArcadiaCard::Flaw(_) => "Flaw",
                ArcadiaCard::Waylay(_) => "Waylay",
                ArcadiaCard::League(_) => "League",
                ArcadiaCard::Quest(_) => "Quest",
            };
            section(ui, title, |ui| {
                match &mut f.card {
                    ArcadiaCard::Icon(c) => edits(ui, |ui, e| icon_ui(ui, c, e)),
                    ArcadiaCard::Merit(c) => edits(ui, |ui, e| merit_ui(ui, c, e)),
                    ArcadiaCard::Flaw(c) => edits(ui, |ui, e| flaw_ui(ui, c, e)),
                    ArcadiaCard::Waylay(c) => edits(ui, |ui, e| waylay_ui(ui, c, e)),
                    ArcadiaCard::League(c) => edits(ui, |ui, e| league::league_ui(ui, c, e)),
                    ArcadiaCard::Quest(c) => edits(ui, |ui, e| quest_ui(ui, c, e)),
                }
                .apply_to(&mut f)
            });
            // Below the keys, so a warning coming or going moves none of their widgets.
            if !crate::games::arcadia::text::mismatches(&f.card).is_empty() {
                section(ui, "Text and effects", |ui| wording_ui(ui, &mut f));
            }
        });
    f.edit(card)
}

/// What the widgets of a card's kind changed: a discrete edit wins over typing.
#[derive(Default)]
pub(super) struct Edits {
    picked: Option<String>,
    typed: Option<&'static str>,
}

impl Edits {
    pub(super) fn pick(&mut self, label: impl Into<String>) {
        self.picked = Some(label.into());
    }
    pub(super) fn type_in(&mut self, what: &'static str) {
        self.typed = Some(what);
    }
    /// Records the edit on any card's form.
    pub(super) fn apply_to<C: Clone + PartialEq>(self, f: &mut super::card_form::Form<C>) {
        if let Some(p) = self.picked {
            f.changed(p);
        } else if let Some(t) = self.typed {
            f.typed(t);
        }
    }
}

fn edits(ui: &mut egui::Ui, body: impl FnOnce(&mut egui::Ui, &mut Edits)) -> Edits {
    let mut e = Edits::default();
    body(ui, &mut e);
    e
}

/// A two-column grid of labelled fields.
pub(super) fn grid(ui: &mut egui::Ui, id: &str, body: impl FnOnce(&mut egui::Ui)) {
    egui::Grid::new(id)
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, body);
}

fn common_ui(ui: &mut egui::Ui, f: &mut Form) {
    let mut typed = None;
    grid(ui, "arcadia-form-common", |ui| {
        let (name, id, body) = common_mut(&mut f.card);
        for (label, value, lines) in [("Name", name, 1), ("Id", id, 1), ("Text", body, 3)] {
            let l = ui.label(label);
            if text(ui, value, lines, l.id).changed() {
                typed = Some(label);
            }
            ui.end_row();
        }
    });
    if let Some(t) = typed {
        f.typed(t);
    }
}

/// Where the card's rules texts and its data disagree (`games::arcadia::text`), each said as
/// a warning, and, for a card that disagrees, *Write text from effects*: its rules sentences
/// written from the templates, its flavour kept (one undo step; the designer may reword it
/// after).
fn wording_ui(ui: &mut egui::Ui, f: &mut Form) {
    use crate::games::arcadia::text;
    let disagree = text::mismatches(&f.card);
    for m in &disagree {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!("Text and effects disagree ({}): {}", m.part, m.why),
        );
    }
    if disagree.is_empty() {
        return;
    }
    if let Some(written) = text::written(&f.card) {
        let (_, _, words) = written.common();
        let hover = match &written {
            ArcadiaCard::Icon(i) => i.ability.clone(),
            ArcadiaCard::League(l) => l.special.clone().unwrap_or_default(),
            ArcadiaCard::Waylay(w) => w
                .trial
                .as_ref()
                .and_then(|t| t.failure.clone())
                .unwrap_or_default(),
            _ => words.to_string(),
        };
        if ui
            .small_button("Write text from effects")
            .on_hover_text(format!("The text becomes: {hover}"))
            .clicked()
        {
            f.card = written;
            f.changed("write text from effects");
        }
    }
}

/// A labelled whole number; changes are typing (a drag is a burst, like typing).
pub(super) fn number(
    ui: &mut egui::Ui,
    label: &'static str,
    value: &mut i32,
    range: std::ops::RangeInclusive<i32>,
    e: &mut Edits,
) {
    let l = ui.label(label);
    if ui
        .add(egui::DragValue::new(value).range(range))
        .labelled_by(l.id)
        .changed()
    {
        e.type_in(label);
    }
    ui.end_row();
}

/// A labelled whole number of an unsigned key; changes are typing.
pub(super) fn number_u32(
    ui: &mut egui::Ui,
    label: &'static str,
    value: &mut u32,
    range: std::ops::RangeInclusive<u32>,
    e: &mut Edits,
) {
    let l = ui.label(label);
    if ui
        .add(egui::DragValue::new(value).range(range))
        .labelled_by(l.id)
        .changed()
    {
        e.type_in(label);
    }
    ui.end_row();
}

/// A labelled optional whole number: a checkbox for whether the key is there, then its value.
fn optional_number(
    ui: &mut egui::Ui,
    label: &'static str,
    value: &mut Option<i32>,
    default: i32,
    e: &mut Edits,
) {
    let l = ui.label(label);
    ui.horizontal(|ui| {
        let mut has = value.is_some();
        let shown = if has { "" } else { "none" };
        if ui.checkbox(&mut has, shown).labelled_by(l.id).changed() {
            *value = has.then_some(default);
            e.pick(if has {
                format!("add {}", label.to_lowercase())
            } else {
                format!("remove {}", label.to_lowercase())
            });
        }
        if let Some(v) = value
            && ui
                .add(egui::DragValue::new(v).range(0..=99))
                .labelled_by(l.id)
                .changed()
        {
            e.type_in(label);
        }
    });
    ui.end_row();
}

/// A labelled drop-down of the model's values; a pick is one edit named `what value`.
pub(super) fn pick<T: Copy + PartialEq + serde::Serialize>(
    ui: &mut egui::Ui,
    label: &str,
    value: &mut T,
    all: &[T],
    e: &mut Edits,
) -> bool {
    let l = ui.label(label);
    let picked = choice(ui, ("arcadia-form", label), value, all, l.id);
    if picked {
        e.pick(format!("{} {}", label.to_lowercase(), word(value)));
    }
    ui.end_row();
    picked
}

/// A drop-down of the kinds of a form (`names`, the current one `kind`); the kind picked
/// when it is another.
pub(super) fn kind_pick(
    ui: &mut egui::Ui,
    id: impl std::hash::Hash + std::fmt::Debug,
    kind: usize,
    names: &[&str],
    label: egui::Id,
) -> Option<usize> {
    let mut k = kind;
    // Tall enough that every kind shows without scrolling (an objective has ten).
    egui::ComboBox::from_id_salt(id)
        .selected_text(names[kind])
        .height(f32::from(u8::try_from(names.len()).unwrap_or(u8::MAX)) * 24.0 + 16.0)
        .show_ui(ui, |ui| {
            for (i, name) in names.iter().enumerate() {
                ui.selectable_value(&mut k, i, *name);
            }
        })
        .response
        .labelled_by(label);
    (k != kind).then_some(k)
}

/// A part of the form named `label` for assistive technology (and the app's tests): the
/// widgets of one effect, whose own labels repeat from effect to effect.
pub(super) fn group<R>(
    ui: &mut egui::Ui,
    label: impl Into<String>,
    body: impl FnOnce(&mut egui::Ui) -> R,
) -> R {
    ui.scope_builder(
        egui::UiBuilder::new()
            .accessibility_label(label)
            .accessibility_role(egui::accesskit::Role::Group),
        body,
    )
    .inner
}

/// A labelled number in a row of widgets; changes are typing (a drag is a burst).
pub(super) fn inline_number<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    label: &'static str,
    value: &mut N,
    range: std::ops::RangeInclusive<N>,
    e: &mut Edits,
) {
    let l = ui.label(label);
    if ui
        .add(egui::DragValue::new(value).range(range))
        .labelled_by(l.id)
        .changed()
    {
        e.type_in(label);
    }
}

/// A card's effects, each a small form: a bonus or a penalty to a test, and what it lets
/// the holder do (retest, change the test, exhaust the card); added and removed with buttons.
fn effects_ui(ui: &mut egui::Ui, effects: &mut Vec<Effect>, e: &mut Edits) {
    ui.add_space(4.0);
    ui.strong("Effects");
    let mut remove = None;
    let mut swap = None;
    let len = effects.len();
    for (i, fx) in effects.iter_mut().enumerate() {
        let n = i + 1;
        // Every widget of the row is always there, at a fixed width (off ones disabled), so
        // ticking a box never moves the others under the pointer. The form writes only the
        // effects `docs/cards.md` lists: the last thing an effect does cannot be unticked
        // (remove the effect instead), and a retest or a change of test exhausts the card.
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("Effect {n}:"));
            let does = [
                fx.bonus.is_some(),
                fx.penalty.is_some(),
                fx.retest == Some(true),
                fx.change_test == Some(true),
            ];
            let last = |me: usize| does[me] && does.iter().filter(|d| **d).count() == 1;
            const LAST: &str = "An effect does something: tick another first, or remove the effect";
            for (k, (label, value)) in [("Bonus", &mut fx.bonus), ("Penalty", &mut fx.penalty)]
                .into_iter()
                .enumerate()
            {
                let mut on = value.is_some();
                let name = format!("{label} {n}");
                if ui
                    .add_enabled(!last(k), egui::Checkbox::new(&mut on, name.as_str()))
                    .on_disabled_hover_text(LAST)
                    .changed()
                {
                    *value = on.then_some(1);
                    e.pick(format!("{} of effect {n}", label.to_lowercase()));
                }
                let l = ui.label(format!("{label} value {n}"));
                let mut shown = value.unwrap_or(1);
                if ui
                    .add_enabled(
                        value.is_some(),
                        egui::DragValue::new(&mut shown).range(0..=9),
                    )
                    .labelled_by(l.id)
                    .changed()
                    && let Some(v) = value
                {
                    *v = shown;
                    e.type_in("an effect");
                }
            }
            let l = ui.label(format!("Test {n}"));
            let mut t = fx.test;
            egui::ComboBox::from_id_salt(("arcadia-effect-test", n))
                .width(72.0)
                .selected_text(t.map_or("any".to_string(), |t| word(&t)))
                .show_ui(ui, |ui| {
                    ui.selectable_value(&mut t, None, "any");
                    for k in TestKind::ALL {
                        ui.selectable_value(&mut t, Some(k), word(&k));
                    }
                })
                .response
                .labelled_by(l.id);
            if t != fx.test {
                fx.test = t;
                e.pick(format!("test of effect {n}"));
            }
            let retest = fx.retest;
            for (k, (label, value)) in [
                ("Retest", &mut fx.retest),
                ("Change test", &mut fx.change_test),
            ]
            .into_iter()
            .enumerate()
            {
                let mut on = value.unwrap_or(false);
                if ui
                    .add_enabled(
                        !last(k + 2),
                        egui::Checkbox::new(&mut on, format!("{label} {n}")),
                    )
                    .on_hover_text("Exhausts the card (ticks Exhaust)")
                    .on_disabled_hover_text(LAST)
                    .changed()
                {
                    *value = on.then_some(true);
                    if on {
                        fx.exhaust = Some(true);
                    }
                    e.pick(format!("{} of effect {n}", label.to_lowercase()));
                }
            }
            let paired = fx.retest == Some(true) || fx.change_test == Some(true);
            let mut on = fx.exhaust.unwrap_or(false);
            if ui
                .add_enabled(
                    !paired,
                    egui::Checkbox::new(&mut on, format!("Exhaust {n}")),
                )
                .on_disabled_hover_text("A retest or a change of test exhausts the card")
                .changed()
            {
                fx.exhaust = on.then_some(true);
                e.pick(format!("exhaust of effect {n}"));
            }
            if fx.retest != retest {
                // `lost_only` goes with a retest only.
                fx.lost_only = None;
            }
            let mut on = fx.lost_only.unwrap_or(false);
            if ui
                .add_enabled(
                    fx.retest == Some(true),
                    egui::Checkbox::new(&mut on, format!("Lost only {n}")),
                )
                .on_hover_text("Only a test just lost may be retested, not a Stalemate")
                .on_disabled_hover_text("With a retest: only a test just lost may be retested")
                .changed()
            {
                fx.lost_only = on.then_some(true);
                e.pick(format!("lost only of effect {n}"));
            }
            let l = ui.label(format!("Terrain {n}"));
            let mut t = fx.terrain.clone().unwrap_or_default();
            if ui
                .add(
                    egui::TextEdit::singleline(&mut t)
                        .hint_text("any league")
                        .desired_width(90.0),
                )
                .labelled_by(l.id)
                .on_hover_text(
                    "A condition: the effect counts only while the character is in a league \
                     with this terrain feature (empty: everywhere)",
                )
                .changed()
            {
                fx.terrain = Some(t).filter(|t| !t.is_empty());
                e.type_in("an effect's terrain");
            }
            if ui.small_button(format!("Remove effect {n}")).clicked() {
                remove = Some(i);
            }
            if len > 1
                && let Some(s) = move_buttons(ui, i, len, &format!("effect {n}"))
            {
                swap = Some(s);
            }
        });
    }
    if let Some(i) = remove {
        effects.remove(i);
        e.pick(format!("remove effect {}", i + 1));
    } else if let Some((a, b)) = swap {
        effects.swap(a, b);
        e.pick(format!("swap effects {} and {}", a + 1, b + 1));
    }
    if ui
        .button("Add effect")
        .on_hover_text("A new effect: +1 to every test")
        .clicked()
    {
        effects.push(Effect {
            bonus: Some(1),
            penalty: None,
            test: None,
            retest: None,
            change_test: None,
            exhaust: None,
            terrain: None,
            lost_only: None,
        });
        e.pick("add effect");
    }
}

/// A list of terrain features as chips (click one to remove it) and a field to add one.
/// `what` names the list (`north`, `terrain`) in labels and the undo history.
/// The field is labelled by `label` (the list's title).
pub(super) fn features_ui(
    ui: &mut egui::Ui,
    list: &mut Vec<String>,
    what: &str,
    label: egui::Id,
    e: &mut Edits,
) {
    ui.horizontal_wrapped(|ui| {
        let mut remove = None;
        for (i, f) in list.iter().enumerate() {
            if ui
                .button(format!("{f} ×"))
                .on_hover_text(format!("Remove {f} from {what}"))
                .clicked()
            {
                remove = Some(i);
            }
        }
        if list.is_empty() {
            ui.weak("no features");
        }
        if let Some(i) = remove {
            let f = list.remove(i);
            e.pick(format!("remove {f} from {what}"));
        }
    });
    ui.horizontal_wrapped(|ui| {
        let id = ui.make_persistent_id(("new-feature", what));
        let mut new: String = ui.data(|d| d.get_temp(id)).unwrap_or_default();
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut new)
                    .hint_text("feature")
                    .desired_width(90.0),
            )
            .labelled_by(label)
            .on_hover_text(format!(
                "A terrain feature to add to {what} (road, forest, city-wall…)"
            ));
        let entered = UiCommand::Confirm.confirmed(ui, &field);
        let add = ui
            .add_enabled(
                !new.trim().is_empty(),
                egui::Button::new(format!("Add to {what}")),
            )
            .clicked();
        if (add || entered) && add_feature(list, &new) {
            e.pick(format!("add {} to {what}", new.trim()));
            new.clear();
        }
        ui.data_mut(|d| d.insert_temp(id, new));
    });
}

fn icon_ui(ui: &mut egui::Ui, c: &mut Icon, e: &mut Edits) {
    grid(ui, "arcadia-form-icon", |ui| {
        for (label, value) in [("Race", &mut c.race), ("Gender", &mut c.gender)] {
            let l = ui.label(label);
            if text(ui, value, 1, l.id).changed() {
                e.type_in(label);
            }
            ui.end_row();
        }
        number(ui, "Might", &mut c.might, 0..=99, e);
        number(ui, "Savvy", &mut c.savvy, 0..=99, e);
        number(ui, "Resolve", &mut c.resolve, 0..=99, e);
        let l = ui.label("Ability");
        if text(ui, &mut c.ability, 2, l.id).changed() {
            e.type_in("Ability");
        }
        ui.end_row();
    });
    effects_ui(ui, &mut c.effects, e);
}

fn merit_ui(ui: &mut egui::Ui, m: &mut Merit, e: &mut Edits) {
    grid(ui, "arcadia-form-merit", |ui| {
        let mut t = m.merit_type;
        if pick(ui, "Merit type", &mut t, &MeritType::ALL, e) {
            m.set_type(t);
        }
        number(ui, "Cost", &mut m.cost, 0..=99, e);
        if m.merit_type == MeritType::Ability {
            // Shown with the first value while the text lacks one (the parser says so).
            let mut a = m.attribute.unwrap_or(Attribute::Might);
            if pick(ui, "Attribute", &mut a, &Attribute::ALL, e) {
                m.attribute = Some(a);
            }
            let mut c = m.court.unwrap_or(Court::Seelie);
            if pick(ui, "Court", &mut c, &Court::ALL, e) {
                m.court = Some(c);
            }
        }
        if m.merit_type == MeritType::Art {
            let l = ui.label("Art");
            if optional_text(ui, &mut m.art, 1, l.id) {
                e.type_in("Art");
            }
            ui.end_row();
        }
        if m.merit_type == MeritType::Ally {
            optional_number(ui, "Combat", &mut m.combat, 3, e);
        }
    });
    effects_ui(ui, &mut m.effects, e);
}

fn flaw_ui(ui: &mut egui::Ui, f: &mut Flaw, e: &mut Edits) {
    grid(ui, "arcadia-form-flaw", |ui| {
        let mut t = f.flaw_type;
        if pick(ui, "Flaw type", &mut t, &FlawType::ALL, e) {
            f.set_type(t);
        }
        number(ui, "Points", &mut f.points, 0..=10, e);
        if f.flaw_type == FlawType::Weakness {
            let mut c = f.court.unwrap_or(Court::Seelie);
            if pick(ui, "Court", &mut c, &Court::ALL, e) {
                f.court = Some(c);
            }
        }
    });
    effects_ui(ui, &mut f.effects, e);
}

fn waylay_ui(ui: &mut egui::Ui, w: &mut Waylay, e: &mut Edits) {
    grid(ui, "arcadia-form-waylay", |ui| {
        number(ui, "Rating", &mut w.rating, 0..=99, e);
        let l = ui.label("Terrain");
        ui.vertical(|ui| {
            features_ui(ui, &mut w.terrain, "terrain", l.id, e);
            ui.weak("`any` fits every league.");
        });
        ui.end_row();
        ui.label("Tests");
        ui.horizontal(|ui| {
            for t in TestKind::ALL {
                let mut on = w.tests.contains(&t);
                if ui
                    .checkbox(&mut on, word(&t))
                    .on_hover_text("The player may choose this test")
                    .changed()
                {
                    w.set_test(t, on);
                    e.pick(format!("test {}", word(&t)));
                }
            }
        });
        ui.end_row();
        for (t, label) in [
            (TestKind::Might, "Might value"),
            (TestKind::Resolve, "Resolve value"),
            (TestKind::Savvy, "Savvy value"),
            (TestKind::Combat, "Combat value"),
        ] {
            let mut v = w.value(t);
            optional_number(ui, label, &mut v, 5, e);
            w.set_value(t, v);
        }
        let l = ui.label("Trial");
        ui.vertical(|ui| {
            let mut has = w.trial.is_some();
            if ui.checkbox(&mut has, "a trial").labelled_by(l.id).changed() {
                w.trial = has.then_some(Trial {
                    attribute: TestKind::Might,
                    difficulty: 4,
                    failure: None,
                    effect: None,
                });
                e.pick(if has { "add trial" } else { "remove trial" });
            }
            if let Some(t) = &mut w.trial {
                grid(ui, "arcadia-form-waylay-trial", |ui| {
                    pick(ui, "Trial attribute", &mut t.attribute, &TestKind::ALL, e);
                    number(ui, "Trial difficulty", &mut t.difficulty, 1..=12, e);
                    let l = ui.label("On failure");
                    if optional_text(ui, &mut t.failure, 1, l.id) {
                        e.type_in("On failure");
                    }
                    ui.end_row();
                    let l = ui.label("Failure effect");
                    card_text::failure_ui(ui, &mut t.effect, l.id, e);
                    ui.end_row();
                });
            }
        });
        ui.end_row();
    });
}

/// An optional enter or leave trial of a league.
pub(super) fn league_trial_ui(
    ui: &mut egui::Ui,
    label: &'static str,
    trial: &mut Option<LeagueTrial>,
    e: &mut Edits,
) {
    let l = ui.label(label);
    ui.horizontal(|ui| {
        let mut has = trial.is_some();
        let shown = if has { "" } else { "none" };
        if ui.checkbox(&mut has, shown).labelled_by(l.id).changed() {
            *trial = has.then_some(LeagueTrial {
                attribute: TestKind::Might,
                difficulty: 4,
            });
            let what = label.to_lowercase();
            e.pick(if has {
                format!("add {what}")
            } else {
                format!("remove {what}")
            });
        }
        if let Some(t) = trial {
            if choice(
                ui,
                ("arcadia-form", label),
                &mut t.attribute,
                &TestKind::ALL,
                l.id,
            ) {
                e.pick(format!("{} {}", label.to_lowercase(), word(&t.attribute)));
            }
            ui.label("difficulty");
            if ui
                .add(egui::DragValue::new(&mut t.difficulty).range(1..=12))
                .labelled_by(l.id)
                .changed()
            {
                e.type_in(label);
            }
        }
    });
    ui.end_row();
}

fn quest_ui(ui: &mut egui::Ui, q: &mut Quest, e: &mut Edits) {
    grid(ui, "arcadia-form-quest", |ui| {
        number(ui, "Waylay rating", &mut q.waylay_rating, 0..=99, e);
        number(ui, "Treasure rating", &mut q.treasure_rating, 0..=99, e);
        number(ui, "Experience", &mut q.experience, 0..=99, e);
        let l = ui.label("Time limit");
        ui.horizontal(|ui| {
            let mut has = q.time_limit.is_some();
            let shown = if has { "" } else { "none" };
            if ui.checkbox(&mut has, shown).labelled_by(l.id).changed() {
                q.time_limit = has.then_some(12);
                e.pick(if has {
                    "add time limit"
                } else {
                    "remove time limit"
                });
            }
            if let Some(days) = &mut q.time_limit {
                if ui
                    .add(egui::DragValue::new(days).range(1..=500))
                    .labelled_by(l.id)
                    .changed()
                {
                    e.type_in("Time limit");
                }
                ui.label("Days");
            }
        });
        ui.end_row();
    });
    ui.add_space(6.0);
    ui.strong("Objective");
    objective_ui(ui, &mut q.objective, "1", e);
}

/// The kinds of quest objective, as the form names them.
const OBJECTIVE_KINDS: [&str; 10] = [
    "Reach a league",
    "Reach a terrain",
    "Collect treasures",
    "Defeat waylays",
    "Return to base",
    "All of",
    "Any of",
    "In order",
    "Hold treasures",
    "Stand in a terrain",
];

fn objective_kind(o: &Objective) -> usize {
    match o {
        Objective::Reach(_) => 0,
        Objective::ReachTerrain(_) => 1,
        Objective::CollectTreasures(_) => 2,
        Objective::DefeatWaylays(_) => 3,
        Objective::ReturnToBase(_) => 4,
        Objective::All(_) => 5,
        Objective::Any(_) => 6,
        Objective::Then(_) => 7,
        Objective::HoldTreasures(_) => 8,
        Objective::InTerrain(_) => 9,
    }
}

/// A new objective of kind `k`, keeping what it can of `old` (a list keeps its members).
fn objective_of_kind(k: usize, old: &Objective) -> Objective {
    let members = match old {
        Objective::All(v) | Objective::Any(v) | Objective::Then(v) => v.clone(),
        other => vec![other.clone()],
    };
    match k {
        0 => Objective::Reach(String::new()),
        1 => Objective::ReachTerrain("forest".into()),
        2 => Objective::CollectTreasures(1),
        3 => Objective::DefeatWaylays(1),
        4 => Objective::ReturnToBase(true),
        5 => Objective::All(members),
        6 => Objective::Any(members),
        7 => Objective::Then(members),
        8 => Objective::HoldTreasures(1),
        _ => Objective::InTerrain("mountains".into()),
    }
}

/// One objective (numbered `path`, e.g. `1.2`): its kind, its value, and for "All of" /
/// "Any of" its members, each added or removed with a button.
fn objective_ui(ui: &mut egui::Ui, o: &mut Objective, path: &str, e: &mut Edits) {
    ui.horizontal(|ui| {
        let label = ui.label(format!("Objective {path}"));
        let kind = objective_kind(o);
        if let Some(k) = kind_pick(
            ui,
            format!("objective-{path}"),
            kind,
            &OBJECTIVE_KINDS,
            label.id,
        ) {
            *o = objective_of_kind(k, o);
            e.pick(format!(
                "objective {path}: {}",
                OBJECTIVE_KINDS[k].to_lowercase()
            ));
        }
        let hint = if matches!(o, Objective::Reach(_)) {
            "league id"
        } else {
            "terrain feature"
        };
        match o {
            Objective::Reach(text) | Objective::ReachTerrain(text) | Objective::InTerrain(text) => {
                let l = ui.label(hint);
                if ui
                    .add(egui::TextEdit::singleline(text).desired_width(160.0))
                    .labelled_by(l.id)
                    .changed()
                {
                    e.type_in("Objective");
                }
            }
            Objective::CollectTreasures(n)
            | Objective::DefeatWaylays(n)
            | Objective::HoldTreasures(n) => {
                let l = ui.label("how many");
                if ui
                    .add(egui::DragValue::new(n).range(1..=99))
                    .labelled_by(l.id)
                    .changed()
                {
                    e.type_in("Objective");
                }
            }
            Objective::ReturnToBase(b) => {
                if ui.checkbox(b, "back at the base").changed() {
                    e.pick(format!("objective {path}: return to base"));
                }
            }
            Objective::All(_) | Objective::Any(_) | Objective::Then(_) => {}
        }
    });
    if let Objective::All(members) | Objective::Any(members) | Objective::Then(members) = o {
        ui.indent(format!("objective-members-{path}"), |ui| {
            let mut remove = None;
            let mut swap = None;
            let len = members.len();
            for (i, m) in members.iter_mut().enumerate() {
                let sub = format!("{path}.{}", i + 1);
                ui.horizontal(|ui| {
                    ui.vertical(|ui| {
                        if ui
                            .small_button(format!("Remove {sub}"))
                            .on_hover_text(format!("Remove objective {sub}"))
                            .clicked()
                        {
                            remove = Some(i);
                        }
                        if len > 1
                            && let Some(s) = move_buttons(ui, i, len, &format!("objective {sub}"))
                        {
                            swap = Some(s);
                        }
                    });
                    ui.vertical(|ui| objective_ui(ui, m, &sub, e));
                });
            }
            if let Some(i) = remove {
                members.remove(i);
                e.pick(format!("remove objective {path}.{}", i + 1));
            } else if let Some((a, b)) = swap {
                members.swap(a, b);
                e.pick(format!(
                    "swap objectives {path}.{} and {path}.{}",
                    a + 1,
                    b + 1
                ));
            }
            if ui
                .button(format!("Add to objective {path}"))
                .on_hover_text("A new member: collect one treasure")
                .clicked()
            {
                members.push(Objective::CollectTreasures(1));
                e.pick(format!("add to objective {path}"));
            }
        });
    }
}

//! The card editor's Form view for Ruunara heroes and units: name, id, kind, race and
//! faction, the numbers, the close and ranged dice, and the skills, each a small form
//! (name, cycle, trigger, text, and the effect the engine applies: a kind from a drop-down
//! and that kind's parameters, with the composed keys such as `hits`, `score`, `face`,
//! `when` and `condition`) added and removed with a button; a skill whose text and data
//! disagree is flagged under its text, with *Write text from effects*. Like the other forms it
//! edits a copy of the card and hands back the edited card; the rules are the core
//! parser's.

use super::arcadia_form::{Edits, grid, kind_pick, number_u32};
use super::card_form::{FormEdit, choice, optional_text, section, text};
use crate::games::ruunara::edit::set_effect;
use crate::games::ruunara::model::{
    Allegiance, AttackKind, Condition, Dice, EffectKind, EffectTarget, Figure, FigureKind, Lasts,
    MAX_DAMAGE, MAX_EFFECT_INCHES, Skill, StateKind, When,
};

type Form = super::card_form::Form<Figure>;

/// Shows the form for `card`; returns the edit made, if any.
pub fn ui(ui: &mut egui::Ui, card: &Figure) -> Option<FormEdit<Figure>> {
    let mut f = Form::new(card);
    ui.weak(
        "A form edit writes the card's TOML anew: comments and the source's layout are not kept.",
    );
    egui::ScrollArea::vertical()
        .id_salt("ruunara-form-scroll")
        .auto_shrink(false)
        .show(ui, |ui| {
            let mut e = Edits::default();
            section(ui, "Figure", |ui| figure_ui(ui, &mut f.card, &mut e));
            let race = f.card.race.clone();
            section(ui, "Skills", |ui| {
                skills_ui(ui, &mut f.card.skills, &race, &mut e)
            });
            e.apply_to(&mut f);
        });
    f.edit(card)
}

fn figure_ui(ui: &mut egui::Ui, c: &mut Figure, e: &mut Edits) {
    grid(ui, "ruunara-form-figure", |ui| {
        for (label, value) in [
            ("Name", &mut c.name),
            ("Id", &mut c.id),
            ("Race", &mut c.race),
        ] {
            let l = ui.label(label);
            if text(ui, value, 1, l.id).changed() {
                e.type_in(label);
            }
            ui.end_row();
        }
        let l = ui.label("Kind");
        if choice(
            ui,
            "ruunara-kind",
            &mut c.kind,
            &[FigureKind::Hero, FigureKind::Unit],
            l.id,
        ) {
            e.pick("kind");
        }
        ui.end_row();
        let l = ui.label("Faction");
        if choice(
            ui,
            "ruunara-faction",
            &mut c.faction,
            &[Allegiance::Ally, Allegiance::Enemy, Allegiance::Neutral],
            l.id,
        ) {
            e.pick("faction");
        }
        ui.end_row();
        number_u32(ui, "Hit points", &mut c.hp, 0..=99, e);
        number_u32(ui, "Movement", &mut c.movement, 0..=99, e);
        number_u32(ui, "Vision", &mut c.vision, 0..=99, e);
        dice_ui(ui, "Close", "Close", &mut c.close, e);
        let l = ui.label("Ranged");
        ui.horizontal(|ui| {
            let mut on = c.ranged.is_some();
            if ui.checkbox(&mut on, "").labelled_by(l.id).changed() {
                if on {
                    c.ranged = Some(Dice { count: 2, min: 4 });
                    c.ranged_range = Some(10);
                } else {
                    c.ranged = None;
                    c.ranged_range = None;
                }
                e.pick(if on {
                    "add a ranged attack"
                } else {
                    "remove the ranged attack"
                });
            }
        });
        ui.end_row();
        if let Some(d) = &mut c.ranged {
            dice_ui(ui, "Ranged dice", "Ranged dice", d, e);
            let mut r = c.ranged_range.unwrap_or(10);
            number_u32(ui, "Range", &mut r, 1..=99, e);
            c.ranged_range = Some(r);
        }
    });
}

/// Dice `nD k+` as two numbers; `what` names the field in the undo history.
fn dice_ui(ui: &mut egui::Ui, label: &str, what: &'static str, d: &mut Dice, e: &mut Edits) {
    let l = ui.label(label);
    ui.horizontal(|ui| {
        let n = ui
            .add(
                egui::DragValue::new(&mut d.count)
                    .range(1..=20)
                    .suffix(" D"),
            )
            .labelled_by(l.id);
        let k = ui
            .add(egui::DragValue::new(&mut d.min).range(1..=6).suffix("+"))
            .labelled_by(l.id);
        if n.changed() || k.changed() {
            e.type_in(what);
        }
    });
    ui.end_row();
}

fn skills_ui(ui: &mut egui::Ui, skills: &mut Vec<Skill>, race: &str, e: &mut Edits) {
    let mut remove = None;
    let mut swap = None;
    let len = skills.len();
    for (i, s) in skills.iter_mut().enumerate() {
        let n = i + 1;
        ui.horizontal(|ui| {
            ui.strong(format!("Skill {n}"));
            if len > 1
                && let Some(pair) =
                    super::card_form::move_buttons(ui, i, len, &format!("skill {n}"))
            {
                swap = Some(pair);
            }
            if ui.small_button(format!("Remove skill {n}")).clicked() {
                remove = Some(i);
            }
        });
        grid(ui, &format!("ruunara-skill-{n}"), |ui| {
            let l = ui.label(format!("Skill {n} name"));
            if text(ui, &mut s.name, 1, l.id).changed() {
                e.type_in("a skill's name");
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} cycle"));
            if text(ui, &mut s.cycle, 1, l.id)
                .on_hover_text("N/F, N/G or constant")
                .changed()
            {
                e.type_in("a skill's cycle");
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} trigger"));
            if s.effect == Some(EffectKind::InstantKill) {
                // The kill needs a trigger `k+`: a number, so the form cannot write another.
                let mut k = s.trigger_score().unwrap_or(6);
                if ui
                    .add(egui::DragValue::new(&mut k).range(1..=6).suffix("+"))
                    .labelled_by(l.id)
                    .on_hover_text("A die at or above this kills its target")
                    .changed()
                {
                    s.trigger = Some(format!("{k}+"));
                    e.type_in("a skill's trigger");
                }
            } else if optional_text(ui, &mut s.trigger, 1, l.id) {
                e.type_in("a skill's trigger");
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} text"));
            if optional_text(ui, &mut s.text, 3, l.id) {
                e.type_in("a skill's text");
            }
            ui.end_row();
            wording_ui(ui, s, n, race, e);
            effect_ui(ui, s, n, e);
        });
    }
    if let Some((a, b)) = swap {
        skills.swap(a, b);
        e.pick(format!("move skills {} and {}", a + 1, b + 1));
    }
    if let Some(i) = remove {
        skills.remove(i);
        e.pick(format!("remove skill {}", i + 1));
    }
    if ui
        .button("Add skill")
        .on_hover_text("A new skill, constant, to name and describe")
        .clicked()
    {
        skills.push(Skill {
            name: "New Skill".into(),
            cycle: "constant".into(),
            trigger: None,
            text: None,
            ..Skill::default()
        });
        e.pick("add skill");
    }
}

/// Where skill `n`'s text and its data disagree (`games::ruunara::text::audit_of`), each said
/// as a warning in a grid row under the text, and, for a played skill whose text disagrees
/// or is empty, *Write text from effects*, which writes it from its form's template (one
/// undo step; the designer may reword it after). No row when there is nothing to say.
fn wording_ui(ui: &mut egui::Ui, s: &mut Skill, n: usize, race: &str, e: &mut Edits) {
    use crate::games::ruunara::text;
    let disagree = text::audit_of(s, race);
    let written = text::write(s);
    let words = s.text.as_deref().unwrap_or_default();
    // Offered where the text is missing or disagrees: a text that agrees is the designer's
    // wording to keep.
    let offer =
        s.effect.is_some() && (words.trim().is_empty() || !disagree.is_empty()) && written != words;
    if disagree.is_empty() && !offer {
        return;
    }
    ui.label("");
    ui.vertical(|ui| {
        for why in &disagree {
            ui.colored_label(
                ui.visuals().warn_fg_color,
                format!("Text and effects disagree: {why}"),
            );
        }
        if offer
            && ui
                .push_id(("ruunara-skill-words", n), |ui| {
                    ui.small_button("Write text from effects")
                        .on_hover_text(format!("The text becomes: {written}"))
                })
                .inner
                .clicked()
        {
            s.text = Some(written);
            e.pick(format!("skill {n} text from its effects"));
        }
    });
    ui.end_row();
}

/// The effect drop-down's entries: text only, then each effect by its name in a card, in
/// the order of [`EffectKind::ALL`].
fn effect_names() -> [&'static str; EffectKind::ALL.len() + 1] {
    std::array::from_fn(|i| match i {
        0 => "none (text only)",
        _ => EffectKind::ALL[i - 1].as_str(),
    })
}

/// Skill `n`'s effect, grid rows: its kind, then that kind's parameters. Picking a kind
/// writes exactly its parameters ([`set_effect`]), so the form cannot combine parameters of
/// two kinds.
fn effect_ui(ui: &mut egui::Ui, s: &mut Skill, n: usize, e: &mut Edits) {
    let names = effect_names();
    let l = ui.label(format!("Skill {n} effect"));
    let kind = s
        .effect
        .and_then(|k| EffectKind::ALL.iter().position(|x| *x == k))
        .map_or(0, |i| i + 1);
    if let Some(k) = kind_pick(ui, ("ruunara-skill-effect", n), kind, &names, l.id) {
        set_effect(s, k.checked_sub(1).map(|i| EffectKind::ALL[i]));
        e.pick(format!("skill {n} effect: {}", names[k]));
    }
    ui.end_row();
    if let Some(d) = &mut s.dice {
        dice_ui(ui, &format!("Skill {n} dice"), "a skill's dice", d, e);
    }
    if s.effect == Some(EffectKind::InstantKill) {
        // Which attacks the kill serves: every one, or one kind ("ranged attacks").
        let l = ui.label(format!("Skill {n} attack"));
        let names = ["every attack", "close", "ranged"];
        let kinds = [None, Some(AttackKind::Close), Some(AttackKind::Ranged)];
        let kind = kinds.iter().position(|k| *k == s.attack).unwrap_or(0);
        if let Some(k) = kind_pick(ui, ("ruunara-skill-attack", n), kind, &names, l.id) {
            s.attack = kinds[k];
            e.pick(format!("skill {n} kills on {}", names[k]));
        }
        ui.end_row();
    } else if let Some(a) = &mut s.attack {
        let l = ui.label(format!("Skill {n} attack"));
        if choice(
            ui,
            ("ruunara-skill-attack", n),
            a,
            &[AttackKind::Close, AttackKind::Ranged],
            l.id,
        ) {
            e.pick(format!("skill {n} attack"));
        }
        ui.end_row();
    }
    if let Some(amount) = &mut s.amount {
        let l = ui.label(format!("Skill {n} amount"));
        if ui
            .add(egui::DragValue::new(amount).range(1..=99).suffix(" HP"))
            .labelled_by(l.id)
            .changed()
        {
            e.type_in("a heal's amount");
        }
        ui.end_row();
    }
    if s.effect == Some(EffectKind::Heal) {
        let l = ui.label(format!("Skill {n} target"));
        let mut t = s.target.unwrap_or(EffectTarget::Own);
        if choice(
            ui,
            ("ruunara-skill-target", n),
            &mut t,
            &[EffectTarget::Own, EffectTarget::Ally],
            l.id,
        ) {
            // An ally is healed within a range; the figure itself has none.
            s.target = Some(t);
            s.range = (t == EffectTarget::Ally).then_some(2.0);
            e.pick(format!("skill {n} heals {}", crate::games::word(&t)));
        }
        ui.end_row();
    }
    if s.effect == Some(EffectKind::Area) {
        let l = ui.label(format!("Skill {n} around a point"));
        let mut on = s.range.is_some() || s.radius.is_some();
        if ui
            .checkbox(&mut on, "")
            .labelled_by(l.id)
            .on_hover_text("Off: every enemy engaged with the figure")
            .changed()
        {
            s.range = on.then_some(12.0);
            s.radius = on.then_some(4.0);
            e.pick(format!(
                "skill {n} area {}",
                if on { "around a point" } else { "engaged" }
            ));
        }
        ui.end_row();
    }
    composed_ui(ui, s, n, e);
    if let Some(r) = &mut s.range {
        inches_ui(ui, &format!("Skill {n} range"), r, e);
    }
    if let Some(r) = &mut s.radius {
        inches_ui(ui, &format!("Skill {n} radius"), r, e);
    }
    if matches!(s.effect, Some(EffectKind::ExtraAttack | EffectKind::Area)) {
        damage_ui(ui, n, &mut s.damage, e);
    }
    ui.label("");
    ui.weak(effect_meaning(s));
    ui.end_row();
}

/// Skill `n`'s composed keys (issue #25), grid rows for the forms that take them: a
/// state's kind, targets and how long it lasts; what a save is against; whom a cover
/// covers. Each pick is one undo step and leaves only keys its form takes, at values that
/// pass `Figure::problems`.
fn composed_ui(ui: &mut egui::Ui, s: &mut Skill, n: usize, e: &mut Edits) {
    match s.effect {
        Some(EffectKind::State) => {
            let l = ui.label(format!("Skill {n} state"));
            let mut st = s.state.unwrap_or(StateKind::Held);
            let all = [
                StateKind::Silenced,
                StateKind::Held,
                StateKind::Disarmed,
                StateKind::Hexed,
            ];
            if choice(ui, ("ruunara-skill-state", n), &mut st, &all, l.id) {
                s.state = Some(st);
                // A hex's score goes with it, and only with it.
                s.score = None;
                e.pick(format!("skill {n} state: {}", st.name()));
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} targets"));
            let mut t = s.target.unwrap_or(EffectTarget::Engaged);
            let all = [
                EffectTarget::Engaged,
                EffectTarget::Enemy,
                EffectTarget::Enemies,
            ];
            if choice(ui, ("ruunara-skill-targets", n), &mut t, &all, l.id) {
                s.target = Some(t);
                // Every enemy around needs a radius; the others take none.
                s.radius = (t == EffectTarget::Enemies).then_some(3.0);
                e.pick(format!("skill {n} targets {}", crate::games::word(&t)));
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} lasts"));
            let mut lasts = s.lasts.unwrap_or(Lasts::Round);
            if choice(
                ui,
                ("ruunara-skill-lasts", n),
                &mut lasts,
                &[Lasts::Round, Lasts::Fight],
                l.id,
            ) {
                s.lasts = Some(lasts);
                e.pick(format!("skill {n} lasts {}", crate::games::word(&lasts)));
            }
            ui.end_row();
            if s.state == Some(StateKind::Hexed) {
                let l = ui.label(format!("Skill {n} score"));
                let mut k = s.score.unwrap_or(6);
                if ui
                    .add(egui::DragValue::new(&mut k).range(2..=6).suffix("+"))
                    .labelled_by(l.id)
                    .on_hover_text("The hexed target hits only on this or more")
                    .changed()
                {
                    s.score = Some(k);
                    e.type_in("a hex's score");
                }
                ui.end_row();
            }
            flag_ui(ui, n, "face", "Targets turn to face the figure", e, |on| {
                if let Some(on) = on {
                    s.face = on.then_some(true);
                }
                s.face == Some(true)
            });
        }
        Some(EffectKind::Save) => {
            let l = ui.label(format!("Skill {n} against"));
            let names = ["every attack", "close", "ranged"];
            let kinds = [None, Some(AttackKind::Close), Some(AttackKind::Ranged)];
            let kind = kinds.iter().position(|k| *k == s.against).unwrap_or(0);
            if let Some(k) = kind_pick(ui, ("ruunara-skill-against", n), kind, &names, l.id) {
                s.against = kinds[k];
                e.pick(format!("skill {n} saves against {}", names[k]));
            }
            ui.end_row();
            // The first hits of each fight; 0 (every hit) is the key left out.
            let l = ui.label(format!("Skill {n} hits"));
            let mut k = s.hits.unwrap_or(0);
            if ui
                .add(
                    egui::DragValue::new(&mut k)
                        .range(0..=20)
                        .custom_formatter(|v, _| {
                            if v < 1.0 {
                                "every hit".into()
                            } else {
                                format!("first {v:.0} a fight")
                            }
                        }),
                )
                .labelled_by(l.id)
                .on_hover_text("0: every hit; N: the first N hits of each fight")
                .changed()
            {
                s.hits = (k > 0).then_some(k);
                e.type_in("a save's hits");
            }
            ui.end_row();
        }
        Some(EffectKind::Heal) => {
            flag_ui(
                ui,
                n,
                "on an execution",
                "Not used by choice: when a hostile is executed within the radius",
                e,
                |on| {
                    if let Some(on) = on {
                        s.when = on.then_some(When::Execution);
                        s.radius = on.then_some(6.0);
                    }
                    s.when.is_some()
                },
            );
        }
        Some(EffectKind::Hunt) => {
            flag_ui(
                ui,
                n,
                "wounded first",
                "Goes toward the nearest wounded hero it sees before any other",
                e,
                |on| {
                    if let Some(on) = on {
                        s.condition = on.then_some(Condition::Wounded);
                    }
                    s.condition.is_some()
                },
            );
        }
        Some(EffectKind::Cover) => {
            let l = ui.label(format!("Skill {n} covers"));
            let mut own = s.target == Some(EffectTarget::Own);
            if ui
                .checkbox(&mut own, "")
                .labelled_by(l.id)
                .on_hover_text("On: the figure itself; off: allies within the radius")
                .changed()
            {
                s.target = own.then_some(EffectTarget::Own);
                s.radius = (!own).then_some(1.0);
                e.pick(format!(
                    "skill {n} covers {}",
                    if own { "itself" } else { "allies" }
                ));
            }
            ui.end_row();
            flag_ui(
                ui,
                n,
                "only apart",
                "Only while no hostile is within the distance",
                e,
                |on| {
                    if let Some(on) = on {
                        s.condition = on.then_some(Condition::Apart);
                        s.distance = on.then_some(8.0);
                    }
                    s.condition.is_some()
                },
            );
        }
        _ => {}
    }
    if let Some(d) = &mut s.distance {
        inches_ui(ui, &format!("Skill {n} distance"), d, e);
    }
}

/// Skill `n`'s on/off key, a grid row labelled "Skill n WHAT": `set(None)` says whether it
/// is on; `set(Some(on))` turns it on or off (with the keys that go with it). A click is one
/// undo step.
fn flag_ui(
    ui: &mut egui::Ui,
    n: usize,
    what: &str,
    hover: &str,
    e: &mut Edits,
    mut set: impl FnMut(Option<bool>) -> bool,
) {
    let l = ui.label(format!("Skill {n} {what}"));
    let mut on = set(None);
    if ui
        .checkbox(&mut on, "")
        .labelled_by(l.id)
        .on_hover_text(hover)
        .changed()
    {
        set(Some(on));
        e.pick(format!(
            "skill {n} {what} {}",
            if on { "on" } else { "off" }
        ));
    }
    ui.end_row();
}

/// What skill `s`'s effect does in play (`docs/cards.md`, "Skill effects"), in a line under
/// its parameters.
fn effect_meaning(s: &Skill) -> &'static str {
    match s.effect {
        None => "Text only: shown on the card, never applied by the engine.",
        Some(EffectKind::InstantKill) => "A die at or above the trigger kills its target outright.",
        Some(EffectKind::ExtraAttack) => {
            "One more attack with these dice, each hit costing the damage in hit points."
        }
        Some(EffectKind::Flee) => "Leaves close combat; those it left pursue.",
        Some(EffectKind::Heal) if s.target == Some(EffectTarget::Ally) => {
            "Restores these hit points to an ally within the range."
        }
        Some(EffectKind::Heal) => "Restores these hit points to the figure itself.",
        Some(EffectKind::Area) if s.radius.is_some() => {
            "The dice against every enemy within the radius of a point within the range; each hit costs the damage."
        }
        Some(EffectKind::Area) => {
            "The dice against every enemy engaged with the figure; each hit costs the damage."
        }
        Some(EffectKind::Stealth) => "Enemies do not see the figure beyond the radius.",
        Some(EffectKind::Cover) => "Allies within the radius count as under cover.",
        Some(EffectKind::Reroll) => "Rerolls the failed dice of one attack.",
        Some(EffectKind::Save) => "Cancels hits against the figure (or an ally it wards).",
        Some(EffectKind::State) => "Puts its targets in a state for a time.",
        Some(EffectKind::HitBonus) => {
            "Allies within the radius hit on less (never better than 2+)."
        }
        Some(EffectKind::Vision) => "Allies within the radius see farther.",
        Some(EffectKind::CaptureClock) => "An engaged hero counts more rounds toward capture.",
        Some(EffectKind::HoldOut) => "Captured in close combat only after more rounds engaged.",
        Some(EffectKind::Silent) => "Its close combat makes no noise.",
        Some(EffectKind::Hunt) => "Goes toward the nearest wounded hero it sees first.",
        Some(EffectKind::KeepAway) => "No enemy may end its move within the radius.",
    }
}

/// Skill `n`'s `damage`, hit points a hit from 1 to [`MAX_DAMAGE`]: 1 is the default, so
/// it is written only above 1.
fn damage_ui(ui: &mut egui::Ui, n: usize, damage: &mut Option<u32>, e: &mut Edits) {
    let l = ui.label(format!("Skill {n} damage"));
    let mut d = damage.unwrap_or(1);
    if ui
        .add(
            egui::DragValue::new(&mut d)
                .range(1..=MAX_DAMAGE)
                .suffix(" HP a hit"),
        )
        .labelled_by(l.id)
        .on_hover_text("Hit points each hit costs (1 when not written)")
        .changed()
    {
        *damage = (d > 1).then_some(d);
        e.type_in("a skill's damage");
    }
    ui.end_row();
}

/// A labelled distance in inches, more than 0 and at most [`MAX_EFFECT_INCHES`].
fn inches_ui(ui: &mut egui::Ui, label: &str, v: &mut f64, e: &mut Edits) {
    let l = ui.label(label);
    if ui
        .add(
            egui::DragValue::new(v)
                .range(0.5..=MAX_EFFECT_INCHES)
                .speed(0.5)
                .suffix(" in"),
        )
        .labelled_by(l.id)
        .changed()
    {
        e.type_in("a distance");
    }
    ui.end_row();
}

//! The card editor's Form view for Ruunara heroes and units: name, id, kind, race and
//! faction, the numbers, the close and ranged dice, and the skills, each a small form
//! (name, cycle, trigger, text) added and removed with a button. Like the other forms it
//! edits a copy of the card and hands back the edited card; the rules are the core
//! parser's.

use super::arcadia_form::{Edits, grid, number_u32};
use super::card_form::{FormEdit, choice, optional_text, section, text};
use crate::games::ruunara::model::{Allegiance, Dice, Figure, FigureKind, Skill};

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
            section(ui, "Skills", |ui| skills_ui(ui, &mut f.card.skills, &mut e));
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
        dice_ui(ui, "Close", &mut c.close, e);
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
            dice_ui(ui, "Ranged dice", d, e);
            let mut r = c.ranged_range.unwrap_or(10);
            number_u32(ui, "Range", &mut r, 1..=99, e);
            c.ranged_range = Some(r);
        }
    });
}

/// Dice `nD k+` as two numbers.
fn dice_ui(ui: &mut egui::Ui, label: &'static str, d: &mut Dice, e: &mut Edits) {
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
            e.type_in(label);
        }
    });
    ui.end_row();
}

fn skills_ui(ui: &mut egui::Ui, skills: &mut Vec<Skill>, e: &mut Edits) {
    let mut remove = None;
    for (i, s) in skills.iter_mut().enumerate() {
        let n = i + 1;
        ui.horizontal(|ui| {
            ui.strong(format!("Skill {n}"));
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
            if optional_text(ui, &mut s.trigger, 1, l.id) {
                e.type_in("a skill's trigger");
            }
            ui.end_row();
            let l = ui.label(format!("Skill {n} text"));
            if optional_text(ui, &mut s.text, 3, l.id) {
                e.type_in("a skill's text");
            }
            ui.end_row();
        });
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

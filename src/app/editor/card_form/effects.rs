//! An Iconica action's effects as small forms: each effect's kind (damage, heal, inflict,
//! grant, dispel, roll, watch) and its values, a roll's condition with its `then` and
//! `else` effects and a watch's `then` effects nested below, effects added and removed with
//! buttons. Every widget is named by the effect's number (`1.2` is the second effect of
//! the first action; `1.2.t1` the first of its `then`). Every list (an action's, a roll's
//! `then` and `else`, a watch's `then`) is reordered with "Move effect P up/down".

use super::choice;
use crate::games::iconica::model::{ActionKind, Effect, RollCondition, Status, Target};

const TARGETS: [Target; 9] = [
    Target::Foe,
    Target::AllFoes,
    Target::RandomFoe,
    Target::Myself,
    Target::Ally,
    Target::Friend,
    Target::AllAllies,
    Target::AllFriends,
    Target::Same,
];

const KINDS: [&str; 7] = [
    "damage", "heal", "inflict", "grant", "dispel", "roll", "watch",
];

fn kind(e: &Effect) -> usize {
    match e {
        Effect::Damage { .. } => 0,
        Effect::Heal { .. } => 1,
        Effect::Inflict { .. } => 2,
        Effect::Grant { .. } => 3,
        Effect::Dispel { .. } => 4,
        Effect::Roll { .. } => 5,
        Effect::Watch { .. } => 6,
    }
}

/// A new effect of kind `k`, keeping the old one's target where both have one.
fn of_kind(k: usize, old: &Effect) -> Effect {
    let target = old.target().unwrap_or(Target::Foe);
    match k {
        0 => Effect::Damage { damage: 10, target },
        1 => Effect::Heal { heal: 10, target },
        2 => Effect::Inflict {
            inflict: Status::Poison,
            target,
        },
        3 => Effect::Grant {
            grant: Status::Restoration,
            target,
        },
        4 => Effect::Dispel {
            dispel: true,
            target,
        },
        5 => Effect::Roll {
            roll: RollCondition::AtLeast(4),
            then: vec![old.clone()],
            otherwise: Vec::new(),
        },
        _ => Effect::Watch {
            watch: ActionKind::Melee,
            then: vec![old.clone()],
        },
    }
}

/// What the effect widgets changed: a discrete edit (named) or typing.
#[derive(Default)]
pub struct EffectEdit {
    pub picked: Option<String>,
    pub typed: bool,
}

/// The effects of one list (`path` numbers them).
pub fn effects_ui(ui: &mut egui::Ui, effects: &mut Vec<Effect>, path: &str, e: &mut EffectEdit) {
    let mut remove = None;
    let mut swap = None;
    let len = effects.len();
    for (i, eff) in effects.iter_mut().enumerate() {
        let p = format!("{path}.{}", i + 1);
        ui.horizontal(|ui| {
            ui.vertical(|ui| {
                if ui.small_button(format!("Remove effect {p}")).clicked() {
                    remove = Some(i);
                }
                if len > 1
                    && let Some(s) = super::move_buttons(ui, i, len, &format!("effect {p}"))
                {
                    swap = Some(s);
                }
            });
            ui.vertical(|ui| effect_ui(ui, eff, &p, e));
        });
    }
    if let Some(i) = remove {
        effects.remove(i);
        e.picked = Some(format!("remove effect {path}.{}", i + 1));
    } else if let Some((a, b)) = swap {
        effects.swap(a, b);
        e.picked = Some(format!("move effect {path}.{} to {}", b + 1, a + 1));
    }
    if ui
        .small_button(format!("Add effect {path}"))
        .on_hover_text("A new effect: 10 damage to a foe")
        .clicked()
    {
        effects.push(Effect::Damage {
            damage: 10,
            target: Target::Foe,
        });
        e.picked = Some(format!("add effect to {path}"));
    }
}

fn effect_ui(ui: &mut egui::Ui, eff: &mut Effect, p: &str, e: &mut EffectEdit) {
    ui.horizontal_wrapped(|ui| {
        let l = ui.label(format!("Effect {p}"));
        let mut k = kind(eff);
        let before = k;
        egui::ComboBox::from_id_salt(("effect-kind", p))
            .selected_text(KINDS[k])
            .show_ui(ui, |ui| {
                for (i, name) in KINDS.iter().enumerate() {
                    ui.selectable_value(&mut k, i, *name);
                }
            })
            .response
            .labelled_by(l.id);
        if k != before {
            *eff = of_kind(k, eff);
            e.picked = Some(format!("effect {p}: {}", KINDS[k]));
        }
        match eff {
            Effect::Damage { damage: n, target } | Effect::Heal { heal: n, target } => {
                let l = ui.label(format!("Amount {p}"));
                if ui
                    .add(egui::DragValue::new(n).range(0..=200).speed(1.0))
                    .labelled_by(l.id)
                    .changed()
                {
                    e.typed = true;
                }
                target_ui(ui, target, p, e);
            }
            Effect::Inflict { inflict: s, target } | Effect::Grant { grant: s, target } => {
                let l = ui.label(format!("Status {p}"));
                if choice(ui, ("effect-status", p), s, &Status::ALL, l.id) {
                    e.picked = Some(format!("status of effect {p}"));
                }
                target_ui(ui, target, p, e);
            }
            Effect::Dispel { target, .. } => target_ui(ui, target, p, e),
            Effect::Roll { roll, .. } => condition_ui(ui, roll, p, e),
            Effect::Watch { watch, .. } => {
                let l = ui.label(format!("Watched kind {p}"));
                if choice(ui, ("effect-watch", p), watch, &ActionKind::ALL, l.id) {
                    e.picked = Some(format!("watched kind of effect {p}"));
                }
            }
        }
    });
    match eff {
        Effect::Roll {
            then, otherwise, ..
        } => {
            ui.indent(("then", p), |ui| {
                ui.label("then");
                effects_ui(ui, then, &format!("{p}.t"), e);
                ui.label("else");
                effects_ui(ui, otherwise, &format!("{p}.e"), e);
            });
        }
        Effect::Watch { then, .. } => {
            ui.indent(("then", p), |ui| {
                ui.label("then");
                effects_ui(ui, then, &format!("{p}.t"), e);
            });
        }
        _ => {}
    }
}

fn target_ui(ui: &mut egui::Ui, target: &mut Target, p: &str, e: &mut EffectEdit) {
    let l = ui.label(format!("Target {p}"));
    if choice(ui, ("effect-target", p), target, &TARGETS, l.id) {
        e.picked = Some(format!("target of effect {p}"));
    }
}

/// A roll's condition: odd, even, at least N, or some faces.
fn condition_ui(ui: &mut egui::Ui, c: &mut RollCondition, p: &str, e: &mut EffectEdit) {
    const NAMES: [&str; 4] = ["odd", "even", "at least", "faces"];
    let l = ui.label(format!("Roll {p}"));
    let mut k = match c {
        RollCondition::Odd => 0,
        RollCondition::Even => 1,
        RollCondition::AtLeast(_) => 2,
        RollCondition::Faces(_) => 3,
    };
    let before = k;
    egui::ComboBox::from_id_salt(("effect-roll", p))
        .selected_text(NAMES[k])
        .show_ui(ui, |ui| {
            for (i, n) in NAMES.iter().enumerate() {
                ui.selectable_value(&mut k, i, *n);
            }
        })
        .response
        .labelled_by(l.id);
    if k != before {
        *c = match k {
            0 => RollCondition::Odd,
            1 => RollCondition::Even,
            2 => RollCondition::AtLeast(4),
            _ => RollCondition::Faces(vec![6]),
        };
        e.picked = Some(format!("roll of effect {p}: {}", NAMES[k]));
    }
    match c {
        RollCondition::AtLeast(n) => {
            let l = ui.label(format!("At least {p}"));
            if ui
                .add(egui::DragValue::new(n).range(1..=6).suffix("+"))
                .labelled_by(l.id)
                .changed()
            {
                e.typed = true;
            }
        }
        RollCondition::Faces(faces) => {
            for n in 1..=6u8 {
                let on = faces.contains(&n);
                if ui
                    .selectable_label(on, n.to_string())
                    .on_hover_text(format!("Face {n} for effect {p}"))
                    .clicked()
                {
                    if on {
                        faces.retain(|f| *f != n);
                    } else {
                        faces.push(n);
                        faces.sort_unstable();
                    }
                    e.picked = Some(format!("faces of effect {p}"));
                }
            }
        }
        _ => {}
    }
}

//! Form edits of Ruunara figures: a lenient read for the card editor's Form view (keys and
//! value types checked; the format's rules, such as a playable race for an ally, are left
//! to the strict parser) and the writer.

use crate::cards::{Card, CardError};

use super::model::{AttackKind, Dice, EffectKind, EffectTarget, Figure, Skill, StateKind};

/// Reads `text` as a Ruunara hero or unit for the form. `Ok(None)`: the text is another
/// game's card.
pub fn read(text: &str, file: &str) -> Result<Option<Figure>, CardError> {
    let table: toml::Table =
        toml::from_str(text).map_err(|e| CardError::from_toml(file, text, &e))?;
    if table.get("game").and_then(|v| v.as_str()) != Some("ruunara") {
        return Ok(None);
    }
    toml::from_str(text)
        .map(Some)
        .map_err(|e| CardError::from_toml(file, text, &e))
}

/// The figure as the TOML of its card file.
pub fn write(f: &Figure) -> String {
    Card::Ruunara(f.clone()).to_toml()
}

/// Sets `s`'s effect to `kind` (`None`: text only) with exactly the parameters that effect
/// takes, at the values of the bundled cards' examples, and no other: the result passes
/// `Figure::problems` whatever the skill had before. `instant_kill` keeps a valid trigger
/// and otherwise gets `6+`.
pub fn set_effect(s: &mut Skill, kind: Option<EffectKind>) {
    s.effect = kind;
    s.dice = None;
    s.attack = None;
    s.amount = None;
    s.target = None;
    s.range = None;
    s.radius = None;
    s.damage = None;
    s.against = None;
    s.hits = None;
    s.lasts = None;
    s.state = None;
    s.score = None;
    s.condition = None;
    s.distance = None;
    s.when = None;
    s.face = None;
    let dice = Some(Dice { count: 1, min: 4 });
    match kind {
        Some(EffectKind::InstantKill) if s.trigger_score().is_none() => {
            s.trigger = Some("6+".into());
        }
        Some(EffectKind::ExtraAttack) => {
            s.dice = dice;
            s.attack = Some(AttackKind::Close);
        }
        Some(EffectKind::Heal) => s.amount = Some(1),
        Some(EffectKind::Area) => s.dice = dice,
        Some(EffectKind::Stealth) => s.radius = Some(4.0),
        Some(EffectKind::Cover) => s.radius = Some(1.0),
        Some(EffectKind::KeepAway) => s.radius = Some(3.0),
        Some(EffectKind::State) => {
            s.state = Some(StateKind::Held);
            s.target = Some(EffectTarget::Engaged);
        }
        Some(EffectKind::HitBonus | EffectKind::Vision) => {
            s.amount = Some(1);
            s.radius = Some(3.0);
        }
        Some(EffectKind::CaptureClock) => s.amount = Some(1),
        Some(EffectKind::HoldOut) => s.amount = Some(6),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, parse_card};

    fn figure() -> Figure {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/cards/ruunara/ru-miri-stormcall.toml"
        ))
        .unwrap();
        match parse_card(&text, "t.toml") {
            Ok(Card::Ruunara(f)) => f,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_effect_set_over_every_other_is_valid_and_written_as_read() {
        let kinds = std::iter::once(None).chain(EffectKind::ALL.map(Some));
        for from in kinds.clone() {
            for to in kinds.clone() {
                let mut f = figure();
                // An area skill with a range and a radius, and no trigger.
                f.skills[0].trigger = None;
                set_effect(&mut f.skills[0], from);
                set_effect(&mut f.skills[0], to);
                assert_eq!(f.skills[0].effect, to);
                assert!(
                    f.problems().is_empty(),
                    "{from:?} -> {to:?}: {:?}",
                    f.problems()
                );
                assert_eq!(to.is_some(), f.skills[0].resolved_effect().is_some());
                let back = read(&write(&f), "t.toml").unwrap().unwrap();
                assert_eq!(back, f);
            }
        }
    }

    #[test]
    fn instant_kill_keeps_a_valid_trigger() {
        let mut s = Skill {
            trigger: Some("5+".into()),
            ..Skill::default()
        };
        set_effect(&mut s, Some(EffectKind::InstantKill));
        assert_eq!(s.trigger.as_deref(), Some("5+"));
    }
}

//! Each decision and option of an Iconica match in words, as a person is asked them (the
//! question and options `IconicaGame` gives every face).

use super::engine::{Choice, ChoiceKind, Opt, Setup};

/// The question a decision puts, in words.
pub fn question(c: &Choice<'_>) -> String {
    question_of(c.setup, c.kind, c.actor)
}

/// The question of a decision of `kind` (of the action of slot `actor`), in words.
pub fn question_of(setup: &Setup, kind: ChoiceKind, actor: Option<u8>) -> String {
    let actor = actor.map(|a| setup.label(usize::from(a)).to_string());
    match kind {
        ChoiceKind::SiphonTarget => "Siphon: which opposing character takes the damage?".into(),
        ChoiceKind::BreakChar => "Doubles: which character takes the Action Break?".into(),
        ChoiceKind::AdvancedBreak => "Act with the white die, or take an Action Break?".into(),
        ChoiceKind::V8Break => "Take the Action Break?".into(),
        ChoiceKind::Actor => "Which character acts?".into(),
        ChoiceKind::Target => match actor {
            Some(a) => format!("Which character does {a}'s action target?"),
            None => "Which character is the target?".into(),
        },
        ChoiceKind::Confusion => {
            "Confusion failed: 10 damage to one of your characters, or let the opponent heal 10?"
                .into()
        }
        ChoiceKind::HealTarget => "Which of your characters heals 10?".into(),
    }
}

/// One option of a decision, in words.
pub fn option_text(setup: &Setup, o: Opt) -> String {
    let n = |s: u8| setup.label(usize::from(s)).to_string();
    match o {
        Opt::Char(s) => n(s),
        Opt::Act => "Act with the white die".into(),
        Opt::Break(s) => format!("Break {}", n(s)),
        Opt::Decline => "Do not break".into(),
        Opt::SelfDamage(s) => format!("10 damage to {}", n(s)),
        Opt::LetHeal => "Let the opponent heal 10".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::games::iconica::bundled_duel as duel;

    #[test]
    fn options_name_the_characters() {
        let setup = duel();
        assert_eq!(option_text(&setup, Opt::Char(0)), setup.label(0));
        assert_eq!(
            option_text(&setup, Opt::Break(1)),
            format!("Break {}", setup.label(1))
        );
    }
}

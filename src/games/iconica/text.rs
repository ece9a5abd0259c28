//! An Iconica card's rules text and its effects, said the same way: each effect form has a
//! text template ([`FORMS`]), so a card's text can be written from its effects
//! ([`write`]); and a text is checked against its effects ([`audit`]) for the numbers, the
//! statuses and the targets it names that no effect has, or the reverse. The designer may
//! word a text freely; what it names must be what the engine plays.

use super::model::{Character, Effect, RollCondition, Status, Target};

pub use crate::games::wording::Form;

/// Every effect form of an Iconica card (`spec/iconica.md`, "Effects").
pub const FORMS: &[Form] = &[
    Form {
        name: "damage",
        keys: "`damage` (a multiple of 10), `target`",
        template: "deal {damage} damage to {target}",
        example: "{ damage = 20, target = \"foe\" }",
    },
    Form {
        name: "heal",
        keys: "`heal`, `target`",
        template: "heal {target} of {heal} damage",
        example: "{ heal = 10, target = \"self\" }",
    },
    Form {
        name: "inflict",
        keys: "`inflict` (poison, fear, confusion, blind, stun), `target`",
        template: "deal {Status} to {target}",
        example: "{ inflict = \"stun\", target = \"same\" }",
    },
    Form {
        name: "grant",
        keys: "`grant` (restoration, siphon), `target`",
        template: "grant {Status} to {target}",
        example: "{ grant = \"restoration\", target = \"friend\" }",
    },
    Form {
        name: "dispel",
        keys: "`dispel = true`, `target`",
        template: "dispel {target}",
        example: "{ dispel = true, target = \"all_friends\" }",
    },
    Form {
        name: "roll",
        keys: "`roll` (\"odd\", \"even\", \"N+\" or a list of faces), `then`, optional `else`",
        template: "Roll a die. On {condition}, {then}. Otherwise {else}.",
        example: "{ roll = \"4+\", then = [ { inflict = \"stun\", target = \"same\" } ] }",
    },
    Form {
        name: "watch",
        keys: "`watch` (an action kind), `then`",
        template: "If your opponent uses a {kind} action on their next turn, {then}.",
        example: "{ watch = \"melee\", then = [ { damage = 30, target = \"foe\" } ] }",
    },
];

/// The words of each target in a template (`same`: the character the effect before it
/// reached).
pub fn target_words(t: Target) -> &'static str {
    match t {
        Target::Foe => "one opposing character",
        Target::AllFoes => "all opposing characters",
        Target::RandomFoe => "one random opposing character",
        Target::Myself => "this character",
        Target::Ally => "one allied character",
        Target::Friend => "one friendly character",
        Target::AllAllies => "all allied characters",
        Target::AllFriends => "all friendly characters",
        Target::Same => "it",
    }
}

/// The phrases of the targets in a text, longest first, each with the target it names.
const TARGET_PHRASES: &[(&str, Target)] = &[
    ("all opposing characters", Target::AllFoes),
    ("random opposing character", Target::RandomFoe),
    ("opposing character", Target::Foe),
    ("all allied characters", Target::AllAllies),
    ("allied character", Target::Ally),
    ("all friendly characters", Target::AllFriends),
    ("friendly character", Target::Friend),
    ("this character", Target::Myself),
];

fn status_word(s: Status) -> String {
    let n = s.name();
    n[..1].to_ascii_uppercase() + &n[1..]
}

fn condition_words(c: &RollCondition) -> String {
    match c {
        RollCondition::Odd => "an odd number".into(),
        RollCondition::Even => "an even number".into(),
        RollCondition::AtLeast(6) => "6".into(),
        RollCondition::AtLeast(n) => format!("{n} or more"),
        RollCondition::Faces(v) => {
            let faces: Vec<String> = v.iter().map(u8::to_string).collect();
            match faces.split_last() {
                Some((last, rest)) if !rest.is_empty() => {
                    format!("{} or {last}", rest.join(", "))
                }
                _ => faces.join(""),
            }
        }
    }
}

/// One clause of a sentence: an effect's template filled in.
fn clause(e: &Effect) -> String {
    match e {
        Effect::Damage { damage, target } => {
            format!("deal {damage} damage to {}", target_words(*target))
        }
        Effect::Heal { heal, target } => {
            format!("heal {} of {heal} damage", target_words(*target))
        }
        Effect::Inflict { inflict, target } => {
            format!(
                "deal {} to {}",
                status_word(*inflict),
                target_words(*target)
            )
        }
        Effect::Grant { grant, target } => {
            format!("grant {} to {}", status_word(*grant), target_words(*target))
        }
        Effect::Dispel { target, .. } => format!("dispel {}", target_words(*target)),
        Effect::Roll {
            roll,
            then,
            otherwise,
        } => {
            let mut s = format!(
                "roll a die. On {}, {}",
                condition_words(roll),
                clauses(then)
            );
            if !otherwise.is_empty() {
                s.push_str(&format!(". Otherwise {}", clauses(otherwise)));
            }
            s
        }
        Effect::Watch { watch, then } => format!(
            "if your opponent uses a {} action on their next turn, {}",
            watch.name(),
            clauses(then)
        ),
    }
}

/// Effects in a row, their clauses joined: simple effects with ", then", and a roll or a
/// watch as a sentence of its own.
fn clauses(effects: &[Effect]) -> String {
    let mut out = String::new();
    let mut open = false;
    for e in effects {
        let c = clause(e);
        let own_sentence = matches!(e, Effect::Roll { .. } | Effect::Watch { .. });
        if out.is_empty() {
            out = c;
        } else if own_sentence || !open {
            out.push_str(". ");
            out.push_str(&capitalized(&c));
        } else {
            out.push_str(", then ");
            out.push_str(&c);
        }
        open = !own_sentence;
    }
    out
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The rules text its effects say, from each form's template (what the editor writes when
/// asked; the designer may reword it).
pub fn write(effects: &[Effect]) -> String {
    if effects.is_empty() {
        return String::new();
    }
    let mut s = capitalized(&clauses(effects));
    s.push('.');
    s
}

/// Where a text and its effects disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Which text: `actions[2] (Rallying Horn)`, `strengths[0]`, `final_act`.
    pub part: String,
    /// What disagrees, in words.
    pub why: String,
}

fn effect_numbers(effects: &[Effect], out: &mut Vec<u32>) {
    for e in effects {
        match e {
            Effect::Damage { damage, .. } => out.push(*damage),
            Effect::Heal { heal, .. } => out.push(*heal),
            Effect::Roll {
                roll,
                then,
                otherwise,
            } => {
                match roll {
                    RollCondition::AtLeast(n) => out.push(u32::from(*n)),
                    RollCondition::Faces(v) => out.extend(v.iter().map(|&f| u32::from(f))),
                    RollCondition::Odd | RollCondition::Even => {}
                }
                effect_numbers(then, out);
                effect_numbers(otherwise, out);
            }
            Effect::Watch { then, .. } => effect_numbers(then, out),
            _ => {}
        }
    }
}

fn effect_statuses(effects: &[Effect], out: &mut Vec<Status>) {
    for e in effects {
        match e {
            Effect::Inflict { inflict: s, .. } | Effect::Grant { grant: s, .. } => out.push(*s),
            Effect::Roll {
                then, otherwise, ..
            } => {
                effect_statuses(then, out);
                effect_statuses(otherwise, out);
            }
            Effect::Watch { then, .. } => effect_statuses(then, out),
            _ => {}
        }
    }
}

fn effect_targets(effects: &[Effect], out: &mut Vec<Target>) {
    for e in effects {
        match e {
            Effect::Roll {
                then, otherwise, ..
            } => {
                effect_targets(then, out);
                effect_targets(otherwise, out);
            }
            Effect::Watch { then, .. } => effect_targets(then, out),
            other => out.extend(other.target().filter(|t| *t != Target::Same)),
        }
    }
}

/// The numbers written in digits in a text.
fn text_numbers(text: &str) -> Vec<u32> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty() && w.len() <= 6)
        .filter_map(|w| w.parse().ok())
        .collect()
}

fn text_statuses(text: &str) -> Vec<Status> {
    let lower = text.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    Status::ALL
        .into_iter()
        .filter(|s| words.contains(&s.name()))
        .collect()
}

fn text_targets(text: &str) -> Vec<Target> {
    let mut rest = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for (phrase, t) in TARGET_PHRASES {
        if rest.contains(phrase) {
            out.push(*t);
            rest = rest.replace(phrase, " ");
        }
    }
    out
}

/// What `text` names that `effects` do not, and the reverse: numbers (damage, healing, the
/// faces of a roll), statuses and targets. Empty when they agree (or there are no effects
/// and the text names none of them).
pub fn audit(text: &str, effects: &[Effect]) -> Vec<String> {
    let mut out = Vec::new();
    let mut have = Vec::new();
    effect_numbers(effects, &mut have);
    let said = text_numbers(text);
    for n in dedup(&said) {
        if !have.contains(&n) {
            out.push(format!("the text says {n}, but no effect does"));
        }
    }
    for n in dedup(&have) {
        if !said.contains(&n) {
            out.push(format!("an effect has {n}, but the text does not say it"));
        }
    }
    let mut statuses = Vec::new();
    effect_statuses(effects, &mut statuses);
    let named = text_statuses(text);
    for s in &named {
        if !statuses.contains(s) {
            out.push(format!(
                "the text names {}, but no effect gives it",
                s.name()
            ));
        }
    }
    for s in dedup(&statuses) {
        if !named.contains(&s) {
            out.push(format!(
                "an effect gives {}, but the text does not name it",
                s.name()
            ));
        }
    }
    let mut targets = Vec::new();
    effect_targets(effects, &mut targets);
    let aimed = text_targets(text);
    for t in &aimed {
        if !targets.contains(t) {
            out.push(format!(
                "the text names {}, but no effect targets it",
                target_words(*t)
            ));
        }
    }
    for t in dedup(&targets) {
        if !aimed.contains(&t) {
            out.push(format!(
                "an effect targets {}, but the text does not say so",
                target_words(t)
            ));
        }
    }
    out
}

fn dedup<T: PartialEq + Copy>(v: &[T]) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for x in v {
        if !out.contains(x) {
            out.push(*x);
        }
    }
    out
}

/// Whether `text` names the group a strength applies against (its archetype, race or class,
/// a plural allowed).
fn names_group(text: &str, group: &str) -> bool {
    let text = text.to_ascii_lowercase();
    let group = group.to_ascii_lowercase();
    if group.is_empty() {
        return false;
    }
    let plural_y = group
        .strip_suffix('y')
        .is_some_and(|stem| text.contains(&format!("{stem}ies")));
    text.contains(&group) || plural_y
}

/// Every text of a character checked against its effects ([`audit`]); a strength's text
/// must also name the group it applies against.
pub fn mismatches(c: &Character) -> Vec<Mismatch> {
    let mut out = Vec::new();
    for (k, a) in c.actions.iter().enumerate() {
        for why in audit(&a.text, &a.effects) {
            out.push(Mismatch {
                part: format!("actions[{k}] ({})", a.name),
                why,
            });
        }
    }
    for (k, s) in c.strengths.iter().enumerate() {
        let part = format!("strengths[{k}]");
        for why in audit(&s.text, &s.effects) {
            out.push(Mismatch {
                part: part.clone(),
                why,
            });
        }
        let group = match (&s.against.archetype, &s.against.race, s.against.class) {
            (Some(a), _, _) => a.clone(),
            (_, Some(r), _) => r.clone(),
            (_, _, Some(cl)) => format!("{cl:?}"),
            _ => String::new(),
        };
        if !group.is_empty() && !names_group(&s.text, &group) {
            out.push(Mismatch {
                part,
                why: format!("it applies against {group}, but the text does not name them"),
            });
        }
    }
    if let Some(f) = &c.final_act {
        for why in audit(&f.text, &f.effects) {
            out.push(Mismatch {
                part: "final_act".into(),
                why,
            });
        }
    }
    out
}

/// The Iconica section of `docs/effects.md`: every form with its keys, its template and an
/// example.
pub fn reference() -> String {
    let mut s = String::from(
        "## Iconica\n\nAn action, a strength or a final act has `effects`, played in order. \
         Targets: ",
    );
    let targets: Vec<String> = [
        ("foe", Target::Foe),
        ("all_foes", Target::AllFoes),
        ("random_foe", Target::RandomFoe),
        ("self", Target::Myself),
        ("ally", Target::Ally),
        ("friend", Target::Friend),
        ("all_allies", Target::AllAllies),
        ("all_friends", Target::AllFriends),
        ("same", Target::Same),
    ]
    .iter()
    .map(|(k, t)| format!("`{k}` ({})", target_words(*t)))
    .collect();
    s.push_str(&targets.join(", "));
    s.push_str(
        ".\n\n| form | keys | text template | example | a bundled card with it |\n\
         | --- | --- | --- | --- | --- |\n",
    );
    let bundled = super::bundled_characters();
    for f in FORMS {
        let card = bundled
            .iter()
            .find(|c| uses_form(c, f.name))
            .map_or("none".to_string(), |c| format!("{} (`{}`)", c.name, c.id));
        s.push_str(&format!(
            "| `{}` | {} | {} | `{}` | {card} |\n",
            f.name, f.keys, f.template, f.example
        ));
    }
    s
}

/// The form's name of an effect, as [`FORMS`] lists it.
pub fn form_name(e: &Effect) -> &'static str {
    match e {
        Effect::Damage { .. } => "damage",
        Effect::Heal { .. } => "heal",
        Effect::Inflict { .. } => "inflict",
        Effect::Grant { .. } => "grant",
        Effect::Dispel { .. } => "dispel",
        Effect::Roll { .. } => "roll",
        Effect::Watch { .. } => "watch",
    }
}

fn has_form(effects: &[Effect], form: &str) -> bool {
    effects.iter().any(|e| {
        form_name(e) == form
            || match e {
                Effect::Roll {
                    then, otherwise, ..
                } => has_form(then, form) || has_form(otherwise, form),
                Effect::Watch { then, .. } => has_form(then, form),
                _ => false,
            }
    })
}

fn uses_form(c: &Character, form: &str) -> bool {
    c.actions.iter().any(|a| has_form(&a.effects, form))
        || c.strengths.iter().any(|s| has_form(&s.effects, form))
        || c.final_act
            .as_ref()
            .is_some_and(|f| has_form(&f.effects, form))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn effects(toml_text: &str) -> Vec<Effect> {
        #[derive(serde::Deserialize)]
        struct E {
            effects: Vec<Effect>,
        }
        toml::from_str::<E>(toml_text).unwrap().effects
    }

    #[test]
    fn every_form_is_listed_with_a_bundled_card() {
        let r = reference();
        for f in FORMS {
            assert!(r.contains(&format!("| `{}` |", f.name)));
        }
        assert!(!r.contains("| none |"), "{r}");
    }

    #[test]
    fn a_text_is_written_from_its_effects() {
        let e = effects(
            r#"effects = [ { damage = 20, target = "foe" }, { heal = 10, target = "self" } ]"#,
        );
        assert_eq!(
            write(&e),
            "Deal 20 damage to one opposing character, then heal this character of 10 damage."
        );
        let e = effects(
            r#"effects = [ { roll = "4+", then = [ { damage = 20, target = "all_foes" } ], else = [ { damage = 30, target = "foe" } ] } ]"#,
        );
        assert_eq!(
            write(&e),
            "Roll a die. On 4 or more, deal 20 damage to all opposing characters. Otherwise deal 30 damage to one opposing character."
        );
        let e = effects(
            r#"effects = [ { damage = 10, target = "foe" }, { watch = "melee", then = [ { damage = 30, target = "foe" } ] } ]"#,
        );
        assert_eq!(
            write(&e),
            "Deal 10 damage to one opposing character. If your opponent uses a melee action on their next turn, deal 30 damage to one opposing character."
        );
    }

    #[test]
    fn a_written_text_agrees_with_its_effects() {
        for t in [
            r#"effects = [ { inflict = "stun", target = "foe" }, { damage = 20, target = "same" } ]"#,
            r#"effects = [ { roll = [4, 5, 6], then = [ { grant = "siphon", target = "self" } ] } ]"#,
            r#"effects = [ { dispel = true, target = "all_allies" }, { heal = 30, target = "all_allies" } ]"#,
        ] {
            let e = effects(t);
            assert_eq!(audit(&write(&e), &e), Vec::<String>::new(), "{}", write(&e));
        }
    }

    #[test]
    fn a_text_naming_what_no_effect_does_is_flagged_and_the_reverse() {
        let e = effects(r#"effects = [ { damage = 20, target = "foe" } ]"#);
        assert_eq!(
            audit("Deal 30 damage to one opposing character.", &e),
            vec![
                "the text says 30, but no effect does".to_string(),
                "an effect has 20, but the text does not say it".to_string(),
            ]
        );
        assert_eq!(
            audit("Deal 20 damage and Stun to one opposing character.", &e),
            vec!["the text names stun, but no effect gives it".to_string()]
        );
        assert_eq!(
            audit("Deal 20 damage to all opposing characters.", &e),
            vec![
                "the text names all opposing characters, but no effect targets it".to_string(),
                "an effect targets one opposing character, but the text does not say so"
                    .to_string(),
            ]
        );
        // A random foe is not "one opposing character".
        assert_eq!(
            audit("Deal 20 damage to one random opposing character.", &e).len(),
            2
        );
    }

    #[test]
    fn every_bundled_character_s_text_agrees_with_its_effects() {
        let mut all = Vec::new();
        for c in crate::games::iconica::bundled_characters() {
            for m in mismatches(&c) {
                all.push(format!("{} {}: {}", c.id, m.part, m.why));
            }
        }
        assert!(all.is_empty(), "{}", all.join("\n"));
    }
}

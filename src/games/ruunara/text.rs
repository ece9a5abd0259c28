//! A Ruunara skill's text and its data, said the same way (issue #25): each effect form has
//! a text template ([`FORMS`]), so a skill's text can be written from its data
//! ([`write`]); and a text is checked against its data ([`audit`]) for the numbers and
//! distances it names that the data does not have, or the distances and amounts the data has
//! that the text leaves out; and the targets it names against the data's `target`
//! ([`audit_targets`]). The designer may word a text freely; its numbers and targets must be
//! the ones the engine plays.

use super::model::{
    AttackKind, Condition, Cycle, EffectKind, EffectTarget, Figure, Lasts, Skill, StateKind,
};

/// One effect form as `docs/effects.md` lists it: its keys, its template and a bundled
/// example (its keys as the card file writes them).
pub struct Form {
    pub name: &'static str,
    pub keys: &'static str,
    pub template: &'static str,
    pub example: &'static str,
}

/// Every effect form of a Ruunara skill (`docs/cards.md`, "Skill effects").
pub const FORMS: &[Form] = &[
    Form {
        name: "instant_kill",
        keys: "`trigger`, optional `attack`, `target = \"enemy\"`",
        template: "{attack}s instantly kill the target on a {trigger}.",
        example: "trigger = \"6+\", effect = \"instant_kill\", attack = \"ranged\"",
    },
    Form {
        name: "extra_attack",
        keys: "`dice`, `attack`, optional `damage`",
        template: "Make one extra {attack} attack of {dice}; each hit costs {damage} hit points.",
        example: "effect = \"extra_attack\", dice = \"2D4+\", attack = \"ranged\"",
    },
    Form {
        name: "flee",
        keys: "optional `distance`",
        template: "Leave close combat and move up to {distance} inches.",
        example: "effect = \"flee\", distance = 4.0",
    },
    Form {
        name: "heal",
        keys: "`amount`, optional `target`, `range`, `when = \"execution\"` with `radius`",
        template: "{target} within {range} inches regains {amount} hit points.",
        example: "effect = \"heal\", amount = 3, target = \"ally\", range = 2.0",
    },
    Form {
        name: "area",
        keys: "`dice`, optional `range` and `radius`, `damage`",
        template: "Roll {dice} for each enemy within {radius} inches of a point within {range} inches; each hit costs {damage} hit points.",
        example: "effect = \"area\", dice = \"1D4+\", range = 12.0, radius = 4.0, damage = 2",
    },
    Form {
        name: "stealth",
        keys: "`radius`",
        template: "Enemies do not see the figure beyond {radius} inches.",
        example: "effect = \"stealth\", radius = 4.0",
    },
    Form {
        name: "cover",
        keys: "`radius` or `target = \"self\"`, optional `condition = \"apart\"` with `distance`, `lasts = \"move\"`",
        template: "Allies within {radius} inches count as under cover.",
        example: "effect = \"cover\", target = \"self\", condition = \"apart\", distance = 8.0",
    },
    Form {
        name: "reroll",
        keys: "",
        template: "Roll the failed dice of one attack again.",
        example: "effect = \"reroll\"",
    },
    Form {
        name: "save",
        keys: "optional `against`, `trigger`, `hits`, `target = \"ally\"` with `range`",
        template: "Each {against} hit against the figure is cancelled on a {trigger}.",
        example: "effect = \"save\", against = \"ranged\", trigger = \"4+\"",
    },
    Form {
        name: "state",
        keys: "`state`, `target`, optional `trigger`, `lasts`, `score`, `face`, `radius`, `range`",
        template: "Roll one die: on {trigger}, {target} is {state} for {lasts}.",
        example: "trigger = \"5+\", effect = \"state\", state = \"silenced\", target = \"engaged\", lasts = \"fight\"",
    },
    Form {
        name: "hit_bonus",
        keys: "`amount`, `radius`, optional `target = \"kin\"`",
        template: "Allies within {radius} inches hit on {amount} less (never better than 2+).",
        example: "effect = \"hit_bonus\", amount = 1, radius = 6.0, target = \"kin\"",
    },
    Form {
        name: "vision",
        keys: "`amount`, `radius`",
        template: "Allies within {radius} inches add {amount} to their vision.",
        example: "effect = \"vision\", amount = 1, radius = 3.0",
    },
    Form {
        name: "capture_clock",
        keys: "`amount`, optional `target = \"engaged\"`, `trigger`",
        template: "Roll one die: on {trigger}, the engaged hero counts {amount} extra turns toward capture.",
        example: "trigger = \"6+\", effect = \"capture_clock\", target = \"engaged\", amount = 1",
    },
    Form {
        name: "hold_out",
        keys: "`amount`",
        template: "Captured only after {amount} consecutive turns in close combat.",
        example: "effect = \"hold_out\", amount = 6",
    },
    Form {
        name: "silent",
        keys: "",
        template: "Its close combat makes no noise.",
        example: "effect = \"silent\"",
    },
    Form {
        name: "hunt",
        keys: "optional `condition = \"wounded\"`",
        template: "It always moves toward the nearest wounded hero it can see.",
        example: "effect = \"hunt\", condition = \"wounded\"",
    },
    Form {
        name: "keep_away",
        keys: "`radius`",
        template: "No enemy may end its move within {radius} inches.",
        example: "effect = \"keep_away\", radius = 3.0",
    },
];

/// A length as a text writes it: `4`, `2.5`.
fn inches(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

fn attack_word(a: Option<AttackKind>) -> &'static str {
    match a {
        Some(AttackKind::Close) => "close",
        Some(AttackKind::Ranged) => "ranged",
        None => "",
    }
}

/// The skill's text written from its data (empty for a text-only skill).
pub fn write(s: &Skill) -> String {
    let Some(kind) = s.effect else {
        return String::new();
    };
    let on = s.trigger.as_deref().unwrap_or("6+");
    let dist = |v: Option<f64>| v.map_or(String::new(), inches);
    let roll = |rest: String| match &s.trigger {
        Some(t) => format!("Roll one die: on {t}, {rest}"),
        None => {
            let mut c = rest.chars();
            c.next()
                .map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        }
    };
    match kind {
        EffectKind::InstantKill if s.target == Some(EffectTarget::Enemy) => {
            format!("Single-target spell: roll one die; on {on}, the target is killed instantly.")
        }
        EffectKind::InstantKill => match s.attack {
            None => format!("Attacks instantly kill the target on a {on}."),
            a => format!(
                "{}{} attacks instantly kill the target on a {on}.",
                attack_word(a)[..1].to_uppercase(),
                &attack_word(a)[1..]
            ),
        },
        EffectKind::ExtraAttack => format!(
            "Make one extra {} attack of {}{}.",
            attack_word(s.attack),
            s.dice.map_or(String::new(), |d| d.to_string()),
            match s.damage {
                Some(d) if d > 1 => format!("; each hit costs {d} hit points"),
                _ => String::new(),
            }
        ),
        EffectKind::Flee => match s.distance {
            Some(d) => format!("Leave close combat and move up to {} inches.", inches(d)),
            None => "Leave close combat.".into(),
        },
        EffectKind::Heal => {
            let amount = s.amount.unwrap_or(1);
            match (s.when, s.target) {
                (Some(_), _) => format!(
                    "When a hero is executed within {} inches, regain {amount} hit points.",
                    dist(s.radius)
                ),
                (None, Some(EffectTarget::Ally)) => format!(
                    "One hero within {} inches regains {amount} hit points.",
                    dist(s.range)
                ),
                _ => format!("Regain {amount} hit points."),
            }
        }
        EffectKind::Area => {
            let dice = s.dice.map_or(String::new(), |d| d.to_string());
            let cost = match s.damage {
                Some(d) if d > 1 => format!("; each hit costs {d} hit points"),
                _ => String::new(),
            };
            match (s.range, s.radius) {
                (Some(r), Some(rad)) => format!(
                    "Roll {dice} for each enemy within {} inches of a point within {} inches{cost}.",
                    inches(rad),
                    inches(r)
                ),
                _ => format!("Roll {dice} for every enemy engaged with the figure{cost}."),
            }
        }
        EffectKind::Stealth => format!(
            "Enemies do not see the figure beyond {} inches.",
            dist(s.radius)
        ),
        EffectKind::Cover => {
            let until = if s.lasts == Some(Lasts::Move) {
                " until it next moves"
            } else {
                ""
            };
            match (s.target, s.condition) {
                (Some(EffectTarget::Own), Some(Condition::Apart)) => format!(
                    "The figure counts as under cover while it is more than {} inches from any hero.",
                    dist(s.distance)
                ),
                (Some(EffectTarget::Own), _) => {
                    format!("The figure counts as under cover{until}.")
                }
                _ => format!(
                    "Allies within {} inches count as under cover{until}.",
                    dist(s.radius)
                ),
            }
        }
        EffectKind::Reroll => "Roll the failed dice of one attack again.".into(),
        EffectKind::Save => {
            let what = match s.against {
                Some(a) => format!("{} hit", attack_word(Some(a))),
                None => "hit".into(),
            };
            match (s.target, &s.trigger, s.hits) {
                (Some(EffectTarget::Ally), _, _) => format!(
                    "One ally within {} inches ignores all hits from the next enemy attack.",
                    dist(s.range)
                ),
                (_, Some(t), _) => format!("Each {what} against the figure is cancelled on a {t}."),
                (_, None, Some(1)) => {
                    format!("Ignore the first {what} the figure takes in each fight.")
                }
                (_, None, Some(n)) => {
                    format!("Ignore the first {n} {what}s the figure takes in each fight.")
                }
                (_, None, None) => format!("Ignore every {what} against the figure."),
            }
        }
        EffectKind::State => {
            let target = match s.target {
                Some(EffectTarget::Engaged) => "the engaged enemy".to_string(),
                Some(EffectTarget::Enemies) => {
                    format!("every enemy within {} inches", dist(s.radius))
                }
                _ => "the target".to_string(),
            };
            let what = match s.state.unwrap_or(StateKind::Held) {
                StateKind::Silenced => "cannot use skills".to_string(),
                StateKind::Held => "makes no attack".to_string(),
                StateKind::Disarmed => "loses its ranged attack".to_string(),
                StateKind::Hexed => format!("hits only on {}+", s.score.unwrap_or(6)),
            };
            let face = if s.face == Some(true) {
                " turns to face the figure and"
            } else {
                ""
            };
            let lasts = match s.lasts.unwrap_or(Lasts::Round) {
                Lasts::Fight => "for the rest of the fight",
                _ => "this turn",
            };
            roll(format!("{target}{face} {what} {lasts}."))
        }
        EffectKind::HitBonus => format!(
            "{} within {} inches hit on {} less (never better than 2+).",
            if s.target == Some(EffectTarget::Kin) {
                "Allies of its race"
            } else {
                "Allies"
            },
            dist(s.radius),
            s.amount.unwrap_or(1)
        ),
        EffectKind::Vision => format!(
            "Allies within {} inches add {} to their vision.",
            dist(s.radius),
            s.amount.unwrap_or(1)
        ),
        EffectKind::CaptureClock => roll(format!(
            "the engaged hero counts {} extra turn{} toward capture.",
            s.amount.unwrap_or(1),
            if s.amount.unwrap_or(1) == 1 { "" } else { "s" }
        )),
        EffectKind::HoldOut => format!(
            "Captured only after {} consecutive turns in close combat.",
            s.amount.unwrap_or(4)
        ),
        EffectKind::Silent => "Its close combat makes no noise.".into(),
        EffectKind::Hunt => "It always moves toward the nearest wounded hero it can see.".into(),
        EffectKind::KeepAway => format!(
            "No enemy may end its move within {} inches.",
            dist(s.radius)
        ),
    }
}

/// The numbers `s`'s data has, as a text may write them.
fn numbers(s: &Skill) -> Vec<String> {
    let mut n: Vec<String> = Vec::new();
    if let Some(t) = s.trigger_score() {
        n.push(t.to_string());
    }
    if let Some(d) = s.dice {
        n.push(d.count.to_string());
        n.push(d.min.to_string());
    }
    for v in [s.amount, s.damage, s.hits].into_iter().flatten() {
        n.push(v.to_string());
    }
    if let Some(v) = s.score {
        n.push(v.to_string());
    }
    if s.state == Some(StateKind::Hexed) && s.score.is_none() {
        n.push("6".into());
    }
    for v in [s.range, s.radius, s.distance].into_iter().flatten() {
        n.push(inches(v));
    }
    if let Some(Cycle::PerFight(k) | Cycle::PerGame(k)) = s.cycle() {
        n.push(k.to_string());
    }
    // "never better than 2+".
    if s.effect == Some(EffectKind::HitBonus) {
        n.push("2".into());
    }
    n
}

/// The numbers a text writes (digits, with a decimal point), in order.
fn text_numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() || (c == '.' && !cur.is_empty()) {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(cur.trim_end_matches('.').to_string());
            cur.clear();
        }
    }
    out
}

/// Number words a text may write for small amounts.
const WORDS: [&str; 7] = ["zero", "one", "two", "three", "four", "five", "six"];

/// Where `s`'s text and its data disagree, each said in words: a number the text writes
/// that the data does not have; a distance or an amount the data has that the text does
/// not write (in digits, or for 0 to 6 in words). A text-only skill has nothing to check
/// (`gaps` says it is not played).
pub fn audit(s: &Skill) -> Vec<String> {
    let (Some(kind), Some(text)) = (s.effect, s.text.as_deref()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let have = numbers(s);
    let said = text_numbers(text);
    for n in &said {
        if !have.contains(n) {
            out.push(format!("the text says {n}, but the skill's data does not"));
        }
    }
    let lower = text.to_lowercase();
    let written = |v: &str| {
        said.iter().any(|n| n == v)
            || v.parse::<usize>()
                .ok()
                .and_then(|k| WORDS.get(k))
                .is_some_and(|w| lower.split(|c: char| !c.is_alphanumeric()).any(|t| t == *w))
    };
    // A range to a point or an ally is often the figure's own reach, left unsaid.
    let mut must: Vec<(&str, String)> = Vec::new();
    if let Some(v) = s.radius {
        must.push(("radius", inches(v)));
    }
    if let Some(v) = s.distance {
        must.push(("distance", inches(v)));
    }
    if let Some(v) = s.amount
        && kind != EffectKind::HitBonus
    {
        must.push(("amount", v.to_string()));
    }
    if let Some(v) = s.damage
        && v > 1
    {
        must.push(("damage", v.to_string()));
    }
    for (key, v) in must {
        if !written(&v) {
            out.push(format!("its `{key}` is {v}, but the text does not say it"));
        }
    }
    out
}

/// Where `s`'s text and its `target` disagree, for a skill of a figure of race `race` (its
/// kin may be named by it: "Ghouls within 6 inches"). The data's target must be named (an
/// ally or a hero; the engaged enemy; the target or an enemy; every enemy; kin, "of its
/// race" or the race), and a text may not name a target the data's target rules out (an
/// ally for a skill on itself or on enemies; the engaged for one on itself, an ally or kin;
/// every enemy for one on the engaged or a single enemy; kin for any other). A skill on
/// itself names itself as it likes; a skill with no `target` is not checked.
pub fn audit_targets(s: &Skill, race: &str) -> Vec<String> {
    let (Some(_), Some(t), Some(text)) = (s.effect, s.target, s.text.as_deref()) else {
        return Vec::new();
    };
    let lower = text.to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |words: &[&str]| tokens.iter().any(|w| words.contains(w));
    let race = race.trim().to_lowercase();
    let ally = has(&["ally", "allies"]);
    let engaged = has(&["engaged"]);
    let every_enemy =
        has(&["enemies"]) || lower.contains("every enemy") || lower.contains("each enemy");
    let kin = has(&["kin"]) || lower.contains("of its race");
    let named = match t {
        EffectTarget::Own => true,
        EffectTarget::Ally => ally || has(&["hero"]),
        EffectTarget::Engaged => engaged,
        EffectTarget::Enemy => has(&["enemy", "target"]),
        EffectTarget::Enemies => every_enemy,
        EffectTarget::Kin => {
            kin || (!race.is_empty() && tokens.iter().any(|w| w.starts_with(race.as_str())))
        }
    };
    let word = crate::games::word(&t);
    let mut out = Vec::new();
    if !named {
        out.push(format!(
            "its `target` is {word}, but the text does not name it"
        ));
    }
    let ruled_out = [
        (
            ally,
            "an ally",
            &[
                EffectTarget::Own,
                EffectTarget::Engaged,
                EffectTarget::Enemy,
                EffectTarget::Enemies,
            ][..],
        ),
        (
            engaged,
            "the engaged",
            &[EffectTarget::Own, EffectTarget::Ally, EffectTarget::Kin][..],
        ),
        (
            every_enemy,
            "every enemy",
            &[EffectTarget::Engaged, EffectTarget::Enemy][..],
        ),
        (
            kin,
            "kin",
            &[
                EffectTarget::Own,
                EffectTarget::Ally,
                EffectTarget::Engaged,
                EffectTarget::Enemy,
                EffectTarget::Enemies,
            ][..],
        ),
    ];
    for (said, what, not_with) in ruled_out {
        if said && not_with.contains(&t) {
            out.push(format!(
                "the text names {what}, but the skill's `target` is {word}"
            ));
        }
    }
    out
}

/// Everything [`audit`] and [`audit_targets`] say of skill `s` of a figure of race `race`.
pub fn audit_of(s: &Skill, race: &str) -> Vec<String> {
    let mut out = audit(s);
    out.extend(audit_targets(s, race));
    out
}

/// Each skill of `f` whose text and data disagree: (`skills[i] (Name)`, why).
pub fn mismatches(f: &Figure) -> Vec<(String, String)> {
    f.skills
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            audit_of(s, &f.race)
                .into_iter()
                .map(move |why| (format!("skills[{i}] ({})", s.name), why))
        })
        .collect()
}

/// The Ruunara part of `docs/effects.md`: each form with its keys, template and example.
pub fn reference() -> String {
    let mut s = String::from(
        "## Ruunara\n\n\
         A skill's `effect` and the keys beside it (docs/cards.md, \"Skill effects\"). `deckwright \
         lint` holds a skill's text to its data: each number the text writes must be one of the \
         data's (its trigger, dice, amount, damage, hits, score, distances or cycle), and the \
         data's radius, distance, amount and damage must be written; and the text must name the \
         data's `target` (an ally or a hero, the engaged, the target or an enemy, every enemy, \
         kin or the race) and no target the data's rules out.\n\n\
         | form | keys | template | example |\n| --- | --- | --- | --- |\n",
    );
    for f in FORMS {
        s.push_str(&format!(
            "| `{}` | {} | {} | `{}` |\n",
            f.name, f.keys, f.template, f.example
        ));
    }
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(toml_text: &str) -> Skill {
        toml::from_str(toml_text).unwrap()
    }

    #[test]
    fn every_form_has_a_template_in_its_order() {
        let names: Vec<&str> = FORMS.iter().map(|f| f.name).collect();
        let kinds: Vec<&str> = EffectKind::ALL.iter().map(|k| k.as_str()).collect();
        assert_eq!(names, kinds);
    }

    #[test]
    fn every_bundled_skill_and_racial_skill_agrees_with_its_text() {
        let mut n = 0;
        for (f, text) in crate::cards::bundled() {
            if let Ok(crate::cards::CardFile::Card(crate::cards::Card::Ruunara(fig))) =
                crate::cards::parse(text, &f)
            {
                n += 1;
                assert_eq!(mismatches(&fig), Vec::new(), "{f}");
            }
        }
        assert_eq!(n, 14, "the bundled Ruunara cards");
        for race in super::super::races::races() {
            for s in &race.skills {
                assert_eq!(audit_of(s, &race.race), Vec::<String>::new(), "{}", s.name);
            }
        }
    }

    #[test]
    fn a_text_with_a_number_or_a_distance_its_data_does_not_have_is_flagged() {
        let s = skill(
            "name = 'Ward'\ncycle = 'constant'\ntext = 'No enemy may end its move within 4 inches.'\neffect = 'keep_away'\nradius = 3.0\n",
        );
        assert_eq!(
            audit(&s),
            vec![
                "the text says 4, but the skill's data does not".to_string(),
                "its `radius` is 3, but the text does not say it".to_string(),
            ]
        );
        // Written from its data, the text agrees.
        let mut s = s;
        s.text = Some(write(&s));
        assert_eq!(
            s.text.as_deref(),
            Some("No enemy may end its move within 3 inches.")
        );
        assert!(audit(&s).is_empty());
    }

    #[test]
    fn a_text_naming_another_target_than_its_data_is_flagged() {
        // Grave Chill on every enemy around: the text names only the engaged.
        let s = skill(
            "name = 'Chill'\ncycle = '1/F'\ntrigger = '5+'\ntext = 'Roll one die: on 5+, the engaged hero cannot use skills this turn.'\neffect = 'state'\nstate = 'silenced'\ntarget = 'enemies'\nradius = 3.0\n",
        );
        assert_eq!(
            audit_targets(&s, "wraith"),
            vec!["its `target` is enemies, but the text does not name it".to_string()]
        );
        // A cover of the figure itself whose text names allies.
        let s = skill(
            "name = 'Hide'\ncycle = 'constant'\ntext = 'Allies count as under cover.'\neffect = 'cover'\ntarget = 'self'\n",
        );
        assert_eq!(
            audit_targets(&s, "ghoul"),
            vec!["the text names an ally, but the skill's `target` is self".to_string()]
        );
        // Kin named by the race, or not at all.
        let mut s = skill(
            "name = 'Pack'\ncycle = 'constant'\ntext = 'Ghouls within 6 inches hit on one less (never better than 2+).'\neffect = 'hit_bonus'\namount = 1\nradius = 6.0\ntarget = 'kin'\n",
        );
        assert!(audit_of(&s, "ghoul").is_empty());
        assert_eq!(
            audit_of(&s, "wraith"),
            vec!["its `target` is kin, but the text does not name it".to_string()]
        );
        s.text = Some(write(&s));
        assert!(audit_of(&s, "wraith").is_empty(), "{:?}", s.text);
    }

    #[test]
    fn every_form_written_from_its_data_agrees_with_it() {
        for k in EffectKind::ALL {
            let mut s = Skill {
                name: "S".into(),
                cycle: "constant".into(),
                ..Skill::default()
            };
            super::super::edit::set_effect(&mut s, Some(k));
            s.text = Some(write(&s));
            assert!(!write(&s).is_empty(), "{k:?}");
            assert_eq!(
                audit_of(&s, ""),
                Vec::<String>::new(),
                "{k:?}: {:?}",
                s.text
            );
        }
    }
}

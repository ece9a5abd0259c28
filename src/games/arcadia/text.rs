//! An Arcadia card's rules text and its data, said the same way: each form (a merit, flaw or
//! icon effect, a waylay trial's failure effect, a league effect, a quest objective) has a
//! text template ([`FORMS`]), so a card's rules can be written from its data
//! ([`written`]); and a text is checked against its data ([`mismatches`]) for the numbers,
//! the tests (what an effect is aimed at), the terrain (where it counts) and the cost
//! (exhausting) it names that the data does not, or the reverse. Arcadia texts mix flavour
//! with rules: writing keeps the sentences that name none of these and writes the rules
//! sentences anew ([`compose`]).

use super::model::{
    ArcadiaCard, Effect, EffectForm, Failure, FailureEffect, LeagueEffect, LeagueForm, MeritType,
    Objective, Quest, TestKind, TrialOn, type_mask,
};
use crate::games::wording::Form;

/// Every form of an Arcadia card with its template (`docs/effects.md`).
pub const FORMS: &[Form] = &[
    Form {
        name: "bonus",
        keys: "`bonus`, `test`; optional `exhaust = true`",
        template: "+{bonus} to every {Test} test. / with exhaust: Exhaust to gain +{bonus} on one {Test} test.",
        example: "{ bonus = 2, test = \"savvy\", exhaust = true }",
    },
    Form {
        name: "penalty",
        keys: "`penalty`, `test` (flaws)",
        template: "Your opponent may exhaust this flaw: -{penalty} to one {Test} test.",
        example: "{ penalty = 2, test = \"resolve\" }",
    },
    Form {
        name: "retest",
        keys: "`retest = true`, `exhaust = true`; optional `lost_only = true`",
        template: "Exhaust to retest any test. / with lost_only: Exhaust to retest any test you have just lost.",
        example: "{ retest = true, exhaust = true }",
    },
    Form {
        name: "change_test",
        keys: "`change_test = true`, `exhaust = true`",
        template: "Exhaust to face a waylay with a different test, if the waylay has a value for it.",
        example: "{ change_test = true, exhaust = true }",
    },
    Form {
        name: "terrain (condition)",
        keys: "`terrain` on any effect above",
        template: "While you are in a league with a {terrain}, {effect} / a flaw: Your opponent may exhaust this flaw while you are in a league with a {terrain}: ...",
        example: "{ penalty = 2, test = \"might\", terrain = \"river\" }",
    },
    Form {
        name: "exhaust (failure)",
        keys: "waylay `trial.effect`: `exhaust = [types]` (empty: any)",
        template: "exhaust one {Type or Type | merit of your choice}",
        example: "{ exhaust = [\"art\", \"ability\"] }",
    },
    Form {
        name: "discard (failure)",
        keys: "waylay `trial.effect`: `discard = [types]` (empty: any)",
        template: "discard one {Type or Type | merit of your choice}",
        example: "{ discard = [] }",
    },
    Form {
        name: "skip_day (failure)",
        keys: "waylay `trial.effect`: `skip_day = true`",
        template: "skip your next Day",
        example: "{ skip_day = true }",
    },
    Form {
        name: "return_to_base (failure)",
        keys: "waylay `trial.effect`: `return_to_base = true`",
        template: "go back to your Base Camp; your Day ends",
        example: "{ return_to_base = true }",
    },
    Form {
        name: "lose_treasure (failure)",
        keys: "waylay `trial.effect`: `lose_treasure = true`",
        template: "drop a quest treasure where you stand",
        example: "{ lose_treasure = true }",
    },
    Form {
        name: "none (failure)",
        keys: "waylay `trial.effect`: `none = true`",
        template: "nothing happens",
        example: "{ none = true }",
    },
    Form {
        name: "forbid_merits (league)",
        keys: "league `effects`: `forbid_merits = [types]`",
        template: "A character may not use {a Type or a Type} while in this league.",
        example: "{ forbid_merits = [\"art\"] }",
    },
    Form {
        name: "forbid_ratings (league)",
        keys: "league `effects`: `forbid_ratings = [N, ..]`",
        template: "No waylay of rating {N or N} may be played here.",
        example: "{ forbid_ratings = [1] }",
    },
    Form {
        name: "modify (league)",
        keys: "league `effects`: `modify`, `test`",
        template: "{+N | -N} to every {Test} test taken here.",
        example: "{ modify = -1, test = \"might\" }",
    },
    Form {
        name: "trial (league)",
        keys: "league `effects`: `trial = { attribute, difficulty }`, `on` (stay, rest)",
        template: "A character who {stays here | rests here} first takes a {Test} trial of difficulty {N}; failing it ends the Day {| without the Rest}.",
        example: "{ trial = { attribute = \"resolve\", difficulty = 5 }, on = \"rest\" }",
    },
    Form {
        name: "rest_extra (league)",
        keys: "league `effects`: `rest_extra`, `types`",
        template: "A character who rests here recovers {N} exhausted {Type or Type | merits} in addition to the Rest.",
        example: "{ rest_extra = 1, types = [\"ally\"] }",
    },
    Form {
        name: "look_at_treasures (league)",
        keys: "league `effects`: `look_at_treasures`",
        template: "A character who rests here may look at {N} face-down treasure(s).",
        example: "{ look_at_treasures = 1 }",
    },
    Form {
        name: "reach (objective)",
        keys: "quest `objective`: `reach = \"<league id>\"`",
        template: "reach {the league}",
        example: "{ reach = \"arc-l-starfall-orchard\" }",
    },
    Form {
        name: "reach_terrain (objective)",
        keys: "quest `objective`: `reach_terrain = \"<feature>\"`",
        template: "reach a league with {feature}",
        example: "{ reach_terrain = \"ocean\" }",
    },
    Form {
        name: "collect_treasures (objective)",
        keys: "quest `objective`: `collect_treasures = N`",
        template: "collect {N} treasures",
        example: "{ collect_treasures = 3 }",
    },
    Form {
        name: "defeat_waylays (objective)",
        keys: "quest `objective`: `defeat_waylays = N`",
        template: "defeat {N} waylays",
        example: "{ defeat_waylays = 3 }",
    },
    Form {
        name: "return_to_base (objective)",
        keys: "quest `objective`: `return_to_base = true`",
        template: "return home to your Base Camp (`false`: go where you will, it always holds)",
        example: "{ return_to_base = true }",
    },
    Form {
        name: "hold_treasures (objective)",
        keys: "quest `objective`: `hold_treasures = N`",
        template: "hold {N} treasures",
        example: "{ hold_treasures = 2 }",
    },
    Form {
        name: "in_terrain (objective)",
        keys: "quest `objective`: `in_terrain = \"<feature>\"`",
        template: "stand in a league with {feature}",
        example: "{ in_terrain = \"mountains\" }",
    },
    Form {
        name: "all (objective)",
        keys: "quest `objective`: `all = [objectives]`",
        template: "{a}, {b} and {c}",
        example: "{ all = [ { reach = \"arc-l-lantern-market\" }, { return_to_base = true } ] }",
    },
    Form {
        name: "any (objective)",
        keys: "quest `objective`: `any = [objectives]`",
        template: "{a}, or else {b}",
        example: "{ any = [ { reach_terrain = \"ocean\" }, { defeat_waylays = 2 } ] }",
    },
    Form {
        name: "then (objective)",
        keys: "quest `objective`: `then = [objectives]`",
        template: "first {a}, then {b}",
        example: "{ then = [ { collect_treasures = 1 }, { return_to_base = true } ] }",
    },
    Form {
        name: "time_limit (quest)",
        keys: "quest `time_limit = N` (Days)",
        template: "{objective} before the end of your Day {N}",
        example: "time_limit = 24",
    },
];

/// A test kind as a text names it (`Might`).
fn test_word(t: TestKind) -> &'static str {
    match t {
        TestKind::Might => "Might",
        TestKind::Savvy => "Savvy",
        TestKind::Resolve => "Resolve",
        TestKind::Combat => "Combat",
    }
}

/// A merit type as a text names it (`Art`).
fn type_word(t: MeritType) -> &'static str {
    match t {
        MeritType::Ability => "Ability",
        MeritType::Advantage => "Advantage",
        MeritType::Ally => "Ally",
        MeritType::Art => "Art",
        MeritType::Treasure => "Treasure",
    }
}

fn or_list(words: &[String]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

fn and_list(words: &[String]) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.concat(),
    }
}

fn capitalized(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The sentence of one effect form under the table's condition (`flaw`: the card is a flaw,
/// whose penalty the opponent exhausts).
fn effect_sentence(f: EffectForm, terrain: Option<&str>) -> String {
    let body = match f {
        EffectForm::Bonus {
            by,
            test,
            exhaust: false,
        } => format!("+{by} to every {} test.", test_word(test)),
        EffectForm::Bonus {
            by,
            test,
            exhaust: true,
        } => format!("exhaust to gain +{by} on one {} test.", test_word(test)),
        EffectForm::Penalty { by, test } => {
            let when = terrain.map_or(String::new(), |t| {
                format!(" while you are in a league with a {t}")
            });
            return format!(
                "Your opponent may exhaust this flaw{when}: -{by} to one {} test.",
                test_word(test)
            );
        }
        EffectForm::Retest { lost_only: false } => "exhaust to retest any test.".into(),
        EffectForm::Retest { lost_only: true } => {
            "exhaust to retest any test you have just lost.".into()
        }
        EffectForm::ChangeTest => {
            "exhaust to face a waylay with a different test, if the waylay has a value for it."
                .into()
        }
    };
    match terrain {
        Some(t) => format!("While you are in a league with a {t}, {body}"),
        None => capitalized(&body),
    }
}

/// The rules sentences of merit, flaw or icon effects, one a form.
pub fn write_effects(effects: &[Effect]) -> String {
    let mut out = Vec::new();
    for e in effects {
        for f in e.forms() {
            out.push(effect_sentence(f, e.condition()));
        }
    }
    out.join(" ")
}

/// "one Art or Ability", "one merit of your choice".
fn which_merit(types: &[MeritType]) -> String {
    if types.is_empty() || type_mask(types) == 0b11111 {
        "one merit of your choice".into()
    } else {
        let w: Vec<String> = types.iter().map(|t| type_word(*t).to_string()).collect();
        format!("one {}", or_list(&w))
    }
}

/// The words of a waylay trial's failure effect (lower case: it follows the card's own
/// opening, "The thorns tear at you: ...").
pub fn write_failure(fx: &FailureEffect) -> String {
    if let Some(t) = &fx.exhaust {
        return format!("exhaust {}", which_merit(t));
    }
    if let Some(t) = &fx.discard {
        return format!("discard {}", which_merit(t));
    }
    match fx.form() {
        Some(Failure::SkipDay) => "skip your next Day".into(),
        Some(Failure::ReturnToBase) => "go back to your Base Camp; your Day ends".into(),
        Some(Failure::LoseTreasure) => "drop a quest treasure where you stand".into(),
        _ => "nothing happens".into(),
    }
}

/// The sentence of one league effect.
fn league_sentence(f: LeagueForm<'_>) -> String {
    let types = |t: &[MeritType], article: bool| -> String {
        let w: Vec<String> = t
            .iter()
            .map(|t| {
                let w = type_word(*t);
                match (article, w.starts_with(['A', 'E', 'I', 'O', 'U'])) {
                    (false, _) => w.to_string(),
                    (true, true) => format!("an {w}"),
                    (true, false) => format!("a {w}"),
                }
            })
            .collect();
        or_list(&w)
    };
    match f {
        LeagueForm::ForbidMerits(t) => format!(
            "A character may not use {} while in this league.",
            if t.is_empty() {
                "a merit".into()
            } else {
                types(t, true)
            }
        ),
        LeagueForm::ForbidRatings(r) => {
            let w: Vec<String> = r.iter().map(i32::to_string).collect();
            format!("No waylay of rating {} may be played here.", or_list(&w))
        }
        LeagueForm::Modify { by, test } => {
            format!("{by:+} to every {} test taken here.", test_word(test))
        }
        LeagueForm::Trial { trial, on } => {
            let (who, ends) = match on {
                TrialOn::Stay => ("stays here", "ends the Day"),
                TrialOn::Rest => ("rests here", "ends the Day without the Rest"),
            };
            format!(
                "A character who {who} first takes a {} trial of difficulty {}; failing it {ends}.",
                test_word(trial.attribute),
                trial.difficulty
            )
        }
        LeagueForm::RestExtra { more, types: t } => format!(
            "A character who rests here recovers {} exhausted {} in addition to the Rest.",
            count_word(more),
            if t.is_empty() {
                if more == 1 { "merit" } else { "merits" }.to_string()
            } else {
                types(t, false)
            }
        ),
        LeagueForm::LookAtTreasures(n) => format!(
            "A character who rests here may look at {} face-down {}.",
            count_word(n),
            if n == 1 { "treasure" } else { "treasures" }
        ),
    }
}

/// The rules sentences of a league's effects (its `special`).
pub fn write_league(effects: &[LeagueEffect]) -> String {
    let s: Vec<String> = effects
        .iter()
        .filter_map(LeagueEffect::form)
        .map(league_sentence)
        .collect();
    s.join(" ")
}

const NUMBER_WORDS: [&str; 13] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve",
];

/// A count as a text says it: a word up to twelve, digits beyond.
fn count_word(n: u32) -> String {
    NUMBER_WORDS
        .get(n as usize)
        .map_or(n.to_string(), |w| w.to_string())
}

/// A league id's words (`arc-l-lantern-market`: "Lantern Market").
fn league_words(id: &str) -> String {
    let rest = id.strip_prefix("arc-l-").unwrap_or(id);
    let w: Vec<String> = rest.split('-').map(capitalized).collect();
    w.join(" ")
}

fn objective_clause(o: &Objective) -> String {
    match o {
        Objective::Reach(id) => format!("reach the {}", league_words(id)),
        Objective::ReachTerrain(t) => format!("reach a league with {t}"),
        Objective::CollectTreasures(n) => format!(
            "collect {} {}",
            count_word(*n),
            if *n == 1 { "treasure" } else { "treasures" }
        ),
        Objective::DefeatWaylays(n) => format!(
            "defeat {} {}",
            count_word(*n),
            if *n == 1 { "waylay" } else { "waylays" }
        ),
        Objective::ReturnToBase(true) => "return home to your Base Camp".into(),
        // `false` asks nothing: it always holds.
        Objective::ReturnToBase(false) => "go where you will".into(),
        Objective::HoldTreasures(n) => format!(
            "hold {} {}",
            count_word(*n),
            if *n == 1 { "treasure" } else { "treasures" }
        ),
        Objective::InTerrain(t) => format!("stand in a league with {t}"),
        Objective::All(v) => and_list(&v.iter().map(objective_clause).collect::<Vec<_>>()),
        Objective::Any(v) => {
            let parts: Vec<String> = v.iter().map(objective_clause).collect();
            parts.join(", or else ")
        }
        Objective::Then(v) => {
            let parts: Vec<String> = v.iter().map(objective_clause).collect();
            match parts.split_first() {
                Some((first, rest)) if !rest.is_empty() => {
                    format!("first {first}, then {}", rest.join(", then "))
                }
                _ => parts.concat(),
            }
        }
    }
}

/// The rules sentence of a quest: its objective and its time limit.
pub fn write_quest(q: &Quest) -> String {
    let mut s = capitalized(&objective_clause(&q.objective));
    if let Some(n) = q.time_limit {
        s.push_str(&format!(" before the end of your Day {n}"));
    }
    s.push('.');
    s
}

/// The sentences of a text (each with its stop).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let b = text.as_bytes();
    for (i, c) in text.char_indices() {
        if matches!(c, '.' | '!' | '?') && b.get(i + 1).is_none_or(|n| *n == b' ') {
            let s = text[start..=i].trim();
            if !s.is_empty() {
                out.push(s);
            }
            start = i + 1;
        }
    }
    let tail = text[start..].trim();
    if !tail.is_empty() {
        out.push(tail);
    }
    out
}

/// Does a sentence name anything a rules check reads (a number, a test, a merit type, the
/// cost of exhausting, a terrain condition)? A sentence that names none is flavour.
fn names_rules(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    s.chars().any(|c| c.is_ascii_digit())
        || !text_tests(s).is_empty()
        || !text_types(s).is_empty()
        || lower.contains("exhaust")
        || lower.contains("retest")
        || lower.contains("in a league with")
}

/// `text` with its rules sentences replaced by `rules`: the sentences that name nothing a
/// check reads (flavour) are kept in their order, and `rules` goes where the first rules
/// sentence was (after a title it opened with, "Brawler's Pride: ..."), or last. What the
/// editor's *Write text from effects* writes.
pub fn compose(text: &str, rules: &str) -> String {
    compose_with(text, rules, names_rules)
}

fn compose_with(text: &str, rules: &str, is_rules: impl Fn(&str) -> bool) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut placed = rules.is_empty();
    for s in sentences(text) {
        if !is_rules(s) {
            out.push(s.to_string());
        } else if !placed {
            placed = true;
            let title = s
                .split_once(':')
                .map(|(t, _)| t.trim())
                .filter(|t| !t.is_empty() && t.split(' ').count() <= 4 && !is_rules(t));
            out.push(match title {
                Some(t) => format!("{t}: {rules}"),
                None => rules.to_string(),
            });
        }
    }
    if !placed {
        out.push(rules.to_string());
    }
    out.join(" ")
}

/// The card with every rules text written from its data ([`compose`], so flavour stays):
/// a merit's or flaw's text from its effects, an icon's ability, a league's `special` from
/// its effects, a waylay trial's failure, a quest's text from its objective. `None` when the
/// card has no data to write from.
pub fn written(card: &ArcadiaCard) -> Option<ArcadiaCard> {
    let mut c = card.clone();
    match &mut c {
        ArcadiaCard::Merit(m) if !m.effects.is_empty() => {
            m.text = compose(&m.text, &write_effects(&m.effects));
        }
        ArcadiaCard::Flaw(f) if !f.effects.is_empty() => {
            f.text = compose(&f.text, &write_effects(&f.effects));
        }
        ArcadiaCard::Icon(i) if !i.effects.is_empty() => {
            i.ability = compose(&i.ability, &write_effects(&i.effects));
        }
        ArcadiaCard::League(l) if !l.effects.is_empty() => {
            let old = l.special.clone().unwrap_or_default();
            l.special = Some(compose(&old, &write_league(&l.effects)));
        }
        ArcadiaCard::Waylay(w) => {
            let t = w.trial.as_mut()?;
            let fx = t.effect.as_ref()?;
            let rules = write_failure(fx);
            let old = t.failure.clone().unwrap_or_default();
            // The failure's own opening ("The thorns tear at you:") is kept.
            let opening = old.split_once(':').map(|(o, _)| o.trim());
            t.failure = Some(match opening {
                Some(o) if !o.is_empty() => format!("{o}: {rules}."),
                _ => format!("{}.", capitalized(&rules)),
            });
        }
        ArcadiaCard::Quest(q) => {
            let mut numbers = Vec::new();
            let mut places = Vec::new();
            objective_parts(&q.objective, &mut numbers, &mut places);
            let rules = write_quest(q);
            // A quest's rules sentences are those naming a count, a place of its objective
            // or a time limit.
            q.text = compose_with(&q.text, &rules, |s| {
                let lower = s.to_ascii_lowercase();
                names_rules(s)
                    || !text_numbers(s, true).is_empty()
                    || places
                        .iter()
                        .any(|(_, w)| w.iter().any(|w| lower.contains(w.as_str())))
                    || lower.contains("before")
                    || lower.contains("within")
            });
        }
        _ => return None,
    }
    (c != *card).then_some(c)
}

// ---- the check ----

/// Where a text and its data disagree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// Which text: `text`, `ability`, `special`, `trial.failure`.
    pub part: String,
    /// What disagrees, in words.
    pub why: String,
}

/// The numbers a text says: digits, and with `words` the number words up to twelve.
fn text_numbers(text: &str, words: bool) -> Vec<i64> {
    let mut out: Vec<i64> = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty() && w.len() <= 6)
        .filter_map(|w| w.parse().ok())
        .collect();
    if words {
        for w in text
            .to_ascii_lowercase()
            .split(|c: char| !c.is_ascii_alphabetic())
        {
            if let Some(n) = NUMBER_WORDS.iter().skip(1).position(|x| *x == w) {
                out.push(n as i64 + 1);
            }
        }
    }
    out
}

/// The tests a text names (capitalised, as the cards write them: "you might" is no test).
fn text_tests(text: &str) -> Vec<TestKind> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    TestKind::ALL
        .into_iter()
        .filter(|t| words.contains(&test_word(*t)))
        .collect()
}

/// The merit types a text names (capitalised; a plural too).
fn text_types(text: &str) -> Vec<MeritType> {
    let words: Vec<&str> = text
        .split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| !w.is_empty())
        .collect();
    MeritType::ALL
        .into_iter()
        .filter(|t| {
            let w = type_word(*t);
            let plural = match w.strip_suffix('y') {
                Some(stem) => format!("{stem}ies"),
                None => format!("{w}s"),
            };
            words.iter().any(|x| *x == w || *x == plural)
        })
        .collect()
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

/// "an effect", "a league effect".
fn a(what: &str) -> String {
    if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
        format!("an {what}")
    } else {
        format!("a {what}")
    }
}

/// Numbers said against numbers had; `optional` numbers may be said without being required.
fn check_numbers(said: &[i64], had: &[i64], optional: &[i64], out: &mut Vec<String>, what: &str) {
    for n in dedup(said) {
        if !had.contains(&n) && !optional.contains(&n) {
            out.push(format!("the text says {n}, but no {what} does"));
        }
    }
    for n in dedup(had) {
        if !said.contains(&n) {
            out.push(format!("{} has {n}, but the text does not say it", a(what)));
        }
    }
}

fn check_tests(said: &[TestKind], had: &[TestKind], out: &mut Vec<String>, what: &str) {
    for t in said {
        if !had.contains(t) {
            out.push(format!(
                "the text names {} tests, but no {what} is aimed at them",
                test_word(*t)
            ));
        }
    }
    for t in dedup(had) {
        if !said.contains(&t) {
            out.push(format!(
                "{} is aimed at {} tests, but the text does not name them",
                a(what),
                test_word(t)
            ));
        }
    }
}

/// What a merit's, flaw's or icon ability's text names that its effects do not, and the
/// reverse: the numbers (bonus, penalty), the tests aimed at, the cost (exhausting, a retest),
/// the terrain an effect counts in; and an effect that applies to no test.
pub fn audit_effects(text: &str, effects: &[Effect]) -> Vec<String> {
    let mut out = Vec::new();
    let mut numbers = Vec::new();
    let mut tests = Vec::new();
    let mut exhausts = false;
    let mut retest = None;
    let mut change = false;
    for (i, e) in effects.iter().enumerate() {
        if (e.bonus.is_some() || e.penalty.is_some()) && e.test.is_none() {
            out.push(format!(
                "effect {} has a bonus or penalty but no `test`: it applies to no test",
                i + 1
            ));
        }
        for f in e.forms() {
            exhausts |= f.exhausts();
            match f {
                EffectForm::Bonus { by, test, .. } | EffectForm::Penalty { by, test } => {
                    numbers.push(i64::from(by));
                    tests.push(test);
                }
                EffectForm::Retest { lost_only } => {
                    retest = Some(retest.unwrap_or(false) || lost_only)
                }
                EffectForm::ChangeTest => change = true,
            }
        }
    }
    check_numbers(
        &text_numbers(text, false),
        &numbers,
        &[],
        &mut out,
        "effect",
    );
    check_tests(&text_tests(text), &tests, &mut out, "effect");
    let lower = text.to_ascii_lowercase();
    let says_exhaust = lower.contains("exhaust");
    if says_exhaust && !exhausts {
        out.push("the text says to exhaust the card, but no effect costs that".into());
    } else if exhausts && !says_exhaust {
        out.push("an effect is used by exhausting the card, but the text does not say so".into());
    }
    let says_retest = lower.contains("retest");
    match (retest, says_retest) {
        (Some(_), false) => {
            out.push("an effect gives a retest, but the text does not say so".into())
        }
        (None, true) => out.push("the text says retest, but no effect gives one".into()),
        (Some(lost_only), true) => {
            if lost_only != lower.contains("lost") {
                out.push(if lost_only {
                    "the retest is only of a test just lost, but the text does not say so".into()
                } else {
                    "the text limits the retest to a lost test, but the effect does not".into()
                });
            }
        }
        (None, false) => {}
    }
    let says_change = lower.contains("different test");
    if change != says_change {
        out.push(if change {
            "an effect changes the test, but the text does not say so".into()
        } else {
            "the text says a different test, but no effect changes the test".into()
        });
    }
    let terrains: Vec<&str> = effects.iter().filter_map(Effect::condition).collect();
    for t in &terrains {
        if !lower.contains(&t.to_ascii_lowercase()) {
            out.push(format!(
                "an effect counts only in a league with {t}, but the text does not say so"
            ));
        }
    }
    if terrains.is_empty() && lower.contains("in a league with") {
        out.push("the text names a league's terrain, but no effect has a `terrain`".into());
    }
    out
}

/// What a waylay trial's failure text names that its effect does not, and the reverse:
/// exhausting or discarding, and the merit types.
pub fn audit_failure(text: &str, fx: &FailureEffect) -> Vec<String> {
    let mut out = Vec::new();
    let lower = text.to_ascii_lowercase();
    let (verb, types) = match (&fx.exhaust, &fx.discard) {
        (Some(t), _) => (Some("exhaust"), t.as_slice()),
        (_, Some(t)) => (Some("discard"), t.as_slice()),
        _ => (None, &[][..]),
    };
    for v in ["exhaust", "discard"] {
        let says = lower.contains(v);
        if says && verb != Some(v) {
            out.push(format!("the text says {v}, but the effect does not"));
        } else if !says && verb == Some(v) {
            out.push(format!(
                "the effect is to {v} a merit, but the text does not say so"
            ));
        }
    }
    let named = text_types(text);
    let all = types.is_empty() || type_mask(types) == 0b11111;
    for t in &named {
        if all || !types.contains(t) {
            out.push(format!(
                "the text names {}, but the effect does not take one",
                type_word(*t)
            ));
        }
    }
    if !all {
        for t in types {
            if !named.contains(t) {
                out.push(format!(
                    "the effect takes {}, but the text does not name it",
                    type_word(*t)
                ));
            }
        }
    }
    let checks: [(Failure, &str, &str); 3] = [
        (Failure::SkipDay, "skip", "skipping a Day"),
        (
            Failure::ReturnToBase,
            "base camp",
            "going back to the Base Camp",
        ),
        (Failure::LoseTreasure, "treasure", "dropping a treasure"),
    ];
    let form = fx.form();
    for (f, word, what) in checks {
        let says = lower.contains(word);
        if form == Some(f) && !says {
            out.push(format!(
                "the effect is {what}, but the text does not say so"
            ));
        } else if form != Some(f) && says && verb.is_none() {
            out.push(format!("the text says {what}, but the effect does not"));
        }
    }
    out
}

/// What a league's `special` names that its effects do not, and the reverse: the numbers
/// (ratings, counts, difficulties, modifiers), the merit types and the tests.
pub fn audit_league(text: &str, effects: &[LeagueEffect]) -> Vec<String> {
    let mut out = Vec::new();
    let mut numbers = Vec::new();
    let mut types = Vec::new();
    let mut tests = Vec::new();
    for f in effects.iter().filter_map(LeagueEffect::form) {
        match f {
            LeagueForm::ForbidMerits(t) => types.extend_from_slice(t),
            LeagueForm::ForbidRatings(r) => numbers.extend(r.iter().map(|n| i64::from(*n))),
            LeagueForm::Modify { by, test } => {
                numbers.push(i64::from(by.abs()));
                tests.push(test);
            }
            LeagueForm::Trial { trial, .. } => {
                numbers.push(i64::from(trial.difficulty));
                tests.push(trial.attribute);
            }
            LeagueForm::RestExtra { more, types: t } => {
                numbers.push(i64::from(more));
                types.extend_from_slice(t);
            }
            LeagueForm::LookAtTreasures(n) => numbers.push(i64::from(n)),
        }
    }
    check_numbers(
        &text_numbers(text, true),
        &numbers,
        &[],
        &mut out,
        "league effect",
    );
    check_tests(&text_tests(text), &tests, &mut out, "league effect");
    let named = text_types(text);
    for t in &named {
        if !types.contains(t) {
            out.push(format!(
                "the text names {}, but no league effect does",
                type_word(*t)
            ));
        }
    }
    for t in dedup(&types) {
        if !named.contains(&t) {
            out.push(format!(
                "a league effect takes {}, but the text does not name it",
                type_word(t)
            ));
        }
    }
    out
}

/// The words a text may use for a terrain feature ("sea" for `ocean`).
fn feature_words(feature: &str) -> Vec<String> {
    let f = feature.to_ascii_lowercase();
    let mut out = vec![f.clone()];
    if let Some(stem) = f.strip_suffix('s') {
        out.push(stem.to_string());
    }
    let more: &[&str] = match f.as_str() {
        "ocean" => &["sea", "coast"],
        "forest" => &["wood"],
        "swamp" => &["marsh", "fen", "bog"],
        "fields" => &["meadow"],
        _ => &[],
    };
    out.extend(more.iter().map(|s| s.to_string()));
    out
}

fn objective_parts(o: &Objective, numbers: &mut Vec<i64>, places: &mut Vec<(String, Vec<String>)>) {
    match o {
        Objective::Reach(id) => places.push((
            format!("the league {id}"),
            vec![league_words(id).to_ascii_lowercase()],
        )),
        Objective::ReachTerrain(t) | Objective::InTerrain(t) => {
            places.push((format!("terrain {t}"), feature_words(t)))
        }
        Objective::CollectTreasures(n)
        | Objective::DefeatWaylays(n)
        | Objective::HoldTreasures(n) => numbers.push(i64::from(*n)),
        Objective::ReturnToBase(true) => places.push((
            "the Base Camp".into(),
            vec!["home".into(), "base camp".into()],
        )),
        Objective::ReturnToBase(false) => {}
        Objective::All(v) | Objective::Any(v) | Objective::Then(v) => {
            for x in v {
                objective_parts(x, numbers, places);
            }
        }
    }
}

/// What a quest's text names that its objective and time limit do not, and the reverse: the
/// counts (as digits or words), the places (a league by its name, a terrain, home), and a
/// time limit ("before ..." or "within ...": the number of Days may be left unsaid).
pub fn audit_quest(q: &Quest) -> Vec<String> {
    let mut out = Vec::new();
    let mut numbers = Vec::new();
    let mut places = Vec::new();
    objective_parts(&q.objective, &mut numbers, &mut places);
    let optional: Vec<i64> = q.time_limit.map(i64::from).into_iter().collect();
    check_numbers(
        &text_numbers(&q.text, true),
        &numbers,
        &optional,
        &mut out,
        "objective",
    );
    let lower = q.text.to_ascii_lowercase();
    for (what, words) in places {
        if !words.iter().any(|w| lower.contains(w.as_str())) {
            out.push(format!(
                "the objective needs {what}, but the text does not name it"
            ));
        }
    }
    let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphabetic()).collect();
    let says_limit = words.contains(&"before") || words.contains(&"within");
    match (q.time_limit, says_limit) {
        (Some(n), false) => out.push(format!(
            "the quest has a time limit of {n} Days, but the text does not say so"
        )),
        (None, true) => {
            out.push("the text sets a time limit, but the quest has no `time_limit`".into())
        }
        _ => {}
    }
    out
}

/// Every rules text of a card checked against its data.
pub fn mismatches(card: &ArcadiaCard) -> Vec<Mismatch> {
    let mk = |part: &str, v: Vec<String>| -> Vec<Mismatch> {
        v.into_iter()
            .map(|why| Mismatch {
                part: part.into(),
                why,
            })
            .collect()
    };
    match card {
        ArcadiaCard::Merit(m) => mk("text", audit_effects(&m.text, &m.effects)),
        ArcadiaCard::Flaw(f) => mk("text", audit_effects(&f.text, &f.effects)),
        ArcadiaCard::Icon(i) => mk("ability", audit_effects(&i.ability, &i.effects)),
        ArcadiaCard::League(l) => match &l.special {
            Some(s) if !l.effects.is_empty() => mk("special", audit_league(s, &l.effects)),
            None if !l.effects.is_empty() => mk(
                "special",
                vec!["the league has effects, but no `special` text says them".into()],
            ),
            _ => Vec::new(),
        },
        ArcadiaCard::Waylay(w) => match w.trial.as_ref() {
            Some(t) => match (&t.failure, &t.effect) {
                (Some(text), Some(fx)) => mk("trial.failure", audit_failure(text, fx)),
                (None, Some(fx)) if fx.form().is_some_and(|f| f != Failure::Nothing) => mk(
                    "trial.failure",
                    vec!["the trial's failure has an effect, but no `failure` text says it".into()],
                ),
                _ => Vec::new(),
            },
            None => Vec::new(),
        },
        ArcadiaCard::Quest(q) => mk("text", audit_quest(q)),
    }
}

// ---- the reference ----

fn bundled() -> Vec<ArcadiaCard> {
    crate::cards::bundled()
        .into_iter()
        .filter_map(|(path, text)| match crate::cards::parse_card(text, &path) {
            Ok(crate::cards::Card::Arcadia(c)) => Some(c),
            _ => None,
        })
        .collect()
}

fn objective_has(o: &Objective, key: &str) -> bool {
    let mine = match o {
        Objective::Reach(_) => "reach",
        Objective::ReachTerrain(_) => "reach_terrain",
        Objective::CollectTreasures(_) => "collect_treasures",
        Objective::DefeatWaylays(_) => "defeat_waylays",
        Objective::ReturnToBase(_) => "return_to_base",
        Objective::HoldTreasures(_) => "hold_treasures",
        Objective::InTerrain(_) => "in_terrain",
        Objective::All(_) => "all",
        Objective::Any(_) => "any",
        Objective::Then(_) => "then",
    };
    mine == key
        || match o {
            Objective::All(v) | Objective::Any(v) | Objective::Then(v) => {
                v.iter().any(|x| objective_has(x, key))
            }
            _ => false,
        }
}

/// Does a card use the form named `name` (as [`FORMS`] names it)?
fn uses_form(c: &ArcadiaCard, name: &str) -> bool {
    let (key, group) = match name.split_once(" (") {
        Some((k, g)) => (k, g.trim_end_matches(')')),
        None => (name, "effect"),
    };
    let effects = match c {
        ArcadiaCard::Merit(m) => m.effects.as_slice(),
        ArcadiaCard::Flaw(f) => &f.effects,
        ArcadiaCard::Icon(i) => &i.effects,
        _ => &[],
    };
    match (group, c) {
        ("effect", _) => effects
            .iter()
            .flat_map(Effect::forms)
            .any(|f| f.key() == key),
        ("condition", _) => effects.iter().any(|e| e.condition().is_some()),
        ("failure", ArcadiaCard::Waylay(w)) => w
            .trial
            .as_ref()
            .and_then(|t| t.effect.as_ref())
            .is_some_and(|fx| {
                let k = match fx.form() {
                    Some(Failure::Exhaust(_)) => "exhaust",
                    Some(Failure::Discard(_)) => "discard",
                    Some(Failure::SkipDay) => "skip_day",
                    Some(Failure::ReturnToBase) => "return_to_base",
                    Some(Failure::LoseTreasure) => "lose_treasure",
                    Some(Failure::Nothing) => "none",
                    None => "",
                };
                k == key
            }),
        ("league", ArcadiaCard::League(l)) => l.forms().any(|f| f.key() == key),
        ("objective", ArcadiaCard::Quest(q)) => objective_has(&q.objective, key),
        ("quest", ArcadiaCard::Quest(q)) => key == "time_limit" && q.time_limit.is_some(),
        _ => false,
    }
}

/// The Arcadia section of `docs/effects.md`: every form with its keys, its template and a
/// bundled card with it.
pub fn reference() -> String {
    let mut s = String::from(
        "## Arcadia\n\nA merit's, flaw's or icon's `effects` (each table one form; the \
         condition `terrain` may go on any), a waylay trial's failure `effect`, a league's \
         `effects` (its `special` as data) and a quest's `objective` (a tree) with its \
         `time_limit`. A text may add flavour: *Write text from effects* keeps the sentences \
         that name no number, test, merit type, terrain or cost, and writes the others from \
         the templates. `deckwright lint` checks the numbers (digits, and number words in \
         quests and leagues), the tests, the merit types, exhausting, retests and changes of \
         test, and the terrain and places a text names against its data.\n\n\
         | form | keys | text template | example | a bundled card with it |\n\
         | --- | --- | --- | --- | --- |\n",
    );
    let cards = bundled();
    for f in FORMS {
        let card = cards
            .iter()
            .find(|c| uses_form(c, f.name))
            .map_or("none".to_string(), |c| {
                let (id, name, _) = c.common();
                format!("{name} (`{id}`)")
            });
        s.push_str(&format!(
            "| `{}` | {} | {} | `{}` | {card} |\n",
            f.name,
            f.keys,
            f.template.replace('|', "\\|"),
            f.example
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::{Card, parse_card};

    fn card(text: &str) -> ArcadiaCard {
        match parse_card(text, "t.toml") {
            Ok(Card::Arcadia(c)) => c,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_bundled_arcadia_text_agrees_with_its_data() {
        let mut all = Vec::new();
        for c in bundled() {
            for m in mismatches(&c) {
                all.push(format!("{} {}: {}", c.common().0, m.part, m.why));
            }
        }
        assert!(all.is_empty(), "{}", all.join("\n"));
    }

    #[test]
    fn a_written_text_agrees_with_its_data_and_keeps_the_flavour() {
        for c in bundled() {
            let Some(w) = written(&c) else { continue };
            let m = mismatches(&w);
            assert!(m.is_empty(), "{}: {m:?}\n{w:?}", c.common().0);
        }
        let c = bundled()
            .into_iter()
            .find(|c| c.common().0 == "arc-m-borrowed-face")
            .unwrap();
        // Already in the template's words: writing changes nothing.
        assert_eq!(written(&c), None);
    }

    #[test]
    fn effect_texts_are_written_from_the_templates() {
        let fx = |t: &str| {
            #[derive(serde::Deserialize)]
            struct E {
                effects: Vec<Effect>,
            }
            toml::from_str::<E>(t).unwrap().effects
        };
        assert_eq!(
            write_effects(&fx(
                r#"effects = [ { bonus = 2, test = "savvy", exhaust = true } ]"#
            )),
            "Exhaust to gain +2 on one Savvy test."
        );
        assert_eq!(
            write_effects(&fx(
                r#"effects = [ { penalty = 2, test = "might", terrain = "river" } ]"#
            )),
            "Your opponent may exhaust this flaw while you are in a league with a river: -2 to one Might test."
        );
        assert_eq!(
            write_effects(&fx(
                r#"effects = [ { bonus = 1, test = "combat", terrain = "forest" } ]"#
            )),
            "While you are in a league with a forest, +1 to every Combat test."
        );
        assert_eq!(
            compose(
                "A sly old fox. Exhaust to gain +3 on one Might test.",
                "Exhaust to gain +2 on one Savvy test."
            ),
            "A sly old fox. Exhaust to gain +2 on one Savvy test."
        );
    }

    #[test]
    fn a_text_naming_what_no_effect_does_is_flagged_and_the_reverse() {
        let merit = |text: &str, effects: &str| {
            card(&format!(
                "game = \"arcadia\"\nkind = \"merit\"\nid = \"m\"\nname = \"M\"\ntext = \"{text}\"\nmerit_type = \"advantage\"\ncost = 2\neffects = {effects}\n"
            ))
        };
        let whys =
            |c: &ArcadiaCard| -> Vec<String> { mismatches(c).into_iter().map(|m| m.why).collect() };
        // A number.
        let c = merit(
            "+2 to every Might test.",
            r#"[ { bonus = 1, test = "might" } ]"#,
        );
        assert_eq!(
            whys(&c),
            vec![
                "the text says 2, but no effect does".to_string(),
                "an effect has 1, but the text does not say it".to_string()
            ]
        );
        // A target (the test aimed at).
        let c = merit(
            "+1 to every Savvy test.",
            r#"[ { bonus = 1, test = "might" } ]"#,
        );
        assert_eq!(whys(&c).len(), 2, "{:?}", whys(&c));
        // A cost.
        let c = merit(
            "+1 to every Might test.",
            r#"[ { bonus = 1, test = "might", exhaust = true } ]"#,
        );
        assert_eq!(
            whys(&c),
            vec![
                "an effect is used by exhausting the card, but the text does not say so"
                    .to_string()
            ]
        );
        // A distance (where it counts).
        let c = merit(
            "+1 to every Might test.",
            r#"[ { bonus = 1, test = "might", terrain = "river" } ]"#,
        );
        assert_eq!(whys(&c).len(), 1, "{:?}", whys(&c));
        let c = merit(
            "While you are in a league with a river, +1 to every Might test.",
            r#"[ { bonus = 1, test = "might" } ]"#,
        );
        assert_eq!(whys(&c).len(), 1, "{:?}", whys(&c));
        // A quest's count and time limit.
        let q = card(
            "game = \"arcadia\"\nkind = \"quest\"\nid = \"q\"\nname = \"Q\"\ntext = \"Defeat four waylays.\"\nwaylay_rating = 5\ntreasure_rating = 3\nexperience = 1\ntime_limit = 9\nobjective = { defeat_waylays = 3 }\n",
        );
        assert_eq!(whys(&q).len(), 3, "{:?}", whys(&q));
        let ArcadiaCard::Quest(quest) = &q else {
            panic!()
        };
        let w = written(&q).unwrap();
        assert_eq!(whys(&w), Vec::<String>::new(), "{w:?}");
        let ArcadiaCard::Quest(wq) = &w else { panic!() };
        assert_eq!(
            wq.text,
            "Defeat three waylays before the end of your Day 9."
        );
        assert_ne!(wq.text, quest.text);
    }

    #[test]
    fn every_form_is_listed_with_a_bundled_card_where_one_has_it() {
        let r = reference();
        for f in FORMS {
            assert!(r.contains(&format!("| `{}` |", f.name)), "{}", f.name);
        }
        // The forms every bundled card set shows.
        for name in [
            "bonus",
            "penalty",
            "retest",
            "change_test",
            "exhaust (failure)",
        ] {
            let row = r
                .lines()
                .find(|l| l.starts_with(&format!("| `{name}` |")))
                .unwrap();
            assert!(!row.ends_with("| none |"), "{row}");
        }
    }
}

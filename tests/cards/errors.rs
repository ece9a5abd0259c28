//! Every card kind of the spec loads; every typo is an error naming file, line, column, key.

use deckwright::cards::{self, CardError, CardFile};

const CHARACTER: &str = r#"game = "iconica"
kind = "character"
id = "ico-test"
name = "Test"
series = "Core"
number = "001"
faction = "legion"
race = "human"
archetype = "Mercenary"
class = "offensive"
type = "rare"

[health]
start = 100
parry = [90, 40]
reaction = { "80" = 10 }

[[actions]]
roll = [1, 2]
name = "One"
kind = "melee"
text = "Hit."
effects = [ { damage = 20, target = "foe" } ]

[[actions]]
roll = [3, 4]
name = "Two"
kind = "status"
text = "Poison."
effects = [ { inflict = "poison", target = "foe" } ]

[[actions]]
roll = [5, 6]
name = "Three"
kind = "healing"
text = "Heal."
effects = [ { heal = 20, target = "friend" } ]
"#;

const ICON: &str = "game = \"arcadia\"\nkind = \"icon\"\nid = \"arc-naga\"\nname = \"Naga\"\ntext = \"t\"\nrace = \"naga\"\ngender = \"male\"\nmight = 3\nsavvy = 2\nresolve = 1\nability = \"Swims.\"\n";
const MERIT: &str = "game = \"arcadia\"\nkind = \"merit\"\nid = \"arc-m\"\nname = \"M\"\ntext = \"t\"\nmerit_type = \"ability\"\ncost = 2\nattribute = \"might\"\ncourt = \"seelie\"\neffects = [ { bonus = 1, test = \"savvy\", exhaust = true } ]\n";
const FLAW: &str = "game = \"arcadia\"\nkind = \"flaw\"\nid = \"arc-f\"\nname = \"F\"\ntext = \"t\"\nflaw_type = \"weakness\"\npoints = 2\ncourt = \"unseelie\"\neffects = [ { penalty = 1, test = \"resolve\" } ]\n";
const WAYLAY: &str = "game = \"arcadia\"\nkind = \"waylay\"\nid = \"arc-w\"\nname = \"W\"\ntext = \"t\"\nrating = 3\nterrain = [\"any\"]\ntests = [\"might\", \"combat\"]\nmight = 4\ncombat = 5\ntrial = { attribute = \"savvy\", difficulty = 5, failure = \"Lose a day.\" }\n";
const LEAGUE: &str = "game = \"arcadia\"\nkind = \"league\"\nid = \"arc-l\"\nname = \"L\"\ntext = \"t\"\nterrain = [\"forest\"]\nsides = { north = [\"road\"], east = [\"forest\"], south = [\"ocean\"], west = [\"city-wall\"] }\nenter = { attribute = \"might\", difficulty = 4 }\nrest = [\"ally\", \"flaw\"]\nunique = true\n";
const QUEST: &str = "game = \"arcadia\"\nkind = \"quest\"\nid = \"arc-q\"\nname = \"Q\"\ntext = \"t\"\nwaylay_rating = 6\ntreasure_rating = 3\nexperience = 2\nobjective = { all = [ { reach = \"arc-l\" }, { any = [ { collect_treasures = 2 }, { return_to_base = true } ] } ] }\n";
const ELEMENT: &str = "game = \"iconoclasm\"\nkind = \"element\"\nid = \"icl-fw\"\nname = \"Fire/Water\"\nfront = \"fire\"\nback = \"water\"\nset = \"fire\"\n";
const CLASHES: &str = "game = \"iconoclasm\"\nkind = \"clashes\"\n\n[[clash]]\nelement = \"fire\"\nflips = \"earth\"\nmutual = \"water\"\n\n[[clash]]\nelement = \"earth\"\nflips = \"water\"\nmutual = \"air\"\n\n[[clash]]\nelement = \"water\"\nflips = \"air\"\nmutual = \"fire\"\n\n[[clash]]\nelement = \"air\"\nflips = \"fire\"\nmutual = \"earth\"\n";
const HERO: &str = "game = \"ruunara\"\nkind = \"hero\"\nid = \"ruu-h\"\nname = \"H\"\nrace = \"ardann\"\nfaction = \"ally\"\nhp = 4\nmovement = 6\nvision = 12\nclose = \"3D4+\"\nranged = \"2D5+\"\nranged_range = 18\n\n[[skills]]\nname = \"Aim\"\ncycle = \"1/F\"\ntrigger = \"5+\"\ntext = \"Kill.\"\n\n[[skills]]\nname = \"Stand\"\ncycle = \"constant\"\n";
const UNIT: &str = "game = \"ruunara\"\nkind = \"unit\"\nid = \"ruu-u\"\nname = \"U\"\nrace = \"goblin\"\nfaction = \"enemy\"\nhp = 1\nmovement = 5\nvision = 8\nclose = \"1D5+\"\n";

fn err(text: &str) -> CardError {
    cards::parse(text, "card.toml").expect_err("should be rejected")
}

fn at(e: &CardError, line: usize, key: &str) {
    assert_eq!(e.file, "card.toml");
    assert_eq!((e.line, e.key.as_deref()), (line, Some(key)), "{e}");
    assert!(e.column >= 1);
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("card.toml:{line}:{}: key `{key}`", e.column)),
        "{shown}"
    );
}

#[test]
fn every_kind_loads_and_writes_back() {
    for text in [
        CHARACTER, ICON, MERIT, FLAW, WAYLAY, LEAGUE, QUEST, ELEMENT, HERO, UNIT,
    ] {
        let card = cards::parse_card(text, "card.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(
            cards::parse_card(&card.to_toml(), "again.toml").unwrap(),
            card
        );
    }
    let CardFile::Clashes(t) = cards::parse(CLASHES, "clashes.toml").unwrap() else {
        panic!("clash table")
    };
    assert_eq!(
        cards::parse(&t.to_toml(), "x").unwrap(),
        CardFile::Clashes(t)
    );
}

#[test]
fn unknown_keys_are_errors_in_every_kind() {
    for text in [
        CHARACTER, ICON, MERIT, FLAW, WAYLAY, LEAGUE, QUEST, ELEMENT, HERO, UNIT, CLASHES,
    ] {
        let typo = text.replacen("\n", "\nflavour_txt = \"oops\"\n", 1);
        at(&err(&typo), 2, "flavour_txt");
    }
    at(
        &err(&CHARACTER.replace("parry = [90, 40]", "pary = [90, 40]")),
        15,
        "pary",
    );
    at(
        &err(&HERO.replace("trigger = \"5+\"", "triger = \"5+\"")),
        17,
        "triger",
    );
}

#[test]
fn wrong_types_and_values_outside_their_set_are_errors() {
    at(
        &err(&CHARACTER.replace("start = 100", "start = \"100\"")),
        14,
        "start",
    );
    at(
        &err(&CHARACTER.replace("faction = \"legion\"", "faction = \"legions\"")),
        7,
        "faction",
    );
    at(&err(&MERIT.replace("cost = 2", "cost = 2.5")), 7, "cost");
    at(
        &err(&WAYLAY.replace("rating = 3", "rating = [3]")),
        6,
        "rating",
    );
    at(
        &err(&ELEMENT.replace("back = \"water\"", "back = \"wood\"")),
        6,
        "back",
    );
    at(
        &err(&UNIT.replace("close = \"1D5+\"", "close = \"1d5\"")),
        10,
        "close",
    );
    at(
        &err(&ICON.replace("kind = \"icon\"", "kind = \"hero\"")),
        2,
        "kind",
    );
    at(
        &err(&ICON.replace("id = \"arc-naga\"", "id = \"Arc Naga\"")),
        3,
        "id",
    );
}

#[test]
fn rolls_covered_twice_or_not_at_all_are_errors() {
    let twice = CHARACTER.replace("roll = [5, 6]", "roll = [4, 5, 6]");
    let e = err(&twice);
    at(&e, 33, "roll");
    assert!(
        e.message.contains("roll 4") && e.message.contains("twice"),
        "{e}"
    );
    let missing = CHARACTER.replace("roll = [5, 6]", "roll = [5]");
    let e = err(&missing);
    assert!(e.message.contains("no action covers roll 6"), "{e}");
    assert_eq!(e.key.as_deref(), Some("roll"));
    let repeated = CHARACTER.replace("roll = [1, 2]", "roll = [1, 1, 2]");
    assert!(err(&repeated).message.contains("twice"));
    let seven = CHARACTER.replace("roll = [5, 6]", "roll = [5, 6, 7]");
    at(&err(&seven), 33, "roll");
}

#[test]
fn health_tiles_must_be_multiples_of_ten_strictly_inside_the_meter() {
    for bad in ["[95]", "[0]", "[100]", "[110]"] {
        let e = err(&CHARACTER.replace("parry = [90, 40]", &format!("parry = {bad}")));
        at(&e, 15, "parry");
    }
    at(
        &err(&CHARACTER.replace("{ \"80\" = 10 }", "{ \"85\" = 10 }")),
        16,
        "reaction",
    );
    at(
        &err(&CHARACTER.replace("start = 100", "start = 105")),
        14,
        "start",
    );
}

#[test]
fn other_checks_name_their_key() {
    at(&err(&HERO.replace("ranged_range = 18\n", "")), 11, "ranged");
    at(
        &err(&HERO.replace("race = \"ardann\"", "race = \"goblin\"")),
        5,
        "race",
    );
    at(
        &err(&MERIT.replace("court = \"seelie\"\n", "")),
        6,
        "merit_type",
    );
    at(
        &err(&LEAGUE.replace("\"ally\", \"flaw\"", "\"ally\", \"nap\"")),
        9,
        "rest",
    );
    let e = err(&CLASHES.replacen("element = \"air\"", "element = \"fire\"", 1));
    assert_eq!(e.key.as_deref(), Some("element"), "{e}");
}

#[test]
fn a_bad_second_skill_points_at_that_skill() {
    at(
        &err(&HERO.replace("cycle = \"constant\"", "cycle = \"always\"")),
        22,
        "cycle",
    );
}

/// Issue 14: card text as data (league effects, waylay failure effects, flaw conditions,
/// `then` objectives) is as strict as every other key.
#[test]
fn card_text_as_data_is_strict() {
    let league = |effects: &str| format!("{LEAGUE}effects = {effects}\n");
    let waylay = |effect: &str| {
        WAYLAY.replace(
            "failure = \"Lose a day.\" }",
            &format!("failure = \"Lose a day.\", effect = {effect} }}"),
        )
    };
    // Every form loads.
    for e in [
        r#"[ { forbid_merits = ["art", "ally"] } ]"#,
        r#"[ { forbid_ratings = [1, 2] } ]"#,
        r#"[ { modify = -1, test = "savvy" } ]"#,
        r#"[ { trial = { attribute = "resolve", difficulty = 5 }, on = "rest" } ]"#,
        r#"[ { rest_extra = 1, types = ["ally"] } ]"#,
    ] {
        cards::parse(&league(e), "card.toml").unwrap_or_else(|err| panic!("{e}: {err}"));
    }
    for e in [
        r#"{ exhaust = ["art", "ability"] }"#,
        r#"{ discard = [] }"#,
        "{ skip_day = true }",
        "{ return_to_base = true }",
        "{ lose_treasure = true }",
        "{ none = true }",
    ] {
        cards::parse(&waylay(e), "card.toml").unwrap_or_else(|err| panic!("{e}: {err}"));
    }
    cards::parse(
        &FLAW.replace(
            "test = \"resolve\" }",
            "test = \"resolve\", terrain = \"river\" }",
        ),
        "card.toml",
    )
    .unwrap();
    cards::parse(&QUEST.replace("{ all = [", "{ then = ["), "card.toml").unwrap();

    // Unknown keys and bad values name line and key.
    at(
        &err(&league(r#"[ { forbid_merit = ["art"] } ]"#)),
        11,
        "forbid_merit",
    );
    at(
        &err(&league(r#"[ { forbid_merits = ["arts"] } ]"#)),
        11,
        "forbid_merits",
    );
    at(
        &err(&league(
            r#"[ { trial = { attribute = "resolve", difficulty = 5 }, on = "sleep" } ]"#,
        )),
        11,
        "on",
    );
    at(&err(&waylay(r#"{ exhaust = ["spell"] }"#)), 11, "exhaust");
    at(&err(&waylay("{ skip_days = true }")), 11, "skip_days");
    at(
        &err(&FLAW.replace(
            "test = \"resolve\" }",
            "test = \"resolve\", terain = \"river\" }",
        )),
        9,
        "terain",
    );
    // A table that is not exactly one form, or a form missing its partner key.
    at(
        &err(&league(
            r#"[ { forbid_ratings = [1], modify = 1, test = "might" } ]"#,
        )),
        11,
        "effects",
    );
    at(&err(&league("[ { modify = 1 } ]")), 11, "effects");
    at(
        &err(&league(
            r#"[ { trial = { attribute = "might", difficulty = 4 } } ]"#,
        )),
        11,
        "effects",
    );
    at(
        &err(&waylay(r#"{ skip_day = true, exhaust = [] }"#)),
        11,
        "trial",
    );
    at(&err(&waylay("{ }")), 11, "trial");
    let e = err(&QUEST.replace("{ all = [", "{ than = ["));
    assert_eq!((e.line, e.key.as_deref()), (9, Some("objective")), "{e}");
    assert!(e.message.contains("then"), "{e}");
}

/// Issue #27 item 4: a merit's effect that does nothing (`effects = [ {} ]`), and a retest or
/// a change of test without `exhaust = true` (which `docs/cards.md` pairs with them), are
/// refused with the line of `effects`; the paired forms load.
#[test]
fn an_empty_effect_and_a_retest_or_change_of_test_without_exhaust_are_refused() {
    let effects = "effects = [ { bonus = 1, test = \"savvy\", exhaust = true } ]";
    for (bad, says) in [
        ("effects = [ {} ]", "needs one of"),
        ("effects = [ { exhaust = true } ]", "needs one of"),
        (
            "effects = [ { retest = true } ]",
            "`retest = true` goes with `exhaust = true`",
        ),
        (
            "effects = [ { change_test = true, exhaust = false } ]",
            "`change_test = true` goes with `exhaust = true`",
        ),
    ] {
        let e = err(&MERIT.replace(effects, bad));
        at(&e, 10, "effects");
        assert!(e.to_string().contains(says), "{bad}: {e}");
        let e = err(&FLAW.replace("effects = [ { penalty = 1, test = \"resolve\" } ]", bad));
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
    for good in [
        "effects = [ { retest = true, exhaust = true } ]",
        "effects = [ { retest = true, exhaust = true, lost_only = true } ]",
        "effects = [ { change_test = true, exhaust = true } ]",
        "effects = [ { bonus = 2, test = \"combat\" } ]",
    ] {
        cards::parse(&MERIT.replace(effects, good), "card.toml").expect(good);
    }
}

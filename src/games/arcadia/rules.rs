//! Arcadia build rules (`spec/arcadia.md`; rules card 1 "Building Your Character", card 3
//! "Setting the Stage", card 4 "Winning the Game"): pure checks of character files and
//! quest setups over catalogue cards, with the derived figures a player sees.

use std::collections::HashMap;

use serde::Serialize;

use crate::cards::{Card, CardLookup, Game};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::model::{
    ArcadiaCard, Court, Flaw, FlawType, Icon, League, Merit, MeritType, Quest, Side, Waylay,
};
use crate::games::arcadia::setup::{Pos, SetupFile};
use crate::games::build::{self, Resolved, Violation};

/// The rule ids of a character, in the order violations are reported.
pub const CHARACTER_RULES: [&str; 7] =
    ["icon-count", "flaw-cap", "merit-budget", "court-undeclared", "court-mismatch", "wrong-kind", "unknown-card"];

/// The rule ids a setup adds, in the order violations are reported (after the characters').
pub const SETUP_RULES: [&str; 5] =
    ["waylay-budget", "treasure-budget", "league-count", "unique-league", "league-placement"];

/// The starting build points (and the cap on flaw points).
pub const START_POINTS: i32 = 10;
/// Leagues each player lays per quest undertaken.
pub const LEAGUES_PER_QUEST: usize = 5;

const SRC_ICON: &str =
    "Arcadia rules card 1 (rules/004), \"Building Your Character\", Step 1: Select Your Race (one Character Icon)";
const SRC_POINTS: &str = "Arcadia rules card 1 (rules/004), \"Building Your Character\", Step 2: Select Your Merits and Flaws (10 free points)";
const SRC_BUDGET: &str = "Arcadia rules card 1 (rules/004), \"Building Your Character\", Step 2: Select Your Merits and Flaws; card 4, \"Winning the Game\" (experience)";
const SRC_COURT: &str = "Arcadia rules card 1 (rules/004), \"Building Your Character\", Step 3: Your Court";
const SRC_KIND: &str =
    "deckwright spec (spec/arcadia.md), \"Build rules\": each list holds cards of its own kind";
const SRC_UNKNOWN: &str =
    "deckwright spec (spec/arcadia.md), \"Build rules\": a listed card must be in the catalogue";
const SRC_WAYLAY: &str = "Arcadia rules card 3 (rules/004), \"Setting the Stage\", 2: Select and play Quests (Waylays up to the opponent's Waylay Rating); card 4, \"Winning the Game\" (experience bonus)";
const SRC_TREASURE: &str = "Arcadia rules card 3 (rules/004), \"Setting the Stage\", 2: Select and play Quests (Treasures up to your Treasure Rating)";
const SRC_LEAGUES: &str =
    "Arcadia rules card 3 (rules/004), \"Setting the Stage\", 3: Select and play Leagues (5 Leagues per Quest)";
const SRC_UNIQUE: &str =
    "Arcadia rules card 3 (rules/004), \"Setting the Stage\", 3: Select and play Leagues (Unique Leagues)";
const SRC_PLACEMENT: &str = "Arcadia rules card 3 (rules/004), \"Setting the Stage\", 3: Select and play Leagues (feature matching feature, Borders, Ocean, City Walls); edge rule of spec/arcadia.md";

/// How the character's court was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CourtBasis {
    /// More Abilities and Weaknesses of one court.
    Majority,
    /// A tie, settled by the declared `court`.
    Declared,
    /// A tie with no `court` given.
    Undecided,
}

/// The figures shown with a character's verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Derived {
    /// 10 + flaw points (at most 10) + experience available.
    pub points_available: i32,
    /// The merits' cost total.
    pub points_spent: i32,
    /// Available minus spent (negative when over budget).
    pub points_left: i32,
    /// The flaws' point total (bought-off flaws included).
    pub flaw_points: i32,
    /// Seelie and Unseelie Abilities plus Weaknesses.
    pub seelie: u32,
    pub unseelie: u32,
    /// The court, when decided.
    pub court: Option<Court>,
    pub court_decided_by: CourtBasis,
    pub xp_earned: u32,
    /// Points of the flaws bought off.
    pub xp_bought_off: i32,
    /// Bought-off flaw points plus the merit cost above 10 + flaw points (at most 10).
    pub xp_spent: i32,
    /// Earned minus spent (negative when overspent).
    pub xp_saved: i32,
    /// +1 Waylay Rating on this character's quests for every 2 experience spent.
    pub waylay_bonus: i32,
}

/// The verdict on one character, with its resolved cards.
#[derive(Debug, Clone, PartialEq)]
pub struct CharacterReport {
    pub violations: Vec<Violation>,
    pub derived: Derived,
    pub icon: Option<Icon>,
    /// The merits and flaws that resolved to cards of their kind, in file order.
    pub merits: Vec<Merit>,
    pub flaws: Vec<Flaw>,
}

impl CharacterReport {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// The verdict on a quest setup: its own violations (each player's character violations
/// first, prefixed with the player), and each player's character report.
#[derive(Debug, Clone, PartialEq)]
pub struct SetupReport {
    pub violations: Vec<Violation>,
    pub characters: Vec<CharacterReport>,
}

impl SetupReport {
    pub fn is_legal(&self) -> bool {
        self.violations.is_empty()
    }
}

/// A list entry resolved to an Arcadia card of the wanted kind, or the violation saying why not.
pub(crate) fn resolve_kind<T>(
    lookup: &dyn CardLookup,
    entry: &str,
    list: &str,
    wanted: &str,
    pick: impl Fn(&ArcadiaCard) -> Option<&T>,
) -> Result<T, Violation>
where
    T: Clone,
{
    let resolved = build::resolve(lookup, Game::Arcadia, entry);
    match &resolved {
        Resolved::Found(card) => {
            if let Card::Arcadia(a) = card.as_ref()
                && let Some(x) = pick(a)
            {
                return Ok(x.clone());
            }
            let what = match card.as_ref() {
                Card::Arcadia(ArcadiaCard::Merit(m)) => format!("a merit of type {}", m.merit_type.as_str()),
                Card::Arcadia(a) => format!("a{} {}", if a.kind().starts_with(['a', 'e', 'i', 'o', 'u']) { "n" } else { "" }, a.kind()),
                other => format!("a card of {} ({}), not of Arcadia", other.game().title(), other.kind()),
            };
            Err(Violation::new(
                "wrong-kind",
                format!("`{entry}` in `{list}` is {}, {what}; `{list}` takes {wanted}", build::label(card)),
                vec![card.id().to_string()],
                SRC_KIND,
            ))
        }
        _ => Err(Violation::new(
            "unknown-card",
            build::unknown_message(entry, &format!("`{list}` takes {wanted}"), Game::Arcadia, &resolved),
            vec![entry.to_string()],
            SRC_UNKNOWN,
        )),
    }
}

/// Keeps a resolved card, or records why the entry names none.
fn keep<T>(out: &mut Vec<Violation>, r: Result<T, Violation>) -> Option<T> {
    r.map_err(|v| out.push(v)).ok()
}

/// `keep`, prefixing the violation's message with the player it concerns.
fn keep_prefixed<T>(out: &mut Vec<Violation>, who: &str, r: Result<T, Violation>) -> Option<T> {
    keep(
        out,
        r.map_err(|mut v| {
            v.message = format!("{who}: {}", v.message);
            v
        }),
    )
}

fn court_name(c: Court) -> &'static str {
    match c {
        Court::Seelie => "Seelie",
        Court::Unseelie => "Unseelie",
    }
}

fn named(name: &str, id: &str) -> String {
    format!("{name} ({id})")
}

/// Checks one character: every build rule of rules card 1, with experience (card 4).
pub fn check_character(character: &CharacterFile, lookup: &dyn CardLookup) -> CharacterReport {
    let mut kind_violations = Vec::new();

    let icon = character.icon.as_deref().and_then(|entry| {
        keep(&mut kind_violations, resolve_kind(lookup, entry, "icon", "a Character Icon", |a| match a {
            ArcadiaCard::Icon(i) => Some(i),
            _ => None,
        }))
    });
    let merits: Vec<Merit> = character
        .merits
        .iter()
        .filter_map(|e| {
            keep(&mut kind_violations, resolve_kind(lookup, e, "merits", "merit cards", |a| match a {
                ArcadiaCard::Merit(m) => Some(m),
                _ => None,
            }))
        })
        .collect();
    let flaws: Vec<Flaw> = character
        .flaws
        .iter()
        .filter_map(|e| {
            keep(&mut kind_violations, resolve_kind(lookup, e, "flaws", "flaw cards", |a| match a {
                ArcadiaCard::Flaw(f) => Some(f),
                _ => None,
            }))
        })
        .collect();
    let bought: Vec<Flaw> = character
        .flaws_bought_off
        .iter()
        .filter_map(|e| {
            keep(&mut kind_violations, resolve_kind(lookup, e, "flaws_bought_off", "flaw cards also listed in `flaws`", |a| match a {
                ArcadiaCard::Flaw(f) => Some(f),
                _ => None,
            }))
        })
        .collect();

    let mut violations = Vec::new();
    let who = character.display_name();

    if character.icon.is_none() {
        violations.push(Violation::new(
            "icon-count",
            format!("{who} has no Character Icon; add `icon = \"<icon id>\"` (a character has exactly one)"),
            Vec::new(),
            SRC_ICON,
        ));
    }

    let flaw_points: i32 = flaws.iter().map(|f| f.points).sum();
    if flaw_points > START_POINTS {
        violations.push(Violation::new(
            "flaw-cap",
            format!(
                "the flaws total {flaw_points} points ({}); at most {START_POINTS} points of flaws may be taken",
                flaws.iter().map(|f| format!("{} {}", named(&f.name, &f.id), f.points)).collect::<Vec<_>>().join(", ")
            ),
            flaws.iter().map(|f| f.id.clone()).collect(),
            SRC_POINTS,
        ));
    }

    // Bought-off flaws: each distinct flaw that is also listed in `flaws`.
    let mut bought_ids: Vec<&str> = Vec::new();
    let mut unlisted = Vec::new();
    for f in &bought {
        if !flaws.iter().any(|x| x.id == f.id) {
            unlisted.push(f);
        } else if !bought_ids.contains(&f.id.as_str()) {
            bought_ids.push(&f.id);
        }
    }
    let xp_bought_off: i32 = bought_ids
        .iter()
        .map(|id| flaws.iter().find(|f| f.id == *id).map_or(0, |f| f.points))
        .sum();
    let xp_earned = character.xp_earned as i32;
    let base = START_POINTS + flaw_points.min(START_POINTS);
    let available = base + xp_earned - xp_bought_off;
    let spent: i32 = merits.iter().map(|m| m.cost).sum();
    let xp_spent = xp_bought_off + (spent - base).max(0);

    if spent > available {
        violations.push(Violation::new(
            "merit-budget",
            format!(
                "the merits cost {spent} points ({}) but only {available} are available ({START_POINTS} starting + {} from flaws + {} experience available); drop {} points of merits{}",
                merits.iter().map(|m| format!("{} {}", named(&m.name, &m.id), m.cost)).collect::<Vec<_>>().join(", "),
                flaw_points.min(START_POINTS),
                xp_earned - xp_bought_off,
                spent - available,
                if flaw_points > START_POINTS { " (flaws count for at most 10 points)" } else { "" }
            ),
            merits.iter().map(|m| m.id.clone()).collect(),
            SRC_BUDGET,
        ));
    }
    if xp_bought_off > xp_earned {
        violations.push(Violation::new(
            "merit-budget",
            format!(
                "buying off {} costs {xp_bought_off} experience but only {xp_earned} was earned",
                bought_ids.join(", ")
            ),
            bought_ids.iter().map(|s| s.to_string()).collect(),
            SRC_BUDGET,
        ));
    }
    for f in unlisted {
        violations.push(Violation::new(
            "merit-budget",
            format!(
                "{} is in `flaws_bought_off` but not in `flaws`; a bought-off flaw stays listed in `flaws` too",
                named(&f.name, &f.id)
            ),
            vec![f.id.clone()],
            SRC_BUDGET,
        ));
    }

    // Court: Abilities and Weaknesses.
    let mut court_cards: Vec<(String, Court)> = Vec::new();
    for m in &merits {
        if let (MeritType::Ability, Some(c)) = (m.merit_type, m.court) {
            court_cards.push((m.id.clone(), c));
        }
    }
    for f in &flaws {
        if let (FlawType::Weakness, Some(c)) = (f.flaw_type, f.court) {
            court_cards.push((f.id.clone(), c));
        }
    }
    let seelie = court_cards.iter().filter(|(_, c)| *c == Court::Seelie).count() as u32;
    let unseelie = court_cards.len() as u32 - seelie;
    let listing = |cs: &[(String, Court)]| {
        if cs.is_empty() {
            "none".to_string()
        } else {
            cs.iter().map(|(id, c)| format!("{id} {}", court_name(*c))).collect::<Vec<_>>().join(", ")
        }
    };
    let majority = match seelie.cmp(&unseelie) {
        std::cmp::Ordering::Greater => Some(Court::Seelie),
        std::cmp::Ordering::Less => Some(Court::Unseelie),
        std::cmp::Ordering::Equal => None,
    };
    let (court, court_decided_by) = match (majority, character.court) {
        (Some(m), declared) => {
            if let Some(d) = declared.filter(|d| *d != m) {
                violations.push(Violation::new(
                    "court-mismatch",
                    format!(
                        "court = \"{}\" is declared, but the Abilities and Weaknesses are {seelie} Seelie to {unseelie} Unseelie ({}), so {who} is {}; remove `court` or set it to \"{}\"",
                        court_name(d).to_lowercase(),
                        listing(&court_cards),
                        court_name(m),
                        court_name(m).to_lowercase()
                    ),
                    court_cards.iter().map(|(id, _)| id.clone()).collect(),
                    SRC_COURT,
                ));
            }
            (Some(m), CourtBasis::Majority)
        }
        (None, Some(d)) => (Some(d), CourtBasis::Declared),
        (None, None) => {
            violations.push(Violation::new(
                "court-undeclared",
                format!(
                    "Seelie and Unseelie Abilities and Weaknesses are tied {seelie} to {unseelie} ({}); choose a court with `court = \"seelie\"` or `court = \"unseelie\"`",
                    listing(&court_cards)
                ),
                court_cards.iter().map(|(id, _)| id.clone()).collect(),
                SRC_COURT,
            ));
            (None, CourtBasis::Undecided)
        }
    };

    // wrong-kind and unknown-card last, in the order of CHARACTER_RULES.
    kind_violations.sort_by_key(|v| v.rule != "wrong-kind");
    violations.extend(kind_violations);

    let derived = Derived {
        points_available: available,
        points_spent: spent,
        points_left: available - spent,
        flaw_points,
        seelie,
        unseelie,
        court,
        court_decided_by,
        xp_earned: character.xp_earned,
        xp_bought_off,
        xp_spent,
        xp_saved: xp_earned - xp_spent,
        waylay_bonus: xp_spent.max(0) / 2,
    };
    CharacterReport { violations, derived, icon, merits, flaws }
}

/// One side of a league: `fits(x, y)` of `spec/arcadia.md`, or why it fails.
fn fits(x: &[String], y: &[String]) -> Result<(), &'static str> {
    let has = |s: &[String], f: &str| s.iter().any(|v| v == f);
    if has(x, "border") {
        if has(y, "ocean") { Ok(()) } else { Err("a border lies only beside ocean") }
    } else if has(x, "ocean") {
        if has(y, "ocean") || has(y, "border") { Ok(()) } else { Err("ocean lies only beside ocean or a border") }
    } else if has(x, "city-wall") {
        if has(y, "border") { Err("a city wall never lies beside a border") } else { Ok(()) }
    } else if x.iter().any(|f| y.contains(f)) || has(y, "city-wall") {
        Ok(())
    } else {
        Err("the sides share no feature")
    }
}

/// Do two facing sides fit (both ways)? `Err` says why not.
pub fn sides_fit(a: &[String], b: &[String]) -> Result<(), &'static str> {
    fits(a, b)?;
    fits(b, a)
}

fn side_text(s: &[String]) -> String {
    format!("[{}]", s.join(", "))
}

/// Checks a quest setup: each player's character (`characters[i]` is player i+1's file),
/// budgets, league count, unique leagues and league placement.
pub fn check_setup(setup: &SetupFile, characters: &[CharacterFile], lookup: &dyn CardLookup) -> SetupReport {
    let reports: Vec<CharacterReport> = characters.iter().map(|c| check_character(c, lookup)).collect();
    let mut violations = Vec::new();
    let player_name = |i: usize| match characters.get(i) {
        Some(c) if !c.name.is_empty() => format!("player {} ({})", i + 1, c.name),
        _ => format!("player {}", i + 1),
    };
    for (i, r) in reports.iter().enumerate() {
        for v in &r.violations {
            let mut v = v.clone();
            v.message = format!("{}: {}", player_name(i), v.message);
            violations.push(v);
        }
    }

    let mut kind_violations = Vec::new();
    let names: Vec<String> = (0..setup.players.len().max(2)).map(player_name).collect();
    struct Lists {
        quests: Vec<Quest>,
        waylays: Vec<Waylay>,
        treasures: Vec<Merit>,
    }
    let mut lists = Vec::new();
    for (i, p) in setup.players.iter().enumerate() {
        let quests = p
            .quests
            .iter()
            .filter_map(|e| {
                keep_prefixed(
                    &mut kind_violations,
                    &names[i],
                    resolve_kind(lookup, e, "quests", "quest cards", |a| match a {
                        ArcadiaCard::Quest(q) => Some(q),
                        _ => None,
                    }),
                )
            })
            .collect();
        let waylays = p
            .waylays
            .iter()
            .filter_map(|e| {
                keep_prefixed(
                    &mut kind_violations,
                    &names[i],
                    resolve_kind(lookup, e, "waylays", "waylay cards", |a| match a {
                        ArcadiaCard::Waylay(w) => Some(w),
                        _ => None,
                    }),
                )
            })
            .collect();
        let treasures = p
            .treasures
            .iter()
            .filter_map(|e| {
                keep_prefixed(
                    &mut kind_violations,
                    &names[i],
                    resolve_kind(lookup, e, "treasures", "treasure merits", |a| match a {
                        ArcadiaCard::Merit(m) if m.merit_type == MeritType::Treasure => Some(m),
                        _ => None,
                    }),
                )
            })
            .collect();
        lists.push(Lists { quests, waylays, treasures });
    }
    let laid: Vec<Option<League>> = setup
        .leagues
        .iter()
        .map(|l| {
            let who = format!("player {}", l.owner);
            let who = names.get(usize::from(l.owner).wrapping_sub(1)).unwrap_or(&who);
            keep_prefixed(
                &mut kind_violations,
                who,
                resolve_kind(lookup, &l.id, "leagues", "league cards", |a| match a {
                    ArcadiaCard::League(x) => Some(x),
                    _ => None,
                }),
            )
        })
        .collect();

    // waylay-budget and treasure-budget.
    for (i, mine) in lists.iter().enumerate() {
        let o = 1 - i.min(1);
        let Some(theirs) = lists.get(o) else { continue };
        let total: i32 = mine.waylays.iter().map(|w| w.rating).sum();
        let rating: i32 = theirs.quests.iter().map(|q| q.waylay_rating).sum();
        let bonus = reports.get(o).map_or(0, |r| r.derived.waylay_bonus);
        if total > rating + bonus {
            violations.push(Violation::new(
                "waylay-budget",
                format!(
                    "the waylays of {} total a rating of {total} ({}), above the {} allowed by the opponent's quests ({} Waylay Rating {rating} + experience bonus {bonus})",
                    player_name(i),
                    mine.waylays.iter().map(|w| format!("{} {}", named(&w.name, &w.id), w.rating)).collect::<Vec<_>>().join(", "),
                    rating + bonus,
                    if theirs.quests.is_empty() {
                        "no quests".to_string()
                    } else {
                        theirs.quests.iter().map(|q| named(&q.name, &q.id)).collect::<Vec<_>>().join(", ")
                    },
                ),
                mine.waylays.iter().map(|w| w.id.clone()).collect(),
                SRC_WAYLAY,
            ));
        }
    }
    for (i, mine) in lists.iter().enumerate() {
        let total: i32 = mine.treasures.iter().map(|t| t.cost).sum();
        let rating: i32 = mine.quests.iter().map(|q| q.treasure_rating).sum();
        if total > rating {
            violations.push(Violation::new(
                "treasure-budget",
                format!(
                    "the treasures hidden for {} total {total} points ({}), above the Treasure Rating {rating} of that player's own quests",
                    player_name(i),
                    mine.treasures.iter().map(|t| format!("{} {}", named(&t.name, &t.id), t.cost)).collect::<Vec<_>>().join(", "),
                ),
                mine.treasures.iter().map(|t| t.id.clone()).collect(),
                SRC_TREASURE,
            ));
        }
    }

    // league-count.
    for (i, p) in setup.players.iter().enumerate() {
        let owned: Vec<&str> =
            setup.leagues.iter().filter(|l| usize::from(l.owner) == i + 1).map(|l| l.id.as_str()).collect();
        let needed = LEAGUES_PER_QUEST * p.quests.len();
        if owned.len() != needed {
            violations.push(Violation::new(
                "league-count",
                format!(
                    "{} laid {} league{} but undertakes {} quest{}, so lays exactly {needed} ({LEAGUES_PER_QUEST} per quest)",
                    player_name(i),
                    owned.len(),
                    if owned.len() == 1 { "" } else { "s" },
                    p.quests.len(),
                    if p.quests.len() == 1 { "" } else { "s" }
                ),
                owned.iter().map(|s| s.to_string()).collect(),
                SRC_LEAGUES,
            ));
        }
    }

    // unique-league.
    let mut first_at: HashMap<&str, Pos> = HashMap::new();
    for (l, card) in setup.leagues.iter().zip(&laid) {
        let Some(card) = card.as_ref().filter(|c| c.unique) else { continue };
        match first_at.get(card.id.as_str()) {
            Some(at) => violations.push(Violation::new(
                "unique-league",
                format!(
                    "{} is a Unique league already in play at ({}, {}); the copy at ({}, {}) must be discarded",
                    named(&card.name, &card.id),
                    at.x,
                    at.y,
                    l.x,
                    l.y
                ),
                vec![card.id.clone()],
                SRC_UNIQUE,
            )),
            None => {
                first_at.insert(&card.id, l.pos());
            }
        }
    }

    // league-placement.
    let mut grid: HashMap<Pos, usize> = HashMap::new();
    let label_at = |i: usize| {
        let l = &setup.leagues[i];
        match &laid[i] {
            Some(c) => format!("{} at ({}, {})", named(&c.name, &c.id), l.x, l.y),
            None => format!("`{}` at ({}, {})", l.id, l.x, l.y),
        }
    };
    for (i, l) in setup.leagues.iter().enumerate() {
        let pos = l.pos();
        if let Some(&j) = grid.get(&pos) {
            violations.push(Violation::new(
                "league-placement",
                format!("{} lies on a position already taken by {}", label_at(i), label_at(j)),
                vec![l.id.clone(), setup.leagues[j].id.clone()],
                SRC_PLACEMENT,
            ));
            continue;
        }
        let neighbours: Vec<(Side, usize)> = [
            (Side::North, Pos { x: pos.x, y: pos.y - 1 }),
            (Side::East, Pos { x: pos.x + 1, y: pos.y }),
            (Side::South, Pos { x: pos.x, y: pos.y + 1 }),
            (Side::West, Pos { x: pos.x - 1, y: pos.y }),
        ]
        .into_iter()
        .filter_map(|(side, p)| grid.get(&p).map(|&j| (side, j)))
        .collect();
        if i > 0 && neighbours.is_empty() {
            violations.push(Violation::new(
                "league-placement",
                format!(
                    "{} shares no side with any league laid before it; lay each new league beside a laid one (diagonal contact does not count)",
                    label_at(i)
                ),
                vec![l.id.clone()],
                SRC_PLACEMENT,
            ));
        }
        for (side, j) in neighbours {
            let (Some(new), Some(old)) = (&laid[i], &laid[j]) else { continue };
            let (mine, theirs) = (new.sides.get(side), old.sides.get(side.opposite()));
            if let Err(why) = sides_fit(mine, theirs) {
                violations.push(Violation::new(
                    "league-placement",
                    format!(
                        "{}: its {} side {} does not fit the {} side {} of {} ({why})",
                        label_at(i),
                        side.name(),
                        side_text(mine),
                        side.opposite().name(),
                        side_text(theirs),
                        label_at(j)
                    ),
                    vec![new.id.clone(), old.id.clone()],
                    SRC_PLACEMENT,
                ));
            }
        }
        grid.insert(pos, i);
    }

    kind_violations.sort_by_key(|v| v.rule != "wrong-kind");
    violations.extend(kind_violations);
    SetupReport { violations, characters: reports }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn the_edge_rule_of_the_spec() {
        assert!(sides_fit(&s(&["forest", "road"]), &s(&["road"])).is_ok());
        assert!(sides_fit(&s(&["forest"]), &s(&["road"])).is_err());
        assert!(sides_fit(&s(&["ocean", "road"]), &s(&["road"])).is_err());
        assert!(sides_fit(&s(&["ocean", "road"]), &s(&["ocean"])).is_ok());
        assert!(sides_fit(&s(&["ocean"]), &s(&["border"])).is_ok());
        assert!(sides_fit(&s(&["border"]), &s(&["border"])).is_err());
        assert!(sides_fit(&s(&["ocean"]), &s(&["city-wall"])).is_err());
        assert!(sides_fit(&s(&["city-wall"]), &s(&["forest"])).is_ok());
        assert!(sides_fit(&s(&["city-wall"]), &s(&["border"])).is_err());
        assert!(sides_fit(&s(&[]), &s(&["city-wall"])).is_ok());
        assert!(sides_fit(&s(&[]), &s(&[])).is_err());
    }
}

//! A Ruunara match as a file and as a report: what a match is built from (the mission's
//! text, the squad and every card looked up), compiled into its [`Setup`]; the record's
//! `options` written from it and read back; and the report `play` and `replay` print.
//!
//! The record's options rebuild the match without the catalogue or the Squad screen
//! (docs/cards.md, "Match records"): `mission_file`, `mission` (the whole text), `squad`,
//! `cards` (each card's TOML) and, for duo play or a contest, `mode`.

use crate::games::any::{Opened, opening};
use crate::games::owned::{OnSetup, Owned};
use serde_json::{Value, json};

use crate::cards::{Card, CardLookup};
use crate::games::build::{Keeping, cards_of, cards_value};
use crate::games::game::{Ending, Game};
use crate::games::record::{MatchRecord, RecordError, replay_record};
use crate::games::report::{Line, Report};
use crate::games::ruunara::engine::{
    Event, PlayMode, RuunaraEnding, RuunaraGame, Setup, Side, Status,
};
use crate::games::ruunara::mission::{MissionFile, Objective, Scenario, Zone};
use crate::games::ruunara::rules;
use crate::games::ruunara::squad::SquadFile;

/// The version of the Ruunara engine: a record of another is refused (a rule change that
/// plays a seed differently raises it: 2 with the enemies moving as written, 3 with the
/// racial skills, both of issue 29; 4 with every bundled skill played, issue 25).
pub const ENGINE: u32 = 4;

/// What a match was deployed from, kept for its record.
#[derive(Debug, Clone, PartialEq)]
pub struct Source {
    pub mission_file: String,
    pub mission: String,
    pub squad: SquadFile,
    pub cards: Vec<Card>,
    /// Who plays (solo unless said).
    pub mode: PlayMode,
}

/// A match ready to play: the scenario (the table, scenery, objective as resolved) and the
/// engine's setup.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub scenario: Scenario,
    pub setup: Setup,
}

/// Compiles the mission `mission_text` (named `mission_file` in errors) with `squad`, the
/// cards from `lookup`: the squad checked against its rules, the mission resolved, the
/// figures set out.
pub fn compile(
    lookup: &dyn CardLookup,
    mission_text: &str,
    mission_file: &str,
    squad: &SquadFile,
) -> Result<Compiled, String> {
    let m = MissionFile::parse(mission_text, mission_file).map_err(|e| e.to_string())?;
    let report = rules::check_squad(squad, lookup);
    if report.members.is_empty() {
        return Err("The squad has no member the catalogue knows.".into());
    }
    if !report.violations.is_empty() {
        return Err(format!(
            "The squad breaks the rules: {}",
            report
                .violations
                .iter()
                .map(|v| v.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        ));
    }
    let scenario = m.resolve(&report.members, lookup).map_err(|vs| {
        format!(
            "The mission cannot be played with this squad: {}",
            vs.iter()
                .map(|v| v.message.clone())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })?;
    let setup = Setup::new(&scenario).map_err(|e| format!("The mission cannot start: {e}"))?;
    Ok(Compiled { scenario, setup })
}

/// [`compile`], and what it was made from (the cards it looked up kept).
pub fn deploy(
    lookup: &dyn CardLookup,
    mission_text: &str,
    mission_file: &str,
    squad: &SquadFile,
) -> Result<(Compiled, Source), String> {
    let keeping = Keeping::new(lookup);
    let compiled = compile(&keeping, mission_text, mission_file, squad)?;
    Ok((
        compiled,
        Source {
            mission_file: mission_file.to_string(),
            mission: mission_text.to_string(),
            squad: squad.clone(),
            cards: keeping.into_kept(),
            mode: PlayMode::Solo,
        },
    ))
}

/// The record's `options` of a match deployed from `src`.
pub fn options(src: &Source) -> toml::Table {
    let mut o = toml::Table::new();
    o.insert("mission_file".into(), src.mission_file.clone().into());
    o.insert("mission".into(), src.mission.clone().into());
    o.insert(
        "squad".into(),
        toml::Value::try_from(&src.squad).expect("a squad is plain data"),
    );
    o.insert("cards".into(), cards_value(&src.cards));
    // A solo match's record stays as it was before the modes.
    if src.mode != PlayMode::Solo {
        o.insert("mode".into(), src.mode.as_str().into());
    }
    o
}

/// The match a record's source describes: compiled, in its mode.
pub fn compile_source(src: &Source) -> Result<Compiled, String> {
    let mut c = compile(&src.cards, &src.mission, &src.mission_file, &src.squad)?;
    c.setup = c
        .setup
        .with_mode(src.mode)
        .map_err(|e| format!("The mission cannot start: {e}"))?;
    Ok(c)
}

/// What a record's `options` say the match was deployed from.
pub fn source_of(o: &toml::Table) -> Result<Source, RecordError> {
    let bad = RecordError::Options;
    let text = |key: &str| {
        o.get(key)
            .and_then(toml::Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| bad(format!("`{key}` is not a text")))
    };
    let squad: SquadFile = o
        .get("squad")
        .cloned()
        .ok_or_else(|| bad("`squad` is missing".into()))?
        .try_into()
        .map_err(|e| bad(format!("`squad`: {e}")))?;
    let mode = match o.get("mode") {
        None => PlayMode::Solo,
        Some(v) => v.as_str().and_then(PlayMode::parse).ok_or_else(|| {
            bad(format!(
                "`mode` is not one of {}",
                PlayMode::ALL.map(PlayMode::as_str).join(", ")
            ))
        })?,
    };
    Ok(Source {
        mission_file: text("mission_file")?,
        mission: text("mission")?,
        squad,
        cards: cards_of(o, crate::cards::Game::Ruunara).map_err(bad)?,
        mode,
    })
}

/// Ruunara's positions, which borrow their [`Setup`].
pub struct Ruunara;

impl OnSetup for Ruunara {
    type Setup = Setup;
    type Game<'s> = RuunaraGame<'s>;
}

/// The start of the mission a record's options describe.
pub fn open(o: &toml::Table, _lookup: &dyn CardLookup) -> Result<Opened, RecordError> {
    // A record of format 1 kept only the heroes' decisions (the seed rolled the dice) and its
    // drags and drops as `drags` and `drops`: its inputs are not this engine's.
    if o.contains_key("drags") || o.contains_key("drops") {
        return Err(RecordError::Legacy("dice"));
    }
    let src = source_of(o)?;
    let c = compile_source(&src).map_err(RecordError::Options)?;
    let mut log = Vec::new();
    let game = Owned::<Ruunara>::new(c.setup, |s| RuunaraGame::start(s, &mut log));
    Ok(Opened {
        opening: opening(game.game(), &log),
        game: Box::new(game),
    })
}

/// Replays a record of a Ruunara match up to `to` inputs (all when `None`), each checked:
/// the report `play` prints of it.
pub fn replay(
    r: &MatchRecord,
    to: Option<usize>,
    _lookup: &dyn CardLookup,
) -> Result<Report, RecordError> {
    r.expect_game("ruunara")?;
    if r.format < 2 {
        return Err(RecordError::Legacy("dice"));
    }
    r.expect_engine(ENGINE)?;
    let src = source_of(&r.options)?;
    let c = compile_source(&src).map_err(RecordError::Options)?;
    let mut start_log = Vec::new();
    let start = RuunaraGame::start(&c.setup, &mut start_log);
    let done = replay_record(start, start_log, r, to)?;
    let dice_used = chance_inputs(&c.setup, &r.inputs[..done.steps]);
    let log: Vec<Event> = done.log.into_iter().map(|(_, e)| e).collect();
    let policy = r.seats.first().cloned().unwrap_or_default();
    Ok(report(&c, &done.game, &log, dice_used, r.seed, &policy))
}

/// How many of `inputs` were chance outcomes (the dice drawn).
pub fn chance_inputs(setup: &Setup, inputs: &[usize]) -> u32 {
    let mut g = RuunaraGame::new(setup);
    let mut n = 0;
    for &i in inputs {
        if matches!(g.turn(), crate::games::game::Turn::Chance(_)) {
            n += 1;
        }
        g.apply(i);
    }
    n
}

/// The report of a match at `game` with its whole `log`: `dice_used` faces drawn, played
/// with `seed` by `policy`.
pub fn report(
    c: &Compiled,
    game: &RuunaraGame<'_>,
    log: &[Event],
    dice_used: u32,
    seed: u64,
    policy: &str,
) -> Report {
    let ended = game
        .outcome()
        .map(|o| o.ended)
        .unwrap_or(RuunaraEnding::DiceExhausted);
    let doc = document(game, ended, log, dice_used, seed, policy);
    let lines = log
        .iter()
        .map(|e| {
            let kind = if game.is_heading(e) {
                Line::Heading
            } else {
                Line::Item
            };
            (kind, game.event_text(e))
        })
        .collect();
    Report {
        log: lines,
        tail: tail(game, ended),
        json: with_table(doc, &c.scenario, game.setup),
    }
}

fn winner(ended: RuunaraEnding) -> Value {
    match ended {
        RuunaraEnding::DiceExhausted => Value::Null,
        e if e.heroes_win() => json!("heroes"),
        _ => json!("enemies"),
    }
}

fn status(s: Status) -> &'static str {
    match s {
        Status::Free => "free",
        Status::Captured => "captured",
        Status::Dead => "dead",
    }
}

/// Each figure at the end: the squad in squad order, the enemies and neutrals in mission order.
fn sides(game: &RuunaraGame<'_>) -> Value {
    let setup = game.setup;
    let mut heroes = Vec::new();
    let mut enemies = Vec::new();
    let mut neutrals = Vec::new();
    for (i, stat) in setup.figs.iter().enumerate() {
        let f = &game.st.figs[i];
        let mut v = json!({
            "id": stat.id,
            "name": stat.name,
            "hp": f.hp.max(0),
            "status": status(f.status),
            "x": round2(f.at.x),
            "y": round2(f.at.y),
            "facing": f.facing.as_str(),
        });
        match stat.side {
            Side::Hero => heroes.push(v),
            Side::Enemy => enemies.push(v),
            Side::Neutral { hostile } => {
                v["hostile"] = json!(hostile);
                neutrals.push(v);
            }
        }
    }
    json!({"heroes": heroes, "enemies": enemies, "neutrals": neutrals})
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// The `play --json` document: `cli.md`'s shape (winner `heroes` / `enemies`, `turns` the
/// rounds) with `rounds`, the mission, and the self-contained log.
fn document(
    game: &RuunaraGame<'_>,
    ended: RuunaraEnding,
    log: &[Event],
    dice_used: u32,
    seed: u64,
    policy: &str,
) -> Value {
    let setup = game.setup;
    json!({
        "game": "ruunara",
        "mission": setup.id,
        "seed": seed,
        "policy": policy,
        "mode": setup.mode.as_str(),
        "winner": winner(ended),
        "ended": ended.name(),
        "turns": game.st.round,
        "rounds": game.st.round,
        "round_limit": setup.round_limit,
        "dice_used": dice_used,
        "sides": sides(game),
        "log": log.iter().map(|e| game.event_json(e)).collect::<Vec<_>>(),
    })
}

/// The table, its scenery and the figures by index (as the log names them): what a reader
/// needs to check the log without the engine.
fn with_table(mut doc: Value, scenario: &Scenario, setup: &Setup) -> Value {
    doc["table"] = json!({"width": scenario.table.width, "depth": scenario.table.depth});
    doc["scenery"] = json!(scenario.scenery);
    doc["objective"] = objective(scenario, setup);
    doc["figures"] = setup
        .figs
        .iter()
        .enumerate()
        .map(|(i, f)| {
            json!({
                "fig": i,
                "id": f.id,
                "name": f.name,
                "side": match f.side {
                    Side::Hero => "hero",
                    Side::Enemy => "enemy",
                    Side::Neutral { hostile: true } => "hostile_neutral",
                    Side::Neutral { .. } => "neutral",
                },
                "hp": f.hp,
                "movement": f.movement,
                "vision": f.vision,
                "close": f.close.to_string(),
                "ranged": f.ranged.map(|d| d.to_string()),
                "ranged_range": f.ranged.map(|_| f.range),
                "skills": f.skills().map(|(slot, d)| {
                    let mut k = json!({
                        "slot": slot,
                        "name": f.skill_name(slot),
                        "cycle": d.cycle.to_string(),
                        "effect": d.effect.kind().as_str(),
                    });
                    if let Some((dice, damage)) = d.effect.dice_and_damage() {
                        k["dice"] = json!(dice.to_string());
                        k["damage"] = json!(damage);
                    }
                    effect_params(&d.effect, &mut k);
                    k
                }).collect::<Vec<_>>(),
                // The zone the seat placed it in (its `placed` event says where).
                "deploy_zone": f.zone.and_then(|k| setup.zones.get(usize::from(k))).map(|z| {
                    json!({"x": z.x, "y": z.y, "w": z.w, "d": z.d})
                }),
            })
        })
        .collect::<Vec<_>>()
        .into();
    doc
}

/// Every parameter of a skill's effect as the engine plays it (defaults filled in), beside
/// its `dice` and `damage`: `trigger` and `attack` of an instant kill (`null`: every
/// attack), `attack` of an extra attack, `amount`, `target` and `range` of a heal, `radius`
/// and `range` of an area (`null`: the engaged form; the attack's or vision's range), the
/// `radius` of a stealth or a cover.
fn effect_params(e: &crate::games::ruunara::model::SkillEffect, k: &mut Value) {
    use crate::games::ruunara::model::SkillEffect as E;
    let name = |a: crate::games::ruunara::model::AttackKind| serde_json::to_value(a).ok();
    match *e {
        E::InstantKill { on, attack, spell } => {
            k["trigger"] = json!(format!("{on}+"));
            k["attack"] = json!(attack.and_then(name));
            if spell {
                k["target"] = json!("enemy");
            }
        }
        E::ExtraAttack { attack, .. } => k["attack"] = json!(name(attack)),
        E::Heal {
            amount,
            target,
            range,
            execution,
        } => {
            k["amount"] = json!(amount);
            k["target"] = json!(serde_json::to_value(target).ok());
            k["range"] = json!(range);
            if let Some(r) = execution {
                k["when"] = json!("execution");
                k["radius"] = json!(r);
            }
        }
        E::Area { radius, range, .. } => {
            k["radius"] = json!(radius);
            k["range"] = json!(range);
        }
        E::Stealth { radius } => k["radius"] = json!(radius),
        E::Cover {
            radius,
            own,
            apart,
            until_move,
        } => {
            if own {
                k["target"] = json!("self");
            } else {
                k["radius"] = json!(radius);
            }
            if let Some(d) = apart {
                k["condition"] = json!("apart");
                k["distance"] = json!(d);
            }
            if until_move {
                k["lasts"] = json!("move");
            }
        }
        E::Flee { distance } => {
            if let Some(d) = distance {
                k["distance"] = json!(d);
            }
        }
        E::Reroll | E::Silent | E::Hunt => {}
        E::Save {
            against,
            on,
            hits,
            ward,
        } => {
            k["against"] = json!(against.and_then(name));
            k["trigger"] = json!((on > 0).then(|| format!("{on}+")));
            k["hits"] = json!((hits > 0).then_some(hits));
            k["range"] = json!(ward);
        }
        E::State {
            state,
            target,
            radius,
            range,
            on,
            lasts,
            score,
            face,
        } => {
            k["state"] = json!(serde_json::to_value(state).ok());
            k["target"] = json!(serde_json::to_value(target).ok());
            k["radius"] = json!(radius);
            k["range"] = json!(range);
            k["trigger"] = json!((on > 0).then(|| format!("{on}+")));
            k["lasts"] = json!(serde_json::to_value(lasts).ok());
            k["score"] = json!(score);
            k["face"] = json!(face);
        }
        E::HitBonus {
            amount,
            radius,
            kin,
        } => {
            k["amount"] = json!(amount);
            k["radius"] = json!(radius);
            k["target"] = json!(if kin { "kin" } else { "ally" });
        }
        E::Vision { amount, radius } => {
            k["amount"] = json!(amount);
            k["radius"] = json!(radius);
        }
        E::CaptureClock { amount, on } => {
            k["amount"] = json!(amount);
            k["trigger"] = json!((on > 0).then(|| format!("{on}+")));
        }
        E::HoldOut { rounds } => k["amount"] = json!(rounds),
        E::KeepAway { radius } => k["radius"] = json!(radius),
    }
}

fn objective(s: &Scenario, setup: &Setup) -> Value {
    let zone = |z: &Zone| json!({"x": z.x, "y": z.y, "w": z.w, "d": z.d});
    match &s.objective {
        Objective::Eliminate => json!({"kind": "eliminate"}),
        Objective::Rescue { exit, .. } => {
            json!({"kind": "rescue", "target": setup.rescue_target(), "exit": zone(exit)})
        }
        Objective::Reach { exit } => json!({"kind": "reach", "exit": zone(exit)}),
        Objective::Survive { rounds } => json!({"kind": "survive", "rounds": rounds}),
    }
}

/// The final state in words: each figure at the end, then the result.
fn tail(game: &RuunaraGame<'_>, ended: RuunaraEnding) -> String {
    use std::fmt::Write;
    let mut out = String::from("\n");
    let setup = game.setup;
    for (i, stat) in setup.figs.iter().enumerate() {
        let f = &game.st.figs[i];
        let side = match stat.side {
            Side::Hero => "hero",
            Side::Enemy => "enemy",
            Side::Neutral { hostile: true } => "hostile neutral",
            Side::Neutral { .. } => "neutral",
        };
        let _ = writeln!(
            out,
            "  {:<24} {:<15} {:<8} {:>2} hp  at ({:.2}, {:.2}) facing {}",
            stat.name,
            side,
            status(f.status),
            f.hp.max(0),
            f.at.x,
            f.at.y,
            f.facing
        );
    }
    let result = match ended {
        RuunaraEnding::DiceExhausted if game.outcome().is_none() => {
            "no result yet (the match goes on)".to_string()
        }
        RuunaraEnding::DiceExhausted => "no result (the dice script ran out)".to_string(),
        e if e.heroes_win() => format!("the heroes win ({})", e.name()),
        e => format!("the heroes lose ({})", e.name()),
    };
    let _ = writeln!(
        out,
        "{}: {result} after {} round{}",
        setup.name,
        game.st.round,
        if game.st.round == 1 { "" } else { "s" }
    );
    out
}

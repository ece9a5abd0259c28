//! `deckwright play ruunara MISSION SQUAD`: one Ruunara mission, the squad played by a policy
//! and the enemies by the rules, printing its event log and the figures at the end (or the
//! `play --json` document, with `rounds` and a log a reader can check without the engine).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::cli::load::{open_catalogue, ruunara_scenario};
use crate::cli::options::{DiceScript, SoloPlay, check_ruunara_search};
use crate::cli::out::Out;
use crate::cli::out::note;
use crate::cli::report::{self, Line};
use crate::cli::{BadInput, Context, Outcome};
use crate::games::dice::{Dice, RngDice};
use crate::games::game::{Ending, Game};
use crate::games::iconica::ai::PolicyKind;
use crate::games::ruunara::engine::{Event, RuunaraEnding, RuunaraGame, Setup, Side, Status};
use crate::games::ruunara::mission::{Objective, Scenario, Zone};
use crate::sim;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The mission file (`*.mission.toml`).
    pub mission: PathBuf,
    /// The squad file (`*.squad.toml`), deployed by the mission in squad order.
    pub squad: PathBuf,
    #[command(flatten)]
    pub dice: DiceScript,
    #[command(flatten)]
    pub shared: SoloPlay,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let scenario = ruunara_scenario(&cat, &args.mission, &args.squad)?;
    let setup =
        Setup::new(&scenario).map_err(|e| BadInput(format!("{}: {e}", args.mission.display())))?;
    let policy = args.shared.policy;
    check_ruunara_search("--policy", policy, setup.figs.len())?;
    let seed = args.shared.seed;
    let mut log: Vec<Event> = Vec::new();
    let start = RuunaraGame::start(&setup, &mut log);
    let (game, log, dice_used) = match args.dice.dice {
        Some(d) => {
            let mut counted = Counted::new(d);
            let (g, log) = play(start, log, &mut counted, policy, seed);
            (g, log, counted.used())
        }
        None => {
            let mut counted = Counted::new(RngDice::new(seed));
            let (g, log) = play(start, log, &mut counted, policy, seed);
            (g, log, counted.used())
        }
    };
    let ended = game
        .outcome()
        .map(|o| o.ended)
        .unwrap_or(RuunaraEnding::DiceExhausted);
    if args.shared.json {
        let doc = document(&game, ended, &log, dice_used, seed, &policy.name());
        ctx.out.json_pretty(&with_table(doc, &scenario, game.setup));
    } else {
        text(&ctx.out, &game, ended, &log);
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays the match. A search (`mcts`) on a terminal says on stderr which round it is in,
/// once a round, so a long mission shows its progress (the match is the same).
fn play<'a>(
    start: RuunaraGame<'a>,
    log: Vec<Event>,
    dice: &mut impl Dice,
    policy: PolicyKind,
    seed: u64,
) -> (RuunaraGame<'a>, Vec<Event>) {
    use std::io::IsTerminal;
    if !matches!(policy, PolicyKind::Mcts(_)) || !std::io::stderr().is_terminal() {
        return sim::play_logged(start, log, dice, &[policy], seed);
    }
    let mut shown = 0;
    let (g, log) = sim::play_logged_observed(start, log, dice, &[policy], seed, &mut |g| {
        if g.st.round != shown {
            shown = g.st.round;
            note!(
                "play ruunara: round {shown} of {} ({})",
                g.setup.round_limit,
                policy.name()
            );
        }
    });
    (g, log)
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

/// The terminal report: the log by round, then each figure at the end.
fn text(out: &Out, game: &RuunaraGame<'_>, ended: RuunaraEnding, log: &[Event]) {
    let line = |e: &Event| {
        if game.is_heading(e) {
            Line::Heading
        } else {
            Line::Item
        }
    };
    report::log_text(out, log.iter().map(|e| (line(e), game.event_text(e))));
    writeln!(out);
    let setup = game.setup;
    for (i, stat) in setup.figs.iter().enumerate() {
        let f = &game.st.figs[i];
        let side = match stat.side {
            Side::Hero => "hero",
            Side::Enemy => "enemy",
            Side::Neutral { hostile: true } => "hostile neutral",
            Side::Neutral { .. } => "neutral",
        };
        writeln!(
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
        RuunaraEnding::DiceExhausted => "no result (the dice script ran out)".to_string(),
        e if e.heroes_win() => format!("the heroes win ({})", e.name()),
        e => format!("the heroes lose ({})", e.name()),
    };
    writeln!(
        out,
        "{}: {result} after {} round{}",
        setup.name,
        game.st.round,
        if game.st.round == 1 { "" } else { "s" }
    );
}

/// Dice that count the faces drawn (`dice_used`).
struct Counted<D> {
    dice: D,
    used: u32,
}

impl<D: Dice> Counted<D> {
    fn new(dice: D) -> Counted<D> {
        Counted { dice, used: 0 }
    }
    fn used(&self) -> u32 {
        self.used
    }
}

impl<D: Dice> Dice for Counted<D> {
    fn die(&mut self) -> Option<u8> {
        let f = self.dice.die()?;
        self.used += 1;
        Some(f)
    }
    fn pick(&mut self, n: u8) -> Option<u8> {
        let p = self.dice.pick(n)?;
        self.used += 1;
        Some(p)
    }
}

//! `deckwright balance ruunara HERO [--skill NAME] [--squad FILE...] [--mission FILE...]`:
//! what a hero, or one of its skills, adds to its squads' win rate against the missions,
//! paired (`crate::balance::ruunara`); this file reads the input and writes the report.

use std::process::ExitCode;

use serde_json::json;

use super::balance::{card_arg, ci, not_a, rate_json, write_paired, write_places};
use super::load::{open_catalogue, read_text};
use super::{BadInput, Context, Outcome};
use crate::balance::ruunara::{self as bal, FieldMission, FieldSquad, Report, Subject};
use crate::cards::{Card, CardLookup};
use crate::games::registry::Registration;
use crate::games::ruunara::squad::SquadFile;

/// `balance ruunara`'s arguments.
pub type Args = super::balance::Parsed<crate::games::ruunara::options::BalanceOptions>;

/// The hero: a file when one is there (or the name looks like one), else a catalogue id or
/// name.
fn load_hero(lookup: &dyn CardLookup, hero: &str, game: &Registration) -> Result<Card, BadInput> {
    match card_arg(lookup, hero, game)? {
        card @ Card::Ruunara(_) => Ok(card),
        other => Err(not_a(hero, &other, "a Ruunara hero")),
    }
}

pub fn run(ctx: &Context, game: &Registration, args: Args) -> Outcome {
    args.run.one_policy("ruunara")?;
    let cat = open_catalogue(ctx)?;
    let card = load_hero(&cat, &args.hero, game)?;
    // The catalogue's cards with the hero in place (a file not yet imported included).
    let mut cards = cat.all().map_err(|e| BadInput(format!("catalogue: {e}")))?;
    cards.retain(|c| c.id() != card.id());
    cards.push(card.clone());
    let hero = bal::hero(&cards, card.id()).map_err(|e| BadInput(e.to_string()))?;
    let subject = match &args.skill {
        Some(s) => Subject::Skill(s.clone()),
        None => Subject::Hero,
    };
    let squads = if args.squad.is_empty() {
        bal::example_squads(hero)
    } else {
        let mut v = Vec::new();
        for p in &args.squad {
            let shown = p.display().to_string();
            let text = read_text(p).map_err(|e| BadInput(format!("{shown}: {e}")))?;
            v.push(FieldSquad {
                squad: SquadFile::parse(&text, &shown)?,
                name: shown,
            });
        }
        v
    };
    if squads.is_empty() {
        return Err(BadInput(format!(
            "no example squad has {}: give --squad FILE... with it",
            hero.name
        )));
    }
    let missions = if args.mission.is_empty() {
        bal::example_missions()
    } else {
        let mut v = Vec::new();
        for p in &args.mission {
            let shown = p.display().to_string();
            let text = read_text(p).map_err(|e| BadInput(format!("{shown}: {e}")))?;
            v.push(FieldMission { name: shown, text });
        }
        v
    };
    let policy = args.run.policy();
    let field = bal::places(hero, &subject, &squads, &missions, &cards)
        .map_err(|e| BadInput(format!("{}: {e}", args.hero)))?;
    for p in &field.0 {
        crate::games::ruunara::options::check_search("--ai", policy, p.with.figs.len())
            .map_err(BadInput)?;
    }
    let runner = args.run.runner()?;
    let r = bal::report(hero, &subject, field, policy, args.run.seed, &runner)
        .map_err(|e| BadInput(format!("{}: {e}", args.hero)))?;
    if args.run.json {
        ctx.out.json(&to_json(&args, &r));
    } else {
        write_text(ctx, &args, &r);
    }
    Ok(ExitCode::SUCCESS)
}

fn to_json(args: &Args, r: &Report) -> serde_json::Value {
    let d = &r.delta;
    json!({
        "game": "ruunara",
        "card": r.id,
        "name": r.name,
        "skill": r.skill,
        "ai": args.run.policy().name(),
        "seed": args.run.seed,
        "precision": args.run.precision,
        "draws": "half a win",
        "games": d.games,
        "stopped": d.stopped.as_str(),
        "win_rate": d.other.win_rate,
        "ci95": ci(d.other.ci95),
        "against": {
            "what": match &r.skill {
                Some(_) => "the same squads with the hero without the skill",
                None => "the same squads without the hero",
            },
            "win_rate": d.base.win_rate,
            "ci95": ci(d.base.ci95),
        },
        "delta": d.delta,
        "delta_ci95": ci(d.ci95),
        "matchups": r.matchups.iter().map(|m| {
            let mut v = rate_json(&m.with);
            v["name"] = json!(format!("{} on {}", m.squad, m.mission));
            v["without"] = rate_json(&m.without);
            v
        }).collect::<Vec<_>>(),
        "skipped": r.skipped.iter().map(|s| json!({"squad": s.squad, "mission": s.mission, "why": s.why})).collect::<Vec<_>>(),
        "not_played": r.unplayed.iter().map(|g| g.line()).collect::<Vec<_>>(),
        "impact": [],
        "suggestions": [],
    })
}

fn write_text(ctx: &Context, args: &Args, r: &Report) {
    let out = &ctx.out;
    let ai = args.run.policy().name();
    let d = &r.delta;
    let (what, without) = match &r.skill {
        Some(s) => (format!("{s} of {} ({})", r.name, r.id), "without the skill"),
        None => (format!("{} ({})", r.name, r.id), "without the hero"),
    };
    writeln!(
        out,
        "{what}, Ruunara; the squad played by {ai}, the enemies by the rules, seed {}; draws and unfinished missions count as half a win",
        args.run.seed
    );
    for g in &r.unplayed {
        writeln!(
            out,
            "not played: {}: measured as the engine plays it, not as printed",
            g.line()
        );
    }
    write_paired(out, "with", without, d, &args.run);
    write_places(
        out,
        &ai,
        "squad on mission",
        r.matchups
            .iter()
            .map(|m| (format!("{} on {}", m.squad, m.mission), &m.with, &m.without)),
    );
    for s in &r.skipped {
        writeln!(out, "  not played: {} on {}: {}", s.squad, s.mission, s.why);
    }
}

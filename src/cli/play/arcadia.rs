//! `deckwright play arcadia SETUP.setup.toml`: one Arcadia quest played by two policies,
//! printing its event log and final state (or the `play --json` document).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::cli::load::{arcadia_match, open_catalogue};
use crate::cli::options::{ArcadiaRules, DiceScript, PlayShared};
use crate::cli::out::Out;
use crate::cli::report::{self, Line};
use crate::cli::{Context, Outcome};
use crate::games::ai::Policy as PolicyKind;
use crate::games::arcadia::engine::setup::NO_BASE;
use crate::games::arcadia::engine::state::{IN_HAND, WINNER_XP};
use crate::games::arcadia::engine::{
    ArcadiaGame, Ended, Event, Match, RngDice, ScriptDice, State, Winner, events::side_name,
};
use crate::sim;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The quest setup file (`*.setup.toml`), which names the two character files.
    pub setup: PathBuf,
    #[command(flatten)]
    pub rules: ArcadiaRules,
    #[command(flatten)]
    pub dice: DiceScript,
    #[command(flatten)]
    pub shared: PlayShared,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let m = arcadia_match(&cat, &args.setup, args.rules.turn_limit)?;
    let policies = args.shared.policies(2);
    let (st, log) = play(
        &m,
        [policies[0], policies[1]],
        args.shared.seed,
        args.dice.dice,
    );

    let (ended, _) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    if args.shared.json {
        let log = log.iter().map(|e| e.to_json_on(&m, &st)).collect();
        ctx.out.json_pretty(&report::match_json(
            "arcadia",
            winner_json(&st),
            ended,
            st.day,
            st.dice_used,
            sides_json(&m, &st),
            log,
        ));
    } else {
        print_text(&ctx.out, &m, &st, &log);
    }
    Ok(ExitCode::SUCCESS)
}

/// The quest played out: the scripted dice when given, else the seed's.
fn play(
    m: &Match,
    [a, b]: [PolicyKind; 2],
    seed: u64,
    script: Option<ScriptDice>,
) -> (State, Vec<Event>) {
    let mut log: Vec<Event> = Vec::new();
    let start = ArcadiaGame::start(m, &mut log);
    let (game, log) = match script {
        Some(dice) => sim::play_logged(start, log, dice, &[a, b], seed),
        None => sim::play_logged(start, log, RngDice::new(seed), &[a, b], seed),
    };
    (game.st, log)
}

/// The `sides` object: each player's character state.
fn sides_json(m: &Match, st: &State) -> Value {
    let side = |p: usize| {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let ids = |mask: u32| -> Vec<&str> {
            (0..pl.merits.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| pl.merits[i].id.as_str())
                .collect()
        };
        let won = matches!(st.ended, Some((_, Some(Winner::Player(w)))) if w as usize == p);
        let gained = if won { WINNER_XP } else { 0 };
        // Before its Base Camp is chosen (a setup laid in play) a character is nowhere.
        let placed = h.base != NO_BASE;
        let pos = st.pos(m, h.at);
        json!({
            "character": pl.name,
            "icon": pl.icon.id,
            "league": placed.then(|| m.leagues[h.at as usize].id.as_str()),
            "position": placed.then(|| json!({"x": pos.x, "y": pos.y})),
            "base_camp": m.leagues.get(h.base as usize).map(|l| l.id.as_str()),
            "at_base_camp": h.at == h.base,
            "merits": (0..pl.merits.len()).filter(|i| h.owned & (1 << i) != 0).map(|i| json!({
                "id": pl.merits[i].id,
                "exhausted": h.exhausted & (1 << i) != 0,
                "discarded": h.discarded & (1 << i) != 0,
                "found": i >= pl.own,
            })).collect::<Vec<_>>(),
            "merits_exhausted": ids(h.exhausted & h.owned),
            "merits_discarded": ids(h.discarded & h.owned),
            "flaws_exhausted": (0..pl.flaws.len()).filter(|i| h.flaws_exhausted & (1 << i) != 0)
                .map(|i| pl.flaws[i].id.as_str()).collect::<Vec<_>>(),
            "quests": pl.quests.iter().enumerate().map(|(i, q)| json!({
                "id": q.id, "done": h.quests_done & (1 << i) != 0
            })).collect::<Vec<_>>(),
            "quests_done": pl.quests.iter().enumerate().filter(|(i, _)| h.quests_done & (1 << i) != 0)
                .map(|(_, q)| q.id.as_str()).collect::<Vec<_>>(),
            "treasures_found": ids(h.owned & !super_mask(pl.own)),
            "waylays_defeated": h.waylays_defeated,
            "waylays_in_hand": m.waylays.iter().enumerate()
                .filter(|(w, _)| m.waylay_owner[*w] as usize == p && st.waylay_at[*w] == IN_HAND)
                .map(|(_, w)| w.id.as_str()).collect::<Vec<_>>(),
            "skips_next_day": h.skip,
            "experience": pl.xp_earned + gained,
            "experience_gained": gained,
        })
    };
    json!({"a": side(0), "b": side(1)})
}

fn super_mask(n: usize) -> u32 {
    crate::games::arcadia::engine::state::mask(n)
}

fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Player(p)) => json!(side_name(p)),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}

fn print_text(out: &Out, m: &Match, st: &State, log: &[Event]) {
    let line = |e: &Event| match e {
        Event::Day { .. } => Line::Heading,
        Event::End { .. } => Line::Apart,
        _ => Line::Item,
    };
    report::log_text(out, log.iter().map(|e| (line(e), e.text_on(m, st))));
    writeln!(out);
    for p in 0..2usize {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let names = |mask: u32| -> String {
            let v: Vec<&str> = (0..pl.merits.len())
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| pl.merits[i].name.as_str())
                .collect();
            if v.is_empty() {
                "none".into()
            } else {
                v.join(", ")
            }
        };
        let at = if h.base == NO_BASE {
            "no league yet".to_string()
        } else {
            st.league_label(m, h.at)
        };
        writeln!(out, "Side {} ({}): in {}", side_name(p as u8), pl.name, at);
        writeln!(out, "  ready:     {}", names(h.ready()));
        writeln!(out, "  exhausted: {}", names(h.exhausted & h.owned));
        writeln!(out, "  discarded: {}", names(h.discarded & h.owned));
        writeln!(
            out,
            "  quests done {}/{}, treasures found {}, waylays defeated {}",
            h.quests_done.count_ones(),
            pl.quests.len(),
            h.treasures_found,
            h.waylays_defeated
        );
    }
    writeln!(
        out,
        "{}, {}",
        crate::count(st.day, "Day", "Days"),
        crate::count(st.dice_used, "die", "dice")
    );
}

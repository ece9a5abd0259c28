//! `deckwright play arcadia SETUP.setup.toml`: one Arcadia quest played by two policies,
//! printing its event log and final state (or the `play --json` document).

use std::path::Path;
use std::process::ExitCode;

use serde_json::{json, Value};

use super::play::{derive_seed, open_catalogue, Args};
use super::report::{self, Line};
use super::{BadInput, Context, Outcome};
use crate::cards::CardLookup;
use crate::games::arcadia::ai::{Agent, Seats};
use crate::games::arcadia::character::CharacterFile;
use crate::games::arcadia::engine::state::{WINNER_XP, IN_HAND};
use crate::games::arcadia::engine::{
    events::side_name, play_match, Ended, Event, Match, RngDice, State, Winner,
};
use crate::games::arcadia::setup::SetupFile;

/// Reads a setup file and its character files and compiles the match (bad input names the
/// file and, for TOML, the line and column; an illegal setup names its first violation).
pub fn load_match(lookup: &dyn CardLookup, path: &Path, turn_limit: u32) -> Result<Match, BadInput> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| BadInput(format!("{shown}: {e}")))?;
    let setup = SetupFile::parse(&text, &shown)?;
    let mut characters = Vec::new();
    for cpath in setup.character_paths(path) {
        let cshown = cpath.display().to_string();
        let ctext = std::fs::read_to_string(&cpath)
            .map_err(|e| BadInput(format!("{cshown} (a character of {shown}): {e}")))?;
        characters.push(CharacterFile::parse(&ctext, &cshown)?);
    }
    Match::new(&setup, &characters, lookup, turn_limit).map_err(|e| BadInput(format!("{shown}: {e}")))
}

/// The `sides` object: each player's character state.
pub fn sides_json(m: &Match, st: &State) -> Value {
    let side = |p: usize| {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let ids = |mask: u32| -> Vec<&str> {
            (0..pl.merits.len()).filter(|i| mask & (1 << i) != 0).map(|i| pl.merits[i].id.as_str()).collect()
        };
        let won = matches!(st.ended, Some((_, Some(Winner::Player(w)))) if w as usize == p);
        let gained = if won { WINNER_XP } else { 0 };
        let pos = m.pos[h.at as usize];
        json!({
            "character": pl.name,
            "icon": pl.icon.id,
            "league": m.leagues[h.at as usize].id,
            "position": {"x": pos.x, "y": pos.y},
            "base_camp": m.leagues[pl.base as usize].id,
            "at_base_camp": h.at == pl.base,
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

pub fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Player(p)) => json!(side_name(p)),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.files.len() != 1 {
        return Err(BadInput(format!("arcadia needs one quest setup file (`*.setup.toml`), got {}", args.files.len())));
    }
    let turn_limit = args.rules.arcadia_turn_limit()?;
    let policies = args.policies(2)?;
    let script = args.script_dice()?;
    let cat = open_catalogue(ctx)?;
    let m = load_match(&cat, &args.files[0], turn_limit)?;

    let mut seats = Seats([Agent::new(policies[0], derive_seed(args.seed, 1)), Agent::new(policies[1], derive_seed(args.seed, 2))]);
    let mut st = State::new(&m);
    let mut log: Vec<Event> = Vec::new();
    match script {
        Some(mut dice) => play_match(&m, &mut st, &mut dice, &mut seats, &mut log),
        None => play_match(&m, &mut st, &mut RngDice::new(args.seed), &mut seats, &mut log),
    }
    let (ended, _) = st.ended.unwrap_or((Ended::DiceExhausted, None));

    if args.json {
        let log = log.iter().map(|e| e.to_json(&m)).collect();
        report::print_match_json("arcadia", winner_json(&st), ended, st.day, st.dice_used, sides_json(&m, &st), log)?;
    } else {
        print_text(&m, &st, &log);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(m: &Match, st: &State, log: &[Event]) {
    use std::fmt::Write as _;
    let mut out = String::new();
    let line = |e: &Event| match e {
        Event::Day { .. } => Line::Heading,
        Event::End { .. } => Line::Apart,
        _ => Line::Item,
    };
    report::log_text(&mut out, log.iter().map(|e| (line(e), e.text(m))));
    let _ = writeln!(out);
    for p in 0..2usize {
        let pl = &m.players[p];
        let h = &st.heroes[p];
        let names = |mask: u32| -> String {
            let v: Vec<&str> =
                (0..pl.merits.len()).filter(|i| mask & (1 << i) != 0).map(|i| pl.merits[i].name.as_str()).collect();
            if v.is_empty() { "none".into() } else { v.join(", ") }
        };
        let _ = writeln!(out, "Side {} ({}): in {}", side_name(p as u8), pl.name, m.league_label(h.at));
        let _ = writeln!(out, "  ready:     {}", names(h.ready()));
        let _ = writeln!(out, "  exhausted: {}", names(h.exhausted & h.owned));
        let _ = writeln!(out, "  discarded: {}", names(h.discarded & h.owned));
        let _ = writeln!(
            out,
            "  quests done {}/{}, treasures found {}, waylays defeated {}",
            h.quests_done.count_ones(),
            pl.quests.len(),
            h.treasures_found,
            h.waylays_defeated
        );
    }
    let _ = writeln!(out, "{} Days, {} dice", st.day, st.dice_used);
    report::print(&out);
}

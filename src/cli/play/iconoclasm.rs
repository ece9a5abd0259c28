//! `deckwright play iconoclasm --players N`: one Iconoclasm game (no file) between AI
//! policies, printing its event log, an ASCII picture of the final table and the scores.
//! The cards and the clash table come from the catalogue (the table is data a user may correct).

use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{Value, json};

use crate::cli::load::iconoclasm_deck;
use crate::cli::options::{IconoclasmTable, PlayShared};
use crate::cli::out::Out;
use crate::cli::report::{self, Line};
use crate::cli::{BadInput, Context, Outcome};
use crate::games::iconoclasm::ai::PolicyKind;
use crate::games::iconoclasm::engine::render::picture;
use crate::games::iconoclasm::engine::{
    Event, IconoclasmGame, Pile, Pos, Setup, State, deal, player_scores, rank_elements,
};
use crate::sim::derive_seed;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    pub table: IconoclasmTable,
    #[command(flatten)]
    pub shared: PlayShared,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let players = args.table.players;
    let goal = args.table.goal()?;
    if players < 2 && args.shared.policy_b.is_some() {
        return Err(BadInput(
            "--policy-b: a solo game has one player; use --policy".into(),
        ));
    }
    let policies = args.shared.policies(players);
    let (deck, table) = iconoclasm_deck(ctx)?;
    let seed = args.shared.seed;
    let setup = deal(
        deck,
        &table,
        players,
        goal,
        &mut ChaCha8Rng::seed_from_u64(derive_seed(seed, 0)),
    )?;
    let (st, log) = play(&setup, &policies, seed);

    if args.shared.json {
        let names: Vec<String> = policies.iter().map(|p| p.name()).collect();
        ctx.out
            .json_pretty(&document(&setup, &st, &log, seed, &names));
    } else {
        text(&ctx.out, &setup, &st, &log);
    }
    Ok(ExitCode::SUCCESS)
}

/// The game played out, each seat by its policy.
fn play(setup: &Setup, policies: &[PolicyKind], seed: u64) -> (State, Vec<Event>) {
    let mut log: Vec<Event> = Vec::new();
    let start = IconoclasmGame::start(setup, &mut log);
    let (game, log) = crate::sim::play_logged(start, log, Pile::new(setup), policies, seed);
    (game.st, log)
}

/// The `play --json` document.
fn document(setup: &Setup, st: &State, log: &[Event], seed: u64, policies: &[String]) -> Value {
    let winner = crate::games::iconoclasm::engine::winner(st);
    json!({
        "game": "iconoclasm",
        "players": setup.players,
        "seed": seed,
        "policies": policies,
        "goal": setup.goal.map(|g| g.name()),
        "goal_met": setup.goal.map(|_| winner.is_some()),
        "winner": winner.map(|w| w + 1),
        "ended": if st.is_over() { "all_placed" } else { "incomplete" },
        "turns": st.turn,
        "scores": player_scores(st).iter().map(|s| json!({
            "player": s.player + 1,
            "elements": setup.elements_of(s.player).iter().map(|e| e.name()).collect::<Vec<_>>(),
            "points": s.points,
            "face_up": s.face_up,
        })).collect::<Vec<_>>(),
        "elements": rank_elements(st).iter().map(|e| json!({
            "element": e.element.name(),
            "count": e.count,
            "group": e.group,
            "rank": e.rank,
            "points": e.points,
            "player": if setup.goal.is_some() { None } else { e.owner.map(|o| o + 1) },
        })).collect::<Vec<_>>(),
        "grid": grid_json(setup, st),
        "log": log.iter().map(|e| e.to_json(setup)).collect::<Vec<_>>(),
    })
}

/// The final table: bounds relative to the first card and the rows, top first (`null`: empty).
fn grid_json(setup: &Setup, st: &State) -> Value {
    let Some(b) = st.grid.bounds() else {
        return json!({"top": 0, "left": 0, "width": 0, "height": 0, "rows": []});
    };
    let rows: Vec<Vec<Value>> = (b.top..=b.bottom)
        .map(|row| {
            (b.left..=b.right)
                .map(|col| match st.grid.get(Pos::new(row, col)) {
                    Some(c) => json!({
                        "id": setup.deck.cards[c.card as usize].id,
                        "face": st.face(c.card, c.up).name(),
                        "side": c.up.name(),
                    }),
                    None => Value::Null,
                })
                .collect()
        })
        .collect();
    json!({"top": b.top, "left": b.left, "width": b.width(), "height": b.height(), "rows": rows})
}

/// The terminal report: the log, the table and the scores.
fn text(out: &Out, setup: &Setup, st: &State, log: &[Event]) {
    let line = |e: &Event| match e {
        Event::Place { .. } => Line::Heading,
        Event::End { .. } => Line::Apart,
        _ => Line::Item,
    };
    report::log_text(out, log.iter().map(|e| (line(e), e.text(setup))));
    writeln!(
        out,
        "\nFinal table (rows and columns from the first card; CAPITALS: double cards):\n"
    );
    out.text(&picture(st));
    writeln!(out);
    for e in rank_elements(st) {
        let who = match (setup.goal, e.owner) {
            (Some(_), _) => String::new(),
            (None, Some(o)) => format!(" -> player {}", o + 1),
            (None, None) => " -> no player".to_string(),
        };
        let pts = if setup.goal.is_some() {
            String::new()
        } else {
            format!(", {} pts", e.points)
        };
        writeln!(
            out,
            "  {:<6} {:>2} face up, group of {}{pts}{who}",
            e.element.name(),
            e.count,
            e.group
        );
    }
    match setup.goal {
        Some(g) => {
            let met = crate::games::iconoclasm::engine::goal_met(st, g);
            writeln!(
                out,
                "Solo goal {}: {}",
                g.name(),
                if met { "met" } else { "missed" }
            );
        }
        None => {
            for s in player_scores(st) {
                writeln!(
                    out,
                    "Player {}: {} point{} ({} face up)",
                    s.player + 1,
                    s.points,
                    if s.points == 1 { "" } else { "s" },
                    s.face_up
                );
            }
        }
    }
}

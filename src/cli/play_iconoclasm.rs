//! `deckwright play iconoclasm --players N`: one Iconoclasm game (no file) between AI
//! policies, printing its event log, an ASCII picture of the final table and the scores.
//! The cards and the clash table come from the catalogue (the table is data a user may correct).

use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

use super::play::{derive_seed, open_catalogue, Args};
use super::report::{self, Line};
use super::{BadInput, Context, Outcome};
use crate::cards::Card;
use crate::games::iconoclasm::ai::Agent;
use crate::games::iconoclasm::model::ClashTable;
use crate::games::iconoclasm::engine::render::picture;
use crate::games::iconoclasm::engine::{
    deal, play_match, player_scores, rank_elements, Deck, Event, Goal, Pos, Setup, State,
};

pub fn run(ctx: &Context, args: &Args) -> Outcome {
    if let Some(f) = args.files.first() {
        return Err(BadInput(format!("iconoclasm takes no file (got {}); use --players N", f.display())));
    }
    if args.dice.is_some() {
        return Err(BadInput("--dice is an iconica option; iconoclasm has no dice".into()));
    }
    args.rules.none_for_iconoclasm()?;
    let (players, goal) = args.iconoclasm.players_and_goal()?;
    let mut agents: Vec<Agent> = (args.policies(players)?.into_iter().zip(1..))
        .map(|(kind, stream)| Agent::new(kind, derive_seed(args.seed, stream)))
        .collect();
    if players < 2 && args.policy_b.is_some() {
        return Err(BadInput("--policy-b: a solo game has one player; use --policy".into()));
    }

    let (deck, table) = deck_and_table(ctx)?;
    let setup = deal(deck, &table, players, goal, &mut ChaCha8Rng::seed_from_u64(derive_seed(args.seed, 0)))?;

    let mut log: Vec<Event> = Vec::new();
    let st = play_match(&setup, &mut |seat, st, moves| agents[seat as usize].choose(st, moves), &mut log);

    let out = if args.json {
        let doc = document(&setup, &st, &log, args.seed, &agents.iter().map(|a| a.kind.name()).collect::<Vec<_>>());
        serde_json::to_string_pretty(&doc)? + "\n"
    } else {
        text(&setup, &st, &log)
    };
    report::print(&out);
    Ok(ExitCode::SUCCESS)
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
    let Some(b) = st.grid.bounds() else { return json!({"top": 0, "left": 0, "width": 0, "height": 0, "rows": []}) };
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
fn text(setup: &Setup, st: &State, log: &[Event]) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let line = |e: &Event| match e {
        Event::Place { .. } => Line::Heading,
        Event::End { .. } => Line::Apart,
        _ => Line::Item,
    };
    report::log_text(&mut out, log.iter().map(|e| (line(e), e.text(setup))));
    let _ = writeln!(out, "\nFinal table (rows and columns from the first card; CAPITALS: double cards):\n");
    out.push_str(&picture(st));
    let _ = writeln!(out);
    for e in rank_elements(st) {
        let who = match (setup.goal, e.owner) {
            (Some(_), _) => String::new(),
            (None, Some(o)) => format!(" -> player {}", o + 1),
            (None, None) => " -> no player".to_string(),
        };
        let pts = if setup.goal.is_some() { String::new() } else { format!(", {} pts", e.points) };
        let _ = writeln!(out, "  {:<6} {:>2} face up, group of {}{pts}{who}", e.element.name(), e.count, e.group);
    }
    match setup.goal {
        Some(g) => {
            let met = crate::games::iconoclasm::engine::goal_met(st, g);
            let _ = writeln!(out, "Solo goal {}: {}", g.name(), if met { "met" } else { "missed" });
        }
        None => {
            for s in player_scores(st) {
                let _ = writeln!(out, "Player {}: {} point{} ({} face up)", s.player + 1, s.points, if s.points == 1 { "" } else { "s" }, s.face_up);
            }
        }
    }
    out
}

/// The catalogue's Iconoclasm cards as a deck, and its clash table (a user may correct it).
pub(super) fn deck_and_table(ctx: &Context) -> Result<(Deck, ClashTable), BadInput> {
    let cat = open_catalogue(ctx)?;
    let table = cat.clash_table().map_err(|e| BadInput(format!("the catalogue's clash table: {e}")))?;
    if let Some(p) = table.problems().first() {
        return Err(BadInput(format!("the catalogue's clash table is not usable: {}", p.message)));
    }
    let cards: Vec<_> = cat
        .all()
        .map_err(|e| BadInput(format!("reading the catalogue: {e}")))?
        .into_iter()
        .filter_map(|c| if let Card::Iconoclasm(e) = c { Some(e) } else { None })
        .collect();
    Ok((Deck::from_cards(&cards)?, table))
}

/// The Iconoclasm options `play` and `sim` share.
#[derive(Debug, clap::Args)]
pub struct IconoclasmArgs {
    /// Iconoclasm: number of players, 1 to 4.
    #[arg(long)]
    pub players: Option<u8>,
    /// Iconoclasm solo goal: dominance or balance.
    #[arg(long)]
    pub goal: Option<String>,
}

impl IconoclasmArgs {
    /// Whether any of them is given.
    pub fn given(&self) -> bool {
        self.players.is_some() || self.goal.is_some()
    }

    /// `--players` (1 to 4, required) and `--goal` (solo games only; dominance by default).
    pub fn players_and_goal(&self) -> Result<(u8, Goal), BadInput> {
        let players = self.players.ok_or_else(|| BadInput("iconoclasm needs --players N (1 to 4)".into()))?;
        if !(1..=4).contains(&players) {
            return Err(BadInput(format!("--players: iconoclasm is for 1 to 4 players, not {players}")));
        }
        let goal = match (self.goal.as_deref(), players) {
            (None, _) => Goal::Dominance,
            (Some(g), 1) => Goal::parse(g)
                .ok_or_else(|| BadInput(format!("--goal: unknown goal `{g}`; expected dominance or balance")))?,
            (Some(_), _) => return Err(BadInput("--goal is for solo games (--players 1)".into())),
        };
        Ok((players, goal))
    }
}

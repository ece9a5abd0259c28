//! `deckwright play iconica A.party.toml B.party.toml`: one Iconica match (two party files,
//! or four for a team game: the first two are side a's players in seating order, the last
//! two side b's).

use std::path::PathBuf;
use std::process::ExitCode;

use serde_json::{Value, json};

use crate::cli::load::{iconica_setup, open_catalogue, parties};
use crate::cli::options::{DiceScript, IconicaRules, PlayShared};
use crate::cli::report::{self, Line};
use crate::cli::{BadInput, Context, Outcome};
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Ended, Event, ScriptDice, Setup, State, Winner};
use crate::sim::{self, iconica::Played};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Two party files, a then b; or four for a team game (side a's two players in seating
    /// order, then side b's).
    #[arg(required = true, value_name = "PARTY")]
    pub parties: Vec<PathBuf>,
    #[command(flatten)]
    pub rules: IconicaRules,
    #[command(flatten)]
    pub dice: DiceScript,
    #[command(flatten)]
    pub shared: PlayShared,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.parties.len() != 2 && args.parties.len() != 4 {
        return Err(BadInput(format!(
            "iconica needs two party files (or four for a team game), got {}",
            args.parties.len()
        )));
    }
    let cat = open_catalogue(ctx)?;
    let parties = parties(&cat, &args.parties)?;
    let setup = iconica_setup(&parties, args.rules.rules())?;
    let policies = args.shared.policies(2);
    let Played { state: st, log } = play(
        &setup,
        [policies[0], policies[1]],
        args.shared.seed,
        args.dice.dice,
    );

    let out = &ctx.out;
    let (ended, _) = st.ended.unwrap_or((Ended::DiceExhausted, None));
    if args.shared.json {
        let log = log.iter().map(|e| e.to_json(&setup)).collect();
        out.json_pretty(&report::match_json(
            "iconica",
            winner_json(&st),
            ended,
            st.turn,
            st.dice_used,
            sides_json(&setup, &st),
            log,
        ));
    } else {
        let line = |e: &Event| {
            if matches!(e, Event::Turn { .. }) {
                Line::Heading
            } else {
                Line::Item
            }
        };
        report::log_text(out, log.iter().map(|e| (line(e), e.text(&setup))));
        writeln!(out);
        for side in 0..2u8 {
            writeln!(out, "Side {}:", if side == 0 { "a" } else { "b" });
            for (i, c) in setup
                .chars
                .iter()
                .enumerate()
                .filter(|(i, _)| setup.side[*i] == side)
            {
                let statuses: Vec<&str> = st.statuses(i).map(|s| s.name()).collect();
                if st.is_alive(i) {
                    writeln!(
                        out,
                        "  {:<24} {:>4}/{:<4} {}",
                        c.name,
                        st.hp[i],
                        c.start,
                        statuses.join(", ")
                    );
                } else {
                    writeln!(out, "  {:<24} Skulled", c.name);
                }
            }
        }
        let end = log.last().map(|e| e.text(&setup)).unwrap_or_default();
        writeln!(out, "{end}; {} turns, {} dice", st.turn, st.dice_used);
    }
    Ok(ExitCode::SUCCESS)
}

/// The match, logged: the scripted dice when given, else the seed's.
fn play(setup: &Setup, [a, b]: [PolicyKind; 2], seed: u64, script: Option<ScriptDice>) -> Played {
    match script {
        Some(dice) => sim::iconica::play_logged(setup, a, b, seed, dice),
        None => sim::iconica::play_logged(setup, a, b, seed, sim::iconica::seeded_dice(seed)),
    }
}

/// The `sides` object of the JSON: every member in party order.
fn sides_json(setup: &Setup, st: &State) -> Value {
    let [a, b] = sim::iconica::sides(setup, st).map(|side| {
        side.into_iter()
            .map(|m| json!({"id": m.id, "health": m.health, "skulled": m.skulled, "statuses": m.statuses}))
            .collect::<Vec<_>>()
    });
    json!({"a": a, "b": b})
}

fn winner_json(st: &State) -> Value {
    match st.ended.and_then(|e| e.1) {
        Some(Winner::Side(0)) => json!("a"),
        Some(Winner::Side(_)) => json!("b"),
        Some(Winner::Draw) => json!("draw"),
        None => Value::Null,
    }
}

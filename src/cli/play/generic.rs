//! `deckwright play GAME [--seed S] [--policy P] [--dice ...] [--json] [--record F]` for a
//! registered game that starts from its rules alone and has no subcommand of its own: the
//! registry's game played through `AnyGame`, each seat's decisions seeded as the Match
//! screen's computer decides them.

use std::process::ExitCode;

use clap::Parser;

use crate::cli::options::{DiceScript, PlayShared};
use crate::cli::report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::any;
use crate::games::dice::RngDice;
use crate::games::registry;
use crate::games::session::Seat;

/// Plays one match of a game that starts from its rules alone and prints its log and result.
#[derive(Debug, Parser)]
struct Args {
    #[command(flatten)]
    dice: DiceScript,
    #[command(flatten)]
    shared: PlayShared,
}

/// `play --help`'s note of the registered games that have no subcommand of their own.
pub fn games_help() -> String {
    let names: Vec<&str> = registry::GAMES
        .iter()
        .filter(|g| g.generic.is_some())
        .map(|g| g.name)
        .collect();
    format!(
        "Also: {} (games that start from their rules alone; `deckwright play {} --help`).",
        names.join(", "),
        names.first().copied().unwrap_or("GAME")
    )
}

pub fn run(ctx: &Context, words: Vec<String>) -> Outcome {
    let name = words.first().cloned().unwrap_or_default();
    let generic: Vec<&str> = registry::GAMES
        .iter()
        .filter(|g| g.generic.is_some())
        .map(|g| g.name)
        .collect();
    let Some(game) = registry::find(&name).filter(|g| g.generic.is_some()) else {
        return Err(BadInput(format!(
            "`{name}` is not a game play knows; games: iconica, arcadia, iconoclasm, ruunara{}",
            generic.iter().map(|g| format!(", {g}")).collect::<String>()
        )));
    };
    let make = game.generic.expect("filtered above");
    let args = match Args::try_parse_from(
        std::iter::once(format!("deckwright play {name}")).chain(words.into_iter().skip(1)),
    ) {
        Ok(a) => a,
        Err(e) if !e.use_stderr() => {
            // --help: clap's text is the answer.
            ctx.out.text(&e.to_string());
            return Ok(ExitCode::SUCCESS);
        }
        Err(e) => {
            let text = e.to_string();
            let text = text.strip_prefix("error: ").unwrap_or(&text).trim_end();
            return Err(BadInput(text.to_string()));
        }
    };
    let start = make();
    let seats: Vec<Seat> = args
        .shared
        .policies(start.seats().min(u8::MAX as usize) as u8)
        .into_iter()
        .map(Seat::Computer)
        .collect();
    let seed = args.shared.seed;
    let played = match args.dice.dice {
        Some(d) => any::play(start, d, &seats, seed),
        None => any::play(start, RngDice::new(seed), &seats, seed),
    };
    let names: Vec<String> = seats.iter().map(|s| s.record_name()).collect();
    if let Some(path) = &args.shared.record {
        report::save_record(
            &any::record(&played, game.engine, seed, names.clone()),
            path,
        )?;
    }
    report::print(
        &ctx.out,
        any::report(played.game.as_ref(), &played.steps, seed, &names),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}

//! `deckwright play arcadia SETUP.setup.toml`: one Arcadia quest played by two policies,
//! printing its event log and final state (or the `play --json` document).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::load::{arcadia_compiled, open_catalogue};
use crate::cli::options::{ArcadiaRules, DiceScript, PlayShared};
use crate::cli::report;
use crate::cli::{Context, Outcome};
use crate::games::arcadia::engine::{ArcadiaGame, Event, RngDice};
use crate::games::arcadia::matchfile::{self, ENGINE};
use crate::games::record::{Inputs, MatchRecord};
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
    let (m, source) = arcadia_compiled(&cat, &args.setup, args.rules.turn_limit)?;
    crate::cli::report::say_gaps(&source.cards);
    let policies = args.shared.policies(2);
    let seed = args.shared.seed;
    let mut log: Vec<Event> = Vec::new();
    let start = ArcadiaGame::start(&m, &mut log);
    // Node by node (the game's one path), every input kept for the match file.
    let played = match args.dice.dice {
        Some(dice) => sim::play_recorded(start, log, dice, &policies, seed),
        None => sim::play_recorded(start, log, RngDice::new(seed), &policies, seed),
    };
    if let Some(path) = &args.shared.record {
        let record = MatchRecord::of_inputs(
            &ArcadiaGame::new(&m),
            ENGINE,
            seed,
            policies.iter().map(|p| p.name()).collect(),
            Inputs {
                inputs: played.inputs,
                points: Vec::new(),
                exhausted: played.exhausted,
            },
            matchfile::options(&source),
        );
        report::save_record(&record, path)?;
    }
    report::print(
        &ctx.out,
        matchfile::report(&m, &played.game.st, &played.log),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}

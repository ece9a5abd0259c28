//! `deckwright play iconoclasm --players N`: one Iconoclasm game (no file) between AI
//! policies, printing its event log, an ASCII picture of the final table and the scores.
//! The cards and the clash table come from the catalogue (the table is data a user may correct).

use std::process::ExitCode;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::cli::load::iconoclasm_deck;
use crate::cli::options::{IconoclasmTable, PlayShared};
use crate::cli::report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::iconoclasm::engine::{Event, IconoclasmGame, Pile, deal};
use crate::games::iconoclasm::matchfile::{self, ENGINE};
use crate::games::record::{Inputs, MatchRecord};
use crate::sim::{self, derive_seed};

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
    let mut log: Vec<Event> = Vec::new();
    let start = IconoclasmGame::start(&setup, &mut log);
    let played = sim::play_recorded(start, log, Pile::new(&setup), &policies, seed);
    let names: Vec<String> = policies.iter().map(|p| p.name()).collect();
    if let Some(path) = &args.shared.record {
        let record = MatchRecord::of_inputs(
            &IconoclasmGame::start(&setup, &mut Vec::new()),
            ENGINE,
            seed,
            names.clone(),
            Inputs {
                inputs: played.inputs,
                points: Vec::new(),
                exhausted: played.exhausted,
            },
            matchfile::options(&setup, &table),
        );
        report::save_record(&record, path)?;
    }
    report::print(
        &ctx.out,
        matchfile::report(&setup, &played.game.st, &played.log, seed, &names),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}

//! `deckwright play iconica A.party.toml B.party.toml`: one Iconica match (two party files,
//! or four for a team game: the first two are side a's players in seating order, the last
//! two side b's).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::cli::load::{iconica_setup, named_parties, open_catalogue};
use crate::cli::options::{DiceScript, IconicaRules, PlayShared};
use crate::cli::report;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::dice::Dice;
use crate::games::iconica::engine::{IconicaGame, Setup};
use crate::games::iconica::matchfile::{self, ENGINE};
use crate::games::record::{Inputs, MatchRecord};
use crate::sim;

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
    let named = named_parties(&cat, &args.parties)?;
    let parties: Vec<_> = named.iter().map(|(_, m)| m.clone()).collect();
    let rules = args.rules.rules();
    let setup = iconica_setup(&parties, rules)?;
    let policies = args.shared.policies(2);
    let seed = args.shared.seed;
    let (state, log) = match &args.shared.record {
        // Node by node with every input kept: the same match as the engine's fast path.
        Some(path) => {
            let r = match args.dice.dice {
                Some(d) => record(&setup, d, &policies, seed),
                None => record(&setup, sim::iconica::seeded_dice(seed), &policies, seed),
            };
            let record = MatchRecord::of_inputs(
                &IconicaGame::new(&setup),
                ENGINE,
                seed,
                policies.iter().map(|p| p.name()).collect(),
                Inputs {
                    inputs: r.inputs,
                    points: Vec::new(),
                    exhausted: r.exhausted,
                },
                matchfile::options(&rules, &named),
            );
            report::save_record(&record, path)?;
            (*r.game.state(), r.log)
        }
        None => {
            let (a, b) = (policies[0], policies[1]);
            let p = match args.dice.dice {
                Some(d) => sim::iconica::play_logged(&setup, a, b, seed, d),
                None => {
                    sim::iconica::play_logged(&setup, a, b, seed, sim::iconica::seeded_dice(seed))
                }
            };
            (p.state, p.log)
        }
    };
    report::print(
        &ctx.out,
        matchfile::report(&setup, &state, &log),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}

/// The match played node by node, every input kept (the same match as the fast path).
fn record<'s, D: Dice>(
    setup: &'s Setup,
    dice: D,
    policies: &[crate::games::ai::Policy],
    seed: u64,
) -> sim::Recorded<IconicaGame<'s>> {
    sim::play_recorded(IconicaGame::new(setup), Vec::new(), dice, policies, seed)
}

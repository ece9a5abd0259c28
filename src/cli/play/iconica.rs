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
use crate::games::record::MatchRecord;
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
    let played = match (args.dice.dice, &args.shared.record) {
        (Some(d), Some(_)) => Played::Recorded(record(&setup, d, &policies, seed)),
        (None, Some(_)) => Played::Recorded(record(
            &setup,
            sim::iconica::seeded_dice(seed),
            &policies,
            seed,
        )),
        (Some(d), None) => Played::Fast(sim::iconica::play_logged(
            &setup,
            policies[0],
            policies[1],
            seed,
            d,
        )),
        (None, None) => Played::Fast(sim::iconica::play_logged(
            &setup,
            policies[0],
            policies[1],
            seed,
            sim::iconica::seeded_dice(seed),
        )),
    };
    let (state, log) = match played {
        Played::Fast(p) => (p.state, p.log),
        Played::Recorded(r) => {
            let path = args
                .shared
                .record
                .as_deref()
                .expect("recorded with --record");
            let record = MatchRecord::of_inputs(
                &IconicaGame::new(&setup),
                ENGINE,
                seed,
                policies.iter().map(|p| p.name()).collect(),
                r.inputs,
                Vec::new(),
                r.exhausted,
                matchfile::options(&rules, &named),
            );
            record
                .save(path)
                .map_err(|e| BadInput(format!("{}: {}", path.display(), crate::error_chain(&e))))?;
            (*r.game.state(), r.log)
        }
    };
    report::print(
        &ctx.out,
        matchfile::report(&setup, &state, &log),
        args.shared.json,
    );
    Ok(ExitCode::SUCCESS)
}

/// How the match was played: the engine's fast path, or node by node with every input kept.
enum Played<'s> {
    Fast(sim::iconica::Played),
    Recorded(sim::Recorded<IconicaGame<'s>>),
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

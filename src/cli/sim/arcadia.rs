//! `deckwright sim arcadia SETUP.setup.toml`: many AI-vs-AI Arcadia quests in parallel.

use clap::ArgMatches;

use super::{parsed, two_sided};
use crate::cli::load::{arcadia_compiled, open_catalogue};
use crate::cli::options::SimShared;
use crate::cli::{Context, Outcome};
use crate::games::Ended;
use crate::games::arcadia::engine::Match;
use crate::games::arcadia::options::ArcadiaOptions;
use crate::games::game::Outcome as MatchOutcome;
use crate::games::iconica::ai::PolicyKind;
use crate::sim;

pub fn run(ctx: &Context, m: &ArgMatches) -> Outcome {
    let options: ArcadiaOptions = parsed(m)?;
    let shared: SimShared = parsed(m)?;
    let policies = shared.policies(2);
    let (pa, pb) = (policies[0], policies[1]);
    let cat = open_catalogue(ctx)?;
    let (m, source) = arcadia_compiled(&cat, &options.setup, options.rules.turn_limit)?;
    crate::cli::report::say_gaps(&source.cards);
    two_sided(
        ctx,
        "arcadia",
        "Days",
        crate::games::arcadia::matchfile::ENGINE,
        &format!("{m:?}"),
        &shared,
        [pa.name(), pb.name()],
        |i| play_one(&m, [pa, pb], shared.seed, i),
    )
}

/// Quest `index` of a run seeded `seed`.
fn play_one(m: &Match, [a, b]: [PolicyKind; 2], seed: u64, index: u64) -> MatchOutcome<Ended> {
    sim::arcadia::play_one(m, a, b, seed, index)
}

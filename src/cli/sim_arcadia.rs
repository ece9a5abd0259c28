//! `deckwright sim arcadia SETUP.setup.toml`: many AI-vs-AI Arcadia quests in parallel.

use super::play::open_catalogue;
use super::play_arcadia::load_match;
use super::sim::{two_sided, Args};
use super::{BadInput, Context, Outcome};
use crate::sim;

pub fn run(ctx: &Context, args: Args) -> Outcome {
    if args.files.len() != 1 {
        return Err(BadInput(format!("sim arcadia needs one quest setup file (`*.setup.toml`), got {}", args.files.len())));
    }
    if args.field || !args.pool.is_empty() {
        return Err(BadInput("--field and --pool are Iconica options".into()));
    }
    let turn_limit = args.rules.arcadia_turn_limit()?;
    args.check_counts()?;
    let policies = args.policies(2)?;
    let (pa, pb) = (policies[0], policies[1]);
    let cat = open_catalogue(ctx)?;
    let m = load_match(&cat, &args.files[0], turn_limit)?;
    two_sided("arcadia", "Days", &args, [pa.name(), pb.name()], |i| {
        sim::arcadia::play_one(&m, pa, pb, args.seed, i)
    })
}

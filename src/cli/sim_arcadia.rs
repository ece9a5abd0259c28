//! `deckwright sim arcadia SETUP.setup.toml`: many AI-vs-AI Arcadia quests in parallel.

use super::play::{open_catalogue, side_policy};
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
    let r = &args.rules;
    if r.ruleset != "v2" || r.breaks != "standard" || !r.house.is_empty() {
        return Err(BadInput("--ruleset, --breaks and --house are Iconica options; Arcadia has none".into()));
    }
    if r.turn_limit == 0 {
        return Err(BadInput("--turn-limit must be at least 1".into()));
    }
    if args.games == 0 {
        return Err(BadInput("--games must be at least 1".into()));
    }
    if args.threads == Some(0) {
        return Err(BadInput("--threads must be at least 1".into()));
    }
    let pa = side_policy("--ai-a", args.ai_a.as_deref(), "--ai", &args.ai)?;
    let pb = side_policy("--ai-b", args.ai_b.as_deref(), "--ai", &args.ai)?;
    let cat = open_catalogue(ctx)?;
    let m = load_match(&cat, &args.files[0], r.turn_limit)?;
    two_sided("arcadia", "Days", &args, [pa.name(), pb.name()], |i| {
        sim::arcadia::play_one(&m, pa, pb, args.seed, i)
    })
}

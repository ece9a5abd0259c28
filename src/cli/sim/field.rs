//! `deckwright sim iconica PARTY --field [--pool IDS]`: every legal party of a pool of
//! Iconica characters against one party, a run each, reported per character. (A run of two
//! parties is `sim`'s, as for every game.)

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use serde_json::json;

use clap::ArgMatches;

use super::{bar, parsed, pct, run_games};
use crate::cards::{Card, CardLookup};
use crate::catalogue::Catalogue;
use crate::cli::limits::{MAX_FIELD_POOL, MAX_GAMES};
use crate::cli::load::{iconica_characters, iconica_setup, open_catalogue, parties};
use crate::cli::options::SimShared;
use crate::cli::{BadInput, Context, Outcome};
use crate::games::Ended;
use crate::games::game::Outcome as MatchOutcome;
use crate::games::iconica::ai::PolicyKind;
use crate::games::iconica::engine::{Rules, Setup};
use crate::games::iconica::model::Character;
use crate::games::iconica::options::{Field, IconicaOptions};
use crate::sim::{self, Summary};

/// A `sim iconica --field` run's arguments.
struct Args {
    parties: Vec<PathBuf>,
    pool: Vec<String>,
    shared: SimShared,
}

/// Whether `m` asks for a field run (`--field`, an argument of Iconica's `sim`).
pub fn asked(m: &ArgMatches) -> bool {
    matches!(m.try_get_one::<bool>("field"), Ok(Some(true)))
}

/// `sim iconica --field`: every legal party of a pool of Iconica characters against one party.
pub fn run(ctx: &Context, m: &ArgMatches) -> Outcome {
    let options: IconicaOptions = parsed(m)?;
    let chosen: Field = parsed(m)?;
    let args = Args {
        parties: options.parties,
        pool: chosen.pool,
        shared: parsed(m)?,
    };
    let rules = options.rules.rules();
    let policies = args.shared.policies(2);
    let (pa, pb) = (policies[0], policies[1]);
    let cat = open_catalogue(ctx)?;
    if args.shared.sharding.shard.is_some() {
        return Err(BadInput(
            "--shard: a --field run is not split into shards yet; shard a run of two parties"
                .into(),
        ));
    }
    field(ctx, &cat, &args, rules, pa, pb)
}

/// Game `index` of a run seeded `seed`.
fn play_one(setup: &Setup, [a, b]: [PolicyKind; 2], seed: u64, index: u64) -> MatchOutcome<Ended> {
    sim::iconica::play_one(setup, a, b, seed, index)
}

fn field(
    ctx: &Context,
    cat: &Catalogue,
    args: &Args,
    rules: Rules,
    pa: PolicyKind,
    pb: PolicyKind,
) -> Outcome {
    if args.parties.len() != 1 {
        return Err(BadInput(
            "sim --field takes exactly one party file (the party the field plays)".into(),
        ));
    }
    let opponent = parties(cat, &args.parties)?.remove(0);
    let pool: Vec<Character> = if args.pool.is_empty() {
        iconica_characters(cat)?
    } else {
        let mut v = Vec::new();
        for id in &args.pool {
            match cat.card(id).map(|c| c.into_owned()) {
                Some(Card::Iconica(c)) => v.push(c),
                _ => {
                    return Err(BadInput(format!(
                        "--pool: `{id}` is not an Iconica character in the catalogue"
                    )));
                }
            }
        }
        v
    };
    if pool.len() > MAX_FIELD_POOL {
        return Err(BadInput(format!(
            "--field: a pool of {} characters is more than the {MAX_FIELD_POOL} a field is drawn from; name them with --pool",
            pool.len()
        )));
    }
    let parties = sim::iconica::field_parties(&pool, &opponent);
    if parties.is_empty() {
        return Err(BadInput(
            "--field: no legal party can be formed from the pool".into(),
        ));
    }
    let games = args.shared.games;
    let total = games.saturating_mul(parties.len() as u64);
    if total > MAX_GAMES {
        return Err(BadInput(format!(
            "--field: {} parties x {games} games is more than the {MAX_GAMES} games a run may play; lower --games",
            parties.len()
        )));
    }
    let pbar = bar(total);
    let started = Instant::now();
    let mut results: Vec<Summary> = Vec::with_capacity(parties.len());
    for (pi, p) in parties.iter().enumerate() {
        let members: Vec<Character> = p.iter().map(|&i| pool[i].clone()).collect();
        let setup = iconica_setup(&[members, opponent.clone()], rules)?;
        let seed = sim::iconica::field_seed(args.shared.seed, pi);
        results.push(run_games(&args.shared, games, &pbar, |i| {
            play_one(&setup, [pa, pb], seed, i)
        })?);
    }
    pbar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64().max(1e-9);
    // Per character: every game of every party it is in.
    let per: Vec<(usize, Summary, usize)> =
        sim::iconica::field_rows(pool.len(), &parties, &results)
            .into_iter()
            .map(|r| (r.character, r.summary, r.parties))
            .collect();
    let out = &ctx.out;
    if args.shared.json {
        let chars: Vec<_> = per
            .iter()
            .map(|(i, s, n)| {
                let (lo, hi) = s.ci95_a();
                json!({"id": pool[*i].id, "name": pool[*i].name, "parties": n, "games": s.games,
                       "wins": s.wins[0], "win_rate": s.win_rate_a(), "ci95": [lo, hi]})
            })
            .collect();
        let ps: Vec<_> = parties
            .iter()
            .zip(&results)
            .map(|(p, s)| {
                let (lo, hi) = s.ci95_a();
                json!({"members": p.iter().map(|&i| pool[i].id.clone()).collect::<Vec<_>>(),
                       "games": s.games, "wins": s.wins[0], "win_rate": s.win_rate_a(), "ci95": [lo, hi]})
            })
            .collect();
        let doc = json!({
            "game": "iconica", "field": true, "seed": args.shared.seed, "games_per_party": games,
            "ai": {"field": pa.name(), "opponent": pb.name()},
            "opponent": opponent.iter().map(|c| c.id.clone()).collect::<Vec<_>>(),
            "characters": chars, "parties": ps,
            "games_per_sec": total as f64 / secs,
        });
        out.json(&doc);
    } else {
        writeln!(
            out,
            "iconica field: {} legal parties x {} games against {}; {} (field) vs {}",
            parties.len(),
            games,
            opponent
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            pa.name(),
            pb.name()
        );
        writeln!(
            out,
            "{:<28} {:>7} {:>9} {:>8}  95% CI",
            "character", "parties", "games", "win rate"
        );
        for (i, s, n) in &per {
            let (lo, hi) = s.ci95_a();
            writeln!(
                out,
                "{:<28} {:>7} {:>9} {:>8}  {} to {}",
                pool[*i].name,
                n,
                s.games,
                pct(s.win_rate_a()),
                pct(lo),
                pct(hi)
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

//! `deckwright lint [QUERY] [--json]`: the catalogue's cards (or those a query selects)
//! whose text and effects disagree (the numbers, statuses and targets a text names and no
//! effect has, or the reverse: `games::wording`), or whose text is not fully played by
//! their game's engine, each part named with what the engine does instead (`games::gaps`);
//! exit 1 if any.

use std::process::ExitCode;

use serde_json::json;

use super::load::open_catalogue;
use super::out::escape_controls as esc;
use super::{BadInput, Context, Outcome};
use crate::cards::Card;
use crate::games::{gaps, wording};
use crate::search;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A search query selecting the cards (docs/search.md); every card when none.
    pub query: Vec<String>,
    /// Print JSON on stdout: {"cards": N, "disagree": [{"card", "name", "part", "why"}],
    /// "not_played": [{"card", "name", "part", "why"}]}.
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let cat = open_catalogue(ctx)?;
    let cards: Vec<Card> = if args.query.is_empty() {
        cat.all()
            .map_err(|e| BadInput(format!("the catalogue: {e}")))?
    } else {
        let text = args.query.join(" ");
        let query = search::parse(&text).map_err(|e| {
            BadInput(format!(
                "the query: {e}\n{}",
                search::point_at(&text, e.column)
            ))
        })?;
        let hits = cat
            .run_query(&query, None)
            .map_err(|e| BadInput(format!("the query: {e}")))?;
        let mut v = Vec::with_capacity(hits.len());
        for h in hits {
            if let Some(c) = cat.get(&h.id).map_err(|e| BadInput(e.to_string()))? {
                v.push(c);
            }
        }
        v
    };
    let found = gaps::of_cards(&cards);
    let disagree = wording::of_cards(&cards);
    if args.json {
        ctx.out
            .json(&json!({"cards": cards.len(), "disagree": disagree, "not_played": found}));
    } else {
        for m in &disagree {
            writeln!(&ctx.out, "{}", esc(&m.line()));
        }
        if !disagree.is_empty() {
            writeln!(
                &ctx.out,
                "{} of {} disagree with their effects",
                crate::count(disagree.len() as u64, "text", "texts"),
                crate::count(cards.len() as u64, "card", "cards")
            );
        }
        for g in &found {
            writeln!(&ctx.out, "{}", esc(&g.line()));
        }
        writeln!(
            &ctx.out,
            "{} of {} not fully played",
            crate::count(found.len() as u64, "card text", "card texts"),
            crate::count(cards.len() as u64, "card", "cards")
        );
    }
    Ok(if found.is_empty() && disagree.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

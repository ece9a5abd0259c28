//! `deckwright search QUERY [--json]`: the matching cards, one a line (or JSON), and a count
//! line on stderr. A bad query is bad input (exit 2) with a caret under the column at fault.

use std::borrow::Cow;
use std::process::ExitCode;

use super::limits::MAX_QUERY_CHARS;
use super::out::{Out, escape_controls, note};
use super::{BadInput, Context, Outcome};
use crate::catalogue::{self, Catalogue};
use crate::search::{self, Hit, SearchError};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The query (see docs/search.md); several words are joined by spaces. A query starting
    /// with `-` goes after `--`: `deckwright search -- -faction:legion`.
    #[arg(required = true, num_args = 1.., value_name = "QUERY")]
    pub query: Vec<String>,
    /// Print JSON on stdout: {"query": "...", "results": [{"id", "game", "kind", "name", "owned"}]}.
    #[arg(long)]
    pub json: bool,
}

#[derive(serde::Serialize)]
struct JsonOut<'a> {
    query: &'a str,
    results: &'a [Hit],
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let text = args.query.join(" ");
    let length = text.chars().count();
    if length > MAX_QUERY_CHARS {
        return Err(BadInput(format!(
            "the query is {length} characters long; a query holds at most {MAX_QUERY_CHARS}"
        )));
    }
    let query = search::parse(&text).map_err(|e| bad_query(&text, &SearchError::Syntax(e)))?;
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    let cat = Catalogue::open(&path)
        .map_err(|e| BadInput(format!("cannot open the catalogue {}: {e}", path.display())))?;
    let hits = cat
        .run_query(&query, None)
        .map_err(|e| bad_query(&text, &e))?;
    if args.json {
        ctx.out.json(&JsonOut {
            query: &text,
            results: &hits,
        });
    } else {
        write_table(&ctx.out, &hits);
    }
    ctx.out.flush();
    note!(
        "{} card{}",
        hits.len(),
        if hits.len() == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

/// A bad query: the message, then the query with a caret under the column at fault.
fn bad_query(text: &str, e: &SearchError) -> BadInput {
    match e.column() {
        Some(col) if e.is_bad_query() => BadInput(format!("{e}\n{}", search::point_at(text, col))),
        _ => BadInput(e.to_string()),
    }
}

/// One card a line, columns aligned: id, game, kind, name, owned. Control characters in
/// the text are escaped (a name cannot move the cursor, retitle the terminal or forge a row).
fn write_table(out: &Out, hits: &[Hit]) {
    let rows: Vec<[Cow<'_, str>; 4]> = hits
        .iter()
        .map(|h| [&h.id, &h.game, &h.kind, &h.name].map(|s| escape_controls(s)))
        .collect();
    let width = |col: usize| {
        rows.iter()
            .map(|r| r[col].chars().count())
            .max()
            .unwrap_or(0)
    };
    let (wi, wg, wk, wn) = (width(0), width(1), width(2), width(3));
    for ([id, game, kind, name], h) in rows.iter().zip(hits) {
        writeln!(
            out,
            "{id:wi$}  {game:wg$}  {kind:wk$}  {name:wn$}  {}",
            h.owned
        );
    }
}

//! `deckwright search QUERY [--json]`: the matching cards, one a line (or JSON), and a count
//! line on stderr. A bad query is bad input (exit 2) with a caret under the column at fault.

use std::io::Write;
use std::process::ExitCode;

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
    let query = search::parse(&text).map_err(|e| bad_query(&text, &SearchError::Syntax(e)))?;
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    let cat = Catalogue::open(&path)
        .map_err(|e| BadInput(format!("cannot open the catalogue {}: {e}", path.display())))?;
    let hits = cat
        .run_query(&query, None)
        .map_err(|e| bad_query(&text, &e))?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = if args.json {
        serde_json::to_writer(
            &mut out,
            &JsonOut {
                query: &text,
                results: &hits,
            },
        )
        .map_err(std::io::Error::from)
        .and_then(|()| writeln!(out))
    } else {
        write_table(&mut out, &hits)
    };
    match written.and_then(|()| out.flush()) {
        Ok(()) => {}
        // a closed pipe (`| head`) is not an error
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(ExitCode::SUCCESS),
        Err(e) => return Err(BadInput(format!("cannot write the results: {e}"))),
    }
    eprintln!(
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

/// One card a line, columns aligned: id, game, kind, name, owned.
fn write_table(out: &mut impl Write, hits: &[Hit]) -> std::io::Result<()> {
    let width = |f: fn(&Hit) -> &str| hits.iter().map(|h| f(h).chars().count()).max().unwrap_or(0);
    let (wi, wg, wk, wn) = (
        width(|h| &h.id),
        width(|h| &h.game),
        width(|h| &h.kind),
        width(|h| &h.name),
    );
    for h in hits {
        writeln!(
            out,
            "{:wi$}  {:wg$}  {:wk$}  {:wn$}  {}",
            h.id, h.game, h.kind, h.name, h.owned
        )?;
    }
    Ok(())
}

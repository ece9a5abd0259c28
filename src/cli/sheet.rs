//! `deckwright sheet export SELECTION --out F.xlsx|F.csv` and `deckwright sheet import F`:
//! cards as spreadsheet rows (see `docs/cards.md`, "Spreadsheets").

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::cards::Card;
use crate::catalogue::selection;
use crate::catalogue::{self, Catalogue};
use crate::sheet::{self, SheetCard, SheetError};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: SheetAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum SheetAction {
    /// Write the selected cards as rows of a CSV file or an XLSX workbook (a worksheet per
    /// game and kind), one column a key, plus `copies` (the owned quantity).
    Export {
        /// Card ids, a search query, or party/character/setup/squad files.
        #[arg(required = true)]
        selection: Vec<String>,
        /// The file to write: F.csv or F.xlsx.
        #[arg(long, value_name = "F.xlsx|F.csv")]
        out: PathBuf,
    },
    /// Import the cards of a CSV file or XLSX workbook: all or nothing, every problem named
    /// by sheet, row, column and key.
    Import {
        /// F.csv or F.xlsx.
        file: PathBuf,
    },
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    match args.action {
        SheetAction::Export { selection, out } => export(ctx, &selection, &out),
        SheetAction::Import { file } => import(ctx, &file),
    }
}

fn open(ctx: &Context) -> Result<Catalogue, BadInput> {
    let path = ctx.db.clone().unwrap_or_else(catalogue::default_path);
    Catalogue::open(&path).map_err(|e| BadInput(format!("{}: {e}", path.display())))
}

/// The cards of a command-line selection (ids, a query, or build files), in order.
pub fn select(cat: &Catalogue, args: &[String]) -> Result<Vec<Card>, BadInput> {
    let query = |q: &str| -> Result<Vec<String>, String> {
        let hits = cat.search(q, None).map_err(|e| match e.column() {
            Some(col) if e.is_bad_query() => {
                format!("search query: {e}\n{}", crate::search::point_at(q, col))
            }
            _ => format!("search query: {e}"),
        })?;
        Ok(hits.into_iter().map(|h| h.id).collect())
    };
    Ok(selection::resolve(cat, args, &query)?)
}

fn export(ctx: &Context, args: &[String], out: &std::path::Path) -> Outcome {
    sheet::Format::of(out)?;
    let cat = open(ctx)?;
    let mut seen = std::collections::HashSet::new();
    let mut rows = Vec::new();
    for card in select(&cat, args)? {
        if seen.insert(card.id().to_string()) {
            let copies = cat.owned(card.id())?;
            rows.push(SheetCard { card, copies });
        }
    }
    let n = sheet::export(&rows, out)?;
    eprintln!(
        "wrote {} ({n} card{})",
        out.display(),
        if n == 1 { "" } else { "s" }
    );
    Ok(ExitCode::SUCCESS)
}

fn import(ctx: &Context, file: &std::path::Path) -> Outcome {
    let rows = sheet::read(file).map_err(|e| match e {
        SheetError::Invalid(_) => BadInput(e.to_string()),
        other => BadInput(format!("{other}; nothing was imported")),
    })?;
    if rows.is_empty() {
        return Err(BadInput(format!(
            "{}: no card rows; nothing was imported",
            file.display()
        )));
    }
    let mut cat = open(ctx)?;
    let cards: Vec<(Card, Option<u32>)> = rows.into_iter().map(|r| (r.card, r.copies)).collect();
    let base = match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let r = cat
        .import_cards(&cards, Some(base))
        .map_err(|e| BadInput(format!("{e}; nothing was imported")))?;
    writeln!(
        ctx.out,
        "imported {} card{} from {}: {} new, {} updated, {} unchanged",
        cards.len(),
        if cards.len() == 1 { "" } else { "s" },
        file.display(),
        r.added,
        r.updated,
        r.unchanged
    );
    Ok(ExitCode::SUCCESS)
}

//! `deckwright collection`: owned quantities, set one or import/export CSV.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::catalogue::{Catalogue, default_path};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: CollectionAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum CollectionAction {
    /// Set the owned quantity of a card (0 removes it).
    Set {
        id: String,
        #[arg(allow_negative_numbers = true)]
        quantity: i64,
    },
    /// Import owned quantities from CSV (id,name,game,quantity or Count/Quantity + Name).
    Import {
        file: std::path::PathBuf,
        /// Import the known rows and report the unknown ones instead of importing nothing.
        #[arg(long)]
        skip_unknown: bool,
    },
    /// Export owned quantities to CSV (id,name,game,quantity).
    Export { file: std::path::PathBuf },
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let db = ctx.db.clone().unwrap_or_else(default_path);
    let mut cat = Catalogue::open(&db)?;
    match args.action {
        CollectionAction::Set { id, quantity } => {
            let q = u32::try_from(quantity)
                .map_err(|_| BadInput(format!("quantity {quantity} is not a whole number from 0 up")))?;
            cat.set_owned(&id, q)?;
            println!("{id}: {q} owned");
        }
        CollectionAction::Import { file, skip_unknown } => {
            let r = cat.import_collection_csv(&file, skip_unknown)?;
            for s in &r.skipped {
                eprintln!("warning: {}: skipped {s}", file.display());
            }
            println!(
                "set the quantity of {} card{} from {} row{}{}",
                r.cards,
                if r.cards == 1 { "" } else { "s" },
                r.rows,
                if r.rows == 1 { "" } else { "s" },
                if r.skipped.is_empty() { String::new() } else { format!(" ({} skipped)", r.skipped.len()) }
            );
        }
        CollectionAction::Export { file } => {
            let n = cat
                .export_collection_csv(&file)
                .map_err(|e| format!("cannot write `{}`: {e}", file.display()))?;
            println!("wrote {n} row{} to {}", if n == 1 { "" } else { "s" }, file.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

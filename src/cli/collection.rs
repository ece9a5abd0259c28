//! `deckwright collection`.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: CollectionAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum CollectionAction {
    /// Set the owned quantity of a card.
    Set { id: String, quantity: i64 },
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

pub fn run(_ctx: &Context, _args: Args) -> Outcome {
    Err(BadInput("`collection` is not built yet".into()))
}

#[allow(dead_code)]
fn ok() -> Outcome {
    Ok(ExitCode::SUCCESS)
}

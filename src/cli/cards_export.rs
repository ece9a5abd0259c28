//! `deckwright cards export DIR`: the catalogue written back as card files.

use std::process::ExitCode;

use super::{Context, Outcome};
use crate::catalogue::{Catalogue, default_path};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: CardsAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum CardsAction {
    /// Write every card as DIR/<game>/<id>.toml (and DIR/iconoclasm/clashes.toml).
    Export { dir: std::path::PathBuf },
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let db = ctx.db.clone().unwrap_or_else(default_path);
    let cat = Catalogue::open(&db)?;
    match args.action {
        CardsAction::Export { dir } => {
            let r = cat.export_dir(&dir).map_err(|e| format!("cannot export to `{}`: {e}", dir.display()))?;
            println!(
                "wrote {} card file{} to {}{}",
                r.cards,
                if r.cards == 1 { "" } else { "s" },
                dir.display(),
                if r.clash_table { " (and iconoclasm/clashes.toml)" } else { "" }
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

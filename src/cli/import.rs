//! `deckwright import PATH...`: card files and folders into the catalogue, all or nothing.

use std::process::ExitCode;

use super::{BadInput, Context, Outcome};
use crate::catalogue::{Catalogue, ImportError, default_path};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Card files or folders (searched recursively for *.toml).
    #[arg(required = true)]
    pub paths: Vec<std::path::PathBuf>,
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let db = ctx.db.clone().unwrap_or_else(default_path);
    let mut cat = Catalogue::open(&db)?;
    let report = cat.import_paths(&args.paths).map_err(|e| match e {
        ImportError::Invalid(_) => BadInput(e.to_string()),
        ImportError::Catalogue(c) => BadInput(format!("{c}; nothing was imported")),
    })?;
    let mut line = format!(
        "imported {} file{}: {} new, {} updated, {} unchanged",
        report.files,
        if report.files == 1 { "" } else { "s" },
        report.added,
        report.updated,
        report.unchanged
    );
    if report.clash_table {
        line.push_str(" (and the Iconoclasm clash table)");
    }
    writeln!(ctx.out, "{line}");
    Ok(ExitCode::SUCCESS)
}

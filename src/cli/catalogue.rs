//! `deckwright catalogue check|backup|restore`: look after the catalogue file itself.
//!
//! `check` runs the full `PRAGMA integrity_check` without changing the file and lists the
//! backups that pass theirs; `backup` takes a verified backup into the rotation beside the
//! catalogue; `restore` replaces the catalogue by a verified backup (the newest, or the one
//! named), keeping the replaced file beside it.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Context, Outcome};
use crate::catalogue::{self, Catalogue, default_path};
use crate::safe_io::size_text;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub action: CatalogueAction,
}

#[derive(Debug, clap::Subcommand)]
pub enum CatalogueAction {
    /// Check the whole catalogue (PRAGMA integrity_check) without changing it.
    Check,
    /// Take a verified backup now, beside the catalogue (the newest 3 are kept).
    Backup,
    /// Replace the catalogue by a verified backup (the newest, or FROM); the replaced file is kept.
    Restore {
        /// The backup to restore (default: the newest one that passes its check).
        from: Option<PathBuf>,
    },
}

pub fn run(ctx: &Context, args: Args) -> Outcome {
    let db = ctx.db.clone().unwrap_or_else(default_path);
    match args.action {
        CatalogueAction::Check => {
            let r = catalogue::check_file(&db)?;
            writeln!(
                ctx.out,
                "{}: ok (schema {}, {})",
                db.display(),
                r.schema,
                size_text_or_bytes(r.bytes)
            );
            if r.backups.is_empty() {
                writeln!(ctx.out, "no backup beside it passes its check");
            }
            for b in &r.backups {
                writeln!(
                    ctx.out,
                    "backup {}: ok (schema {}, {})",
                    b.path.display(),
                    b.schema,
                    size_text_or_bytes(b.bytes)
                );
            }
        }
        CatalogueAction::Backup => {
            let cat = Catalogue::open(&db)?;
            let path = cat.backup()?;
            writeln!(
                ctx.out,
                "backed up {} to {} (checked)",
                db.display(),
                path.display()
            );
        }
        CatalogueAction::Restore { from } => {
            let (b, aside) = catalogue::restore_file(&db, from.as_deref())?;
            writeln!(
                ctx.out,
                "restored {} from {} (schema {}, checked)",
                db.display(),
                b.path.display(),
                b.schema
            );
            if let Some(a) = aside {
                writeln!(ctx.out, "the replaced file is kept as {}", a.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn size_text_or_bytes(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    } else {
        size_text(n)
    }
}
